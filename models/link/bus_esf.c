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
 * Both keys are read by bus.c (read_params), which rejects them with the
 * data-link layer (bus.replay_buffer > 0): replays keep PCIe's bytes.
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

/**
 * bus__wire_bytes - the wire bytes bus @b sends for a packet of @payload
 * bytes: header + payload by default, ESF's framing with bus.esf_frame.
 */
uint32_t bus__wire_bytes(const bus *b, uint32_t payload)
{
	if (!b->esf_frame)
		return b->header + payload;
	return bus_esf_wire_bytes(payload, b->esf_frame, b->esf_width);
}
