/* cudafilters: the scheduler's state, shared by scheduler.c (the queue:
 * submit, receive, back-pressure, drain, flush) and scheduler_run.c (one
 * frame's work on the GPU or the CPU). Library-internal. */
#ifndef CUDAFILTERS_SCHEDULER_INTERNAL_H
#define CUDAFILTERS_SCHEDULER_INTERNAL_H

#include <glib.h>

#include "context.h"
#include "cudafilters/pool.h"
#include "cudafilters/scheduler.h"

/* One frame in flight and what is kept for its place in the ring: events
 * and staging frames are made once and reused by every frame that takes
 * the slot. */
typedef struct cf_sched_slot {
    void *token;
    int64_t sequence;
    cf_status status;       /* the frame's own failure, CF_OK so far */
    char *message;          /* its message (g_strdup), NULL when none */
    cf_frame src, dst;      /* copies of the caller's structs; dst is the result */
    cf_frame_pool *dst_pool;/* when dst came from the scheduler's pool, that pool */
    bool on_gpu;            /* GPU work was queued: it ends at `done` */
    cf_event up_done;       /* the upload of src into stage_in */
    cf_event kernels_done;  /* the chain, before the download */
    cf_event done;          /* the last of the frame's GPU work */
    cf_frame stage_in;      /* device copy of a host src */
    cf_frame stage_pinned;  /* pinned copy of a pageable src, for an asynchronous upload */
    cf_frame stage_out;     /* device result of the chain, for a host dst */
    cf_event wait;          /* the caller's: the GPU waits for it before reading src */
    cf_event signal;        /* the caller's: recorded after the frame's work */
} cf_sched_slot;

struct cf_scheduler {
    char *name;
    cf_filter *filters[CF_SCHEDULER_MAX_FILTERS];
    int n_filters;
    cf_format formats[CF_SCHEDULER_MAX_FILTERS];
    bool have_formats;
    int depth;
    bool gpu;
    cf_scheduler_output output;
    void (*drop)(void *token, void *user_data);
    void *user_data;

    /* GPU: the context everything belongs to, and the three streams. */
    cf_cuda_context ctx;
    cf_stream up, kernels, down;

    /* Intermediate results between filters: one set, since every frame's
     * kernels run in turn on `kernels` (GPU) or inside submit (CPU). */
    cf_frame mid[CF_SCHEDULER_MAX_FILTERS];
    cf_frame_pool *out_pool; /* results when submit gets no dst; replaced on a new shape */
    int frames_allocated;    /* stage, mid and pool frames made (the pools' counted too) */
    int retired_pool_frames; /* frames of pools replaced since */

    GMutex lock;
    GCond cond;              /* slots freed, frames submitted, flushing or drain changed */
    cf_sched_slot slots[CF_SCHEDULER_MAX_DEPTH];
    GQueue free_slots;       /* cf_sched_slot * */
    GQueue in_flight;        /* cf_sched_slot *, oldest first */
    bool flushing, drained, receiving;
    int64_t next_sequence;
};

/* Runs (CPU) or queues (GPU) the work of the frame in `slot` (src and, if
 * the caller gave one, dst filled in; dst.format is CF_FORMAT_UNKNOWN when
 * not). Returns the frame's failure, or CF_OK with slot->dst the result and
 * slot->on_gpu set when work was queued. On failure no work of the frame is
 * left running. Called from submit, without the lock, with the context
 * current on the GPU. */
cf_status cf_sched_run(cf_scheduler *s, cf_sched_slot *slot);

/* Frees what a slot keeps (events, staging frames), context current. */
void cf_sched_slot_free(cf_sched_slot *slot);

/* Profiler ranges (NVTX) around one step of one frame, named
 * "<scheduler> #<sequence> <step>"; nothing is formatted when no profiler
 * is attached. */
void cf_sched_trace_push(const cf_scheduler *s, int64_t sequence, const char *step);
void cf_sched_trace_pop(void);

#endif
