/* cudafilters convert: the lookup-table pairs of the optimized CPU convert
 * (convert_cpu_lut.h). A table entry is what the reference computes for a
 * one-pixel frame holding that sample value, so the tables cannot differ
 * from it; the rows then only look samples up. */
#include <string.h>

#include "convert_cpu_lut.h"
#include "parallel.h"

#define LUT_TAG 0x4c5554ull /* scratch->tag: the block holds tables for its plan copy */

bool cf_convert_lut_applies(const cf_convert_plan *pl)
{
    int s = pl->s.kind, d = pl->d.kind;
    return (d == CF_KIND_GRAY && s != CF_KIND_RGB) ||
           (s == CF_KIND_GRAY && (d == CF_KIND_RGB || d == CF_KIND_YUV)) ||
           (s == CF_KIND_YUV && d == CF_KIND_YUV && pl->s.depth != pl->d.depth);
}

/* Sample values a load of the source can give (16-bit words >> shift). */
static int domain(const cf_convert_layout *l)
{
    return l->sample_bytes == 1 ? 256 : 65536 >> l->shift;
}

typedef struct lut_block {
    cf_convert_plan plan;
    uint32_t *main32;  /* RGB output words */
    uint16_t *main16;  /* gray output, or YUV output luma: the word to store */
    uint16_t *chroma;  /* YUV output chroma: the word to store */
} lut_block;

static uint16_t stored(const cf_convert_layout *l, int v)
{
    uint8_t b[2] = { 0, 0 };
    cf_sample_store(b, l->sample_bytes, l->shift, v);
    return (uint16_t)(b[0] | b[1] << 8);
}

static void fill(const cf_convert_plan *pl, lut_block *t)
{
    const cf_convert_layout *s = &pl->s, *d = &pl->d;
    for (int v = 0; v < domain(s); v++) {
        uint8_t in[8] = { 0 }, out[8] = { 0 };
        cf_sample_store(in, s->sample_bytes, s->shift, v);
        cf_sample_store(in + s->sample_bytes, s->sample_bytes, s->shift, v);
        cf_convert_planes p = { { in, in, in }, { 0, 0, 0 } };
        cf_convert_planes o = { { out, out, out }, { 0, 0, 0 } };
        if (d->kind == CF_KIND_GRAY) {
            t->main16[v] = stored(d, cf_cv_pixel_gray(pl, &p, 0, 0));
        } else if (d->kind == CF_KIND_RGB) {
            cf_cv_out_pixel(pl, &p, &o, 0, 0, 1, 1);
            memcpy(&t->main32[v], out, 4);
        } else {
            int u, w;
            t->main16[v] = stored(d, cf_cv_out_luma(pl, &p, 0, 0));
            cf_cv_out_chroma(pl, &p, 0, 0, 1, 1, &u, &w);
            t->chroma[v] = stored(d, u);
        }
    }
}

typedef struct lut_job {
    const cf_convert_copy_simd *fn;
    const cf_convert_plan *plan;
    const cf_frame *src;
    cf_frame *dst;
    const lut_block *t;
} lut_job;

static void rows_out(void *ctx, int y0, int y1, int slot)
{
    const lut_job *j = ctx;
    const cf_convert_layout *s = &j->plan->s, *d = &j->plan->d;
    (void)slot;
    for (int y = y0; y < y1; y++) {
        const uint8_t *in = j->src->data[0] + (size_t)y * j->src->pitch[0];
        uint8_t *out = j->dst->data[0] + (size_t)y * j->dst->pitch[0];
        if (d->kind == CF_KIND_RGB)
            j->fn->lut32(in, j->src->width, s->sample_bytes, s->shift, j->t->main32, d->bpp, out);
        else
            j->fn->lut16(in, j->src->width, s->sample_bytes, s->shift, j->t->main16,
                         d->sample_bytes, out);
    }
}

/* 4:2:0 output: chroma rows [j0, j1) with their luma rows. */
static void rows_yuv(void *ctx, int j0, int j1, int slot)
{
    const lut_job *j = ctx;
    const cf_convert_layout *s = &j->plan->s, *d = &j->plan->d;
    const int w = j->src->width, h = j->src->height, cw = (w + 1) / 2;
    cf_convert_planes in = cf_convert_planes_of(j->src), out = cf_convert_planes_of(j->dst);
    (void)slot;
    for (int jj = j0; jj < j1; jj++) {
        for (int y = 2 * jj; y < 2 * jj + 2 && y < h; y++)
            j->fn->lut16(j->src->data[0] + (size_t)y * j->src->pitch[0], w, s->sample_bytes,
                         s->shift, j->t->main16, d->sample_bytes,
                         j->dst->data[0] + (size_t)y * j->dst->pitch[0]);
        for (int i = 0; i < cw; i++) {
            int u = 0, v = 0;
            if (s->kind == CF_KIND_YUV)
                cf_cv_chroma(s, &in, i, jj, &u, &v);
            /* the entries are stored words: back to values for the store */
            int cu = j->t->chroma[u] >> d->shift, cv = j->t->chroma[v] >> d->shift;
            if (d->sample_bytes == 1)
                cu &= 0xff, cv &= 0xff;
            cf_cv_store_chroma(d, &out, i, jj, cu, cv);
        }
    }
}

cf_status cf_convert_lut(const cf_convert_copy_simd *fn, const cf_convert_plan *plan,
                         const cf_frame *src, cf_frame *dst, cf_scratch *scratch, int threads)
{
    const size_t n = (size_t)domain(&plan->s);
    const size_t bytes = sizeof(lut_block) + n * (4 + 2 + 2);
    void *block;
    bool had = scratch->tag == LUT_TAG && scratch->ptr && scratch->size >= bytes;
    CF_TRY(cf_scratch_reserve(scratch, bytes, CF_MEMORY_HOST, &block));
    lut_block *t = block;
    if (!had || memcmp(&t->plan, plan, sizeof *plan) != 0) {
        t->plan = *plan;
        t->main32 = (uint32_t *)(void *)(t + 1);
        t->main16 = (uint16_t *)(void *)(t->main32 + n);
        t->chroma = t->main16 + n;
        fill(plan, t);
        scratch->tag = LUT_TAG;
    }
    lut_job j = { fn, plan, src, dst, t };
    size_t row = cf_format_plane_row_bytes(dst->format, 0, src->width);
    int min_rows = (int)(65536 / (row + 1)) + 1;
    if (plan->d.kind == CF_KIND_YUV)
        cf_parallel_rows((src->height + 1) / 2, threads, min_rows, rows_yuv, &j);
    else
        cf_parallel_rows(src->height, threads, min_rows, rows_out, &j);
    return CF_OK;
}
