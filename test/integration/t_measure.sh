# Measurement semantics (models/fabric/fab_window.c): warm-up, a window, a
# drain.  A time-bounded run reports the throughput and latency of the
# steady state (the same as a long request-bounded run of the same system),
# says what it measured, and warns when a result cannot be trusted.

# summary value: json_num on the summary section only
sum_num() { sed -n '/^  "summary": {/,/^  "components"/p' "$1" > "$1.sum"; json_num "$1.sum" "$2"; }

test_time_bounded_matches_steady_state() {
	local cfg="$CONFIGS/spine_leaf.cfg" load="--set workload.queue=16 --set simulation.warmup=1us"
	# shellcheck disable=SC2086
	cxl 1 -q "$cfg" $load --set workload.requests=20000 -o long || return 1
	# shellcheck disable=SC2086
	cxl 2 -q "$cfg" $load --set workload.requests=1000000 --end 11us -o short || return 1
	grep -q '"bounded_by": "requests"' long/stats.json || fail "long run not request-bounded" || return 1
	grep -q '"bounded_by": "time"' short/stats.json || fail "short run not time-bounded" || return 1
	local bl bs ll ls
	bl=$(sum_num long/stats.json bandwidth_GBps); bs=$(sum_num short/stats.json bandwidth_GBps)
	ll=$(sum_num long/stats.json mean); ls=$(sum_num short/stats.json mean)
	echo "steady state $bl GB/s, $ll ns; 10 us window $bs GB/s, $ls ns"
	near "$bs" "$bl" "$(awk -v b="$bl" 'BEGIN { print 0.03 * b }')" || fail "throughput $bs vs $bl" || return 1
	near "$ls" "$ll" "$(awk -v b="$ll" 'BEGIN { print 0.03 * b }')" || fail "latency $ls vs $ll" || return 1
	# the window's end left requests in flight; the drain answered them all
	[ "$(sum_num short/stats.json in_flight_at_end)" -gt 0 ] || fail "nothing in flight at the end" || return 1
	[ "$(sum_num short/stats.json unanswered)" = 0 ] || fail "unanswered requests" || return 1
	grep -q '"warnings": \[\]' short/stats.json || fail "unexpected warnings"
}

# throughput = data delivered inside the window / its length, exactly
test_window_throughput_is_bytes_over_length() {
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" --set simulation.warmup=500ns --end 3us -o out || return 1
	local bytes len bw
	bytes=$(grep -o '"window": {[^}]*}' out/stats.json | grep -o '"bytes": [0-9]*' | sed 's/.*: //')
	len=$(grep -o '"length_ns": [0-9.]*' out/stats.json | sed 's/.*: //')
	bw=$(sum_num out/stats.json bandwidth_GBps)
	[ "$len" = 2500 ] || fail "window length $len ns (expected 2500)" || return 1
	near "$bw" "$(awk -v b="$bytes" -v l="$len" 'BEGIN { print b / l }')" 1e-6 || fail "bandwidth $bw vs $bytes B / $len ns" || return 1
	# and it is the sum of the requesters' window_bytes
	[ "$(csv_sum out/components.csv window_bytes)" = "$bytes" ] || fail "window_bytes sum"
}

test_warnings_short_window_and_warmup() {
	cxl 1 "$CONFIGS/spine_leaf.cfg" --set simulation.warmup=1us --end 2us -o a > a.out 2> a.err || return 1
	grep -q 'cxlfab: warning: the measurement window (1us) is shorter than 10 mean latencies' a.err ||
		fail "no short-window warning on stderr: $(cat a.err)" || return 1
	grep -q '"warnings": \[' a/stats.json && grep -q 'shorter than 10 mean latencies' a/stats.json ||
		fail "no warning in summary" || return 1
	grep -q 'window 1us .. 2us (time-bounded)' a.out || fail "no report on stdout: $(cat a.out)" || return 1
	cxl 1 "$CONFIGS/spine_leaf.cfg" --set simulation.warmup=5us --end 2us -o b > b.out 2> b.err || return 1
	grep -q 'warm-up (simulation.warmup = 5us) never ended' b.err || fail "no warm-up warning: $(cat b.err)" || return 1
	# -q: nothing printed, the warning stays in stats.json
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" --set simulation.warmup=5us --end 2us -o c > c.out 2> c.err || return 1
	[ ! -s c.out ] && [ ! -s c.err ] || fail "-q printed something" || return 1
	grep -q 'never ended' c/stats.json || fail "warning missing from stats.json with -q"
}

test_drain_bound_reports_unanswered() {
	cxl 1 "$CONFIGS/spine_leaf.cfg" --set simulation.drain=1ns --end 2us -o out > out.txt 2> err.txt || return 1
	local u
	u=$(sum_num out/stats.json unanswered)
	[ "$u" -gt 0 ] || fail "no unanswered request with a 1 ns drain" || return 1
	grep -q "cxlfab: warning: $u requests were still unanswered 1ns after simulation.end" err.txt ||
		fail "no unanswered warning: $(cat err.txt)"
}

# a request-bounded run ends with its last answer; nothing is in flight
test_request_bounded_window() {
	cxl 1 -q "$CONFIGS/esf-validation.cfg" -o out || return 1
	grep -q '"bounded_by": "requests"' out/stats.json || fail "not request-bounded" || return 1
	[ "$(sum_num out/stats.json in_flight_at_end)" = 0 ] || fail "in flight at the end"
}
