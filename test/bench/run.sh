#!/usr/bin/env bash
# test/bench/run.sh - the benchmarks behind `make bench`.
#
# PHOLD (configs/phold.cfg): median committed events/s over RUNS runs on 1 and
# on 2 ranks, the speedup of the medians, peak RSS, windows and MPI wait;
# rack-4096 (configs/rack-4096.cfg, RACK_END simulated): events/s, per rank,
# simulated ns per wall second, peak RSS, on 1 and 2 ranks (metis); then the
# event-queue comparison (test/bench/evq_bench.c) if it was built.
# Targets are printed next to the figures.  Timings belong here, never in
# tests: the machines are shared and noisy, so read medians, not single runs.
#
# Environment: CXLFAB (binary), BENCH_DIR (built bench programs), RUNS (5).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
CXLFAB=${CXLFAB:-$root/bin/cxlfab}
RUNS=${RUNS:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_orte_execute_quiet=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

num() { grep -o "\"$2\": [-0-9.e+]*" "$1" | head -1 | sed 's/.*: //'; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "commit:  $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo

# phold_runs N : RUNS runs of PHOLD on N ranks; one line of figures per run
phold_runs() {
	local n=$1
	for i in $(seq "$RUNS"); do
		if [ "$n" = 1 ]; then
			"$CXLFAB" -q "$root/configs/phold.cfg" -o "$out/p$n" || exit 1
		else
			mpirun -np "$n" "$CXLFAB" -q "$root/configs/phold.cfg" -o "$out/p$n" || exit 1
		fi
		local f=$out/p$n/stats.json
		rss=$(grep -o '"peak_rss_bytes": \[[^]]*\]' "$f" | grep -o '[0-9][0-9]*' | sort -n | tail -1)
		echo "$(num "$f" events_per_s) $(num "$f" loop_s) $rss $(num "$f" windows) $(num "$f" mpi_wait_s) $(num "$f" events)"
	done
}

echo "PHOLD, configs/phold.cfg (4096 LPs, remote 0.25, lookahead 100ps, mean 1ns, end 4us), $RUNS runs each"
printf '%-6s %14s %10s %14s %10s %12s %12s\n' ranks "events/s(med)" "loop_s" "peak_rss_MiB" windows "mpi_wait_s" events
declare -A eps
for n in 1 2; do
	phold_runs "$n" > "$out/runs$n"
	eps[$n]=$(cut -d' ' -f1 "$out/runs$n" | median)
	printf '%-6s %14.0f %10.3f %14.1f %10d %12.3f %12d\n' "$n" "${eps[$n]}" \
		"$(cut -d' ' -f2 "$out/runs$n" | median)" \
		"$(cut -d' ' -f3 "$out/runs$n" | median | awk '{ print $1 / 1048576 }')" \
		"$(cut -d' ' -f4 "$out/runs$n" | median)" "$(cut -d' ' -f5 "$out/runs$n" | median)" \
		"$(cut -d' ' -f6 "$out/runs$n" | median)"
	echo "       all runs (events/s): $(cut -d' ' -f1 "$out/runs$n" | tr '\n' ' ')"
done
speedup=$(awk -v a="${eps[2]}" -v b="${eps[1]}" 'BEGIN { printf "%.2f", a / b }')
ok1=$(awk -v a="${eps[1]}" 'BEGIN { print (a >= 5e6) ? "met" : "MISSED" }')
ok2=$(awk -v s="$speedup" 'BEGIN { print (s >= 1.6) ? "met" : "MISSED" }')
echo
echo "target: >= 5 M events/s on 1 rank ............ $(awk -v a="${eps[1]}" 'BEGIN { printf "%.2f M", a / 1e6 }') ($ok1)"
echo "target: 2-rank speedup >= 1.6x ................ ${speedup}x ($ok2)"

# rack-4096: uniform random reads, queue 16, RACK_END simulated, metis on 2 ranks
RACK_END=${RACK_END:-2us}
rack_runs() {
	local n=$1
	for i in $(seq "$RUNS"); do
		if [ "$n" = 1 ]; then
			"$CXLFAB" -q "$root/configs/rack-4096.cfg" --end "$RACK_END" -o "$out/r$n" || exit 1
		else
			mpirun -np "$n" "$CXLFAB" -q "$root/configs/rack-4096.cfg" --end "$RACK_END" \
				--partition metis -o "$out/r$n" || exit 1
		fi
		local f=$out/r$n/stats.json
		rss=$(grep -o '"peak_rss_bytes": \[[^]]*\]' "$f" | grep -o '[0-9][0-9]*' | sort -n | tail -1)
		echo "$(num "$f" events_per_s) $(num "$f" loop_s) $rss $(num "$f" sim_time_ps) $(num "$f" events)"
	done
}

echo
echo "rack-4096 (configs/rack-4096.cfg, --end $RACK_END, 2 ranks: metis), $RUNS runs each"
printf '%-6s %14s %16s %10s %14s %12s\n' ranks "events/s(med)" "per rank" "loop_s" "peak_rss_MiB" "sim_ns/s"
declare -A reps
for n in 1 2; do
	rack_runs "$n" > "$out/rack$n"
	reps[$n]=$(cut -d' ' -f1 "$out/rack$n" | median)
	loop=$(cut -d' ' -f2 "$out/rack$n" | median)
	simt=$(cut -d' ' -f4 "$out/rack$n" | median)
	printf '%-6s %14.0f %16.0f %10.3f %14.1f %12.0f\n' "$n" "${reps[$n]}" \
		"$(awk -v a="${reps[$n]}" -v n="$n" 'BEGIN { print a / n }')" "$loop" \
		"$(cut -d' ' -f3 "$out/rack$n" | median | awk '{ print $1 / 1048576 }')" \
		"$(awk -v t="$simt" -v l="$loop" 'BEGIN { print (t / 1000) / l }')"
	echo "       all runs (events/s): $(cut -d' ' -f1 "$out/rack$n" | tr '\n' ' ')"
done
rsp=$(awk -v a="${reps[2]}" -v b="${reps[1]}" 'BEGIN { printf "%.2f", a / b }')
rss_max=$(cat "$out/rack1" "$out/rack2" | cut -d' ' -f3 | sort -n | tail -1)
echo
echo "target: >= 3 M events/s per rank ............. $(awk -v a="${reps[1]}" 'BEGIN { printf "%.2f M", a / 1e6 }') on 1, $(awk -v a="${reps[2]}" 'BEGIN { printf "%.2f M", a / 2e6 }') per rank on 2 ($(awk -v a="${reps[1]}" -v b="${reps[2]}" 'BEGIN { print (a >= 3e6 && b / 2 >= 3e6) ? "met" : "MISSED" }'))"
echo "target: 2-rank speedup >= 1.7x ................ ${rsp}x ($(awk -v s="$rsp" 'BEGIN { print (s >= 1.7) ? "met" : "MISSED" }'))"
echo "target: <= 1 GiB RSS per rank ................. $(awk -v r="$rss_max" 'BEGIN { printf "%.0f MiB", r / 1048576 }') ($(awk -v r="$rss_max" 'BEGIN { print (r <= 1073741824) ? "met" : "MISSED" }'))"

if [ -x "${BENCH_DIR:-}/evq_bench" ]; then
	echo
	echo "Pending-event set: hold model on the PHOLD delay distribution (test/bench/evq_bench.c)"
	"$BENCH_DIR/evq_bench"
fi

# --- .cxt traces (traces/, test/bench/trace_bench.c) ---
# Decode throughput of the streaming reader on synthetic traces (median of
# RUNS), then for each ESF trace in ESF_TRACES (default
# /work/shared/traces/esf, never copied into the repo): the .cxt size
# against gzip -9 of the same text, and decode throughput.
# Environment: CXLFAB_TRACE (tool), ESF_TRACES (folder of *.trace).
CXLFAB_TRACE=${CXLFAB_TRACE:-$root/bin/cxlfab-trace}
ESF_TRACES=${ESF_TRACES:-/work/shared/traces/esf}
if [ -x "${BENCH_DIR:-}/trace_bench" ] && [ -x "$CXLFAB_TRACE" ]; then
	echo
	echo "Trace decode, synthetic traces (test/bench/trace_bench.c), median of $RUNS runs"
	"$BENCH_DIR/trace_bench" --reps "$RUNS" | tee "$out/trace_synth"
	worst=$(awk '$2 == "next" { print $3 }' "$out/trace_synth" | sort -g | head -1)
	worst_cpu=$(awk '$2 == "next" { print $(NF - 3) }' "$out/trace_synth" | sort -g | head -1)
	echo "target: >= 20 M records/s decode (one core) ... next() per record, worst trace:" \
		"$worst M/s wall, $worst_cpu M per CPU-s" \
		"($(awk -v a="$worst_cpu" 'BEGIN { print (a >= 20) ? "met" : "MISSED" }'), judged on CPU time:" \
		"the machine is shared, wall time counts other jobs)"
	echo
	if ls "$ESF_TRACES"/*.trace > /dev/null 2>&1; then
		echo "ESF traces ($ESF_TRACES): .cxt vs gzip -9 of the text, decode median of $RUNS runs"
		printf '%-22s %8s %10s %10s %10s %9s %14s\n' trace records text_B gzip9_B cxt_B cxt/gz "M rec/s wall/CPU"
		for f in "$ESF_TRACES"/*.trace; do
			name=$(basename "$f" .trace)
			"$CXLFAB_TRACE" convert -q "$f" "$out/$name.cxt" || exit 1
			"$CXLFAB_TRACE" cat "$out/$name.cxt" | cmp -s - "$f" || echo "  $name: round trip differs!"
			gz=$(gzip -9c "$f" | wc -c); cxt=$(stat -c %s "$out/$name.cxt")
			rate=$("$BENCH_DIR/trace_bench" --reps "$RUNS" "$out/$name.cxt" | awk '{ print $3 "/" $(NF - 3) }')
			printf '%-22s %8d %10d %10d %10d %9.3f %14s\n' "$name" "$(wc -l < "$f")" \
				"$(stat -c %s "$f")" "$gz" "$cxt" "$(awk -v a="$cxt" -v b="$gz" 'BEGIN { print a / b }')" \
				"$rate"
			echo "$cxt $gz" >> "$out/esf_sizes"
		done
		ratio=$(awk '{ c += $1; g += $2 } END { printf "%.3f", c / g }' "$out/esf_sizes")
		echo "target: .cxt <= 0.5x gzip -9 of the ESF text ... ${ratio}x over all ESF traces" \
			"($(awk -v r="$ratio" 'BEGIN { print (r <= 0.5) ? "met" : "MISSED" }'))"
	else
		echo "ESF traces: $ESF_TRACES/*.trace not found, compression vs gzip -9 skipped"
	fi
fi
