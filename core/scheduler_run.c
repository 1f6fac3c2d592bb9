/* cudafilters: one frame's work for the scheduler (scheduler_internal.h).
 *
 * GPU: a host input is copied into the slot's device frame on the upload
 * stream; the kernels stream waits for that copy (an event, not the host),
 * runs the chain, and for a host output the download stream waits for the
 * kernels and copies the result out. Three streams, so the upload of one
 * frame, the kernels of the one before and the download of the one before
 * that run at the same time (the H2D and D2H copy engines and the SMs).
 * The frame's last event ("done") tells receive when it is finished.
 * CPU: the chain runs here, in the submitting thread. */
#include <string.h>

#include "parallel.h"
#include "scheduler_internal.h"

/* Threads that copy a pageable frame into pinned memory: a handful reach
 * the host's memory bandwidth; more only cost cores. */
#define STAGE_THREADS 8

/* The format filter i writes: the given dst's for the last filter, else the
 * caller's plan or the filter's preferred output for its input. */
static cf_status chain_formats(const cf_scheduler *s, cf_format in, cf_format last,
                               cf_format *out)
{
    for (int i = 0; i < s->n_filters; i++) {
        const cf_filter *f = s->filters[i];
        if (i == s->n_filters - 1 && last != CF_FORMAT_UNKNOWN)
            out[i] = last;
        else if (s->have_formats)
            out[i] = s->formats[i];
        else
            CF_TRY(cf_filter_get_output_format(f, in, &out[i]));
        in = out[i];
    }
    return CF_OK;
}

/* Makes *f a frame of this shape, keeping it when it already is one. */
static cf_status ensure_frame(cf_scheduler *s, cf_frame *f, cf_format format, int width,
                              int height, cf_memory memory)
{
    if (f->allocation && f->format == format && f->width == width && f->height == height &&
        f->memory == memory)
        return CF_OK;
    if (f->allocation)
        g_atomic_int_add(&s->frames_allocated, -1);
    cf_frame_free(f);
    CF_TRY(cf_frame_alloc(f, format, width, height, memory));
    g_atomic_int_inc(&s->frames_allocated);
    return CF_OK;
}

/* The result frame from the scheduler's pool (replaced when the shape
 * changes; frames still out keep the old pool alive until released). */
static cf_status pool_output(cf_scheduler *s, cf_sched_slot *slot, cf_format format, int width,
                             int height, cf_memory memory)
{
    if (!cf_frame_pool_matches(s->out_pool, format, width, height, memory)) {
        g_atomic_int_add(&s->retired_pool_frames, cf_frame_pool_count(s->out_pool));
        cf_frame_pool_destroy(&s->out_pool);
        CF_TRY(cf_frame_pool_create(&s->out_pool,
                                    cf_frame_pool_params(.format = format, .width = width,
                                                         .height = height, .memory = memory)));
    }
    CF_TRY(cf_frame_pool_acquire(s->out_pool, &slot->dst, true));
    slot->dst_pool = s->out_pool;
    return CF_OK;
}

/* Where a result goes when the caller gave no frame. */
static cf_memory output_memory(const cf_scheduler *s, const cf_frame *src)
{
    if (!s->gpu)
        return CF_MEMORY_HOST;
    switch (s->output) {
    case CF_SCHEDULER_OUTPUT_DEVICE: return CF_MEMORY_DEVICE;
    case CF_SCHEDULER_OUTPUT_HOST: return CF_MEMORY_PINNED_HOST;
    default: return src->memory == CF_MEMORY_DEVICE ? CF_MEMORY_DEVICE : CF_MEMORY_PINNED_HOST;
    }
}

static cf_status run_filter(cf_scheduler *s, cf_sched_slot *slot, int i, const cf_frame *in,
                            cf_frame *out, cf_stream stream)
{
    cf_sched_trace_push(s, slot->sequence, cf_filter_get_desc(s->filters[i])->name);
    cf_status st = cf_filter_run(s->filters[i], in, out, stream);
    cf_sched_trace_pop();
    return st;
}

/* The size filters 0 .. n - 1 make of a width x height input (a scale
 * changes it). */
static cf_status chain_size(const cf_scheduler *s, int n, int *width, int *height)
{
    for (int i = 0; i < n; i++)
        CF_TRY(cf_filter_get_output_size(s->filters[i], *width, *height, width, height));
    return CF_OK;
}

/* Runs the chain from `in` into `out`; intermediates in `memory`. */
static cf_status run_chain(cf_scheduler *s, cf_sched_slot *slot, const cf_format *formats,
                           const cf_frame *in, cf_frame *out, cf_memory memory, cf_stream stream)
{
    const cf_frame *cur = in;
    int w = in->width, h = in->height;
    for (int i = 0; i < s->n_filters - 1; i++) {
        CF_TRY(cf_filter_get_output_size(s->filters[i], w, h, &w, &h));
        CF_TRY(ensure_frame(s, &s->mid[i], formats[i], w, h, memory));
        CF_TRY(run_filter(s, slot, i, cur, &s->mid[i], stream));
        cur = &s->mid[i];
    }
    return run_filter(s, slot, s->n_filters - 1, cur, out, stream);
}

static cf_status ensure_events(cf_sched_slot *slot)
{
    /* Streams wait on these two; the host waits on done. */
    if (!slot->up_done)
        CF_TRY(cf_event_create(&slot->up_done));
    if (!slot->kernels_done)
        CF_TRY(cf_event_create(&slot->kernels_done));
    if (!slot->done)
        CF_TRY(cf_event_create(&slot->done));
    return CF_OK;
}

static cf_status copy_traced(cf_scheduler *s, cf_sched_slot *slot, const char *step,
                             const cf_frame *from, cf_frame *to, cf_stream stream)
{
    cf_sched_trace_push(s, slot->sequence, step);
    cf_status st = cf_frame_copy(from, to, stream);
    cf_sched_trace_pop();
    return st;
}

/* Queues the frame's GPU work (see the top of the file); *last
 * gets the stream whose work ends last. */
static cf_status queue_gpu(cf_scheduler *s, cf_sched_slot *slot, const cf_format *formats,
                           cf_stream *last)
{
    const cf_frame *src = &slot->src;
    cf_frame *dst = &slot->dst;
    const bool dst_dev = dst->memory == CF_MEMORY_DEVICE;
    const cf_frame *cur = src;
    if (src->memory != CF_MEMORY_DEVICE) {
        cf_frame *to = s->n_filters == 0 ? dst : &slot->stage_in;
        if (to == &slot->stage_in)
            CF_TRY(ensure_frame(s, to, src->format, src->width, src->height, CF_MEMORY_DEVICE));
        const cf_frame *from = src;
        if (src->memory == CF_MEMORY_HOST) {
            /* The driver copies pageable memory through a bounce buffer of
             * its own, one thread at a time, and the call waits for it. The
             * process's worker threads copy it into pinned memory faster,
             * and the DMA from there is asynchronous. */
            CF_TRY(ensure_frame(s, &slot->stage_pinned, src->format, src->width, src->height,
                                CF_MEMORY_PINNED_HOST));
            cf_sched_trace_push(s, slot->sequence, "stage");
            cf_parallel_copy_frame(src, &slot->stage_pinned, STAGE_THREADS);
            cf_sched_trace_pop();
            from = &slot->stage_pinned;
        }
        CF_TRY(copy_traced(s, slot, "upload", from, to, s->up));
        *last = s->up;
        if (s->n_filters == 0)
            return CF_OK;
        CF_TRY(cf_event_record(slot->up_done, s->up));
        CF_TRY(cf_stream_wait_event(s->kernels, slot->up_done));
        cur = to;
    } else if (slot->wait) {
        /* The device src is still being written by its producer. */
        CF_TRY(cf_stream_wait_event(s->n_filters == 0 && !dst_dev ? s->down : s->kernels,
                                    slot->wait));
    }
    if (s->n_filters == 0) {
        *last = dst_dev ? s->kernels : s->down;
        return copy_traced(s, slot, dst_dev ? "copy" : "download", cur, dst, *last);
    }
    cf_frame *out = dst_dev ? dst : &slot->stage_out;
    if (!dst_dev)
        CF_TRY(ensure_frame(s, out, dst->format, dst->width, dst->height, CF_MEMORY_DEVICE));
    *last = s->kernels;
    CF_TRY(run_chain(s, slot, formats, cur, out, CF_MEMORY_DEVICE, s->kernels));
    if (dst_dev)
        return CF_OK;
    CF_TRY(cf_event_record(slot->kernels_done, s->kernels));
    CF_TRY(cf_stream_wait_event(s->down, slot->kernels_done));
    *last = s->down;
    return copy_traced(s, slot, "download", out, dst, s->down);
}

static cf_status run_gpu(cf_scheduler *s, cf_sched_slot *slot, const cf_format *formats)
{
    if (slot->src.memory != CF_MEMORY_DEVICE && slot->dst.memory != CF_MEMORY_DEVICE &&
        s->n_filters == 0)
        return cf_frame_copy(&slot->src, &slot->dst, NULL); /* host to host */
    CF_TRY(ensure_events(slot));
    cf_stream last = NULL;
    cf_status st = queue_gpu(s, slot, formats, &last);
    if (st == CF_OK)
        st = cf_event_record(slot->done, last);
    if (st == CF_OK && slot->signal)
        st = cf_event_record(slot->signal, last);
    if (st == CF_OK) {
        slot->on_gpu = true;
        return CF_OK;
    }
    /* Leave nothing of this frame running; keep the first error's message. */
    char *msg = g_strdup(cf_last_error());
    (void)cf_stream_synchronize(s->up);
    (void)cf_stream_synchronize(s->kernels);
    (void)cf_stream_synchronize(s->down);
    cf_set_error(st, "%s", msg);
    g_free(msg);
    return st;
}

static cf_status run_cpu(cf_scheduler *s, cf_sched_slot *slot, const cf_format *formats)
{
    if (slot->src.memory == CF_MEMORY_DEVICE || slot->dst.memory == CF_MEMORY_DEVICE)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "%s runs on the CPU and takes host frames only, got a device frame",
                            s->name);
    if (s->n_filters == 0)
        return copy_traced(s, slot, "copy", &slot->src, &slot->dst, NULL);
    return run_chain(s, slot, formats, &slot->src, &slot->dst, CF_MEMORY_HOST, NULL);
}

cf_status cf_sched_run(cf_scheduler *s, cf_sched_slot *slot)
{
    const cf_frame *src = &slot->src;
    bool have_dst = slot->dst.format != CF_FORMAT_UNKNOWN;
    cf_format formats[CF_SCHEDULER_MAX_FILTERS];
    CF_TRY(chain_formats(s, src->format, have_dst ? slot->dst.format : CF_FORMAT_UNKNOWN, formats));
    if (!have_dst) {
        cf_format last = s->n_filters ? formats[s->n_filters - 1] : src->format;
        int w = src->width, h = src->height;
        CF_TRY(chain_size(s, s->n_filters, &w, &h));
        CF_TRY(pool_output(s, slot, last, w, h, output_memory(s, src)));
    }
    return s->gpu ? run_gpu(s, slot, formats) : run_cpu(s, slot, formats);
}

void cf_sched_slot_free(cf_sched_slot *slot)
{
    cf_event_destroy(&slot->up_done);
    cf_event_destroy(&slot->kernels_done);
    cf_event_destroy(&slot->done);
    cf_frame_free(&slot->stage_in);
    cf_frame_free(&slot->stage_pinned);
    cf_frame_free(&slot->stage_out);
    g_clear_pointer(&slot->message, g_free);
}
