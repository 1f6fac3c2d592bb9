/* cudafilters: the process-wide CPU worker pool (parallel.h). */
#include <string.h>

#include <glib.h>

#include "parallel.h"

typedef struct job {
    void (*fn)(void *ctx, int i);
    void *ctx;
    int n;
    gint next;      /* atomic: the next index to take */
    gint helpers;   /* atomic: pool tasks that have not finished */
    GMutex lock;
    GCond finished;
} job;

static GThreadPool *workers;

/* Takes indices until none is left. */
static void run_indices(job *j)
{
    int i;
    while ((i = g_atomic_int_add(&j->next, 1)) < j->n)
        j->fn(j->ctx, i);
}

static void helper(gpointer data, gpointer user_data)
{
    (void)user_data;
    job *j = data;
    run_indices(j);
    g_mutex_lock(&j->lock);
    if (g_atomic_int_dec_and_test(&j->helpers))
        g_cond_signal(&j->finished);
    g_mutex_unlock(&j->lock);
}

static gpointer make_pool(gpointer data)
{
    (void)data;
    return g_thread_pool_new(helper, NULL, (gint)g_get_num_processors(), FALSE, NULL);
}

void cf_parallel_for(int n, int threads, void (*fn)(void *ctx, int i), void *ctx)
{
    static GOnce once = G_ONCE_INIT;
    int cores = (int)g_get_num_processors();
    if (threads <= 0 || threads > cores)
        threads = cores;
    if (threads > n)
        threads = n;
    if (threads <= 1) {
        for (int i = 0; i < n; i++)
            fn(ctx, i);
        return;
    }
    workers = g_once(&once, make_pool, NULL);
    job j = { .fn = fn, .ctx = ctx, .n = n, .helpers = threads - 1 };
    g_mutex_init(&j.lock);
    g_cond_init(&j.finished);
    for (int t = 1; t < threads; t++)
        g_thread_pool_push(workers, &j, NULL);
    run_indices(&j);
    /* Helpers that start late find nothing to do, but j lives on our stack:
     * wait until every one has let go of it. */
    g_mutex_lock(&j.lock);
    while (g_atomic_int_get(&j.helpers) > 0)
        g_cond_wait(&j.finished, &j.lock);
    g_mutex_unlock(&j.lock);
    g_cond_clear(&j.finished);
    g_mutex_clear(&j.lock);
}

/* Rows of every plane, numbered as one list. */
typedef struct copy_job {
    const cf_frame *src;
    cf_frame *dst;
    int rows_per_slice;
    int plane_rows[CF_MAX_PLANES];
    int n_planes;
} copy_job;

static void copy_slice(void *ctx, int i)
{
    copy_job *c = ctx;
    int first = i * c->rows_per_slice, last = first + c->rows_per_slice;
    for (int p = 0, base = 0; p < c->n_planes; base += c->plane_rows[p], p++) {
        size_t row = cf_format_plane_row_bytes(c->src->format, p, c->src->width);
        int y0 = first > base ? first - base : 0;
        int y1 = last - base < c->plane_rows[p] ? last - base : c->plane_rows[p];
        for (int y = y0; y < y1; y++)
            memcpy(c->dst->data[p] + (size_t)y * c->dst->pitch[p],
                   c->src->data[p] + (size_t)y * c->src->pitch[p], row);
    }
}

void cf_parallel_copy_frame(const cf_frame *src, cf_frame *dst, int threads)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    copy_job c = { .src = src, .dst = dst, .n_planes = info->n_planes };
    size_t bytes = 0;
    int rows = 0;
    for (int p = 0; p < info->n_planes; p++) {
        c.plane_rows[p] = cf_format_plane_height(src->format, p, src->height);
        rows += c.plane_rows[p];
        bytes += cf_format_plane_row_bytes(src->format, p, src->width) * (size_t)c.plane_rows[p];
    }
    /* Slices of about 256 KiB: enough to keep each thread busy for longer
     * than waking it takes, small enough to share out. */
    int slices = (int)(bytes / (256 * 1024)) + 1;
    if (slices > rows)
        slices = rows;
    c.rows_per_slice = (rows + slices - 1) / slices;
    slices = (rows + c.rows_per_slice - 1) / c.rows_per_slice;
    cf_parallel_for(slices, threads, copy_slice, &c);
}
