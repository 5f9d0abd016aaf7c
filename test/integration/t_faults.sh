# t_faults.sh - the engine's cross-rank panics (issue 17/20): no correct
# model or rank reaches them, so test/core/mpi/mpi_faults.c forces each on 2 ranks;
# the job must end (never hang) with the panic's one message and exit 1.

# fault MODE PATTERN : mpirun -np 2 mpi_faults MODE ends with PATTERN on stderr
fault() {
	[ -x "${MPI_FAULTS:-}" ] || fail "MPI_FAULTS (build/<variant>/test/mpi_faults) not built" || return 1
	timeout "$TIMEOUT" mpirun --oversubscribe -np 2 "$MPI_FAULTS" "$1" > out 2> err
	local rc=$?
	[ "$rc" != 124 ] || fail "$1: the job hung" || return 1
	[ "$rc" = 1 ] || fail "$1: exit $rc (expected 1): $(cat err)" || return 1
	grep -Eq "^cxlfab: internal error: rank 0: $2" err || fail "$1: message '$(cat err)' does not match '$2'"
}

test_lookahead_violation_panics() {
	fault lookahead "core/sim.c:[0-9]+: a sends to b on rank 1 at 6000 ps, inside the window ending 1005000 ps \(lookahead violated\)"
}

test_malformed_batch_panics() {
	fault malformed "core/xport.c:[0-9]+: malformed event batch from rank 1 \(3 events\)"
}
