/* gray: descriptor. Converts any supported input to GRAY8 luma. */
#include "gray.h"

static const char *const matrix_choices[] = { "bt601", "bt709", "bt2020", NULL };

static const cf_param_desc gray_params[] = {
    { "matrix", "Luma weights of RGB input: bt601 (OpenCV cvtColor), bt709 or bt2020", "",
      CF_PARAM_ENUM, 0, 2, false, CF_GRAY_BT601, matrix_choices },
};

static const cf_format gray_formats[] = {
    CF_FORMAT_GRAY8, CF_FORMAT_RGBA, CF_FORMAT_BGRA, CF_FORMAT_RGBX, CF_FORMAT_BGRX,
    CF_FORMAT_RGB,   CF_FORMAT_BGR,  CF_FORMAT_NV12, CF_FORMAT_I420,
};

static cf_format gray_output_format(const double *values, cf_format input)
{
    (void)values;
    (void)input;
    return CF_FORMAT_GRAY8;
}

static cf_status gray_run_cpu(const double *values, const cf_frame *src, cf_frame *dst,
                              cf_scratch *scratch)
{
    (void)scratch;
    return cf_gray_cpu((int)values[0], src, dst);
}

#ifdef CF_HAVE_CUDA
static cf_status gray_run_cuda(const double *values, const cf_frame *src, cf_frame *dst,
                               cf_stream stream, cf_scratch *scratch)
{
    (void)scratch;
    return cf_gray_cuda((int)values[0], src, dst, stream);
}
#define GRAY_RUN_CUDA gray_run_cuda
#else
#define GRAY_RUN_CUDA NULL
#endif

static const struct cf_filter_impl gray_impl = {
    NULL, gray_output_format, gray_run_cpu, GRAY_RUN_CUDA,
};

const cf_filter_desc cf_filter_gray = {
    "gray",
    "Convert to 8-bit gray (luma)",
    "Converts RGB-family input to GRAY8 with the chosen matrix's luma weights "
    "(BT.601 by default, bit-identical to OpenCV cvtColor RGB2GRAY); takes the Y "
    "plane of NV12/I420 input as is.",
    gray_params,
    (int)(sizeof gray_params / sizeof gray_params[0]),
    gray_formats,
    (int)(sizeof gray_formats / sizeof gray_formats[0]),
    &gray_impl,
};
