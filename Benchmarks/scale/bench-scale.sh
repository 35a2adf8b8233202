#!/bin/sh
# make bench-scale: kclab fleet's figures at 1,000 and 10,000 devices (docs/scale.md), on a
# release build, beside a lab of its own in .bench-scale:
#   - 1,000 devices against the lab's own cloudd on SQLite;
#   - 1,000 devices, one PostgreSQL shard and one cloudd replica;
#   - 1,000 devices, two shards and two replicas;
#   - 10,000 devices, two shards and three replicas, in four worker processes, each device
#     writing and calling less often and starting over five minutes, for seven (the machine's two
#     cores are shared by the fleet and every server, and each device's start costs five TLS
#     handshakes: over two minutes, a quarter of them never set up).
#   - the database as the bottleneck: each PostgreSQL shard held to a fifth of a core (a
#     database machine of its own, kclab fleet --shard-cores; Linux cgroups, so root only), 1,000
#     devices writing 30 times a minute and calling nothing else, one shard then two; the last
#     line gives two shards' writes a second over one's.
# Every device's app also makes SecItem calls on keychaind's call channel (the default mix, 9 a
# minute; SecItem p50/p99 is SecItemCopyMatching's, setup the report and registration).
# Each run writes .bench-scale/NAME.json; the table at the end comes from those files (jq).
# BENCH_SCALE_SECONDS (default 60) sets each run's length (the 10,000-device run's is 7 times it,
# its ramp 5 times).
set -eu
BIN=${BIN:-.build-release/release}
STATE=.bench-scale
SECONDS_EACH=${BENCH_SCALE_SECONDS:-60}

"$BIN/kclab" up --state "$STATE" >/dev/null
trap '"$BIN/kclab" down --state "$STATE" >/dev/null' EXIT

run() {
  name=$1; seconds=$2; shift 2
  echo "== $name: kclab fleet --seconds $seconds $*" >&2
  "$BIN/kclab" fleet --state "$STATE" --seconds "$seconds" --json "$STATE/$name.json" "$@" >&2
}

run sqlite-1000 "$SECONDS_EACH" --devices 1000 --writes-per-minute 6
run postgres-1000 "$SECONDS_EACH" --devices 1000 --writes-per-minute 6 --shards 1 --replicas 1
run shards2-1000 "$SECONDS_EACH" --devices 1000 --writes-per-minute 6 --shards 2 --replicas 2
run shards2-10000 $((SECONDS_EACH * 7)) --devices 10000 --writes-per-minute 1 --calls-per-minute 3 --checks-per-minute 0.2 --web-credentials-per-minute 0.1 \
  --shards 2 --replicas 3 --ramp $((SECONDS_EACH * 5)) --settle 60 --workers 4
names="sqlite-1000 postgres-1000 shards2-1000 shards2-10000"
if [ "$(id -u)" = 0 ]; then
  for shards in 1 2; do
    run "db$shards-1000" "$SECONDS_EACH" --devices 1000 --writes-per-minute 30 --calls-per-minute 0 --checks-per-minute 0 \
      --web-credentials-per-minute 0 --shards "$shards" --replicas 2 --shard-cores 0.2 --ramp 20 --settle 30
  done
  names="$names db1-1000 db2-1000"
else
  echo "(the runs with each shard held to 0.2 cores need root for their cgroups: skipped)" >&2
fi

echo
echo "run              devices  uploads/s  upload p50/p99 ms  convergence p50/p99 ms  after start p50/p99 ms  started s  converged  lost  SecItem/s  SecItem p50/p99 ms  setup p99 ms  errors  KiB/device  fleet MiB  cloud MiB"
for name in $names; do
  jq -r --arg name "$name" '[$name, .plan.devices, (.operations.upload.perSecond | floor),
      "\(.operations.upload.p50Milliseconds | floor)/\(.operations.upload.p99Milliseconds | floor)",
      "\(.convergence.arrivals.p50Milliseconds | floor)/\(.convergence.arrivals.p99Milliseconds | floor)",
      (if .convergence.afterStart then "\(.convergence.afterStart.p50Milliseconds | floor)/\(.convergence.afterStart.p99Milliseconds | floor)" else "-" end),
      (.convergence.startSeconds // "-" | if type == "number" then floor else . end),
      "\(.convergence.converged)/\(.audit.acknowledged)", .audit.lost,
      ([.operations | to_entries[] | select(.key | startswith("SecItem")) | .value.perSecond] | add // 0 | floor),
      "\(.operations.SecItemCopyMatching.p50Milliseconds // 0 | floor)/\(.operations.SecItemCopyMatching.p99Milliseconds // 0 | floor)",
      (.operations["keychain setup"].p99Milliseconds // 0 | floor), ([.errors[]] | add // 0),
      (.memory.perDeviceBytes / 1024 | floor), (.memory.residentAfterBytes / 1048576 | floor),
      (.memory.cloudPeakBytes / 1048576 | floor)] | @tsv' "$STATE/$name.json"
done | column -t
if [ "${names%db2-1000}" != "$names" ]; then
  jq -rn --slurpfile one "$STATE/db1-1000.json" --slurpfile two "$STATE/db2-1000.json" \
    '"two shards over one, each held to 0.2 cores: \($two[0].operations.upload.perSecond / $one[0].operations.upload.perSecond * 100 | floor / 100)× the writes a second"'
fi
