# t_determinism.sh - same config + seed => byte-identical summary and components
# for 1, 2, 3, 4 and 8 ranks and every partitioner (design §4).

# small_cfg REMOTE [NEIGHBOURS] : a small PHOLD config in phold.cfg
small_cfg() {
	cat > phold.cfg <<CFG
simulation = { end = "300ns"; seed = 11; };
phold = { lps = 300; start_events = 2; remote = $1; lookahead = "100ps"; mean = "1ns";
          neighbours = "${2:-all}"; };
CFG
}

# same_everywhere REMOTE [NEIGHBOURS] : run on 1..4 ranks x {block, roundrobin},
# compare to 1 rank
same_everywhere() {
	small_cfg "$1" "${2:-all}"
	cxl 1 -q phold.cfg -o r1 || fail "1-rank run failed" || return 1
	results r1/stats.json > ref
	[ -s ref ] || fail "no summary in stats.json" || return 1
	for n in $MRANKS; do
		for p in block roundrobin; do
			cxl "$n" -q phold.cfg -o "r$n$p" --partition "$p" || fail "$n ranks $p: run failed" || return 1
			results "r$n$p/stats.json" | cmp -s ref - || fail "$n ranks, $p: results differ from 1 rank" || return 1
			grep -q "\"ranks\": $n," "r$n$p/stats.json" || fail "run.ranks is not $n" || return 1
		done
	done
}

test_phold_identical_across_ranks_and_partitioners() { same_everywhere 0.25; }
test_phold_all_remote_identical() { same_everywhere 1.0; }
test_phold_no_remote_identical() { same_everywhere 0; }

# Ring mode: link sends, lookahead from cut links, and (4 ranks, block: each
# rank has 2 of 3 possible neighbours) the sparse path with one allreduce.
test_ring_links_identical_across_ranks_and_partitioners() { same_everywhere 0.5 ring; }

test_ring_lookahead_from_cut_links() {
	small_cfg 0.5 ring
	cxl 4 -q phold.cfg -o out || return 1
	[ "$(json_num out/stats.json lookahead_ps)" = 100 ] || fail "lookahead is not the link latency" || return 1
	[ "$(json_num out/stats.json edge_cut)" = 4 ] || fail "block on a ring of 4 parts cuts 4 links"
	cxl 1 -q phold.cfg -o one || return 1
	grep -q '"lookahead_ps": null' one/stats.json || fail "one rank: lookahead should be null"
}

test_seed_changes_results() {
	small_cfg 0.25
	cxl 1 -q phold.cfg -o a || return 1
	cxl 1 -q phold.cfg -o b --seed 12 || return 1
	cxl 2 -q phold.cfg -o c || return 1
	results a/stats.json | cmp -s - <(results b/stats.json) && fail "seed 11 and 12 gave the same results"
	results a/stats.json | cmp -s - <(results c/stats.json) || fail "same seed, 2 ranks: results differ"
}

test_repeat_run_identical() {
	small_cfg 0.5
	cxl 3 -q phold.cfg -o a --partition roundrobin || return 1
	cxl 3 -q phold.cfg -o b --partition roundrobin || return 1
	results a/stats.json | cmp -s - <(results b/stats.json) || fail "two identical 3-rank runs differ"
}

# Regression: a ring of 7 LPs round-robin on 4 ranks cuts like a star (ranks
# 0 and 2 neighbour everyone, 1 and 3 do not).  Ranks once disagreed on
# whether a window needs the allreduce, and the job hung.
test_star_shaped_cut_does_not_hang() {
	printf 'simulation = { end = "200ns"; seed = 2; };\nphold = { lps = 7; remote = 0.7; neighbours = "ring"; };\n' > star.cfg
	cxl 1 -q star.cfg -o one || return 1
	TIMEOUT=60 cxl 4 -q star.cfg -o four --partition roundrobin || fail "4 ranks, star-shaped cut: failed or hung" || return 1
	results one/stats.json | cmp -s - <(results four/stats.json) || fail "results differ from 1 rank"
}

# 8 ranks oversubscribed on this 2-core machine (design §4 names 1, 2, 3, 4
# and 8): PHOLD with global sends (every rank a neighbour, no collective) and
# with ring links (sparse neighbours, one allreduce per window), and a fabric
# under metis and roundrobin, each equal to the 1-rank run byte for byte.
test_eight_ranks_identical() {
	small_cfg 0.5
	cxl 1 -q phold.cfg -o p1 || return 1
	for p in block roundrobin; do
		cxl 8 -q phold.cfg -o "p8$p" --partition "$p" || fail "PHOLD, 8 ranks $p: run failed" || return 1
		results p1/stats.json | cmp -s - <(results "p8$p/stats.json") || fail "PHOLD, 8 ranks $p: results differ" || return 1
	done
	small_cfg 0.5 ring
	cxl 1 -q phold.cfg -o q1 || return 1
	cxl 8 -q phold.cfg -o q8 --partition roundrobin || fail "PHOLD ring, 8 ranks: run failed" || return 1
	results q1/stats.json | cmp -s - <(results q8/stats.json) || fail "PHOLD ring, 8 ranks: results differ" || return 1
	local cfg=$CONFIGS/spine_leaf.cfg
	cxl 1 -q "$cfg" --set workload.requests=500 -o f1 || return 1
	for p in metis roundrobin; do
		cxl 8 -q "$cfg" --set workload.requests=500 -o "f8$p" --partition "$p" || fail "fabric, 8 ranks $p: run failed" || return 1
		results f1/stats.json | cmp -s - <(results "f8$p/stats.json") || fail "fabric, 8 ranks $p: results differ" || return 1
		grep -q '"ranks": 8,' "f8$p/stats.json" || fail "run.ranks is not 8" || return 1
	done
}
