/* cudafilters scale: the optimized CPU scale (scale_cpu_fast.h): the
 * plan's tables rearranged for the SIMD rows (scale_cpu_simd.h), which run
 * over slices of output rows on the pool. */
#include <stdlib.h>
#include <string.h>

#include "cpu_dispatch.h"
#include "parallel.h"
#include "rows_cpu_threads.h"
#include "scale_cpu_fast.h"
#include "scale_cpu_simd.h"

static const void *const levels[CF_CPU_LEVELS] = {
    NULL,
#if CF_SIMD_MAX_LEVEL >= 1
    &cf_scale_simd_baseline,
#else
    NULL,
#endif
#if CF_SIMD_MAX_LEVEL >= 2
    &cf_scale_simd_avx2,
#else
    NULL,
#endif
#if CF_SIMD_MAX_LEVEL >= 3
    &cf_scale_simd_avx512,
#else
    NULL,
#endif
};

/* Per plane class (0 full size, 1 chroma): the tap tables and how many
 * outputs of a row the SIMD rows do (n_vec, a multiple of the lanes). */
typedef struct class_tables {
    int32_t *off, *xw; /* [tap * n + dx] */
    int n_vec;
    bool small_weights; /* 2 taps, each >= 0, each pair summing to <= 2049 */
    /* Bilinear at exactly 2:1 both ways (taps 2d, 2d + 1 from x0, y0, weights
     * 1024 and 1024): OpenCV's vertical form then gives
     * (64 s0 1024) >> 16 = s0 for each row's pair sum s0, and
     * (s0 + s1 + 2) >> 2 is the 2x2 box mean; the box rows run it. */
    bool halves;
    int x0, y0;
} class_tables;

typedef struct scale_job {
    const cf_scale_simd *fn;
    const cf_scale_plan *plan;
    const cf_frame *src;
    cf_frame *dst;
    class_tables t[2];
    const uint8_t **rows; /* max_rows per slot */
    int max_rows;
    int row_bytes[2];     /* per class: bytes of a source row */
} scale_job;

static void reference_tail(const scale_job *j, int p, int y, int dx0)
{
    const cf_scale_plan *pl = j->plan;
    const cf_scale_plane *pp = &pl->planes[p];
    uint8_t *row = j->dst->data[p] + (size_t)y * j->dst->pitch[p];
    const int step = pp->cn * pp->sample_bytes;
    for (int x = dx0; x < pp->dw; x++)
        for (int c = 0; c < pp->cn; c++) {
            int v = pl->box[pp->klass]
                        ? cf_sc_box(pl, pp, j->src->data[p], j->src->pitch[p], x, y, c)
                        : cf_sc_sample(pl, pp, pl->tables, j->src->data[p], j->src->pitch[p], x,
                                       y, c);
            cf_sample_store(row + (size_t)x * step + (size_t)c * pp->sample_bytes,
                            pp->sample_bytes, pp->shift, v);
        }
}

static void row_of_plane(const scale_job *j, int p, int y, const uint8_t **rows)
{
    const cf_scale_plan *pl = j->plan;
    const cf_scale_plane *pp = &pl->planes[p];
    const int k = pp->klass, n_vec = j->t[k].n_vec;
    const uint8_t *src = j->src->data[p];
    const size_t pitch = j->src->pitch[p];
    uint8_t *d = j->dst->data[p] + (size_t)y * j->dst->pitch[p];
    if (n_vec > 0 && j->t[k].halves) {
        for (int r = 0; r < 2; r++)
            rows[r] = src + (size_t)(j->t[k].y0 + 2 * y + r) * pitch;
        cf_sc_box_row b = { rows, 2, 2, j->t[k].x0, pp->cn, pp->sample_bytes, pp->shift, 2, 4,
                            j->row_bytes[k] };
        j->fn->box(&b, n_vec, d);
    } else if (n_vec > 0 && pl->box[k]) {
        int area = pl->kx[k] * pl->ky[k], log2 = -1;
        for (int b = 0; b < 31; b++)
            if (area == 1 << b)
                log2 = b;
        for (int r = 0; r < pl->ky[k]; r++)
            rows[r] = src + (size_t)(pl->y0[k] + y * pl->ky[k] + r) * pitch;
        cf_sc_box_row b = { rows, pl->ky[k], pl->kx[k], pl->x0[k], pp->cn, pp->sample_bytes,
                            pp->shift, log2, area, j->row_bytes[k] };
        j->fn->box(&b, n_vec, d);
    } else if (n_vec > 0) {
        const cf_scale_axis *ay = &pl->y[k];
        const int32_t *yi = (const int32_t *)((const uint8_t *)pl->tables + ay->index_offset) +
                            (size_t)y * ay->taps;
        const int16_t *yw = (const int16_t *)((const uint8_t *)pl->tables + ay->weight_offset) +
                            (size_t)y * ay->taps;
        for (int r = 0; r < ay->taps; r++)
            rows[r] = src + (size_t)yi[r] * pitch;
        cf_sc_row a = { rows, yw, ay->taps, j->t[k].off, j->t[k].xw, pl->x[k].taps, pl->x[k].n,
                        pp->cn, pp->sample_bytes, pp->shift, pp->maxval, j->row_bytes[k] };
        if (pl->opencv_linear && j->t[k].small_weights && yw[0] >= 0 && yw[1] >= 0 &&
            yw[0] <= 2048 && yw[1] <= 2048)
            j->fn->linear8_16(&a, n_vec, d);
        else if (pl->opencv_linear)
            j->fn->linear8(&a, n_vec, d);
        else
            j->fn->general(&a, n_vec, d);
    }
    reference_tail(j, p, y, n_vec > 0 ? n_vec : 0);
}

static void scale_rows(void *ctx, int r0, int r1, int slot)
{
    const scale_job *j = ctx;
    const cf_scale_plan *pl = j->plan;
    const uint8_t **rows = j->rows + (size_t)slot * j->max_rows;
    for (int p = 0, base = 0; p < pl->n_planes; base += pl->planes[p].dh, p++)
        for (int y = r0 > base ? r0 - base : 0; y < pl->planes[p].dh && y < r1 - base; y++)
            row_of_plane(j, p, y, rows);
}

/* Largest |weight| sum of an axis's outputs. */
static int64_t weight_sum(const cf_scale_plan *pl, const cf_scale_axis *a)
{
    const int16_t *w = (const int16_t *)((const uint8_t *)pl->tables + a->weight_offset);
    int64_t best = 0;
    for (int d = 0; d < a->n; d++) {
        int64_t s = 0;
        for (int i = 0; i < a->taps; i++)
            s += w[(size_t)d * a->taps + i] < 0 ? -w[(size_t)d * a->taps + i] : w[(size_t)d * a->taps + i];
        best = s > best ? s : best;
    }
    return best;
}

/* Whether an axis is bilinear's exact halving: taps o + 2d, o + 2d + 1,
 * weights 1024 each (class_tables.halves); its o into *origin. */
static bool axis_halves(const cf_scale_plan *pl, const cf_scale_axis *a, int *origin)
{
    const int32_t *xi = (const int32_t *)((const uint8_t *)pl->tables + a->index_offset);
    const int16_t *w = (const int16_t *)((const uint8_t *)pl->tables + a->weight_offset);
    if (a->taps != 2)
        return false;
    *origin = xi[0];
    for (int d = 0; d < a->n; d++)
        if (xi[2 * d] != xi[0] + 2 * d || xi[2 * d + 1] != xi[2 * d] + 1 || w[2 * d] != 1024 ||
            w[2 * d + 1] != 1024)
            return false;
    return true;
}

/* Fills class k's tables (off, xw already sized) and its n_vec for lanes
 * `vl`: the outputs before the first whose source word (offset + 4) would
 * pass the row's `row_bytes`, rounded down to lanes; 0 where the sums
 * could overflow 32 bits. */
static void class_setup(const cf_scale_plan *pl, int k, const cf_scale_plane *pp,
                        size_t row_bytes, int vl, class_tables *t)
{
    const cf_scale_axis *ax = &pl->x[k];
    const int step = pp->cn * pp->sample_bytes, n = ax->n;
    /* The largest sample a load can give: 16-bit words of a 10-bit format
     * without a shift are taken as they are by the reference too. */
    const int64_t top = pp->sample_bytes == 1 ? 255 : 65535 >> pp->shift;
    int safe = 0;
    if (pl->box[k]) {
        int64_t area = (int64_t)pl->kx[k] * pl->ky[k];
        bool fits = top * area + area < INT32_MAX;
        bool pow2 = (area & (area - 1)) == 0;
        if (fits && (pow2 || top * area + 2 * area < (1 << 24)))
            while (safe < n && (size_t)(pl->x0[k] + (int64_t)(safe + 1) * pl->kx[k] - 1) * step + 4 <=
                                   row_bytes)
                safe++;
    } else {
        const int32_t *xi = (const int32_t *)((const uint8_t *)pl->tables + ax->index_offset);
        const int16_t *w = (const int16_t *)((const uint8_t *)pl->tables + ax->weight_offset);
        int64_t sx = weight_sum(pl, ax), sy = weight_sum(pl, &pl->y[k]);
        int64_t h = top * sx;
        bool fits = h < INT32_MAX && ((h >> 11) + 1) * sy + 2048 * sy + (1 << 21) < INT32_MAX;
        for (int d = 0; d < n; d++) {
            bool inside = true;
            for (int i = 0; i < ax->taps; i++) {
                int32_t idx = xi[(size_t)d * ax->taps + i];
                t->off[(size_t)i * n + d] = idx * step;
                t->xw[(size_t)i * n + d] = w[(size_t)d * ax->taps + i];
                inside = inside && (size_t)idx * step + 4 <= row_bytes;
            }
            if (fits && inside && safe == d)
                safe++;
        }
        if (pl->opencv_linear && (ax->taps != 2 || pl->y[k].taps != 2))
            safe = 0;
        t->halves = pl->opencv_linear && axis_halves(pl, ax, &t->x0) &&
                    axis_halves(pl, &pl->y[k], &t->y0);
        t->small_weights = ax->taps == 2;
        for (int d = 0; d < n && t->small_weights; d++) {
            int a = w[2 * (size_t)d], b = w[2 * (size_t)d + 1];
            t->small_weights = a >= 0 && b >= 0 && a + b <= 2049;
        }
    }
    t->n_vec = safe / vl * vl;
}

static void reference_rows(const void *plan, const cf_frame *src, cf_frame *dst, int r0, int r1)
{
    cf_scale_cpu_rows(plan, src, dst, r0, r1);
}

cf_status cf_scale_fast(const cf_scale_plan *plan, const cf_frame *src, cf_frame *dst,
                        cf_scratch *scratch, int threads)
{
    cf_cpu_level level;
    const cf_scale_simd *fn = cf_cpu_pick(levels, &level);
    if (!fn) {
        cf_rows_cpu_run(reference_rows, plan, src, dst, cf_scale_rows(plan), threads);
        return CF_OK;
    }
    const int vl = level >= CF_CPU_AVX512 ? 16 : level == CF_CPU_AVX2 ? 8 : 4;
    scale_job j = { .fn = fn, .plan = plan, .src = src, .dst = dst };
    const cf_scale_plane *first[2] = { NULL, NULL };
    size_t row_bytes[2] = { 0, 0 }, table_ints = 0;
    for (int p = 0; p < plan->n_planes; p++) {
        int k = plan->planes[p].klass;
        if (!first[k]) {
            first[k] = &plan->planes[p];
            row_bytes[k] = cf_format_plane_row_bytes(src->format, p, src->width);
            table_ints += 2 * (size_t)plan->x[k].n * (size_t)plan->x[k].taps;
        }
        int need = plan->box[k] ? plan->ky[k] : plan->y[k].taps;
        j.max_rows = need > j.max_rows ? need : j.max_rows;
    }
    const int nslots = cf_parallel_threads(threads);
    size_t bytes = table_ints * 4 + (size_t)nslots * (size_t)j.max_rows * sizeof(void *);
    void *block;
    CF_TRY(cf_scratch_reserve(scratch, bytes, CF_MEMORY_HOST, &block));
    j.rows = (const uint8_t **)block;
    int32_t *ints = (int32_t *)(void *)(j.rows + (size_t)nslots * j.max_rows);
    for (int k = 0; k < 2; k++) {
        if (!first[k])
            continue;
        size_t n = (size_t)plan->x[k].n * (size_t)plan->x[k].taps;
        j.t[k].off = ints, j.t[k].xw = ints + n;
        ints += 2 * n;
        class_setup(plan, k, first[k], row_bytes[k], vl, &j.t[k]);
        j.row_bytes[k] = (int)row_bytes[k];
    }
    cf_cpu_note_ran(level);
    size_t out_bytes = 0;
    for (int p = 0; p < plan->n_planes; p++)
        out_bytes += cf_format_plane_row_bytes(dst->format, p, dst->width) *
                     (size_t)plan->planes[p].dh;
    int rows = cf_scale_rows(plan);
    cf_parallel_rows(rows, threads, (int)(65536 / (out_bytes / (size_t)rows + 1)) + 1, scale_rows,
                     &j);
    return CF_OK;
}
