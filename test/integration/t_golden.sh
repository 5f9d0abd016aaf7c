# t_golden.sh - results that must not move: the corner-case variants of
# test/golden/variant-hashes (half duplex, replay layer, cut-through,
# adaptive routing, slices, zero latencies, runs stopped mid-flight, time
# series, DRAM presets, coherence, traces, ...) hash exactly as recorded in
# test/golden/variant-hashes.txt.  An optimisation must keep every line; a
# change meant to alter results regenerates the file (see the script).

test_variant_hashes_unchanged() {
	local golden="$CONFIGS/../test/golden"
	JOBS=2 CXLFAB="$CXLFAB" "$golden/variant-hashes" > now.txt || fail "variant-hashes failed" || return 1
	[ "$(wc -l < now.txt)" -ge 40 ] || fail "only $(wc -l < now.txt) variants ran" || return 1
	if ! grep -q FAILED now.txt && cmp -s "$golden/variant-hashes.txt" now.txt; then
		return 0
	fi
	diff "$golden/variant-hashes.txt" now.txt | head -20
	fail "variant results differ from test/golden/variant-hashes.txt"
}
