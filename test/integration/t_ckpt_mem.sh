# test/integration/t_ckpt_mem.sh - checkpoint/restart of the memory side
# (models/memory/mem_ckpt.c with dram_ckpt.c, models/coherence/dcoh_ckpt.c
# with sf_ckpt.c, models/device/dev_ckpt.c): each config runs whole, then
# checkpointed on 2 ranks and restarted on 1 and 3 ranks (ckpt_same,
# lib.sh); the results must be byte-identical.  The checkpoint times fall
# while requests are queued in the DRAM, snoops and evictions are in flight,
# and RPCs are in progress.  Each run is cut short (workload.requests, RPC
# count) to take a few seconds.

# A pool shared by two hosts whose programs make requests of several lines
# (uc TLPs of 1 KiB, cached stores and loads of several lines) over the same
# lines: parent slots and parts, parts through the DCOH (conflicts, parked
# requests), parts held in front of full DRAM queues.  $1: the memory group.
ml_cfg() {
	cat > ml.cfg <<EOC
simulation = { end = "1ms"; seed = 1; };
topology = {
  kind = "custom";
  custom = { hosts = ["host0", "host1"]; memories = ["pool"];
             links = ["host0 pool", "host1 pool"]; };
};
bus = { gen = 4; lanes = 8; max_payload = "1KiB"; };
host = { cache = { size = "16KiB"; }; };
memory = $1;
workload = { pattern = "program"; queue = 16; interleave = "4KiB";
  program = ["repeat 40", "uc_store 0 4KiB", "store 8192 1KiB", "uc_load 0 4KiB",
             "load 8192 2KiB", "flush 8192 512"]; };
EOC
}

# The detailed DRAM: both DDR presets, open and closed page, stream and
# random, two ranks, refresh on (tREFI = 7.8 us: the later cuts follow a
# refresh).
test_ckpt_dram_presets() {
	ckpt_same "$CONFIGS/dram-stream.cfg" "1us 9us" --set workload.requests=8000 || return 1
	ckpt_same "$CONFIGS/dram-stream.cfg" "1us 9us" --set workload.requests=8000 \
		--set memory.dram.preset=DDR5-4800 || return 1
	ckpt_same "$CONFIGS/dram-stream.cfg" "3us 8500ns" --set workload.requests=6000 \
		--set workload.pattern=random --set memory.dram.page=closed --set memory.dram.ranks=2
}

# Requests of several lines through the DCOH into the detailed DRAM (queues
# of 4: parts wait and are held), and into the simple model.
test_ckpt_requests_of_several_lines() {
	ml_cfg '{ dram = { preset = "DDR4-3200"; channels = 2; queue = 4; };
             dcoh = { entries = 64; policy = "lru"; }; }'
	ckpt_same "$PWD/ml.cfg" "5us 40us 90us" || return 1
	ml_cfg '{ dcoh = { entries = 64; policy = "lru"; }; }'
	ckpt_same "$PWD/ml.cfg" "5us 40us"
}

# The snoop filter under every victim policy (sf-policy.cfg, simple DRAM).
test_ckpt_sf_policies() {
	local p
	for p in fifo lru lfi lifo mru; do
		ckpt_same "$CONFIGS/sf-policy.cfg" "30us 150us" --set workload.requests=24000 \
			--set memory.dcoh.policy=$p || return 1
	done
}

# ESF's fig. 13 (every policy, DDR4 behind the DCOH).
test_ckpt_esf_fig13() {
	local p
	for p in fifo lru lfi lifo mru; do
		ckpt_same "$CONFIGS/esf/fig13-$p.cfg" "2us 7us" --set workload.requests=4000 || return 1
	done
}

# Burst invalidation (InvBlk group records and heaps), and the 8-way filter of fig. 14.
test_ckpt_invblk() {
	local n
	for n in 1 2 4; do
		ckpt_same "$CONFIGS/invblk.cfg" "50us 200us" --set workload.requests=8000 \
			--set memory.dcoh.invblk_max=$n || return 1
	done
	for n in 0 3; do
		ckpt_same "$CONFIGS/esf/fig14-burst$n.cfg" "10us 40us" --set workload.requests=3000 || return 1
	done
}

# A multi-headed pooled device (DDR5): responses per head, credits per port.
test_ckpt_pooled_memory() {
	ckpt_same "$CONFIGS/pooled-memory.cfg" "5us 30us" --set workload.requests=3000
}

# The device: PIO (held BAR reads), DMA polled and by interrupt (the engine's
# ring, reads in flight), coherent Exclusive and Shared (directory, held
# loads, snoops).
test_ckpt_device() {
	local cfg=$CONFIGS/coherent-rpc.cfg
	ckpt_same "$cfg" "3us 300us" --set workload.rpc.transport=pio --set workload.rpc.count=30 \
		--set workload.rpc.sizes=64B,512B || return 1
	ckpt_same "$cfg" "3us 100us" --set workload.rpc.transport=dma --set workload.rpc.count=20 \
		--set workload.rpc.dma_setup=0ps --set workload.rpc.sizes=8B,4KiB || return 1
	ckpt_same "$cfg" "4us 60us" --set workload.rpc.transport=dma --set workload.rpc.count=20 \
		--set workload.rpc.dma_setup=0ps --set workload.rpc.completion=interrupt || return 1
	ckpt_same "$cfg" "2us 100us" --set workload.rpc.transport=coherent --set workload.rpc.device=1 \
		--set workload.rpc.count=30 --set workload.rpc.sizes=64B,512B || return 1
	ckpt_same "$cfg" "2us 20us" --set workload.rpc.transport=coherent --set workload.rpc.device=1 \
		--set workload.rpc.count=30 --set device.coherent.grant=shared
}
