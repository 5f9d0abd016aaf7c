# t_credits.sh - batched credit return (bus.credit_batch, credit_timer,
# credit_piggyback; models/proto/cxl_fc.h): fewer events per request, every
# credit home at the end, results byte-identical on 1-3 ranks and across
# partitioners with the option on, the explicit defaults change nothing, the
# automatic batch (credit_batch = 0) follows its rule, and the config errors.

CR_ON="--set bus.credit_batch=16 --set bus.credit_timer=1us --set bus.credit_piggyback=true"

# evpr DIR : run.events_per_request of DIR/stats.json
evpr() { json_num "$1/stats.json" events_per_request; }

# Against queuing every credit (--eager-events): by default most per-packet
# credits are lazy events, not queued (core/sim_lazy.c, t_lazy.sh), and a
# batch is a queued event, so the batches' own effect is seen with it.
test_credits_cut_events_per_request() {
	for c in spine_leaf ring; do
		cxl 1 -q "$CONFIGS/$c.cfg" -o off --set workload.requests=400 --eager-events || return 1
		# shellcheck disable=SC2086
		cxl 1 -q "$CONFIGS/$c.cfg" -o on --set workload.requests=400 $CR_ON --eager-events ||
			return 1
		cxl 1 -q "$CONFIGS/$c.cfg" -o batch --set workload.requests=400 --eager-events \
			--set bus.credit_batch=16 --set bus.credit_timer=1us || return 1
		local off on batch
		off=$(evpr off); on=$(evpr on); batch=$(evpr batch)
		echo "    $c: events/request off $off, batch+timer $batch, with piggyback $on"
		awk -v a="$on" -v b="$off" 'BEGIN { exit !(a < 0.7 * b) }' ||
			fail "$c: $on events/request with piggyback, $off off (expected < 70 %)" || return 1
		awk -v a="$batch" -v b="$off" 'BEGIN { exit !(a < b) }' ||
			fail "$c: $batch events/request batched, $off off" || return 1
		conserved on 400 || return 1
		conserved batch 400 || return 1
	done
}

test_credits_conserved_identical_on_1_to_3_ranks() {
	for c in spine_leaf ring tree; do
		for n in 1 2 3; do
			# shellcheck disable=SC2086
			cxl "$n" -q "$CONFIGS/$c.cfg" -o "$c$n" --partition roundrobin \
				--set workload.requests=200 --set workload.read_ratio=0.5 $CR_ON ||
				fail "$c on $n ranks: exit $?" || return 1
			conserved "$c$n" 200 || return 1
			results "$c$n/stats.json" > "$c$n.res"
			cmp -s "${c}1.res" "$c$n.res" || fail "$c: results on $n ranks differ from 1 rank" || return 1
		done
	done
}

test_credits_identical_across_partitioners() {
	# a short timer and a small batch: credits often bind, so the order matters
	local on="--set bus.credit_batch=4 --set bus.credit_timer=50ns --set bus.buffer=8 --set switch.buffer=8"
	# shellcheck disable=SC2086
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o ref --set workload.requests=300 $on || return 1
	results ref/stats.json > ref.res
	for p in block metis; do
		# shellcheck disable=SC2086
		cxl 3 -q "$CONFIGS/spine_leaf.cfg" -o "$p" --partition "$p" --set workload.requests=300 $on || return 1
		results "$p/stats.json" | cmp -s ref.res - || fail "$p on 3 ranks differs" || return 1
	done
	# shellcheck disable=SC2086
	cxl 2 -q "$CONFIGS/spine_leaf.cfg" -o pb --set workload.requests=300 $on \
		--set bus.credit_piggyback=true || return 1
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o pb1 --set workload.requests=300 $on \
		--set bus.credit_piggyback=true || return 1
	results pb/stats.json | cmp -s - <(results pb1/stats.json) || fail "piggyback: 2 ranks differ from 1"
}

test_credits_explicit_defaults_change_nothing() {
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o def --set workload.requests=300 || return 1
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o exp --set workload.requests=300 --set bus.credit_batch=1 \
		--set bus.credit_timer=0ps --set bus.credit_piggyback=true || return 1
	results def/stats.json | cmp -s - <(results exp/stats.json) || fail "explicit defaults differ"
	[ "$(evpr def)" = "$(evpr exp)" ] || fail "events/request $(evpr def) vs $(evpr exp)"
}

test_credits_config_errors() {
	expect_error 1 ".*bus.credit_batch.*exceeds bus.buffer = 32" "$CONFIGS/spine_leaf.cfg" \
		--set bus.credit_batch=64 || return 1
	expect_error 1 ".*bus.credit_batch.*exceeds the switch.buffer = 8" "$CONFIGS/spine_leaf.cfg" \
		--set bus.credit_batch=16 --set switch.buffer=8 || return 1
	expect_error 1 ".*bus.credit_batch.*data-link layer" "$CONFIGS/spine_leaf.cfg" \
		--set bus.credit_batch=4 --set bus.replay_buffer=4 || return 1
	expect_error 1 ".*bus.credit_batch" "$CONFIGS/spine_leaf.cfg" --set bus.credit_batch=-1
}

# same_run NAME ARGS... AS ARGS... : the two settings give the same results and events
same_run() {
	local a=() b=()
	while [ "$1" != AS ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o a --set workload.requests=300 "${a[@]}" || return 1
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o b --set workload.requests=300 "${b[@]}" || return 1
	results a/stats.json | cmp -s - <(results b/stats.json) ||
		fail "${a[*]} differs from ${b[*]}" || return 1
	[ "$(evpr a)" = "$(evpr b)" ] || fail "${a[*]}: events/request $(evpr a) vs $(evpr b)"
}

test_credits_auto_batch() {
	local t=(--set bus.credit_timer=1us --set bus.credit_piggyback=true)
	# half of the buffers, at most 16
	same_run --set bus.credit_batch=0 "${t[@]}" AS --set bus.credit_batch=16 "${t[@]}" || return 1
	same_run --set bus.credit_batch=0 --set bus.buffer=12 "${t[@]}" \
		AS --set bus.credit_batch=6 --set bus.buffer=12 "${t[@]}" || return 1
	# a smaller switch peer halves it further
	same_run --set bus.credit_batch=0 --set switch.buffer=8 "${t[@]}" \
		AS --set bus.credit_batch=4 --set switch.buffer=8 "${t[@]}" || return 1
	# off below 4 credits and with the data-link layer (no error)
	same_run --set bus.credit_batch=0 --set bus.buffer=3 "${t[@]}" \
		AS --set bus.buffer=3 || return 1
	same_run --set bus.credit_batch=0 --set bus.replay_buffer=8 "${t[@]}" \
		AS --set bus.replay_buffer=8
}
