/* cudafilters: profiler ranges for the scheduler (scheduler_internal.h).
 *
 * NVTX (the header-only nvtx3 of the CUDA toolkit) ranges in a domain of
 * our own, "cudafilters", so Nsight Systems shows each frame's upload,
 * filters and download on the submitting thread's timeline, next to the
 * CUDA calls and the GPU work they queued. A profiler announces itself
 * through NVTX_INJECTION64_PATH; without it no name is formatted and the
 * NVTX calls are not made, so tracing costs one branch per step. */
#include <stdio.h>
#include <stdlib.h>

#include "scheduler_internal.h"

#ifdef CF_HAVE_CUDA
#include <nvtx3/nvToolsExt.h>

static gsize trace_state; /* 0: not decided; 1: off; 2: on */
static nvtxDomainHandle_t domain;

static bool tracing(void)
{
    if (g_once_init_enter(&trace_state)) {
        bool on = getenv("NVTX_INJECTION64_PATH") != NULL;
        if (on)
            domain = nvtxDomainCreateA("cudafilters");
        g_once_init_leave(&trace_state, on ? 2 : 1);
    }
    return trace_state == 2;
}

void cf_sched_trace_push(const cf_scheduler *s, int64_t sequence, const char *step)
{
    if (!tracing())
        return;
    char name[160];
    snprintf(name, sizeof name, "%s #%" G_GINT64_FORMAT " %s", s->name, sequence, step);
    nvtxEventAttributes_t a = { 0 };
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name;
    nvtxDomainRangePushEx(domain, &a);
}

void cf_sched_trace_pop(void)
{
    if (tracing())
        nvtxDomainRangePop(domain);
}

#else

void cf_sched_trace_push(const cf_scheduler *s, int64_t sequence, const char *step)
{
    (void)s, (void)sequence, (void)step;
}
void cf_sched_trace_pop(void) {}

#endif
