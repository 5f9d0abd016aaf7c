# t_datapath.sh - CXL.mem runs end to end: every request answered once,
# nothing left in a buffer, every credit back home, on every example fabric
# and 1-4 ranks; results byte-identical across ranks and partitioners; the
# idle latency of ESF's validation system to the picosecond.

DATAPATH="chain ring tree spine_leaf fully_connected fat_tree custom esf-validation"

test_every_fabric_conserves_on_1_to_4_ranks() {
	for c in $DATAPATH; do
		for n in $RANKS; do
			cxl "$n" -q "$CONFIGS/$c.cfg" -o "$c$n" --set workload.requests=100 --end 1ms ||
				fail "$c on $n ranks: exit $?" || return 1
			conserved "$c$n" 100 || return 1
			results "$c$n/stats.json" > "$c$n.res"
			cmp -s "${c}1.res" "$c$n.res" || fail "$c: results on $n ranks differ from 1 rank" || return 1
		done
	done
}

test_identical_across_partitioners() {
	for c in spine_leaf tree; do
		cxl 1 -q "$CONFIGS/$c.cfg" -o ref --set workload.requests=300 --set workload.read_ratio=0.5 || return 1
		results ref/stats.json > ref.res
		for p in block roundrobin metis; do
			cxl 3 -q "$CONFIGS/$c.cfg" -o "$p" --partition "$p" --set workload.requests=300 \
				--set workload.read_ratio=0.5 || return 1
			results "$p/stats.json" | cmp -s ref.res - || fail "$c: $p on 3 ranks differs" || return 1
		done
	done
}

test_summary_keys() {
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o out --set workload.requests=500 || return 1
	for k in requests reads writes bytes bandwidth_GBps latency_ns mean p50 p99 max read write; do
		grep -q "\"$k\":" out/stats.json || fail "summary lacks $k" || return 1
	done
	[ "$(json_num out/stats.json requests)" = 500 ] || fail "requests"
}

# ps to serialise BYTES on gen 5 x16 (128b/130b): ceil(B*8e6*65 / (32000*16*64))
ser5x16() { awk -v b="$1" 'BEGIN { x = b * 8e6 * 65; y = 32000 * 16 * 64; printf "%d", int((x + y - 1) / y) }'; }

test_idle_latency_exact_esf_validation() {
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o out --set workload.requests=20 --set workload.queue=1 || return 1
	# host 10 + 8 links x 25 + 4 buses x 1 + the switch twice x 20 + controller 40
	# + channel service 64 B / 25.6 GB/s (2.5 ns) + DRAM 40, plus the request
	# (20 B) and the response (84 B) serialised twice each
	local want
	want=$(( 10000 + 8 * 25000 + 4 * 1000 + 2 * 20000 + 40000 + 2500 + 40000 + 2 * $(ser5x16 20) + 2 * $(ser5x16 84) ))
	local mean max
	mean=$(grep -o '"latency_ns": {[^}]*}' out/stats.json | head -1 | grep -o '"mean": [0-9.]*' | cut -d' ' -f2)
	max=$(grep -o '"latency_ns": {[^}]*}' out/stats.json | head -1 | grep -o '"max": [0-9.]*' | cut -d' ' -f2)
	echo "idle latency: mean $mean ns, max $max ns, expected $want ps"
	awk -v a="$mean" -v b="$max" -v w="$want" 'BEGIN { exit !(a * 1000 == w && b * 1000 == w) }' ||
		fail "idle latency $mean / $max ns, expected $want ps"
}

test_parameters_change_results() {
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o a --set workload.requests=50 --set workload.queue=1 || return 1
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o b --set workload.requests=50 --set workload.queue=1 \
		--set switch.latency=30ns || return 1
	local la lb
	la=$(grep -o '"latency_ns": {[^}]*}' a/stats.json | head -1 | grep -o '"mean": [0-9.]*' | cut -d' ' -f2)
	lb=$(grep -o '"latency_ns": {[^}]*}' b/stats.json | head -1 | grep -o '"mean": [0-9.]*' | cut -d' ' -f2)
	awk -v a="$la" -v b="$lb" 'BEGIN { exit !(b - a == 20) }' || fail "switch.latency +10 ns moved latency $la -> $lb (expected +20: one switch, both ways)"
}

test_hotcold_and_interleave_steer_requests() {
	# footprint 1 MiB in 4 interleave blocks of 256 KiB: mem0 holds the first
	# quarter, which contains the hot 10%: it gets 0.9 + 0.1 x 0.15/0.9 = 0.9167
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o hc --set workload.pattern=hotcold \
		--set workload.requests=12000 --set workload.interleave=262144 || return 1
	local m0 share
	m0=$(awk -F, '$1 == "mem0" && $4 == "reads" { print $5 }' hc/components.csv)
	share=$(awk -v a="$m0" 'BEGIN { printf "%.4f", a / 12000 }')
	echo "mem0 share $share (expected 0.9167)"
	near "$share" 0.9167 0.01 || fail "mem0 got $share of the requests, expected 0.9167" || return 1
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o rnd --set workload.requests=12000 \
		--set workload.interleave=262144 || return 1
	m0=$(awk -F, '$1 == "mem0" && $4 == "reads" { print $5 }' rnd/components.csv)
	near "$(awk -v a="$m0" 'BEGIN { print a / 12000 }')" 0.25 0.02 || fail "random: mem0 share $m0 / 12000"
}

test_latency_by_hop_count() {
	cxl 1 -q "$CONFIGS/tree.cfg" -o tr --set workload.requests=500 || return 1
	local prev=0 keys=""
	for h in 4 8 12 16; do
		local m
		m=$(grep -o "\"$h\": { \"requests\": [0-9]*, \"latency_ns\": { \"mean\": [0-9.]*" tr/stats.json | grep -o '[0-9.]*$')
		[ -n "$m" ] || fail "no latency for $h hops" || return 1
		awk -v a="$m" -v b="$prev" 'BEGIN { exit !(a > b) }' || fail "$h hops: $m ns not above $prev" || return 1
		prev=$m; keys="$keys $h:$m"
	done
	echo "tree latency by hops:$keys"
}

test_rack_4096_identical_on_1_and_3_ranks() {
	cxl 1 -q "$CONFIGS/rack-4096.cfg" --end 1us -o r1 || return 1
	cxl 3 -q "$CONFIGS/rack-4096.cfg" --end 1us -o r3 --partition metis || return 1
	results r1/stats.json > r1.res
	[ "$(json_num r1/stats.json requests)" -gt 0 ] || fail "no request answered in 1 us" || return 1
	results r3/stats.json | cmp -s r1.res - || fail "rack-4096: 3 ranks differ from 1"
}

test_switch_port_statistics_add_up() {
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o sl --set workload.requests=300 || return 1
	awk -F, '$2 == "switch" && $4 == "pkts" { t[$1] = $5 }
		$2 == "switch" && $4 ~ /^p[0-9]+_pkts$/ { s[$1] += $5 }
		END { for (k in t) if (t[k] != s[k]) { print k, t[k], s[k]; exit 1 } }' sl/components.csv ||
		fail "per-port packets do not add up to the switch's"
}

test_cut_through_saves_the_tail_before_each_switch() {
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o sf --set workload.requests=10 --set workload.queue=1 || return 1
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o ct --set workload.requests=10 --set workload.queue=1 \
		--set switch.forwarding=cut_through || return 1
	local a b
	a=$(grep -o '"latency_ns": {[^}]*}' sf/stats.json | head -1 | grep -o '"mean": [0-9.]*' | cut -d' ' -f2)
	b=$(grep -o '"latency_ns": {[^}]*}' ct/stats.json | head -1 | grep -o '"mean": [0-9.]*' | cut -d' ' -f2)
	# one switch each way: the request (20 B, all header) saves nothing, the
	# 84 B response saves ser(84) - ser(20)
	local save=$(( $(ser5x16 84) - $(ser5x16 20) ))
	awk -v a="$a" -v b="$b" -v s="$save" 'BEGIN { exit !(int((a - b) * 1000 + 0.5) == s) }' ||
		fail "cut-through latency $b ns vs store-and-forward $a ns, expected $save ps less"
}

test_iso_bisection_slows_switch_to_switch_buses() {
	cxl 1 -q "$CONFIGS/ring.cfg" -o iso --set workload.requests=200 --set topology.iso_bisection=true || return 1
	# busy ps per wire byte: a trunk (sw0-sw1) twice an edge bus (sw0-host0)
	awk -F, '$1 == "sw0-sw1" && $4 ~ /^(busy_ps|wire_bytes)_d[01]$/ { t[substr($4, 1, 4)] += $5 }
		$1 == "sw0-host0" && $4 ~ /^(busy_ps|wire_bytes)_d[01]$/ { e[substr($4, 1, 4)] += $5 }
		END { r = (t["busy"] / t["wire"]) / (e["busy"] / e["wire"]); print "trunk/edge", r
		      exit !(r > 1.99 && r < 2.01) }' iso/components.csv || fail "trunk not 2x slower per byte"
}

test_time_warmup_excludes_early_requests() {
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o w --set workload.requests=1000 --set simulation.warmup=10us || return 1
	local n first
	n=$(json_num w/stats.json requests)
	first=$(awk -F, '$1 == "host0" && $4 == "t_first_ps" { print $5 }' w/components.csv)
	echo "measured $n of 1000, first measured issue at $first ps"
	[ "$(json_num w/stats.json issued)" = 1000 ] || fail "issued" || return 1
	[ "$n" -gt 0 ] && [ "$n" -lt 1000 ] || fail "$n measured" || return 1
	[ "$first" -ge 10000000 ] || fail "first measured issue at $first ps, before the warm-up"
}
