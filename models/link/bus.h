/*
 * models/link/bus.h - the bus model: one PCIe/CXL link as a component.
 *
 * A bus has exactly two ports (0: node A, 1: node B, joined by engine
 * links) and owns both directions of the wire, so half duplex and bus
 * turnaround can be modelled; the engine links carry the port-to-port
 * latency.  It speaks cxl_proto.h on both ports (credits per VC).  See
 * bus.c for the model itself: state, arbitration, statistics.
 *
 * This header exports the model table, its config schema (group "bus"),
 * the pure serialisation-time arithmetic, so that tests, the system
 * builder's summary and the README can quote the exact figures, and the
 * data bandwidth a bus's configuration gives (bus_data_GBps()), for
 * components that size their load by their link, and its max payload
 * (bus_max_payload()), by which requesters split uncacheable accesses.
 *
 * Serialisation time of a packet of @bytes on the wire (header + payload):
 *     ps = ceil(bytes * 8 * 10^6 * den / (MT/s * lanes * num))
 * where MT/s is the per-lane transfer rate of the generation
 * (2500, 5000, 8000, 16000, 32000, 64000 for gen 1..6) and num/den the
 * efficiency of the encoding (bus_efficiency()).  All integer: no overflow
 * for any 32-bit @bytes (2^32 * 8 * 10^6 * 80 < 2^64).
 *
 * Replay timer of the optional data-link layer (bus.replay_buffer > 0,
 * bus_replay.c), PCIe <= 3.x non-simplified form (link-reference §4):
 *     AckNak_LATENCY = floor((MPS + 28) * AckFactor / lanes) + InternalDelay
 *     REPLAY_TIMER   = 3 * AckNak_LATENCY                      symbol times
 * with MPS = 64 B (the data-path's cache line), AckFactor 1.4 (x1-x4),
 * 2.5 (x8), 3.0 (x12-x16) for MPS <= 256 B (1.0 / 2.0 from 512 B),
 * InternalDelay 19 / 70 / 115 symbol times at 2.5 / 5 / >= 8 GT/s, and a
 * symbol time = one byte on one lane including the line code (4 ns at
 * gen 1, 2 ns at gen 2, 1.015625 ns at gen 3).  The floor reproduces the
 * spec's Ack latency tables.  Flit mode has no such formula (its replay
 * schedule counts flits); there the default is 3 x the spec's
 * recommended Ack/Nak turnaround, 80/64/56/52/50 ns for x1/x2/x4/x8/x16.
 * Example: gen 2 x8: floor(92 * 2.5 / 8) + 70 = 98; x3 = 294 symbols =
 * 588 ns.
 */
#ifndef CXL_MODELS_BUS_H
#define CXL_MODELS_BUS_H

#include <stdint.h>

#include "core/cfg.h"
#include "core/sim.h"
#include "core/stime.h"

/* bus.encoding, in the order of its choices "auto|8b10b|128b130b|flit|none". */
enum bus_encoding {
	BUS_ENC_AUTO,     /* 8b/10b for gen 1-2, 128b/130b for gen 3-5, flit for gen 6 */
	BUS_ENC_8B10B,    /* 8b/10b line code, whatever the generation */
	BUS_ENC_128B130B, /* 128b/130b line code, whatever the generation */
	BUS_ENC_FLIT,     /* 256 B flits of 236 TLP bytes over the generation's own code */
	BUS_ENC_NONE,     /* no line code: 8 bits per byte (ESF-compatible, bus_esf.c) */
};

#define BUS_GEN_MAX 6       /* highest PCIe generation modelled (64 GT/s) */
#define BUS_FLIT_BYTES 256  /* bytes of a PCIe 6.x flit on the wire */
#define BUS_FLIT_TLP 236    /* TLP bytes a flit carries (the rest: DLP, CRC, FEC) */
#define BUS_DLLP_BYTES 8    /* an ACK/NAK DLLP on the wire: 6 B + 2 B framing (non-flit) */
#define BUS_TLP_OVERHEAD 28 /* "TLPOverhead" of the timer formulas, symbols */

/**
 * bus_esf_wire_bytes - ESF-compatible framing (bus_esf.c): the wire bytes
 * of a packet of @payload bytes, (floor(@payload / @frame) + 1) x @frame,
 * rounded up to a multiple of @width if @width > 0.  @frame must be > 0.
 */
uint32_t bus_esf_wire_bytes(uint32_t payload, uint32_t frame, uint32_t width);

/* The bus model ("bus") and its keys (schema "bus", keys bus.*). */
extern const model_ops cxl_bus_ops;
extern const cfg_schema cxl_bus_schema;

/**
 * bus_lane_mts - transfer rate of one lane of PCIe generation @gen, MT/s
 * (= GT/s x 1000): 2500, 5000, 8000, 16000, 32000, 64000 for gen 1..6.
 * Returns 0 for a generation outside 1..BUS_GEN_MAX.
 */
uint32_t bus_lane_mts(unsigned gen);

/**
 * bus_efficiency - the fraction of the raw bit rate that carries packet
 * bytes for generation @gen and encoding @enc, as @num / @den (reduced).
 * @num, @den: OUT
 * 8b/10b 4/5, 128b/130b 64/65, 1b/1b (gen 6 flit) 1/1; flit mode multiplies
 * the generation's own line code by 236/256 (59/64): 59/80 at gen 1-2,
 * 59/65 at gen 3-5, 59/64 at gen 6.  Explicit 8b10b / 128b130b apply that
 * code at any generation (what-if studies; gen 6 is flit-only in PCIe).
 */
void bus_efficiency(unsigned gen, enum bus_encoding enc, uint32_t *num, uint32_t *den);

/**
 * bus_ser_time - time to serialise @bytes (header + payload) on a link of
 * generation @gen (1..6), @lanes lanes (>= 1) and encoding @enc, in ps,
 * rounded up (the formula at the top of this file).
 * Example: gen 2, x1, auto (8b/10b), 84 B -> 168000 ps.
 * A generation outside 1..6 or 0 lanes is a programming error (panic).
 */
sim_time bus_ser_time(unsigned gen, unsigned lanes, enum bus_encoding enc, uint32_t bytes);

/**
 * bus_data_GBps - data bandwidth of one direction of the bus whose config
 * view is @cf (sim_cfg_of() of the bus, so its per-component overrides
 * apply): the rate of bus.gen x bus.lanes x the efficiency of
 * bus.encoding, in GB/s (10^9 bytes per second of packet bytes, headers
 * included).  Reads the keys with the same function as the bus's init.
 * Example: gen 5 x16, auto (128b/130b) -> 63.015... GB/s.
 */
double bus_data_GBps(const cfg *cf);

/**
 * bus_max_payload - bus.max_payload of the bus whose config view is @cf
 * (sim_cfg_of() of the bus, its overrides applied), in bytes: the largest
 * TLP payload (PCIe Max_Payload_Size) a requester on that link puts in one
 * uncacheable request, a power of two from 128 to 4096 (the bus's init
 * refuses any other value).  The bus's own timing does not depend on it:
 * its replay timer keeps the 64-byte payload of the formula above.
 * Example: the default -> 256.
 */
uint32_t bus_max_payload(const cfg *cf);

/**
 * bus_acknak_symbols - AckNak_LATENCY in symbol times for a max payload of
 * @mps bytes on @lanes lanes (>= 1, panics on 0) of generation @gen:
 * floor((@mps + 28) * AckFactor / @lanes) + InternalDelay, where the
 * internal delay is @internal_delay symbol times, or for -1 the spec's
 * value for the rate of @gen (19, 70, 115).
 * Example: 128 B, gen 2, x8 -> 48 + 70 = 118 (the spec's table value).
 */
uint32_t bus_acknak_symbols(uint32_t mps, unsigned gen, unsigned lanes, int internal_delay);

/**
 * bus_replay_timeout - the default replay timeout of a bus of generation
 * @gen (1..6), @lanes lanes (1..16) and encoding @enc, in ps (rounded up):
 * 3 x bus_acknak_symbols(64, ...) symbol times, or in flit mode 3 x the
 * Ack/Nak target (see the top of this file).  @internal_delay as above
 * (ignored in flit mode).  Example: gen 2 x8, -1 -> 588000 ps.
 */
sim_time bus_replay_timeout(unsigned gen, unsigned lanes, enum bus_encoding enc,
			    int internal_delay);

/**
 * bus_updatefc_latency - the default bus.credit_timer of a bus of
 * generation @gen, @lanes lanes and encoding @enc, in ps (rounded up): the
 * spec's UpdateFC latency for 64 B payloads, bus_acknak_symbols(64, ...)
 * symbol times (UpdateFactor = AckFactor), or in flit mode the Ack/Nak
 * target.  Example: gen 3 x1, -1 -> 243 symbols = 246797 ps.
 */
sim_time bus_updatefc_latency(unsigned gen, unsigned lanes, enum bus_encoding enc,
			      int internal_delay);

#endif
