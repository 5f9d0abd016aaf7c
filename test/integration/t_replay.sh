# t_replay.sh - the bus's data-link layer (ACK/NAK, replay buffer, replay
# timer, refuse-on-full; models/link/bus_replay.c) in whole fabric runs: the PCIe
# seed's setup (configs/pcie-replay.cfg) and ESF's validation system with
# bit errors, on 1-4 ranks, byte-identical results, every request answered
# once, nothing left in a buffer or a replay buffer, every credit home; the
# width and replay-buffer sweeps keep the shape models/link/README.md reports.

PCIE="$CONFIGS/pcie-replay.cfg"

# rsum FILE STAT : sum of STAT over components.csv
rsum() { awk -F, -v s="$2" '$4 == s { t += $5 } END { print t + 0 }' "$1"; }
# dev_stat DIR STAT : STAT of the device link (sw-dev)
dev_stat() { awk -F, -v s="$2" '$1 == "sw-dev" && $4 == s { print $5 }' "$1/components.csv"; }
# gbps DIR : the summary's bandwidth in Gbit/s
gbps() { awk -v g="$(json_num "$1/stats.json" bandwidth_GBps)" 'BEGIN { printf "%.4f", g * 8 }'; }

# drained DIR REQUESTS : every request answered, nothing held anywhere
drained() {
	local d=$1 want=$2 csv=$1/components.csv
	[ "$(json_num "$d/stats.json" issued)" = "$want" ] || fail "$d: issued" || return 1
	[ "$(json_num "$d/stats.json" completed)" = "$want" ] || fail "$d: completed" || return 1
	for s in outstanding_at_end queued_at_end held_at_end replay_held_at_end; do
		[ "$(rsum "$csv" $s)" = 0 ] || fail "$d: $s = $(rsum "$csv" $s)" || return 1
	done
}

# pcie_credits DIR : credits held = granted in pcie-replay.cfg: 6 VCs x (root 64
# (workload.queue) + device 64 (memory.buffer) + switch 16 per port x 2 +
# bus 2 per port x 4 ports)
pcie_credits() {
	local held
	held=$(( $(rsum "$1/components.csv" credits_held) + $(rsum "$1/components.csv" credits_held_p0) +
		$(rsum "$1/components.csv" credits_held_p1) ))
	[ "$held" = $(( 6 * (64 + 64 + 2 * 16 + 4 * 2) )) ] || fail "$1: $held credits held"
}

test_pcie_x8_replays_identical_on_1_to_4_ranks() {
	for n in $RANKS; do
		cxl "$n" -q "$PCIE" -o "p$n" --set 'bus[sw-dev].lanes=8' --set workload.requests=4000 ||
			fail "$n ranks: exit $?" || return 1
		drained "p$n" 4000 && pcie_credits "p$n" || return 1
		results "p$n/stats.json" > "p$n.res"
		cmp -s p1.res "p$n.res" || fail "results on $n ranks differ from 1 rank" || return 1
		cut -d, -f1,2,4- "p$n/components.csv" > "p$n.csv" # all but the rank column
		cmp -s p1.csv "p$n.csv" || fail "components.csv on $n ranks differs" || return 1
	done
	local r t
	r=$(dev_stat p1 replays_d1); t=$(dev_stat p1 replay_timeouts_d1)
	echo "x8: $(gbps p1) Gbit/s, $r replays, $t timeouts, $(dev_stat p1 replayed_ppm_d1) ppm"
	[ "$r" -gt 0 ] && [ "$t" -gt 0 ] || fail "x8 with a 16-packet port buffer never replayed"
}

test_esf_validation_with_errors_identical_on_1_to_4_ranks() {
	for n in $RANKS; do
		cxl "$n" -q "$CONFIGS/esf-validation.cfg" -o "e$n" --set workload.requests=400 \
			--set bus.replay_buffer=4 --set bus.error_rate=0.02 || fail "$n ranks: exit $?" || return 1
		drained "e$n" 400 || return 1
		results "e$n/stats.json" | cmp -s - <(results e1/stats.json) ||
			fail "results on $n ranks differ from 1 rank" || return 1
		cut -d, -f1,2,4- "e$n/components.csv" | cmp -s - <(cut -d, -f1,2,4- e1/components.csv) ||
			fail "components.csv on $n ranks differs" || return 1
	done
	local naks replays
	naks=$(( $(rsum e1/components.csv naks_d0) + $(rsum e1/components.csv naks_d1) ))
	replays=$(( $(rsum e1/components.csv replays_d0) + $(rsum e1/components.csv replays_d1) ))
	echo "esf-validation, error rate 0.02: $naks NAKs, $replays replays"
	[ "$naks" -gt 0 ] || fail "no NAK at an error rate of 2%"
}

test_replay_off_is_the_plain_bus() {
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o def --set workload.requests=300 || return 1
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o off --set workload.requests=300 \
		--set bus.replay_buffer=0 --set bus.ack_timer=5ns || return 1
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o on --set workload.requests=300 \
		--set bus.replay_buffer=64 || return 1
	results def/stats.json > def.res
	results off/stats.json | cmp -s def.res - || fail "replay_buffer=0 changed the results" || return 1
	cmp -s def/components.csv off/components.csv || fail "replay_buffer=0 changed components.csv" ||
		return 1
	! grep -q ',acks_d0,' def/components.csv || fail "the layer's statistics appear when it is off" ||
		return 1
	grep -q ',acks_d0,' on/components.csv || fail "no acks_d0 with the layer on" || return 1
	drained on 300
}

test_refuse_and_errors_need_a_replay_buffer() {
	expect_error 1 ".*bus.refuse_on_full.*replay_buffer" "$CONFIGS/esf-validation.cfg" \
		--set bus.refuse_on_full=true || return 1
	expect_error 2 ".*bus.error_rate.*replay_buffer" "$CONFIGS/esf-validation.cfg" \
		--set bus.error_rate=0.1
}

test_pcie_width_sweep_shape() {
	local line=""
	for w in 1 2 4 8; do
		cxl 1 -q "$PCIE" -o "w$w" --set "bus[sw-dev].lanes=$w" --set workload.requests=4000 || return 1
		drained "w$w" 4000 || return 1
		line="$line x$w: $(gbps "w$w") Gbit/s $(dev_stat "w$w" replayed_ppm_d1) ppm;"
	done
	echo "width sweep:$line"
	# x1 -> x2 doubles (the device link is the bottleneck), x4 and x8 are
	# bounded by the root's x4 link; only x8 overflows the switch port
	awk -v a="$(gbps w1)" -v b="$(gbps w2)" 'BEGIN { exit !(b / a > 1.9 && b / a < 2.1) }' ||
		fail "x2 / x1 = $(gbps w2) / $(gbps w1)" || return 1
	for w in 1 2 4; do
		[ "$(dev_stat "w$w" replays_d1)" = 0 ] || fail "x$w replayed" || return 1
	done
	[ "$(dev_stat w8 replayed_ppm_d1)" -gt 200000 ] ||
		fail "x8 replayed only $(dev_stat w8 replayed_ppm_d1) ppm"
}

test_pcie_replay_buffer_one_never_times_out() {
	cxl 1 -q "$PCIE" -o rb1 --set 'bus[sw-dev].lanes=8' --set bus.replay_buffer=1 \
		--set workload.requests=4000 || return 1
	cxl 1 -q "$PCIE" -o rb2 --set 'bus[sw-dev].lanes=8' --set bus.replay_buffer=2 \
		--set workload.requests=4000 || return 1
	echo "x8, replay buffer 1: $(gbps rb1) Gbit/s, $(dev_stat rb1 replay_timeouts_d1) timeouts;" \
		"2: $(gbps rb2) Gbit/s, $(dev_stat rb2 replay_timeouts_d1) timeouts"
	[ "$(dev_stat rb1 replay_timeouts_d1)" = 0 ] || fail "replay buffer 1 timed out" || return 1
	[ "$(dev_stat rb2 replay_timeouts_d1)" -gt 0 ] || fail "replay buffer 2 never timed out"
}
