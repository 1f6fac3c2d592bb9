/* blur: descriptor, kernel construction and the glue to the CPU and CUDA
 * implementations. */
#include <math.h>
#include <string.h>

#include "blur.h"

enum { PARAM_SIGMA, PARAM_KERNEL_SIZE, PARAM_BORDER };

static const char *const border_choices[] = { "reflect101", "replicate", "reflect", NULL };

static const cf_param_desc blur_params[] = {
    [PARAM_SIGMA] = { "sigma", "Gaussian standard deviation", "pixels", CF_PARAM_DOUBLE, 0.0,
                      CF_BLUR_MAX_SIGMA, true, 1.0, NULL },
    [PARAM_KERNEL_SIZE] = { "kernel-size",
                            "Taps per direction, odd; 0 derives it from sigma (OpenCV's "
                            "8-bit rule, round(6*sigma+1)|1)",
                            "pixels", CF_PARAM_INT, 0, CF_BLUR_MAX_KSIZE, false, 0, NULL },
    [PARAM_BORDER] = { "border",
                       "How pixels beyond the edge are made: reflect101 (gfedcb|abcdefgh), "
                       "replicate (aaaaaa|abcdefgh), reflect (fedcba|abcdefgh)",
                       "", CF_PARAM_ENUM, 0, 2, false, CF_BORDER_REFLECT101, border_choices },
};

static const cf_format blur_formats[] = {
    CF_FORMAT_GRAY8, CF_FORMAT_RGBA, CF_FORMAT_BGRA, CF_FORMAT_RGBX, CF_FORMAT_BGRX,
    CF_FORMAT_RGB,   CF_FORMAT_BGR,  CF_FORMAT_NV12, CF_FORMAT_I420,
};

int cf_blur_kernel_size(double sigma, int ksize)
{
    if (ksize > 0)
        return ksize;
    /* lrint rounds half to even like OpenCV's cvRound. */
    return (int)lrint(sigma * 6.0 + 1.0) | 1;
}

cf_status cf_blur_make_kernel(double sigma, int ksize, cf_blur_kernel *kernel)
{
    int n = cf_blur_kernel_size(sigma, ksize);
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

size_t cf_blur_scratch_bytes(const cf_frame *src, size_t *tmp_pitch)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    size_t pitch = 0, rows = 0;
    for (int p = 0; p < info->n_planes; p++) {
        size_t row = cf_format_plane_row_bytes(src->format, p, src->width) * sizeof(uint16_t);
        size_t h = (size_t)cf_format_plane_height(src->format, p, src->height);
        if (row > pitch) pitch = row;
        if (h > rows) rows = h;
    }
    pitch = (pitch + 255) / 256 * 256;
    *tmp_pitch = pitch;
    return pitch * rows;
}

static cf_status blur_check_param(int index, double value)
{
    if (index == PARAM_KERNEL_SIZE && value != 0 && fmod(value, 2.0) == 0)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "blur: kernel-size=%g must be odd (or 0 to derive it from sigma)",
                            value);
    if (index == PARAM_SIGMA && cf_blur_kernel_size(value, 0) > CF_BLUR_MAX_KSIZE)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "blur: sigma=%g needs too many taps",
                            value);
    return CF_OK;
}

static cf_format blur_output_format(const double *values, cf_format input)
{
    (void)values;
    return input;
}

typedef cf_status (*blur_impl_fn)(const cf_blur_kernel *, int, const cf_frame *, cf_frame *,
                                  uint16_t *, size_t, cf_stream);

static cf_status blur_run(const double *values, const cf_frame *src, cf_frame *dst,
                          cf_scratch *scratch, cf_memory memory, cf_stream stream)
{
    cf_blur_kernel kernel;
    CF_TRY(cf_blur_make_kernel(values[PARAM_SIGMA], (int)values[PARAM_KERNEL_SIZE], &kernel));
    size_t tmp_pitch;
    void *tmp;
    CF_TRY(cf_scratch_reserve(scratch, cf_blur_scratch_bytes(src, &tmp_pitch), memory, &tmp));
    int border = (int)values[PARAM_BORDER];
    if (memory == CF_MEMORY_HOST)
        return cf_blur_cpu(&kernel, border, src, dst, tmp, tmp_pitch);
#ifdef CF_HAVE_CUDA
    return cf_blur_cuda(&kernel, border, src, dst, tmp, tmp_pitch, stream);
#else
    (void)stream;
    return cf_set_error(CF_ERROR_NO_DEVICE, "blur: built without CUDA");
#endif
}

static cf_status blur_run_cpu(const double *values, const cf_frame *src, cf_frame *dst,
                              cf_scratch *scratch)
{
    return blur_run(values, src, dst, scratch, CF_MEMORY_HOST, NULL);
}

#ifdef CF_HAVE_CUDA
static cf_status blur_run_cuda(const double *values, const cf_frame *src, cf_frame *dst,
                               cf_stream stream, cf_scratch *scratch)
{
    return blur_run(values, src, dst, scratch, CF_MEMORY_DEVICE, stream);
}
#define BLUR_RUN_CUDA blur_run_cuda
#else
#define BLUR_RUN_CUDA NULL
#endif

static const struct cf_filter_impl blur_impl = {
    blur_check_param, blur_output_format, blur_run_cpu, BLUR_RUN_CUDA,
};

const cf_filter_desc cf_filter_blur = {
    "blur",
    "Gaussian blur",
    "Separable Gaussian blur of every plane (alpha and chroma too; NV12/I420 chroma is "
    "blurred at its own plane size with the same sigma in chroma pixels), in integer "
    "fixed point: the CPU and CUDA results are bit-identical.",
    blur_params,
    (int)(sizeof blur_params / sizeof blur_params[0]),
    blur_formats,
    (int)(sizeof blur_formats / sizeof blur_formats[0]),
    &blur_impl,
};
