# t_overrides.sh - per-component overrides (`G.overrides` in the file,
# `--set G[GLOB].KEY=VALUE`): they reach exactly the components they match,
# stay deterministic across ranks, reload from config.cfg, and a bad one is
# a one-line error.

# mean read latency of the summary, in ns
mean_ns() { grep -o '"latency_ns": {[^}]*}' "$1" | head -1 | grep -o '"mean": [0-9.]*' | cut -d' ' -f2; }

# spine_leaf with overrides of every component group: a noisy host, a slow
# memory, a leaf that cuts through, a bus of another generation
noisy_cfg() {
	sed 's/^workload = .*//' "$CONFIGS/spine_leaf.cfg" > n.cfg
	cat >> n.cfg <<'CFG'
workload = { pattern = "random"; read_ratio = 1.0; requests = 500; queue = 4;
  overrides = ( { match = "host3"; queue = 32; requests = 4000; read_ratio = 0.5; } ); };
memory = { overrides = ( { match = "mem[01]"; latency = "90ns"; } ); };
switch = { overrides = ( { match = "leaf2"; forwarding = "cut_through"; latency = "5ns"; } ); };
bus = { overrides = ( { match = "leaf7-*"; gen = 3; lanes = 4; } ); };
CFG
}

test_switch_override_adds_to_idle_latency() {
	local a=(-q "$CONFIGS/esf-validation.cfg" --set workload.requests=20 --set workload.queue=1)
	cxl 1 "${a[@]}" -o base || return 1
	cxl 1 "${a[@]}" -o ovr --set 'switch[sw0].latency=35ns' || return 1
	local b o
	b=$(mean_ns base/stats.json); o=$(mean_ns ovr/stats.json)
	echo "idle latency: $b ns, with sw0 at 35 ns: $o ns"
	# the request and the response each cross sw0 once: 2 x 15 ns more
	awk -v b="$b" -v o="$o" 'BEGIN { exit !(o * 1000 == b * 1000 + 30000) }' ||
		fail "override moved latency from $b to $o ns (expected +30 ns)"
}

test_link_override_sets_both_links_of_a_bus() {
	local a=(-q "$CONFIGS/esf-validation.cfg" --set workload.requests=20 --set workload.queue=1)
	cxl 1 "${a[@]}" -o base || return 1
	cxl 1 "${a[@]}" -o ovr --set 'link[host0-*].latency=50ns' || return 1
	local b o
	b=$(mean_ns base/stats.json); o=$(mean_ns ovr/stats.json)
	echo "idle latency: $b ns, with host0's links at 50 ns: $o ns"
	# two links each way, 25 ns more each
	awk -v b="$b" -v o="$o" 'BEGIN { exit !(o * 1000 == b * 1000 + 100000) }' ||
		fail "override moved latency from $b to $o ns (expected +100 ns)"
}

test_overrides_reach_only_their_components() {
	noisy_cfg
	cxl 1 -q n.cfg -o out || return 1
	local r3 r0
	r3=$(awk -F, '$1 == "host3" && $4 == "issued" { print $5 }' out/components.csv)
	r0=$(awk -F, '$1 == "host0" && $4 == "issued" { print $5 }' out/components.csv)
	echo "requests: host3 $r3, host0 $r0"
	[ "$r3" = 4000 ] && [ "$r0" = 500 ] || fail "host3 $r3, host0 $r0 requests (expected 4000, 500)"
}

test_overrides_identical_on_1_to_4_ranks() {
	noisy_cfg
	cxl 1 -q n.cfg -o plain --set 'memory[mem0].latency=40ns' || return 1
	for n in $RANKS; do
		cxl "$n" -q n.cfg -o r$n --partition metis || return 1
		cmp -s <(results r1/stats.json) <(results r$n/stats.json) ||
			fail "$n ranks differ from 1 rank" || return 1
		cmp -s r1/components.csv r$n/components.csv 2> /dev/null ||
			cmp -s <(cut -d, -f1,2,4,5 r1/components.csv) <(cut -d, -f1,2,4,5 r$n/components.csv) ||
			fail "$n ranks: components differ" || return 1
	done
	! cmp -s <(results r1/stats.json) <(results plain/stats.json) ||
		fail "mem0's override changed nothing"
}

test_config_cfg_with_overrides_reloads() {
	noisy_cfg
	cxl 1 -q n.cfg -o out --set 'host[host5].latency=30ns' || return 1
	grep -q 'match = "host5"; latency = "30ns";' out/config.cfg || fail "config.cfg lacks the --set override" || return 1
	cxl 1 -q out/config.cfg -o again || fail "config.cfg does not load" || return 1
	cmp -s <(results out/stats.json) <(results again/stats.json) || fail "config.cfg gives other results"
}

test_bad_overrides_are_one_line_errors() {
	noisy_cfg
	expect_error 1 '--set switch\[laef\*\]\.latency=1ns: switch\.overrides \(match "laef\*"\): applies to no component' \
		-q n.cfg --set 'switch[laef*].latency=1ns' || return 1
	expect_error 1 '--set host\[leaf0\]\.latency=1ns: host\.overrides \(match "leaf0"\): applies to no component' \
		-q n.cfg --set 'host[leaf0].latency=1ns' || return 1
	expect_error 2 '--set bus\[leaf0-\*\]\.lane=4: unknown key "bus\.lane" \(did you mean "bus\.lanes"\?\)' \
		-q n.cfg --set 'bus[leaf0-*].lane=4' || return 1
	sed -i 's/^link = .*/link = { overrides = ( { match = "host*"; latency = "1ns"; } ); };/' n.cfg
	expect_error 1 '.*n\.cfg:[0-9]+: link\.overrides \(match "host\*"\): applies to no component \(its glob must match the name of a component whose type reads this group: .*bus reads bus link' -q n.cfg
}
