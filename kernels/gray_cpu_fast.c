/* cudafilters gray: the optimized CPU gray (gray_cpu_fast.h): one SIMD
 * row function per case, run over slices of rows on the pool. */
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "cpu_dispatch.h"
#include "gray_cpu_fast.h"
#include "gray_cpu_simd.h"
#include "parallel.h"

static const void *const levels[CF_CPU_LEVELS] = {
    NULL,
#if CF_SIMD_MAX_LEVEL >= 1
    &cf_gray_simd_baseline,
#else
    NULL,
#endif
#if CF_SIMD_MAX_LEVEL >= 2
    &cf_gray_simd_avx2,
#else
    NULL,
#endif
#if CF_SIMD_MAX_LEVEL >= 3
    &cf_gray_simd_avx512,
#else
    NULL,
#endif
};

/* The 16-bit form of cf_gray_expand for one span (gray_cpu_simd.h,
 * luma_mulhi): y = (min((t << k) + c, 65535) * a) >> (16 + m). */
typedef struct mulhi_form {
    int k, m;
    uint16_t a, c;
} mulhi_form;

static bool mulhi_exact(int span, mulhi_form f)
{
    for (int t = 0; t <= span; t++) {
        uint32_t x = ((uint32_t)t << f.k) + f.c;
        x = x > 65535 ? 65535 : x;
        if ((x * f.a) >> (16 + f.m) != cf_gray_expand(t, 0, span))
            return false;
    }
    return true;
}

/* Looks for a form near y = 255 t / span + 1/2 (a about 255 / span *
 * 2^(16 + m - k), c about 2^(15 + m) / a), each candidate checked on every
 * t in [0, span]; a == 0 when none is exact. A few thousand candidates at
 * most, once per span (the last four kept). */
static mulhi_form find_mulhi(int span)
{
    static _Atomic uint64_t cache[4]; /* span << 40 | k << 36 | m << 32 | a << 16 | c, + 1 */
    static atomic_int next;
    for (int i = 0; i < 4; i++) {
        uint64_t e = cache[i];
        if (e && (int)((e - 1) >> 40) == span)
            return (mulhi_form){ (int)((e - 1) >> 36 & 15), (int)((e - 1) >> 32 & 15),
                                 (uint16_t)((e - 1) >> 16), (uint16_t)(e - 1) };
    }
    mulhi_form found = { 0, 0, 0, 0 };
    for (int k = 8; k >= 0 && !found.a; k--) {
        if (span > 0 && (span << k) > 65535 && k > 0)
            continue;
        for (int m = 0; m <= 8 && !found.a; m++) {
            double a0 = 255.0 / span * (double)(1 << (16 + m)) / (double)(1 << k);
            for (int da = -2; da <= 2 && !found.a; da++) {
                long a = (long)a0 + da;
                if (a <= 0 || a > 65535)
                    continue;
                long c0 = (long)((double)(1 << (15 + m)) / (double)a);
                for (long c = c0 - 40; c <= c0 + 40 && !found.a; c++) {
                    mulhi_form f = { k, m, (uint16_t)a, (uint16_t)c };
                    if (c >= 0 && c <= 65535 && mulhi_exact(span, f))
                        found = f;
                }
            }
        }
    }
    cache[atomic_fetch_add(&next, 1) & 3] = ((uint64_t)span << 40 | (uint64_t)found.k << 36 |
                                             (uint64_t)found.m << 32 | (uint64_t)found.a << 16 |
                                             found.c) + 1;
    return found;
}

typedef struct gray_job {
    const cf_gray_simd *fn;
    const cf_gray_plan *plan;
    const cf_frame *src;
    cf_frame *dst;
    const cf_format_info *info;
    int32_t w[3]; /* weights of pixel bytes 0, 1, 2 */
    uint32_t mul24; /* luma16's: the plan's, or mul24_checked */
    mulhi_form mulhi; /* luma_mulhi's, a == 0: none */
} gray_job;

static void rgb_rows(void *ctx, int y0, int y1, int slot)
{
    (void)slot;
    const gray_job *j = ctx;
    const int bpp = j->info->pixel_bytes[0];
    for (int y = y0; y < y1; y++) {
        const uint8_t *s = j->src->data[0] + (size_t)y * j->src->pitch[0];
        uint8_t *d = j->dst->data[0] + (size_t)y * j->dst->pitch[0];
        if (j->plan->keep_format)
            j->fn->rgb_keep(s, j->src->width, bpp, j->w[0], j->w[1], j->w[2], d);
        else
            j->fn->rgb(s, j->src->width, bpp, j->w[0], j->w[1], j->w[2], d);
    }
}

static void luma_rows(void *ctx, int y0, int y1, int slot)
{
    (void)slot;
    const gray_job *j = ctx;
    const cf_gray_plan *p = j->plan;
    const size_t w = (size_t)j->src->width;
    if (p->sample_bytes == 1 && p->lo == 0 && p->span == 255 && j->src->pitch[0] == w &&
        j->dst->pitch[0] == w) { /* the identity on contiguous rows: one copy */
        memcpy(j->dst->data[0] + (size_t)y0 * w, j->src->data[0] + (size_t)y0 * w,
               (size_t)(y1 - y0) * w);
        return;
    }
    for (int y = y0; y < y1; y++) {
        const uint8_t *s = j->src->data[0] + (size_t)y * j->src->pitch[0];
        uint8_t *d = j->dst->data[0] + (size_t)y * j->dst->pitch[0];
        if (p->sample_bytes == 1 && p->lo == 0 && p->span == 255)
            memcpy(d, s, (size_t)j->src->width); /* full range 8-bit: the identity */
        else if (j->mulhi.a)
            j->fn->luma_mulhi(s, j->src->width, p->sample_bytes, p->shift, p->lo, p->span,
                              j->mulhi.k, j->mulhi.m, j->mulhi.a, j->mulhi.c, d);
        else if (p->sample_bytes == 1)
            j->fn->luma8(s, j->src->width, p->lo, p->span, p->mul24, d);
        else
            j->fn->luma16(s, j->src->width, p->shift, p->lo, p->span, j->mul24, p->magic,
                          p->magic_shift, d);
    }
}

/* The 32-bit multiply of cf_gray_expand_mul24 for a span beyond the
 * header's proof (16-bit full range, 65535): A = ceil(255 * 2^24 / span)
 * where t * A + 2^23 stays below 2^32 and (t * A + 2^23) >> 24 equals
 * cf_gray_expand for every t in [0, span], checked here exhaustively
 * (once per span; 0: the check failed, keep the exact division). */
static uint32_t mul24_checked(int span)
{
    static _Atomic int64_t cache = -1; /* span << 32 | A */
    int64_t c = cache;
    if (c >= 0 && (int)(c >> 32) == span)
        return (uint32_t)c;
    uint64_t a = ((255ull << 24) + (uint64_t)span - 1) / (uint64_t)span;
    bool ok = (uint64_t)span * a + (1u << 23) < (1ull << 32);
    for (int t = 0; ok && t <= span; t++)
        ok = cf_gray_expand_mul24((uint32_t)t, (uint32_t)a) == cf_gray_expand(t, 0, span);
    uint32_t result = ok ? (uint32_t)a : 0;
    cache = (int64_t)span << 32 | result;
    return result;
}

/* Same format out: rows of every plane numbered as one list; luma rows
 * copied, chroma rows set to no colour. */
static void keep_rows(void *ctx, int y0, int y1, int slot)
{
    (void)slot;
    const gray_job *j = ctx;
    const cf_frame *src = j->src;
    for (int p = 0, base = 0; p < j->info->n_planes; p++) {
        int h = cf_format_plane_height(src->format, p, src->height);
        size_t row = cf_format_plane_row_bytes(src->format, p, src->width);
        for (int y = y0 > base ? y0 - base : 0; y < h && y < y1 - base; y++) {
            uint8_t *d = j->dst->data[p] + (size_t)y * j->dst->pitch[p];
            if (p == 0) {
                memcpy(d, src->data[0] + (size_t)y * src->pitch[0], row);
            } else if (j->info->sample_bytes == 1) {
                memset(d, j->plan->neutral, row);
            } else {
                for (size_t x = 0; x < row; x += 2) {
                    d[x] = (uint8_t)(j->plan->neutral & 0xff);
                    d[x + 1] = (uint8_t)(j->plan->neutral >> 8);
                }
            }
        }
        base += h;
    }
}

/* Rows of a slice: at least about 64 KiB of input. */
static int min_rows(size_t row_bytes)
{
    return (int)(65536 / (row_bytes + 1)) + 1;
}

cf_status cf_gray_fast(const cf_gray_plan *plan, const cf_frame *src, cf_frame *dst, int threads)
{
    cf_cpu_level level;
    const cf_gray_simd *fn = cf_cpu_pick(levels, &level);
    const cf_format_info *info = cf_format_get_info(src->format);
    /* The row functions take R, G, B in bytes 0-2 of a pixel (every RGB
     * format of the table); any other layout takes the reference. */
    if (fn && plan->from_rgb && (info->g_offset != 1 || info->r_offset + info->b_offset != 2)) {
        fn = NULL;
        level = CF_CPU_REFERENCE;
    }
    cf_cpu_note_ran(level);
    if (!fn)
        return cf_gray_cpu(plan, src, dst);
    gray_job j = { fn, plan, src, dst, info, { 0 }, plan->mul24, { 0, 0, 0, 0 } };
    if (!plan->from_rgb && plan->sample_bytes == 2 && !j.mul24)
        j.mul24 = mul24_checked(plan->span);
    if (!plan->from_rgb && !plan->keep_format && fn->luma_mulhi && plan->span <= 65535)
        j.mulhi = find_mulhi(plan->span);
    size_t row = cf_format_plane_row_bytes(src->format, 0, src->width);
    if (plan->from_rgb) {
        j.w[info->r_offset] = plan->w.r;
        j.w[1] = plan->w.g;
        j.w[info->b_offset] = plan->w.b;
        cf_parallel_rows(src->height, threads, min_rows(row), rgb_rows, &j);
    } else if (plan->keep_format) {
        int rows = 0;
        for (int p = 0; p < info->n_planes; p++)
            rows += cf_format_plane_height(src->format, p, src->height);
        cf_parallel_rows(rows, threads, min_rows(row), keep_rows, &j);
    } else {
        cf_parallel_rows(src->height, threads, min_rows(row), luma_rows, &j);
    }
    return CF_OK;
}
