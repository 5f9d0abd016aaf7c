# t_slices.sh - sliced switches (switch.slices): the idle latency of a
# whole switch, conservation and byte-identical results on 1-4 ranks, and
# the partition quality at 512 ranks they exist for.

mean_ns() { grep -o '"latency_ns": {[^}]*}' "$1" | head -1 | grep -o '"mean": [0-9.]*' | cut -d' ' -f2; }

test_slices_keep_idle_latency() {
	local a=(-q "$CONFIGS/esf-validation.cfg" --set workload.requests=20 --set workload.queue=1) want
	cxl 1 "${a[@]}" -o s1 || return 1
	want=$(mean_ns s1/stats.json)
	for s in 2 3 5; do
		cxl 1 "${a[@]}" -o s$s --set switch.slices=$s || return 1
		echo "slices $s: idle latency $(mean_ns s$s/stats.json) ns (whole switch $want ns)"
		[ "$(mean_ns s$s/stats.json)" = "$want" ] || fail "slices $s changed the idle latency" || return 1
	done
	grep -q '^sw0:4,switch,' s5/components.csv || fail "no component sw0:4"
}

sliced_run() { # N ROUTING OUT
	cxl "$1" -q "$CONFIGS/spine_leaf.cfg" --partition metis -o "$3" --set switch.slices=3 \
		--set switch.routing="$2" --set topology.hosts_per_leaf=3 --set topology.memories_per_leaf=3 \
		--set bus.lanes=4 --set workload.requests=400
}

test_sliced_fabric_conserves_and_is_identical_on_1_to_4_ranks() {
	for r in oblivious adaptive; do
		for n in $RANKS; do
			sliced_run "$n" "$r" $r$n || return 1
			# 10 switches x 3 slices x 2 internal ports each
			conserved $r$n 400 60 || return 1
			cmp -s <(results ${r}1/stats.json) <(results $r$n/stats.json) ||
				fail "$r: $n ranks differ from 1 rank" || return 1
		done
	done
}

test_slices_by_override_and_errors() {
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o o --set 'switch[leaf*].slices=2' || return 1
	grep -q '^leaf3:1,switch,' o/components.csv && grep -q '^spine0,switch,' o/components.csv ||
		fail "override did not slice the leaves only" || return 1
	expect_error 1 '--set switch\.slices=9: switch\.slices: 9 slices for leaf0, which has 4 ports \(at most one slice per port\)' \
		-q "$CONFIGS/spine_leaf.cfg" --set switch.slices=9 || return 1
	expect_error 1 '--set switch\[spine1\]\.slices=2: switch\.slices: slices need switch\.latency > 0' \
		-q "$CONFIGS/spine_leaf.cfg" --set 'switch[spine1].slices=2' --set switch.latency=0ps
}

# partition.json field
pj() { grep -o "\"$2\": [0-9.e+-]*" "$1" | head -1 | sed 's/.*: //'; }

test_rack_4096_metis_balances_512_ranks() {
	for p in block roundrobin metis; do
		cxl 1 --partition-only -n 512 --partition $p "$CONFIGS/rack-4096.cfg" -o $p \
			--set switch.slices=4 > /dev/null || return 1
		echo "$p: edge cut $(pj $p/partition.json edge_cut), imbalance $(pj $p/partition.json imbalance)"
	done
	awk -v i="$(pj metis/partition.json imbalance)" 'BEGIN { exit !(i <= 0.05) }' ||
		fail "metis imbalance above 5%" || return 1
	local m b r
	m=$(pj metis/partition.json edge_cut); b=$(pj block/partition.json edge_cut); r=$(pj roundrobin/partition.json edge_cut)
	[ "$m" -le "$b" ] && [ $((2 * m)) -le "$r" ] || fail "metis cut $m vs block $b, roundrobin $r"
}
