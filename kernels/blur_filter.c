/* blur: descriptor, kernel construction and the glue to the CPU and CUDA
 * implementations. */
#include <math.h>
#include <string.h>

#include "blur.h"
#include "blur_cpu_fast.h"

enum { PARAM_SIGMA, PARAM_SIGMA_Y, PARAM_KERNEL_SIZE, PARAM_BORDER, PARAM_BORDER_VALUE };

static const char *const border_choices[] = { "reflect101", "replicate", "reflect", "constant",
                                              NULL };

static const cf_param_desc blur_params[] = {
    [PARAM_SIGMA] = { "sigma", "Gaussian standard deviation, horizontal (and vertical when "
                               "sigma-y is 0)",
                      "pixels", CF_PARAM_DOUBLE, CF_BLUR_MIN_SIGMA, CF_BLUR_MAX_SIGMA, 1.0, NULL },
    [PARAM_SIGMA_Y] = { "sigma-y", "Vertical standard deviation; 0 uses sigma", "pixels",
                        CF_PARAM_DOUBLE, 0.0, CF_BLUR_MAX_SIGMA, 0.0, NULL },
    [PARAM_KERNEL_SIZE] = { "kernel-size",
                            "Taps per direction, odd, at most 1025; 0 derives it from sigma "
                            "like OpenCV: round(6*sigma+1)|1 for 8-bit formats, "
                            "round(8*sigma+1)|1 for 10/16-bit ones",
                            "pixels", CF_PARAM_INT, 0, CF_BLUR_MAX_KSIZE, 0, NULL },
    [PARAM_BORDER] = { "border",
                       "Pixels beyond the edge: reflect101 (gfedcb|abcdefgh), replicate "
                       "(aaaaaa|abcdefgh), reflect (fedcba|abcdefgh), constant (border-value)",
                       "", CF_PARAM_ENUM, 0, 3, CF_BORDER_REFLECT101, border_choices },
    [PARAM_BORDER_VALUE] = { "border-value",
                             "Sample value beyond the edge for border=constant, in the format's "
                             "units (0-255 for 8-bit formats, 0-1023 for 10-bit; larger values "
                             "are clamped); every component of every plane gets it",
                             "", CF_PARAM_INT, 0, 65535, 0, NULL },
};

static const cf_format blur_formats[] = {
    CF_FORMAT_GRAY8,     CF_FORMAT_RGBA,      CF_FORMAT_BGRA,      CF_FORMAT_RGBX,
    CF_FORMAT_BGRX,      CF_FORMAT_RGB,       CF_FORMAT_BGR,       CF_FORMAT_NV12,
    CF_FORMAT_I420,      CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE,
};

int cf_blur_kernel_size(double sigma, int ksize, int depth)
{
    if (ksize > 0)
        return ksize;
    /* lrint rounds half to even like OpenCV's cvRound. */
    return (int)lrint(sigma * (depth == 8 ? 6.0 : 8.0) + 1.0) | 1;
}

cf_status cf_blur_make_kernel(double sigma, int ksize, int depth, cf_blur_kernel *kernel)
{
    int n = cf_blur_kernel_size(sigma, ksize, depth);
    if (!(sigma > 0) || n % 2 == 0 || n > CF_BLUR_MAX_KSIZE)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "blur: sigma %g with kernel-size %d gives %d taps (must be odd, at "
                            "most %d)",
                            sigma, ksize, n, CF_BLUR_MAX_KSIZE);
    double g[CF_BLUR_MAX_KSIZE], sum = 0.0;
    double scale = -0.5 / (sigma * sigma);
    for (int i = 0; i < n; i++) {
        double x = i - (n - 1) * 0.5;
        g[i] = exp(scale * x * x);
        sum += g[i];
    }
    int64_t total = 0;
    memset(kernel, 0, sizeof *kernel);
    kernel->size = n;
    for (int i = 0; i < n; i++) {
        kernel->w[i] = (uint32_t)lrint(g[i] / sum * CF_BLUR_WEIGHT_ONE);
        total += kernel->w[i];
    }
    kernel->w[n / 2] = (uint32_t)((int64_t)kernel->w[n / 2] + (int64_t)CF_BLUR_WEIGHT_ONE - total);
    return CF_OK;
}

static cf_status blur_check_param(int index, double value)
{
    if (index == PARAM_SIGMA_Y && value > 0 && value < CF_BLUR_MIN_SIGMA)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "blur: sigma-y=%g must be 0 (same as sigma) or at least %g", value,
                            CF_BLUR_MIN_SIGMA);
    if (index == PARAM_KERNEL_SIZE && value != 0 && fmod(value, 2.0) == 0)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "blur: kernel-size=%g must be odd (or 0 to derive it from sigma)",
                            value);
    return CF_OK;
}

static int blur_output_formats(const double *values, cf_format input, cf_format *out)
{
    (void)values;
    out[0] = input;
    return 1;
}

/* One 32-bit intermediate per sample of the largest plane; rows 256-byte
 * aligned; one row more than the tallest plane (the CUDA two-pass method's
 * constant-border row, blur_sep.cu). */
static size_t scratch_bytes(const cf_frame *src, size_t *tmp_pitch)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    size_t pitch = 0, rows = 0;
    for (int p = 0; p < info->n_planes; p++) {
        size_t samples = cf_format_plane_row_bytes(src->format, p, src->width) /
                         (size_t)info->sample_bytes;
        size_t h = (size_t)cf_format_plane_height(src->format, p, src->height);
        if (samples * sizeof(uint32_t) > pitch) pitch = samples * sizeof(uint32_t);
        if (h > rows) rows = h;
    }
    *tmp_pitch = (pitch + 255) / 256 * 256;
    return *tmp_pitch * (rows + 1);
}

/* What blur derives once from its parameters and the format. */
typedef struct blur_plan {
    cf_blur_kernel kx, ky;
    int border;              /* cf_border */
    uint32_t border_value;   /* clamped to the format's largest sample */
} blur_plan;

static cf_status blur_make_plan(const double *values, const cf_frame *src, const cf_frame *dst,
                                void *plan_out)
{
    (void)dst;
    blur_plan *plan = plan_out;
    const cf_format_info *info = cf_format_get_info(src->format);
    double sigma = values[PARAM_SIGMA];
    double sigma_y = values[PARAM_SIGMA_Y] > 0 ? values[PARAM_SIGMA_Y] : sigma;
    int ksize = (int)values[PARAM_KERNEL_SIZE];
    CF_TRY(cf_blur_make_kernel(sigma, ksize, info->depth, &plan->kx));
    CF_TRY(cf_blur_make_kernel(sigma_y, ksize, info->depth, &plan->ky));
    uint32_t max_value = (1u << info->depth) - 1;
    uint32_t border_value = (uint32_t)values[PARAM_BORDER_VALUE];
    plan->border = (int)values[PARAM_BORDER];
    plan->border_value = border_value < max_value ? border_value : max_value;
    return CF_OK;
}

static cf_status blur_run(const blur_plan *plan, const cf_frame *src, cf_frame *dst,
                          cf_scratch *scratch, cf_memory memory, cf_stream stream)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    size_t tmp_pitch = 0;
    void *tmp = NULL;
    if (memory != CF_MEMORY_HOST) /* the CPU code sizes its own (blur_cpu_fast.c) */
        CF_TRY(cf_scratch_reserve(scratch, scratch_bytes(src, &tmp_pitch), memory, &tmp));
    cf_blur_plane planes[CF_MAX_PLANES];
    for (int p = 0; p < info->n_planes; p++) {
        planes[p] = (cf_blur_plane){
            src->data[p],
            src->pitch[p],
            dst->data[p],
            dst->pitch[p],
            cf_format_plane_width(src->format, p, src->width),
            cf_format_plane_height(src->format, p, src->height),
            info->pixel_bytes[p] / info->sample_bytes,
            info->sample_bytes,
            info->shift,
            plan->border,
            plan->border_value,
        };
        if (memory == CF_MEMORY_HOST)
            CF_TRY(cf_blur_plane_fast(&plan->kx, &plan->ky, &planes[p], scratch,
                                      scratch->threads));
    }
    if (memory == CF_MEMORY_HOST)
        return CF_OK;
#ifdef CF_HAVE_CUDA
    return cf_blur_planes_cuda(&plan->kx, &plan->ky, planes, info->n_planes, tmp, tmp_pitch,
                               stream);
#else
    (void)stream;
    return cf_set_error(CF_ERROR_NO_DEVICE, "blur: built without CUDA");
#endif
}

static cf_status blur_run_cpu(const void *plan, const cf_frame *src, cf_frame *dst,
                              cf_scratch *scratch)
{
    return blur_run(plan, src, dst, scratch, CF_MEMORY_HOST, NULL);
}

#ifdef CF_HAVE_CUDA
static cf_status blur_run_cuda(const void *plan, const cf_frame *src, cf_frame *dst,
                               cf_stream stream, cf_scratch *scratch)
{
    return blur_run(plan, src, dst, scratch, CF_MEMORY_DEVICE, stream);
}
#define BLUR_RUN_CUDA blur_run_cuda
#else
#define BLUR_RUN_CUDA NULL
#endif

/* One-tap kernels in both directions: the weight is exactly 65536, so
 * every sample comes back as it was (blur.h's arithmetic). */
static bool blur_is_identity(const double *values, cf_format input, cf_format output)
{
    const cf_format_info *info = cf_format_get_info(input);
    double sigma = values[PARAM_SIGMA];
    double sigma_y = values[PARAM_SIGMA_Y] > 0 ? values[PARAM_SIGMA_Y] : sigma;
    int ksize = (int)values[PARAM_KERNEL_SIZE];
    return input == output && cf_blur_kernel_size(sigma, ksize, info->depth) == 1 &&
           cf_blur_kernel_size(sigma_y, ksize, info->depth) == 1;
}

static const struct cf_filter_impl blur_impl = {
    .check_param = blur_check_param,
    .output_formats = blur_output_formats,
    .is_identity = blur_is_identity,
    .plan_size = sizeof(blur_plan),
    .make_plan = blur_make_plan,
    .run_cpu = blur_run_cpu,
    .run_cuda = BLUR_RUN_CUDA,
};

const cf_filter_desc cf_filter_blur = {
    "blur",
    "Gaussian blur",
    "Separable Gaussian blur of every plane (alpha and chroma too, as channels of "
    "their own; NV12/I420 chroma is blurred at its own plane size with the same sigma "
    "in chroma pixels), in integer fixed point: the CPU and CUDA results are "
    "bit-identical, and for 8-bit samples within 1 of OpenCV GaussianBlur with the same "
    "sigma, size and border (16-bit ones: taps in Q16, so at most about taps / 2^17 of the "
    "sample range from the exact Gaussian). Kernels up to 1025 taps.",
    blur_params,
    (int)(sizeof blur_params / sizeof blur_params[0]),
    blur_formats,
    (int)(sizeof blur_formats / sizeof blur_formats[0]),
    CF_FILTER_SPATIAL,
    &blur_impl,
};
