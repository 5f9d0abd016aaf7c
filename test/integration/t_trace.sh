# t_trace.sh - bin/cxlfab-trace end to end: text -> .cxt -> text is
# byte-identical for every importer (and gzip input); every kind of damage
# (truncation, flipped byte in header / block header / block data, wrong
# magic, record count disagreeing with the blocks, time going back) is
# exit 2 with one line "cxlfab-trace: error: FILE: record N: ..."; info
# numbers of generated traces; gen, split, the samples and --help.
# Self-contained: traces are generated here or taken from traces/samples.

ROOT=$(cd "$CONFIGS/.." && pwd)
TR=${CXLFAB_TRACE:-bin/cxlfab-trace}
case $TR in /*) ;; *) TR=$ROOT/$TR ;; esac
SAMPLES=$ROOT/traces/samples

tr_() { timeout "$TIMEOUT" "$TR" "$@"; }

# trace_error PATTERN ARGS... : exit 2, one line on stderr matching
# "cxlfab-trace: error: PATTERN", nothing on stdout but what came before
trace_error() {
	local pat=$1; shift
	tr_ "$@" > stdout 2> stderr
	local rc=$?
	[ "$rc" = 2 ] || fail "exit $rc (expected 2) for: $*" || { cat stderr; return 1; }
	[ "$(grep -c . stderr)" = 1 ] || fail "not one line on stderr for: $*" || { cat stderr; return 1; }
	grep -Eq "^cxlfab-trace: error: $pat" stderr || fail "'$(cat stderr)' does not match '$pat'"
}

# field FILE KEY : the value after "KEY:" in `info` output
field() { sed -n "s/^$2: *//p" "$1" | head -1; }

# block_off FILE K : byte offset of block K (0-based) of a .cxt file
block_off() { tr_ info --blocks "$1" | awk -v k="$2" '$1 == "block" && $2 != "offset" { if (n++ == k) print $2 }'; }

# flip FILE OFFSET : invert one byte in place
flip() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $(( b ^ 255 )))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# two-block-plus trace: 250 records in blocks of 100
gen250() { tr_ gen t.cxt --pattern random --records 250 --read-ratio 0.5 --interval 1ns --block-records 100 "$@"; }

test_help_and_usage() {
	tr_ --help > out || fail "--help exit $?" || return 1
	for c in convert cat info gen split; do
		grep -q "^  $c " out || fail "--help lacks $c" || return 1
		tr_ "$c" --help > h || fail "$c --help exit $?" || return 1
		grep -q "^usage: cxlfab-trace $c" h || fail "$c --help has no usage line" || return 1
	done
	tr_ gen --help | grep -q -- "--hot-footprint" || fail "gen --help lacks --hot-footprint" || return 1
	tr_ --version | grep -q '^cxlfab-trace ' || fail "--version" || return 1
	trace_error 'unknown command "frob"' frob || return 1
	trace_error 'gen: unknown option --recs \(see cxlfab-trace gen --help\)' gen x.cxt --recs 5 || return 1
	trace_error 'convert: expected 2 arguments, got 1' convert a || return 1
	trace_error '--records x: not an unsigned integer' gen x.cxt --records x || return 1
	tr_ > /dev/null 2>&1; [ $? = 2 ] || fail "no arguments: exit is not 2"
}

test_round_trip_esf() {
	tr_ convert "$SAMPLES/esf-small.trace" e.cxt > out 2> err || fail "convert exit $?" || return 1
	[ ! -s err ] || fail "canonical sample gave a note: $(cat err)" || return 1
	grep -q '2000 records' out || fail "convert summary: $(cat out)" || return 1
	tr_ cat e.cxt | cmp - "$SAMPLES/esf-small.trace" || fail "ESF round trip differs" || return 1
	# the same with delays instead of absolute ticks
	tr_ cat --to esf --esf-ticks delay e.cxt > d.trace || return 1
	tr_ convert -q --esf-ticks delay d.trace d.cxt || return 1
	tr_ cat d.cxt | cmp - d.trace || fail "ESF delay round trip differs"
}

test_round_trip_dramsim3() {
	tr_ convert -q --clock 625ps "$SAMPLES/dramsim3-small.trace" d.cxt || return 1
	tr_ cat d.cxt | cmp - "$SAMPLES/dramsim3-small.trace" || fail "DRAMsim3 round trip differs" || return 1
	tr_ info d.cxt > i || return 1
	field i origin | grep -q '^dramsim3 (clock 625ps)' || fail "origin: $(field i origin)"
}

test_round_trip_csv() {
	tr_ convert -q "$SAMPLES/csv-small.csv" c.cxt || return 1
	tr_ cat c.cxt | cmp - "$SAMPLES/csv-small.csv" || fail "CSV round trip differs" || return 1
	printf 'op,time_ns,size,address\nR,1,64,0x40\nW,2,8,0x41\n' > o.csv
	tr_ convert -q o.csv o.cxt && tr_ cat o.cxt | cmp - o.csv || fail "CSV with other column order differs"
}

test_round_trip_gzip_input() {
	gzip -9c "$SAMPLES/esf-small.trace" > e.trace.gz
	tr_ convert -q e.trace.gz e.cxt || return 1
	tr_ cat e.cxt | cmp - "$SAMPLES/esf-small.trace" || fail "gzip input round trip differs" || return 1
	gzip -9c "$SAMPLES/csv-small.csv" | tr_ convert -q - c.cxt || fail "gzip from stdin" || return 1
	tr_ cat c.cxt | cmp - "$SAMPLES/csv-small.csv" || fail "gzip stdin round trip differs"
}

test_round_trip_generated_through_every_text_format() {
	tr_ gen g.cxt --pattern hotcold --records 5000 --read-ratio 0.5 --interval 2ns || return 1
	for f in esf dramsim3 csv; do
		tr_ cat --to "$f" g.cxt > g.$f || return 1
		tr_ convert -q g.$f g2.cxt || fail "$f: convert" || return 1
		tr_ cat g2.cxt | cmp - g.$f || fail "$f: text round trip differs" || return 1
		tr_ cat --to csv g2.cxt | cmp - <(tr_ cat --to csv g.cxt) || fail "$f: records differ" || return 1
	done
}

test_noncanonical_is_normalised_or_refused() {
	printf '0X40 r 0\r\n0x0080  W 3\n\n0xC0 R 3' > n.trace
	tr_ convert n.trace n.cxt > out 2> err || fail "convert exit $?" || return 1
	grep -q "note: n.trace: 4 lines not in canonical form (first: line 1)" err || fail "note: $(cat err)" || return 1
	printf '0x40 R 0\n0x80 W 3\n0xc0 R 3\n' | cmp - <(tr_ cat n.cxt) || fail "normalised text differs" || return 1
	trace_error 'n.trace:1: not in canonical form \(--strict; 4 such lines\)' convert --strict n.trace s.cxt || return 1
	[ ! -e s.cxt ] || fail "--strict left an output"
}

test_convert_errors_name_the_line() {
	printf '0x40 R 0\n0x80 W 0\n0xzz R 0\n' > b.trace
	trace_error 'b.trace:3: bad address "0xzz"' convert b.trace b.cxt || return 1
	[ ! -e b.cxt ] || fail "output left after an error" || return 1
	printf '0x40 R 7\n0x80 W 3\n' > u.trace
	trace_error 'u.trace:2: time 3000 ps is before the previous record.s 7000 ps' convert u.trace u.cxt || return 1
	printf 'cycle,addr,op\n1,0x40,R\n' > c.csv
	trace_error 'c.csv:1: column time or cycle has no unit' convert c.csv c.cxt || return 1
	trace_error 'nope.trace: cannot open' convert nope.trace x.cxt || return 1
	tr_ gen g.cxt --records 3 || return 1
	trace_error 'g.cxt:1: this is a .cxt trace already' convert g.cxt x.cxt
}

test_info_numbers_for_generated_trace() {
	tr_ gen s.cxt --pattern stream --records 10000 --footprint 256K --read-ratio 0 --interval 5ns || return 1
	tr_ info s.cxt > i || return 1
	[ "$(field i records)" = 10000 ] || fail "records $(field i records)" || return 1
	[ "$(field i reads)" = 0 ] || fail "reads $(field i reads)" || return 1
	[ "$(field i writes)" = 10000 ] || fail "writes $(field i writes)" || return 1
	[ "$(field i footprint)" = "4096 lines (262144 bytes)" ] || fail "footprint $(field i footprint)" || return 1
	[ "$(field i bytes)" = 640000 ] || fail "bytes $(field i bytes)" || return 1
	[ "$(field i time)" = "first 0ps, last 49.995us, span 49.995us" ] || fail "time $(field i time)" || return 1
	[ "$(field i blocks)" = "3 (up to 4096 records each)" ] || fail "blocks $(field i blocks)" || return 1
	size=$(stat -c %s s.cxt)
	field i "file size" | grep -q "^$size bytes" || fail "file size $(field i 'file size') vs $size" || return 1
	awk -v s="$size" -v r="$(field i compression | cut -dx -f1)" \
		'BEGIN { exit !(r > 0 && (210000 / s - r) ^ 2 < 0.0001) }' || fail "compression $(field i compression)" || return 1
	# random: all reads, footprint bounded by the option
	tr_ gen r.cxt --records 20000 --footprint 64K --read-ratio 1 || return 1
	tr_ info r.cxt > j || return 1
	[ "$(field j reads)" = 20000 ] || fail "reads $(field j reads)" || return 1
	[ "$(field j footprint)" = "1024 lines (65536 bytes)" ] || fail "random footprint $(field j footprint)"
}

test_gen_is_deterministic() {
	tr_ gen a.cxt --pattern hotcold --records 3000 --seed 9 --read-ratio 0.3 || return 1
	tr_ gen b.cxt --pattern hotcold --records 3000 --seed 9 --read-ratio 0.3 || return 1
	tr_ gen c.cxt --pattern hotcold --records 3000 --seed 10 --read-ratio 0.3 || return 1
	cmp -s a.cxt b.cxt || fail "same seed, different files" || return 1
	! cmp -s a.cxt c.cxt || fail "different seeds, same file"
}

test_samples_are_reproducible() {
	CXLFAB_TRACE=$TR "$SAMPLES/make.sh" s || fail "make.sh exit $?" || return 1
	for f in "$SAMPLES"/*.cxt "$SAMPLES"/*.trace "$SAMPLES"/*.csv; do
		cmp -s "$f" "s/$(basename "$f")" || fail "$(basename "$f") differs from make.sh output" || return 1
	done
	[ "$(du -cb "$SAMPLES" | tail -1 | cut -f1)" -le 1048576 ] || fail "samples above 1 MB"
}

test_damage_truncated() {
	gen250 || return 1
	local b1 size
	b1=$(block_off t.cxt 1); size=$(stat -c %s t.cxt)
	head -c $((b1 + 40)) t.cxt > cut.cxt
	trace_error 'cut.cxt: record 100: truncated block' cat cut.cxt || return 1
	head -c "$b1" t.cxt > cut.cxt
	trace_error 'cut.cxt: record 100: file ends after 100 of 250 records \(truncated\)' info cut.cxt || return 1
	head -c $((size - 1)) t.cxt > cut.cxt
	trace_error 'cut.cxt: record 200: truncated block' cat cut.cxt || return 1
	head -c 20 t.cxt > cut.cxt
	trace_error 'cut.cxt: record 0: truncated header' cat cut.cxt
}

test_damage_flipped_byte() {
	gen250 || return 1
	local b1 b2
	b1=$(block_off t.cxt 1); b2=$(block_off t.cxt 2)
	cp t.cxt f.cxt; flip f.cxt $((b1 + 50))
	trace_error 'f.cxt: record 100: block checksum mismatch' cat f.cxt || return 1
	trace_error 'f.cxt: record 100: block checksum mismatch' info f.cxt || return 1
	cp t.cxt f.cxt; flip f.cxt $((b2 - 1))
	trace_error 'f.cxt: record 100: block checksum mismatch' cat f.cxt || return 1
	cp t.cxt f.cxt; flip f.cxt $((b2 + 9))
	trace_error 'f.cxt: record 200: block header checksum mismatch' cat f.cxt || return 1
	cp t.cxt f.cxt; flip f.cxt 17
	trace_error 'f.cxt: record 0: header checksum mismatch' cat f.cxt || return 1
	cp t.cxt f.cxt; flip f.cxt 100
	trace_error 'f.cxt: record 0: block checksum mismatch' split f.cxt 'p%d.cxt' --hosts 2 || return 1
	[ ! -e p0.cxt ] || fail "split left an output after damage"
}

test_damage_wrong_magic() {
	gen250 || return 1
	cp t.cxt m.cxt; flip m.cxt 1
	trace_error 'm.cxt: record 0: not a .cxt file \(bad magic\)' cat m.cxt || return 1
	trace_error "$SAMPLES/esf-small.trace: record 0: not a .cxt file \\(bad magic\\)" info "$SAMPLES/esf-small.trace"
}

test_damage_count_disagrees() {
	gen250 || return 1
	local b2
	b2=$(block_off t.cxt 2)
	# a block appended after the last record
	{ cat t.cxt; tail -c +$((b2 + 1)) t.cxt; } > x.cxt
	trace_error 'x.cxt: record 250: data after the last record \(the header says 250 records\)' cat x.cxt || return 1
	# the header announces more records than the blocks hold
	head -c "$b2" t.cxt > y.cxt
	trace_error 'y.cxt: record 200: file ends after 200 of 250 records' info y.cxt
}

test_damage_time_goes_back() {
	# same record indices, valid checksums; block 1 of z starts at time 0
	tr_ gen t.cxt --records 300 --interval 1ns --block-records 100 || return 1
	tr_ gen z.cxt --records 300 --interval 0ps --block-records 100 --seed 2 || return 1
	local b1 b2
	b1=$(block_off t.cxt 1); b2=$(block_off z.cxt 2)
	{ head -c "$b1" t.cxt; tail -c +$(( $(block_off z.cxt 1) + 1 )) z.cxt | head -c $(( b2 - $(block_off z.cxt 1) ))
	  tail -c +$(( $(block_off t.cxt 2) + 1 )) t.cxt; } > u.cxt
	trace_error 'u.cxt: record 100: time 0 ps is before the previous record.s 99000 ps \(records must be sorted by time\)' cat u.cxt
}

test_damage_regression_corpus() {
	local n=0
	for f in "$ROOT"/test/traces/corpus/bad-*; do
		[ -e "$f" ] || continue
		trace_error "$f: record [0-9]+: " cat "$f" || return 1
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || fail "no bad-* inputs in test/traces/corpus"
}

test_split_range_and_roundrobin() {
	tr_ gen t.cxt --records 1001 --read-ratio 0.5 --interval 1ns || return 1
	tr_ split t.cxt 'r%d.cxt' --hosts 3 || return 1
	{ tr_ cat r0.cxt; for h in 1 2; do tr_ cat "r$h.cxt" | tail -n +2; done; } | cmp - <(tr_ cat t.cxt) ||
		fail "range parts do not concatenate to the input" || return 1
	[ "$(tr_ info r0.cxt | field /dev/stdin records)" = 334 ] || fail "range part 0 size" || return 1
	tr_ split t.cxt 'q%d.cxt' --hosts 4 --by roundrobin || return 1
	for h in 0 1 2 3; do
		want=$(tr_ cat t.cxt | tail -n +2 | awk -v h="$h" '(NR - 1) % 4 == h')
		[ "$(tr_ cat "q$h.cxt" | tail -n +2)" = "$want" ] || fail "roundrobin part $h" || return 1
	done
	trace_error 'output pattern "bad.cxt": needs exactly one %d' split t.cxt bad.cxt --hosts 2 || return 1
	trace_error 'split: --hosts N is required' split t.cxt 'p%d.cxt'
}

# A '%%' in workload.trace is a literal '%', as cxlfab-trace split writes it
# (it was refused: "the only % allowed is one %d"); any other '%' is an error.
test_trace_pattern_percent_percent_is_a_literal_percent() {
	tr_ gen t.cxt --records 40 --interval 1ns || return 1
	tr_ split t.cxt 'r%%x.%d.cxt' --hosts 2 || return 1
	[ -f r%x.0.cxt ] && [ -f r%x.1.cxt ] || fail "split did not write r%x.N.cxt: $(ls)" || return 1
	local args=(--set topology.switches=1 --set topology.hosts=2 --set topology.memories=1
		    --set workload.pattern=trace)
	cxl 1 -q "$CONFIGS/chain.cfg" "${args[@]}" --set 'workload.trace=r%%x.%d.cxt' -o out ||
		fail "a %% pattern is refused" || return 1
	[ "$(json_num out/stats.json issued)" = 40 ] || fail "issued $(json_num out/stats.json issued), expected 40" || return 1
	expect_error 1 '.*workload.trace.*"r%x.%d.cxt": bad file pattern' "$CONFIGS/chain.cfg" "${args[@]}" \
		--set 'workload.trace=r%x.%d.cxt' || return 1
	expect_error 1 '.*workload.trace.*bad file pattern' "$CONFIGS/chain.cfg" "${args[@]}" \
		--set 'workload.trace=r%d.%d.cxt'
}

# A replay that simulation.end stops before the trace's end says so (it
# exited 0 without a word): a warning in summary.warnings and on stderr with
# the records replayed, and per requester trace_replayed / trace_records.
test_replay_cut_by_end_warns() {
	tr_ gen big.cxt --records 20000 --interval 1ns > /dev/null || return 1
	local args=(--set topology.switches=1 --set topology.hosts=2 --set topology.memories=1
		    --set workload.pattern=trace --set workload.trace=big.cxt)
	cxl 1 "$CONFIGS/chain.cfg" "${args[@]}" --set simulation.end=2us -o cut > o 2> e || return 1
	grep -q 'simulation.end (2us) stopped the trace replay of 2 requesters before the end of its trace: [0-9]* of 40000 records replayed' e ||
		fail "no warning on stderr: $(cat e)" || return 1
	grep -q 'stopped the trace replay of 2 requesters' cut/stats.json || fail "no warning in stats.json" || return 1
	expect_stat cut host0 trace_records 20000 || return 1
	local got
	got=$(comp_stat cut host1 trace_replayed)
	[ "$got" -gt 0 ] && [ "$got" -lt 20000 ] || fail "host1 trace_replayed $got" || return 1
	tr_ gen small.cxt --records 50 --interval 1ns > /dev/null || return 1
	cxl 1 -q "$CONFIGS/chain.cfg" "${args[@]}" --set workload.trace=small.cxt -o whole || return 1
	expect_stat whole host1 trace_replayed 50 || return 1
	grep -q 'stopped the trace replay' whole/stats.json && fail "a whole replay warns"
	return 0
}

# Timed replay (workload.replay = timed) waits for record time x
# workload.time_scale; a product at or past 2^64 ps is after any end, so the
# record is not issued.  The double -> integer cast of it used to be 0 on
# x86-64: the record went out at once (3 requests issued here, not 2).
replay_timed() { # replay_timed TRACE OUT ARGS...
	local t=$1 o=$2; shift 2
	cxl 1 -q "$CONFIGS/chain.cfg" --set topology.switches=1 --set topology.hosts=1 \
		--set topology.memories=1 --set simulation.end=1us --set workload.pattern=trace \
		--set workload.trace="$t" --set workload.replay=timed "$@" -o "$o"
}
test_timed_replay_time_past_2_64_ps_is_not_issued() {
	printf 'time_ps,addr,op,size\n0,0,R,64\n1000,64,R,64\n18446744073709551615,128,R,64\n' > far.csv
	tr_ convert far.csv far.cxt > /dev/null 2>&1 || fail "convert far.csv" || return 1
	replay_timed far.cxt a || return 1
	[ "$(json_num a/stats.json issued)" = 2 ] || fail "record at 2^64-1 ps: issued $(json_num a/stats.json issued), expected 2" || return 1
	# 1 ms x 1e11 = 1e20 ps, past 2^64 ps; 0.5 ns x 1e11 = 50 ms, past the end too
	printf 'time_ps,addr,op,size\n0,0,R,64\n1000000000,64,R,64\n' > scaled.csv
	tr_ convert scaled.csv scaled.cxt > /dev/null 2>&1 || fail "convert scaled.csv" || return 1
	replay_timed scaled.cxt b --set workload.time_scale=1e11 || return 1
	[ "$(json_num b/stats.json issued)" = 1 ] || fail "scaled past 2^64 ps: issued $(json_num b/stats.json issued), expected 1"
}

# A record past 2^64 (address 0xffffffffffffffc1, 64 bytes; the converter
# wrote such files before it refused them): the requester split it into
# lines up to a wrapped addr + size - 1 and issued an endless run of lines
# (48 requests in 1 us from a 2-record trace, exit 0).  Reading it is now
# one error naming the record, exit 2, and converting it is refused.
test_record_past_2_64_is_refused() {
	local bad=$ROOT/test/traces/corpus/bad-past-2-64.cxt
	expect_error 1 "$bad: record 1: corrupt block \(address \+ size past 2\^64\)" \
		"$CONFIGS/chain.cfg" --set topology.switches=1 --set topology.hosts=1 \
		--set topology.memories=1 --set simulation.end=1us --set workload.pattern=trace \
		--set workload.trace="$bad" || return 1
	printf 'time_ps,addr,op,size\n0,0x0,R,64\n1000,0xffffffffffffffc1,R,64\n' > past.csv
	trace_error 'past.csv:3: address 0xffffffffffffffc1 \+ size 64 goes past 2\^64' convert past.csv past.cxt
}

# --- the tools' formats: lackey, Ramulator, Ramulator2, drcachesim (traces/trc_text.h) ---

# lackey_counts LOG : "READS WRITES" the records of a lackey log should give: L and M
# read, S and M write (lackey/lk_main.c), plus one record more per 64 B line boundary
# an access crosses (the importer splits them)
lackey_counts() {
	awk '/^ [LSM] [0-9a-f]+,[0-9]+$/ {
		split($2, f, ","); a = 0
		for (i = 1; i <= length(f[1]); i++) a = a * 16 + index("0123456789abcdef", substr(f[1], i, 1)) - 1
		n = int((a + f[2] - 1) / 64) - int(a / 64) + 1
		if ($1 != "S") r += n
		if ($1 != "L") w += n
	} END { print r + 0, w + 0 }' "$1"
}

# lackey_lines LOG : "L S M I" line counts as lackey printed them
lackey_lines() {
	awk '/^ L / { l++ } /^ S / { s++ } /^ M / { m++ } /^I  / { i++ } END { print l + 0, s + 0, m + 0, i + 0 }' "$1"
}

test_lackey_sample_converts_with_lackeys_counts() {
	local log=$SAMPLES/lackey-small.log rw
	tr_ convert "$log" l.cxt > out 2> err || fail "convert exit $?: $(cat err)" || return 1
	[ ! -s err ] || fail "a note for a lackey log: $(cat err)" || return 1
	tr_ info l.cxt > i || return 1
	field i origin | grep -q '^lackey (time: instruction index x 1ns, 1 instructions/ns)' ||
		fail "origin: $(field i origin)" || return 1
	set -- $(lackey_lines "$log")
	echo "lackey lines: L $1 S $2 M $3 I $4"
	[ "$1 $2 $3 $4" = "256 264 128 3114" ] || fail "the sample has changed: L S M I = $*" || return 1
	# 8 of the stores cross a line: 384 reads (L + M), 392 + 8 writes (S + M, split)
	rw=$(lackey_counts "$log")
	[ "$rw" = "384 400" ] || fail "counted from the text: $rw" || return 1
	[ "$(field i reads) $(field i writes)" = "$rw" ] ||
		fail "records: $(field i reads) reads, $(field i writes) writes; lackey: $rw" || return 1
	# the last access belongs to instruction 3107 (the 3108th I line)
	[ "$(field i time)" = "first 1ns, last 3.107us, span 3.106us" ] || fail "time $(field i time)" || return 1
	tr_ cat l.cxt | awk -F, 'NR > 1 && (($2 ~ /3c$|7c$|bc$|fc$/ && $4 != 4) || $4 > 8) { exit 1 }' ||
		fail "a record spans two lines" || return 1
	tr_ convert -q --ipns 4 "$log" q.cxt && tr_ info q.cxt | grep -q 'last 776.75ns' ||
		fail "--ipns 4: $(tr_ info q.cxt | grep time)"
}

test_lackey_trace_replays_on_64_hosts_identically_on_1_and_2_ranks() {
	# 100 ns per instruction: the last access is at 310.7 us, far beyond what the closed
	# loop needs, so that the timed replay shows that it waits for the times
	tr_ convert -q --clock 100ns "$SAMPLES/lackey-small.log" l.cxt || return 1
	local rw reads writes n
	rw=$(lackey_counts "$SAMPLES/lackey-small.log")
	for replay in closed timed; do
		for n in 1 2; do
			cxl "$n" -q "$CONFIGS/spine_leaf.cfg" -o "$replay$n" --set topology.hosts_per_leaf=8 \
				--set workload.pattern=trace --set workload.trace=l.cxt --set workload.requests=0 \
				--set workload.replay=$replay --set simulation.end=1s || fail "$replay on $n ranks" || return 1
		done
		cmp -s <(results "${replay}1/stats.json") <(results "${replay}2/stats.json") ||
			fail "$replay: 1 and 2 ranks differ" || return 1
		[ "$(json_num "${replay}2/stats.json" remote_events)" -gt 0 ] || fail "no cross-rank events" || return 1
		reads=$(json_num "${replay}1/stats.json" reads); writes=$(json_num "${replay}1/stats.json" writes)
		echo "$replay: 64 hosts read $reads, write $writes (lackey: $rw per host)"
		[ "$reads $writes" = "$(echo "$rw" | awk '{ print 64 * $1, 64 * $2 }')" ] ||
			fail "$replay: $reads reads, $writes writes, not 64 x ($rw)" || return 1
	done
	# the closed loop ends well before the last record's time, the timed replay after it
	echo "sim time: closed $(json_num closed1/stats.json sim_time_ps) ps, timed $(json_num timed1/stats.json sim_time_ps) ps"
	[ "$(json_num closed1/stats.json sim_time_ps)" -lt 310700000 ] || fail "closed replay waited" || return 1
	[ "$(json_num timed1/stats.json sim_time_ps)" -ge 310700000 ] || fail "timed replay did not wait"
}

# one trace on 64 hosts (workload.trace_hosts): with "each" and the interleave equal to
# the region, host i's accesses all go to memory i mod 8, so each of the 8 memories
# serves 8 hosts' copies; with "shared" they all go to memory 0.  Same results on
# every rank count.
trace_hosts_run() { # MODE N
	cxl "$2" -q "$CONFIGS/spine_leaf.cfg" -o "$1$2" --set topology.hosts_per_leaf=8 \
		--set workload.pattern=trace --set workload.trace=g.cxt --set workload.requests=0 \
		--set workload.trace_hosts="$1" --set workload.trace_region=1GiB \
		--set workload.interleave=1GiB || fail "$1 on $2 ranks"
}
test_one_trace_on_64_hosts_each_region_or_shared() {
	tr_ gen g.cxt --records 200 --footprint 1M --read-ratio 0.5 || return 1
	tr_ info g.cxt > i || return 1
	local r w m n reads writes
	r=$(field i reads); w=$(field i writes)
	for mode in each shared; do
		for n in $RANKS; do trace_hosts_run "$mode" "$n" || return 1; done
		for n in $MRANKS; do
			cmp -s <(results "${mode}1/stats.json") <(results "$mode$n/stats.json") ||
				fail "$mode: 1 and $n ranks differ" || return 1
		done
		for m in 0 1 2 3 4 5 6 7; do
			reads=$(comp_stat "${mode}1" "mem$m" reads); writes=$(comp_stat "${mode}1" "mem$m" writes)
			if [ "$mode" = each ]; then want="$((8 * r)) $((8 * w))"
			elif [ "$m" = 0 ]; then want="$((64 * r)) $((64 * w))"
			else want="0 0"; fi
			[ "$reads $writes" = "$want" ] ||
				fail "$mode: mem$m read $reads, wrote $writes (expected $want)" || return 1
		done
		echo "$mode: mem0 read $(comp_stat "${mode}1" mem0 reads), mem1 $(comp_stat "${mode}1" mem1 reads) (trace: $r reads)"
	done
	expect_error 1 '.*workload.trace_region: 0 bytes: trace_hosts = "each" needs a region size' "$CONFIGS/spine_leaf.cfg" \
		--set workload.pattern=trace --set workload.trace=g.cxt --set workload.trace_hosts=each ||
		return 1
	expect_error 1 '.*workload.trace_region: host7 \(requester 7\) would start at line 7 x [0-9]+, in the device window at 2\^48 bytes' \
		"$CONFIGS/spine_leaf.cfg" --set workload.pattern=trace --set workload.trace=g.cxt \
		--set workload.trace_hosts=each --set workload.trace_region=40TiB || return 1
	# a record moved into the device window stops the run and names it (host7: 7 x 36 TiB
	# + 4 TiB = 2^48); a trace of device addresses with no device is refused too
	tr_ gen h.cxt --records 5 --footprint 1M --base 0x40000000000 || return 1
	expect_error 1 'h.cxt: record [0-9]: address 0x400000[0-9a-f]+ moved by [0-9]+ lines \(workload.trace_region\) reaches the device window at 2\^48' \
		"$CONFIGS/spine_leaf.cfg" --set workload.pattern=trace --set workload.trace=h.cxt \
		--set workload.trace_hosts=each --set workload.trace_region=36TiB || return 1
	tr_ gen d.cxt --records 5 --footprint 1M --base 0x1000000000000 || return 1
	expect_error 1 'd.cxt: record 0: address 0x1000000[0-9a-f]+ is in the window of device 0 \(addresses from 2\^48 up, devwin.h\); host[0-7] reaches 0 devices' \
		"$CONFIGS/spine_leaf.cfg" --set workload.pattern=trace --set workload.trace=d.cxt
}

# valgrind and cc here: record lackey-prog.c afresh, as the sample was
test_lackey_records_a_real_program() {
	if ! command -v valgrind > /dev/null || ! command -v cc > /dev/null || [ "$(uname -m)" != x86_64 ]; then
		echo "skipped: needs valgrind, cc and x86-64"; return 0
	fi
	cc -O1 -static -nostdlib -fno-builtin -fno-stack-protector -fno-pie -no-pie \
		-o prog "$ROOT/traces/samples/lackey-prog.c" || fail "cc" || return 1
	timeout "$TIMEOUT" valgrind --tool=lackey --trace-mem=yes --log-file=lk.log ./prog ||
		fail "valgrind exit $?" || return 1
	tr_ convert -q lk.log lk.cxt || return 1
	tr_ info lk.cxt > i || return 1
	echo "recorded: L S M I = $(lackey_lines lk.log); records $(field i reads) reads, $(field i writes) writes"
	[ "$(field i reads) $(field i writes)" = "$(lackey_counts lk.log)" ] ||
		fail "records vs lackey: $(field i reads) $(field i writes) vs $(lackey_counts lk.log)" || return 1
	# the same program: the same accesses as the committed sample (the banner's PID aside)
	tr_ cat lk.cxt | cmp -s - <(tr_ convert -q "$SAMPLES/lackey-small.log" s.cxt && tr_ cat s.cxt) ||
		echo "note: the recording differs from the sample (another compiler?)"
}

test_round_trip_ramulator_and_ramulator2() {
	tr_ gen g.cxt --pattern random --records 3000 --read-ratio 0.6 --interval 1ns || return 1
	for f in ramulator ramulator2; do
		tr_ cat --to "$f" g.cxt > g.$f || return 1
		tr_ convert -q g.$f g2.cxt || fail "$f: convert" || return 1
		tr_ info g2.cxt | grep -q "^origin: *$f (no time" || fail "$f: $(tr_ info g2.cxt | grep origin)" || return 1
		tr_ cat g2.cxt | cmp - g.$f || fail "$f: text round trip differs" || return 1
		# the records without their times
		tr_ cat --to csv g2.cxt | tail -n +2 | cut -d, -f2- |
			cmp - <(tr_ cat g.cxt | tail -n +2 | cut -d, -f2-) || fail "$f: records differ" || return 1
	done
	# with bubble counts: one instruction per ns, so every record keeps its time
	tr_ cat --to ramulator2 --clock 1ns g.cxt > b.trace || return 1
	head -2 b.trace | grep -q '^[0-9]* [LS][DT] 0x' || fail "no bubbles: $(head -2 b.trace)" || return 1
	tr_ convert -q b.trace b.cxt && tr_ cat b.cxt | cmp - b.trace || fail "bubbles round trip" || return 1
	tr_ cat --to csv b.cxt | cmp - <(tr_ cat g.cxt) || fail "bubble times differ from the records'"
}

test_ramulator_cpu_and_drcachesim_give_their_records() {
	# ramulator2 examples/traces/example_inst.trace (SimpleO3: BUBBLES LOAD [WRITEBACK])
	printf '3 20734016\n1 20846400\n6 20734208\n1 20846400\n8 20841280 20841280\n0 20734144\n2 20918976 20734016\n1 20846400\n' > inst.trace
	tr_ convert -q --clock 250ps inst.trace i.cxt || return 1
	tr_ info i.cxt > i || return 1
	[ "$(field i records) $(field i reads) $(field i writes)" = "10 8 2" ] || fail "ramulator-cpu counts" || return 1
	tr_ cat i.cxt | sed -n '2p;7p;10p' | tr '\n' ' ' | grep -qx '750,0x13c6040,R,64 5750,0x13e0340,W,64 6750,0x13c6040,W,64 ' ||
		fail "ramulator-cpu records: $(tr_ cat i.cxt | tr '\n' ' ')" || return 1
	# DynamoRIO drcachesim.dox.in, sec_drcachesim_view (the current format), abridged
	cat > view.txt <<-'END'
	Output format:
	<--record#-> <--instr#->: <---tid---> <record details>
	------------------------------------------------------------
	           1           0:     2765542 <marker: version 5>
	           2           0:     2765542 <marker: filetype 0xe40>
	       47743       37770:     2765543 ifetch       5 byte(s) @ 0x0000000000404a7e 48 8b 5c 24 08       mov    0x08(%rsp), %rbx
	       47744       37770:     2765543 read         8 byte(s) @ 0x00007fdf64e2adc8 by PC 0x0000000000404a7e
	       47745       37771:     2765543 ifetch       5 byte(s) @ 0x0000000000404a83 be 18 00 00 00       mov    $0x00000018, %esi
	View tool results:
	              2 : total instructions
	END
	tr_ convert -q --ipns 2 view.txt v.cxt || return 1
	[ "$(tr_ cat v.cxt)" = "$(printf 'time_ps,addr,op,size,thread\n18884500,0x7fdf64e2adc8,R,8,0')" ] ||
		fail "drcachesim records: $(tr_ cat v.cxt)" || return 1
	tr_ info v.cxt | grep -q '^origin: *drcachesim (time: instruction index x 500ps, 2 instructions/ns)' ||
		fail "drcachesim origin: $(tr_ info v.cxt | grep origin)"
}

# Threads (.cxt version 3): drcachesim's thread ids become indices 0.. in order of first
# appearance; info and cat show them; split --by thread and --rebase; a CSV thread column
# round-trips byte for byte; a trace without threads stays version 2.
test_threads_kept_shown_and_split() {
	# the view tool's old-format sample (drcachesim.dox.in), two threads, and a third
	cat > view.txt <<-'END'
	Output format:
	<record#>: T<tid> <record details>
	   173369: T1774669 ifetch       3 byte(s) @ 0x0000000000402680 f3 48 a5             rep movsq
	   173370: T1774669 read         8 byte(s) @ 0x00007f8881e37c70 by PC 0x0000000000402680
	   173371: T1774669 write        8 byte(s) @ 0x00007f8881e37a70 by PC 0x0000000000402680
	   173372: T1774668 <marker: timestamp 13309323446399692>
	   173373: T1774668 <marker: tid 1774668 on core 3>
	   173374: T1774668 ifetch       4 byte(s) @ 0x000000000040361a 48 8b 45 f8          mov    -0x08(%rbp), %rax
	   173375: T1774668 read         8 byte(s) @ 0x00007ffdf9d85088 by PC 0x000000000040361a
	   173376: T1774669 ifetch       4 byte(s) @ 0x000000000040361e 48 8b 45 f8          mov    -0x08(%rbp), %rax
	   173377: T1774669 write        8 byte(s) @ 0x00007f8881e37a78 by PC 0x000000000040361e
	   173378: T99 ifetch       4 byte(s) @ 0x0000000000403622 48 8b 45 f8          mov    -0x08(%rbp), %rax
	   173379: T99 read         4 byte(s) @ 0x0000000000600000 by PC 0x0000000000403622
	END
	tr_ convert -q view.txt v.cxt || return 1
	tr_ info v.cxt > i || return 1
	[ "$(field i threads)" = "3 (indices 0..2)" ] || fail "info threads: $(field i threads)" || return 1
	[ "$(field i format)" = ".cxt version 3" ] || fail "info format: $(field i format)" || return 1
	[ "$(tr_ cat v.cxt)" = "$(printf 'time_ps,addr,op,size,thread\n0,0x7f8881e37c70,R,8,0\n0,0x7f8881e37a70,W,8,0\n1000,0x7ffdf9d85088,R,8,1\n2000,0x7f8881e37a78,W,8,0\n3000,0x600000,R,4,2')" ] ||
		fail "cat: $(tr_ cat v.cxt)" || return 1
	# one output per thread; with --rebase each starts at 0
	tr_ split v.cxt 't%d.cxt' --hosts 3 --by thread || return 1
	[ "$(tr_ cat t0.cxt | tail -n +2 | tr '\n' ' ')" = "0,0x7f8881e37c70,R,8,0 0,0x7f8881e37a70,W,8,0 2000,0x7f8881e37a78,W,8,0 " ] ||
		fail "thread 0: $(tr_ cat t0.cxt)" || return 1
	tr_ split v.cxt 's%d.cxt' --hosts 3 --by thread --rebase || return 1
	[ "$(tr_ cat s1.cxt | tail -n +2)" = "0,0x7ffdf9d85088,R,8,1" ] || fail "thread 1 rebased: $(tr_ cat s1.cxt)" || return 1
	[ "$(tr_ cat s2.cxt | tail -n +2)" = "0,0x600000,R,4,2" ] || fail "thread 2 rebased: $(tr_ cat s2.cxt)" || return 1
	# the parts hold every record once
	[ "$(for h in 0 1 2; do tr_ cat "t$h.cxt" | tail -n +2; done | sort)" = "$(tr_ cat v.cxt | tail -n +2 | sort)" ] ||
		fail "split --by thread lost or duplicated records" || return 1
	# a CSV with a thread column comes back byte for byte; other targets drop the thread
	printf 'time_ns,addr,op,size,thread\n1,0x40,R,64,7\n2,0x80,W,64,0\n' > th.csv
	tr_ convert th.csv th.cxt > /dev/null || return 1
	tr_ cat th.cxt | cmp - th.csv || fail "thread CSV round trip" || return 1
	[ "$(tr_ cat --to esf th.cxt)" = "$(printf '0x40 R 1\n0x80 W 2')" ] || fail "esf of a thread trace" || return 1
	# without threads: version 2 and no thread column
	tr_ gen g.cxt --records 10 || return 1
	[ "$(tr_ info g.cxt | field /dev/stdin format)" = ".cxt version 2" ] || fail "gen is not version 2" || return 1
	tr_ info g.cxt | grep -q '^threads: *none recorded' || fail "gen threads: $(tr_ info g.cxt | grep threads)" || return 1
	[ "$(tr_ cat g.cxt | head -1)" = "time_ps,addr,op,size" ] || fail "gen header: $(tr_ cat g.cxt | head -1)" || return 1
	trace_error '--by sideways: unknown \(expected range\|roundrobin\|thread\)' split v.cxt 'x%d.cxt' --hosts 2 --by sideways
}

# ChampSim binary traces (the committed samples, written by test_trc_import_champsim.c's
# generator in the layout of ChampSim's tracer/pin/champsim_tracer.cpp): plain and .xz give
# the same records; reads and writes are the non-zero source_memory and destination_memory
# slots counted straight from the bytes (od); the trace replays on 1 and 2 ranks identically.
test_champsim_plain_and_xz() {
	local s=$SAMPLES/champsim-small.champsimtrace rw
	tr_ convert "$s" p.cxt > /dev/null || return 1
	tr_ convert --ipns 4 "$s.xz" x.cxt > /dev/null || return 1
	tr_ cat p.cxt > p.txt && tr_ cat --to csv --clock 250ps x.cxt | sed 1d > x.txt || return 1
	cmp <(sed 1d p.txt | cut -d, -f2-) <(cut -d, -f2- x.txt) || fail "plain and xz records differ" || return 1
	rw=$(od -An -v -t x8 -w64 "$s" | awk '{ for (i = 5; i <= 8; i++) if ($i !~ /^0+$/) r++
		for (i = 3; i <= 4; i++) if ($i !~ /^0+$/) w++ } END { print r + 0, w + 0 }')
	tr_ info p.cxt > i || return 1
	echo "od: reads writes = $rw; info: $(field i reads) $(field i writes)"
	[ "$(field i reads) $(field i writes)" = "$rw" ] || fail "counts differ from the bytes" || return 1
	field i origin | grep -q '^champsim (time: instruction index x 1ns, 1 instructions/ns)' ||
		fail "origin: $(field i origin)" || return 1
	tr_ info x.cxt | grep -q '^origin: *champsim (time: instruction index x 250ps, 4 instructions/ns)' ||
		fail "xz origin: $(tr_ info x.cxt | grep origin)" || return 1
	# the last instruction (47) holds the last access: 47 ns
	[ "$(field i time | sed 's/,.*//')" = "first 1ns" ] || fail "time $(field i time)" || return 1
	grep -q '^47000,' p.txt || fail "no access of instruction 47" || return 1
	for n in 1 2; do
		cxl "$n" -q "$CONFIGS/spine_leaf.cfg" -o "c$n" --set workload.pattern=trace \
			--set workload.trace=p.cxt --set workload.requests=0 --set workload.replay=timed || return 1
	done
	cmp -s <(results c1/stats.json) <(results c2/stats.json) || fail "1 and 2 ranks differ" || return 1
	[ "$(json_num c1/stats.json reads) $(json_num c1/stats.json writes)" = "$(echo "$rw" | awk '{ print 8 * $1, 8 * $2 }')" ] ||
		fail "replay: $(json_num c1/stats.json reads) reads, $(json_num c1/stats.json writes) writes" || return 1
	cp "$s" plain.bin
	trace_error 'plain.bin:1: NUL byte \(not a text trace; a binary ChampSim trace needs --from champsim\)' convert plain.bin y.cxt || return 1
	tr_ convert -q --from champsim plain.bin y.cxt && cmp <(tr_ cat y.cxt) p.txt || fail "--from champsim" || return 1
	head -c 100 "$s" > short.champsimtrace
	trace_error 'short.champsimtrace: instruction 1: truncated record: 36 of 64 bytes' convert short.champsimtrace z.cxt
}

test_tools_errors_name_line_and_field() {
	printf '==1== Lackey\nI  00401000,3\n S 00401000\n' > a.log
	trace_error 'a.log:3: field size: missing \(expected "S ADDR,SIZE"\)' convert a.log a.cxt || return 1
	[ ! -e a.cxt ] || fail "output left after an error" || return 1
	printf 'I  00401000,3\n Q 00401000,4\n' > b.log
	trace_error 'b.log:2: field kind: "Q" is not a lackey line' convert b.log b.cxt || return 1
	printf '0x40 R\n0x80 X\n' > r.trace
	trace_error 'r.trace:2: field op: "X" \(expected R or W\)' convert r.trace r.cxt || return 1
	printf 'LD 0x40\nST 0xzz\n' > s.trace
	trace_error 's.trace:2: field address: "0xzz" is not an address' convert s.trace s.cxt || return 1
	printf '1 0x40\n2 0x80 x\n' > c.trace
	trace_error 'c.trace:2: field write-back address: "x"' convert c.trace c.cxt || return 1
	printf '  1  1:  9 read 8 byte(s) @ 0x40\n  2  1:  9 write 8 byte(s) @ 40\n' > d.txt
	trace_error 'd.txt:2: field address: "40" is not an address' convert d.txt d.cxt || return 1
	trace_error 'r.trace: a ramulator trace has no time, so no --clock or --ipns' convert --clock 1ns r.trace x.cxt || return 1
	trace_error 'convert: give --clock or --ipns, not both' convert --clock 1ns --ipns 1 a.log x.cxt || return 1
	trace_error '--ipns 3: one instruction would not take a whole number of ps' convert --ipns 3 a.log x.cxt || return 1
	trace_error "$SAMPLES/esf-small.trace: --ipns is for traces that count instructions, not esf" \
		convert --ipns 1 "$SAMPLES/esf-small.trace" x.cxt || return 1
	trace_error "$SAMPLES/lackey-small.log: --strict: lackey text has no canonical form" \
		convert --strict "$SAMPLES/lackey-small.log" x.cxt || return 1
	[ ! -e x.cxt ] || fail "--strict left an output" || return 1
	trace_error '--to lackey: unknown \(expected esf\|dramsim3\|csv\|ramulator\|ramulator2\)' \
		cat --to lackey "$SAMPLES/lackey-small.cxt" || return 1
	tr_ convert --help | grep -q 'lackey | ramulator | ramulator2' || fail "convert --help lacks the tools"
}
