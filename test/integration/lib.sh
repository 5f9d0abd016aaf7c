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

# expect_error N PATTERN ARGS... : run on N ranks, check code, line, message
expect_error() {
	local n=$1 pat=$2; shift 2
	cxl "$n" "$@" -o out > stdout 2> stderr
	local rc=$?
	[ "$rc" = 2 ] || fail "exit code $rc (expected 2) for: $*" || { cat stderr; return 1; }
	local lines
	lines=$(grep -c . stderr)
	[ "$lines" = 1 ] || fail "$lines lines on stderr (expected 1) for: $*" || { cat stderr; return 1; }
	grep -Eq "^cxlfab: error: $pat" stderr || fail "message '$(cat stderr)' does not match '$pat'" || return 1
	[ ! -e out/stats.json ] || fail "stats.json written despite the error"
}

# each_rank_count CMD... : CMD ARGS N for N = 1, 2, 3, 4
each_rank_count() {
	for n in 1 2 3 4; do "$@" "$n" || return 1; done
}
