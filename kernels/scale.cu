/* CUDA scale: the same arithmetic as scale_cpu.c through scale.h: 8-bit
 * planes on 4-byte aligned rows through the fast kernels of scale_fast.cu
 * (all of a frame's planes in one launch where it can), the others
 * through the generic kernel here, a launch a plane, one thread per
 * output pixel (all its samples). The
 * plan's tables live in the instance's device scratch, uploaded when the
 * plan changes (the scratch's tag is the plan's id), so a steady stream of
 * frames copies nothing but the pixels. Grids stride over rows so any
 * height fits the 65535 grid.y limit. */
#include <cuda_runtime.h>

#include <atomic>

#include "launch.cuh"
#include "scale.h"
#include "scale_fast.cuh"

namespace {

constexpr int kThreads = 128;

std::atomic<bool> g_force_generic{ false };
thread_local const char *t_last = "";

bool aligned4(const void *p, size_t pitch)
{
    return ((uintptr_t)p | pitch) % 4 == 0;
}

/* Plane p's launch for the fast kernels, tables at t on the device. */
cf_scale_fast_args fast_args(const cf_scale_plan *plan, int p, const uint8_t *t,
                             const cf_frame *src, cf_frame *dst)
{
    const cf_scale_plane &pp = plan->planes[p];
    int k = pp.klass;
    const cf_scale_axis &ax = plan->x[k], &ay = plan->y[k];
    cf_scale_fast_args a = {};
    a.xi = (const int32_t *)(t + ax.index_offset);
    a.xw = (const int16_t *)(t + ax.weight_offset);
    a.yi = (const int32_t *)(t + ay.index_offset);
    a.yw = (const int16_t *)(t + ay.weight_offset);
    a.tx = ax.taps, a.ty = ay.taps, a.kx = plan->kx[k], a.ky = plan->ky[k];
    a.src = src->data[p];
    if (plan->box[k])
        a.src += (size_t)plan->y0[k] * src->pitch[p] + (size_t)plan->x0[k] * pp.cn;
    a.src_pitch = src->pitch[p];
    a.dst = dst->data[p], a.dst_pitch = dst->pitch[p];
    a.dw = pp.dw, a.dh = pp.dh;
    a.plane = p;
    return a;
}

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
    const uint8_t *t = (const uint8_t *)tables;
    bool generic = g_force_generic.load(std::memory_order_relaxed);
    /* The planes the fast kernels take go in one launch (scale_fast.cu
     * fuses what it can), the others through the generic kernel. */
    cf_scale_fast_args fast[CF_MAX_PLANES];
    int n_fast = 0;
    const char *last = "generic";
    for (int p = 0; p < plan->n_planes; p++) {
        if (!generic && p < 3 && aligned4(src->data[p], src->pitch[p]) &&
            aligned4(dst->data[p], dst->pitch[p]) && cf_scale_fast_takes(plan, p)) {
            fast[n_fast++] = fast_args(plan, p, t, src, dst);
            continue;
        }
        const cf_scale_plane &pp = plan->planes[p];
        dim3 grid((unsigned)((pp.dw + kThreads - 1) / kThreads), grid_rows(pp.dh));
        auto kernel = plan->box[pp.klass] ? scale_plane<true> : scale_plane<false>;
        CF_TRY(CF_CUDA_CHECK(cf_launch(kernel, grid, dim3(kThreads), 0, s, *plan, p,
                                       tables, (const uint8_t *)src->data[p],
                                       src->pitch[p], dst->data[p], dst->pitch[p])));
    }
    if (n_fast)
        CF_TRY(cf_scale_fast_run(plan, fast, n_fast, s, &last));
    t_last = last;
    return CF_OK;
}

extern "C" void cf_scale_cuda_force_generic(bool generic)
{
    g_force_generic.store(generic, std::memory_order_relaxed);
}

extern "C" const char *cf_scale_cuda_last_kernel(void)
{
    return t_last;
}
