# t_fabric.sh - fabric configs end to end: --check on every example, the
# routing tables agreed on 1-4 ranks, --dot, --partition-only and its
# partition.json (metis against block and roundrobin on rack-4096), and the
# fabric's config errors on every rank count.

FABRICS="chain ring tree spine_leaf fully_connected fat_tree octopus custom rack-4096"

test_check_every_fabric_config() {
	for c in $FABRICS; do
		cxl 1 --check "$CONFIGS/$c.cfg" > out.txt 2> err.txt || fail "$c: exit $?: $(cat err.txt)" || return 1
		grep -q '^fabric: ' out.txt || fail "$c: no fabric summary" || return 1
		grep -q 'routing tables identical on all 1 rank' out.txt || fail "$c: no routing line" || return 1
	done
}

test_check_rack_counts() {
	cxl 1 --check "$CONFIGS/rack-4096.cfg" > out.txt || return 1
	grep -q 'switches 96, hosts 2048, accelerators 0, memories 2048, buses 6144' out.txt ||
		fail "counts: $(grep switches out.txt)" || return 1
	grep -q 'edge ports 4096 (PBR ids 0..4095' out.txt || fail "edge ports" || return 1
	grep -q 'diameter: 2 switch-to-switch hops' out.txt || fail "diameter" || return 1
	grep -q 'bisection estimate: 1024 ' out.txt || fail "bisection: $(grep bisection out.txt)"
}

# the checksum of the routing tables printed by --check on N ranks
route_sum() { cxl "$1" --check "$2" | grep -o 'identical on all [0-9]* ranks\? (checksum [0-9a-f]*' | grep -o '[0-9a-f]*$'; }

test_routing_tables_identical_on_1_to_4_ranks() {
	for c in fat_tree rack-4096; do
		local ref
		ref=$(route_sum 1 "$CONFIGS/$c.cfg")
		[ -n "$ref" ] || fail "$c: no checksum on 1 rank" || return 1
		for n in $MRANKS; do
			[ "$(route_sum "$n" "$CONFIGS/$c.cfg")" = "$ref" ] || fail "$c: checksum differs on $n ranks" || return 1
		done
	done
}

test_dot_writes_every_bus() {
	cxl 1 --check "$CONFIGS/tree.cfg" --dot sub/tree.dot > out.txt || return 1
	[ -s sub/tree.dot ] || fail "no dot file" || return 1
	head -2 sub/tree.dot | grep -q '^graph fabric {' || fail "not a graph" || return 1
	# tree of 8 leaves: 7 + 6 + ... switch links 14, endpoints 16 -> 30 buses
	[ "$(grep -c -- ' -- ' sub/tree.dot)" = 30 ] || fail "$(grep -c -- ' -- ' sub/tree.dot) edges, expected 30"
}

# figure N PARTITIONER KEY: KEY of partition.json for rack-4096 on N ranks
figure() {
	cxl 1 --partition-only -n "$1" --partition "$2" "$CONFIGS/rack-4096.cfg" -o "p$1$2" > /dev/null || return 1
	json_num "p$1$2/partition.json" "$3"
}

test_partition_only_rack_metis_beats_block_and_roundrobin() {
	for n in 2 8 64; do
		local m b r imb
		m=$(figure "$n" metis edge_cut) && b=$(figure "$n" block edge_cut) &&
			r=$(figure "$n" roundrobin edge_cut) || fail "partition-only failed" || return 1
		imb=$(json_num "p${n}metis/partition.json" imbalance)
		echo "n=$n metis $m block $b roundrobin $r imbalance $imb"
		[ "$m" -le "$b" ] || fail "$n ranks: metis cut $m > block $b" || return 1
		[ $((2 * m)) -lt "$r" ] || fail "$n ranks: metis cut $m not far below roundrobin $r" || return 1
		awk -v x="$imb" 'BEGIN { exit !(x <= 0.05) }' || fail "$n ranks: metis imbalance $imb > 5%" || return 1
	done
}

test_partition_only_json_keys() {
	cxl 1 --partition-only -n 8 --partition metis "$CONFIGS/spine_leaf.cfg" -o po > out.txt || return 1
	for k in ranks method edge_cut cut_fraction imbalance imbalance_floor lookahead_ps \
		components_per_rank load_per_rank; do
		grep -q "\"$k\":" po/partition.json || fail "partition.json lacks $k" || return 1
	done
	[ "$(json_num po/partition.json ranks)" = 8 ] || fail "ranks" || return 1
	[ "$(json_num po/partition.json lookahead_ps)" = 25000 ] || fail "lookahead" || return 1
	grep -q '^  edge cut ' out.txt || fail "no text report"
}

test_partition_only_default_ranks_is_job_size() {
	cxl 3 --partition-only "$CONFIGS/ring.cfg" -o po > out.txt || return 1
	[ "$(json_num po/partition.json ranks)" = 3 ] || fail "ranks $(json_num po/partition.json ranks)"
}

# fab_error N PATTERN CONFIG-TEXT : the config gives one error line, exit 2
fab_error() {
	local n=$1 pat=$2
	printf 'simulation = { end = "1us"; };\n%s\n' "$3" > bad.cfg
	expect_error "$n" "$pat" --check bad.cfg
}

fabric_errors() {
	local n=$1
	fab_error "$n" 'bad.cfg:2: unknown key "topology.leafs" \(did you mean "topology.leaves"\?\)' \
		'topology = { kind = "spine_leaf"; leafs = 3; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.k: does not apply to topology.kind "chain"' \
		'topology = { kind = "chain"; k = 8; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.leaves: 4160 endpoints exceed the 4096 edge ports' \
		'topology = { kind = "spine_leaf"; leaves = 65; hosts_per_leaf = 32; memories_per_leaf = 32; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.switches: a ring needs at least 3 switches' \
		'topology = { kind = "ring"; switches = 2; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.kind: .*' 'topology = { kind = "torus"; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.custom.links: \[1\] "h0 sw9": sw9 is in no topology.custom list' \
		'topology = { kind = "custom"; custom = { hosts = ["h0"]; switches = ["sw0"]; links = ["h0 sw0", "h0 sw9"]; }; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.custom.links: \[1\] "m0 h0": host h0 has a second connection' \
		'topology = { kind = "custom"; custom = { hosts = ["h0"]; memories = ["m0"]; switches = ["s"]; links = ["h0 s", "m0 h0"]; }; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.custom.switches: "x" is listed twice' \
		'topology = { kind = "custom"; custom = { hosts = ["x"]; switches = ["x"]; links = ["x x"]; }; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.custom.memories: "m1" is in no topology.custom.links entry' \
		'topology = { kind = "custom"; custom = { hosts = ["h"]; memories = ["m1"]; switches = ["s"]; links = ["h s"]; }; };' || return 1
	fab_error "$n" 'bad.cfg:2: topology.custom.links: \[0\] "h": expected two names' \
		'topology = { kind = "custom"; custom = { hosts = ["h"]; links = ["h"]; }; };'
}
test_fabric_config_errors_on_1_to_4_ranks() { each_rank_count fabric_errors; }

test_custom_counts_and_direct_link() {
	cxl 1 --check "$CONFIGS/custom.cfg" > out.txt || return 1
	grep -q 'switches 2, hosts 2, accelerators 1, memories 3, buses 7' out.txt || fail "counts" || return 1
	grep -q 'bisection estimate: 2 ' out.txt || fail "two parallel links between the switches" || return 1
	# --set reaches a list key: drop the direct host1-mem2 link and its nodes
	cxl 1 --check "$CONFIGS/custom.cfg" --set 'topology.custom.links=host0 swA,gpu0 swA,swA swB,swB mem0,swB mem1' \
		--set topology.custom.hosts=host0 --set topology.custom.memories=mem0,mem1 > out2.txt || return 1
	grep -q 'switches 2, hosts 1, accelerators 1, memories 2, buses 5' out2.txt || fail "--set lists: $(grep buses out2.txt)"
}

# topology.custom.nodes places nodes of any kind of the kind table by name:
# custom.cfg written with it alone is the same fabric and gives the same
# results, and an unknown kind is an error that lists the kinds.
test_custom_nodes_any_kind() {
	sed -e '/hosts = \|accelerators = \|memories = \|switches = /d' \
	    -e 's|^    links = |    nodes = ["host0 host", "host1 host", "gpu0 accel", "mem0 memory", "mem1 memory",\n             "mem2 memory", "swA switch", "swB switch"];\n    links = |' \
	    "$CONFIGS/custom.cfg" > nodes.cfg
	grep -q 'nodes = ' nodes.cfg && ! grep -q 'hosts = ' nodes.cfg || fail "nodes.cfg not rewritten" || return 1
	cxl 1 --check nodes.cfg > out.txt || return 1
	grep -q 'switches 2, hosts 2, accelerators 1, memories 3, buses 7' out.txt || fail "counts: $(grep buses out.txt)" || return 1
	cxl 1 -q "$CONFIGS/custom.cfg" -o a || return 1
	cxl 2 -q nodes.cfg -o b || return 1
	[ "$(results a/stats.json)" = "$(results b/stats.json)" ] || fail "results differ from custom.cfg" || return 1
	fab_error 1 'bad.cfg:2: topology.custom.nodes: \[1\] "g0 gpu": no kind "gpu" \(kinds: switch host accel memory device\)' \
		'topology = { kind = "custom"; custom = { nodes = ["s switch", "g0 gpu"]; links = ["s g0"]; }; };' || return 1
	fab_error 1 'bad.cfg:2: topology.custom.nodes: \[0\] "s": expected "NAME KIND"' \
		'topology = { kind = "custom"; custom = { nodes = ["s"]; links = []; }; };' || return 1
	fab_error 1 'bad.cfg:2: topology.custom.(nodes|hosts): "h" is listed twice' \
		'topology = { kind = "custom"; custom = { hosts = ["h"]; nodes = ["h host"]; links = ["h h"]; }; };'
}
