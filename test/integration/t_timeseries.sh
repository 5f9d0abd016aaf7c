# t_timeseries.sh - statistics over time (simulation.sample_period): the
# time series are byte-identical on 1-4 ranks and every partitioner, their
# periods add up to the run's exact counters, they run from 0 to the last
# event, sampling changes no result and is off by default, and a period that
# would take too much memory is refused before the run.

# ts_run N OUT ARGS... : spine_leaf with few requests, sampled every 100 ns
ts_run() {
	local n=$1 out=$2; shift 2
	cxl "$n" -q "$CONFIGS/spine_leaf.cfg" -o "$out" --end 100us --set workload.requests=300 \
		--set simulation.sample_period=100ns "$@"
}

test_timeseries_identical_across_ranks_and_partitioners() {
	ts_run 1 r1 || return 1
	[ -s r1/timeseries.csv ] && [ -s r1/timeseries_summary.csv ] || fail "no time series written" || return 1
	for n in $MRANKS; do
		for p in metis block roundrobin; do
			ts_run "$n" "r$n$p" --partition "$p" || fail "$n ranks $p: run failed" || return 1
			for f in timeseries.csv timeseries_summary.csv; do
				cmp -s r1/$f "r$n$p/$f" || fail "$n ranks, $p: $f differs from 1 rank" || return 1
			done
			cmp -s <(results r1/stats.json) <(results "r$n$p/stats.json") ||
				fail "$n ranks, $p: results differ" || return 1
		done
	done
}

# sums_match DIR : every series adds up over its periods to the exact counter
sums_match() {
	awk -F, '
	FNR == 1 { file++; next }
	file == 1 { ts[$2 "," $4] += $5; next }       # timeseries.csv: component,stat -> sum
	{ c[$1 "," $4] = $5; type[$1] = $2 }          # components.csv
	END {
		for (x in type) {
			t = type[x]
			if (t == "host" || t == "accel") {
				chk(ts[x ",completed"], c[x ",completed"], x " completed")
				chk(ts[x ",bytes"], 64 * c[x ",completed"], x " bytes")
				hosts++
			} else if (t == "bus") {
				if ((x ",busy_ps") in ts)
					chk(ts[x ",busy_ps"], c[x ",busy_ps_d0"] + c[x ",busy_ps_d1"], x " busy_ps")
				else for (d = 0; d < 2; d++)
					chk(ts[x ",busy_ps_d" d], c[x ",busy_ps_d" d], x " busy_ps_d" d)
				buses++
			} else if (t == "memory") {
				chk(ts[x ",requests"], c[x ",reads"] + c[x ",writes"], x " requests")
			} else if (t == "switch") {
				for (p = 0; (x ",p" p "_pkts") in c; p++) {
					chk(ts[x ",p" p "_pkts"], c[x ",p" p "_pkts"], x " p" p "_pkts")
					# drained: every wait ended, so the waits add up to queue_ps
					chk(ts[x ",p" p "_waiting_ps"], c[x ",p" p "_queue_ps"], x " p" p "_waiting_ps")
					ports++
				}
			}
		}
		printf "checked %d requesters, %d buses, %d switch ports\n", hosts, buses, ports
		if (!hosts || !buses || !ports) { print "nothing checked"; bad = 1 }
		exit bad
	}
	function chk(got, want, what) {
		if (got != want) { printf "%s: series sum %s, counter %s\n", what, got, want; bad = 1 }
	}' "$1/timeseries.csv" "$1/components.csv" || fail "$1: a series does not add up" || return 1
	# the summary: its requests add up to every requester's completed
	local sreq creq
	sreq=$(awk -F, 'NR > 1 { s += $4 } END { print s + 0 }' "$1/timeseries_summary.csv")
	creq=$(json_num "$1/stats.json" completed)
	[ "$sreq" = "$creq" ] || fail "$1: summary requests $sreq, completed $creq"
}

test_timeseries_sums_match_counters() {
	ts_run 1 full || return 1
	conserved full 300 || return 1
	sums_match full || return 1
	# half duplex (one transmitter: busy_ps), narrow links and small bus buffers
	# so that packets wait in the switches
	ts_run 2 half --set bus.duplex=half --set bus.lanes=1 --set bus.gen=3 --set bus.buffer=2 || return 1
	[ "$(json_num half/stats.json completed)" = 2400 ] && [ "$(csv_sum half/components.csv held_at_end)" = 0 ] ||
		fail "half: not drained" || return 1
	sums_match half || return 1
	awk -F, '$4 ~ /_waiting_ps$/ && $5 > 0 { n++ } END { exit !n }' half/timeseries.csv ||
		fail "saturated half-duplex run: no switch port ever had a packet waiting"
}

test_timeseries_periods_run_to_the_last_event() {
	ts_run 1 p || return 1
	local last periods
	last=$(json_num p/stats.json sim_time_ps)
	periods=$(awk -F, 'NR > 1 { n++ } END { print n }' p/timeseries_summary.csv)
	[ "$periods" = $((last / 100000 + 1)) ] || fail "$periods periods, last event at $last ps" || return 1
	head -1 p/timeseries.csv | grep -qx 'time_ps,component,type,stat,value' || fail "timeseries.csv header" || return 1
	head -1 p/timeseries_summary.csv | grep -qx 'time_ps,span_ps,throughput_GBps,requests,latency_mean_ns,latency_p50_ns,latency_p99_ns,bus_util_mean,bus_util_max,switch_occupancy_mean' ||
		fail "timeseries_summary.csv header" || return 1
	# every component's every series has one row per period, time_ps = k x period
	awk -F, -v np="$periods" 'NR > 1 { rows[$2 "," $4]++; if ($1 % 100000) bad = 1; if ($1 / 100000 >= np) bad = 1 }
		END { for (k in rows) if (rows[k] != np) bad = 1; exit bad }' p/timeseries.csv ||
		fail "rows are not one per series and period" || return 1
	# the last period ends at the last event; the others are whole
	awk -F, -v np="$periods" -v last="$last" 'NR > 1 && NR < np + 1 && $2 != 100000 { exit 1 }
		NR == np + 1 && $2 != last - $1 { exit 1 }' p/timeseries_summary.csv ||
		fail "span_ps is not the period (the last: up to the last event)"
}

test_timeseries_off_by_default_changes_nothing() {
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" -o off --end 100us --set workload.requests=300 || return 1
	[ ! -e off/timeseries.csv ] && [ ! -e off/timeseries_summary.csv ] ||
		fail "time series written with sample_period unset" || return 1
	grep -q '^ *# sample_period = "0ps";' off/config.cfg ||
		fail "config.cfg does not record the default sample_period" || return 1
	ts_run 1 on || return 1
	cmp -s <(results off/stats.json) <(results on/stats.json) || fail "sampling changed the results" || return 1
	cmp -s off/components.csv on/components.csv || fail "sampling changed components.csv"
}

test_timeseries_too_many_periods_refused() {
	# spine_leaf ends by simulation.end = 1ms at the latest: 10^5 periods of 10 ns
	expect_error 1 '--set simulation\.sample_period=10ns: simulation\.sample_period: 10ns over simulation\.end 1ms: 100000 periods x \([0-9]+ series \+ 1 latency histograms\) would take up to [0-9]+ cells, more than 10000000 \(80 MB\); use a sample period of at least [0-9.]+[pnum]?s, or a shorter simulation\.end' \
		-q "$CONFIGS/spine_leaf.cfg" --set simulation.sample_period=10ns || return 1
	expect_error 2 '--set simulation\.sample_period=10ns: simulation\.sample_period: 10ns over' \
		-q "$CONFIGS/spine_leaf.cfg" --set simulation.sample_period=10ns || return 1
	cxl 1 --check "$CONFIGS/spine_leaf.cfg" --set simulation.sample_period=10ns > check.out 2> check.err &&
		fail "--check accepted a sample period the run refuses" || true
	grep -q 'use a sample period of at least' check.err || fail "--check: $(cat check.err)"
}
