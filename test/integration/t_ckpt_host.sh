# t_ckpt_host.sh - checkpoint/restart of the requesters (models/host/req_ckpt.c):
# for each workload, a run checkpointed on 2 ranks and restarted from each
# checkpoint on 1 and 3 ranks (roundrobin) gives the results of the
# uninterrupted run byte for byte (ckpt_same, lib.sh): stream, random and
# hotcold on chain and spine-leaf; trace replay, closed and timed, shared and
# per-host regions, cut inside a record and past a block boundary; caches
# with back-invalidation (sf-policy, HDM-DB hotcold); host programs with
# flags, fences, atomics and marks; cmpi one- and two-sided; rpc over each
# transport; checkpoints before, inside and after the measurement window.
# A restart whose trace is not the checkpoint's is refused (exit 2, named).
#
# Run alone: test/integration/t_ckpt_host.sh (or run.sh t_ckpt_host).

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	exec "$(dirname "$0")/run.sh" t_ckpt_host
fi

# (ckpt_same, cxl, fail, expect_error: lib.sh)

ROOT=$(cd "$CONFIGS/.." && pwd)
TR=${CXLFAB_TRACE:-bin/cxlfab-trace}
case $TR in /*) ;; *) TR=$ROOT/$TR ;; esac

test_ckpt_host_patterns_on_chain_and_spine_leaf() {
	local p
	for p in stream:40us random:3us hotcold:20us; do
		ckpt_same "$CONFIGS/chain.cfg" "${p#*:}" --set workload.pattern=${p%:*} \
			--set workload.read_ratio=0.7 || return 1
	done
	ckpt_same "$CONFIGS/spine_leaf.cfg" "5us 30us" --set workload.pattern=hotcold \
		--set workload.read_ratio=0.5 --set workload.issue_interval=50ns
}

# Records in blocks of 256; the checkpoints cut inside multi-line records
# (size 200 B: up to 4 lines each) and past several blocks.  The closed and
# timed replays read 800 records (the first 800 of the 3000: the same runs
# up to their cuts, each host past ~500 lines at 20 us), then finish; the
# per-host replay reads the 3000 with queue 4 and is stopped by
# simulation.end, at 300 us rather than the config's 1 ms.  gcov: the same
# lines and branches of cxlfab as 3000 records for all three and the 1 ms
# end (CPU 18 -> 4 s), but one decoder branch (a last block's spare
# mantissa bits) that the trace unit tests reach.
test_ckpt_host_trace_replay() {
	"$TR" gen t.cxt --pattern random --records 3000 --read-ratio 0.6 --interval 1ns \
		--block-records 256 --size 200 > /dev/null || return 1
	"$TR" gen s.cxt --pattern random --records 800 --read-ratio 0.6 --interval 1ns \
		--block-records 256 --size 200 > /dev/null || return 1
	local a=(--set workload.pattern=trace --set workload.trace="$PWD/t.cxt" --set workload.requests=0)
	local s=(--set workload.pattern=trace --set workload.trace="$PWD/s.cxt" --set workload.requests=0)
	ckpt_same "$CONFIGS/ring.cfg" "20us" "${s[@]}" || return 1
	ckpt_same "$CONFIGS/ring.cfg" "1500ns" "${s[@]}" --set workload.replay=timed || return 1
	ckpt_same "$CONFIGS/ring.cfg" "7us" "${a[@]}" --end 300us --set workload.trace_hosts=each \
		--set workload.trace_region=1GiB --set workload.queue=4
}

# A restart reopens the trace named in the checkpoint's config: another file
# there (fewer records) is refused, naming the component and the file.
test_ckpt_host_trace_changed_is_refused() {
	"$TR" gen t.cxt --records 3000 --interval 1ns > /dev/null || return 1
	cxl 2 -q "$CONFIGS/ring.cfg" --set workload.pattern=trace --set workload.trace=t.cxt \
		--set workload.requests=0 --checkpoint-at 10us -o a || return 1
	"$TR" gen t.cxt --records 100 --interval 1ns > /dev/null || return 1
	expect_error 1 '.*host.*t\.cxt holds 100 records; the checkpoint.s trace held 3000' \
		--restart a/checkpoint-10000000ps
}

test_ckpt_host_caches_and_snoops() {
	ckpt_same "$CONFIGS/sf-policy.cfg" "2us 20us" --set workload.requests=8000 || return 1
	ckpt_same "$CONFIGS/esf-validation.cfg" "3us" --set workload.pattern=hotcold \
		--set workload.requests=3000 --set host.cache.size=16KiB --set workload.shared=true \
		--set memory.dcoh.entries=256 --set workload.read_ratio=0.5
}

# Two hosts on a pool (t_program.sh's), 3 processes each: flags through the
# cache and nt, a fence, an atomic under HDM-DB, flushes, compute, marks.
test_ckpt_host_programs() {
	cat > prog.cfg <<'EOF'
simulation = { end = "1ms"; seed = 1; };
topology = {
  kind = "custom";
  custom = { hosts = ["host0", "host1"]; memories = ["pool"];
             links = ["host0 pool", "host1 pool"]; };
};
bus = { gen = 4; lanes = 8; };
host = { cache = { size = "64KiB"; }; cores = 3; };
memory = { dcoh = { entries = 256; }; };
workload = { pattern = "program"; queue = 16; };
EOF
	local p0='repeat 15,mark begin w,store 0 2KiB,flushopt 0 2KiB,fence,set_flag 65536 1 nt,uc_store 8192 1KiB,nt_load 16384 512,atomic 32768,mark end w 2048'
	local p1='repeat 15,wait_flag 65536 1,load 0 2KiB,uc_load 8192 1KiB,compute 100ns,flush 0 2KiB,set_flag 131072 2,atomic 32768'
	ckpt_same "$PWD/prog.cfg" "1us 4us 9us" --set "workload[host0].program=$p0" \
		--set "workload[host1].program=$p1"
}

test_ckpt_host_cmpi() {
	local c=(--set workload.pattern=cmpi --set host.cores=2 --set host.cache.size=64KiB)
	ckpt_same "$CONFIGS/cmpi-pool.cfg" "15us" "${c[@]}" --set workload.cmpi.measure=latency \
		--set workload.cmpi.min_size=64B --set workload.cmpi.max_size=1KiB \
		--set workload.cmpi.iterations=3 --set workload.cmpi.warmup=1 || return 1
	# two-sided: 32 KiB messages in 3 chunks of 16 KiB cells, queues 2 deep (full waits)
	ckpt_same "$CONFIGS/cmpi-pool.cfg" "40us" "${c[@]}" --set workload.cmpi.op=sendrecv \
		--set workload.cmpi.window=2 --set workload.cmpi.min_size=32KiB \
		--set workload.cmpi.max_size=32KiB --set workload.cmpi.cell=16KiB \
		--set workload.cmpi.depth=2 --set workload.cmpi.iterations_large=2 \
		--set workload.cmpi.warmup_large=1
}

test_ckpt_host_rpc() {
	ckpt_same "$CONFIGS/coherent-rpc.cfg" "20us 100us" --set workload.rpc.count=30 || return 1
	ckpt_same "$CONFIGS/coherent-rpc.cfg" "30us 100us" --set workload.rpc.transport=coherent \
		--set workload.rpc.count=30 || return 1
	ckpt_same "$CONFIGS/coherent-rpc.cfg" "60us 400us" --set workload.rpc.transport=dma \
		--set workload.rpc.completion=interrupt --set workload.rpc.count=5 \
		--set workload.rpc.dma_setup=1us
}

# simulation.warmup 500 ns, end 3 us: checkpoints before the window, inside
# it, and after its end while the run drains; workload.warmup and a rate too.
test_ckpt_host_measurement_window() {
	ckpt_same "$CONFIGS/spine_leaf.cfg" "200ns 1us 3100ns" --set simulation.warmup=500ns \
		--end 3us || return 1
	ckpt_same "$CONFIGS/chain.cfg" "2us" --set workload.warmup=300 --set workload.rate=20%
}
