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

# breakdown FILE : "OK" if every latency_breakdown_ns / breakdown_ns object of
# the summary adds up to its latency mean (to 1e-6 relative: JSON keeps 9 significant digits), else why not;
# then the summary's categories, one "name value" per line
breakdown() {
	python3 - "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
def check(where, lat, bd):
    tot = sum(bd.values())
    if abs(tot - lat["mean"]) > 1e-6 * max(1.0, lat["mean"]):  # JSON keeps 9 digits
        print(f"{where}: categories add up to {tot}, latency mean {lat['mean']}"); sys.exit(0)
check("summary", s["latency_ns"], s["latency_breakdown_ns"])
for k, v in s["latency_by_hops"].items():
    check(f"hops {k}", v["latency_ns"], v["breakdown_ns"])
print("OK")
for k, v in s["latency_breakdown_ns"].items():
    print(k, v)
PY
}

# An idle request's breakdown is the configured sums, exactly: ESF's
# validation system (host 10 ns; 4 buses of 1 ns and 8 links of 25 ns;
# 2 switch traversals of 20 ns; memory 40 ns + 2.5 ns channel + 40 ns DRAM).
test_breakdown_idle_is_the_configured_sums() {
	cxl 1 -q "$CONFIGS/esf-validation.cfg" --set workload.queue=1 -o out || return 1
	breakdown out/stats.json > bd.txt
	cat bd.txt
	[ "$(head -1 bd.txt)" = OK ] || fail "$(head -1 bd.txt)" || return 1
	for want in "requester 10" "link 204" "switch 40" "queueing 0" "memory 82.5" "coherence 0"; do
		grep -qx "$want" bd.txt || fail "expected '$want'" || return 1
	done
	near "$(awk '$1 == "serialisation" { print $2 }' bd.txt)" 3.304 1e-9 || fail "serialisation"
}

# Under load, with coherence, replays, slices and cut-through, every request's
# categories add up to its latency (the simulator asserts it per request: a
# miss would end the run with exit 1); the means add up to the mean, overall
# and by hop count; each mechanism shows up in its own category.
test_breakdown_sums_under_load() {
	local cat
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" --set workload.queue=64 --set bus.lanes=1 --end 3us -o a || return 1
	cxl 1 -q "$CONFIGS/invblk.cfg" -o b || return 1
	cxl 1 -q "$CONFIGS/pcie-replay.cfg" --set bus.error_rate=0.01 -o c || return 1
	cxl 1 -q "$CONFIGS/spine_leaf.cfg" --set switch.slices=2 --set switch.forwarding=cut_through \
		--set workload.read_ratio=0.5 --end 2us -o d || return 1
	for r in a b c d; do
		breakdown $r/stats.json > $r.txt
		[ "$(head -1 $r.txt)" = OK ] || fail "$r: $(head -1 $r.txt)" || return 1
	done
	cat() { awk -v k="$2" '$1 == k { print $2 }' "$1.txt"; }
	awk 'BEGIN { exit !('"$(cat a queueing)"' > 100) }' || fail "spine_leaf, x1 buses, queue 64: little queueing" || return 1
	awk 'BEGIN { exit !('"$(cat b coherence)"' > 0) }' || fail "invblk: no coherence wait" || return 1
	cxl 1 -q "$CONFIGS/pcie-replay.cfg" -o c0 || return 1
	breakdown c0/stats.json > c0.txt
	awk 'BEGIN { exit !('"$(cat c serialisation)"' > '"$(cat c0 serialisation)"') }' ||
		fail "replays did not add serialisation" || return 1
	# the breakdown is in components too (1-4 ranks identical: t_determinism, t_coherence)
	awk "BEGIN { exit !($(csv_sum b/components.csv lat_coherence_ps) > 0) }" || fail "no lat_coherence_ps in components.csv"
}
