# t_errors.sh - bad input gives ONE line "cxlfab: error: FILE:LINE: ..." on
# stderr, exit code 2, no stats.json, and no hang, on any rank count.

good() {
	cat > good.cfg <<CFG
simulation = { end = "50ns"; };
phold = { lps = 16; };
CFG
}

unknown_key() {
	printf 'simulation = { end = "1us"; };\nphold = {\n  lp = 16;\n};\n' > bad.cfg
	expect_error "$1" 'bad.cfg:3: unknown key "phold.lp" \(did you mean "phold.lps"\?\)' bad.cfg
}
test_unknown_key_names_closest() { each_rank_count unknown_key; }

wrong_type() {
	printf 'simulation = { end = "1us"; };\nphold = { lps = "many"; };\n' > bad.cfg
	expect_error "$1" 'bad.cfg:2: phold.lps: .*' bad.cfg
}
test_wrong_type() { each_rank_count wrong_type; }

negative_time() {
	printf 'simulation = { end = "1us"; };\nphold = {\n  mean = "-5ns";\n};\n' > bad.cfg
	expect_error "$1" 'bad.cfg:3: phold.mean: negative time' bad.cfg
}
test_negative_time() { each_rank_count negative_time; }

zero_lookahead() {
	printf 'simulation = { end = "1us"; };\nphold = {\n  lookahead = "0ps";\n};\n' > bad.cfg
	expect_error "$1" 'bad.cfg:3: phold.lookahead: .*' bad.cfg
}
test_zero_lookahead() { each_rank_count zero_lookahead; }

mean_below_lookahead() {
	printf 'simulation = { end = "1us"; };\nphold = {\n  lookahead = "2ns";\n  mean = "1ns";\n};\n' > bad.cfg
	expect_error "$1" 'bad.cfg:4: phold.mean: 1ns is below phold.lookahead 2ns' bad.cfg
}
test_mean_below_lookahead() { each_rank_count mean_below_lookahead; }

syntax_error() {
	printf 'simulation = { end = "1us"; };\nphold = { lps = = 3; };\n' > bad.cfg
	expect_error "$1" 'bad.cfg:2: syntax error' bad.cfg
}
test_syntax_error() { each_rank_count syntax_error; }

# libconfig's own text for most mistakes is "syntax error", which gave
# "syntax error: syntax error"; now the line says what a setting looks like.
test_syntax_error_says_what_was_expected() {
	printf 'simulation = { end = "1us; };\nphold = { lps = 4; };\n' > bad.cfg
	expect_error 1 'bad.cfg:[0-9]+: syntax error \(expected settings NAME = VALUE; with strings in double quotes' bad.cfg || return 1
	grep -q 'syntax error: syntax error' stderr && fail "still 'syntax error: syntax error'"
	return 0
}

# A value with a newline in it (libconfig's "\n" escape) is quoted in the
# error: it was printed raw, so the "one line" error had two (config fuzzer).
test_value_with_newline_stays_one_line() {
	printf 'simulation = { end = "1us"; };\nphold = { lps = 4; mean = "1\\nns"; };\n' > bad.cfg
	expect_error 1 'bad.cfg:2: phold.mean: .*1\\nns' bad.cfg
}

test_missing_file() { expect_error 2 'nope.cfg: cannot open' nope.cfg; }

test_bad_set() {
	good
	expect_error 3 '--set phold.lp=3: unknown key "phold.lp" \(did you mean "phold.lps"\?\)' good.cfg --set phold.lp=3 || return 1
	expect_error 2 '--set phold.remote=2: .*out of range' good.cfg --set phold.remote=2 || return 1
	expect_error 1 '--set simulation.end=5: .*' good.cfg --end 5
}

test_bad_option() {
	good
	expect_error 2 'unknown option --frobnicate' good.cfg --frobnicate || return 1
	expect_error 2 '--partition nope: unknown partitioner \(expected block\|roundrobin\|metis\)' good.cfg --partition nope
}

test_missing_required_end() {
	printf 'phold = { lps = 4; };\n' > bad.cfg
	expect_error 2 'bad.cfg: missing required key "simulation.end"' bad.cfg
}

test_no_system() {
	printf 'simulation = { end = "1us"; };\n' > bad.cfg
	expect_error 2 'bad.cfg: no system to simulate' bad.cfg
}

# --check runs every validation a run does (every component's init), so a
# config that --check accepts starts: each of these fails in --check alone,
# on 1 and on 2 ranks, with one line and exit 2.
check_rejects() {
	local n=$1
	expect_error "$n" '--set bus.lanes=12: bus.lanes: 12 lanes is not a power of two' \
		--check "$CONFIGS/spine_leaf.cfg" --set bus.lanes=12 || return 1
	expect_error "$n" '--set bus.max_payload=768B: bus.max_payload: 768 bytes is not a power of two' \
		--check "$CONFIGS/spine_leaf.cfg" --set bus.max_payload=768B || return 1
	expect_error "$n" '--set memory.dram.tRCD=20: memory.dram.tRCD: applies to a DDR preset only' \
		--check "$CONFIGS/spine_leaf.cfg" --set memory.dram.tRCD=20 || return 1
	expect_error "$n" '--set workload.footprint=32: workload.footprint: 32B is out of range' \
		--check "$CONFIGS/spine_leaf.cfg" --set workload.footprint=32 || return 1
	expect_error "$n" '--set workload.trace=missing.cxt: workload.trace: missing.cxt: cannot open' \
		--check "$CONFIGS/spine_leaf.cfg" --set workload.pattern=trace --set workload.trace=missing.cxt
}
test_check_runs_every_validation() { check_rejects 1 && check_rejects 2; }

# Every time a config gives is at most 3600s (core/README.md, "Configuration"):
# 18446744073709551615ps used to wrap in the sums it entered - host.latency,
# memory.latency and bus.latency made requests faster with exit 0, an issue
# interval of it was no interval - or to pass --check and end the run in an
# internal error (exit 1).  Now each is one range error naming the key, from
# --set, a per-component override and the file alike.
huge_time() {
	local n=$1 key=$2 shown=$3 re
	re=$(printf '%s' "$key" | sed -e 's/\./\\./g' -e 's/\[/\\[/g' -e 's/]/\\]/g')
	expect_error "$n" "--set $re=18446744073709551615ps: $shown: 18446744073709551615ps is out of range \(expected [01]ps to 3600s\)" \
		"$CONFIGS/chain.cfg" --set simulation.end=2us --set "$key=18446744073709551615ps"
}
test_huge_times_refused() {
	local k
	for k in host.latency memory.latency bus.latency workload.issue_interval link.latency \
		 switch.latency simulation.drain simulation.end; do
		huge_time 1 "$k" "$k" || return 1
	done
	huge_time 2 host.latency host.latency || return 1
	huge_time 1 'memory[mem1].latency' memory.latency || return 1
	printf 'simulation = { end = "1us"; };\nphold = {\n  mean = "3600.000000000001s";\n};\n' > bad.cfg
	expect_error 1 'bad.cfg:3: phold.mean: 3600.000000000001s is out of range \(expected 1ps to 3600s\)' bad.cfg || return 1
	good
	expect_error 2 '--set phold.mean=18446744073709551615ps: phold.mean: .* out of range' \
		--check good.cfg --set phold.mean=18446744073709551615ps
}

# workload.rate becomes an issue interval (64 B / rate): one above the 3600s
# of every time key saturated at 2^64 - 1 ps and then wrapped, so a tiny rate
# was no rate at all (as many requests as "0").
test_tiny_rate_refused() {
	expect_error 1 '--set workload.rate=0.000000000001B/s: workload.rate: "0.000000000001B/s" is less than one 64-byte request per 3600s' \
		"$CONFIGS/chain.cfg" --set simulation.end=2us --set workload.rate=0.000000000001B/s
}

# libconfig 1.5 wraps integers beyond 32 bits: `seed = 0xffffffffffffffff`
# was refused as "-1", and `seed = 4294967296` ran with seed 0.  The file's
# literal is read exactly: the first is refused as written, the second is
# the run's seed (stats.json run.seed, --check).
test_seed_literal_as_written() {
	printf 'simulation = { end = "50ns"; seed = 0xffffffffffffffff; };\nphold = { lps = 16; };\n' > bad.cfg
	expect_error 2 'bad.cfg:1: simulation.seed: 0xffffffffffffffff is out of range \(expected >= 0, within -2\^63 to 2\^63-1\)' bad.cfg || return 1
	printf 'simulation = { end = "50ns"; seed = 4294967296; };\nphold = { lps = 16; };\n' > big.cfg
	cxl 2 -q big.cfg -o out || return 1
	grep -q '^    "seed": 4294967296,$' out/stats.json || fail "run.seed: $(grep '"seed"' out/stats.json)" || return 1
	cxl 1 --check big.cfg | grep -q 'seed 4294967296$' || fail "--check: $(cxl 1 --check big.cfg | grep seed)"
}
