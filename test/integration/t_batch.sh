# t_batch.sh - batch jobs that survive (issue 20): the output folder as a
# unit, signals, a killed rank, the ranks' agreement at start-up, files that
# are not regular files.

# a PHOLD run far longer than any test waits for (stopped by a signal)
long_cfg() { printf 'simulation = { end = "1s"; seed = 3; };\nphold = { lps = 256; };\n' > long.cfg; }
# a fabric run as long (not every rank a neighbour: the window's allreduce)
FAB=(--set simulation.end=1s --set workload.requests=100000000)

# one_error FILE PATTERN : FILE holds one line, a cxlfab error matching PATTERN
one_error() {
	[ "$(grep -c . "$1")" = 1 ] || fail "$(grep -c . "$1") lines on stderr (expected 1): $(cat "$1")" || return 1
	grep -Eq "^cxlfab: error: $2" "$1" || fail "message '$(cat "$1")' does not match '$2'"
}

# --- the output folder as a unit ---

test_unwritable_output_refused_before_simulating() {
	long_cfg
	touch afile
	# before the check this simulated 1 s of PHOLD first (far beyond the timeout)
	TIMEOUT=120 cxl 2 -q long.cfg -o afile/out 2> err
	local rc=$?
	[ "$rc" = 2 ] || fail "exit $rc (expected 2)" || return 1
	one_error err "afile(/out)?: cannot create: Not a directory"
}

test_earlier_results_moved_aside_at_start() {
	printf 'simulation = { end = "100ns"; seed = 3; };\nphold = { lps = 64; };\n' > s.cfg
	cxl 1 -q s.cfg -o out || return 1
	cp out/stats.json first.json
	cxl 2 -q s.cfg --seed 4 -o out || return 1
	cmp -s out/previous/stats.json first.json || fail "previous/stats.json is not the first run's" || return 1
	[ -f out/previous/config.cfg ] && [ -f out/previous/components.csv ] || fail "previous/ lacks files: $(ls out/previous)" || return 1
	grep -q 'seed = 4' out/config.cfg || fail "out/config.cfg is not the second run's" || return 1
	[ -z "$(ls -a out | grep cxlfab-run)" ] || fail "private folder left: $(ls -a out)"
}

# A file-size limit (a full disk, as the process sees it) during the writes:
# one error, exit 2, and nothing of the failed run mixed with the earlier one.
# (chain.cfg to 2 us: 50 KB files; with time series every 10 ns 1.5 MB more)
SERIES=(--set simulation.end=2us --set simulation.sample_period=10ns)
test_full_disk_leaves_no_mixed_folder() {
	cxl 1 -q "$CONFIGS/chain.cfg" --set simulation.end=2us -o out || return 1
	cp out/stats.json first.json
	(ulimit -f 64; cxl 1 -q "$CONFIGS/chain.cfg" "${SERIES[@]}" -o out) 2> err
	local rc=$?
	[ "$rc" = 2 ] || fail "exit $rc (expected 2)" || return 1
	one_error err "out/[a-z_]*\.(csv|json|cfg): write failed: File too large" || return 1
	[ ! -e out/stats.json ] || fail "a stats.json looks current after the failed run" || return 1
	[ ! -e out/config.cfg ] || fail "config.cfg of the failed run left beside others" || return 1
	cmp -s out/previous/stats.json first.json || fail "the earlier run's stats.json is not in previous/" || return 1
	[ -z "$(ls -a out | grep cxlfab-run)" ] || fail "private folder left: $(ls -a out)"
}

# The same on a real full file system, where one can be mounted (root).
test_full_tmpfs_is_one_error() {
	mkdir small
	if ! mount -t tmpfs -o size=128k tmpfs small 2> /dev/null; then
		echo "skipped: cannot mount a tmpfs here (not root)"; return 0
	fi
	cxl 2 -q "$CONFIGS/chain.cfg" "${SERIES[@]}" -o small/out 2> err
	local rc=$? left
	left=$(ls -a small/out)
	umount small
	[ "$rc" = 2 ] || fail "exit $rc (expected 2): $(cat err)" || return 1
	one_error err "small/out/[a-z_]*\.(csv|json|cfg): write failed: No space left on device" || return 1
	echo "$left" | grep -Eq 'stats.json|cxlfab-run' && fail "left in the full folder: $left"
	return 0
}

test_two_runs_into_one_folder() {
	long_cfg
	cxl 1 -q long.cfg -o out 2> a.err &
	local a=$!
	started out || { reap $a; return 1; }
	cxl 2 -q long.cfg -o out 2> b.err
	local rc=$?
	kill -TERM "$(proc_of $a cxlfab)"
	wait $a
	local ra=$?
	reap $a
	[ "$rc" = 2 ] || fail "second run: exit $rc (expected 2)" || return 1
	one_error b.err "out: another cxlfab run is writing into this output folder" || return 1
	[ "$ra" = 3 ] || fail "first run: exit $ra after SIGTERM (expected 3): $(cat a.err)" || return 1
	grep -q '"interrupted_by": "SIGTERM"' out/stats.json || fail "first run's stats.json not interrupted"
}

# --- signals ---

# interrupt N SIGNAL ARGS... : run on N ranks, send SIGNAL to mpirun (or the
# process) once it runs; it must stop with exit 3 and an interrupted stats.json
interrupt() {
	local n=$1 sig=$2
	shift 2
	cxl "$n" -q "$@" -o out 2> err &
	local pid=$!
	started out || { reap $pid; return 1; }
	# cxl runs timeout, which runs mpirun: signal mpirun (or cxlfab on 1 rank)
	local target t0
	if [ "$n" = 1 ]; then target=$(proc_of $pid cxlfab); else target=$(proc_of $pid mpirun); fi
	[ -n "$target" ] || fail "no process to signal" || { reap $pid; return 1; }
	kill -"$sig" "$target"
	t0=$(date +%s)
	wait $pid
	local rc=$? took=$(( $(date +%s) - t0 ))
	reap $pid
	echo "SIG$sig on $n ranks: exit $rc after ${took}s"
	[ "$rc" = 3 ] || fail "exit $rc (expected 3): $(cat err)" || return 1
	[ "$took" -le 30 ] || fail "took ${took}s to stop (expected seconds)" || return 1
	grep -q '"interrupted": true' out/stats.json || fail "stats.json not marked interrupted" || return 1
	grep -q "\"interrupted_by\": \"SIG$sig\"" out/stats.json || fail "interrupted_by is not SIG$sig" || return 1
	local t end
	t=$(json_num out/stats.json sim_time_ps); end=$(json_num out/stats.json end_ps)
	[ "$t" -gt 0 ] && [ "$t" -lt "$end" ] || fail "sim_time_ps $t (expected between 0 and $end)" || return 1
	grep -q "cxlfab: stopped by SIG$sig at simulated time" err || fail "no stop line: $(cat err)"
}

# PHOLD: every rank a neighbour, the flag travels in the exchange headers;
# chain.cfg on 4 ranks (metis: a line of ranks, 0 and 3 not neighbours): in
# the window's allreduce
test_usr1_on_mpirun_phold() { long_cfg; interrupt 2 USR1 long.cfg; }
test_usr1_on_mpirun_fabric() { interrupt 4 USR1 "$CONFIGS/chain.cfg" "${FAB[@]}"; }
test_term_one_rank() { long_cfg; interrupt 1 TERM long.cfg; }
test_int_one_rank() { interrupt 1 INT "$CONFIGS/chain.cfg" "${FAB[@]}"; }

# --- faults ---

# kill -9 of one rank of a 2-rank job: the job ends (mpirun aborts it) within
# 30 s, never hangs, and says which rank died.
test_kill9_one_rank_ends_job() {
	long_cfg
	OMPI_MCA_orte_execute_quiet=0 cxl 2 -q long.cfg -o out 2> err &
	local pid=$!
	started out || { reap $pid; return 1; }
	local mp rank t0
	mp=$(proc_of $pid mpirun)
	rank=$(pgrep -P "$mp" | tail -1)
	[ "$(ps -o comm= -p "$rank")" = cxlfab ] || fail "no rank under mpirun $mp" || { reap $pid; return 1; }
	kill -9 "$rank"
	t0=$(date +%s)
	wait $pid
	local rc=$? took=$(( $(date +%s) - t0 ))
	reap $pid
	echo "kill -9 of rank pid $rank: job ended after ${took}s, exit $rc"
	[ "$rc" != 124 ] || fail "the job hung until the timeout" || return 1
	[ "$took" -le 30 ] || fail "the job took ${took}s to end (expected <= 30)" || return 1
	[ "$rc" != 0 ] || fail "exit 0 after a rank was killed" || return 1
	grep -q "exited on signal 9" err || fail "no message naming the killed rank: $(cat err)" || return 1
	[ ! -e out/stats.json ] || fail "a stats.json was written"
}

# Every rank computes the partition; a rank whose map differs is one error.
test_partition_disagreement_is_one_error() {
	printf 'simulation = { end = "100ns"; };\nphold = { lps = 64; };\n' > s.cfg
	CXLFAB_TEST_PARTITION_FAULT=1 cxl 2 -q s.cfg -o out 2> err
	local rc=$?
	[ "$rc" = 1 ] || fail "exit $rc (expected 1)" || return 1
	one_error err "the ranks computed different partitions \(rank map hashes [0-9a-f]{16} \.\. [0-9a-f]{16}" || return 1
	[ ! -e out/stats.json ] || fail "stats.json written"
	cxl 2 -q s.cfg -o out || fail "the same run without the fault fails"
}

# --- the config as loaded, and files that are not regular files ---

test_config_sha256_is_of_what_was_loaded() {
	long_cfg
	local want
	want=$(sha256sum long.cfg | cut -d' ' -f1)
	cxl 1 -q long.cfg -o out 2> err &
	local pid=$!
	started out || { reap $pid; return 1; }
	echo '# edited during the run' >> long.cfg
	kill -TERM "$(proc_of $pid cxlfab)"
	wait $pid
	reap $pid
	grep -q "\"config_sha256\": \"$want\"" out/stats.json || fail "config_sha256 is not the loaded file's"
}

test_fifo_config_refused() {
	mkfifo f.cfg
	TIMEOUT=60 expect_error 2 "f.cfg: a FIFO \(expected a regular file\)$" f.cfg
}

test_fifo_include_refused() {
	mkfifo inc.cfg
	printf 'simulation = { end = "100ns"; };\n@include "inc.cfg"\nphold = { lps = 4; };\n' > s.cfg
	TIMEOUT=60 expect_error 2 's.cfg:2: @include "inc.cfg": a FIFO \(expected a regular file\)$' s.cfg
}

test_folder_include_refused() {
	mkdir d
	printf 'simulation = { end = "100ns"; };\nphold = { lps = 4; };\n  @include "d"\n' > s.cfg
	expect_error 1 's.cfg:3: @include "d": a folder \(expected a regular file\)$' s.cfg
}

test_fifo_trace_refused() {
	mkfifo t.cxt
	TIMEOUT=60 expect_error 2 '.*workload.trace.*t.cxt: a FIFO \(expected a regular file\)' \
		"$CONFIGS/chain.cfg" --set workload.pattern=trace --set workload.trace=t.cxt
	TIMEOUT=60 cxl 1 --check "$CONFIGS/chain.cfg" --set workload.pattern=trace --set workload.trace=t.cxt \
		> /dev/null 2> err
	[ $? = 2 ] || fail "--check accepts a FIFO trace"
}
