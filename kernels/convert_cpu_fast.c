/* cudafilters convert: the optimized CPU convert (convert_cpu_fast.h): the
 * plan's numbers turned into the SIMD rows' (convert_cpu_simd.h), run over
 * slices of rows on the pool. */
#include <stdlib.h>
#include <string.h>

#include "convert_cpu_copy_simd.h"
#include "convert_cpu_fast.h"
#include "convert_cpu_lut.h"
#include "convert_cpu_simd.h"
#include "cpu_dispatch.h"
#include "parallel.h"
#include "rows_cpu_threads.h"

static const void *const levels[CF_CPU_LEVELS] = {
    NULL,
#if CF_SIMD_MAX_LEVEL >= 1
    &cf_convert_simd_baseline,
#else
    NULL,
#endif
#if CF_SIMD_MAX_LEVEL >= 2
    &cf_convert_simd_avx2,
#else
    NULL,
#endif
#if CF_SIMD_MAX_LEVEL >= 3
    &cf_convert_simd_avx512,
#else
    NULL,
#endif
};

static const void *const copy_levels[CF_CPU_LEVELS] = {
    NULL,
#if CF_SIMD_MAX_LEVEL >= 1
    &cf_convert_copy_simd_baseline,
#else
    NULL,
#endif
#if CF_SIMD_MAX_LEVEL >= 2
    &cf_convert_copy_simd_avx2,
#else
    NULL,
#endif
#if CF_SIMD_MAX_LEVEL >= 3
    &cf_convert_copy_simd_avx512,
#else
    NULL,
#endif
};

#define PAD 32 /* int32 slack after each row buffer: a vector of the widest level, twice */

typedef struct convert_job {
    const cf_convert_simd *fn;
    const cf_convert_copy_simd *copy;
    const cf_convert_plan *plan;
    const cf_frame *src;
    cf_frame *dst;
    cf_cv_to_rgb rgb;
    cf_cv_to_yuv yuv;
    uint8_t *scratch;
    size_t slot_bytes;
    bool check_range; /* 16-bit samples that can exceed the depth (out_of_range) */
} convert_job;

/* Samples of a 16-bit format with depth < 16 and no shift may lie beyond
 * 2^depth - 1 (the reference takes them as they are, in 64 bits): such a
 * row (luma row, or either chroma row it reads) goes through the
 * reference, so 32-bit lanes never see them. */
static bool out_of_range(const convert_job *j, const uint8_t *yrow, const uint8_t *ua,
                         const uint8_t *va, const uint8_t *ub, const uint8_t *vb)
{
    const int w = j->src->width, cw = (w + 1) / 2, n = j->plan->s.semi_planar ? 2 * cw : cw;
    uint32_t any = j->fn->or_u16(yrow, w) | j->fn->or_u16(ua, n) | j->fn->or_u16(ub, n);
    if (!j->plan->s.semi_planar)
        any |= j->fn->or_u16(va, n) | j->fn->or_u16(vb, n);
    return (any >> j->plan->s.depth) != 0;
}

static void reference_row(const convert_job *j, int y)
{
    cf_convert_planes in = cf_convert_planes_of(j->src), out = cf_convert_planes_of(j->dst);
    const int w = j->src->width;
    for (int x = 0; x < w; x++)
        cf_cv_out_pixel(j->plan, &in, &out, x, y, (w + 1) / 2, (j->src->height + 1) / 2);
}

/* YUV -> RGB: output rows [y0, y1). Slot buffers: cu, cv (cw + 2 + PAD
 * each), words (w + PAD) for 3-byte output. */
static void yuv_rgb_rows(void *ctx, int y0, int y1, int slot)
{
    const convert_job *j = ctx;
    const cf_convert_plan *pl = j->plan;
    const cf_frame *s = j->src;
    const int w = s->width, cw = (w + 1) / 2, ch = (s->height + 1) / 2;
    int32_t *cu = (int32_t *)(void *)(j->scratch + (size_t)slot * j->slot_bytes);
    int32_t *cv = cu + cw + 2 + PAD;
    uint32_t *words = (uint32_t *)(cv + cw + 2 + PAD);
    const int sb = pl->s.sample_bytes, step = pl->s.semi_planar ? 2 : 1;
    int mixed = -1; /* ja << 16 | jb << 4 | fa of what cu, cv hold (nearest: 2 rows a mix) */
    for (int y = y0; y < y1; y++) {
        int ja, jb, fa, fb;
        if (pl->filter == CF_CHROMA_NEAREST) {
            ja = jb = y >> 1, fa = 4, fb = 0;
        } else {
            int j0, fy;
            cf_cv_up_taps(y, true, &j0, &fy);
            ja = cf_cv_clamp(j0, ch - 1), jb = cf_cv_clamp(j0 + 1, ch - 1);
            fa = 4 - fy, fb = fy;
        }
        const uint8_t *ua = s->data[1] + (size_t)ja * s->pitch[1];
        const uint8_t *ub = s->data[1] + (size_t)jb * s->pitch[1];
        const uint8_t *va = pl->s.semi_planar ? ua + sb : s->data[2] + (size_t)ja * s->pitch[2];
        const uint8_t *vb = pl->s.semi_planar ? ub + sb : s->data[2] + (size_t)jb * s->pitch[2];
        uint8_t *d = j->dst->data[0] + (size_t)y * j->dst->pitch[0];
        const uint8_t *yrow = s->data[0] + (size_t)y * s->pitch[0];
        if (j->check_range && out_of_range(j, yrow, ua, va, ub, vb)) {
            reference_row(j, y);
            continue;
        }
        if (mixed != (ja << 16 | jb << 4 | fa))
            j->fn->chroma_mix(ua, va, ub, vb, step, sb, pl->s.shift, fa, fb, cw, cu + 1, cv + 1);
        mixed = ja << 16 | jb << 4 | fa;
        if (pl->d.bpp == 4) {
            j->fn->yuv_to_rgb4(&j->rgb, yrow, cu + 1, cv + 1, w, d);
        } else {
            j->fn->yuv_to_rgb4(&j->rgb, yrow, cu + 1, cv + 1, w, (uint8_t *)words);
            j->fn->words_to_rgb3(words, w, d);
        }
    }
}

/* The 4-byte words of source row y: the row itself, or unpacked into buf. */
static const uint8_t *rgb_row(const convert_job *j, int y, uint32_t *buf)
{
    const uint8_t *row = j->src->data[0] + (size_t)y * j->src->pitch[0];
    if (j->plan->s.bpp == 4)
        return row;
    j->fn->rgb3_to_words(row, j->src->width, buf);
    return (const uint8_t *)buf;
}

/* RGB -> 4:2:0: chroma rows [j0, j1) with their luma rows. Slot buffers:
 * u, v (cw + PAD each), two rows of words (w + PAD each) for 3-byte input. */
static void rgb_yuv_rows(void *ctx, int j0, int j1, int slot)
{
    const convert_job *j = ctx;
    const cf_convert_plan *pl = j->plan;
    const cf_frame *s = j->src;
    cf_frame *d = j->dst;
    const int w = s->width, h = s->height, cw = (w + 1) / 2;
    int32_t *u = (int32_t *)(void *)(j->scratch + (size_t)slot * j->slot_bytes);
    int32_t *v = u + cw + PAD;
    uint32_t *w0 = (uint32_t *)(v + cw + PAD), *w1 = w0 + w + PAD;
    cf_convert_planes in = cf_convert_planes_of(s);
    const int db = pl->d.sample_bytes;
    for (int jj = j0; jj < j1; jj++) {
        const uint8_t *r0 = rgb_row(j, 2 * jj, w0), *r1 = r0;
        j->fn->rgb4_luma(&j->yuv, r0, w, db, pl->d.shift,
                         d->data[0] + (size_t)(2 * jj) * d->pitch[0]);
        if (2 * jj + 1 < h) {
            r1 = rgb_row(j, 2 * jj + 1, w1);
            j->fn->rgb4_luma(&j->yuv, r1, w, db, pl->d.shift,
                             d->data[0] + (size_t)(2 * jj + 1) * d->pitch[0]);
        }
        /* Vectors where every tap is inside the row, the reference at the ends. */
        int i0 = j->yuv.mode == 2 ? 1 : 0, i1 = w / 2;
        if (i1 > i0)
            j->fn->rgb4_chroma(&j->yuv, r0, r1, i0, i1, u, v);
        else
            i1 = i0;
        for (int i = 0; i < i0 && i < cw; i++)
            cf_cv_out_chroma(pl, &in, i, jj, w, h, &u[i], &v[i]);
        for (int i = i1; i < cw; i++)
            cf_cv_out_chroma(pl, &in, i, jj, w, h, &u[i], &v[i]);
        uint8_t *d1 = d->data[1] + (size_t)jj * d->pitch[1];
        uint8_t *d2 = pl->d.semi_planar ? NULL : d->data[2] + (size_t)jj * d->pitch[2];
        j->fn->store_chroma(u, v, cw, pl->d.semi_planar, db, pl->d.shift, d1, d2);
    }
}

static cf_cv_bytes bytes_of(const cf_convert_layout *l)
{
    return (cf_cv_bytes){ l->bpp, l->r, l->g, l->b, l->a };
}

/* RGB -> RGB or GRAY: output rows [y0, y1). */
static void rgb_rgb_rows(void *ctx, int y0, int y1, int slot)
{
    const convert_job *j = ctx;
    const cf_convert_plan *pl = j->plan;
    (void)slot;
    for (int y = y0; y < y1; y++)
        if (pl->d.kind == CF_KIND_GRAY)
            j->copy->rgb_gray(j->src->data[0] + (size_t)y * j->src->pitch[0], bytes_of(&pl->s),
                              j->src->width, pl->lr, pl->lg, pl->lb, pl->d.depth == 16,
                              j->dst->data[0] + (size_t)y * j->dst->pitch[0]);
        else
            j->copy->rgb_to_rgb(j->src->data[0] + (size_t)y * j->src->pitch[0], bytes_of(&j->plan->s),
                            j->src->width, j->dst->data[0] + (size_t)y * j->dst->pitch[0],
                            bytes_of(&j->plan->d), j->plan->alpha);
}

/* 4:2:0 -> 4:2:0 at the same depth: chroma rows [j0, j1) with their luma
 * rows, samples moved between layouts. */
static void yuv_yuv_rows(void *ctx, int j0, int j1, int slot)
{
    const convert_job *j = ctx;
    const cf_convert_layout *sl = &j->plan->s, *dl = &j->plan->d;
    const cf_frame *s = j->src;
    cf_frame *d = j->dst;
    const int w = s->width, h = s->height, cw = (w + 1) / 2, sb = sl->sample_bytes;
    (void)slot;
    for (int jj = j0; jj < j1; jj++) {
        for (int y = 2 * jj; y < 2 * jj + 2 && y < h; y++) {
            const uint8_t *in = s->data[0] + (size_t)y * s->pitch[0];
            uint8_t *out = d->data[0] + (size_t)y * d->pitch[0];
            /* The reference loads P010 >> 6 and stores << 6: its low 6
             * bits go, so only unshifted samples copy as they are. */
            if (sb == 1 || (sl->shift == 0 && dl->shift == 0))
                memcpy(out, in, (size_t)w * sb);
            else
                j->copy->samples16(in, w, sl->shift, dl->shift, out);
        }
        const uint8_t *u = s->data[1] + (size_t)jj * s->pitch[1];
        const uint8_t *v = sl->semi_planar ? u + sb : s->data[2] + (size_t)jj * s->pitch[2];
        uint8_t *du = d->data[1] + (size_t)jj * d->pitch[1];
        uint8_t *dv = dl->semi_planar ? du + sb : d->data[2] + (size_t)jj * d->pitch[2];
        j->copy->chroma(u, v, sl->semi_planar ? 2 : 1, cw, sb, sl->shift, dl->shift, du, dv,
                        dl->semi_planar ? 2 : 1);
    }
}

static int64_t abs64(int64_t v)
{
    return v < 0 ? -v : v;
}

/* The SIMD rows' numbers for YUV -> RGB; false where a 32-bit lane could
 * overflow (no plan of the table does: checked, not assumed). */
static bool to_rgb_numbers(const cf_convert_plan *pl, cf_cv_to_rgb *k)
{
    static const int taps[2][2][4] = { { { 0, 4, 2, 2 }, { 1, 3, 3, 1 } },
                                       { { 0, 4, 4, 0 }, { 0, 4, 4, 0 } } };
    const int *t = taps[pl->filter == CF_CHROMA_NEAREST][pl->site == CF_SITE_CENTER];
    int pad = pl->d.a >= 0 ? pl->d.a : 6 - pl->d.r - pl->d.g - pl->d.b;
    *k = (cf_cv_to_rgb){
        .cy16 = pl->cy * 16, .y_lo = pl->y_lo, .c_mid16 = 16 * pl->c_mid, .crv = pl->crv,
        .cgu = pl->cgu, .cgv = pl->cgv, .cbu = pl->cbu, .rs = 8 * pl->d.r, .gs = 8 * pl->d.g,
        .bs = 8 * pl->d.b,
        .fill = pl->d.bpp == 4 ? (uint32_t)(pl->alpha >= 0 ? pl->alpha : 255) << (8 * pad) : 0,
        .y_bytes = pl->s.sample_bytes, .y_shift = pl->s.shift,
        .e0 = t[0], .e1 = t[1], .o1 = t[2], .o2 = t[3],
    };
    int64_t m = pl->ymax + 1;
    int64_t bound = abs64(k->cy16) * m + (abs64(pl->crv) + abs64(pl->cgu) + abs64(pl->cgv) +
                                          abs64(pl->cbu)) * 16 * m + (1 << 17);
    return bound < INT32_MAX;
}

static bool to_yuv_numbers(const cf_convert_plan *pl, cf_cv_to_yuv *k)
{
    memset(k, 0, sizeof *k);
    k->wy[pl->s.r] = pl->yr, k->wy[pl->s.g] = pl->yg, k->wy[pl->s.b] = pl->yb;
    k->wu[pl->s.r] = pl->ur, k->wu[pl->s.g] = pl->ug, k->wu[pl->s.b] = pl->ub;
    k->wv[pl->s.r] = pl->vr, k->wv[pl->s.g] = pl->vg, k->wv[pl->s.b] = pl->vb;
    k->y_lo = pl->y_lo, k->ymax = pl->ymax, k->c_mid = pl->c_mid;
    k->mode = pl->filter == CF_CHROMA_NEAREST ? 0 : pl->site == CF_SITE_CENTER ? 1 : 2;
    k->madd = 1;
    for (int b = 0; b < 4; b++)
        k->madd &= k->wy[b] >= INT16_MIN && k->wy[b] <= INT16_MAX && k->wu[b] >= INT16_MIN &&
                   k->wu[b] <= INT16_MAX && k->wv[b] >= INT16_MIN && k->wv[b] <= INT16_MAX;
    int64_t ly = (abs64(pl->yr) + abs64(pl->yg) + abs64(pl->yb)) * 255 +
                 ((int64_t)pl->y_lo << 14) + (1 << 13);
    int64_t lu = (abs64(pl->ur) + abs64(pl->ug) + abs64(pl->ub)) * 8 * 255;
    int64_t lv = (abs64(pl->vr) + abs64(pl->vg) + abs64(pl->vb)) * 8 * 255;
    int64_t lc = (lu > lv ? lu : lv) + ((int64_t)pl->c_mid << 17) + (1 << 16);
    return ly < INT32_MAX && lc < INT32_MAX;
}

static void reference_rows(const void *plan, const cf_frame *src, cf_frame *dst, int r0, int r1)
{
    cf_convert_cpu_rows(plan, src, dst, r0, r1);
}

/* Rows of a slice: at least about 64 KiB of output. */
static int min_rows(size_t row_bytes)
{
    return (int)(65536 / (row_bytes + 1)) + 1;
}

cf_status cf_convert_fast(const cf_convert_plan *plan, const cf_frame *src, cf_frame *dst,
                          cf_scratch *scratch, int threads)
{
    cf_cpu_level level;
    const cf_convert_simd *fn = cf_cpu_pick(levels, &level);
    convert_job j = { .fn = fn, .plan = plan, .src = src, .dst = dst };
    const int w = src->width, cw = (w + 1) / 2;
    bool yuv_rgb = plan->s.kind == CF_KIND_YUV && plan->d.kind == CF_KIND_RGB &&
                   to_rgb_numbers(plan, &j.rgb);
    bool rgb_yuv = plan->s.kind == CF_KIND_RGB && plan->d.kind == CF_KIND_YUV &&
                   to_yuv_numbers(plan, &j.yuv);
    bool rgb_rgb = plan->s.kind == CF_KIND_RGB && plan->d.kind != CF_KIND_YUV;
    bool yuv_yuv = plan->s.kind == CF_KIND_YUV && plan->d.kind == CF_KIND_YUV &&
                   plan->s.depth == plan->d.depth;
    bool lut = cf_convert_lut_applies(plan);
    if (fn && (rgb_rgb || yuv_yuv || lut)) {
        cf_cpu_level copy_level;
        j.copy = cf_cpu_pick(copy_levels, &copy_level);
        if (lut) {
            CF_TRY(cf_convert_lut(j.copy, plan, src, dst, scratch, threads));
            cf_cpu_note_ran(copy_level);
            return CF_OK;
        }
        cf_cpu_note_ran(copy_level);
        size_t out_row = cf_format_plane_row_bytes(dst->format, 0, w);
        if (rgb_rgb)
            cf_parallel_rows(src->height, threads, min_rows(out_row), rgb_rgb_rows, &j);
        else
            cf_parallel_rows((src->height + 1) / 2, threads, min_rows(3 * out_row), yuv_yuv_rows,
                             &j);
        return CF_OK;
    }
    if (!fn || (!yuv_rgb && !rgb_yuv)) {
        cf_rows_cpu_run(reference_rows, plan, src, dst, cf_convert_rows(plan, src->height),
                        threads);
        return CF_OK;
    }
    j.check_range = plan->s.sample_bytes == 2 && 16 - plan->s.shift > plan->s.depth;
    int nslots = cf_parallel_threads(threads);
    if (yuv_rgb)
        j.slot_bytes = (2 * (size_t)(cw + 2 + PAD) + (size_t)w + PAD) * 4;
    else
        j.slot_bytes = (2 * (size_t)(cw + PAD) + 2 * ((size_t)w + PAD)) * 4;
    void *block;
    CF_TRY(cf_scratch_reserve(scratch, j.slot_bytes * (size_t)nslots, CF_MEMORY_HOST, &block));
    scratch->tag = 0; /* row buffers now, no tables (convert_cpu_lut.c) */
    j.scratch = block;
    cf_cpu_note_ran(level);
    size_t out_row = cf_format_plane_row_bytes(dst->format, 0, w);
    if (yuv_rgb)
        cf_parallel_rows(src->height, threads, min_rows(out_row), yuv_rgb_rows, &j);
    else
        cf_parallel_rows((src->height + 1) / 2, threads, min_rows(3 * out_row), rgb_yuv_rows, &j);
    return CF_OK;
}
