# test/integration/t_device.sh - devices that compute (models/device/): the
# three RPC transports of seed 004 with configs/coherent-rpc.cfg, their exact
# idle latencies computed here from the config's numbers, conservation, and
# byte-identical results on 1-4 ranks.

RPC_CFG=$CONFIGS/coherent-rpc.cfg

# ser BYTES MT LANES : serialisation in ps, 128b/130b (models/README.md's formula)
ser() { awk -v b="$1" -v mt="$2" -v l="$3" 'BEGIN { x = b * 8 * 1e6 * 130 / (mt * l * 128); y = int(x); if (y < x) y++; print y }'; }
# one_way BYTES FAR_MT FAR_LANES FAR_LATENCY_PS : rc0's two buses and the switch, no host latency
# (link 1 ns at each of the four port crossings, host bus gen 5 x16 latency 1 ns,
# switch 2 ns, the far bus; 20 header bytes per packet)
one_way() {
	echo $(( 4000 + $(ser $(($1 + 20)) 32000 16) + 1000 + 2000 + $(ser $(($1 + 20)) "$2" "$3") + $4 ))
}

# rpc_run DIR TRANSPORT ARGS... : one host calling over TRANSPORT
rpc_run() {
	local d=$1 t=$2 dev=0; shift 2
	[ "$t" = coherent ] && dev=1
	cxl 1 -q "$RPC_CFG" --set workload.rpc.transport="$t" --set workload.rpc.device=$dev "$@" -o "$d"
}

# mark_stat DIR CLASS FIELD : host0's mark_CLASS_ps.FIELD
mark_stat() { comp_stat "$1" host0 "mark_$2_ps.$3"; }

# device_drained DIR [CORES] : every request answered, every credit home (conserved(),
# for one process per host), and every device holds nothing and got its DMA answers
device_drained() {
	local d=$1 issued completed
	issued=$(json_num "$d/stats.json" issued)
	completed=$(json_num "$d/stats.json" completed)
	[ "$issued" = "$completed" ] || fail "$d: completed $completed of $issued" || return 1
	[ "${2:-1}" != 1 ] || conserved "$d" "$issued" || return 1
	for dv in pcie0 eci0; do
		expect_stat "$d" $dv responses_waiting 0 || return 1
		[ "$(comp_stat "$d" $dv credits_held)" = 192 ] || fail "$d: $dv holds $(comp_stat "$d" $dv credits_held) credits, 6 x 32 granted" || return 1
		expect_stat "$d" $dv held_at_end 0 || return 1
		expect_stat "$d" $dv dma_busy_at_end 0 || return 1
		local a r w
		a=$(comp_stat "$d" $dv dma_answers); r=$(comp_stat "$d" $dv dma_reads); w=$(comp_stat "$d" $dv dma_writes)
		[ "${a:-0}" = $(( ${r:-0} + ${w:-0} )) ] || fail "$d: $dv answered $a of $r + $w DMA requests" || return 1
	done
}

# A PCIe PIO read of 64 B is 4 non-posted reads of host.mmio_read = 16 B, one
# at a time: 4 round trips, each host latency 10 ns + request + device.latency
# 20 ns + 16-byte completion over the Gen 3 x8 link (480 ns).
test_pio_read_of_64_bytes_is_four_round_trips() {
	cxl 1 -q "$RPC_CFG" --set workload.pattern=program \
		--set 'workload.program=uc_load 0x1000000000000 64,uc_load 0x1000000000000 16' -o a || return 1
	local rt=$(( 10000 + $(one_way 0 8000 8 480000) + 20000 + $(one_way 16 8000 8 480000) ))
	[ "$(comp_stat a host0 op_uc_load_ps.min)" = "$rt" ] || fail "16 B read: $(comp_stat a host0 op_uc_load_ps.min) ps, expected $rt" || return 1
	[ "$(comp_stat a host0 op_uc_load_ps.max)" = $((4 * rt)) ] || fail "64 B read: $(comp_stat a host0 op_uc_load_ps.max) ps, expected $((4 * rt))" || return 1
	expect_stat a pcie0 bar_reads 5 && expect_stat a pcie0 bar_read_bytes 80
}

# The coherent null RPC (the request line held Exclusive from the call before):
# store hit (host.cache.latency 12 ns), load -> directory 300 ns -> BISnp ->
# BIRsp with the dirty request line (host latency 10 ns) -> reply line: two
# coherent round trips over the ECI-like link (gen 4 x16, 140 ns) plus processing.
# Granted Shared, the next call's store asks for ownership first: one round trip more.
test_coherent_null_rpc_is_two_round_trips_plus_processing() {
	rpc_run a coherent --set workload.rpc.sizes=8B || return 1
	local req=$(one_way 0 16000 16 140000) data=$(one_way 64 16000 16 140000)
	local want=$(( 12000 + 10000 + req + 300000 + req + 10000 + data + data ))
	[ "$(mark_stat a rpc_8B p50)" = "$want" ] || fail "exclusive: $(mark_stat a rpc_8B p50) ps, expected $want" || return 1
	[ "$(mark_stat a rpc_8B max)" = "$want" ] || fail "exclusive: not every call took $want ps" || return 1
	expect_stat a eci0 coh_snoops 110 && expect_stat a eci0 coh_grants 1 || return 1
	rpc_run b coherent --set workload.rpc.sizes=8B --set device.coherent.grant=shared || return 1
	local shared=$(( want - 12000 + 10000 + req + 300000 + data ))
	[ "$(mark_stat b rpc_8B p50)" = "$shared" ] || fail "shared: $(mark_stat b rpc_8B p50) ps, expected $shared" || return 1
	expect_stat b eci0 coh_grants 110 && device_drained a && device_drained b
}

# A null DMA call (8 bytes each way, no driver time), to the picosecond: the
# host writes the request (8 B) and the descriptor (a line) to host memory -
# both on DRAM channel 0, so the second waits one channel slot - and fences;
# rings the doorbell (posted, 8 B); the engine, device.latency later, fetches
# the descriptor and reads the request (two round trips to host memory),
# computes (0 cycles) and writes the reply and the completion record (posted,
# the completion serialised behind the reply on the PCIe link); the host
# polls the completion line back to back from the doorbell on (its first
# poll leaves behind the doorbell on the host link) until a poll reaches the
# memory after the completion did, then reads the reply (a line).  With
# workload.rpc.completion = interrupt the device sends an MSI behind the
# completion record instead, the handler takes host.irq_latency (1 us), and
# the host reads the reply.  The first call of a run (an idle system);
# later calls of a back-to-back run take 2.246 ns more (not derived here).
# host0 - rc0 - hmem0: Gen 5 x16, 1 ns buses; rc0 - pcie0: Gen 3 x8, 480 ns;
# host memory: controller 40 ns, a channel's 64 B in 2.5 ns, DRAM 40 ns.
test_null_dma_is_fetch_read_write_and_poll() {
	local one=(--set workload.rpc.sizes=8B --set workload.rpc.dma_setup=0ps --set workload.rpc.count=1
		   --set workload.rpc.warmup=0)
	rpc_run a dma "${one[@]}" || return 1
	rpc_run i dma "${one[@]}" --set workload.rpc.completion=interrupt || return 1
	local H=10000 D=20000 MEM=$(( 40000 + 2500 + 40000 )) CH=2500
	ow() { one_way "$1" 32000 16 1000; }       # host0 <-> hmem0
	owp() { one_way "$1" 8000 8 480000; }      # pcie0 <-> host0 or hmem0
	local fenced=$(( H + $(ow 8) + MEM + CH + $(ow 0) ))
	local fetch=$(( $(owp 0) + MEM + $(owp 64) )) line=$(ser 84 8000 8)
	local written=$(( fenced + H + $(owp 8) + D + 2 * fetch ))   # the reply leaves the device
	local completion=$(( written + line + $(owp 64) ))
	local poll=$(( fenced + H + $(ser 28 32000 16) + $(ow 0) )) rt=$(( H + $(ow 0) + MEM + $(ow 64) )) n=1
	while [ "$poll" -lt "$completion" ]; do poll=$(( poll + rt )); n=$((n + 1)); done
	local read_reply=$(( H + $(ow 0) + MEM + $(ow 64) ))
	local want=$(( poll + MEM + $(ow 64) + read_reply ))
	[ "$(mark_stat a rpc_8B max)" = "$want" ] ||
		fail "null DMA $(mark_stat a rpc_8B max) ps, expected $want ($n polls)" || return 1
	expect_stat a host0 polls $n || return 1
	want=$(( written + 2 * line + $(owp 0) + 1000000 + read_reply ))
	[ "$(mark_stat i rpc_8B max)" = "$want" ] ||
		fail "null DMA by interrupt $(mark_stat i rpc_8B max) ps, expected $want" || return 1
	expect_stat i host0 polls 0 && expect_stat i host0 irqs 1 && expect_stat i pcie0 dma_irqs 1 || return 1
	for d in a i; do
		expect_stat $d pcie0 dma_reads 2 && expect_stat $d pcie0 dma_writes 2 || return 1
		expect_stat $d pcie0 dma_rpcs 1 && expect_stat $d pcie0 bar_writes 1 || return 1
		device_drained $d || return 1
	done
}

# The preset's shapes (seed 004): PIO over PCIe grows with every 16 bytes read,
# coherent PIO with every line, DMA stays near its set-up to 4 KiB; PCIe PIO
# beats DMA only at small payloads, coherent PIO up to a few KiB.
test_transport_crossovers() {
	local sizes="8B,16B,64B,512B,1KiB,2KiB,4KiB,8KiB"
	for t in pio dma coherent; do
		rpc_run $t $t --set workload.rpc.sizes=$sizes --set workload.rpc.count=3 --set workload.rpc.warmup=1 || return 1
		device_drained $t || return 1
	done
	lt() { [ "$(mark_stat $1 rpc_$3 p50)" -lt "$(mark_stat $2 rpc_$3 p50)" ]; }
	lt pio dma 512B || fail "PCIe PIO not below DMA at 512 B" || return 1
	lt dma pio 1KiB || fail "DMA not below PCIe PIO at 1 KiB" || return 1
	lt coherent dma 2KiB || fail "coherent not below DMA at 2 KiB" || return 1
	lt dma coherent 4KiB || fail "DMA not below coherent at 4 KiB" || return 1
	local d8 d4
	d8=$(mark_stat dma rpc_8B p50); d4=$(mark_stat dma rpc_4KiB p50)
	[ $(( (d4 - d8) * 10 )) -lt "$d8" ] || fail "DMA 8 B $d8 ps -> 4 KiB $d4 ps: not flat within 10%"
}

# Four hosts (PIO, DMA polling, coherent, DMA by interrupt), 2 processes each,
# a few sizes: byte-identical
# on 1-4 ranks (one run per rank count: mpirun's start-up is most of the cost).
rpc_ranks() { # rpc_ranks N
	cxl "$1" -q "$RPC_CFG" \
		--set 'topology.custom.nodes=host0 host,host1 host,host2 host,host3 host,rc0 switch,hmem0 memory,pcie0 device,eci0 device' \
		--set 'topology.custom.links=host0 rc0,host1 rc0,host2 rc0,host3 rc0,rc0 hmem0,rc0 pcie0,rc0 eci0' \
		--set 'workload[host1].rpc.transport=dma' --set 'workload[host2].rpc.transport=coherent' \
		--set 'workload[host3].rpc.transport=dma' --set 'workload[host3].rpc.completion=interrupt' \
		--set 'workload[host2].rpc.device=1' --set host.cores=2 \
		--set workload.rpc.sizes=8B,256B,4KiB --set workload.rpc.count=4 -o "r-$1" || return 1
	[ "$1" = 1 ] || [ "$(results "r-$1/stats.json")" = "$(results r-1/stats.json)" ] ||
		fail "$1 ranks differ from 1"
}
test_rpc_identical_on_1_to_4_ranks() {
	each_rank_count rpc_ranks || return 1
	device_drained r-1 2 || return 1
	for h in host0 host1 host2 host3; do
		[ "$(comp_stat r-1 $h mark_rpc_4KiB_ps.count)" = 8 ] || fail "$h: $(comp_stat r-1 $h mark_rpc_4KiB_ps.count) calls of 4 KiB measured, expected 2 x 4" || return 1
	done
	expect_stat r-1 pcie0 pio_rpcs 84 && expect_stat r-1 pcie0 dma_rpcs 168 || return 1
	expect_stat r-1 pcie0 dma_irqs 84 && expect_stat r-1 host3 irqs 84 && expect_stat r-1 host1 irqs 0
}

test_rpc_errors() {
	expect_error 1 ".*workload.rpc.device: device 2: the host reaches 2 devices" \
		"$RPC_CFG" --set workload.rpc.device=2 || return 1
	expect_error 1 ".*workload.rpc.transport: coherent calls go through the host's cache" \
		"$RPC_CFG" --set workload.rpc.transport=coherent --set host.cache.size=0 || return 1
	expect_error 1 ".*workload.rpc.sizes: \"32KiB\": a payload is 1 B to 16 KiB" \
		"$RPC_CFG" --set workload.rpc.sizes=32KiB || return 1
	expect_error 1 ".*workload.rpc.completion: bad choice \"irq\" \(expected one of poll\|interrupt\)" \
		"$RPC_CFG" --set workload.rpc.completion=irq || return 1
	expect_error 1 ".*operation 1 \`wait_irq 70000\`: expected \`wait_irq VALUE\` \(VALUE 0-65535\)" \
		"$RPC_CFG" --set workload.pattern=program --set 'workload.program=wait_irq 70000' || return 1
	expect_error 1 ".*operation 1 \`wait_irq 1\`: the host reaches no device that could interrupt it" \
		"$CONFIGS/cmpi-pool.cfg" --set workload.pattern=program --set 'workload.program=wait_irq 1'
}
