/* cudafilters: the stream scheduler's queue (scheduler.h): slots, back-pressure,
 * receive in order, drain and flush. The work of one frame is in
 * scheduler_run.c. */
#include <string.h>

#include "scheduler_internal.h"

/* ---- the context around GPU calls ------------------------------------- */

static cf_status enter(cf_scheduler *s)
{
    return s->gpu ? cf_context_push(s->ctx) : CF_OK;
}

static void leave(cf_scheduler *s)
{
    if (s->gpu)
        cf_context_pop();
}

/* ---- create and destroy ----------------------------------------------- */

static cf_status check_params(const cf_scheduler_params *p)
{
    if (p->n_filters < 0 || p->n_filters > CF_SCHEDULER_MAX_FILTERS || (p->n_filters && !p->filters))
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "scheduler: %d filters (0 to %d, and a filter array when not 0)",
                            p->n_filters, CF_SCHEDULER_MAX_FILTERS);
    for (int i = 0; i < p->n_filters; i++)
        if (!p->filters[i])
            return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "scheduler: filter %d is NULL", i);
    if (p->depth < 0 || p->depth > CF_SCHEDULER_MAX_DEPTH)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "scheduler: depth %d (1 to %d, 0: %d)",
                            p->depth, CF_SCHEDULER_MAX_DEPTH, CF_SCHEDULER_DEFAULT_DEPTH);
    if (p->backend < CF_BACKEND_AUTO || p->backend > CF_BACKEND_CUDA ||
        p->output < CF_SCHEDULER_OUTPUT_LIKE_INPUT || p->output > CF_SCHEDULER_OUTPUT_DEVICE)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "scheduler: backend %d or output %d",
                            (int)p->backend, (int)p->output);
    return CF_OK;
}

/* Whether the chain runs on the GPU, from the backend asked for. */
static cf_status choose_gpu(cf_backend backend, bool *gpu)
{
    int n = 0;
    *gpu = false;
    if (backend == CF_BACKEND_CPU)
        return CF_OK;
    CF_TRY(cf_device_count(&n));
    if (n > 0) {
        *gpu = true;
        return CF_OK;
    }
    if (backend == CF_BACKEND_CUDA)
        return cf_set_error(CF_ERROR_NO_DEVICE, "scheduler: the CUDA backend needs a GPU: %s",
                            cf_device_unavailable_reason());
    return CF_OK;
}

static cf_status make_streams(cf_scheduler *s)
{
    CF_TRY(cf_context_get_current(&s->ctx));
    CF_TRY(cf_stream_create(&s->up));
    CF_TRY(cf_stream_create(&s->kernels));
    return cf_stream_create(&s->down);
}

cf_status cf_scheduler_create(cf_scheduler **sched, const cf_scheduler_params *params)
{
    if (!sched)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_scheduler_create: sched is NULL");
    *sched = NULL;
    if (!params)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_scheduler_create: params is NULL");
    CF_TRY(check_params(params));
    bool gpu = false;
    CF_TRY(choose_gpu(params->backend, &gpu));
    if (!gpu && params->output == CF_SCHEDULER_OUTPUT_DEVICE)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "scheduler: device output needs the CUDA backend (this one runs on "
                            "the CPU%s%s)",
                            params->backend == CF_BACKEND_CPU ? "" : ": ",
                            params->backend == CF_BACKEND_CPU ? "" : cf_device_unavailable_reason());

    cf_scheduler *s = g_new0(cf_scheduler, 1);
    s->name = g_strdup(params->name ? params->name : "cudafilters");
    s->n_filters = params->n_filters;
    for (int i = 0; i < s->n_filters; i++)
        s->filters[i] = params->filters[i];
    if (params->formats) {
        s->have_formats = true;
        memcpy(s->formats, params->formats, sizeof(cf_format) * (size_t)s->n_filters);
    }
    s->depth = params->depth ? params->depth : CF_SCHEDULER_DEFAULT_DEPTH;
    s->gpu = gpu;
    s->output = params->output;
    s->drop = params->drop;
    s->user_data = params->user_data;
    g_mutex_init(&s->lock);
    g_cond_init(&s->cond);
    g_queue_init(&s->free_slots);
    g_queue_init(&s->in_flight);
    for (int i = 0; i < s->depth; i++)
        g_queue_push_tail(&s->free_slots, &s->slots[i]);
    if (gpu) {
        cf_status st = make_streams(s);
        if (st != CF_OK) {
            /* Keep the message: destroy's CUDA calls may overwrite it. */
            char *msg = g_strdup(cf_last_error());
            cf_scheduler_destroy(&s);
            cf_set_error(st, "%s", msg);
            g_free(msg);
            return st;
        }
    }
    *sched = s;
    return CF_OK;
}

bool cf_scheduler_uses_gpu(const cf_scheduler *sched)
{
    return sched && sched->gpu;
}

int cf_scheduler_depth(const cf_scheduler *sched)
{
    return sched ? sched->depth : 0;
}

/* Waits for a slot's GPU work and hands its token to the drop callback. */
static void drop_slot(cf_scheduler *s, cf_sched_slot *slot)
{
    if (slot->on_gpu && cf_event_synchronize(slot->done) != CF_OK)
        g_debug("%s: dropping frame %" G_GINT64_FORMAT " whose GPU work failed: %s", s->name,
                slot->sequence, cf_last_error());
    slot->on_gpu = false;
    if (slot->dst_pool)
        cf_frame_pool_release(slot->dst_pool, &slot->dst);
    slot->dst_pool = NULL;
    g_clear_pointer(&slot->message, g_free);
    if (s->drop)
        s->drop(slot->token, s->user_data);
    slot->token = NULL;
}

void cf_scheduler_flush(cf_scheduler *s)
{
    if (!s)
        return;
    g_mutex_lock(&s->lock);
    while (s->receiving)
        g_cond_wait(&s->cond, &s->lock);
    GQueue dropped = s->in_flight;
    g_queue_init(&s->in_flight);
    s->drained = false;
    g_mutex_unlock(&s->lock);
    if (g_queue_is_empty(&dropped))
        return;
    bool entered = enter(s) == CF_OK;
    cf_sched_slot *slot;
    while ((slot = g_queue_pop_head(&dropped))) {
        if (!entered)
            slot->on_gpu = false; /* the context is gone: nothing left to wait for */
        drop_slot(s, slot);
        g_mutex_lock(&s->lock);
        g_queue_push_tail(&s->free_slots, slot);
        g_cond_broadcast(&s->cond);
        g_mutex_unlock(&s->lock);
    }
    if (entered)
        leave(s);
}

void cf_scheduler_destroy(cf_scheduler **sched)
{
    if (!sched || !*sched)
        return;
    cf_scheduler *s = *sched;
    *sched = NULL;
    cf_scheduler_set_flushing(s, true);
    cf_scheduler_flush(s);
    bool entered = s->gpu && s->ctx && enter(s) == CF_OK;
    if (entered || !s->gpu) {
        for (int i = 0; i < s->depth; i++)
            cf_sched_slot_free(&s->slots[i]);
        for (int i = 0; i < CF_SCHEDULER_MAX_FILTERS; i++)
            cf_frame_free(&s->mid[i]);
        cf_stream_destroy(&s->up);
        cf_stream_destroy(&s->kernels);
        cf_stream_destroy(&s->down);
    }
    if (entered)
        leave(s);
    cf_frame_pool_destroy(&s->out_pool);
    g_queue_clear(&s->free_slots);
    g_cond_clear(&s->cond);
    g_mutex_clear(&s->lock);
    g_free(s->name);
    g_free(s);
}

/* ---- submit and receive ----------------------------------------------- */

/* A free slot, once fewer than depth frames are in flight; NULL when
 * flushing. */
static cf_sched_slot *take_slot(cf_scheduler *s)
{
    cf_sched_slot *slot = NULL;
    g_mutex_lock(&s->lock);
    while (!s->flushing && !(slot = g_queue_pop_head(&s->free_slots)))
        g_cond_wait(&s->cond, &s->lock);
    if (slot) {
        s->drained = false;
        slot->sequence = s->next_sequence++;
    }
    g_mutex_unlock(&s->lock);
    return slot;
}

cf_status cf_scheduler_submit(cf_scheduler *s, const cf_frame *src, const cf_frame *dst,
                              void *token)
{
    return cf_scheduler_submit_with_events(s, src, dst, token, NULL, NULL);
}

cf_status cf_scheduler_submit_with_events(cf_scheduler *s, const cf_frame *src,
                                          const cf_frame *dst, void *token, cf_event wait,
                                          cf_event signal)
{
    if (!s || !src)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_scheduler_submit: NULL argument");
    if (!s->gpu && (wait || signal))
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "%s runs on the CPU: GPU events cannot be waited for or recorded",
                            s->name);
    CF_TRY(cf_frame_validate(src));
    if (dst)
        CF_TRY(cf_frame_validate(dst));
    cf_sched_slot *slot = take_slot(s);
    if (!slot)
        return cf_set_error(CF_ERROR_FLUSHING, "%s: flushing, frame not taken", s->name);
    slot->token = token;
    slot->wait = wait;
    slot->signal = signal;
    slot->src = *src;
    if (dst)
        slot->dst = *dst;
    else
        memset(&slot->dst, 0, sizeof slot->dst);
    slot->status = enter(s);
    if (slot->status == CF_OK) {
        slot->status = cf_sched_run(s, slot);
        leave(s);
    }
    if (slot->status != CF_OK)
        slot->message = g_strdup(cf_last_error());
    g_mutex_lock(&s->lock);
    g_queue_push_tail(&s->in_flight, slot);
    g_cond_broadcast(&s->cond);
    g_mutex_unlock(&s->lock);
    return CF_OK;
}

/* Whether the GPU work of `slot` is complete: waits for it when `wait`.
 * CF_ERROR_AGAIN when not yet; a failure of that work becomes the frame's. */
static cf_status finish_gpu_work(cf_scheduler *s, cf_sched_slot *slot, bool wait)
{
    if (!slot->on_gpu || slot->status != CF_OK)
        return CF_OK;
    cf_status st = enter(s);
    if (st == CF_OK) {
        st = wait ? cf_event_synchronize(slot->done) : cf_event_query(slot->done);
        leave(s);
    }
    if (st == CF_ERROR_AGAIN)
        return st;
    slot->on_gpu = false;
    if (st != CF_OK) {
        slot->status = st;
        slot->message = g_strdup(cf_last_error());
    }
    return CF_OK;
}

static void fill_result(cf_scheduler *s, cf_sched_slot *slot, cf_scheduler_result *r)
{
    memset(r, 0, sizeof *r);
    r->token = slot->token;
    r->sequence = slot->sequence;
    r->status = slot->status;
    if (slot->status == CF_OK) {
        r->frame = slot->dst;
        r->from_pool = slot->dst_pool != NULL;
        r->pool_private = slot->dst_pool;
    } else {
        if (slot->dst_pool)
            cf_frame_pool_release(slot->dst_pool, &slot->dst);
        cf_set_error(slot->status, "%s: frame %" G_GINT64_FORMAT ": %s", s->name, slot->sequence,
                     slot->message ? slot->message : cf_status_name(slot->status));
    }
    g_clear_pointer(&slot->message, g_free);
    slot->dst_pool = NULL;
    slot->token = NULL;
}

cf_status cf_scheduler_receive(cf_scheduler *s, cf_scheduler_result *result, bool wait)
{
    if (!s || !result)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_scheduler_receive: NULL argument");
    g_mutex_lock(&s->lock);
    cf_sched_slot *head;
    for (;;) {
        if (s->flushing) {
            g_mutex_unlock(&s->lock);
            return cf_set_error(CF_ERROR_FLUSHING, "%s: flushing", s->name);
        }
        if ((head = g_queue_peek_head(&s->in_flight)))
            break;
        if (s->drained) {
            g_mutex_unlock(&s->lock);
            return cf_set_error(CF_ERROR_EOF, "%s: drained", s->name);
        }
        if (!wait) {
            g_mutex_unlock(&s->lock);
            return cf_set_error(CF_ERROR_AGAIN, "%s: no frame in flight", s->name);
        }
        g_cond_wait(&s->cond, &s->lock);
    }
    s->receiving = true;
    g_mutex_unlock(&s->lock);

    /* Only this thread takes frames out, so head stays the head. */
    cf_status st = finish_gpu_work(s, head, wait);
    g_mutex_lock(&s->lock);
    s->receiving = false;
    if (st == CF_OK && s->flushing)
        st = CF_ERROR_FLUSHING; /* leave it for the flush */
    if (st == CF_OK) {
        g_queue_pop_head(&s->in_flight);
        fill_result(s, head, result);
        g_queue_push_tail(&s->free_slots, head);
    }
    g_cond_broadcast(&s->cond);
    g_mutex_unlock(&s->lock);
    if (st == CF_ERROR_AGAIN)
        return cf_set_error(st, "%s: frame %" G_GINT64_FORMAT " not finished", s->name,
                            head->sequence);
    if (st == CF_ERROR_FLUSHING)
        return cf_set_error(st, "%s: flushing", s->name);
    return CF_OK;
}

void cf_scheduler_release(cf_scheduler *s, cf_scheduler_result *result)
{
    (void)s; /* the pool outlives the scheduler while it has frames out */
    if (!result)
        return;
    if (result->pool_private)
        cf_frame_pool_release(result->pool_private, &result->frame);
    memset(result, 0, sizeof *result);
}

void cf_scheduler_drain(cf_scheduler *s)
{
    if (!s)
        return;
    g_mutex_lock(&s->lock);
    s->drained = true;
    g_cond_broadcast(&s->cond);
    g_mutex_unlock(&s->lock);
}

void cf_scheduler_set_flushing(cf_scheduler *s, bool flushing)
{
    if (!s)
        return;
    g_mutex_lock(&s->lock);
    s->flushing = flushing;
    g_cond_broadcast(&s->cond);
    g_mutex_unlock(&s->lock);
}

int cf_scheduler_in_flight(const cf_scheduler *sched)
{
    if (!sched)
        return 0;
    cf_scheduler *s = (cf_scheduler *)sched;
    g_mutex_lock(&s->lock);
    /* Slots not free: in flight, or being submitted now. */
    int n = s->depth - (int)g_queue_get_length(&s->free_slots);
    g_mutex_unlock(&s->lock);
    return n;
}

int cf_scheduler_frames_allocated(const cf_scheduler *sched)
{
    if (!sched)
        return 0;
    return g_atomic_int_get(&sched->frames_allocated) + cf_frame_pool_count(sched->out_pool) +
           g_atomic_int_get(&sched->retired_pool_frames);
}
