# t_phold.sh - PHOLD does what its parameters say (statistics, not tuning).

test_phold_statistics_follow_parameters() {
	printf 'simulation = { end = "2us"; seed = 5; };\nphold = { lps = 512; remote = 0.4; lookahead = "200ps"; mean = "2ns"; };\n' > p.cfg
	cxl 2 -q p.cfg -o out || return 1
	# events ~ lps * end / mean = 512 * 2000 / 2000 = 512 per... x1000 = 512000
	ev=$(json_num out/stats.json events)
	near "$ev" 512000 10240 || fail "events $ev not within 2% of 512000" || return 1
	share=$(json_num out/stats.json remote_share)
	# a remote draw picks self with probability 1/512
	near "$share" 0.3992 0.005 || fail "remote share $share, expected 0.4 x 511/512" || return 1
	md=$(json_num out/stats.json mean_delay_ns)
	near "$md" 2.0 0.02 || fail "mean delay $md ns, expected 2"
}

test_phold_population_constant() {
	printf 'simulation = { end = "500ns"; };\nphold = { lps = 100; start_events = 7; };\n' > p.cfg
	cxl 3 -q p.cfg -o out || return 1
	grep -q '"peak_live_events_per_rank"' out/stats.json || fail "no live-event figure" || return 1
	local peaks p sum=0
	peaks=$(grep -o '"peak_live_events_per_rank": \[[^]]*\]' out/stats.json | sed 's/.*\[//; s/\]//; s/,/ /g')
	[ "$(echo $peaks | wc -w)" = 3 ] || fail "peaks '$peaks' are not 3 ranks'" || return 1
	# The population is 100 x 7 = 700 events.  An event sent to another rank
	# is copied into the transport and goes back to its pool at once, so no
	# rank ever holds more than the population: a leak or a duplicated event
	# shows as a peak above it (the upper bound the test is about).  At time 0
	# all 700 are on some rank, so the peaks add up to at least 700.
	for p in $peaks; do
		[ "$p" -le 700 ] || fail "a rank's peak of $p live events is above the population 700" || return 1
		sum=$((sum + p))
	done
	[ "$sum" -ge 700 ] || fail "peak live events $sum < population 700"
}

test_end_time_respected() {
	printf 'simulation = { end = "1ns"; };\nphold = { lps = 10; lookahead = "2ns"; mean = "2ns"; };\n' > p.cfg
	cxl 1 -q p.cfg -o out || return 1
	# every delay is exactly 2ns > end: no event may execute
	[ "$(json_num out/stats.json events)" = 0 ] || fail "events executed after end"
}
