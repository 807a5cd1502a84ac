#!/usr/bin/env bash
# Counts the instructions one iteration of each timed loop executes, under valgrind's callgrind:
# for every BM_<name>_units / _raw / _checked benchmark in a binary, the instructions executed
# inside the benchmark function (callgrind's inclusive count, collected only there) divided by
# the iterations Google Benchmark ran it for, summed over its runs. The loop's own bookkeeping
# (picking the next input) is the same on both sides of a pair. Unlike a time, the count does not
# move with other load on the machine or with where the code sits, so it separates "the twin
# does less work" from "the twin happens to be placed better" (docs/benchmarks.md).
# Usage: bench/instructions.sh build/bench/bench/roofline_bench
set -euo pipefail
binary=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
names=$("$binary" --benchmark_list_tests=true | grep -E '^BM_.*_(units|raw|checked)$')
for name in $names; do
  # --v=2 logs each run's iteration count ("Running BM_x for N").
  valgrind --tool=callgrind --callgrind-out-file="$work/$name.cg" --toggle-collect="*$name(*" \
    "$binary" --benchmark_filter="^$name\$" --benchmark_min_time=0.05 --v=2 \
    >"$work/$name.log" 2>&1
  iterations=$(awk -v n="$name" '$0 ~ "Running " n " for " { s += $NF } END { print s }' "$work/$name.log")
  instructions=$(callgrind_annotate --inclusive=yes "$work/$name.cg" 2>/dev/null |
    awk -v n="$name" 'index($0, "::" n "(benchmark::State&)") { gsub(/,/, "", $1); print $1; exit }')
  awk -v n="$name" -v i="$instructions" -v k="$iterations" \
    'BEGIN { printf "%-32s %8.1f instructions per iteration (%d over %d iterations)\n", n, i / k, i, k }'
done
