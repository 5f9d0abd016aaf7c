#!/usr/bin/env bash
# test/integration/run.sh - run every test_* function of every t_*.sh here.
#
# Usage: CXLFAB=path/to/cxlfab [CXLFAB_TRACE=path/to/cxlfab-trace] test/integration/run.sh [PATTERN]
# (both relative to the repository root or absolute; exported absolute)
# Prints one line per test (with its wall and CPU seconds) and a final line "N passed, N failed"; exits 1 if
# any test failed.  PATTERN (a grep regex) selects tests by "file/test" name,
# e.g. "t_errors" or "t_output/test_help".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export CXLFAB=$(cd "$root" && realpath "${CXLFAB:-bin/cxlfab}")
export CXLFAB_TRACE=$(cd "$root" && realpath -m "${CXLFAB_TRACE:-bin/cxlfab-trace}")
[ -z "${MPI_FAULTS:-}" ] || export MPI_FAULTS=$(cd "$root" && realpath -m "$MPI_FAULTS")
export CONFIGS="$root/configs"
pattern=${1:-.}
pass=0; failn=0
for f in "$here"/t_*.sh; do
	name=$(basename "$f" .sh)
	tests=$(grep -o '^test_[a-z0-9_]*' "$f" | sed "s|^|$name/|" | grep -E "$pattern" | sed 's|.*/||' || true)
	for t in $tests; do
		T=$(mktemp -d)
		# wall and CPU seconds (user + system of the test and every process
		# it waited for, mpirun's ranks included): CPU is what to compare
		# when the machine is busy with other work
		TIMEFORMAT='%R %U %S'
		{ time { (cd "$T" && export T && source "$here/lib.sh" && source "$f" && "$t") > "$T.log" 2>&1; }; } 2> "$T.time"
		rc=$?
		took=$(awk '{ printf "%.0fs, cpu %.1fs", $1, $2 + $3 }' "$T.time")
		if [ "$rc" = 0 ]; then
			pass=$((pass + 1)); echo "ok   $name/$t ($took)"
		else
			failn=$((failn + 1)); echo "FAIL $name/$t ($took)"; sed 's/^/    /' "$T.log" | tail -20
		fi
		rm -rf "$T" "$T.log" "$T.time"
	done
done
echo "$pass passed, $failn failed"
[ "$failn" = 0 ]
