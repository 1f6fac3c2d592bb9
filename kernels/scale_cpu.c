/* CPU reference of scale: defines the result the CUDA kernels must match.
 * Sample by sample through scale.h; every plane at its own size. */
#include "scale.h"

int cf_scale_rows(const cf_scale_plan *plan)
{
    int n = 0;
    for (int p = 0; p < plan->n_planes; p++)
        n += plan->planes[p].dh;
    return n;
}

void cf_scale_cpu_rows(const cf_scale_plan *plan, const cf_frame *src, cf_frame *dst, int r0,
                       int r1)
{
    for (int p = 0, base = 0; p < plan->n_planes; base += plan->planes[p].dh, p++) {
        const cf_scale_plane *pp = &plan->planes[p];
        int step = pp->cn * pp->sample_bytes;
        for (int y = r0 > base ? r0 - base : 0; y < pp->dh && y < r1 - base; y++) {
            uint8_t *row = dst->data[p] + (size_t)y * dst->pitch[p];
            for (int x = 0; x < pp->dw; x++)
                for (int c = 0; c < pp->cn; c++) {
                    int v = plan->box[pp->klass]
                                ? cf_sc_box(plan, pp, src->data[p], src->pitch[p], x, y, c)
                                : cf_sc_sample(plan, pp, plan->tables, src->data[p],
                                               src->pitch[p], x, y, c);
                    cf_sample_store(row + (size_t)x * step + (size_t)c * pp->sample_bytes,
                                pp->sample_bytes, pp->shift, v);
                }
        }
    }
}

cf_status cf_scale_cpu(const cf_scale_plan *plan, const cf_frame *src, cf_frame *dst)
{
    cf_scale_cpu_rows(plan, src, dst, 0, cf_scale_rows(plan));
    return CF_OK;
}
