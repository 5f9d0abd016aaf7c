# t_memest.sh - the memory estimate (core/memest.c, models/fabric/fab_estimate.c):
# --check prints it, --partition-only -n N prints the per-rank figure, a run
# and --check refuse what does not fit (exit 2, one line naming the key), and
# the estimate stays within its documented error of the peak RSS of real runs.

# est_bytes FILE : the estimate of an "estimated memory: X MiB|GiB" line, in bytes
est_bytes() {
	sed -n 's/.*estimated memory: \([0-9.]*\) \([MG]\)iB per rank.*/\1 \2/p' "$1" |
		awk '{ print int($1 * ($2 == "G" ? 1073741824 : 1048576)) }'
}

test_check_prints_the_estimate() {
	cxl 1 --check "$CONFIGS/spine_leaf.cfg" > out.txt || fail "--check failed" || return 1
	grep -Eq '^  estimated memory: [0-9.]+ MiB per rank on 1 rank \(largest component kind: [a-z]+, [0-9.]+ [MG]iB, from key [a-z_.]+\); limit ' out.txt ||
		fail "no estimate line: $(grep estimated out.txt)"
}

test_partition_only_prints_per_rank_figure() {
	cxl 1 --partition-only -n 4 "$CONFIGS/rack-4096.cfg" -o out > p4.txt || fail "-n 4 failed" || return 1
	cxl 1 --partition-only -n 1 "$CONFIGS/rack-4096.cfg" -o out1 > p1.txt || fail "-n 1 failed" || return 1
	grep -q 'per rank on 4 ranks' p4.txt || fail "no 4-rank figure" || return 1
	local a b
	a=$(est_bytes p1.txt) b=$(est_bytes p4.txt)
	[ "$b" -lt "$a" ] && [ "$b" -gt $((a / 8)) ] || fail "4 ranks $b vs 1 rank $a"
}

test_check_refuses_what_does_not_fit() {
	expect_error 1 "--set memory.dcoh.entries=16777216: memory.dcoh.entries: the estimated peak memory of rank 0, 5.5 GiB .*exceeds the 2.0 GiB a rank may use \(simulation.mem_per_rank\); lower memory.dcoh.entries" \
		--check "$CONFIGS/sf-policy.cfg" --set memory.dcoh.entries=16777216 \
		--set simulation.mem_per_rank=2GiB
}

test_run_refuses_on_every_rank_count() {
	for n in 1 2; do
		expect_error "$n" ".*: bus.buffer: the estimated peak memory of rank [01], .*in bus components.*exceeds the 1.0 MiB" \
			"$CONFIGS/spine_leaf.cfg" --set topology.leaves=64 --set topology.spines=16 \
			--set simulation.mem_per_rank=1MiB || return 1
	done
}

# The estimate against run.peak_rss_bytes: never below it by more than 10%,
# never above it by more than the documented factor (untouched zeroed pages).
check_against_run() {
	local over=$1; shift
	cxl 1 --check "$@" > chk.txt || fail "--check $*" || return 1
	cxl 1 -q "$@" -o run > /dev/null || fail "run $*" || return 1
	local est rss
	est=$(est_bytes chk.txt)
	rss=$(grep -o '"peak_rss_bytes": \[ [0-9]*' run/stats.json | grep -o '[0-9]*$')
	echo "    estimate $est, peak RSS $rss: $*"
	# ASan's shadow memory, redzones and quarantine make a sanitizer build's RSS 2-4x a
	# release build's: the figures are compared in the release pass only
	[ -z "${SANITIZE:-}" ] || return 0
	[ "$est" -ge $((rss * 9 / 10)) ] || fail "estimate $est below peak RSS $rss" || return 1
	[ "$est" -le $((rss * over)) ] || fail "estimate $est over $over x peak RSS $rss"
}

test_estimate_near_peak_rss_spine_leaf() {
	check_against_run 2 "$CONFIGS/spine_leaf.cfg"
}

test_estimate_near_peak_rss_rack_4096() {
	check_against_run 2 "$CONFIGS/rack-4096.cfg" --end 2us
}

test_estimate_near_peak_rss_big_snoop_filter() {
	check_against_run 3 "$CONFIGS/sf-policy.cfg" --set memory.dcoh.entries=2097152 --end 20us
}
