# t_coherence.sh - requester caches (host.cache.*) and, with a DCOH in front
# of memory, back-invalidation: hits answered locally, dirty victims
# written back, every request answered once and every credit home, and
# results byte-identical on 1-4 ranks.

# cache_run N OUT ARGS... : ESF validation, hot/cold 90/10, reads and writes
cache_run() {
	local n=$1 out=$2; shift 2
	cxl "$n" -q "$CONFIGS/esf-validation.cfg" --partition metis -o "$out" \
		--set workload.pattern=hotcold --set workload.read_ratio=0.7 \
		--set workload.requests=4000 --set host.cache.size=65536 "$@"
}

csv_stat() { awk -F, -v c="$2" -v s="$3" '$1 == c && $4 == s { print $5 }' "$1/components.csv"; }

test_cache_hits_writebacks_and_conservation() {
	cache_run 1 c || return 1
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o n --set workload.pattern=hotcold \
		--set workload.read_ratio=0.7 --set workload.requests=4000 || return 1
	local hits misses wbs
	hits=$(csv_stat c host0 hits); misses=$(csv_stat c host0 misses); wbs=$(csv_stat c host0 writebacks)
	echo "hits $hits, misses $misses, write-backs $wbs; mean latency $(json_num c/stats.json mean) ns" \
		"(no cache: $(json_num n/stats.json mean) ns)"
	[ $((hits + misses)) = 4000 ] && [ "$hits" -gt 1000 ] && [ "$wbs" -gt 0 ] ||
		fail "hits $hits misses $misses write-backs $wbs" || return 1
	# the devices saw exactly the misses and the write-backs
	local dev
	dev=$(awk -F, '$2 == "memory" && ($4 == "reads" || $4 == "writes") { t += $5 } END { print t }' c/components.csv)
	echo "device reads + writes: $dev"
	[ "$dev" = $((misses + wbs)) ] || fail "devices saw $dev requests, host sent $((misses + wbs))" || return 1
	conserved c 4000 || return 1
	awk -v a="$(json_num c/stats.json mean)" -v b="$(json_num n/stats.json mean)" 'BEGIN { exit !(a < b) }' ||
		fail "the cache did not lower the mean latency"
}

test_cache_identical_on_1_to_4_ranks() {
	for n in 1 2 3 4; do
		cache_run "$n" r$n || return 1
		cmp -s <(results r1/stats.json) <(results r$n/stats.json) || fail "$n ranks differ" || return 1
	done
}
