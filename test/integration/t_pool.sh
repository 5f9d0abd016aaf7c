# t_pool.sh - configs/cmpi-pool.cfg, cMPI's calibrated CXL pool (seed 001):
# one idle read takes 790 ns (789.667 ns, checked to the picosecond against
# its breakdown: the DRAM clock allows no closer value); four hosts share
# the multi-headed device (every request answered, each head carries its own
# host's traffic and nothing else, every credit home); results
# byte-identical on 1-4 ranks; read bandwidth stays under the x8 links'
# ceiling, and four hosts get four links' worth.
#
# Run alone: test/integration/t_pool.sh (or run.sh t_pool); it prints
# "N passed, N failed" like every integration test file.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run.sh" t_pool
fi

# (csv_sum, json_num, results, near: lib.sh)
POOL_ONE_HOST=(--set 'workload[host[1-3]].requests=0')

# ps to serialise BYTES on gen 4 x8 (128b/130b): ceil(B*8e6*65 / (16000*8*64))
ser4x8() { awk -v b="$1" 'BEGIN { x = b * 8e6 * 65; y = 16000 * 8 * 64; printf "%d", int((x + y - 1) / y) }'; }
# pool_mean_ps FILE : summary mean latency in ps
pool_mean_ps() { grep -o '"latency_ns": {[^}]*}' "$1" | head -1 | grep -o '"mean": [0-9.]*' |
	awk '{ printf "%.0f", $2 * 1000 }'; }
# breakdown_ps FILE CATEGORY : one category of summary.latency_breakdown_ns, ps
breakdown_ps() { grep -o '"latency_breakdown_ns": {[^}]*}' "$1" | head -1 | grep -o "\"$2\": [0-9.e+-]*" |
	awk '{ printf "%.0f", $2 * 1000 }'; }
# pool_stat FILE COMPONENT STAT : one value of components.csv
pool_stat() { awk -F, -v c="$2" -v s="$3" '$1 == c && $4 == s { print $5 }' "$1"; }

# The calibrated read: host 10 ns, then 25 ns host port + 1 ns bus +
# serialisation of 20 B + 25 ns device port; memory.latency; the DRAM sees
# it at the next DDR4-2400 clock edge v (tCK 5000/6 ps), ACT at v, data ends
# at v + tRCD 16 + CL 16 + BL 4; back over the same link with 84 B.
test_pool_idle_read_is_790ns() {
	local lat_ns to a v d back want got
	lat_ns=$(sed -n '/^memory = {/,/^};/s/^ *latency = "\([0-9]*\)ns";.*/\1/p' "$CONFIGS/cmpi-pool.cfg")
	[ -n "$lat_ns" ] || fail "no memory.latency in cmpi-pool.cfg" || return 1
	to=$(( 10000 + 2 * 25000 + 1000 + $(ser4x8 20) ))
	a=$(( to + lat_ns * 1000 ))
	v=$(( a * 6 / 5000 + 1 ))
	d=$(( ((v + 36) * 5000 + 5) / 6 ))
	back=$(( 2 * 25000 + 1000 + $(ser4x8 84) ))
	want=$(( d + back ))
	cxl 1 -q "$CONFIGS/cmpi-pool.cfg" -o idle --set workload.requests=1 --set workload.queue=1 \
		--set workload.warmup=0 "${POOL_ONE_HOST[@]}" || return 1
	got=$(pool_mean_ps idle/stats.json)
	echo "idle read: $got ps (expected $want; memory.latency $lat_ns ns)"
	[ "$got" = "$want" ] || fail "idle read $got ps, expected $want" || return 1
	# the seed's 790 ns, to within half a DRAM clock (417 ps)
	[ $(( got > 790000 ? got - 790000 : 790000 - got )) -le 417 ] ||
		fail "idle read $got ps is not 790 ns" || return 1
	# the categories add up to the latency exactly, each as the config's comment says
	local sum=0 c
	for c in requester link serialisation switch queueing memory coherence; do
		sum=$(( sum + $(breakdown_ps idle/stats.json $c) ))
	done
	[ "$sum" = "$got" ] || fail "breakdown sums to $sum ps, latency $got" || return 1
	[ "$(breakdown_ps idle/stats.json requester)" = 10000 ] &&
		[ "$(breakdown_ps idle/stats.json link)" = 102000 ] &&
		[ "$(breakdown_ps idle/stats.json serialisation)" = $(( $(ser4x8 20) + $(ser4x8 84) )) ] &&
		[ "$(breakdown_ps idle/stats.json memory)" = $(( lat_ns * 1000 + d - a )) ] ||
		fail "breakdown $(grep -o '"latency_breakdown_ns": {[^}]*}' idle/stats.json | head -1)" || return 1
	# a chase of dependent random reads: half of them at most 1 ns off the calibrated read
	cxl 1 -q "$CONFIGS/cmpi-pool.cfg" -o chase --set workload.requests=5000 --set workload.queue=1 \
		--set workload.warmup=0 --set workload.pattern=random "${POOL_ONE_HOST[@]}" || return 1
	local p50
	p50=$(grep -o '"latency_ns": {[^}]*}' chase/stats.json | head -1 | grep -o '"p50": [0-9.]*' | sed 's/.*: //')
	echo "idle chase of 5000 random reads: p50 $p50 ns, mean $(json_num chase/stats.json mean) ns"
	near "$p50" 790 1 || fail "idle chase median $p50 ns"
}

# Hosts issue different counts, so a response leaving on the wrong head shows.
test_pool_four_hosts_share_the_device() {
	local n=(700 900 1100 1300) set=() k total=0
	for k in 0 1 2 3; do
		set+=(--set "workload[host$k].requests=${n[$k]}")
		total=$(( total + n[k] ))
	done
	cxl 1 -q "$CONFIGS/cmpi-pool.cfg" -o heads --set workload.warmup=0 --set workload.pattern=random \
		"${set[@]}" || return 1
	local csv=heads/components.csv
	[ "$(json_num heads/stats.json issued)" = $total ] && [ "$(json_num heads/stats.json completed)" = $total ] ||
		fail "issued $(json_num heads/stats.json issued), completed $(json_num heads/stats.json completed), want $total" ||
		return 1
	[ "$(pool_stat $csv pool reads)" = $total ] && [ "$(pool_stat $csv pool writes)" = 0 ] ||
		fail "the device served $(pool_stat $csv pool reads) reads, not $total" || return 1
	for k in 0 1 2 3; do
		local b=host$k-pool
		[ "$(pool_stat $csv host$k completed)" = "${n[$k]}" ] &&
			[ "$(pool_stat $csv $b pkts_d0)" = "${n[$k]}" ] && [ "$(pool_stat $csv $b pkts_d1)" = "${n[$k]}" ] &&
			[ "$(pool_stat $csv $b payload_bytes_d1)" = $(( 64 * n[k] )) ] ||
			fail "head of host$k: completed $(pool_stat $csv host$k completed), requests $(pool_stat $csv $b pkts_d0)," \
				"responses $(pool_stat $csv $b pkts_d1), want ${n[$k]}" || return 1
	done
	local s
	for s in outstanding_at_end queued_at_end held_at_end responses_waiting; do
		[ "$(csv_sum $csv $s)" = 0 ] || fail "$s = $(csv_sum $csv $s)" || return 1
	done
	# every credit home: 6 VCs x (hosts and device ports grant bus.buffer 32
	# to their bus; each bus holds workload.queue 256 from its host and
	# memory.buffer 256 from its head)
	local held
	held=$(( $(csv_sum $csv credits_held) + $(csv_sum $csv credits_held_p0) + $(csv_sum $csv credits_held_p1) ))
	[ "$held" = $(( 6 * (4 * 32 + 4 * 32 + 4 * 256 + 4 * 256) )) ] || fail "$held credits held" || return 1
	echo "4 hosts, $total reads: each head carried its own host's; $(json_num heads/stats.json bandwidth_GBps) GB/s"
}

test_pool_identical_on_1_to_4_ranks() {
	local v=0 set
	for set in "workload.pattern=stream" "workload.pattern=random memory.dram.page=closed"; do
		v=$((v + 1))
		local args=() s n
		for s in $set; do args+=(--set "$s"); done
		for n in $RANKS; do
			cxl "$n" -q "$CONFIGS/cmpi-pool.cfg" -o "v$v.$n" --set workload.requests=1500 \
				--set workload.warmup=100 "${args[@]}" || fail "variant $v on $n ranks: exit $?" || return 1
			[ "$(json_num "v$v.$n/stats.json" completed)" = 6000 ] || fail "variant $v on $n ranks: not all answered" ||
				return 1
			results "v$v.$n/stats.json" > "v$v.$n.res"
			cmp -s "v$v.1.res" "v$v.$n.res" || fail "variant $v ($set): $n ranks differ from 1" || return 1
		done
		echo "variant $v ($set): identical on 1-4 ranks, $(json_num "v$v.1/stats.json" bandwidth_GBps) GB/s"
	done
}

# One x8 gen-4 link carries 15.754 GB/s after 128b/130b; a read's 64 B ride
# in 84 B, so reads top out at 12.003 GB/s per host.
test_pool_bandwidth_under_link_ceiling() {
	local ceil=12.003
	cxl 1 -q "$CONFIGS/cmpi-pool.cfg" -o one "${POOL_ONE_HOST[@]}" || return 1
	cxl 1 -q "$CONFIGS/cmpi-pool.cfg" -o four || return 1
	cxl 1 -q "$CONFIGS/cmpi-pool.cfg" -o fourr --set workload.pattern=random || return 1
	local b1 b4 b4r
	b1=$(json_num one/stats.json bandwidth_GBps)
	b4=$(json_num four/stats.json bandwidth_GBps)
	b4r=$(json_num fourr/stats.json bandwidth_GBps)
	echo "one host $b1 GB/s (ceiling $ceil, seed 9.9); four hosts stream $b4, random $b4r GB/s"
	awk -v b="$b1" -v c="$ceil" 'BEGIN { exit !(b >= 0.95 * c && b <= c) }' ||
		fail "one host $b1 GB/s, not just under the link's $ceil" || return 1
	awk -v b="$b4" -v o="$b1" -v c="$ceil" 'BEGIN { exit !(b >= 3.9 * o && b <= 4 * c) }' ||
		fail "four streaming hosts $b4 GB/s, not four links' worth" || return 1
	# random reads: the four channels (ACT + PRE per read) limit, below the links
	awk -v r="$b4r" -v s="$b4" 'BEGIN { exit !(r < s && r > 0.8 * s) }' ||
		fail "four random hosts $b4r GB/s against $b4 streaming"
}
