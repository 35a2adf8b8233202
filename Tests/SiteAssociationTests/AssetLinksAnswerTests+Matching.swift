import AssetLinks
import Testing

extension AssetLinksAnswerTests {
    /// Matching a query (4000): a list's relation, a check's relation and target, sites compared
    /// as Google normalises them (scheme, host and port), an app under any of its certificates.
    static let matching: [Case] = [
        Case(name: "4101 a relation two statements give", body: twoSites, ask: .list(links), outcome: .success, answer: 2),
        Case(name: "4101 a relation one statement gives", body: twoSites, ask: .list(share), outcome: .success, answer: 1),
        Case(name: "4101 no relation: every one", body: twoSites, ask: .list(nil), outcome: .success, answer: 3),
        Case(name: "4101 another detail", body: twoSites, ask: .list("delegate_permission/common.other"), outcome: .success, answer: 0),
        Case(name: "4101 another kind", body: twoSites, ask: .list("navigate/common.handle_all_urls"), outcome: .success, answer: 0),
        Case(name: "4301 a relation given", body: twoSites, ask: .check(share, site("https://target.example")), outcome: .success, answer: yes),
        Case(name: "4301 a relation not given", body: twoSites, ask: .check(share, site("https://target2.example")), outcome: .success, answer: no),
        Case(name: "4401 the first certificate", body: twoCertificates, ask: .check(links, android()), outcome: .success, answer: yes),
        Case(
            name: "4401 the second certificate",
            body: twoCertificates,
            ask: .check(links, android("org.example.app", print2)),
            outcome: .success,
            answer: yes
        ),
        Case(name: "4401 another package", body: twoCertificates, ask: .check(links, android("org.example.other")), outcome: .success, answer: no),
        Case(
            name: "4401 another certificate",
            body: twoCertificates,
            ask: .check(links, android("org.example.app", String(repeating: "AA:", count: 31) + "AA")),
            outcome: .success,
            answer: no
        ),
        Case(
            name: "4402 a target without certificates",
            body: #"[{"relation":["\#(links)"],"target":{"namespace":"android_app","package_name":"org.example.app"}}]"#,
            ask: .check(links, android()),
            outcome: .fetchError,
            answer: no,
            says: "no sha256_cert_fingerprints field in android app asset descriptor"
        ),
        Case(
            name: "4403 an http site",
            body: "[\(web("http://t.example", [links]))]",
            ask: .check(links, site("http://t.example")),
            outcome: .success,
            answer: yes
        ),
        Case(
            name: "4403 its default port",
            body: "[\(web("http://t.example", [links]))]",
            ask: .check(links, site("http://t.example:80")),
            outcome: .success,
            answer: yes
        ),
        Case(
            name: "4403 https is not http",
            body: "[\(web("http://t.example", [links]))]",
            ask: .check(links, site("https://t.example")),
            outcome: .success,
            answer: no
        ),
        Case(
            name: "4403 another port",
            body: "[\(web("http://t.example", [links]))]",
            ask: .check(links, site("http://t.example:8080")),
            outcome: .success,
            answer: no
        ),
        Case(
            name: "4404 an https site",
            body: "[\(web("https://t.example", [links]))]",
            ask: .check(links, site("https://t.example:443")),
            outcome: .success,
            answer: yes
        ),
        Case(
            name: "4404 http is not https",
            body: "[\(web("https://t.example", [links]))]",
            ask: .check(links, site("http://t.example")),
            outcome: .success,
            answer: no
        ),
        Case(
            name: "4405 a statement naming :443",
            body: "[\(web("https://t.example:443", [links]))]",
            ask: .check(links, site("https://t.example")),
            outcome: .success,
            answer: yes
        ),
        Case(
            name: "4405 not http on 443",
            body: "[\(web("https://t.example:443", [links]))]",
            ask: .check(links, site("http://t.example:443")),
            outcome: .success,
            answer: no
        ),
        Case(
            name: "4406 a statement naming :444",
            body: "[\(web("https://t.example:444", [links]))]",
            ask: .check(links, site("https://t.example:444")),
            outcome: .success,
            answer: yes
        ),
        Case(
            name: "4406 not without the port",
            body: "[\(web("https://t.example:444", [links]))]",
            ask: .check(links, site("https://t.example")),
            outcome: .success,
            answer: no
        ),
        Case(
            name: "4202 an http source's own list",
            body: "[\(web("https://t.example", [links]))]",
            source: "http://source.example",
            ask: .check(links, site("https://t.example")),
            outcome: .success,
            answer: yes
        ),
    ]
}
