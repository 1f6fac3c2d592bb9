/* cudafilters kernels: a row-sliced reference on the CPU pool
 * (rows_cpu_threads.h). */
#include "rows_cpu_threads.h"

#include "cpu_dispatch.h"
#include "parallel.h"

typedef struct {
    void (*rows_fn)(const void *plan, const cf_frame *src, cf_frame *dst, int r0, int r1);
    const void *plan;
    const cf_frame *src;
    cf_frame *dst;
} rows_job;

static void run_slice(void *ctx, int y0, int y1, int slot)
{
    const rows_job *j = ctx;
    (void)slot;
    j->rows_fn(j->plan, j->src, j->dst, y0, y1);
}

void cf_rows_cpu_run(void (*rows_fn)(const void *plan, const cf_frame *src, cf_frame *dst,
                                     int r0, int r1),
                     const void *plan, const cf_frame *src, cf_frame *dst, int rows,
                     int threads)
{
    cf_cpu_note_ran(CF_CPU_REFERENCE);
    if (cf_cpu_get_level() == CF_CPU_REFERENCE || rows <= 1) {
        rows_fn(plan, src, dst, 0, rows);
        return;
    }
    size_t bytes = 0;
    for (int p = 0; p < CF_MAX_PLANES; p++)
        bytes += cf_format_plane_row_bytes(dst->format, p, dst->width) *
                 (size_t)cf_format_plane_height(dst->format, p, dst->height);
    size_t row_bytes = bytes / (size_t)rows;
    rows_job j = { rows_fn, plan, src, dst };
    cf_parallel_rows(rows, threads, (int)(65536 / (row_bytes + 1)) + 1, run_slice, &j);
}
