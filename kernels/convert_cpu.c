/* CPU reference of convert: defines the result the CUDA kernels must match.
 * RGB and GRAY outputs pixel by pixel; 4:2:0 outputs luma pixel by pixel,
 * then chroma sample by sample (convert.h). */
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

cf_status cf_convert_cpu(const cf_convert_plan *plan, const cf_frame *src, cf_frame *dst)
{
    cf_convert_planes in = cf_convert_planes_of(src), out = cf_convert_planes_of(dst);
    int w = src->width, h = src->height;
    int cw = (w + 1) / 2, ch = (h + 1) / 2;
    if (plan->d.kind != CF_KIND_YUV) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                cf_cv_out_pixel(plan, &in, &out, x, y, cw, ch);
        return CF_OK;
    }
    const cf_convert_layout *d = &plan->d;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            cf_cv_store(out.data[0] + (size_t)y * out.pitch[0] + (size_t)x * d->sample_bytes,
                        d->sample_bytes, d->shift, cf_cv_out_luma(plan, &in, x, y));
    for (int j = 0; j < ch; j++)
        for (int i = 0; i < cw; i++) {
            int u, v;
            cf_cv_out_chroma(plan, &in, i, j, w, h, &u, &v);
            cf_cv_store_chroma(d, &out, i, j, u, v);
        }
    return CF_OK;
}
