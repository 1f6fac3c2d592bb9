/* scale: the plan's tables, following cv::resize's coordinate rules (OpenCV
 * 4.6, imgproc/src/resize.cpp: resize, resizeNN, computeResizeAreaTab,
 * interpolateCubic, interpolateLanczos4) step by step in the same float
 * and double arithmetic, so the weights are OpenCV's. Host code only: the
 * GPU gets a copy of the tables, never recomputes them. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scale.h"

/* One axis being built: n outputs of up to `cap` taps. */
typedef struct axis_build {
    int n, taps, cap;
    int32_t *index;
    int16_t *weight;
} axis_build;

/* cvRound of a float: to nearest, ties to even (saturate_cast<short>). */
static int16_t q11(float v)
{
    return (int16_t)lrintf(v * (float)(1 << CF_SCALE_BITS));
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void cubic_coeffs(float x, float *c)
{
    const float a = -0.75f;
    c[0] = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a;
    c[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
    c[2] = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1;
    c[3] = 1.f - c[0] - c[1] - c[2];
}

static void lanczos4_coeffs(float x, float *c)
{
    static const double s45 = 0.70710678118654752440084436210485;
    static const double cs[8][2] = { { 1, 0 },  { -s45, -s45 }, { 0, 1 },  { s45, -s45 },
                                     { -1, 0 }, { s45, s45 },   { 0, -1 }, { -s45, s45 } };
    if (x < FLT_EPSILON) {
        for (int i = 0; i < 8; i++)
            c[i] = 0;
        c[3] = 1;
        return;
    }
    float sum = 0;
    double y0 = -(x + 3) * M_PI * 0.25, s0 = sin(y0), c0 = cos(y0);
    for (int i = 0; i < 8; i++) {
        double y = -(x + 3 - i) * M_PI * 0.25;
        c[i] = (float)((cs[i][0] * s0 + cs[i][1] * c0) / (y * y));
        sum += c[i];
    }
    sum = 1.f / sum;
    for (int i = 0; i < 8; i++)
        c[i] *= sum;
}

/* Interpolating methods (and area while growing): OpenCV's resizeGeneric
 * tables. `origin`: first source index (the crop), sw source samples. */
static void axis_interpolate(axis_build *a, int method, bool area_mode, int origin, int sw,
                             bool normalise)
{
    double inv_scale = (double)a->n / sw, scale = 1. / inv_scale;
    int ksize = method == CF_SCALE_BICUBIC ? 4 : method == CF_SCALE_LANCZOS ? 8 : 2;
    int ksize2 = ksize / 2;
    bool clamp_f = ksize == 2;
    a->taps = ksize;
    for (int d = 0; d < a->n; d++) {
        float f;
        int s;
        if (!area_mode) {
            f = (float)((d + 0.5) * scale - 0.5);
            s = (int)floorf(f);
            f -= (float)s;
        } else {
            s = (int)floor(d * scale);
            f = (float)((d + 1) - (s + 1) * inv_scale);
            f = f <= 0 ? 0.f : f - floorf(f);
        }
        if (s < ksize2 - 1 && s < 0 && clamp_f)
            f = 0, s = 0;
        if (s + ksize2 >= sw && s >= sw - 1 && clamp_f)
            f = 0, s = sw - 1;
        float c[8];
        if (method == CF_SCALE_BICUBIC) {
            cubic_coeffs(f, c);
        } else if (method == CF_SCALE_LANCZOS) {
            lanczos4_coeffs(f, c);
        } else {
            c[0] = 1.f - f;
            c[1] = f;
        }
        int sum = 0, big = 0;
        for (int k = 0; k < ksize; k++) {
            a->index[d * ksize + k] = origin + clampi(s - ksize2 + 1 + k, 0, sw - 1);
            a->weight[d * ksize + k] = q11(c[k]);
            sum += a->weight[d * ksize + k];
            big = a->weight[d * ksize + k] > a->weight[d * ksize + big] ? k : big;
        }
        /* OpenCV's rounded weights may sum to 2048 +- 1: harmless at 8
         * bits, a step of 1 at 16 (and a flat picture would not stay flat) */
        if (normalise)
            a->weight[d * ksize + big] = (int16_t)(a->weight[d * ksize + big] +
                                                   (1 << CF_SCALE_BITS) - sum);
    }
}

/* Nearest: resizeNN's floor(d * (1 / inv_scale)). */
static void axis_nearest(axis_build *a, int origin, int sw)
{
    double ifx = 1. / ((double)a->n / sw);
    a->taps = 1;
    for (int d = 0; d < a->n; d++) {
        int s = (int)floor(d * ifx);
        a->index[d] = origin + (s < sw - 1 ? s : sw - 1);
        a->weight[d] = 1 << CF_SCALE_BITS;
    }
}

/* Area while shrinking: computeResizeAreaTab's overlaps, in Q11 with the
 * rounding left over given to the largest weight so flat areas stay flat. */
static void axis_area(axis_build *a, int origin, int sw)
{
    double scale = 1. / ((double)a->n / sw);
    a->taps = 0;
    for (int d = 0; d < a->n; d++) {
        double fs1 = d * scale, fs2 = fs1 + scale, cell = fmin(scale, sw - fs1);
        int s1 = (int)ceil(fs1), s2 = (int)floor(fs2);
        s2 = s2 < sw - 1 ? s2 : sw - 1;
        s1 = s1 < s2 ? s1 : s2;
        int16_t *w = a->weight + (size_t)d * a->cap;
        int32_t *x = a->index + (size_t)d * a->cap;
        int n = 0; /* at most ceil(scale) + 1 <= cap */
        /* Each weight is the rounded running sum of the exact ones minus
         * the one before, so the rounding never adds up along the box: a
         * 1/cell rounded on its own, times hundreds of samples, was off by
         * up to 8 levels (5001 -> 3 columns) or all 0 past a factor of
         * 4096 (the leftover then made one sample the whole mean). */
        double run = 0;
        int before = 0;
#define AREA_TAP(src_index, exact)                                                         \
    do {                                                                                   \
        run += (exact);                                                                    \
        int upto = (int)lrint(run * (1 << CF_SCALE_BITS));                                 \
        x[n] = (src_index), w[n++] = (int16_t)(upto - before);                             \
        before = upto;                                                                     \
    } while (0)
        if (s1 - fs1 > 1e-3)
            AREA_TAP(s1 - 1, (s1 - fs1) / cell);
        for (int s = s1; s < s2; s++)
            AREA_TAP(s, 1.0 / cell);
        if (fs2 - s2 > 1e-3)
            AREA_TAP(s2, fmin(fmin(fs2 - s2, 1.), cell) / cell);
#undef AREA_TAP
        int sum = 0, big = 0;
        for (int k = 0; k < a->cap; k++) {
            if (k >= n) /* padding: the last tap again (already offset), weight 0 */
                x[k] = x[n - 1], w[k] = 0;
            else
                x[k] += origin;
            sum += w[k];
            big = w[k] > w[big] ? k : big;
        }
        w[big] = (int16_t)(w[big] + (1 << CF_SCALE_BITS) - sum);
        a->taps = n > a->taps ? n : a->taps;
    }
}

/* Taps an axis of n outputs from sw samples can need. */
static int axis_cap(int method, bool shrink_area, int n, int sw)
{
    if (!shrink_area)
        return method == CF_SCALE_NEAREST ? 1 : method == CF_SCALE_BICUBIC ? 4
               : method == CF_SCALE_LANCZOS ? 8 : 2;
    return (int)ceil((double)sw / n) + 2;
}

static bool whole_factor(int sw, int n, int *k)
{
    double scale = 1. / ((double)n / sw);
    int i = (int)lrint(scale);
    *k = i;
    return fabs(scale - i) < DBL_EPSILON;
}

/* Compacts an area axis built `cap` wide to its real taps. */
static void compact(axis_build *a)
{
    if (a->taps == a->cap)
        return;
    for (int d = 0; d < a->n; d++) {
        memmove(a->index + (size_t)d * a->taps, a->index + (size_t)d * a->cap,
                (size_t)a->taps * sizeof *a->index);
        memmove(a->weight + (size_t)d * a->taps, a->weight + (size_t)d * a->cap,
                (size_t)a->taps * sizeof *a->weight);
    }
}

void cf_scale_free_plan(cf_scale_plan *plan)
{
    free(plan->tables);
    plan->tables = NULL;
    plan->table_bytes = 0;
}

static size_t align16(size_t v)
{
    return (v + 15) & ~(size_t)15;
}

/* Whether axis a (compacted) is a 2-sample box from `origin`: output d
 * takes samples origin + 2d and origin + 2d + 1 with weight 1/2 each, as
 * bilinear's taps at exactly 2:1 are ((d + 0.5) * 2 - 0.5 = 2d + 0.5). */
static bool two_box(const axis_build *a, int origin)
{
    if (a->taps != 2)
        return false;
    for (int d = 0; d < a->n; d++)
        if (a->index[2 * d] != origin + 2 * d || a->index[2 * d + 1] != origin + 2 * d + 1 ||
            a->weight[2 * d] != 1 << (CF_SCALE_BITS - 1) ||
            a->weight[2 * d + 1] != 1 << (CF_SCALE_BITS - 1))
            return false;
    return true;
}

cf_status cf_scale_make_plan(cf_scale_plan *plan, int method, const cf_frame *src,
                             const cf_frame *dst, int crop_x, int crop_y, int crop_w, int crop_h)
{
    static unsigned long long next_id;
    const cf_format_info *info = cf_format_get_info(src->format);
    memset(plan, 0, sizeof *plan);
    plan->method = method;
    plan->n_planes = info->n_planes;
    plan->opencv_linear = method == CF_SCALE_BILINEAR && info->sample_bytes == 1;
    plan->id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
    /* Class c's source box and output size. */
    int ox[2], oy[2], sw[2], sh[2], dw[2], dh[2];
    bool present[2] = { false, false };
    for (int p = 0; p < info->n_planes; p++) {
        int c = info->x_shift[p] || info->y_shift[p];
        int xs = info->x_shift[p], ys = info->y_shift[p];
        cf_scale_plane *pp = &plan->planes[p];
        pp->klass = c;
        pp->dw = cf_format_plane_width(dst->format, p, dst->width);
        pp->dh = cf_format_plane_height(dst->format, p, dst->height);
        pp->sample_bytes = info->sample_bytes;
        pp->cn = info->pixel_bytes[p] / info->sample_bytes;
        pp->shift = info->shift;
        pp->maxval = (1 << info->depth) - 1;
        present[c] = true;
        ox[c] = crop_x >> xs, oy[c] = crop_y >> ys;
        sw[c] = ((crop_x + crop_w + (1 << xs) - 1) >> xs) - ox[c];
        sh[c] = ((crop_y + crop_h + (1 << ys) - 1) >> ys) - oy[c];
        dw[c] = pp->dw, dh[c] = pp->dh;
    }
    axis_build b[2][2];
    memset(b, 0, sizeof b);
    bool area = method == CF_SCALE_AREA;
    size_t bytes = 0;
    for (int c = 0; c < 2; c++) {
        if (!present[c])
            continue;
        bool shrink = area && sw[c] >= dw[c] && sh[c] >= dh[c];
        int kx = 1, ky = 1;
        plan->box[c] = shrink && whole_factor(sw[c], dw[c], &kx) && whole_factor(sh[c], dh[c], &ky);
        plan->kx[c] = kx, plan->ky[c] = ky, plan->x0[c] = ox[c], plan->y0[c] = oy[c];
        for (int axis = 0; axis < 2; axis++) {
            axis_build *a = &b[c][axis];
            a->n = axis ? dh[c] : dw[c];
            a->cap = axis_cap(method, shrink, a->n, axis ? sh[c] : sw[c]);
            bytes += align16((size_t)a->n * a->cap * 4) + align16((size_t)a->n * a->cap * 2);
        }
    }
    plan->tables = malloc(bytes ? bytes : 1);
    if (!plan->tables)
        return cf_set_error(CF_ERROR_OUT_OF_MEMORY, "scale: %zu bytes of tables", bytes);
    size_t off = 0;
    for (int c = 0; c < 2; c++) {
        if (!present[c])
            continue;
        bool shrink = area && sw[c] >= dw[c] && sh[c] >= dh[c];
        for (int axis = 0; axis < 2; axis++) {
            axis_build *a = &b[c][axis];
            cf_scale_axis *out = axis ? &plan->y[c] : &plan->x[c];
            int origin = axis ? oy[c] : ox[c], s = axis ? sh[c] : sw[c];
            out->index_offset = off;
            a->index = (int32_t *)((uint8_t *)plan->tables + off);
            off += align16((size_t)a->n * a->cap * 4);
            out->weight_offset = off;
            a->weight = (int16_t *)((uint8_t *)plan->tables + off);
            off += align16((size_t)a->n * a->cap * 2);
            if (method == CF_SCALE_NEAREST)
                axis_nearest(a, origin, s);
            else if (shrink)
                axis_area(a, origin, s);
            else
                axis_interpolate(a, area ? CF_SCALE_BILINEAR : method, area, origin, s,
                                 info->sample_bytes == 2);
            compact(a);
            out->n = a->n;
            out->taps = a->taps;
        }
        /* Taps that are a 2 x 2 box on both axes (bilinear at exactly 2:1)
         * give the box mean's integers: with weights 2^10, H = 2^10 (a + b),
         * so OpenCV's vector form is ((2^6 (a + b) 2^10) >> 16) + ... + 2
         * >> 2 = (a + b + c + d + 2) >> 2 and the general form (2^20 sum +
         * 2^21) >> 22, the same; the box kernels read no tables. */
        if (!plan->box[c] && two_box(&b[c][0], ox[c]) && two_box(&b[c][1], oy[c])) {
            plan->box[c] = true;
            plan->kx[c] = plan->ky[c] = 2;
        }
    }
    plan->table_bytes = bytes;
    return CF_OK;
}
