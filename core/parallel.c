/* cudafilters: the process-wide CPU worker pool (parallel.h). */
#include <string.h>

#include <glib.h>

#include "parallel.h"

/* One cf_parallel_for call. It lives on the heap, shared by the caller and
 * the pool tasks it pushed: the caller returns as soon as every index has
 * run, and the last participant to let go frees it, so a caller never
 * waits for a task of its own that the pool (busy with another pipeline's
 * work) has not started yet. */
typedef struct job {
    void (*fn)(void *ctx, int i, int slot);
    void *ctx;
    int n;
    gint next;      /* atomic: the next index to take */
    gint slots;     /* atomic: participants so far (slot numbers) */
    gint refs;      /* atomic: participants that have not let go */
    int done;       /* indices finished; under lock */
    GMutex lock;
    GCond finished;
} job;

static GThreadPool *workers;

static void job_unref(job *j)
{
    if (g_atomic_int_dec_and_test(&j->refs)) {
        g_cond_clear(&j->finished);
        g_mutex_clear(&j->lock);
        g_free(j);
    }
}

/* Takes indices until none is left. */
static void run_indices(job *j)
{
    int i, slot = g_atomic_int_add(&j->slots, 1), ran = 0;
    while ((i = g_atomic_int_add(&j->next, 1)) < j->n) {
        j->fn(j->ctx, i, slot);
        ran++;
    }
    if (ran == 0)
        return;
    g_mutex_lock(&j->lock);
    j->done += ran;
    if (j->done == j->n)
        g_cond_signal(&j->finished);
    g_mutex_unlock(&j->lock);
}

static void helper(gpointer data, gpointer user_data)
{
    (void)user_data;
    run_indices(data);
    job_unref(data);
}

/* g_get_num_processors() reads sysfs on every call (glibc's sysconf):
 * once is enough for the process. */
static int processors(void)
{
    static gint cached = 0;
    int n = g_atomic_int_get(&cached);
    if (n == 0) {
        n = (int)g_get_num_processors();
        g_atomic_int_set(&cached, n);
    }
    return n;
}

/* One thread fewer than processors: the caller is the last one, so one
 * caller asking for all cores keeps exactly all of them busy, and several
 * callers (pipelines) share the same threads. */
static gpointer make_pool(gpointer data)
{
    (void)data;
    int cores = processors();
    return g_thread_pool_new(helper, NULL, cores > 1 ? cores - 1 : 1, FALSE, NULL);
}

int cf_parallel_threads(int threads)
{
    int cores = processors();
    return threads <= 0 || threads > cores ? cores : threads;
}

void cf_parallel_for_slots(int n, int threads, void (*fn)(void *ctx, int i, int slot), void *ctx)
{
    static GOnce once = G_ONCE_INIT;
    threads = cf_parallel_threads(threads);
    if (threads > n)
        threads = n;
    if (threads <= 1) {
        for (int i = 0; i < n; i++)
            fn(ctx, i, 0);
        return;
    }
    workers = g_once(&once, make_pool, NULL);
    job *j = g_new0(job, 1);
    *j = (job){ .fn = fn, .ctx = ctx, .n = n, .refs = threads };
    g_mutex_init(&j->lock);
    g_cond_init(&j->finished);
    for (int t = 1; t < threads; t++)
        g_thread_pool_push(workers, j, NULL);
    run_indices(j);
    g_mutex_lock(&j->lock);
    while (j->done < j->n)
        g_cond_wait(&j->finished, &j->lock);
    g_mutex_unlock(&j->lock);
    job_unref(j);
}

typedef struct plain_job {
    void (*fn)(void *ctx, int i);
    void *ctx;
} plain_job;

static void plain_index(void *ctx, int i, int slot)
{
    (void)slot;
    plain_job *p = ctx;
    p->fn(p->ctx, i);
}

void cf_parallel_for(int n, int threads, void (*fn)(void *ctx, int i), void *ctx)
{
    plain_job p = { fn, ctx };
    cf_parallel_for_slots(n, threads, plain_index, &p);
}

typedef struct rows_job {
    void (*fn)(void *ctx, int y0, int y1, int slot);
    void *ctx;
    int rows, per_slice;
} rows_job;

static void rows_slice(void *ctx, int i, int slot)
{
    rows_job *r = ctx;
    int y0 = i * r->per_slice, y1 = y0 + r->per_slice;
    r->fn(r->ctx, y0, y1 < r->rows ? y1 : r->rows, slot);
}

void cf_parallel_rows(int rows, int threads, int min_rows,
                      void (*fn)(void *ctx, int y0, int y1, int slot), void *ctx)
{
    if (rows <= 0)
        return;
    threads = cf_parallel_threads(threads);
    /* Four slices a thread: one slowed down by another pipeline's work (or
     * a busier part of the image) is made up by the others. */
    int slices = threads > 1 ? threads * 4 : 1;
    if (min_rows < 1)
        min_rows = 1;
    if (slices > rows / min_rows)
        slices = rows / min_rows > 0 ? rows / min_rows : 1;
    rows_job r = { fn, ctx, rows, (rows + slices - 1) / slices };
    slices = (rows + r.per_slice - 1) / r.per_slice;
    cf_parallel_for_slots(slices, threads, rows_slice, &r);
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
