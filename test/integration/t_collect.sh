# t_collect.sh - studies across runs: analysis/sweep (a grid of --set keys,
# one folder per point, resume), analysis/collect (one table of many runs:
# the config keys that differ, the stats.json numbers, its errors) and
# configs/slurm/sweep.sbatch run by hand with faked Slurm variables.

root=$(cd "$CONFIGS/.." && pwd)
# /usr/bin/python3 when there is one: a python3 found through a version
# manager's shim can take a second to start
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
sweep() { timeout "$TIMEOUT" "$PY" "$root/analysis/sweep" "$@"; }
collect() { timeout "$TIMEOUT" "$PY" "$root/analysis/collect" "$@"; }
# shellcheck disable=SC2054  # the commas are analysis/sweep's
GRID=(--grid workload.queue=2,8 --grid workload.requests=20,40)

# md_cell FILE FOLDER COLUMN : the cell of COLUMN in the row of FOLDER
md_cell() {
	awk -F' *[|] *' -v r="$2" -v c="$3" \
		'NR == 1 { for (i = 2; i < NF; i++) if ($i == c) k = i } k && $2 == r { print $k }' "$1"
}

# fake_run DIR LINE [STATS-TAIL] : a run folder written by hand (no cxlfab):
# LINE in config.cfg's workload group, STATS-TAIL after stats.json's summary
fake_run() {
	mkdir -p "$1"
	printf 'workload = {\n  %s\n  # warmup = 0;  (default)\n};\n' "$2" > "$1/config.cfg"
	printf '{\n  "run": { "ranks": 1, "wall_s": 0.5 },\n  "summary": { "requests": 10, "latency_ns": { "mean": 1.25, "p99": 2 } }%s\n}\n' \
		"${3:-}" > "$1/stats.json"
}

test_sweep_grid_and_resume() {
	# a cxlfab that counts its runs
	printf '#!/bin/sh\necho "$*" >> %s/calls\nexec %s "$@"\n' "$T" "$CXLFAB" > counting
	chmod +x counting
	export CXLFAB=$T/counting
	sweep -q -j 2 "${GRID[@]}" -o sw "$CONFIGS/chain.cfg" > table.md || fail "sweep failed" || return 1
	[ "$(wc -l < calls)" = 4 ] || fail "$(wc -l < calls) runs for 4 points" || return 1
	head -1 table.md | grep -q '^| folder | workload.queue | workload.requests | run.ranks | ' ||
		fail "header: $(head -1 table.md) (expected the two grid keys and no other config key)" || return 1
	[ "$(grep -c '^| sw/' table.md)" = 4 ] || fail "$(grep -c '^| sw/' table.md) rows, expected 4" || return 1
	want="sw/workload.queue=2,workload.requests=20 sw/workload.queue=2,workload.requests=40"
	want="$want sw/workload.queue=8,workload.requests=20 sw/workload.queue=8,workload.requests=40"
	got=$(awk -F' *[|] *' '/^\| sw\// { print $2 }' table.md | xargs)
	[ "$got" = "$want" ] || fail "rows or their order: $got" || return 1
	for d in $want; do
		[ -f "$d/stats.json" ] || fail "$d: no stats.json" || return 1
		q=${d#sw/workload.queue=}; q=${q%%,*}; r=${d##*=}
		[ "$(md_cell table.md "$d" workload.queue)" = "$q" ] || fail "$d: workload.queue cell" || return 1
		[ "$(md_cell table.md "$d" workload.requests)" = "$r" ] || fail "$d: workload.requests cell" || return 1
		for k in requests bandwidth_GBps mean p99 wall_s events_per_s; do
			col=summary.$k
			case $k in mean|p99) col=summary.latency_ns.$k ;; wall_s|events_per_s) col=run.$k ;; esac
			cellv=$(md_cell table.md "$d" "$col"); file=$(json_num "$d/stats.json" "$k")
			[ -n "$file" ] && [ "$cellv" = "$file" ] || fail "$d: $col is '$cellv' in the table, $file in stats.json" || return 1
		done
		[ "$(json_num "$d/stats.json" requests)" = $((8 * r)) ] || fail "$d: requests not 8 hosts x $r" || return 1
	done
	# the CSV beside it: the same rows
	[ "$(wc -l < sw/sweep.csv)" = 5 ] || fail "sw/sweep.csv: $(wc -l < sw/sweep.csv) lines, expected 5" || return 1
	grep -q '^"sw/workload.queue=8,workload.requests=40",8,40,1,' sw/sweep.csv || fail "CSV row: $(tail -1 sw/sweep.csv)" || return 1

	# resume: the same sweep again runs nothing ...
	sweep "${GRID[@]}" -o sw "$CONFIGS/chain.cfg" > table2.md 2> err || fail "second sweep" || return 1
	[ "$(wc -l < calls)" = 4 ] || fail "the second sweep ran again: $(tail -1 calls)" || return 1
	[ "$(grep -c 'done already, skipped' err)" = 4 ] || fail "skip messages: $(cat err)" || return 1
	cmp -s table.md table2.md || fail "another table after resuming: $(cat table2.md)" || return 1
	# ... and a point that lost its stats.json runs alone
	rm sw/workload.queue=8,workload.requests=20/stats.json
	sweep -q "${GRID[@]}" -o sw "$CONFIGS/chain.cfg" > table2.md || fail "third sweep" || return 1
	[ "$(wc -l < calls)" = 5 ] || fail "$(( $(wc -l < calls) - 4 )) runs, expected 1" || return 1
	tail -1 calls | grep -q -- '-o sw/workload.queue=8,workload.requests=20$' || fail "ran: $(tail -1 calls)" || return 1
	[ "$(grep -c '^| sw/' table2.md)" = 4 ] || fail "table: $(cat table2.md)" || return 1
	# the same folders with other settings: refused, nothing run
	sweep -q "${GRID[@]}" --set workload.pattern=stream -o sw "$CONFIGS/chain.cfg" > out 2> err
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l < err)" = 1 ] && grep -q '^sweep: error: .*other settings' err ||
		fail "other settings in a done folder: exit $rc, $(cat err)" || return 1
	[ "$(wc -l < calls)" = 5 ] || fail "ran despite the error"
}

test_collect_errors() {
	mkdir empty
	collect empty > out 2> err; rc=$?
	[ "$rc" = 2 ] || fail "exit $rc for a folder without stats.json" || return 1
	[ "$(wc -l < err)" = 1 ] && grep -q '^collect: error: empty: no stats.json' err || fail "message: $(cat err)" || return 1
	[ ! -s out ] || fail "output despite the error" || return 1
	# a run folder that failed (sweep.cmd, no stats.json) beside a good one
	fake_run p/good 'queue = 4;'
	mkdir p/failed && echo cxlfab > p/failed/sweep.cmd
	collect p > out 2> err; rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l < err)" = 1 ] && grep -q '^collect: error: p/failed: no stats.json' err ||
		fail "incomplete run: exit $rc, $(cat err)" || return 1
	collect --skip-incomplete p > out 2> err || fail "--skip-incomplete: $(cat err)" || return 1
	[ "$(wc -l < out)" = 2 ] && grep -q 'p/failed.*left out' err || fail "--skip-incomplete: $(cat out err)" || return 1
	# a partial stats.json
	fake_run part 'queue = 4;'
	head -c 40 part/stats.json > x && mv x part/stats.json
	collect part > out 2> err; rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l < err)" = 1 ] && grep -q '^collect: error: part/stats.json: not valid JSON' err ||
		fail "partial stats.json: exit $rc, $(cat err)" || return 1
	# a --key no run has
	collect --key summary.latncy_ns.p99 p/good > out 2> err; rc=$?
	[ "$rc" = 2 ] && grep -q '^collect: error: --key summary.latncy_ns.p99: in no run' err ||
		fail "--key typo: exit $rc, $(cat err)"
}

test_collect_config_keys() {
	# a key left at its default (commented out) equals the same value set
	fake_run a 'queue = 16;'
	fake_run b '# queue = 16;  (default)'
	fake_run c 'queue = 4;' ', "interrupted": true'
	collect a b > out || return 1
	head -1 out | grep -q '^folder,run.ranks,' || fail "a default counted as a difference: $(head -1 out)" || return 1
	collect --key summary.latency_ns --markdown a b c > out 2> err || fail "collect: $(cat err)" || return 1
	head -1 out | grep -q '^| folder | workload.queue | interrupted | run.ranks | run.wall_s | summary.requests | summary.latency_ns.mean | summary.latency_ns.p99 |$' ||
		fail "header: $(head -1 out)" || return 1
	# sorted by the differing key (4 before 16), then the folder
	[ "$(awk -F' *[|] *' 'NR > 2 { printf "%s%s%s ", $2, $3, $4 }' out)" = "c4yes a16 b16 " ] || fail "rows: $(cat out)" || return 1
	grep -q 'c: the run was interrupted' err || fail "no warning for the interrupted run"
}

test_sbatch_fake_array() {
	sb() { SLURM_SUBMIT_DIR=$T SWEEP=$root/analysis/sweep PYTHON=$PY timeout "$TIMEOUT" bash "$root/configs/slurm/sweep.sbatch" "$@"; }
	[ "$(sb --count "${GRID[@]}" "$CONFIGS/chain.cfg")" = 4 ] || fail "--count" || return 1
	sb "${GRID[@]}" "$CONFIGS/chain.cfg" > out 2> err; rc=$?
	[ "$rc" = 2 ] && grep -q 'sbatch --array=0-3' err || fail "no task id: exit $rc, $(cat err)" || return 1
	SLURM_ARRAY_TASK_ID=3 SLURM_NTASKS=1 sb "${GRID[@]}" -o sb "$CONFIGS/chain.cfg" > log 2>&1 || fail "task 3: $(cat log)" || return 1
	SLURM_ARRAY_TASK_ID=0 SLURM_NTASKS=2 LAUNCHER=mpirun sb "${GRID[@]}" -o sb "$CONFIGS/chain.cfg" > log 2>&1 ||
		fail "task 0 on 2 ranks: $(cat log)" || return 1
	# the folders analysis/sweep gives the same points, and nothing else
	want=$(sweep --list "${GRID[@]}" -o sb "$CONFIGS/chain.cfg" | awk '$1 == 0 || $1 == 3 { print $2 }' | xargs)
	[ "$want" = "sb/workload.queue=2,workload.requests=20 sb/workload.queue=8,workload.requests=40" ] ||
		fail "sweep --list: $want" || return 1
	[ "$(cd sb && echo *)" = "workload.queue=2,workload.requests=20 workload.queue=8,workload.requests=40" ] ||
		fail "folders: $(ls sb)" || return 1
	collect sb > out || return 1
	grep -q '^"sb/workload.queue=2,workload.requests=20",2,20,2,metis,' out || fail "task 0 row: $(cat out)" || return 1
	grep -q '^"sb/workload.queue=8,workload.requests=40",8,40,1,metis,' out || fail "task 3 row: $(cat out)" || return 1
	# resubmitted: the done task runs nothing
	SLURM_ARRAY_TASK_ID=3 SLURM_NTASKS=1 sb "${GRID[@]}" -o sb "$CONFIGS/chain.cfg" > log 2>&1 || return 1
	grep -q 'done already, skipped' log || fail "task 3 again: $(cat log)"
}
