/*
 * models/switch/switch_int.h - the switch's state, shared by its files
 * (switch.c: the model; switch_ckpt.c: its checkpoint hook).  Nothing here
 * is for other models: they include switch.h only.
 *
 * Index conventions: a FIFO q = port * CXL_NVC + vc; per-port arrays are
 * indexed by the component's local port (a slice's internal ports follow
 * its external ones, from next_ext on).  The per-output lists of FIFOs
 * (lhead, ltail, next, llen) hold indexes, never pointers, and the todo
 * stack is empty between events.
 */
#ifndef CXL_MODELS_SWITCH_INT_H
#define CXL_MODELS_SWITCH_INT_H

#include <stdint.h>

#include "core/sim.h"
#include "models/fabric/fab_view.h"
#include "models/proto/cxl_fc.h"
#include "models/proto/cxl_proto.h"
#include "models/proto/evring.h"

/*
 * What forwarding reads and writes of one output port, together: one cache
 * line per port (xcalloc_lines), where eight arrays took up to eight.
 */
typedef struct sw_port sw_port;
struct sw_port {
	cxl_credits cr;         /* credits towards the bus on that port */
	uint32_t load;          /* ready packets routed to that output */
	uint32_t pipe_out;      /* packets in the pipeline (not forwarded ahead) bound for
				   that output (forwarding ahead only) */
	uint32_t lhead;         /* first FIFO whose head routes there, NONE */
	uint32_t ltail;         /* last FIFO of that list */
	uint32_t llen;          /* FIFOs in that list */
	uint8_t queued;         /* on the todo stack */
	uint64_t *pkts;         /* stat p<p>_pkts */
	uint64_t *maxw;         /* stat p<p>_max_waiting */
};

_Static_assert(sizeof(sw_port) == 64, "one output port, one cache line");

typedef struct sw sw;
struct sw {
	const fab_route *route; /* routing tables */
	uint32_t swi;           /* this switch's index in the tables */
	uint32_t nports;        /* ports of this component */
	uint32_t slices;        /* components the switch is split into (1: whole) */
	uint32_t slice;         /* this component's slice */
	uint32_t gports;        /* ports of the whole switch */
	uint32_t next_ext;      /* external ports of this slice; internal ones follow */
	uint32_t nq;            /* input FIFOs: nports x CXL_NVC */
	uint32_t buf;           /* FIFO capacity = credits granted per port and VC */
	sim_time latency;       /* switching latency, ps */
	int adaptive;           /* 1: adaptive routing */
	sw_port *pt;            /* [port] the output ports */
	evring *in;             /* [port * CXL_NVC + vc] ready packets */
	uint16_t *out;          /* [fifo * buf + slot] output port of that slot's packet */
	uint32_t *next;         /* [fifo] next FIFO in its output's list */
	uint16_t *todo;         /* outputs to try (stack) */
	uint32_t ntodo;         /* todo entries */
	uint32_t held;          /* packets in the switch (pipeline + FIFOs) */
	cxl_event **slots;      /* storage of the FIFOs */
	uint64_t *pkts, *queue_ps, *max_occ, *held_end, *credits_end;
	uint64_t **port_queue;  /* [port] stat p<p>_queue_ps */
	series **ts_wait;       /* [port] time series p<p>_waiting_ps: packets waiting for
				   that output x ps; NULL: sampling off */
	series **ts_pkts;       /* [port] time series p<p>_pkts: packets it forwarded */
	/* forwarding ahead (s->ahead: see "Forwarding in the arrival event" above) */
	int ahead;              /* 1: a packet may be forwarded in its arrival event */
	sim_time stop;          /* sim_stop_time() */
	uint32_t *pipe_in;      /* [fifo] packets in the pipeline bound for that FIFO */
	sim_time *ends;         /* ring: the ready times of the packets forwarded ahead
				   still counted in `held`, ps */
	uint32_t ehead, en;     /* its first entry and entries */
	sim_time plain_at;      /* arrival time of the last packet not forwarded ahead, ps */
	int plain_any;          /* 1: there was one */
	unsigned phase;         /* ordering phase of the event being handled (PH_*) */
	sim_time ord_vt;        /* time of the last send's ordering number, ps */
	unsigned ord_phase;     /* its phase */
	uint64_t ord_sub;       /* sends so far with that time and phase */
	sim_time ahead_vt;      /* virtual time of the last send made ahead, ps */
	uint64_t ahead_sub;     /* sends made ahead with that virtual time so far */
	/* ESF-compatible port occupancy (switch.esf_port_busy; README "ESF-compatible") */
	int esf;                /* 1: each output port is busy `latency` per packet */
	sim_time *port_free;    /* [port] time that output is free again, ps (esf) */
	uint64_t **port_esf_wait; /* [port] stat p<p>_esf_wait_ps: time its packets
				     waited for the port to be free, ps (esf) */
	uint64_t **port_esf_busy; /* [port] stat p<p>_esf_busy_ps: time it was busy, ps */
	cxl_fc fc;              /* credits held for the buses (bus.credit_batch, cxl_fc.h) */
};

/*
 * sw__esf_start - ESF's output-port rule (ESF switch.hh Switch::sched): a
 * packet handed to an output at @now starts at max(@now, *@free) and holds
 * the port @delay, so *@free becomes start + @delay; it arrives at the
 * next component at start + @delay.  Returns the start, ps.  Packets are
 * handed over in event order (FIFO by hand-over time).
 */
sim_time sw__esf_start(sim_time *free, sim_time now, sim_time delay);

/* switch_ckpt.c: the model's checkpoint hook (model_ops.ckpt). */
void sw__ckpt(sim_comp *c, void *state, ckpt *k);

#endif
