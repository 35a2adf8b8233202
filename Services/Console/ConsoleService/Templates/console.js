// The console's one script: the Decisions page follows /events (server-sent events) and adds
// each new decision at the top, as the server renders rows. Every value is set as text, never as
// markup. EventSource reconnects by itself and sends Last-Event-ID, so nothing is missed.
"use strict";
(function () {
  const list = document.getElementById("decisions");
  const live = document.getElementById("live");
  if (!list || !live || !window.EventSource) return;
  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const line = (label, className, text) => {
    const p = element("p");
    p.append(element("span", "label", label), " ", element(className === "rule" ? "code" : "span", className, text));
    return p;
  };
  const row = (d) => {
    const item = element("li", "decision " + d.outcome);
    item.dataset.id = d.id;
    item.dataset.udid = d.udid;
    item.dataset.app = d.app;
    item.dataset.code = d.code;
    const details = element("details");
    const summary = element("summary");
    const time = element("time", "", d.time);
    time.dateTime = d.time;
    summary.append(time, " ", element("span", "device", d.device), " ", element("code", "app", d.app), " ",
      element("code", "call", d.call), " → ", element("span", "status", d.name), " ", element("span", "code", d.code));
    const checks = element("div", "checks");
    const record = element("details", "record");
    record.append(element("summary", "", "The whole record"), element("pre", "", d.record));
    checks.append(line("rule", "rule", d.rule), line("why", "reason", d.reason), line("fix", "fix", d.fix), record);
    details.append(summary, checks);
    item.append(details);
    return item;
  };
  const source = new EventSource(live.dataset.stream);
  let added = 0;
  source.addEventListener("open", () => { live.textContent = "Live: following keychaind's decisions."; });
  source.addEventListener("error", () => { live.textContent = "Live: connection lost; reconnecting…"; });
  source.addEventListener("decision", (event) => {
    const d = JSON.parse(event.data);
    if (list.querySelector('[data-id="' + Number(d.id) + '"]')) return;
    list.prepend(row(d));
    const empty = document.getElementById("empty");
    if (empty) empty.remove();
    added += 1;
    live.textContent = "Live: " + added + " new since the page opened.";
    while (list.children.length > 1000) list.lastElementChild.remove();
  });
})();
