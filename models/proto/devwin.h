/*
 * models/proto/devwin.h - the device window: the addresses at which hosts
 * reach compute devices (models/device/), apart from the pooled memory.
 *
 * Addresses below CXL_DEV_BASE are memory: interleaved over the memory
 * devices a requester reaches (workload.interleave).  From CXL_DEV_BASE up,
 * each device a requester reaches (fab_view_devices(), PBR order) has
 * 2^CXL_DEV_SHIFT bytes: device k's window starts at
 * CXL_DEV_BASE + k << CXL_DEV_SHIFT.  The first half of a window is the
 * device's BAR (MMIO: uncacheable, PCIe semantics: reads are non-posted,
 * writes posted); the second half is memory the device homes (CXL.cache /
 * HDM-DB style: hosts cache its lines, the device keeps their directory).
 */
#ifndef CXL_MODELS_PROTO_DEVWIN_H
#define CXL_MODELS_PROTO_DEVWIN_H

#include <stdint.h>

#define CXL_DEV_BASE (UINT64_C(1) << 48) /* first address of the device window */
#define CXL_DEV_SHIFT 40                 /* bytes per device: 2^40 (1 TiB) */
#define CXL_DEV_MAX 256                  /* devices a requester can address */
#define CXL_DEV_HOMED (UINT64_C(1) << (CXL_DEV_SHIFT - 1)) /* offset of the homed half */

/* cxl_dev_is - is byte address @a in the device window? */
static inline int cxl_dev_is(uint64_t a)
{
	return a >= CXL_DEV_BASE;
}

/* cxl_dev_index - the device (index among those the requester reaches) of @a. */
static inline uint32_t cxl_dev_index(uint64_t a)
{
	return (uint32_t)((a - CXL_DEV_BASE) >> CXL_DEV_SHIFT);
}

/* cxl_dev_offset - offset of @a in its device's window. */
static inline uint64_t cxl_dev_offset(uint64_t a)
{
	return (a - CXL_DEV_BASE) & ((UINT64_C(1) << CXL_DEV_SHIFT) - 1);
}

/* cxl_dev_addr - the address of offset @off in device @k's window. */
static inline uint64_t cxl_dev_addr(uint32_t k, uint64_t off)
{
	return CXL_DEV_BASE + ((uint64_t)k << CXL_DEV_SHIFT) + off;
}

/* cxl_dev_homed - is offset @off in the homed (cacheable) half of a window? */
static inline int cxl_dev_homed(uint64_t off)
{
	return off >= CXL_DEV_HOMED;
}

#endif
