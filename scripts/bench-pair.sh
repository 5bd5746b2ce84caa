#!/usr/bin/env bash
# Two builds side by side (docs/BENCHMARKS.md, "Two builds side by side"):
# runs storedaemon-bench against build A's daemon and build B's in turn,
# A B A B …, one warm-up pair first, then prints each figure's median and
# range for both and the ratio of the medians, B / A.
#
#   scripts/bench-pair.sh [-n RUNS] [--own-bench] A_DIR B_DIR [-- BENCH_OPTIONS...]
#
# A_DIR and B_DIR hold each build's release binaries (.build/release). By
# default both runs use B's storedaemon-bench, pointed at each build's daemon
# with --binaries, so only the daemon and its workers differ; --own-bench
# runs each build's own benchmark instead (needed for i, whose journal
# fixture is written in the build's own format). BENCH_OPTIONS go to every
# run (default: --only a,b,f --seconds 3 --no-redis). Every run's table is
# kept in the directory the script prints.
set -euo pipefail

runs=6
own_bench=0
dirs=()
while (($#)); do
  case "$1" in
    -n) (($# > 1)) || { echo "bench-pair.sh: -n needs a number of runs" >&2; exit 2; }; runs="$2"; shift ;;
    --own-bench) own_bench=1 ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) echo "bench-pair.sh: unknown option '$1' (-h lists them)" >&2; exit 2 ;;
    *) dirs+=("$1") ;;
  esac
  shift
done
options=("$@")
((${#options[@]})) || options=(--only a,b,f --seconds 3 --no-redis)
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "bench-pair.sh: -n takes a positive number of runs, got '$runs'" >&2; exit 2; }
((${#dirs[@]} == 2)) || { echo "bench-pair.sh: give two build directories, A and B (-h for help)" >&2; exit 2; }
for dir in "${dirs[@]}"; do
  for program in storedaemon-bench storedaemon effectworker effectworker-network tcactl; do
    [[ -x "$dir/$program" ]] || { echo "bench-pair.sh: no executable $dir/$program (build it with swift build -c release)" >&2; exit 2; }
  done
done
a="$(cd "${dirs[0]}" && pwd)"
b="$(cd "${dirs[1]}" && pwd)"
out="$(mktemp -d /tmp/bench-pair.XXXXXX)"
echo "A: $a" >&2
echo "B: $b" >&2
echo "options: ${options[*]}; $runs runs each after a warm-up; tables in $out" >&2

# One run of side $1 (a or b) whose binaries are in $2, numbered $3.
run() {
  local side="$1" binaries="$2" index="$3" bench="$b/storedaemon-bench"
  if ((own_bench)); then bench="$binaries/storedaemon-bench"; fi
  if ! "$bench" "${options[@]}" --binaries "$binaries" --markdown "$out/$side-$index.md" >"$out/$side-$index.log" 2>&1; then
    echo "bench-pair.sh: run $index of $side failed (a measurement failed); see $out/$side-$index.log" >&2
  fi
}

for ((index = 0; index <= runs; index++)); do
  if ((index == 0)); then echo "warm-up pair, not counted" >&2; else echo "pair $index of $runs" >&2; fi
  run a "$a" "$index"
  run b "$b" "$index"
done

# Each figure's median and range per side: the rows of the counted runs'
# tables, keyed by figure and measure, their value's number and unit.
summarize() {
  awk -F'|' '
    function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    FNR == 1 { side = (FILENAME ~ /\/a-[0-9]+\.md$/) ? "A" : "B" }
    NF >= 8 {
      figure = trim($2); measure = trim($3); value = trim($4)
      if (figure == "" || figure ~ /^-+$/ || !match(value, /^[0-9.]+/)) next
      key = figure SUBSEP measure
      if (!(key in seen)) { seen[key] = 1; order[++count] = key }
      number = substr(value, 1, RLENGTH) + 0
      rest = trim(substr(value, RLENGTH + 1))
      # Rates are printed as k/s or M/s by their size: counted in /s here,
      # so that runs on either side of 1M/s compare.
      if (rest == "k/s") { number *= 1e3; rest = "/s" }
      if (rest == "M/s") { number *= 1e6; rest = "/s" }
      unit[key] = rest
      values[side, key, ++n[side, key]] = number
    }
    function median(side, key,    i, j, t, m, a) {
      m = n[side, key]
      for (i = 1; i <= m; i++) a[i] = values[side, key, i]
      for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
      low[side, key] = a[1]; high[side, key] = a[m]
      return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    # A value with its unit, a rate again in k/s or M/s.
    function show(value, u) {
      if (u != "/s") return sprintf("%.4g", value)
      if (value >= 1e6) return sprintf("%.4gM", value / 1e6)
      if (value >= 1e3) return sprintf("%.4gk", value / 1e3)
      return sprintf("%.4g", value)
    }
    END {
      print "| figure | measure | A median (range) | B median (range) | B / A |"
      print "|---|---|---|---|---|"
      for (i = 1; i <= count; i++) {
        key = order[i]; split(key, part, SUBSEP)
        if (!n["A", key] || !n["B", key]) continue
        ma = median("A", key); mb = median("B", key)
        u = unit[key]
        gap = (u == "/s") ? "" : " "
        printf "| %s | %s | %s%s%s (%s–%s) | %s%s%s (%s–%s) | %s |\n", part[1], part[2], \
          show(ma, u), gap, u, show(low["A", key], u), show(high["A", key], u), \
          show(mb, u), gap, u, show(low["B", key], u), show(high["B", key], u), \
          (ma > 0) ? sprintf("%.3f", mb / ma) : "n/a"
      }
    }' "$@"
}

counted=()
for ((index = 1; index <= runs; index++)); do
  for side in a b; do [[ -f "$out/$side-$index.md" ]] && counted+=("$out/$side-$index.md"); done
done
((${#counted[@]})) || { echo "bench-pair.sh: no run wrote its table; see the logs in $out" >&2; exit 1; }
summarize "${counted[@]}" | tee "$out/summary.md"
