/*
 * models/link/bus_esf.c - ESF-compatible bus framing (off by default).
 *
 * ESF (Xerxes, bus.hh: DuplexBus::transit, parameters frame_size, width,
 * delay_per_T, framing_time) charges a packet of P payload bytes
 *     frames = floor((P + frame_size) / frame_size)
 *     busy   = ceil(frames x frame_size / width) x delay_per_T
 * on the bus, and adds framing_time to its latency only.  Our default is
 * PCIe's: header_bytes + P wire bytes at the line rate (bus.c).  Two keys
 * express ESF's rule with this bus:
 *   bus.esf_frame  > 0: the wire bytes of a packet are
 *                  (floor(P / esf_frame) + 1) x esf_frame, instead of
 *                  header_bytes + P (a header-only packet costs one frame);
 *   bus.esf_width  > 0: the wire bytes are then rounded up to a multiple
 *                  of esf_width (ESF's whole transfers of `width` bits).
 * With bus.encoding = none and gen x lanes giving width bits per
 * delay_per_T (gen 4, 16 GT/s: ESF width 256 bit at 1 ns = x16, 64 bit =
 * x4), the serialisation is ESF's to the picosecond; framing_time is
 * bus.latency (propagation after serialisation, i.e. latency only).
 *
 * Why not the default: a frame quantum of 256 B makes a 0-byte read
 * request cost as much wire time as a 64-byte data response, which no
 * PCIe/CXL link does (flits are shared by several TLPs; non-flit TLPs
 * cost their own bytes), and ESF's whole-transfer rounding adds up to
 * one transfer per packet.  The options exist to cross-validate against
 * ESF's artifact (configs/esf/), not to model hardware.
 *
 *
 * Half duplex (ESF bus.hh reverse_time, half_rev_time): ESF keeps one
 * timeline for both directions and charges half_rev_time when a packet's
 * direction differs from the one recorded around its arrival time, twice
 * that for a write (request or completion).  Its bookkeeping fills gaps of
 * the timeline out of time order, which under load groups packets of one
 * direction; our default half-duplex bus alternates packet by packet under
 * load in both directions (the worst case for turnaround, and fair).  Two
 * keys express ESF's rule:
 *   bus.esf_half_drain       keep sending in the current direction while
 *                            it has packets; turn only when it is empty
 *                            (bus_tx.c, bus__first_dir);
 *   bus.esf_write_turnaround a turn made to send a write (M2S RwD) or a
 *                            write's completion (S2M NDR) costs
 *                            2 x bus.turnaround (bus__esf_turn_extra).
 * Why not the default: draining one direction can hold the other back for
 * as long as packets keep coming (no fairness bound), and a turn costs
 * the same whatever the packet on a real link.
 *
 * The framing keys are read by bus.c (read_params), which rejects them
 * with the data-link layer (bus.replay_buffer > 0): replays keep PCIe's
 * bytes.
 */
#include "models/link/bus_int.h"

/**
 * bus_esf_wire_bytes - the wire bytes of a packet of @payload bytes under
 * ESF's framing (bus.h): (floor(@payload / @frame) + 1) x @frame, rounded
 * up to a multiple of @width when @width > 0.  @frame must be > 0.
 */
uint32_t bus_esf_wire_bytes(uint32_t payload, uint32_t frame, uint32_t width)
{
	uint64_t w;

	CXL_ASSERT(frame > 0);
	w = ((uint64_t)payload / frame + 1) * frame;
	if (width)
		w = (w + width - 1) / width * width;
	CXL_ASSERT(w <= UINT32_MAX);
	return (uint32_t)w;
}
