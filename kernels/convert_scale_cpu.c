/* convertscale on the CPU: the one-pass arithmetic of the CUDA version
 * (convert_scale.h), in slices of rows on the process pool. */
#define CF_CONVERT_SCALED_SOURCE /* convert.h reads its input through the scale */
#include "convert_scale.h"

#include "rows_cpu_threads.h"

void cf_convert_scale_fused_rows(const cf_convert_scale_plan *plan, const cf_frame *src,
                                 cf_frame *dst, int r0, int r1)
{
    cf_convert_planes in = cf_convert_planes_of(src), out = cf_convert_planes_of(dst);
    in.scale = &plan->scale;
    in.tables = plan->scale.tables;
    cf_cv_rows(&plan->convert, &in, &out, dst->width, dst->height, r0, r1);
}

static void fused_rows(const void *plan, const cf_frame *src, cf_frame *dst, int r0, int r1)
{
    cf_convert_scale_fused_rows(plan, src, dst, r0, r1);
}

void cf_convert_scale_cpu(const cf_convert_scale_plan *plan, const cf_frame *src, cf_frame *dst,
                          int threads)
{
    cf_rows_cpu_run(fused_rows, plan, src, dst, cf_convert_rows(&plan->convert, dst->height),
                    threads);
}
