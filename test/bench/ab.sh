#!/usr/bin/env bash
# test/bench/ab.sh - is cxlfab binary B faster than binary A on one run?
#
# Usage: test/bench/ab.sh [-n ROUNDS] A B CONFIG [cxlfab options...]
#
# Each round runs A and B at the same time, one pinned to each of the first
# two cores (taskset), then again with the cores swapped, so that both see
# the same machine; it prints every pair's loop times (stats.json
# run.loop_s) and at the end the medians and the median of the pairs'
# ratios B/A (below 1: B is faster).  On this shared 2-core machine, two
# binaries compared on the ring trace replay gave a median ratio of 1.037
# with pairs spread 0.71-1.38 run one after the other, and 0.953 and 0.951
# (pairs 0.80-1.16 and 0.69-1.31) run at once (core/README.md,
# "Performance"): read the median of many pairs.  Two runs at once
# share the memory system, so a memory-bound run (rack-4096) is slower than
# alone and its ratio is the less reliable one.
#
# Both binaries must compute the same results: every pair's stats.json from
# `summary` on (summary, components) is compared, and a difference stops the script
# (exit 1).  ROUNDS defaults to 10 (20 pairs).
set -u
rounds=10
if [ "${1:-}" = -n ]; then
	rounds=${2:-}
	shift 2
fi
if [ $# -lt 3 ] || ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: $0 [-n ROUNDS] A B CONFIG [cxlfab options...]" >&2
	exit 2
fi
a=$1 b=$2
shift 2
for x in "$a" "$b"; do
	[ -x "$x" ] || { echo "ab.sh: $x is not an executable" >&2; exit 2; }
done
[ "$(nproc)" -ge 2 ] || { echo "ab.sh: needs two cores" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

args=("$@")

# loop_s DIR: run.loop_s of DIR/stats.json; results DIR: its results, everything
# after "run" (as test/bench/run.sh and test/integration/lib.sh compare them)
loop_s() { grep -o '"loop_s": [-0-9.e+]*' "$1/stats.json" | head -1 | sed 's/.*: //'; }
results() { sed -n '/^  "summary": {/,$p' "$1/stats.json"; }

# pair CORE_A CORE_B : one run of each at once; prints "loop_a loop_b"
pair() {
	taskset -c "$1" "$a" -q "${args[@]}" -o "$out/a" >/dev/null 2>&1 &
	local pa=$!
	taskset -c "$2" "$b" -q "${args[@]}" -o "$out/b" >/dev/null 2>&1 &
	local pb=$!
	wait $pa || { echo "ab.sh: $a failed" >&2; exit 1; }
	wait $pb || { echo "ab.sh: $b failed" >&2; exit 1; }
	cmp -s <(results "$out/a") <(results "$out/b") ||
		{ echo "ab.sh: the two binaries' results differ" >&2; exit 1; }
	echo "$(loop_s "$out/a") $(loop_s "$out/b")"
}

echo "# loop_s A, loop_s B, ratio B/A (load average $(cut -d' ' -f1-3 /proc/loadavg))"
for r in $(seq "$rounds"); do
	for cores in "0 1" "1 0"; do
		line=$(pair $cores) || exit 1
		echo "$line" | awk '{ printf "%.3f %.3f %.3f\n", $1, $2, $2 / $1 }' | tee -a "$out/rows"
	done
done
python3 - "$out/rows" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if not l.startswith("#")]
a, b, r = zip(*rows)
print("pairs %d: median loop A %.3f s, B %.3f s; median ratio B/A %.3f (%.3f-%.3f)"
      % (len(r), statistics.median(a), statistics.median(b), statistics.median(r), min(r), max(r)))
PY
