# t_ckpt_link.sh - checkpoint/restart of the buses and switches
# (models/link/bus_ckpt.c, models/switch/switch_ckpt.c): each config runs
# whole, checkpointed on 2 ranks at several cuts (before, during and late
# in the traffic), and restarted from each on 1 and 3 ranks (ckpt_same,
# lib.sh): the results must be byte-identical.  The configs cover what the
# hooks restore: full and half duplex, sending ahead on and off (bus.latency
# 0), forwarding ahead on and off (switch.latency 0, adaptive routing,
# slices), cut-through, the data-link layer (replay buffer, refusals, bit
# errors, ACK timer), the ESF bus options; and a checkpoint restarted into
# a config of another shape is one error naming the bus or switch.
# Needs every model of these configs to have its hook (host, memory:
# branches ckpt-host, ckpt-mem); without them --checkpoint-at is refused.

# The ring ends near 79 us, spine_leaf near 75 us (2000 requests per host).
test_ring_restart() { ckpt_same "$CONFIGS/ring.cfg" "300ns 20us 60us"; }
test_spine_leaf_restart() { ckpt_same "$CONFIGS/spine_leaf.cfg" "5us 40us"; }

test_half_duplex_restart() {
	ckpt_same "$CONFIGS/ring.cfg" "10us 50us" --set bus.duplex=half
}

# No sending ahead (bus.latency 0) nor forwarding ahead (switch.latency 0):
# every transmitter end and every ready packet is an event at the cut.
test_plain_paths_restart() {
	ckpt_same "$CONFIGS/spine_leaf.cfg" "10us 30us" --set bus.latency=0ns --set switch.latency=0ns
}

test_adaptive_routing_restart() {
	ckpt_same "$CONFIGS/spine_leaf.cfg" "10us 45us" --set switch.routing=adaptive
}

test_cut_through_restart() {
	ckpt_same "$CONFIGS/spine_leaf.cfg" "10us 45us" --set switch.forwarding=cut_through
}

test_sliced_switches_restart() {
	ckpt_same "$CONFIGS/spine_leaf.cfg" "10us 45us" --set switch.slices=3
}
test_sliced_adaptive_restart() {
	ckpt_same "$CONFIGS/spine_leaf.cfg" "20us" --set switch.slices=2 --set switch.routing=adaptive
}

# The seed's PCIe link (replay buffer 4, refuse-on-full: refusals, timeouts,
# replays), 4000 requests: ends near 0.7 ms; then with bit errors (NAKs),
# half duplex and immediate ACKs.
test_pcie_replay_restart() {
	ckpt_same "$CONFIGS/pcie-replay.cfg" "2us 150us 500us" --set workload.requests=4000
}
test_pcie_replay_errors_half_duplex_restart() {
	ckpt_same "$CONFIGS/pcie-replay.cfg" "100us 600us" --set workload.requests=4000 \
		--set bus.error_rate=0.02 --set bus.duplex=half --set bus.ack_timer=1ps
}

test_replay_errors_on_a_fabric_restart() {
	ckpt_same "$CONFIGS/spine_leaf.cfg" "8us 30us" --set bus.replay_buffer=3 \
		--set bus.error_rate=0.01 --set workload.requests=600
}

# ESF's half-duplex drain and doubled write turns, framed wires (ends near
# 520 us); the 16-node ring's trunks with ESF framing, fewer requests.
test_esf_half_restart() {
	ckpt_same "$CONFIGS/esf/fig1516-half.cfg" "40us 300us" --set workload.read_ratio=0.5
}
test_esf_ring_restart() {
	ckpt_same "$CONFIGS/esf/fig10-ring-16.cfg" "5us 20us" --set workload.requests=400
}

# A checkpoint restarted into a config of another shape is refused, named.
test_restart_into_another_shape_is_refused() {
	cxl 1 "$CONFIGS/ring.cfg" -q --checkpoint-at 20us -o src > /dev/null || return 1
	rm -rf c; cp -r src/checkpoint-20000000ps c
	sed -i '/^bus = {/,/^}/ s/# buffer = 32;.*/buffer = 7;/' c/config.cfg
	expect_error 1 "c: component [a-z0-9-]+ does not restore: bus\.buffer is 32 in the checkpoint, 7 now" --restart c || return 1
	rm -rf c; cp -r src/checkpoint-20000000ps c
	sed -i '/^switch = {/,/^}/ s/# buffer = 32;.*/buffer = 9;/' c/config.cfg
	expect_error 1 "c: component [a-z0-9:-]+ does not restore: switch\.buffer is 32 in the checkpoint, 9 now" --restart c
}

# Back-pressure: slow one-packet buses behind the switches, reads and writes
# mixed, so switch outputs wait with lists of FIFOs (round-robin order) and
# buses hold several VCs at once (their round-robin VC) at the cuts.
test_backpressure_restart() {
	ckpt_same "$CONFIGS/spine_leaf.cfg" "5us 20us 60us" --set bus.gen=1 --set bus.lanes=1 \
		--set bus.buffer=1 --set workload.read_ratio=0.5 --set workload.requests=300
}
