/* CPU reference of scale: defines the result the CUDA kernels must match.
 * Sample by sample through scale.h; every plane at its own size. */
#include "scale.h"

cf_status cf_scale_cpu(const cf_scale_plan *plan, const cf_frame *src, cf_frame *dst)
{
    for (int p = 0; p < plan->n_planes; p++) {
        const cf_scale_plane *pp = &plan->planes[p];
        int step = pp->cn * pp->sample_bytes;
        for (int y = 0; y < pp->dh; y++) {
            uint8_t *row = dst->data[p] + (size_t)y * dst->pitch[p];
            for (int x = 0; x < pp->dw; x++)
                for (int c = 0; c < pp->cn; c++) {
                    int v = plan->box[pp->klass]
                                ? cf_sc_box(plan, pp, src->data[p], src->pitch[p], x, y, c)
                                : cf_sc_sample(plan, pp, plan->tables, src->data[p],
                                               src->pitch[p], x, y, c);
                    cf_sc_store(row + (size_t)x * step + (size_t)c * pp->sample_bytes,
                                pp->sample_bytes, pp->shift, v);
                }
        }
    }
    return CF_OK;
}
