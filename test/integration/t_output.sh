# t_output.sh - the output folder: stats.json keys, components.csv, config.cfg,
# and the informational commands (--check, --help, --version, --help-config).

run_small() {
	printf 'simulation = { end = "100ns"; seed = 3; };\nphold = { lps = 64; };\n' > s.cfg
	cxl "${1:-2}" -q s.cfg -o out
}

test_run_section_has_binding_keys() {
	run_small 2 || return 1
	for k in version config config_sha256 ranks partitioner seed wall_s events events_per_s \
		 windows lookahead_ps edge_cut mpi_wait_s peak_rss_bytes sim_time_ps; do
		grep -q "^    \"$k\": " out/stats.json || fail "run.$k missing" || return 1
	done
	grep -q '"peak_rss_bytes": \[ [0-9]*, [0-9]* \]' out/stats.json || fail "peak_rss_bytes is not one value per rank"
	[ "$(json_num out/stats.json lookahead_ps)" = 100 ] || fail "lookahead_ps is not 100 on 2 ranks"
	want=$(sha256sum s.cfg | cut -d' ' -f1)
	grep -q "\"config_sha256\": \"$want\"" out/stats.json || fail "config_sha256 is not the file's sha256"
}

test_events_counted_consistently() {
	run_small 3 || return 1
	run=$(json_num out/stats.json events)
	sum=$(awk -F, '$4 == "events" { s += $5 } END { print s }' out/components.csv)
	[ "$run" = "$sum" ] || fail "run.events $run != sum of component events $sum"
	per=$(grep -o '"events_per_rank": \[[^]]*\]' out/stats.json | grep -o '[0-9][0-9]*' | awk '{ s += $1 } END { print s }')
	[ "$run" = "$per" ] || fail "run.events $run != sum of events_per_rank $per"
}

test_components_csv_shape() {
	run_small 2 || return 1
	head -1 out/components.csv | grep -qx 'component,type,rank,stat,value' || fail "bad CSV header" || return 1
	rows=$(grep -c '^lp[0-9]*,phold,[01],' out/components.csv)
	[ "$rows" = $((64 * 3)) ] || fail "$rows rows (expected 64 LPs x 3 stats)"
}

test_effective_config_reloads() {
	run_small 1 || return 1
	cxl 1 -q out/config.cfg -o again || fail "config.cfg does not load" || return 1
	results out/stats.json | cmp -s - <(results again/stats.json) || fail "config.cfg gives other results"
}

test_no_temp_files_left() {
	run_small 2 || return 1
	[ -z "$(ls out | grep tmp)" ] || fail "temporary files left: $(ls out)"
}

test_check_prints_system() {
	printf 'simulation = { end = "1us"; };\nphold = { lps = 77; };\n' > c.cfg
	cxl 1 --check c.cfg > o || fail "--check failed" || return 1
	grep -q 'valid; system "phold": 77 components' o || fail "unexpected --check output: $(cat o)" || return 1
	[ ! -e out ] || fail "--check wrote output"
}

test_help_and_version() {
	cxl 1 --help | grep -q -- '--partition NAME' || fail "--help lacks --partition" || return 1
	cxl 1 --version | grep -Eq '^cxlfab [0-9]+\.[0-9]+\.[0-9]+$' || fail "--version format" || return 1
	cxl 1 --help-config | grep -q 'phold.lookahead' || fail "--help-config lacks phold.lookahead"
}

test_default_outdir_from_config_name() {
	printf 'simulation = { end = "10ns"; };\nphold = { lps = 4; };\n' > mycase.cfg
	cxl 1 -q mycase.cfg || return 1
	[ -f out/mycase/stats.json ] || fail "expected out/mycase/stats.json"
}
