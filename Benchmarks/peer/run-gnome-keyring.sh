#!/usr/bin/env bash
# Runs the gnome-keyring benchmark headless: a private HOME and D-Bus session, the keyring daemon
# unlocked with a throw-away password, libsecret from Python. Needs Debian's gnome-keyring,
# libsecret-1-0, gir1.2-secret-1, python3-gi and dbus (make bench installs them), and Debian's own
# /usr/bin/python3, which has python3-gi. Prints one JSON object.
set -euo pipefail
items=${1:-1000}
lookups=${2:-2000}
here=$(cd "$(dirname "$0")" && pwd)
home=$(mktemp -d /tmp/kclab-peer.XXXXXX)

# The keyring and bus daemons detach; stop exactly the ones whose environment names this run's HOME.
cleanup() {
  for environ in /proc/[0-9]*/environ; do
    if grep -qs "HOME=$home" "$environ"; then
      pid=${environ#/proc/}; pid=${pid%/environ}
      [ "$pid" != "$$" ] && kill "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$home"
}
trap cleanup EXIT

HOME=$home XDG_RUNTIME_DIR=$home dbus-run-session -- bash -c "
  echo -n bench-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
  /usr/bin/python3 '$here/gnome_keyring_bench.py' $items $lookups > '$home/result.json'
" 2>"$home/errors.log" </dev/null || { grep -v 'fd limit' "$home/errors.log" >&2; exit 1; }
# A file, not a pipe, takes the daemons' output: they outlive dbus-run-session until cleanup.
cat "$home/result.json"
