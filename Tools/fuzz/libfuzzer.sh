#!/bin/sh
# Runs every kclab-libfuzzer target (or those named after the seconds) for SECONDS each,
# coverage-guided; the corpus grows in .fuzz-corpus/TARGET between runs, a crash is saved in
# .fuzz-crashes/ and fails the run, and so does an input that takes more than 10 s (-timeout:
# a slow parser fails as a crash does; libFuzzer saves it as timeout-*). Prints one line per
# target: inputs run, coverage, corpus, the slowest unit.
# Usage: Tools/fuzz/libfuzzer.sh PROGRAM SECONDS [TARGET...]
set -eu
program=$1
seconds=$2
shift 2
targets=${*:-$(KCLAB_FUZZ_TARGET=list "$program")}
mkdir -p .fuzz-crashes .fuzz-corpus
status=0
for target in $targets; do
    log=.fuzz-crashes/libfuzzer-$target.log
    if KCLAB_FUZZ_TARGET=$target KCLAB_FUZZ_SEEDS=.fuzz-corpus/$target ASAN_OPTIONS=detect_leaks=0 \
        "$program" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 -max_len=65536 -timeout=10 -report_slow_units=1 \
        -artifact_prefix=".fuzz-crashes/$target-" ".fuzz-corpus/$target" >"$log" 2>&1; then
        verdict="no crash"
    else
        verdict="CRASH (see $log)"
        status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    corpus=$(ls ".fuzz-corpus/$target" | wc -l)
    slowest=$(sed -n 's/^stat::slowest_unit_time_sec: *//p' "$log")
    printf '%-18s %s inputs in %s s, %s, corpus %s, slowest %s s: %s\n' "$target" "${runs:-?}" "$seconds" "${coverage:-cov: ?}" "$corpus" "${slowest:-?}" "$verdict"
done
exit $status
