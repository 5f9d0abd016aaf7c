# t_cmpi.sh - the cmpi generator (models/host/cmpi.c) end to end on cMPI's
# pool (configs/cmpi-pool.cfg: four hosts on one multi-headed device): a
# tiny put latency sweep and a tiny two-sided bandwidth sweep (one size in
# three 64 KiB cells) finish, with the marks each host should have (class
# per size, count and bytes) and the exact number of operations; every
# transaction is answered and nothing is left in flight; the results are
# byte-identical on 1 and 2 ranks; an HDM-DB all-to-all ping-pong finishes;
# config errors name the key.
#
# Run alone: test/integration/t_cmpi.sh (or run.sh t_cmpi).

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run.sh" t_cmpi
fi

# (csv_sum, comp_stat, expect_stat, results, fail, cxl, expect_error, RANKS: lib.sh)

# crun N DIR ARGS... : cmpi-pool.cfg with the cmpi pattern on N ranks into DIR
crun() {
	local n=$1 d=$2; shift 2
	cxl "$n" -q "$CONFIGS/cmpi-pool.cfg" -o "$d" --set workload.pattern=cmpi "$@"
}
# drained DIR : every host finished, every transaction answered, nothing held
drained() {
	local d=$1 issued completed
	issued=$(csv_sum "$d/components.csv" issued)
	completed=$(csv_sum "$d/components.csv" completed)
	[ "$issued" -gt 0 ] && [ "$issued" = "$completed" ] ||
		fail "$d: issued $issued, completed $completed" || return 1
	for s in cut_by_end outstanding_at_end queued_at_end responses_waiting birsp_waiting; do
		[ "$(csv_sum "$d/components.csv" $s)" = 0 ] ||
			fail "$d: $s = $(csv_sum "$d/components.csv" $s)" || return 1
	done
	for h in host0 host1 host2 host3; do
		[ "$(comp_stat "$d" $h prog_done_ps)" -gt 0 ] || fail "$d: $h did not finish" || return 1
	done
}

# put latency, pairs (host0 -> host1, host2 -> host3), 2 processes per host,
# sizes 64 B and 128 B, 2 measured + 1 warm-up iterations, with and without
# a host cache.  Per origin
# process: barrier 2 ops, 3 x (store, flushopt, fence), 2 x (begin, end);
# the second size adds the fence before the barrier: 15 + 16 = 31 ops.  A
# target process only meets the barriers: 2 + 3 = 5.
test_cmpi_put_latency_marks_and_conservation() {
	local args=(--set host.cores=2 --set workload.cmpi.measure=latency
		--set workload.cmpi.min_size=64B --set workload.cmpi.max_size=128B
		--set workload.cmpi.iterations=2 --set workload.cmpi.warmup=1)
	crun 1 put --set host.cache.size=64KiB "${args[@]}" || return 1
	crun 1 nocache "${args[@]}" || return 1
	drained put && drained nocache || return 1
	for h in host0 host2; do
		expect_stat put $h ops 62 && expect_stat put $h mark_64B_count 4 &&
			expect_stat put $h mark_64B_bytes 256 && expect_stat put $h mark_128B_count 4 &&
			expect_stat put $h mark_128B_bytes 512 || return 1
		# one-sided: each origin's data reached the pool
		[ "$(comp_stat put $h writes)" -ge 12 ] || fail "$h wrote $(comp_stat put $h writes) times" ||
			return 1
	done
	for h in host1 host3; do
		expect_stat put $h ops 10 && expect_stat put $h mark_64B_count 0 || return 1
	done
	expect_stat nocache host0 ops 62 && expect_stat nocache host0 mark_64B_count 4 || return 1
	local lat plain
	lat=$(comp_stat put host0 mark_64B_ps.mean); plain=$(comp_stat nocache host0 mark_64B_ps.mean)
	echo "put 64 B + flushopt + fence: $lat ps with a cache, $plain ps without"
	# with a cache: the store's read for ownership, then flushopt's write-back,
	# both waited for by the fence: two pool round trips (~790 ns each, the
	# seed's 2.2 us with flushing against 790 ns); without: one write
	[ "$lat" -gt 1400000 ] && [ "$plain" -gt 700000 ] && [ "$plain" -lt "$lat" ] ||
		fail "a put took $lat ps (cached), $plain ps (uncached)" || return 1
	# 2 processes x 3 iterations x (1 + 2 lines)
	expect_stat put host0 writebacks 18
}

# sendrecv bw, pairs, 1 process, a 128 KiB message (3 cells of 64 KiB less
# the 64 B header), window 4, 2 measured + 1 warm-up windows; 1 and 2 ranks.
test_cmpi_sendrecv_bw_marks_and_ranks() {
	local args=(--set workload.cmpi.op=sendrecv --set workload.cmpi.window=4
		--set workload.cmpi.min_size=128KiB --set workload.cmpi.max_size=128KiB
		--set workload.cmpi.iterations_large=2 --set workload.cmpi.warmup_large=1)
	for n in 1 2; do
		crun $n r$n "${args[@]}" || return 1
		results r$n/stats.json > r$n.res
	done
	cmp -s r1.res r2.res || fail "results differ between 1 and 2 ranks" || return 1
	drained r1 || return 1
	for h in host0 host2; do
		expect_stat r1 $h mark_128KiB_count 2 && expect_stat r1 $h mark_128KiB_bytes 1048576 || return 1
	done
	expect_stat r1 host1 mark_128KiB_count 0 || return 1
	# copy 1: the sender wrote 3 windows x 4 messages x 3 cells (2049 lines each)
	[ "$(comp_stat r1 host0 writes)" -ge $((3 * 4 * 2049)) ] ||
		fail "host0 wrote $(comp_stat r1 host0 writes) lines" || return 1
	# copy 2: the receiver read them
	[ "$(comp_stat r1 host1 reads)" -ge $((3 * 4 * 2049)) ] ||
		fail "host1 read $(comp_stat r1 host1 reads) lines" || return 1
	local ps
	ps=$(comp_stat r1 host0 mark_128KiB_sum_ps)
	echo "sendrecv 128 KiB x 4: $(awk -v b=1048576 -v t="$ps" 'BEGIN { printf "%.2f GB/s", b / t * 1000 }')"
}

# HDM-DB: cached data and flags, the device back-invalidates; all-to-all
# ping-pong among the four hosts (3 steps per iteration).
test_cmpi_hdmdb_alltoall_latency() {
	crun 1 db --set memory.dcoh.entries=4096 --set host.cache.size=256KiB \
		--set workload.cmpi.op=sendrecv --set workload.cmpi.measure=latency \
		--set workload.cmpi.peers=alltoall --set workload.cmpi.coherence=hdmdb \
		--set workload.cmpi.min_size=1KiB --set workload.cmpi.max_size=1KiB \
		--set workload.cmpi.iterations=2 --set workload.cmpi.warmup=1 || return 1
	drained db || return 1
	for h in host0 host1 host2 host3; do
		expect_stat db $h mark_1KiB_count 6 && expect_stat db $h mark_1KiB_bytes 6144 || return 1
	done
	[ "$(csv_sum db/components.csv bisnp)" -gt 0 ] || fail "no back-invalidation"
}

test_cmpi_errors() {
	expect_error 1 ".*workload.cmpi.procs: 2 processes, more than host.cores \\(1\\)" \
		"$CONFIGS/cmpi-pool.cfg" --set workload.pattern=cmpi --set workload.cmpi.procs=2 ||
		return 1
	expect_error 1 ".*workload.cmpi.min_size: 4096 bytes is more than max_size \\(1024\\)" \
		"$CONFIGS/cmpi-pool.cfg" --set workload.pattern=cmpi \
		--set workload.cmpi.min_size=4KiB --set workload.cmpi.max_size=1KiB || return 1
	expect_error 1 ".*workload.cmpi.cell: 49152 bytes is not a power of two" \
		"$CONFIGS/cmpi-pool.cfg" --set workload.pattern=cmpi --set workload.cmpi.cell=48KiB
}
