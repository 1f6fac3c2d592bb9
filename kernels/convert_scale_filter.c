/* convertscale: descriptor. scale's parameters and convert's in one filter
 * (values: scale's first, then convert's), resizing and converting in one
 * step (convert_scale.h): the GStreamer element cfconvertscale, and
 * `convertscale=w=1280:h=720:format=rgba` in filter strings. */
#include <string.h>

#include "convert_cpu_fast.h"
#include "convert_scale.h"
#include "scale_cpu_fast.h"

static const cf_param_desc convert_scale_params[] = { CF_SCALE_PARAM_DESCS,
                                                      CF_CONVERT_PARAM_DESCS };

/* convert's values follow scale's. */
static const double *convert_values(const double *values)
{
    return values + CF_SCALE_N_PARAMS;
}

static int convert_scale_output_formats(const double *values, cf_format input, cf_format *out)
{
    return cf_convert_filter_output_formats(convert_values(values), input, out);
}

static cf_status convert_scale_make_plan(const double *values, const cf_frame *src,
                                         const cf_frame *dst, void *plan)
{
    cf_convert_scale_plan *p = plan;
    /* The scale's output: the source's format at the output's size. */
    cf_frame mid = { .format = src->format, .width = dst->width, .height = dst->height,
                     .memory = src->memory, .device = src->device };
    CF_TRY(cf_scale_filter_make_plan(values, src, &mid, &p->scale));
    p->convert = cf_convert_filter_plan(convert_values(values), src->format, dst->format);
    memset(&p->mid, 0, sizeof p->mid);
    if (src->memory != CF_MEMORY_DEVICE) {
        cf_status st = cf_frame_alloc(&p->mid, src->format, dst->width, dst->height,
                                      CF_MEMORY_HOST);
        if (st != CF_OK) {
            cf_scale_free_plan(&p->scale);
            return st;
        }
    }
    return CF_OK;
}

static void convert_scale_free_plan(void *plan)
{
    cf_convert_scale_plan *p = plan;
    cf_scale_free_plan(&p->scale);
    cf_frame_free(&p->mid);
}

/* The scale into the plan's intermediate, then the convert from it, each
 * with its optimized CPU code (convert_scale.h). */
static cf_status convert_scale_run_cpu(const void *plan, const cf_frame *src, cf_frame *dst,
                                       cf_scratch *scratch)
{
    const cf_convert_scale_plan *p = plan;
    cf_frame mid = p->mid;
    CF_TRY(cf_scale_fast(&p->scale, src, &mid, scratch, scratch->threads));
    return cf_convert_fast(&p->convert, &mid, dst, scratch, scratch->threads);
}

#ifdef CF_HAVE_CUDA
static cf_status convert_scale_run_cuda(const void *plan, const cf_frame *src, cf_frame *dst,
                                        cf_stream stream, cf_scratch *scratch)
{
    return cf_convert_scale_cuda(plan, src, dst, stream, scratch);
}
#define CONVERT_SCALE_RUN_CUDA convert_scale_run_cuda
#else
#define CONVERT_SCALE_RUN_CUDA NULL
#endif

static const struct cf_filter_impl convert_scale_impl = {
    .output_formats = convert_scale_output_formats,
    .output_size = cf_scale_filter_output_size,
    .plan_size = sizeof(cf_convert_scale_plan),
    .make_plan = convert_scale_make_plan,
    .free_plan = convert_scale_free_plan,
    .run_cpu = convert_scale_run_cpu,
    .run_cuda = CONVERT_SCALE_RUN_CUDA,
};

const cf_filter_desc cf_filter_convert_scale = {
    "convertscale",
    "Resize and convert between pixel formats in one filter",
    "scale and convert in one filter: resizes (w, h, method, crop: as scale) and converts to "
    "any supported format (format, matrix, range, chroma siting, alpha: as convert). The "
    "result is scale's followed by convert's, bit for bit (on the GPU the two kernels run "
    "through an intermediate frame in the filter's scratch).",
    convert_scale_params,
    (int)(sizeof convert_scale_params / sizeof convert_scale_params[0]),
    cf_convert_formats,
    CF_CONVERT_N_FORMATS,
    CF_FILTER_SPATIAL | CF_FILTER_RESIZES,
    &convert_scale_impl,
};
