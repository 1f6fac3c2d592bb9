/* cudafilters convert: per-pixel math shared by convert_cpu.c and convert.cu.
 *
 * Every supported format to every other. Formats fall in three kinds: RGB
 * (8-bit, with or without alpha), GRAY (GRAY8, GRAY16: full range, no
 * colour) and YUV 4:2:0 (NV12, I420 at 8 bits; P010, I420_10 at 10 bits).
 *
 * YUV <-> RGB follows the ITU definitions: with the matrix's luma weights
 * Kr, Kb (Kg = 1 - Kr - Kb; BT.601-7: 0.299, 0.114; BT.709-6 item 3.2:
 * 0.2126, 0.0722; BT.2020-2 table 4: 0.2627, 0.0593) and E' in [0, 1],
 *   E'Y = Kr E'R + Kg E'G + Kb E'B,
 *   E'Pb = (E'B - E'Y) / (2 (1 - Kb)),  E'Pr = (E'R - E'Y) / (2 (1 - Kr)),
 * quantised at D bits (8 or 10) as limited range Y = (219 E'Y + 16) 2^(D-8),
 * C = (224 E'P + 128) 2^(D-8) (BT.601-7 / BT.709-6 / BT.2020-2), or full
 * range Y = (2^D - 1) E'Y, C = (2^D - 1) E'P + 2^(D-1) (BT.2100-2 table 9).
 * RGB samples are 8 bits, full range (255 E').
 *
 * Fixed point: each conversion is a sum of integer products with
 * coefficients in Q14 (CF_CONVERT_SHIFT), rounded to nearest (half up) and
 * clamped; the coefficients are worked out once per plan on the host from
 * the formulas above, so the CPU and the GPU run the same integers.
 *
 * 4:2:0 chroma. Siting (where a chroma sample sits between its 2x2 luma
 * samples): "left" is MPEG-2's and H.264's default (horizontally on the
 * left luma column, vertically between the rows), "center" is JPEG's
 * (between both). The chroma filter is "linear": RGB -> 4:2:0 averages the
 * RGB of the luma positions the sample covers (centre: the 2x2 block, weights
 * 1/4; left: columns 2i-1, 2i, 2i+1 with weights 1/4, 1/2, 1/4, times rows
 * 2j, 2j+1), 4:2:0 -> RGB interpolates bilinearly between the four nearest
 * chroma samples at the luma position (weights in 16ths); or "nearest":
 * each chroma sample is the top-left pixel's, and each pixel takes its
 * block's chroma sample, which is what OpenCV's cvtColor does
 * (COLOR_RGB2YUV_I420, COLOR_YUV2RGB_NV12 ...). Samples outside the image
 * repeat the edge.
 *
 * Gray: RGB -> GRAY takes luma with the matrix's weights in Q15 exactly as
 * the gray filter (gray.h; BT.601 equals OpenCV's RGB2GRAY); GRAY16 is
 * 257 times GRAY8 (65535 / 255); YUV -> GRAY expands Y from its range;
 * GRAY -> YUV compresses it into the range with neutral chroma.
 * YUV -> YUV keeps the matrix and range and changes layout and depth
 * (limited: shift by 2 bits, rounding half up; full: scale by
 * (2^D - 1) / (2^S - 1), rounding half up).
 *
 * Every input sample is read through cf_cv_in(). */
#ifndef CUDAFILTERS_KERNELS_CONVERT_H
#define CUDAFILTERS_KERNELS_CONVERT_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "cudafilters/frame.h"
#include "internal.h"

#define CF_CONVERT_SHIFT 14

/* convert's parameters, in the order of its values (see
 * cf_convert_filter_plan). */
#define CF_CONVERT_PARAM_DESCS                                                                  \
    { "format", "Output format: the command line makes exactly this one when given; "         \
      "GStreamer prefers it and takes the negotiated one", "", CF_PARAM_ENUM, 0, 11, 0,       \
      cf_convert_format_choices, CF_PARAM_ROLE_OUTPUT_FORMAT },                                \
    { "matrix", "YUV matrix of the YUV side: bt601, bt709 or bt2020. GStreamer elements take " \
      "it from the caps, the command line from the decoder", "", CF_PARAM_ENUM, 0, 2,          \
      CF_MATRIX_BT601, cf_convert_matrix_choices, CF_PARAM_ROLE_COLOR_MATRIX },                \
    { "range", "Quantisation range of the YUV side: limited (16-235) or full", "",             \
      CF_PARAM_ENUM, 0, 1, CF_RANGE_LIMITED, cf_convert_range_choices,                         \
      CF_PARAM_ROLE_COLOR_RANGE },                                                             \
    { "chroma-site", "4:2:0 chroma siting: left (MPEG-2, H.264) or center (JPEG)", "",         \
      CF_PARAM_ENUM, 0, 1, CF_SITE_LEFT, cf_convert_site_choices, CF_PARAM_ROLE_CHROMA_SITE }, \
    { "chroma-filter", "4:2:0 chroma resampling: linear, or nearest (top-left sample, as "     \
      "OpenCV cvtColor)", "", CF_PARAM_ENUM, 0, 1, CF_CHROMA_LINEAR,                           \
      cf_convert_filter_choices, CF_PARAM_ROLE_NONE },                                         \
    { "alpha", "Alpha of the output: -1 keeps the input's (255 where it has none), 0 to 255 "  \
      "fills", "", CF_PARAM_INT, -1, 255, -1, NULL, CF_PARAM_ROLE_NONE }

typedef enum cf_convert_kind { CF_KIND_RGB, CF_KIND_GRAY, CF_KIND_YUV } cf_convert_kind;
typedef enum cf_convert_matrix { CF_MATRIX_BT601, CF_MATRIX_BT709, CF_MATRIX_BT2020 } cf_convert_matrix;
typedef enum cf_convert_range { CF_RANGE_LIMITED, CF_RANGE_FULL } cf_convert_range;
typedef enum cf_chroma_site { CF_SITE_LEFT, CF_SITE_CENTER } cf_chroma_site;
typedef enum cf_chroma_filter { CF_CHROMA_LINEAR, CF_CHROMA_NEAREST } cf_chroma_filter;

/* Where a format's samples are: everything the kernels need of its table
 * entry, in a struct that travels to the GPU by value. */
typedef struct cf_convert_layout {
    int kind;           /* cf_convert_kind */
    int sample_bytes;   /* 1 or 2 */
    int shift;          /* bit position of the sample (P010: 6) */
    int depth;          /* 8, 10 or 16 */
    int bpp;            /* plane 0: bytes per pixel */
    int r, g, b, a;     /* RGB: byte offsets, a = -1 without alpha */
    bool semi_planar;   /* YUV: U,V interleaved in plane 1 (NV12, P010) */
} cf_convert_layout;

/* The frame's planes, by value, for the kernels. */
typedef struct cf_convert_planes {
    uint8_t *data[3];
    size_t pitch[3];
} cf_convert_planes;

/* Internal linkage under nvcc: each .cu file that includes this header
 * has its own device copies of these functions. */
#ifdef __CUDACC__
#define CF_CV_FN static CF_HOSTDEV
#else
#define CF_CV_FN CF_HOSTDEV
#endif

typedef struct cf_convert_plan {
    cf_convert_layout s, d;
    int site, filter;    /* cf_chroma_site, cf_chroma_filter (4:2:0 side) */
    int alpha;           /* -1: keep (255 where the input has none), else the fill value */
    /* YUV side (the input's if it is YUV, else the output's): */
    int y_lo, y_span;    /* Y = y_lo + y_span * E'Y */
    int c_mid, c_span;   /* C = c_mid + c_span * E'P */
    int ymax;            /* 2^D - 1 */
    /* YUV -> RGB, Q14: R = cy (Y - y_lo) + crv (V - c_mid), G = cy (Y - y_lo)
     * + cgu (U - c_mid) + cgv (V - c_mid), B = cy (Y - y_lo) + cbu (U - c_mid). */
    int32_t cy, crv, cgu, cgv, cbu;
    /* RGB -> YUV, Q14: Y - y_lo = yr R + yg G + yb B; U - c_mid = ur R + ug G +
     * ub B; V - c_mid = vr R + vg G + vb B (chroma rows sum to 0). */
    int32_t yr, yg, yb, ur, ug, ub, vr, vg, vb;
    int32_t lr, lg, lb;  /* RGB -> GRAY: gray.h's Q15 luma weights */
    /* YUV -> YUV depth change: s_depth -> d_depth for both ranges. */
} cf_convert_plan;

/* ---- sample access ---- */

CF_CV_FN int cf_cv_clamp(int v, int hi)
{
    return v < 0 ? 0 : v > hi ? hi : v;
}

/* Rounds a Qn fixed-point value to nearest (half up) and clamps to [0, hi]. */
CF_CV_FN int cf_cv_round(int64_t v, int n, int hi)
{
    int64_t r = (v + ((int64_t)1 << (n - 1))) >> n;
    return r < 0 ? 0 : r > hi ? hi : (int)r;
}

/* round(v * num / den) for v, num >= 0, den > 0 (half up). */
CF_CV_FN int cf_cv_rescale(int v, int num, int den)
{
    return (int)(((int64_t)v * num * 2 + den) / (2 * (int64_t)den));
}

/* Sample of pixel (x, y) of plane `plane`: `step` bytes a pixel, at byte
 * `byte` of it, `sb` bytes, shifted right by `shift` (cf_sample_load). */
CF_CV_FN int cf_cv_in(const cf_convert_planes *p, int plane, int x, int y, int step, int byte,
                      int sb, int shift)
{
    return cf_sample_load(p->data[plane] + (size_t)y * p->pitch[plane] + (size_t)x * step + byte,
                          sb, shift);
}

/* Luma sample of a YUV frame at (x, y). */
CF_CV_FN int cf_cv_luma(const cf_convert_layout *l, const cf_convert_planes *p, int x, int y)
{
    return cf_cv_in(p, 0, x, y, l->sample_bytes, 0, l->sample_bytes, l->shift);
}

/* Chroma sample (U, V) at chroma position (i, j) of a YUV frame. */
CF_CV_FN void cf_cv_chroma(const cf_convert_layout *l, const cf_convert_planes *p, int i, int j,
                             int *u, int *v)
{
    int sb = l->sample_bytes;
    if (l->semi_planar) {
        *u = cf_cv_in(p, 1, i, j, 2 * sb, 0, sb, l->shift);
        *v = cf_cv_in(p, 1, i, j, 2 * sb, sb, sb, l->shift);
    } else {
        *u = cf_cv_in(p, 1, i, j, sb, 0, sb, l->shift);
        *v = cf_cv_in(p, 2, i, j, sb, 0, sb, l->shift);
    }
}

CF_CV_FN void cf_cv_store_chroma(const cf_convert_layout *l, const cf_convert_planes *p, int i,
                                   int j, int u, int v)
{
    int sb = l->sample_bytes;
    if (l->semi_planar) {
        uint8_t *q = p->data[1] + (size_t)j * p->pitch[1] + (size_t)i * 2 * sb;
        cf_sample_store(q, sb, l->shift, u);
        cf_sample_store(q + sb, sb, l->shift, v);
    } else {
        cf_sample_store(p->data[1] + (size_t)j * p->pitch[1] + (size_t)i * sb, sb, l->shift, u);
        cf_sample_store(p->data[2] + (size_t)j * p->pitch[2] + (size_t)i * sb, sb, l->shift, v);
    }
}

/* One axis of 4:2:0 -> full upsampling at luma coordinate x: chroma index
 * i0 and the weight (of 4) of i0 + 1, the rest going to i0. Left siting
 * puts sample i at luma 2i (horizontal MPEG-2), centre at 2i + 1/2. */
CF_CV_FN void cf_cv_up_taps(int x, bool centre, int *i0, int *f)
{
    int t = centre ? 2 * x - 1 : 2 * x; /* position in quarters of a chroma sample */
    *i0 = t >> 2;                       /* floor, also for t = -1 */
    *f = t & 3;
}

/* Sum of 16 x (U, V) around luma (x, y) (cw x ch chroma samples), per the
 * plan's siting and filter. */
CF_CV_FN void cf_cv_chroma_at(const cf_convert_plan *pl, const cf_convert_planes *p, int x,
                                int y, int cw, int ch, int *u16, int *v16)
{
    if (pl->filter == CF_CHROMA_NEAREST) {
        int u, v;
        cf_cv_chroma(&pl->s, p, x >> 1, y >> 1, &u, &v);
        *u16 = 16 * u;
        *v16 = 16 * v;
        return;
    }
    int i0, fx, j0, fy;
    cf_cv_up_taps(x, pl->site == CF_SITE_CENTER, &i0, &fx);
    cf_cv_up_taps(y, true, &j0, &fy);
    int ia = cf_cv_clamp(i0, cw - 1), ib = cf_cv_clamp(i0 + 1, cw - 1);
    int ja = cf_cv_clamp(j0, ch - 1), jb = cf_cv_clamp(j0 + 1, ch - 1);
    int u00, v00, u01, v01, u10, v10, u11, v11;
    cf_cv_chroma(&pl->s, p, ia, ja, &u00, &v00);
    cf_cv_chroma(&pl->s, p, ib, ja, &u01, &v01);
    cf_cv_chroma(&pl->s, p, ia, jb, &u10, &v10);
    cf_cv_chroma(&pl->s, p, ib, jb, &u11, &v11);
    int w00 = (4 - fx) * (4 - fy), w01 = fx * (4 - fy), w10 = (4 - fx) * fy, w11 = fx * fy;
    *u16 = w00 * u00 + w01 * u01 + w10 * u10 + w11 * u11;
    *v16 = w00 * v00 + w01 * v01 + w10 * v10 + w11 * v11;
}

/* RGB of a YUV pixel from its luma and 16 x its chroma. */
CF_CV_FN void cf_cv_yuv_to_rgb(const cf_convert_plan *pl, int yv, int u16, int v16, int *r,
                                 int *g, int *b)
{
    int64_t yy = (int64_t)pl->cy * (yv - pl->y_lo) * 16;
    int64_t u = u16 - 16 * pl->c_mid, v = v16 - 16 * pl->c_mid;
    const int n = CF_CONVERT_SHIFT + 4;
    *r = cf_cv_round(yy + pl->crv * v, n, 255);
    *g = cf_cv_round(yy + pl->cgu * u + pl->cgv * v, n, 255);
    *b = cf_cv_round(yy + pl->cbu * u, n, 255);
}

/* The pixel (x, y) of an RGB or GRAY input as 8-bit R, G, B and alpha. */
CF_CV_FN void cf_cv_read_rgb(const cf_convert_plan *pl, const cf_convert_planes *p, int x, int y,
                               int *r, int *g, int *b, int *a)
{
    const cf_convert_layout *l = &pl->s;
    if (l->kind == CF_KIND_GRAY) {
        int v = cf_cv_in(p, 0, x, y, l->bpp, 0, l->sample_bytes, 0);
        if (l->depth == 16)
            v = cf_cv_rescale(v, 1, 257);
        *r = *g = *b = v;
        *a = 255;
        return;
    }
    *r = cf_cv_in(p, 0, x, y, l->bpp, l->r, 1, 0);
    *g = cf_cv_in(p, 0, x, y, l->bpp, l->g, 1, 0);
    *b = cf_cv_in(p, 0, x, y, l->bpp, l->b, 1, 0);
    *a = l->a >= 0 ? cf_cv_in(p, 0, x, y, l->bpp, l->a, 1, 0) : 255;
}

/* The pixel (x, y) of any input as 8-bit RGBA (cw, ch: its chroma size). */
CF_CV_FN void cf_cv_pixel_rgb(const cf_convert_plan *pl, const cf_convert_planes *p, int x,
                                int y, int cw, int ch, int *r, int *g, int *b, int *a)
{
    if (pl->s.kind != CF_KIND_YUV) {
        cf_cv_read_rgb(pl, p, x, y, r, g, b, a);
        return;
    }
    int u16, v16;
    cf_cv_chroma_at(pl, p, x, y, cw, ch, &u16, &v16);
    cf_cv_yuv_to_rgb(pl, cf_cv_luma(&pl->s, p, x, y), u16, v16, r, g, b);
    *a = 255;
}

/* Gray of an input pixel at the output's depth (8 or 16). */
CF_CV_FN int cf_cv_pixel_gray(const cf_convert_plan *pl, const cf_convert_planes *p, int x, int y)
{
    const cf_convert_layout *l = &pl->s;
    int dmax = pl->d.depth == 16 ? 65535 : 255;
    if (l->kind == CF_KIND_YUV) {
        int v = cf_cv_clamp(cf_cv_luma(l, p, x, y) - pl->y_lo, pl->y_span);
        return cf_cv_rescale(v, dmax, pl->y_span);
    }
    if (l->kind == CF_KIND_GRAY) {
        int v = cf_cv_in(p, 0, x, y, l->bpp, 0, l->sample_bytes, 0);
        if (l->depth == pl->d.depth)
            return v;
        return l->depth == 16 ? cf_cv_rescale(v, 1, 257) : v * 257;
    }
    int32_t s = cf_cv_in(p, 0, x, y, l->bpp, l->r, 1, 0) * pl->lr +
                cf_cv_in(p, 0, x, y, l->bpp, l->g, 1, 0) * pl->lg +
                cf_cv_in(p, 0, x, y, l->bpp, l->b, 1, 0) * pl->lb;
    if (pl->d.depth == 16)
        return (int)(((int64_t)s * 257 + (1 << 14)) >> 15);
    return (s + (1 << 14)) >> 15;
}

/* Writes 8-bit RGB(A) to an RGB output pixel. */
CF_CV_FN void cf_cv_write_rgb(const cf_convert_plan *pl, const cf_convert_planes *p, int x, int y,
                                int r, int g, int b, int a)
{
    const cf_convert_layout *l = &pl->d;
    uint8_t *q = p->data[0] + (size_t)y * p->pitch[0] + (size_t)x * l->bpp;
    q[l->r] = (uint8_t)r;
    q[l->g] = (uint8_t)g;
    q[l->b] = (uint8_t)b;
    if (l->bpp == 4) /* alpha or padding */
        q[l->a >= 0 ? l->a : 6 - l->r - l->g - l->b] = (uint8_t)(pl->alpha >= 0 ? pl->alpha : a);
}

/* Luma of a YUV output at (x, y). */
CF_CV_FN int cf_cv_out_luma(const cf_convert_plan *pl, const cf_convert_planes *p, int x, int y)
{
    const cf_convert_layout *s = &pl->s;
    if (s->kind == CF_KIND_YUV) {
        int v = cf_cv_luma(s, p, x, y);
        if (s->depth == pl->d.depth)
            return v;
        if (pl->y_lo == 0) /* full range */
            return cf_cv_rescale(v, (1 << pl->d.depth) - 1, (1 << s->depth) - 1);
        return s->depth < pl->d.depth ? v << 2 : cf_cv_clamp((v + 2) >> 2, 255);
    }
    if (s->kind == CF_KIND_GRAY) {
        int g = cf_cv_in(p, 0, x, y, s->bpp, 0, s->sample_bytes, 0);
        return pl->y_lo + cf_cv_rescale(g, pl->y_span, (1 << s->depth) - 1);
    }
    int r, g, b, a;
    cf_cv_read_rgb(pl, p, x, y, &r, &g, &b, &a);
    return cf_cv_round((int64_t)pl->yr * r + (int64_t)pl->yg * g + (int64_t)pl->yb * b +
                           ((int64_t)pl->y_lo << CF_CONVERT_SHIFT),
                       CF_CONVERT_SHIFT, pl->ymax);
}

/* Chroma (U, V) of a 4:2:0 output at chroma position (i, j) of an input of
 * width x height pixels (cw, ch: the input's chroma size when it is YUV). */
CF_CV_FN void cf_cv_out_chroma(const cf_convert_plan *pl, const cf_convert_planes *p, int i,
                                 int j, int width, int height, int *u, int *v)
{
    const cf_convert_layout *s = &pl->s;
    if (s->kind == CF_KIND_GRAY) {
        *u = *v = pl->c_mid;
        return;
    }
    if (s->kind == CF_KIND_YUV) {
        int su, sv;
        cf_cv_chroma(s, p, i, j, &su, &sv);
        if (s->depth == pl->d.depth) {
            *u = su, *v = sv;
        } else if (pl->y_lo == 0) {
            int dm = (1 << pl->d.depth) - 1, sm = (1 << s->depth) - 1;
            *u = cf_cv_rescale(su, dm, sm);
            *v = cf_cv_rescale(sv, dm, sm);
        } else if (s->depth < pl->d.depth) {
            *u = su << 2, *v = sv << 2;
        } else {
            *u = cf_cv_clamp((su + 2) >> 2, 255);
            *v = cf_cv_clamp((sv + 2) >> 2, 255);
        }
        return;
    }
    /* RGB: weighted sum of the covered pixels, weights summing to 2^k. */
    int xs[3], wx[3], nx, k;
    if (pl->filter == CF_CHROMA_NEAREST) {
        xs[0] = 2 * i, wx[0] = 1, nx = 1, k = 0;
    } else if (pl->site == CF_SITE_CENTER) {
        xs[0] = 2 * i, xs[1] = 2 * i + 1, wx[0] = wx[1] = 1, nx = 2, k = 2;
    } else {
        xs[0] = 2 * i - 1, xs[1] = 2 * i, xs[2] = 2 * i + 1;
        wx[0] = 1, wx[1] = 2, wx[2] = 1, nx = 3, k = 3;
    }
    int ny = pl->filter == CF_CHROMA_NEAREST ? 1 : 2;
    int64_t sr = 0, sg = 0, sb = 0;
    for (int dy = 0; dy < ny; dy++) {
        int yy = cf_cv_clamp(2 * j + dy, height - 1);
        for (int t = 0; t < nx; t++) {
            int r, g, b, a;
            cf_cv_read_rgb(pl, p, cf_cv_clamp(xs[t], width - 1), yy, &r, &g, &b, &a);
            sr += wx[t] * r, sg += wx[t] * g, sb += wx[t] * b;
        }
    }
    const int n = CF_CONVERT_SHIFT + k;
    int cmax = pl->ymax;
    *u = cf_cv_round(pl->ur * sr + pl->ug * sg + pl->ub * sb + ((int64_t)pl->c_mid << n), n, cmax);
    *v = cf_cv_round(pl->vr * sr + pl->vg * sg + pl->vb * sb + ((int64_t)pl->c_mid << n), n, cmax);
}

/* One output pixel (x, y) of an RGB or GRAY output. */
CF_CV_FN void cf_cv_out_pixel(const cf_convert_plan *pl, const cf_convert_planes *in,
                                const cf_convert_planes *out, int x, int y, int cw, int ch)
{
    if (pl->d.kind == CF_KIND_GRAY) {
        uint8_t *q = out->data[0] + (size_t)y * out->pitch[0] + (size_t)x * pl->d.bpp;
        cf_sample_store(q, pl->d.sample_bytes, 0, cf_cv_pixel_gray(pl, in, x, y));
        return;
    }
    int r, g, b, a;
    cf_cv_pixel_rgb(pl, in, x, y, cw, ch, &r, &g, &b, &a);
    cf_cv_write_rgb(pl, out, x, y, r, g, b, a);
}

/* Output rows [r0, r1) of the row list (cf_convert_rows) of an input of
 * w x h pixels: RGB and GRAY outputs pixel rows, 4:2:0 outputs rows of
 * chroma samples, each with its two luma rows first. */
CF_CV_FN void cf_cv_rows(const cf_convert_plan *plan, const cf_convert_planes *in,
                         const cf_convert_planes *out, int w, int h, int r0, int r1)
{
    int cw = (w + 1) / 2, ch = (h + 1) / 2;
    if (plan->d.kind != CF_KIND_YUV) {
        for (int y = r0; y < r1; y++)
            for (int x = 0; x < w; x++)
                cf_cv_out_pixel(plan, in, out, x, y, cw, ch);
        return;
    }
    const cf_convert_layout *d = &plan->d;
    for (int j = r0; j < r1; j++) {
        for (int y = 2 * j; y < 2 * j + 2 && y < h; y++)
            for (int x = 0; x < w; x++)
                cf_sample_store(out->data[0] + (size_t)y * out->pitch[0] +
                                    (size_t)x * d->sample_bytes,
                                d->sample_bytes, d->shift, cf_cv_out_luma(plan, in, x, y));
        for (int i = 0; i < cw; i++) {
            int u, v;
            cf_cv_out_chroma(plan, in, i, j, w, h, &u, &v);
            cf_cv_store_chroma(d, out, i, j, u, v);
        }
    }
}

#ifdef __cplusplus
extern "C" {
#endif
/* The plan for src -> dst. matrix, range, site, filter: the cf_convert_*
 * and cf_chroma_* enums, of the YUV side; alpha: -1 keep, 0..255 fill. */
cf_convert_plan cf_convert_make_plan(cf_format src, cf_format dst, int matrix, int range,
                                     int site, int filter, int alpha);
cf_convert_planes cf_convert_planes_of(const cf_frame *f);
cf_status cf_convert_cpu(const cf_convert_plan *plan, const cf_frame *src, cf_frame *dst);
/* The reference in pieces, for a threaded CPU version (slices of rows on
 * the process pool): the output is a list of cf_convert_rows() rows (pixel
 * rows; for 4:2:0 output, rows of chroma samples with their two luma rows),
 * independent of each other; cf_convert_cpu_rows() writes rows [r0, r1). */
int cf_convert_rows(const cf_convert_plan *plan, int height);
void cf_convert_cpu_rows(const cf_convert_plan *plan, const cf_frame *src, cf_frame *dst, int r0,
                         int r1);
cf_status cf_convert_cuda(const cf_convert_plan *plan, const cf_frame *src, cf_frame *dst,
                          cf_stream stream);

/* The descriptor's pieces (convert_filter.c), also for a filter that
 * converts and does more (convert_scale_filter.c): its parameters as an
 * initializer list (values[0 .. CF_CONVERT_N_PARAMS-1] in this order), the
 * output formats for `input` (the `format` choice first, then every
 * other), the formats it takes and makes, and the plan for src -> dst
 * from those values. */
#define CF_CONVERT_N_PARAMS 6
#define CF_CONVERT_N_FORMATS 12
extern const cf_format cf_convert_formats[CF_CONVERT_N_FORMATS]; /* in and out, in this order */
extern const char *const cf_convert_format_choices[], *const cf_convert_matrix_choices[],
    *const cf_convert_range_choices[], *const cf_convert_site_choices[],
    *const cf_convert_filter_choices[];
int cf_convert_filter_output_formats(const double *values, cf_format input, cf_format *out);
cf_convert_plan cf_convert_filter_plan(const double *values, cf_format src, cf_format dst);
/* Test hook, exported for tests and benchmarks: with `generic` true every
 * later GPU convert of the process runs the generic kernels (convert.cu),
 * never the fast ones (convert_fast.cu); false (the default) lets the
 * dispatch pick. Thread-safe (an atomic); meant to be set between runs. */
CF_API void cf_convert_cuda_force_generic(bool generic);
/* Test hook, exported for tests and benchmarks: the fast kernels'
 * shape, `columns` (4 or 8) a thread and, for 4:2:0 -> RGB with linear
 * chroma, `rows` chroma rows (1 or 2) a thread, for every later GPU
 * convert of the process that a fast kernel takes; a shape the planes'
 * alignment (or the filter) does not allow falls back to 4 columns (1
 * row). columns 0: the dispatch's choice (the default). Thread-safe (an
 * atomic); meant to be set between runs. */
CF_API void cf_convert_cuda_force_shape(int columns, int rows);
/* The kernel of the calling thread's last successful GPU convert launch:
 * the fast "yuv420_to_rgb_c<columns>r<rows>" or "rgb_to_yuv420_c<columns>",
 * the generic "yuv_blocks", "rgb4_blocks", "pixels", or "" before any.
 * Static storage. */
CF_API const char *cf_convert_cuda_last_kernel(void);
#ifdef __cplusplus
}
#endif

#endif
