# t_program.sh - host programs (models/host/prog.h), each operation's fabric
# traffic and latency checked exactly on an idle two-host pool: a uc_store
# of 4 KiB is 16 TLPs at MPS 256 (1 at 4 KiB, 32 at 128 B) taking 16 x one
# TLP's time; uc_load likewise; a flush of a dirty line is one write-back, of
# a clean or absent one nothing; nt_store bypasses the cache; a fence waits
# for the stores before it; an atomic costs a read for ownership plus a
# cache hit, and a snoop of the host holding the line under HDM-DB;
# wait_flag sees a cached set_flag only after the writer's flush + fence
# (never without), an nt set_flag at once, and under HDM-DB through the
# back-invalidation; conservation; 1-4 ranks byte-identical; errors.
#
# Run alone: test/integration/t_program.sh (or run.sh t_program).

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run.sh" t_program
fi

# (json_num, csv_sum, comp_stat, expect_stat, results, fail, cxl, expect_error: lib.sh)

# Two hosts with 64 KiB caches on a multi-headed pool, simple memory model
# (fixed latencies: exact arithmetic), PCIe 4.0 x8 links.
prog_cfg() {
	cat > prog.cfg <<'EOF'
simulation = { end = "1ms"; seed = 1; };
topology = {
  kind = "custom";
  custom = { hosts = ["host0", "host1"]; memories = ["pool"];
             links = ["host0 pool", "host1 pool"]; };
};
bus = { gen = 4; lanes = 8; };
host = { cache = { size = "64KiB"; }; };
workload = { pattern = "program"; queue = 16; };
EOF
}

# prun DIR ARGS... : run prog.cfg on 1 rank into DIR
prun() { local d=$1; shift; cxl 1 -q prog.cfg -o "$d" "$@"; }
# hist_mean DIR COMPONENT HIST : the mean of one histogram, from stats.json
hist_mean() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]+"/stats.json"))
print(int(d["components"][sys.argv[2]][sys.argv[3]]["mean"]))' "$@"
}

test_uc_store_is_one_tlp_per_mps() {
	prog_cfg
	prun one --set 'workload[host0].program=uc_store 0 256' || return 1
	prun four --set 'workload[host0].program=uc_store 0 4KiB' || return 1
	prun big --set 'workload[host0].program=uc_store 0 4KiB' --set bus.max_payload=4KiB || return 1
	prun small --set 'workload[host0].program=uc_store 0 4KiB' --set bus.max_payload=128B || return 1
	expect_stat one host0 writes 1 && expect_stat four host0 writes 16 && expect_stat big host0 writes 1 &&
		expect_stat small host0 writes 32 || return 1
	expect_stat four pool writes 16 && expect_stat four host0 bytes 4096 || return 1
	# 4 KiB of payload crossed the host's link, in 16 TLPs of 20 B header each
	expect_stat four host0-pool payload_bytes_d0 4096 && expect_stat four host0-pool wire_bytes_d0 4416 ||
		return 1
	# strictly one at a time: 16 x the time of one TLP, to the picosecond
	local t1 t16
	t1=$(hist_mean one host0 op_uc_store_ps); t16=$(hist_mean four host0 op_uc_store_ps)
	echo "one 256 B TLP $t1 ps, 4 KiB in 16: $t16 ps"
	[ "$t16" = $((16 * t1)) ] || fail "uc_store 4 KiB took $t16 ps, expected 16 x $t1" || return 1
	# the MPS counts: one 4 KiB TLP is far faster than 16 round trips
	[ "$(hist_mean big host0 op_uc_store_ps)" -lt $((4 * t1)) ] ||
		fail "a 4 KiB TLP took $(hist_mean big host0 op_uc_store_ps) ps"
}

test_uc_load_is_one_tlp_per_mps() {
	prog_cfg
	prun one --set 'workload[host0].program=uc_load 0 256' || return 1
	prun four --set 'workload[host0].program=uc_load 0 4KiB' || return 1
	expect_stat one host0 reads 1 && expect_stat four host0 reads 16 && expect_stat four pool reads 16 &&
		expect_stat four host0 bytes 4096 && expect_stat four host0 misses 0 || return 1
	# the data comes back: 4 KiB of payload towards the host
	expect_stat four host0-pool payload_bytes_d1 4096 || return 1
	local t1 t16
	t1=$(hist_mean one host0 op_uc_load_ps); t16=$(hist_mean four host0 op_uc_load_ps)
	[ "$t16" = $((16 * t1)) ] || fail "uc_load 4 KiB took $t16 ps, expected 16 x $t1"
}

test_flush_of_a_dirty_line_is_one_writeback() {
	prog_cfg
	prun dirty --set 'workload[host0].program=store 0,flush 0' || return 1
	prun clean --set 'workload[host0].program=load 0,flush 0' || return 1
	prun absent --set 'workload[host0].program=flush 0' || return 1
	prun range --set 'workload[host0].program=store 0 1KiB,flushopt 0 1KiB,fence' || return 1
	expect_stat dirty host0 writebacks 1 && expect_stat dirty pool writes 1 && expect_stat dirty pool reads 1 &&
		expect_stat dirty host0 cached_lines 0 || return 1
	expect_stat clean host0 writebacks 0 && expect_stat clean pool writes 0 && expect_stat clean host0 cached_lines 0 ||
		return 1
	expect_stat absent host0 writebacks 0 && expect_stat absent pool writes 0 && expect_stat absent pool reads 0 ||
		return 1
	expect_stat range host0 writebacks 16 && expect_stat range pool writes 16 && expect_stat range host0 cached_lines 0
}

test_nt_store_bypasses_the_cache() {
	prog_cfg
	prun nt --set 'workload[host0].program=load 0,nt_store 0 1KiB' || return 1
	# 16 full-line writes; the loaded line was dropped (its data is in the write)
	expect_stat nt host0 writes 16 && expect_stat nt pool writes 16 && expect_stat nt host0 misses 1 &&
		expect_stat nt host0 cached_lines 0 && expect_stat nt host0 writebacks 0
}

test_fence_waits_for_earlier_stores() {
	prog_cfg
	prun f --set 'workload[host0].program=nt_store 0 4KiB,fence,compute 1us' || return 1
	# the fence ends when the last store is answered; then 1 us of compute
	local last done
	last=$(comp_stat f host0 t_last_ps); done=$(comp_stat f host0 prog_done_ps)
	[ "$done" = $((last + 1000000)) ] || fail "program done at $done, last answer $last + 1 us" ||
		return 1
	[ "$(hist_mean f host0 op_fence_ps)" -gt 0 ] || fail "the fence waited for nothing"
}

test_atomic_is_a_read_for_ownership_then_a_hit() {
	prog_cfg
	prun rd --set 'workload[host0].program=load 0' || return 1
	prun at --set 'workload[host0].program=atomic 0,atomic 0' || return 1
	local miss
	miss=$(hist_mean rd host0 op_load_ps)
	# first: the miss + the 12 ns cache; second: a dirty hit, 12 ns
	[ "$(hist_mean at host0 op_atomic_ps)" = $(((miss + 12000 + 12000) / 2)) ] ||
		fail "atomics took $(hist_mean at host0 op_atomic_ps) ps on average, miss $miss ps" || return 1
	expect_stat at pool reads 1 && expect_stat at pool writes 0
}

test_atomic_on_a_line_another_host_holds_snoops_it() {
	prog_cfg
	prun bi --set memory.dcoh.entries=1024 --set 'workload[host0].program=store 0' \
		--set 'workload[host1].program=compute 2us,atomic 0' || return 1
	expect_stat bi host0 bisnp 1 && expect_stat bi host0 birsp_dirty_lines 1 && expect_stat bi host1 bisnp 0 ||
		return 1
	prun alone --set memory.dcoh.entries=1024 --set 'workload[host1].program=compute 2us,atomic 0' ||
		return 1
	local a b
	a=$(hist_mean bi host1 op_atomic_ps); b=$(hist_mean alone host1 op_atomic_ps)
	echo "atomic on a line host0 holds dirty: $a ps; on a free line: $b ps"
	[ "$a" -gt "$b" ] || fail "the back-invalidation cost nothing ($a <= $b ps)"
}

test_programs_conserve_and_match_on_1_to_4_ranks() {
	prog_cfg
	local p0='repeat 20,store 0 2KiB,flushopt 0 2KiB,fence,uc_store 8192 1KiB,nt_load 16384 512,atomic 32768'
	local p1='repeat 20,load 0 2KiB,uc_load 8192 1KiB,compute 100ns,flush 0 2KiB'
	for n in $RANKS; do
		cxl "$n" -q prog.cfg -o r$n --set host.cores=3 --set memory.dcoh.entries=256 \
			--set "workload[host0].program=$p0" --set "workload[host1].program=$p1" || return 1
		results r$n/stats.json > r$n.res
	done
	for n in $MRANKS; do
		cmp -s r1.res r$n.res || fail "results differ between 1 and $n ranks" || return 1
	done
	local issued completed
	issued=$(csv_sum r1/components.csv issued); completed=$(csv_sum r1/components.csv completed)
	[ "$issued" = "$completed" ] && [ "$issued" -gt 0 ] || fail "issued $issued, completed $completed" ||
		return 1
	# every process of both hosts finished: 3 x 20 x 6 and 3 x 20 x 4 operations
	expect_stat r1 host0 ops 360 && expect_stat r1 host1 ops 240 && expect_stat r1 host0 cut_by_end 0 || return 1
	for s in outstanding_at_end birsp_waiting queued_at_end responses_waiting; do
		[ "$(csv_sum r1/components.csv $s)" = 0 ] || fail "$s = $(csv_sum r1/components.csv $s)" ||
			return 1
	done
}

test_program_errors() {
	prog_cfg
	expect_error 1 ".*workload.program: operation 2 .jump 0.: unknown operation .jump." prog.cfg \
		--set 'workload.program=load 0,jump 0' || return 1
	expect_error 1 ".*workload.program: operation 1 .set_flag 0x1010 1.: flag address 0x1010 is not a multiple of 256" \
		prog.cfg --set 'workload.program=set_flag 0x1010 1' || return 1
	expect_error 1 ".*workload.program: operation 1 .wait_flag 0 70000.: expected .wait_flag ADDR VALUE. \\(VALUE 0-65535\\)" \
		prog.cfg --set 'workload.program=wait_flag 0 70000' || return 1
	expect_error 1 ".*workload.program: operation 2 .repeat 3.: .repeat N. \\(N >= 1\\) must be the first operation" \
		prog.cfg --set 'workload.program=load 0,repeat 3' || return 1
	expect_error 1 ".*host.cores: 4096 processes x workload.queue 16 = 65536 transactions in flight; at most 65535" \
		prog.cfg --set host.cores=4096 || return 1
	# each host alone on its own device: no memory to share
	sed 's/memories = \["pool"\];/memories = ["m0", "m1"];/; s/links = .*/links = ["host0 m0", "host1 m1"]; };/' \
		prog.cfg > apart.cfg
	expect_error 1 ".*workload.pattern: host programs need hosts that share memory: no two hosts reach the same memory devices" \
		apart.cfg --set 'workload.program=load 0'
}

# host0 sets flag 0x1000 to 7 in its cache; host1 polls it.
test_wait_flag_sees_a_cached_flag_only_after_flush_and_fence() {
	prog_cfg
	local w='set_flag 0x1000 7,compute 5us,flush 0x1000,fence'
	prun yes --set "workload[host0].program=$w" --set 'workload[host1].program=wait_flag 0x1000 7' ||
		return 1
	prun no --end 20us --set 'workload[host0].program=set_flag 0x1000 7,compute 5us' \
		--set 'workload[host1].program=wait_flag 0x1000 7' || return 1
	# with the flush: seen, after the write-back reached the memory (host0 is
	# done when its answer is back, about half a round trip later)
	local w0 w1 polls
	w0=$(comp_stat yes host0 prog_done_ps); w1=$(comp_stat yes host1 prog_done_ps)
	polls=$(comp_stat yes host1 polls)
	echo "writer done at $w0 ps, reader saw the flag at $w1 ps after $polls polls"
	[ "$w1" -gt 5000000 ] && [ "$polls" -gt 2 ] || fail "seen at $w1 ps after $polls polls" || return 1
	[ "$w1" -gt $((w0 - 300000)) ] || fail "seen at $w1 ps, long before the write-back ($w0 ps)" ||
		return 1
	expect_stat yes host1 cut_by_end 0 && expect_stat yes pool writes 1 || return 1
	# without it: never seen, however long the reader polls
	expect_stat no host1 cut_by_end 1 && expect_stat no host1 ops 0 && expect_stat no pool writes 0 || return 1
	[ "$(comp_stat no host1 polls)" -gt 10 ] || fail "only $(comp_stat no host1 polls) polls in 20 us"
}

test_wait_flag_sees_an_nt_flag_and_hdmdb_without_flush() {
	prog_cfg
	prun nt --set 'workload[host0].program=compute 2us,set_flag 0x1000 3 nt' \
		--set 'workload[host1].program=wait_flag 0x1000 3' || return 1
	expect_stat nt host1 cut_by_end 0 && expect_stat nt host1 ops 1 && expect_stat nt pool writes 1 || return 1
	# HDM-DB: the poll back-invalidates the writer's dirty line, value and all
	prun bi --set memory.dcoh.entries=1024 \
		--set 'workload[host0].program=set_flag 0x1000 9,compute 50us' \
		--set 'workload[host1].program=compute 2us,wait_flag 0x1000 9' || return 1
	expect_stat bi host1 cut_by_end 0 && expect_stat bi host1 polls 1 && expect_stat bi host0 bisnp 1 &&
		expect_stat bi host0 birsp_dirty_lines 1 || return 1
	# a counter: waiting for 5 sees 5, 6 or more (serial numbers), not 4
	prun ser --set 'workload[host0].program=set_flag 0x1000 65535 nt,set_flag 0x1000 6 nt' \
		--set 'workload[host1].program=compute 5us,wait_flag 0x1000 5' || return 1
	expect_stat ser host1 cut_by_end 0 && expect_stat ser host1 polls 1
}
