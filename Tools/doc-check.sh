#!/usr/bin/env bash
# Runs every command block of the README and docs that is marked `<!-- doc-check … -->` on the
# line before its opening fence, as written, in order, from the repository's folder; fails at the
# first command that fails. make doc-check runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
script=$(mktemp)
trap 'rm -f "$script"' EXIT
# Bare `kclab` in the docs is the one this checkout built (make install puts it on PATH).
echo 'set -euo pipefail; export PATH="$PWD/.build/debug:$PATH"' > "$script"
blocks=0
for file in README.md docs/*.md; do
  awk -v file="$file" '
    /^<!-- doc-check/ { marked = 1; next }
    marked && /^```sh$/ { inside = 1; marked = 0; print "echo \"== " file "\""; next }
    inside && /^```$/ { inside = 0; next }
    inside { print; next }
    { marked = 0 }
  ' "$file" >> "$script"
done
blocks=$(grep -c '^echo "== ' "$script" || true)
[ "$blocks" -gt 0 ] || { echo "doc-check: no marked block found" >&2; exit 1; }
echo "doc-check: running $blocks block(s)"
bash -x "$script" 2>&1 | sed 's/^/  /'
echo "doc-check: every marked block ran"
