# t_lazy.sh - lazy events (core/sim_lazy.c): credits a port is not waiting
# for are not queued: counted at their send (or, --check-lazy, absorbed at
# their receiver's next event).  The results must be byte-identical to
# queuing every event (--eager-events) on every system kind, both ways, and
# on 1-4 ranks; every send is counted once, either
# as an event or as a lazy one; events per request <= 20 on the issue's two
# fabrics; and a checkpoint cut between a lazy credit's send and its
# handling restarts to the same results.

# lz DIR KEY : run.KEY of DIR/stats.json
lz() { json_num "$1/stats.json" "$2"; }

# same_as_eager NAME ARGS... : default, --check-lazy and --eager-events runs
# of ARGS give the same results, and events + lazy_events (lazy) == events
# (eager).  The default run applies each lazy credit at its send and the
# models read their counts less what has not arrived (core/sim_lazy.c); the
# checked one absorbs it before its receiver's next event and checks the
# models' lazy_ok contract there
same_as_eager() {
	local n=$1 m e l q
	shift
	cxl 1 -q "$@" -o "$n.eager" --eager-events || fail "$n: eager run failed" || return 1
	[ "$(lz "$n.eager" lazy_events)" = 0 ] || fail "$n: lazy events with --eager-events" || return 1
	q=$(lz "$n.eager" events)
	for m in lazy checked; do
		if [ $m = lazy ]; then
			cxl 1 -q "$@" -o "$n.$m" || fail "$n: lazy run failed" || return 1
		else
			cxl 1 -q "$@" -o "$n.$m" --check-lazy || fail "$n: checked run failed" || return 1
		fi
		results "$n.$m/stats.json" | cmp -s - <(results "$n.eager/stats.json") ||
			fail "$n: $m results differ from --eager-events" || return 1
		e=$(lz "$n.$m" events); l=$(lz "$n.$m" lazy_events)
		echo "    $n ($m): $e events + $l lazy = $((e + l)), eager $q"
		[ "$((e + l))" = "$q" ] || fail "$n: $m: $e + $l lazy events != $q eager events" || return 1
	done
}

test_lazy_identical_to_eager_on_every_system_kind() {
	local c
	for c in spine_leaf ring tree chain fat_tree fully_connected octopus pooled-memory \
		 coherent-rpc cmpi-pool invblk sf-policy dram-stream noisy-neighbours; do
		[ -f "$CONFIGS/$c.cfg" ] || fail "no configs/$c.cfg" || return 1
		same_as_eager "$c" "$CONFIGS/$c.cfg" --end 3us || return 1
	done
	# loaded links: credits bind, so ports wait and lazy credits get queued
	same_as_eager loaded "$CONFIGS/spine_leaf.cfg" --set workload.requests=600 \
		--set bus.buffer=2 --set switch.buffer=2 --set workload.queue=64 || return 1
	# half duplex, cut-through switches, batched credits, the data-link layer
	same_as_eager half "$CONFIGS/ring.cfg" --set workload.requests=300 --set bus.duplex=half || return 1
	same_as_eager cut "$CONFIGS/spine_leaf.cfg" --set workload.requests=300 \
		--set switch.forwarding=cut_through || return 1
	same_as_eager slices "$CONFIGS/spine_leaf.cfg" --set workload.requests=300 \
		--set switch.slices=2 || return 1
	same_as_eager batch "$CONFIGS/spine_leaf.cfg" --set workload.requests=300 \
		--set bus.credit_batch=4 --set bus.credit_timer=50ns || return 1
	same_as_eager replay "$CONFIGS/pcie-replay.cfg" --end 2us
}

test_lazy_events_per_request_at_most_20() {
	local c v
	for c in spine_leaf ring; do
		cxl 1 -q "$CONFIGS/$c.cfg" -o "$c" --set workload.requests=2000 || return 1
		cxl 1 -q "$CONFIGS/$c.cfg" -o "$c.eager" --set workload.requests=2000 --eager-events || return 1
		v=$(lz "$c" events_per_request)
		echo "    $c: $v events/request ($(lz "$c.eager" events_per_request) queuing every event)"
		awk -v a="$v" 'BEGIN { exit !(a <= 20) }' || fail "$c: $v events/request" || return 1
	done
}

test_lazy_identical_on_1_to_4_ranks() {
	local args="$CONFIGS/spine_leaf.cfg --set workload.requests=400 --set bus.buffer=4 --set switch.buffer=4"
	# shellcheck disable=SC2086
	cxl 1 -q $args -o eager --eager-events || return 1
	results eager/stats.json > ref
	local q n p e l
	q=$(lz eager events)
	for n in 1 2 3 4; do
		for p in metis roundrobin; do
			# shellcheck disable=SC2086
			cxl "$n" -q $args -o "r$n$p" --partition "$p" || fail "$n ranks $p: failed" || return 1
			results "r$n$p/stats.json" | cmp -s ref - || fail "$n ranks, $p: results differ" || return 1
			e=$(lz "r$n$p" events); l=$(lz "r$n$p" lazy_events)
			# a credit over a cut link is a message, queued where it arrives
			[ "$((e + l))" = "$q" ] || fail "$n ranks, $p: $e + $l != $q" || return 1
		done
	done
}

test_lazy_checkpoint_restart_identical() {
	local args="$CONFIGS/spine_leaf.cfg --set workload.requests=400"
	# shellcheck disable=SC2086
	cxl 1 -q $args -o straight || return 1
	# shellcheck disable=SC2086
	cxl 1 -q $args -o cut --checkpoint-at 1234567ps || return 1
	local ck
	ck=$(ls -d cut/checkpoint-*ps | head -1)
	[ -d "$ck" ] || fail "no checkpoint written" || return 1
	cxl 2 -q --restart "$ck" -o again || fail "restart failed" || return 1
	results again/stats.json | cmp -s - <(results straight/stats.json) ||
		fail "restart from $ck differs from the straight run"
}

# A cut in the run's last stretch, where only lazy credits are left (the
# last event of the run is a credit): the credits after the cut must still
# be handled, and saved in the checkpoint (review of issue 16's change: they
# were lost when the cut queued them after the loop had decided to stop).
test_lazy_checkpoint_in_the_credit_tail() {
	local args="$CONFIGS/spine_leaf.cfg --set workload.requests=300" t
	# shellcheck disable=SC2086
	cxl 1 -q $args -o straight --eager-events || return 1
	t=$(lz straight sim_time_ps)
	# shellcheck disable=SC2086
	cxl 1 -q $args -o cut --checkpoint-at "${t}ps" || return 1
	results cut/stats.json | cmp -s - <(results straight/stats.json) ||
		fail "checkpoint at the last credit (${t} ps) changed the results" || return 1
	[ "$(lz cut sim_time_ps)" = "$t" ] || fail "last event at $(lz cut sim_time_ps), not $t" || return 1
	cxl 2 -q --restart "cut/checkpoint-${t}ps" -o again || fail "restart failed" || return 1
	results again/stats.json | cmp -s - <(results straight/stats.json) ||
		fail "restart from the tail checkpoint differs"
}

