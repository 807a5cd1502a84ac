#!/usr/bin/env bash
# Runs one benchmark binary with 5+ repetitions, in random interleaved order (so neither side of
# a pair always runs first, on a warmer or cooler machine), and prints, for each
# BM_<name>_units / BM_<name>_raw pair, the ratio of their median CPU times (the figure issue
# notes report).
# Usage: bench/ratios.sh build/bench/bench/units_bench [repetitions]
set -euo pipefail
binary=$1
repetitions=${2:-9}
"$binary" --benchmark_repetitions="$repetitions" --benchmark_report_aggregates_only=true \
          --benchmark_enable_random_interleaving=true \
          --benchmark_format=csv 2>/dev/null |
awk -F, '
  /_median"?,/ {
    name = $1; gsub(/"/, "", name); sub(/_median$/, "", name)
    cpu[name] = $4
  }
  END {
    for (n in cpu) if (n ~ /_units$/) {
      base = n; sub(/_units$/, "", base)
      raw = base "_raw"
      if (raw in cpu) printf "%-40s units %8.3f ns  raw %8.3f ns  ratio %.3f\n", base, cpu[n], cpu[raw], cpu[n] / cpu[raw]
    }
  }'
