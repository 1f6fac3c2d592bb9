/* cudafilters scale: per-sample math shared by scale_cpu.c and scale.cu.
 *
 * Every plane is resized at its own size (a 4:2:0 frame's chroma planes
 * from ceil(w/2) x ceil(h/2) to ceil(W/2) x ceil(H/2)), separably: for each
 * output column and row the plan holds `taps` source indices (already
 * clamped into the cropped source: samples outside repeat its edge) and
 * weights in Q11 (CF_SCALE_BITS, 2048 = 1). An output sample is
 *   H_k = sum_i src[row_k][col_i] * a_i        (exact integers)
 *   out = clamp((sum_k H_k * b_k + 2^21) >> 22)
 * which is the arithmetic of OpenCV's fixed-point resize for 8-bit images
 * (HResize* then VResize* with FixedPtCast<int, uchar, 22>; OpenCV 4.6
 * imgproc/src/resize.cpp). The tables themselves (scale_plan.c) follow
 * cv::resize's coordinate rules, computed in the same floating-point
 * steps on the host, so that our output equals OpenCV's or is within 1:
 *   nearest:  src = floor(dst * (1 / (dw / sw)))
 *   bilinear: x = (dst + 0.5) * sw / dw - 0.5, 2 taps (1 - f, f)
 *   bicubic:  4 taps, Keys' cubic with a = -0.75
 *   lanczos:  8 taps, Lanczos-4 normalised to sum 1
 *   area:     shrinking, the source box each output pixel covers (an
 *             exact box mean, rounded half up, for whole-number factors,
 *             else fractional overlap weights); growing, OpenCV's
 *             INTER_AREA weights on the bilinear taps.
 * Bilinear's vertical step is OpenCV's vectorised form (VResizeLinearVec_
 * 32s8u: ((H0 >> 4) * b0 >> 16) + ((H1 >> 4) * b1 >> 16) + 2 >> 2), which
 * OpenCV runs for all but the last few samples of a row.
 * Samples of 16-bit formats (GRAY16, P010, I420_10) take the same tables
 * and the general form, with their own maximum. */
#ifndef CUDAFILTERS_KERNELS_SCALE_H
#define CUDAFILTERS_KERNELS_SCALE_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "cudafilters/frame.h"
#include "internal.h"

#define CF_SCALE_BITS 11
#define CF_SCALE_MAX_SIZE 32768 /* largest output width or height */

/* scale's parameters, in the order of its values (see
 * cf_scale_filter_make_plan). */
#define CF_SCALE_PARAM_DESCS                                                                   \
    { "w", "Output width; 0: the input's, or kept in proportion when h is set", "pixels",     \
      CF_PARAM_INT, 0, CF_SCALE_MAX_SIZE, 0, NULL, CF_PARAM_ROLE_NONE },                       \
    { "h", "Output height; 0: the input's, or kept in proportion when w is set", "pixels",    \
      CF_PARAM_INT, 0, CF_SCALE_MAX_SIZE, 0, NULL, CF_PARAM_ROLE_NONE },                       \
    { "method", "Interpolation: nearest, bilinear, bicubic, area (box mean when shrinking) "   \
      "or lanczos, as OpenCV resize's INTER_*", "", CF_PARAM_ENUM, 0, 4, CF_SCALE_BILINEAR,    \
      cf_scale_method_choices, CF_PARAM_ROLE_NONE },                                           \
    { "crop-x", "Left edge of the input region scaled", "pixels", CF_PARAM_INT, 0,            \
      CF_SCALE_MAX_SIZE, 0, NULL, CF_PARAM_ROLE_NONE },                                        \
    { "crop-y", "Top edge of the input region scaled", "pixels", CF_PARAM_INT, 0,             \
      CF_SCALE_MAX_SIZE, 0, NULL, CF_PARAM_ROLE_NONE },                                        \
    { "crop-w", "Width of the input region; 0: to the right edge", "pixels", CF_PARAM_INT, 0, \
      CF_SCALE_MAX_SIZE, 0, NULL, CF_PARAM_ROLE_NONE },                                        \
    { "crop-h", "Height of the input region; 0: to the bottom edge", "pixels", CF_PARAM_INT,  \
      0, CF_SCALE_MAX_SIZE, 0, NULL, CF_PARAM_ROLE_NONE }

typedef enum cf_scale_method {
    CF_SCALE_NEAREST,
    CF_SCALE_BILINEAR,
    CF_SCALE_BICUBIC,
    CF_SCALE_AREA,
    CF_SCALE_LANCZOS,
} cf_scale_method;

/* One axis of one plane class: n outputs of `taps` (index, weight) pairs,
 * as byte offsets into the plan's table block. */
typedef struct cf_scale_axis {
    int n, taps;
    size_t index_offset;  /* int32_t[n * taps] */
    size_t weight_offset; /* int16_t[n * taps] */
} cf_scale_axis;

/* One plane: its geometry and which tables it uses. */
typedef struct cf_scale_plane {
    int dw, dh;          /* output plane size, pixels */
    int cn;              /* samples per pixel */
    int sample_bytes, shift, maxval;
    int klass;           /* 0: full size (luma, RGB), 1: subsampled (chroma) */
} cf_scale_plane;

typedef struct cf_scale_plan {
    int method;
    bool opencv_linear;  /* bilinear's vertical step in OpenCV's vector form */
    int n_planes;
    cf_scale_plane planes[CF_MAX_PLANES];
    cf_scale_axis x[2], y[2];  /* per class */
    /* Box mean (area, whole-number factors): output (i, j) of class c is
     * the mean of kx x ky samples from (x0 + i kx, y0 + j ky). */
    bool box[2];
    int kx[2], ky[2], x0[2], y0[2];
    void *tables;        /* host block, malloc'd; freed by free_plan */
    size_t table_bytes;
    unsigned long long id; /* unique per plan made, for the device copy */
} cf_scale_plan;

/* Output sample (dx, dy), component c, of a plane through the tables. */
CF_HOSTDEV int cf_sc_sample(const cf_scale_plan *pl, const cf_scale_plane *p, const void *tables,
                            const uint8_t *src, size_t pitch, int dx, int dy, int c)
{
    const cf_scale_axis *ax = &pl->x[p->klass], *ay = &pl->y[p->klass];
    const uint8_t *t = (const uint8_t *)tables;
    const int32_t *xi = (const int32_t *)(t + ax->index_offset) + (size_t)dx * ax->taps;
    const int16_t *xw = (const int16_t *)(t + ax->weight_offset) + (size_t)dx * ax->taps;
    const int32_t *yi = (const int32_t *)(t + ay->index_offset) + (size_t)dy * ay->taps;
    const int16_t *yw = (const int16_t *)(t + ay->weight_offset) + (size_t)dy * ay->taps;
    int sb = p->sample_bytes, step = p->cn * sb;
    int32_t h0 = 0, h1 = 0;
    int64_t acc = 0;
    for (int k = 0; k < ay->taps; k++) {
        const uint8_t *row = src + (size_t)yi[k] * pitch + (size_t)c * sb;
        int32_t s = 0;
        for (int i = 0; i < ax->taps; i++)
            s += cf_sample_load(row + (size_t)xi[i] * step, sb, p->shift) * xw[i];
        h0 = k == 0 ? s : h0;
        h1 = k == 1 ? s : h1;
        acc += (int64_t)s * yw[k];
    }
    int64_t r;
    if (pl->opencv_linear) /* 8-bit bilinear: OpenCV's vector form (top of file) */
        r = ((((h0 >> 4) * yw[0]) >> 16) + (((h1 >> 4) * yw[1]) >> 16) + 2) >> 2;
    else
        r = (acc + (1 << (2 * CF_SCALE_BITS - 1))) >> (2 * CF_SCALE_BITS);
    return r < 0 ? 0 : r > p->maxval ? p->maxval : (int)r;
}

/* Output sample (dx, dy), component c, of a plane as a box mean. */
CF_HOSTDEV int cf_sc_box(const cf_scale_plan *pl, const cf_scale_plane *p, const uint8_t *src,
                         size_t pitch, int dx, int dy, int c)
{
    int k = p->klass, kx = pl->kx[k], ky = pl->ky[k];
    int sb = p->sample_bytes, step = p->cn * sb;
    const uint8_t *base = src + (size_t)(pl->y0[k] + dy * ky) * pitch +
                          (size_t)(pl->x0[k] + dx * kx) * step + (size_t)c * sb;
    /* 64-bit: a box of more than 2^16 16-bit samples (512x256 to 1x1) or
     * 2^24 8-bit ones overflows 32 bits. */
    uint64_t sum = 0;
    for (int j = 0; j < ky; j++)
        for (int i = 0; i < kx; i++)
            sum += (uint64_t)cf_sample_load(base + (size_t)j * pitch + (size_t)i * step, sb, p->shift);
    uint64_t area = (uint64_t)kx * (uint64_t)ky;
    return (int)((sum + area / 2) / area);
}

#ifdef __cplusplus
extern "C" {
#endif
/* Builds the plan (tables included) for src -> dst with the method and the
 * crop (x, y, w, h in src pixels, already checked to lie inside src; w, h
 * >= 1). Errors: CF_ERROR_OUT_OF_MEMORY, CF_ERROR_INVALID_ARGUMENT. */
cf_status cf_scale_make_plan(cf_scale_plan *plan, int method, const cf_frame *src,
                             const cf_frame *dst, int crop_x, int crop_y, int crop_w,
                             int crop_h);
void cf_scale_free_plan(cf_scale_plan *plan);
cf_status cf_scale_cpu(const cf_scale_plan *plan, const cf_frame *src, cf_frame *dst);
/* The reference in pieces, for a threaded CPU version (slices of rows on
 * the process pool): the output rows of every plane as one list of
 * cf_scale_rows() rows, each independent; cf_scale_cpu_rows() writes rows
 * [r0, r1) of it. */
int cf_scale_rows(const cf_scale_plan *plan);
void cf_scale_cpu_rows(const cf_scale_plan *plan, const cf_frame *src, cf_frame *dst, int r0,
                       int r1);
cf_status cf_scale_cuda(const cf_scale_plan *plan, const cf_frame *src, cf_frame *dst,
                        cf_stream stream, cf_scratch *scratch);
/* Copies the plan's tables into the device scratch when it does not hold
 * them yet (its tag is the plan's id); *tables: their device address. */
cf_status cf_scale_cuda_tables(const cf_scale_plan *plan, cf_scratch *scratch, cf_stream stream,
                               const void **tables);

/* The descriptor's pieces (scale_filter.c), also for a filter that scales
 * and does more (convert_scale_filter.c): its parameters as an initializer
 * list (values[0 .. CF_SCALE_N_PARAMS-1] in this order), the output size it
 * proposes for a width x height input, and the plan for src -> dst (dst's
 * size; the format is src's) with the crop checked. */
#define CF_SCALE_N_PARAMS 7
extern const char *const cf_scale_method_choices[];
void cf_scale_filter_output_size(const double *v, int width, int height, int *ow, int *oh);
cf_status cf_scale_filter_make_plan(const double *v, const cf_frame *src, const cf_frame *dst,
                                    void *plan);
/* Test hook, exported for tests and benchmarks: with `generic` true every
 * later GPU scale of the process runs the generic kernel (scale.cu), never
 * the fast ones (scale_fast.cu); false (the default) lets the dispatch
 * pick. Thread-safe (an atomic); meant to be set between runs. */
CF_API void cf_scale_cuda_force_generic(bool generic);
/* Test hook, exported for tests and benchmarks: with `narrow` true the
 * fast kernels compute 2 x 2 box means a pixel a thread ("box8") even
 * where the word kernel ("box2w", scale_fast.cu) could take the plane;
 * false (the default) lets the dispatch pick. Thread-safe (an atomic);
 * meant to be set between runs. */
CF_API void cf_scale_cuda_force_narrow(bool narrow);
/* The kernel of the calling thread's last successful GPU scale: "taps8",
 * "box8" or "box2w" when the fast kernels ran any of its planes (the last
 * of those), else "generic"; "" before any. Static storage. */
CF_API const char *cf_scale_cuda_last_kernel(void);
#ifdef __cplusplus
}
#endif

#endif
