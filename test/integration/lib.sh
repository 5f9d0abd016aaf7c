# test/integration/lib.sh - helpers shared by the integration tests (sourced).
#
# A test file defines functions named test_*; run.sh calls each one in a
# fresh temporary directory ($T) and counts it as passed if it returns 0.
# fail MSG prints the reason and returns 1.  Every MPI run has a timeout, so
# a hang is a failure, never a stuck CI.

: "${CXLFAB:?CXLFAB must name the binary}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
# without it mpirun adds a banner after our one-line error when ranks exit 2
export OMPI_MCA_orte_execute_quiet=1
# Open MPI itself leaks at exit; sanitizer builds check our leaks in unit tests.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
TIMEOUT=${TIMEOUT:-300}

fail() { echo "    FAIL: $*"; return 1; }

# cxl N ARGS... : run cxlfab on N ranks (N=1 runs it directly, no mpirun)
cxl() {
	local n=$1; shift
	if [ "$n" = 1 ]; then
		timeout "$TIMEOUT" "$CXLFAB" "$@"
	else
		timeout "$TIMEOUT" mpirun --oversubscribe -np "$n" "$CXLFAB" "$@"
	fi
}

# results FILE : the rank-independent part of stats.json (summary + components)
results() { sed -n '/^  "summary": {/,$p' "$1"; }

# json_num FILE KEY : first numeric value of "KEY": in FILE
json_num() { grep -o "\"$2\": [-0-9.e+]*" "$1" | head -1 | sed 's/.*: //'; }

# near A B TOL : |A - B| <= TOL (floats)
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# expect_error N PATTERN ARGS... : run on N ranks, check code, line, message.
# A rank's non-zero exit makes mpirun signal the other ranks and wait
# odls_base_sigkill_timeout (default 1 s) before it kills them and exits,
# even when they have exited too: measured, 1 s of idle waiting per failed
# multi-rank job, most of an error test's time.  Every rank prints (rank 0
# its one line) and finalises MPI before any exits (core/main.c), so the
# grace saves nothing here: with 0 the checks are the same (exit code, the
# line, no stats.json), and a rank still busy at that point would be
# killed at once and fail the check rather than be waited for.
expect_error() {
	local n=$1 pat=$2; shift 2
	OMPI_MCA_odls_base_sigkill_timeout=0 cxl "$n" "$@" -o out > stdout 2> stderr
	local rc=$?
	[ "$rc" = 2 ] || fail "exit code $rc (expected 2) for: $*" || { cat stderr; return 1; }
	local lines
	# not counted: mpirun's own libevent may warn "[warn] Epoll MOD(1) on fd N
	# failed ... Bad file descriptor" when it kills ranks at once (timeout 0
	# above): seen once in CI (t_fabric, 2026-11-28), never from cxlfab
	lines=$(grep -v '^\[warn\] Epoll ' stderr | grep -c .)
	[ "$lines" = 1 ] || fail "$lines lines on stderr (expected 1) for: $*" || { cat stderr; return 1; }
	grep -Eq "^cxlfab: error: $pat" stderr || fail "message '$(cat stderr)' does not match '$pat'" || return 1
	[ ! -e out/stats.json ] || fail "stats.json written despite the error"
}

# The rank counts the multi-rank tests compare: 1-4; under the sanitizers
# (SANITIZE set by make) 1 and 2, which run every cross-rank code path: the
# release pass checks determinism on 3 and 4, the sanitizer pass memory
# errors, and CI runs both within its time budget.
if [ -n "${SANITIZE:-}" ]; then RANKS="1 2"; else RANKS="1 2 3 4"; fi
MRANKS=${RANKS#1 } # the same without 1: the counts compared to 1 rank

# each_rank_count CMD... : CMD ARGS N for N in $RANKS
each_rank_count() {
	for n in $RANKS; do "$@" "$n" || return 1; done
}

# --- data-path runs (t_datapath.sh, t_slices.sh, ...) ---

# csv_sum FILE STAT : sum of STAT over components.csv
csv_sum() { awk -F, -v s="$2" '$4 == s { t += $5 } END { print t + 0 }' "$1"; }
# csv_count FILE TYPE : components of TYPE
csv_count() { awk -F, -v t="$2" '$2 == t && !seen[$1]++ { n++ } END { print n + 0 }' "$1"; }

# comp_stat DIR COMPONENT STAT : one counter of DIR/components.csv
comp_stat() { awk -F, -v c="$2" -v s="$3" '$1 == c && $4 == s { print $5 }' "$1/components.csv"; }
# expect_stat DIR COMPONENT STAT WANT : that counter is WANT (absent counts as 0)
expect_stat() {
	local got
	got=$(comp_stat "$1" "$2" "$3")
	[ "${got:-0}" = "$4" ] || fail "$1: $2.$3 = ${got:-0}, expected $4"
}

# conserved DIR REQUESTS [INTERNAL] : the run in DIR answered every request and drained
conserved() {
	local d=$1 want=$2 internal=${3:-0} csv=$1/components.csv
	local hosts issued completed
	hosts=$(( $(csv_count "$csv" host) + $(csv_count "$csv" accel) ))
	issued=$(json_num "$d/stats.json" issued)
	completed=$(json_num "$d/stats.json" completed)
	[ "$issued" = $((hosts * want)) ] || fail "$d: issued $issued, expected $((hosts * want))" || return 1
	[ "$completed" = "$issued" ] || fail "$d: completed $completed of $issued" || return 1
	for s in outstanding_at_end queued_at_end held_at_end responses_waiting; do
		[ "$(csv_sum "$csv" $s)" = 0 ] || fail "$d: $s = $(csv_sum "$csv" $s)" || return 1
	done
	# credits held = credits granted: 6 VCs x (host queue 16, memory 32, bus 32
	# per port, switch 32 per port); ports of nodes = 2 x buses, plus the
	# INTERNAL port ends of sliced switches
	local b m h held want_cr
	b=$(csv_count "$csv" bus); m=$(csv_count "$csv" memory); h=$hosts
	held=$(( $(csv_sum "$csv" credits_held) + $(csv_sum "$csv" credits_held_p0) + $(csv_sum "$csv" credits_held_p1) ))
	want_cr=$(( 6 * (64 * b + 16 * h + 32 * m + 32 * (2 * b - h - m + internal)) ))
	[ "$held" = "$want_cr" ] || fail "$d: $held credits held, $want_cr granted"
}

# Background runs (signals, kills):
# started DIR : wait until the run writing into DIR has set up (its private folder exists)
started() {
	for _ in $(seq 600); do
		ls -d "$1"/.cxlfab-run.* > /dev/null 2>&1 && return 0
		sleep 0.1
	done
	fail "no run started in $1"
}

# proc_of PID NAME : the process called NAME (mpirun, cxlfab) below PID (cxl's
# subshell, then timeout), empty if none
proc_of() {
	local p=$1 c
	for _ in 1 2 3 4; do
		[ "$(ps -o comm= -p "$p" 2> /dev/null)" = "$2" ] && { echo "$p"; return; }
		c=$(pgrep -P "$p" | head -1)
		[ -n "$c" ] || return
		p=$c
	done
}

# reap PID : end what a test left running below PID (after a failure)
reap() {
	local c
	for c in $(pgrep -P "$1"); do reap "$c"; done
	kill -9 "$1" 2> /dev/null
	return 0
}

# ckpt_same CFG "TIMES" [ARGS...] : checkpoint/restart gives the uninterrupted
# results.  CFG (with ARGS, e.g. --set ...) runs whole on 1 rank; then on 2
# ranks with a checkpoint at each of TIMES ("20ns 1us"), whose results must
# be the same; then each checkpoint restarts on each rank count of CK_RANKS
# (default 1 and 3; 2 under the sanitizers, which look for memory errors and
# keep CI within its time: 2 ranks run the local and the cross-rank paths) with the roundrobin
# partitioner, each giving the same results again (stats.json's summary and
# components, and the time series files when sampling is on).
ckpt_same() {
	local cfg=$1 times=$2 at=() t d np n=0
	shift 2
	for t in $times; do at+=(--checkpoint-at "$t"); n=$((n + 1)); done
	rm -rf ck_ref ck_a ck_r # a test may call it more than once
	cxl 1 "$cfg" "$@" -q -o ck_ref > ck.log 2>&1 || { cat ck.log; fail "$cfg: the whole run failed"; return 1; }
	cxl 2 "$cfg" "$@" "${at[@]}" -q -o ck_a > ck.log 2>&1 || { cat ck.log; fail "$cfg: the checkpointed run failed"; return 1; }
	cmp -s <(results ck_ref/stats.json) <(results ck_a/stats.json) || fail "$cfg: writing checkpoints changed the results" || return 1
	local dirs
	dirs=$(ls -d ck_a/checkpoint-*ps 2> /dev/null)
	[ "$(echo "$dirs" | grep -c .)" = "$n" ] || fail "$cfg: $n checkpoints asked for, found: $dirs" || return 1
	for d in $dirs; do
		for np in ${CK_RANKS:-$([ -n "${SANITIZE:-}" ] && echo 2 || echo 1 3)}; do
			rm -rf ck_r
			cxl "$np" --restart "$d" --partition roundrobin -q -o ck_r > ck.log 2>&1 ||
				{ cat ck.log; fail "$cfg: restart of $d on $np ranks failed"; return 1; }
			cmp -s <(results ck_ref/stats.json) <(results ck_r/stats.json) ||
				{ diff <(results ck_ref/stats.json) <(results ck_r/stats.json) | head -20
				  fail "$cfg: restart of $d on $np ranks differs from the whole run"; return 1; }
			for t in timeseries.csv timeseries_summary.csv; do # time series, when sampled
				[ ! -e "ck_ref/$t" ] || cmp -s "ck_ref/$t" "ck_r/$t" ||
					fail "$cfg: restart of $d on $np ranks: $t differs" || return 1
			done
		done
	done
}
