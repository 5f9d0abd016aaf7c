/*
 * models/device/dev.h - a device that computes: a PCIe/CXL endpoint serving
 * remote procedure calls (RPCs) from host processes in three ways (seed 004):
 *
 *   pio       programmed I/O over PCIe: the host writes the request into
 *             the device's BAR (posted writes) and rings the PIO doorbell;
 *             the device computes; the host reads the reply from the BAR
 *             (non-posted reads, host.mmio_read bytes each, one at a time).
 *   dma       descriptor DMA: the host writes the request and a descriptor
 *             to its own memory and rings the DMA doorbell; the device's
 *             DMA engine fetches the descriptor, reads the request, computes,
 *             writes the reply and a completion record to host memory; the
 *             host polls the completion and reads the reply, or (the
 *             interrupt doorbell) waits for the device's MSI that follows
 *             the completion record.
 *   coherent  PIO over a coherent link, device-homed lines: per 64-byte line
 *             of payload the host stores the request line (in its cache) and
 *             loads the reply line; the device holds that load, takes the
 *             request line back from the host (BISnp), computes and returns
 *             the reply line Exclusive or Shared (device.coherent.grant):
 *             two coherent round trips.
 *
 * The layout both sides agree on (offsets in the device's window, devwin.h;
 * host memory for DMA) is per RPC slot: one slot per host process, slot
 * numbers given by the host.  The reply of an RPC sits in the area of its
 * sequence number's parity, so a read that overtook its doorbell is held,
 * never answered with the previous RPC's reply.
 */
#ifndef CXL_MODELS_DEVICE_DEV_H
#define CXL_MODELS_DEVICE_DEV_H

#include <stdint.h>

#include "core/cfg.h"
#include "core/sim.h"
#include "models/proto/devwin.h"

#define DEV_SLOT_BYTES (UINT64_C(64) << 10) /* bytes of one RPC slot, BAR and homed */
#define DEV_AREA_BYTES (UINT64_C(16) << 10) /* request or reply area: the largest payload */

/* BAR offsets within a slot (PIO): the request, the replies by parity, doorbells */
#define DEV_BAR_REQ 0
#define DEV_BAR_REPLY(parity) (DEV_AREA_BYTES * (1 + (parity)))
#define DEV_BAR_BELL_PIO (3 * DEV_AREA_BYTES)      /* posted write, aux = request bytes */
#define DEV_BAR_BELL_DMA (3 * DEV_AREA_BYTES + 64) /* posted write, aux = request bytes */
/* the same, and the completion is also signalled by an interrupt: an MSI to the
 * slot's host with the slot as its vector (CXL_OP_MSI) after the completion record */
#define DEV_BAR_BELL_DMA_IRQ (3 * DEV_AREA_BYTES + 128)

/* Homed offsets within a slot (coherent): two areas of lines, used in turn */
#define DEV_HOMED_AREA(a) (DEV_AREA_BYTES * (a))

/* Host memory of a slot (DMA), from workload.rpc.dma_base + slot x DEV_SLOT_BYTES */
#define DEV_DMA_DESC 0                       /* the descriptor: one line */
#define DEV_DMA_DONE 256                     /* the completion record: a flag line */
#define DEV_DMA_REQ DEV_AREA_BYTES           /* the request buffer */
#define DEV_DMA_REPLY (2 * DEV_AREA_BYTES)   /* the reply buffer */

/* dev_bar_addr - address of BAR offset @off of slot @slot of device @k. */
static inline uint64_t dev_bar_addr(uint32_t k, uint32_t slot, uint64_t off)
{
	return cxl_dev_addr(k, (uint64_t)slot * DEV_SLOT_BYTES + off);
}

/* dev_homed_addr - address of homed offset @off of slot @slot of device @k. */
static inline uint64_t dev_homed_addr(uint32_t k, uint32_t slot, uint64_t off)
{
	return cxl_dev_addr(k, CXL_DEV_HOMED + (uint64_t)slot * DEV_SLOT_BYTES + off);
}

extern const model_ops cxl_device_ops;
extern const cfg_schema cxl_device_schema;

#endif
