#!/usr/bin/env bash
# Runs one benchmark binary with several repetitions, in random interleaved order (so neither
# side of a pair always runs first, on a warmer or cooler machine), and prints, for each
# BM_<name>_units / BM_<name>_raw pair, the ratio of their median CPU times and the ratio of
# their fastest repetitions. Other load on a shared machine only ever adds time, so the fastest
# repetition is the least disturbed estimate; the two ratios agreeing is the sign of a clean run.
# For each BM_<name>_checked it also prints checked ÷ units: a checked_model against the
# validating entry point that checks the model on every call.
# Usage: bench/ratios.sh build/bench/bench/units_bench [repetitions]
set -euo pipefail
binary=$1
repetitions=${2:-15}
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
# The binary checks its twins before timing and aborts if one disagrees: show why, and stop.
if ! csv=$("$binary" --benchmark_repetitions="$repetitions" --benchmark_enable_random_interleaving=true \
                     --benchmark_format=csv 2>"$errors"); then
  cat "$errors" >&2
  exit 1
fi
printf '%s\n' "$csv" |
awk -F, '
  # One row per repetition: names end in _units, _raw or _checked (aggregates end in _mean, ...).
  /^"?BM_.*_(units|raw|checked)"?,/ {
    name = $1; gsub(/"/, "", name)
    n[name]++
    t[name, n[name]] = $4 + 0
    unit[name] = $5
  }
  function median(name,    i, j, k, v, a) {
    k = n[name]
    for (i = 1; i <= k; i++) a[i] = t[name, i]
    for (i = 2; i <= k; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  function fastest(name,    i, m) {
    m = t[name, 1]
    for (i = 2; i <= n[name]; i++) if (t[name, i] < m) m = t[name, i]
    return m
  }
  END {
    for (u in n) if (u ~ /_units$/) {
      base = u; sub(/_units$/, "", base)
      r = base "_raw"
      if (!(r in n)) continue
      mu = median(u); mr = median(r); fu = fastest(u); fr = fastest(r)
      printf "%-24s median %8.3f / %8.3f %s = %.3f   fastest %8.3f / %8.3f %s = %.3f\n", base, mu, mr, unit[u], mu / mr, fu, fr, unit[u], fu / fr
    }
    # A checked-model path against the validating one: checked ÷ units.
    for (c in n) if (c ~ /_checked$/) {
      base = c; sub(/_checked$/, "", base)
      u = base "_units"
      if (!(u in n)) continue
      mc = median(c); mu = median(u); fc = fastest(c); fu = fastest(u)
      printf "%-24s checked/validating median %8.3f / %8.3f %s = %.3f   fastest %8.3f / %8.3f %s = %.3f\n", base, mc, mu, unit[c], mc / mu, fc, fu, unit[c], fc / fu
    }
  }' | sort
