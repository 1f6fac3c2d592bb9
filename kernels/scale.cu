/* CUDA scale: the same arithmetic as scale_cpu.c through scale.h, one
 * thread per output pixel (all its samples), a launch per plane. The
 * plan's tables live in the instance's device scratch, uploaded when the
 * plan changes (the scratch's tag is the plan's id), so a steady stream of
 * frames copies nothing but the pixels. Grids stride over rows so any
 * height fits the 65535 grid.y limit. */
#include <cuda_runtime.h>

#include "launch.cuh"
#include "scale.h"

namespace {

constexpr int kThreads = 128;

unsigned grid_rows(int rows)
{
    return (unsigned)(rows < 65535 ? rows : 65535);
}

template <bool Box>
__global__ void scale_plane(cf_scale_plan plan, int p, const void *tables, const uint8_t *src,
                            size_t src_pitch, uint8_t *dst, size_t dst_pitch)
{
    cf_pdl_begin();
    const cf_scale_plane &pp = plan.planes[p];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= pp.dw)
        return;
    int step = pp.cn * pp.sample_bytes;
    for (int y = blockIdx.y; y < pp.dh; y += gridDim.y) {
        uint8_t *out = dst + (size_t)y * dst_pitch + (size_t)x * step;
        for (int c = 0; c < pp.cn; c++) {
            int v = Box ? cf_sc_box(&plan, &pp, src, src_pitch, x, y, c)
                        : cf_sc_sample(&plan, &pp, tables, src, src_pitch, x, y, c);
            cf_sample_store(out + (size_t)c * pp.sample_bytes, pp.sample_bytes, pp.shift, v);
        }
    }
}

} // namespace

extern "C" cf_status cf_scale_cuda_tables(const cf_scale_plan *plan, cf_scratch *scratch,
                                          cf_stream stream, const void **tables)
{
    void *block = NULL;
    CF_TRY(cf_scratch_reserve(scratch, plan->table_bytes, CF_MEMORY_DEVICE, &block));
    if (scratch->tag != plan->id) {
        /* Pageable source: the runtime has staged it when this returns. */
        CF_TRY(CF_CUDA_CHECK(cudaMemcpyAsync(block, plan->tables, plan->table_bytes,
                                             cudaMemcpyHostToDevice, (cudaStream_t)stream)));
        scratch->tag = plan->id;
    }
    *tables = block;
    return CF_OK;
}

extern "C" cf_status cf_scale_cuda(const cf_scale_plan *plan, const cf_frame *src, cf_frame *dst,
                                   cf_stream stream, cf_scratch *scratch)
{
    cudaStream_t s = (cudaStream_t)stream;
    const void *tables = NULL;
    CF_TRY(cf_scale_cuda_tables(plan, scratch, stream, &tables));
    for (int p = 0; p < plan->n_planes; p++) {
        const cf_scale_plane &pp = plan->planes[p];
        dim3 grid((unsigned)((pp.dw + kThreads - 1) / kThreads), grid_rows(pp.dh));
        auto kernel = plan->box[pp.klass] ? scale_plane<true> : scale_plane<false>;
        CF_TRY(CF_CUDA_CHECK(cf_launch(kernel, grid, dim3(kThreads), 0, s, *plan, p,
                                       tables, (const uint8_t *)src->data[p],
                                       src->pitch[p], dst->data[p], dst->pitch[p])));
    }
    return CF_OK;
}
