/* convert: descriptor and plan. Any supported format to any other
 * (convert.h has the formulas). */
#include <math.h>

#include "convert.h"
#include "convert_cpu_fast.h"

enum { PARAM_FORMAT, PARAM_MATRIX, PARAM_RANGE, PARAM_SITE, PARAM_FILTER, PARAM_ALPHA };

/* The `format` choices, in the order of convert_formats. */
const char *const cf_convert_format_choices[] = { "rgba", "bgra", "rgbx", "bgrx", "rgb", "bgr",
                                                  "gray8", "gray16", "nv12", "i420", "p010",
                                                  "i420_10", NULL };
const cf_format cf_convert_formats[CF_CONVERT_N_FORMATS] = {
    CF_FORMAT_RGBA,      CF_FORMAT_BGRA,      CF_FORMAT_RGBX, CF_FORMAT_BGRX,
    CF_FORMAT_RGB,       CF_FORMAT_BGR,       CF_FORMAT_GRAY8, CF_FORMAT_GRAY16_LE,
    CF_FORMAT_NV12,      CF_FORMAT_I420,      CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE,
};
#define convert_formats cf_convert_formats
#define N_FORMATS CF_CONVERT_N_FORMATS

const char *const cf_convert_matrix_choices[] = { "bt601", "bt709", "bt2020", NULL };
const char *const cf_convert_range_choices[] = { "limited", "full", NULL };
const char *const cf_convert_site_choices[] = { "left", "center", NULL };
const char *const cf_convert_filter_choices[] = { "linear", "nearest", NULL };

static const cf_param_desc convert_params[] = { CF_CONVERT_PARAM_DESCS };

static cf_format format_param(const double *values)
{
    return convert_formats[(int)values[PARAM_FORMAT]];
}

/* The chosen format first, then every other one. */
int cf_convert_filter_output_formats(const double *values, cf_format input, cf_format *out)
{
    (void)input;
    int n = 0;
    out[n++] = format_param(values);
    for (int i = 0; i < N_FORMATS; i++)
        if (convert_formats[i] != out[0])
            out[n++] = convert_formats[i];
    return n;
}

static bool convert_is_identity(const double *values, cf_format input, cf_format output)
{
    const cf_format_info *info = cf_format_get_info(input);
    return input == output && (values[PARAM_ALPHA] < 0 || info->a_offset < 0);
}

static cf_convert_layout layout_of(cf_format format)
{
    const cf_format_info *f = cf_format_get_info(format);
    cf_convert_layout l = { 0 };
    l.kind = f->is_yuv ? CF_KIND_YUV : f->r_offset >= 0 ? CF_KIND_RGB : CF_KIND_GRAY;
    l.sample_bytes = f->sample_bytes;
    l.shift = f->shift;
    l.depth = f->depth;
    l.bpp = f->pixel_bytes[0];
    l.r = f->r_offset, l.g = f->g_offset, l.b = f->b_offset, l.a = f->a_offset;
    l.semi_planar = f->is_yuv && f->n_planes == 2;
    return l;
}

static int32_t q14(double v)
{
    return (int32_t)lround(v * (1 << CF_CONVERT_SHIFT));
}

cf_convert_plan cf_convert_make_plan(cf_format src, cf_format dst, int matrix, int range,
                                     int site, int filter, int alpha)
{
    static const double kr_of[] = { 0.299, 0.2126, 0.2627 }, kb_of[] = { 0.114, 0.0722, 0.0593 };
    /* gray.h's Q15 luma weights (blue takes the rounding). */
    static const int32_t luma[3][3] = { { 9798, 19235, 3735 }, { 6967, 23436, 2365 },
                                        { 8608, 22217, 1943 } };
    cf_convert_plan p = { 0 };
    p.s = layout_of(src);
    p.d = layout_of(dst);
    p.site = site, p.filter = filter, p.alpha = alpha;
    p.lr = luma[matrix][0], p.lg = luma[matrix][1], p.lb = luma[matrix][2];
    int depth = p.s.kind == CF_KIND_YUV ? p.s.depth : p.d.kind == CF_KIND_YUV ? p.d.depth : 8;
    int max = (1 << depth) - 1;
    p.ymax = max;
    if (range == CF_RANGE_FULL) {
        p.y_lo = 0, p.y_span = max, p.c_mid = 1 << (depth - 1), p.c_span = max;
    } else {
        p.y_lo = 16 << (depth - 8), p.y_span = 219 << (depth - 8);
        p.c_mid = 128 << (depth - 8), p.c_span = 224 << (depth - 8);
    }
    double kr = kr_of[matrix], kb = kb_of[matrix], kg = 1 - kr - kb;
    /* YUV -> RGB: E' = (Y - lo) / yspan ..., times 255. */
    double ys = 255.0 / p.y_span, cs = 255.0 / p.c_span;
    p.cy = q14(ys);
    p.crv = q14(2 * (1 - kr) * cs);
    p.cbu = q14(2 * (1 - kb) * cs);
    p.cgu = q14(-2 * kb * (1 - kb) / kg * cs);
    p.cgv = q14(-2 * kr * (1 - kr) / kg * cs);
    /* RGB -> YUV: E'Y times yspan, E'P times cspan, from 8-bit RGB. */
    double yk = p.y_span / 255.0, ck = p.c_span / 255.0;
    p.yr = q14(kr * yk), p.yg = q14(kg * yk), p.yb = q14(kb * yk);
    double pb = ck / (2 * (1 - kb)), pr = ck / (2 * (1 - kr));
    p.ur = q14(-kr * pb), p.ug = q14(-kg * pb), p.ub = -(p.ur + p.ug); /* (1 - kb) pb */
    p.vg = q14(-kg * pr), p.vb = q14(-kb * pr), p.vr = -(p.vg + p.vb); /* (1 - kr) pr */
    return p;
}

cf_convert_plan cf_convert_filter_plan(const double *values, cf_format src, cf_format dst)
{
    return cf_convert_make_plan(src, dst, (int)values[PARAM_MATRIX], (int)values[PARAM_RANGE],
                                (int)values[PARAM_SITE], (int)values[PARAM_FILTER],
                                (int)values[PARAM_ALPHA]);
}

static cf_status convert_make_plan(const double *values, const cf_frame *src, const cf_frame *dst,
                                   void *plan)
{
    *(cf_convert_plan *)plan = cf_convert_filter_plan(values, src->format, dst->format);
    return CF_OK;
}

/* The optimized CPU convert (convert_cpu_fast.h): SIMD rows on the pool,
 * or the reference in slices of rows where no SIMD row applies. */
static cf_status convert_run_cpu(const void *plan, const cf_frame *src, cf_frame *dst,
                                 cf_scratch *scratch)
{
    return cf_convert_fast(plan, src, dst, scratch, scratch->threads);
}

#ifdef CF_HAVE_CUDA
static cf_status convert_run_cuda(const void *plan, const cf_frame *src, cf_frame *dst,
                                  cf_stream stream, cf_scratch *scratch)
{
    (void)scratch;
    return cf_convert_cuda(plan, src, dst, stream);
}
#define CONVERT_RUN_CUDA convert_run_cuda
#else
#define CONVERT_RUN_CUDA NULL
#endif

static const struct cf_filter_impl convert_impl = {
    .output_formats = cf_convert_filter_output_formats,
    .is_identity = convert_is_identity,
    .plan_size = sizeof(cf_convert_plan),
    .make_plan = convert_make_plan,
    .run_cpu = convert_run_cpu,
    .run_cuda = CONVERT_RUN_CUDA,
};

const cf_filter_desc cf_filter_convert = {
    "convert",
    "Convert between pixel formats",
    "Converts any supported format to any other: RGB family with and without alpha, GRAY8, "
    "GRAY16, NV12, I420, P010, I420_10. YUV uses the BT.601, BT.709 or BT.2020 matrix in "
    "limited or full range (from the caps or the decoder); 4:2:0 chroma is resampled "
    "linearly for its siting (left: MPEG-2, center: JPEG) or nearest (as OpenCV cvtColor). "
    "Alpha is kept or filled.",
    convert_params,
    (int)(sizeof convert_params / sizeof convert_params[0]),
    convert_formats,
    N_FORMATS,
    0,
    &convert_impl,
};
