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
    int w = src->width, h = src->height;
    int cw = (w + 1) / 2, ch = (h + 1) / 2;
    if (plan->d.kind != CF_KIND_YUV) {
        for (int y = r0; y < r1; y++)
            for (int x = 0; x < w; x++)
                cf_cv_out_pixel(plan, &in, &out, x, y, cw, ch);
        return;
    }
    const cf_convert_layout *d = &plan->d;
    for (int j = r0; j < r1; j++) {
        for (int y = 2 * j; y < 2 * j + 2 && y < h; y++)
            for (int x = 0; x < w; x++)
                cf_sample_store(out.data[0] + (size_t)y * out.pitch[0] + (size_t)x * d->sample_bytes,
                            d->sample_bytes, d->shift, cf_cv_out_luma(plan, &in, x, y));
        for (int i = 0; i < cw; i++) {
            int u, v;
            cf_cv_out_chroma(plan, &in, i, j, w, h, &u, &v);
            cf_cv_store_chroma(d, &out, i, j, u, v);
        }
    }
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
