/* cudafilters: frame pools (pool.h). */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "context.h"
#include "cudafilters/pool.h"

typedef struct entry {
    cf_frame frame;
    bool in_use;
} entry;

struct cf_frame_pool {
    cf_frame_pool_params params;
    cf_cuda_context ctx; /* device and pinned pools: the context their memory belongs to */
    GMutex lock;
    GCond freed;
    GArray *entries;     /* entry; only grows */
    int in_use;
    bool flushing;
    bool destroyed;      /* the owner let go; the last release frees the pool */
};

static bool needs_context(cf_memory memory)
{
    return memory == CF_MEMORY_DEVICE || memory == CF_MEMORY_PINNED_HOST;
}

cf_status cf_frame_pool_create(cf_frame_pool **pool, const cf_frame_pool_params *params)
{
    if (!pool)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_frame_pool_create: pool is NULL");
    *pool = NULL;
    if (!params)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_frame_pool_create: params is NULL");
    if (!cf_format_get_info(params->format))
        return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT, "frame pool: unknown format %d",
                            (int)params->format);
    if (params->width < 1 || params->height < 1 || params->max_frames < 0)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "frame pool: size %dx%d and max_frames %d (size >= 1, max >= 0)",
                            params->width, params->height, params->max_frames);
    if (params->memory != CF_MEMORY_HOST && !needs_context(params->memory))
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "frame pool: memory kind %d",
                            (int)params->memory);
    cf_cuda_context ctx = NULL;
    if (needs_context(params->memory))
        CF_TRY(cf_context_get_current(&ctx));
    cf_frame_pool *p = g_new0(cf_frame_pool, 1);
    p->params = *params;
    p->ctx = ctx;
    g_mutex_init(&p->lock);
    g_cond_init(&p->freed);
    p->entries = g_array_new(FALSE, TRUE, sizeof(entry));
    *pool = p;
    return CF_OK;
}

/* Frees one frame's memory in the pool's context. */
static void free_frame(cf_frame_pool *p, cf_frame *frame)
{
    bool pushed = p->ctx && cf_context_push(p->ctx) == CF_OK;
    if (p->ctx && !pushed)
        return; /* the context is gone, and its memory with it */
    cf_frame_free(frame);
    if (pushed)
        cf_context_pop();
}

static void free_pool(cf_frame_pool *p)
{
    g_array_free(p->entries, TRUE);
    g_cond_clear(&p->freed);
    g_mutex_clear(&p->lock);
    g_free(p);
}

void cf_frame_pool_destroy(cf_frame_pool **pool)
{
    if (!pool || !*pool)
        return;
    cf_frame_pool *p = *pool;
    *pool = NULL;
    g_mutex_lock(&p->lock);
    p->destroyed = true;
    p->flushing = true;
    g_cond_broadcast(&p->freed);
    for (guint i = 0; i < p->entries->len; i++) {
        entry *e = &g_array_index(p->entries, entry, i);
        if (!e->in_use && e->frame.allocation)
            free_frame(p, &e->frame);
    }
    bool last = p->in_use == 0;
    g_mutex_unlock(&p->lock);
    if (last)
        free_pool(p);
}

/* A new frame for the pool, made without the lock held (allocations can take
 * milliseconds). */
static cf_status make_frame(cf_frame_pool *p, cf_frame *frame)
{
    if (p->ctx)
        CF_TRY(cf_context_push(p->ctx));
    cf_status st = cf_frame_alloc(frame, p->params.format, p->params.width, p->params.height,
                                  p->params.memory);
    if (p->ctx)
        cf_context_pop();
    return st;
}

cf_status cf_frame_pool_acquire(cf_frame_pool *pool, cf_frame *frame, bool wait)
{
    if (!pool || !frame)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_frame_pool_acquire: NULL argument");
    memset(frame, 0, sizeof *frame);
    g_mutex_lock(&pool->lock);
    guint index;
    for (;;) {
        if (pool->flushing) {
            g_mutex_unlock(&pool->lock);
            return cf_set_error(CF_ERROR_FLUSHING, "frame pool: flushing");
        }
        /* A kept frame first; else an entry whose allocation failed before,
         * or a new entry while the pool may grow. */
        int empty = -1;
        for (guint i = 0; i < pool->entries->len; i++) {
            entry *e = &g_array_index(pool->entries, entry, i);
            if (e->in_use)
                continue;
            if (e->frame.allocation) {
                e->in_use = true;
                pool->in_use++;
                *frame = e->frame;
                g_mutex_unlock(&pool->lock);
                return CF_OK;
            }
            if (empty < 0)
                empty = (int)i;
        }
        int max = pool->params.max_frames;
        if (empty < 0 && (max == 0 || (int)pool->entries->len < max)) {
            entry fresh = { .in_use = false };
            g_array_append_val(pool->entries, fresh);
            empty = (int)pool->entries->len - 1;
        }
        if (empty >= 0) {
            index = (guint)empty;
            break;
        }
        if (!wait) {
            g_mutex_unlock(&pool->lock);
            return cf_set_error(CF_ERROR_AGAIN, "frame pool: all %d frames are in use", max);
        }
        g_cond_wait(&pool->freed, &pool->lock);
    }
    /* Reserved, so concurrent acquires respect max_frames while this one
     * allocates without the lock (allocations can take milliseconds). */
    g_array_index(pool->entries, entry, index).in_use = true;
    pool->in_use++;
    g_mutex_unlock(&pool->lock);

    cf_frame made;
    cf_status st = make_frame(pool, &made);
    g_mutex_lock(&pool->lock);
    entry *e = &g_array_index(pool->entries, entry, index);
    if (st == CF_OK) {
        e->frame = made;
        *frame = made;
    } else {
        e->in_use = false;
        pool->in_use--;
        g_cond_signal(&pool->freed);
    }
    /* Destroyed while this frame was being made, and it was the last. */
    bool last = pool->destroyed && pool->in_use == 0;
    g_mutex_unlock(&pool->lock);
    if (last)
        free_pool(pool);
    return st;
}

void cf_frame_pool_release(cf_frame_pool *pool, cf_frame *frame)
{
    if (!pool || !frame || !frame->allocation)
        return;
    g_mutex_lock(&pool->lock);
    entry *found = NULL;
    for (guint i = 0; i < pool->entries->len && !found; i++) {
        entry *e = &g_array_index(pool->entries, entry, i);
        if (e->in_use && e->frame.allocation == frame->allocation)
            found = e;
    }
    if (!found) {
        g_mutex_unlock(&pool->lock);
        cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_frame_pool_release: not a frame of this pool");
        return;
    }
    found->in_use = false;
    pool->in_use--;
    if (pool->destroyed)
        free_frame(pool, &found->frame);
    bool last = pool->destroyed && pool->in_use == 0;
    g_cond_signal(&pool->freed);
    g_mutex_unlock(&pool->lock);
    memset(frame, 0, sizeof *frame);
    if (last)
        free_pool(pool);
}

void cf_frame_pool_set_flushing(cf_frame_pool *pool, bool flushing)
{
    if (!pool)
        return;
    g_mutex_lock(&pool->lock);
    pool->flushing = flushing || pool->destroyed;
    g_cond_broadcast(&pool->freed);
    g_mutex_unlock(&pool->lock);
}

int cf_frame_pool_count(const cf_frame_pool *pool)
{
    if (!pool)
        return 0;
    cf_frame_pool *p = (cf_frame_pool *)pool;
    g_mutex_lock(&p->lock);
    int n = 0;
    for (guint i = 0; i < p->entries->len; i++)
        n += g_array_index(p->entries, entry, i).frame.allocation != NULL;
    g_mutex_unlock(&p->lock);
    return n;
}

int cf_frame_pool_in_use(const cf_frame_pool *pool)
{
    if (!pool)
        return 0;
    cf_frame_pool *p = (cf_frame_pool *)pool;
    g_mutex_lock(&p->lock);
    int n = p->in_use;
    g_mutex_unlock(&p->lock);
    return n;
}

bool cf_frame_pool_matches(const cf_frame_pool *pool, cf_format format, int width, int height,
                           cf_memory memory)
{
    return pool && pool->params.format == format && pool->params.width == width &&
           pool->params.height == height && pool->params.memory == memory;
}
