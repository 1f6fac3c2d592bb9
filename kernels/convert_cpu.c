/* CPU reference of convert: defines the result the CUDA kernels must match.
 * RGB and GRAY outputs row by row, pixel by pixel; 4:2:0 outputs by rows of
 * chroma samples: the two luma rows, then the chroma row (convert.h). */
#include "convert.h"

cf_convert_planes cf_convert_planes_of(const cf_frame *f)
{
    cf_convert_planes p = { { NULL, NULL, NULL }, { 0, 0, 0 } };
    const cf_format_info *info = cf_format_get_info(f->format);
    for (int i = 0; i < info->n_planes && i < 3; i++) {
        p.data[i] = f->data[i];
        p.pitch[i] = f->pitch[i];
    }
    return p;
}

/* Output rows [r0, r1) of the plan's row list (cf_convert_rows). */
void cf_convert_cpu_rows(const cf_convert_plan *plan, const cf_frame *src, cf_frame *dst, int r0,
                         int r1)
{
    cf_convert_planes in = cf_convert_planes_of(src), out = cf_convert_planes_of(dst);
    cf_cv_rows(plan, &in, &out, src->width, src->height, r0, r1);
}

int cf_convert_rows(const cf_convert_plan *plan, int height)
{
    return plan->d.kind == CF_KIND_YUV ? (height + 1) / 2 : height;
}

cf_status cf_convert_cpu(const cf_convert_plan *plan, const cf_frame *src, cf_frame *dst)
{
    cf_convert_cpu_rows(plan, src, dst, 0, cf_convert_rows(plan, src->height));
    return CF_OK;
}
