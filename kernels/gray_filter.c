/* gray: descriptor. Luma of any supported input, as GRAY8 or, where the
 * consumer wants the input format back, as that format with no colour. */
#include "gray.h"
#include "gray_cpu_fast.h"

enum { PARAM_MATRIX, PARAM_RANGE };

static const char *const matrix_choices[] = { "bt601", "bt709", "bt2020", NULL };
static const char *const range_choices[] = { "limited", "full", NULL };

static const cf_param_desc gray_params[] = {
    [PARAM_MATRIX] = { "matrix", "Luma weights of RGB input: bt601 (OpenCV cvtColor), bt709 or bt2020",
                       "", CF_PARAM_ENUM, 0, 2, CF_GRAY_BT601, matrix_choices },
    [PARAM_RANGE] = { "range",
                      "Quantisation range of YUV input: limited (16-235, 64-940 for 10 bits; "
                      "expanded to 0-255) or full. GStreamer elements take it from the caps",
                      "", CF_PARAM_ENUM, 0, 1, CF_GRAY_RANGE_LIMITED, range_choices,
                      CF_PARAM_ROLE_COLOR_RANGE },
};

static const cf_format gray_formats[] = {
    CF_FORMAT_GRAY8,     CF_FORMAT_RGBA,      CF_FORMAT_BGRA,      CF_FORMAT_RGBX,
    CF_FORMAT_BGRX,      CF_FORMAT_RGB,       CF_FORMAT_BGR,       CF_FORMAT_NV12,
    CF_FORMAT_I420,      CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE,
};

/* GRAY8 first (the point of the filter), then the input's own format. */
static int gray_output_formats(const double *values, cf_format input, cf_format *out)
{
    (void)values;
    out[0] = CF_FORMAT_GRAY8;
    if (input == CF_FORMAT_GRAY8)
        return 1;
    out[1] = input;
    return 2;
}

cf_gray_plan cf_gray_make_plan(int matrix, int range, cf_format src, cf_format dst)
{
    const cf_format_info *info = cf_format_get_info(src);
    cf_gray_weights w601 = { 9798, 19235, 3735 }, w709 = { 6967, 23436, 2365 },
                    w2020 = { 8608, 22217, 1943 };
    cf_gray_plan plan = { 0 };
    plan.from_rgb = info->r_offset >= 0;
    plan.keep_format = dst == src && src != CF_FORMAT_GRAY8;
    plan.w = matrix == CF_GRAY_BT709 ? w709 : matrix == CF_GRAY_BT2020 ? w2020 : w601;
    plan.sample_bytes = info->sample_bytes;
    plan.shift = info->shift;
    int max = (1 << info->depth) - 1;
    bool limited = info->is_yuv && range == CF_GRAY_RANGE_LIMITED;
    plan.lo = limited ? 16 << (info->depth - 8) : 0;
    plan.span = limited ? 219 << (info->depth - 8) : max;
    plan.neutral = (uint16_t)((1 << (info->depth - 1)) << info->shift);
    cf_gray_division_magic(plan.span, &plan.magic, &plan.magic_shift);
    plan.mul24 = cf_gray_mul24(plan.span);
    return plan;
}

static cf_status gray_make_plan(const double *values, const cf_frame *src, const cf_frame *dst,
                                void *plan)
{
    *(cf_gray_plan *)plan = cf_gray_make_plan((int)values[PARAM_MATRIX], (int)values[PARAM_RANGE],
                                              src->format, dst->format);
    return CF_OK;
}

static cf_status gray_run_cpu(const void *plan, const cf_frame *src, cf_frame *dst,
                              cf_scratch *scratch)
{
    return cf_gray_fast(plan, src, dst, scratch->threads);
}

#ifdef CF_HAVE_CUDA
static cf_status gray_run_cuda(const void *plan, const cf_frame *src, cf_frame *dst,
                               cf_stream stream, cf_scratch *scratch)
{
    (void)scratch;
    return cf_gray_cuda(plan, src, dst, stream);
}
#define GRAY_RUN_CUDA gray_run_cuda
#else
#define GRAY_RUN_CUDA NULL
#endif

static bool gray_is_identity(const double *values, cf_format input, cf_format output)
{
    (void)values;
    return input == CF_FORMAT_GRAY8 && output == CF_FORMAT_GRAY8;
}

static const struct cf_filter_impl gray_impl = {
    .output_formats = gray_output_formats,
    .is_identity = gray_is_identity,
    .plan_size = sizeof(cf_gray_plan),
    .make_plan = gray_make_plan,
    .run_cpu = gray_run_cpu,
    .run_cuda = GRAY_RUN_CUDA,
};

const cf_filter_desc cf_filter_gray = {
    "gray",
    "Convert to gray (luma)",
    "Computes luma: from RGB-family input with the chosen matrix's weights (BT.601 by "
    "default, bit-identical to OpenCV cvtColor RGB2GRAY), from YUV input its Y plane "
    "expanded from its range to full-range 0-255, from GRAY16 scaled to 8 bits. Output "
    "is GRAY8, or the input format where the consumer needs it (RGB: R=G=B=Y with alpha "
    "kept; YUV: Y kept as it is, chroma neutral).",
    gray_params,
    (int)(sizeof gray_params / sizeof gray_params[0]),
    gray_formats,
    (int)(sizeof gray_formats / sizeof gray_formats[0]),
    0,
    &gray_impl,
};
