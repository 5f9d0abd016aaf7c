# t_ckpt.sh - checkpoint/restart (issue 20): PHOLD restarts byte-identical on
# other rank counts and partitioners, periodic checkpoints, a stop signal
# writes one that a restart finishes identically, a cut in an idle stretch is
# written once under the delayed minimum, and a damaged, truncated
# or foreign checkpoint is one error with exit 2.  The models' own hooks are
# tested in t_ckpt_*.sh.

phold_cfg() { printf 'simulation = { end = "%s"; seed = 3; };\nphold = { lps = 64; %s };\n' "$1" "${2:-}" > p.cfg; }

test_phold_restart_any_ranks() { phold_cfg 300ns; ckpt_same p.cfg "1ns 90ns 250ns"; }
test_phold_ring_restart_any_ranks() { phold_cfg 300ns 'neighbours = "ring";'; ckpt_same p.cfg "75ns 200ns"; }

# The issue's matrix: checkpoints at several times on 2 ranks, restarted on
# 1, 3 and 4 ranks with another partitioner (roundrobin; the runs use the
# default, block for PHOLD and metis for fabrics): PHOLD, a fabric with
# coherence, the DDR4 DRAM model and the PCIe replay layer (bit errors), and
# a trace replay.
test_restart_on_1_3_4_ranks() {
	local CK_RANKS="1 3 4"
	[ -z "${SANITIZE:-}" ] || CK_RANKS=2
	phold_cfg 300ns
	ckpt_same p.cfg "40ns 150ns" || return 1
	ckpt_same "$CONFIGS/sf-policy.cfg" "3us 12us" --set workload.requests=4000 \
		--set memory.dram.preset=DDR4-3200 --set bus.replay_buffer=4 \
		--set bus.error_rate=0.01 || return 1
	"$CXLFAB_TRACE" gen t.cxt --pattern random --records 4000 \
		--interval 1ns > /dev/null || return 1
	ckpt_same "$CONFIGS/ring.cfg" "2us 9us" --set workload.pattern=trace \
		--set workload.trace="$PWD/t.cxt" --set workload.requests=0
}

# Time series: each component's series and the rank's shared per-period
# latency histograms (added to rank 0's on restart) give the same
# timeseries.csv and timeseries_summary.csv as the run never stopped.
test_time_series_restart() {
	ckpt_same "$CONFIGS/spine_leaf.cfg" "1us 3us" --set simulation.sample_period=200ns \
		--set workload.requests=2000 || return 1
	ckpt_same "$CONFIGS/chain.cfg" "700ns" --set simulation.sample_period=150ns \
		--set bus.duplex=half --set workload.requests=300
}

# A checkpoint's content does not depend on the ranks that wrote it.
test_checkpoint_same_on_any_ranks() {
	phold_cfg 300ns
	cxl 1 p.cfg -q --checkpoint-at 100ns -o one || return 1
	cxl 3 p.cfg -q --checkpoint-at 100ns --partition roundrobin -o three || return 1
	grep -Ev '^files? ' one/checkpoint-100000ps/manifest > m1
	grep -Ev '^files? ' three/checkpoint-100000ps/manifest > m3
	cmp -s m1 m3 || fail "manifests differ: $(diff m1 m3)" || return 1
	cmp -s one/checkpoint-100000ps/config.cfg three/checkpoint-100000ps/config.cfg ||
		fail "config.cfg differs"
}

# Two runs of one config write the same checkpoint bytes: nothing of a
# model's state is written uninitialised (a switch once wrote its FIFO
# lists' unused `next` entries as whatever malloc gave).
test_checkpoint_bytes_repeatable() {
	local c
	for c in spine_leaf fat_tree; do
		cxl 1 "$CONFIGS/$c.cfg" -q --end 4us --checkpoint-at 2us -o a || return 1
		cxl 1 "$CONFIGS/$c.cfg" -q --end 4us --checkpoint-at 2us -o b || return 1
		cmp -s a/checkpoint-2000000ps/rank-0.bin b/checkpoint-2000000ps/rank-0.bin ||
			fail "$c: checkpoint bytes differ in $(cmp -l a/checkpoint-2000000ps/rank-0.bin \
				b/checkpoint-2000000ps/rank-0.bin | wc -l) places" || return 1
		rm -rf a b
	done
}

test_checkpoint_period() {
	phold_cfg 300ns
	cxl 2 p.cfg -q --set simulation.checkpoint_period=100ns -o out || return 1
	[ "$(ls -d out/checkpoint-*ps | tr '\n' ' ')" = "out/checkpoint-100000ps out/checkpoint-200000ps " ] ||
		fail "checkpoints: $(ls out)" || return 1
	cxl 1 p.cfg -q -o ref || return 1
	# the restart goes on checkpointing (the period is in its config) into its -o folder
	cxl 3 --restart out/checkpoint-100000ps -q -o r || return 1
	cmp -s <(results ref/stats.json) <(results r/stats.json) || fail "restart differs" || return 1
	[ -d r/checkpoint-200000ps ] && [ ! -e r/checkpoint-100000ps ] || fail "restart's checkpoints: $(ls r)"
}

# The delayed minimum (sync.c: a run whose ranks do not all neighbour each
# other reads the window's allreduce one boundary late): a cut right at the
# end of a busy window and one later in the same idle stretch are one state,
# written once, as on 2 ranks (every rank a neighbour, exact minimum); the
# restart finishes the run identically.  The busy window's end comes from the
# rank profile's windows for 4 ranks, so the test follows the model's timing.
test_delayed_minimum_checkpoint_once_per_idle_stretch() {
	local cfg=("$CONFIGS/spine_leaf.cfg" --set workload.requests=20 --set workload.queue=1
		   --set workload.issue_interval=3us) c1 c2
	cxl 1 -q "${cfg[@]}" --profile-ranks 4 -o prof || return 1
	read -r c1 c2 < <(python3 - prof/profile.json prof/profile_windows.csv <<'PY'
import csv, json, sys
assert [r for r in json.load(open(sys.argv[1]))["results"] if r["ranks"] == 4][0]["collective"]
w = [r for r in csv.DictReader(open(sys.argv[2])) if r["ranks"] == "4" and r["window"] != "0"]
for a, b, c in zip(w, w[1:], w[2:]):
    if int(a["events"]) and not int(b["events"]) and int(c["start_ps"]) - int(a["end_ps"]) > 1000000:
        print(a["end_ps"], int(a["end_ps"]) + 500000)
        break
PY
	)
	[ -n "$c2" ] || fail "no busy window followed by 1 us of idle time" || return 1
	local at=(--checkpoint-at "${c1}ps" --checkpoint-at "${c2}ps")
	cxl 2 -q "${cfg[@]}" "${at[@]}" -o two || return 1
	cxl 4 -q "${cfg[@]}" "${at[@]}" -o four || return 1
	cxl 1 -q "${cfg[@]}" -o ref || return 1
	[ "$(ls -d two/checkpoint-*ps)" = "two/checkpoint-${c1}ps" ] || fail "2 ranks: $(ls two)" || return 1
	[ "$(ls -d four/checkpoint-*ps)" = "four/checkpoint-${c1}ps" ] ||
		fail "4 ranks wrote $(ls -d four/checkpoint-*ps | tr '\n' ' ')(expected checkpoint-${c1}ps only)" || return 1
	cmp -s <(results ref/stats.json) <(results four/stats.json) || fail "4 ranks: results differ" || return 1
	cxl 3 --restart "four/checkpoint-${c1}ps" -q -o r || return 1
	cmp -s <(results ref/stats.json) <(results r/stats.json) || fail "restart on 3 ranks differs"
}

# Without -o a restart continues into the folder the checkpoint is in; the
# interrupted run's files go to previous/, its checkpoints stay.
test_restart_default_folder() {
	phold_cfg 300ns
	cxl 1 p.cfg -q --checkpoint-at 100ns -o out || return 1
	cxl 2 --restart out/checkpoint-100000ps -q || return 1
	[ -e out/previous/stats.json ] && [ -d out/checkpoint-100000ps ] || fail "folder: $(ls out)" || return 1
	cmp -s <(results out/previous/stats.json) <(results out/stats.json) || fail "results differ" || return 1
	grep -q '"restart": { "checkpoint": "out/checkpoint-100000ps", "cut_ps": 100000' out/stats.json ||
		fail "no run.restart in stats.json"
}

# A stop signal writes a checkpoint at the window boundary where the run
# stops; --restart finishes it with the results of a run never stopped.
# sig_restart N SIG [CONFIG ARGS...]: the run on N ranks, the restart on the
# other count (default config: a PHOLD run of a few seconds).
sig_restart() {
	local n=$1 sig=$2 m=$(( $1 == 1 ? 2 : 1 ))
	shift 2
	if [ $# = 0 ]; then
		printf 'simulation = { end = "60us"; seed = 5; };\nphold = { lps = 256; };\n' > s.cfg
		set -- s.cfg
	fi
	cxl "$n" -q "$@" -o out 2> err &
	local pid=$! target
	started out || { reap $pid; return 1; }
	sleep 0.5
	if [ "$n" = 1 ]; then target=$(proc_of $pid cxlfab); else target=$(proc_of $pid mpirun); fi
	[ -n "$target" ] || fail "no process to signal (finished already?)" || { reap $pid; return 1; }
	kill -"$sig" "$target"
	wait $pid
	local rc=$?
	reap $pid
	[ "$rc" = 3 ] || fail "exit $rc (expected 3): $(cat err)" || return 1
	local d
	d=$(ls -d out/checkpoint-*ps)
	[ "$(echo "$d" | grep -c .)" = 1 ] || fail "checkpoints: $d" || return 1
	grep -q "continue it with: cxlfab --restart $d" err || fail "no restart hint: $(cat err)" || return 1
	echo "SIG$sig on $n ranks: $d, restart on $m"
	cxl "$m" --restart "$d" -q -o r || return 1
	cxl 1 "$@" -q -o ref || return 1
	cmp -s <(results ref/stats.json) <(results r/stats.json) || fail "restart after SIG$sig differs"
}
test_usr1_checkpoint_restart() { sig_restart 2 USR1; }
test_term_one_rank_checkpoint_restart() { sig_restart 1 TERM; }
# a fabric (spine-leaf, 3 s on one rank here) stopped on 2 ranks, finished on 1
test_usr1_fabric_checkpoint_restart() {
	sig_restart 2 USR1 "$CONFIGS/spine_leaf.cfg" --set workload.requests=400000 --set simulation.end=5ms
}
# the same on 4 ranks, which do not all neighbour each other: the stop flag
# travels in the delayed allreduce, agreed one window later (sync.c)
test_usr1_fabric_4_ranks_checkpoint_restart() {
	sig_restart 4 USR1 "$CONFIGS/spine_leaf.cfg" --set workload.requests=400000 --set simulation.end=5ms
}

# --- bad checkpoints and options: one line, exit 2 ---

mk_ckpt() { phold_cfg 300ns; cxl 2 p.cfg -q --checkpoint-at 100ns -o src > /dev/null || return 1; }
fresh() { rm -rf c out; cp -r src/checkpoint-100000ps c; }

test_restart_damaged_truncated_foreign() {
	mk_ckpt || return 1
	fresh; printf '\x55' | dd of=c/rank-1.bin bs=1 seek=300 conv=notrunc status=none
	expect_error 1 "c/rank-1.bin: checksum mismatch \(damaged\)" --restart c || return 1
	fresh; truncate -s -7 c/rank-0.bin
	expect_error 2 "c/rank-0.bin: [0-9]+ bytes, the manifest says [0-9]+ \(truncated or damaged\)" --restart c || return 1
	fresh; rm c/rank-1.bin
	expect_error 1 "c/rank-1.bin: cannot read" --restart c || return 1
	fresh; echo hello > c/manifest
	expect_error 1 "c/manifest:1: expected \"cxlfab-checkpoint FORMAT\"" --restart c || return 1
	fresh; sed -i 's/^cxlfab-checkpoint 1/cxlfab-checkpoint 9/' c/manifest
	expect_error 1 "c/manifest: checkpoint format 9, this cxlfab reads format 1" --restart c || return 1
	fresh; sed -i 's/^version .*/version 0.0.9/' c/manifest
	expect_error 1 "c/manifest: written by cxlfab 0.0.9, this is [0-9.]+ " --restart c || return 1
	# a rank file of another checkpoint (another cut) in its place
	cxl 2 p.cfg -q --checkpoint-at 200ns -o other > /dev/null || return 1
	fresh; cp other/checkpoint-200000ps/rank-0.bin c/
	expect_error 1 "c/rank-0.bin: [0-9]+ bytes, the manifest says|c/rank-0.bin: its header does not match|c/rank-0.bin: checksum" --restart c || return 1
	# another config's state: 32 LPs restored into 64
	fresh; sed -i 's/lps = 64/lps = 32/' c/config.cfg
	expect_error 1 "c: holds 64 components, the config builds 32" --restart c || return 1
	expect_error 1 "--restart nowhere: not a checkpoint folder" --restart nowhere
}

test_checkpoint_option_errors() {
	phold_cfg 300ns
	expect_error 1 "--checkpoint-at 1us: at or after the end of the run \(300ns" p.cfg --checkpoint-at 1us || return 1
	expect_error 1 "--checkpoint-at 7: expected a simulated time above 0 with a unit" p.cfg --checkpoint-at 7 || return 1
	mk_ckpt || return 1
	expect_error 1 "--restart src/checkpoint-100000ps: no config file with it" --restart src/checkpoint-100000ps p.cfg || return 1
	expect_error 1 "--restart src/checkpoint-100000ps: no --set, --seed or --end with it" --restart src/checkpoint-100000ps --end 1us
}
