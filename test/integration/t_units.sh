# t_units.sh - numbers a study can publish: sizes with units (CFG_SIZE) and
# the offered load as a rate (workload.rate).  A size written with a unit
# gives byte for byte the results of the same size in bytes, config.cfg
# writes it back in a unit form that reloads to the same run, a rate gives
# the bandwidth it asks for, and bad sizes and rates are one-line errors
# (exit 2) on any rank count.

# esf-validation (one host, four memories, gen 5 x16) shortened
ESF_ARGS=(-q "$CONFIGS/esf-validation.cfg" --set workload.requests=3000)

test_footprint_unit_equals_bytes() {
	cxl 1 "${ESF_ARGS[@]}" -o unit --set workload.footprint=1MiB || return 1
	cxl 1 "${ESF_ARGS[@]}" -o bytes --set workload.footprint=1048576 || return 1
	cmp -s <(results unit/stats.json) <(results bytes/stats.json) ||
		fail "footprint 1MiB and 1048576 differ" || return 1
	cmp -s unit/config.cfg bytes/config.cfg || fail "config.cfg differs" || return 1
	grep -q '^  footprint = "1MiB";$' unit/config.cfg ||
		fail "config.cfg: $(grep footprint unit/config.cfg)"
}

# every size key at once, on 2 ranks: units and bytes give the same run
test_every_size_key_unit_equals_bytes() {
	local units=(--set workload.footprint=2.5MiB --set workload.interleave=4KiB
		--set host.cache.size=16KiB --set bus.header_bytes=24B)
	local bytes=(--set workload.footprint=2621440 --set workload.interleave=4096
		--set host.cache.size=16384 --set bus.header_bytes=24)
	cxl 2 "${ESF_ARGS[@]}" -o unit "${units[@]}" || return 1
	cxl 2 "${ESF_ARGS[@]}" -o bytes "${bytes[@]}" || return 1
	cmp -s <(results unit/stats.json) <(results bytes/stats.json) ||
		fail "sizes with units and in bytes differ" || return 1
	cmp -s unit/components.csv bytes/components.csv || fail "components.csv differs"
}

# config.cfg writes sizes as "2.5MiB", "4KiB", ...: reloading it is the same run
test_config_cfg_sizes_round_trip() {
	cxl 1 "${ESF_ARGS[@]}" -o a --set workload.footprint=2.5MiB --set workload.interleave=1000000 \
		--set workload.rate=1GB/s || return 1
	grep -q '^  footprint = "2.5MiB";$' a/config.cfg || fail "$(grep footprint a/config.cfg)" || return 1
	grep -q '^  interleave = "1MB";$' a/config.cfg || fail "$(grep interleave a/config.cfg)" || return 1
	grep -q '^  rate = "1GB/s";$' a/config.cfg || fail "$(grep 'rate =' a/config.cfg)" || return 1
	cxl 1 -q a/config.cfg -o b || return 1
	cmp -s <(results a/stats.json) <(results b/stats.json) || fail "reloaded config.cfg differs" || return 1
	cmp -s a/config.cfg b/config.cfg || fail "config.cfg is not stable"
}

# bw DIR : summary.bandwidth_GBps of the run in DIR
bw() { json_num "$1/stats.json" bandwidth_GBps; }

# within2 GOT WANT : |GOT - WANT| <= 2% of WANT
within2() { awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 0.02 * w) }'; }

# One host, lightly loaded (16 outstanding, ~340 ns idle latency: ~3 GB/s
# closed loop): the bandwidth is the offered rate.
test_rate_gives_its_bandwidth() {
	local r want
	for r in 1GB/s:1.0 500MB/s:0.5 1GiB/s:1.073741824 2%:1.26030769 ; do
		want=${r#*:}; r=${r%%:*}
		cxl 1 "${ESF_ARGS[@]}" -o "run" --set workload.rate="$r" || return 1
		echo "rate $r: $(bw run) GB/s (expected $want)"
		within2 "$(bw run)" "$want" || fail "rate $r gave $(bw run) GB/s, expected $want" || return 1
		rm -rf run
	done
}

# the interval is 64 B / rate exactly: 1GB/s is the same run as 64ns
test_rate_is_an_issue_interval() {
	cxl 1 "${ESF_ARGS[@]}" -o rate --set workload.rate=1GB/s || return 1
	cxl 1 "${ESF_ARGS[@]}" -o ival --set workload.issue_interval=64ns || return 1
	cmp -s <(results rate/stats.json) <(results ival/stats.json) ||
		fail "rate 1GB/s differs from issue_interval 64ns"
}

# a share of the link follows the bus's own overrides, not the host's
test_rate_share_of_the_hosts_link() {
	cxl 2 "${ESF_ARGS[@]}" -o x4 --set workload.rate=10% --set 'bus[host0-sw0].lanes=4' || return 1
	echo "10% of gen 5 x4: $(bw x4) GB/s (expected 1.575)"
	within2 "$(bw x4)" 1.57538462 || fail "10% of x4 gave $(bw x4) GB/s" || return 1
	cxl 1 "${ESF_ARGS[@]}" -o other --set workload.rate=2% --set 'bus[sw0-mem0].lanes=4' || return 1
	within2 "$(bw other)" 1.26030769 || fail "a memory bus's lanes changed the host's rate: $(bw other)"
}

rate_errors() {
	local n=$1
	expect_error "$n" '--set workload.rate=1GB/s: workload.rate: "1GB/s" and workload.issue_interval "2ns" both set the load' \
		"${ESF_ARGS[@]}" --set workload.issue_interval=2ns --set workload.rate=1GB/s || return 1
	expect_error "$n" '--set workload.rate=0.5: workload.rate: bad rate "0.5" \(expected bytes per second' \
		"${ESF_ARGS[@]}" --set workload.rate=0.5 || return 1
	expect_error "$n" '--set workload.rate=12GBps: workload.rate: bad rate "12GBps"' \
		"${ESF_ARGS[@]}" --set workload.rate=12GBps || return 1
	sed 's/^  queue = 16;/  queue = 16;\n  issue_interval = "5ns";\n  rate = "50%";/' \
		"$CONFIGS/esf-validation.cfg" > both.cfg
	expect_error "$n" 'both.cfg:[0-9]+: workload.rate: "50%" and workload.issue_interval "5ns" both set the load' \
		both.cfg || return 1
	# --check initialises the requesters too
	expect_error "$n" 'both.cfg:[0-9]+: workload.rate: ' --check both.cfg
}
test_rate_errors() { rate_errors 1 && rate_errors 2; }

size_errors() {
	local n=$1
	expect_error "$n" '--set workload.footprint=4KB: workload.footprint: bad size "4KB" \(expected a number of bytes, or a number with a unit B\|KiB' \
		"${ESF_ARGS[@]}" --set workload.footprint=4KB || return 1
	expect_error "$n" '--set workload.footprint=-1MiB: workload.footprint: negative size "-1MiB"' \
		"${ESF_ARGS[@]}" --set workload.footprint=-1MiB || return 1
	expect_error "$n" '--set bus.header_bytes=1.5B: bus.header_bytes: size "1.5B" is not a whole number of bytes' \
		"${ESF_ARGS[@]}" --set bus.header_bytes=1.5B || return 1
	expect_error "$n" '--set workload.footprint=8388608TiB: workload.footprint: size "8388608TiB" too large \(at most 2\^63-1 bytes\)' \
		"${ESF_ARGS[@]}" --set workload.footprint=8388608TiB || return 1
	expect_error "$n" '--set bus.header_bytes=1KiB: bus.header_bytes: 1KiB is out of range \(expected 0B to 256B\)' \
		"${ESF_ARGS[@]}" --set bus.header_bytes=1KiB || return 1
	sed 's/^  queue = 16;/  queue = 16;\n  footprint = "1.3KiB";/' "$CONFIGS/esf-validation.cfg" > frac.cfg
	expect_error "$n" 'frac.cfg:[0-9]+: workload.footprint: size "1.3KiB" is not a whole number of bytes' \
		frac.cfg || return 1
	sed 's/^  queue = 16;/  queue = 16;\n  footprint = 1.5;/' "$CONFIGS/esf-validation.cfg" > float.cfg
	expect_error "$n" 'float.cfg:[0-9]+: workload.footprint: wrong type: got a float \(expected a size' \
		float.cfg
}
test_bad_size_is_one_error_line() { size_errors 1 && size_errors 2; }

test_help_config_shows_sizes() {
	cxl 1 --help-config > help || return 1
	grep -Eq '^  workload.footprint +size +1MiB +>= 64B ' help || fail "$(grep footprint help)" || return 1
	grep -Eq '^  bus.header_bytes +size +20B +0B to 256B ' help || fail "$(grep header_bytes help)" || return 1
	grep -Eq '^  workload.rate +string ' help || fail "no workload.rate in --help-config" || return 1
	grep -q '^size: bytes, an integer (4096) or a string with a unit B|KiB|MiB|GiB|TiB (1024-based)' help ||
		fail "--help-config does not explain the size units"
}
