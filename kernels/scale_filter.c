/* scale: descriptor. Resizes every plane at its own size with nearest,
 * bilinear, bicubic, area or Lanczos (scale.h), from an optional crop. */
#include <math.h>

#include "scale.h"
#include "scale_cpu_fast.h"

enum { PARAM_W, PARAM_H, PARAM_METHOD, PARAM_CROP_X, PARAM_CROP_Y, PARAM_CROP_W, PARAM_CROP_H };

const char *const cf_scale_method_choices[] = { "nearest", "bilinear", "bicubic", "area",
                                                "lanczos", NULL };

static const cf_param_desc scale_params[] = { CF_SCALE_PARAM_DESCS };

static const cf_format scale_formats[] = {
    CF_FORMAT_GRAY8,     CF_FORMAT_RGBA,      CF_FORMAT_BGRA,      CF_FORMAT_RGBX,
    CF_FORMAT_BGRX,      CF_FORMAT_RGB,       CF_FORMAT_BGR,       CF_FORMAT_NV12,
    CF_FORMAT_I420,      CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE,
};

static int scale_output_formats(const double *values, cf_format input, cf_format *out)
{
    (void)values;
    out[0] = input;
    return 1;
}

/* The crop of a width x height input: the region's size (clipped to the
 * input; make_plan refuses a region that does not fit). */
static void crop_size(const double *v, int width, int height, int *cw, int *ch)
{
    int x = (int)v[PARAM_CROP_X], y = (int)v[PARAM_CROP_Y];
    *cw = v[PARAM_CROP_W] > 0 ? (int)v[PARAM_CROP_W] : width - x;
    *ch = v[PARAM_CROP_H] > 0 ? (int)v[PARAM_CROP_H] : height - y;
    *cw = *cw < 1 ? 1 : *cw;
    *ch = *ch < 1 ? 1 : *ch;
}

void cf_scale_filter_output_size(const double *v, int width, int height, int *ow, int *oh)
{
    int cw, ch;
    crop_size(v, width, height, &cw, &ch);
    int w = (int)v[PARAM_W], h = (int)v[PARAM_H];
    if (w == 0 && h == 0)
        w = cw, h = ch;
    else if (w == 0)
        w = (int)lround((double)h * cw / ch);
    else if (h == 0)
        h = (int)lround((double)w * ch / cw);
    *ow = w < 1 ? 1 : w;
    *oh = h < 1 ? 1 : h;
}

cf_status cf_scale_filter_make_plan(const double *v, const cf_frame *src, const cf_frame *dst,
                                    void *plan)
{
    int x = (int)v[PARAM_CROP_X], y = (int)v[PARAM_CROP_Y];
    int cw = v[PARAM_CROP_W] > 0 ? (int)v[PARAM_CROP_W] : src->width - x;
    int ch = v[PARAM_CROP_H] > 0 ? (int)v[PARAM_CROP_H] : src->height - y;
    /* A corner outside the input: named as given (the region's size left
     * to the edge would come out negative). */
    if (x >= src->width || y >= src->height)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "scale: crop-%s=%d is outside the %dx%d input (at most %d)",
                            x >= src->width ? "x" : "y", x >= src->width ? x : y, src->width,
                            src->height, x >= src->width ? src->width - 1 : src->height - 1);
    if (cw < 1 || ch < 1 || x + cw > src->width ||
        y + ch > src->height)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "scale: crop %dx%d at (%d, %d) does not fit the %dx%d input", cw, ch,
                            x, y, src->width, src->height);
    if (dst->width > CF_SCALE_MAX_SIZE || dst->height > CF_SCALE_MAX_SIZE)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "scale: output %dx%d exceeds %dx%d",
                            dst->width, dst->height, CF_SCALE_MAX_SIZE, CF_SCALE_MAX_SIZE);
    return cf_scale_make_plan(plan, (int)v[PARAM_METHOD], src, dst, x, y, cw, ch);
}

static void scale_free_plan(void *plan)
{
    cf_scale_free_plan(plan);
}

/* The optimized CPU scale (scale_cpu_fast.h): SIMD rows on the pool. */
static cf_status scale_run_cpu(const void *plan, const cf_frame *src, cf_frame *dst,
                               cf_scratch *scratch)
{
    return cf_scale_fast(plan, src, dst, scratch, scratch->threads);
}

#ifdef CF_HAVE_CUDA
static cf_status scale_run_cuda(const void *plan, const cf_frame *src, cf_frame *dst,
                                cf_stream stream, cf_scratch *scratch)
{
    return cf_scale_cuda(plan, src, dst, stream, scratch);
}
#define SCALE_RUN_CUDA scale_run_cuda
#else
#define SCALE_RUN_CUDA NULL
#endif

static const struct cf_filter_impl scale_impl = {
    .output_formats = scale_output_formats,
    .output_size = cf_scale_filter_output_size,
    .plan_size = sizeof(cf_scale_plan),
    .make_plan = cf_scale_filter_make_plan,
    .free_plan = scale_free_plan,
    .run_cpu = scale_run_cpu,
    .run_cuda = SCALE_RUN_CUDA,
};

const cf_filter_desc cf_filter_scale = {
    "scale",
    "Resize (and crop)",
    "Resizes to any size (w x h, or the size the output is negotiated at) with nearest, "
    "bilinear, bicubic, area or Lanczos interpolation, each plane at its own size, from "
    "the whole input or a crop of it. Matches OpenCV 4.6 cv2.resize's INTER_NEAREST, "
    "INTER_LINEAR, INTER_CUBIC, INTER_AREA and INTER_LANCZOS4 (equal, or within 1).",
    scale_params,
    (int)(sizeof scale_params / sizeof scale_params[0]),
    scale_formats,
    (int)(sizeof scale_formats / sizeof scale_formats[0]),
    CF_FILTER_SPATIAL | CF_FILTER_RESIZES,
    &scale_impl,
};
