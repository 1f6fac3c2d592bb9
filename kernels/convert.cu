/* CUDA convert: the same arithmetic as convert_cpu.c through convert.h.
 * The dispatch below runs a fast kernel of convert_fast.cu where one takes
 * the shape (8-bit 4:2:0 to or from 3- and 4-byte RGB), else one of three
 * generic kernels: 4:2:0 outputs one thread per chroma sample (its 2x2 luma
 * block and the sample itself); 4-byte RGB outputs one thread per 2x2
 * pixel block, each pixel packed into one 32-bit word and a row's two
 * pixels stored as one 8-byte word (8-byte aligned rows; else one word a
 * pixel); everything else one thread per pixel. Grids stride over rows so
 * any height fits the 65535 grid.y limit. */
#include <cuda_runtime.h>

#include <atomic>

#include "convert.h"
#include "convert_fast.cuh"
#include "launch.cuh"

namespace {

constexpr int kThreads = 128;

std::atomic<bool> g_force_generic{ false };
thread_local const char *t_last = "";

/* Records the kernel a successful launch ran (cf_convert_cuda_last_kernel). */
cf_status ran(cf_status st, const char *name)
{
    if (st == CF_OK)
        t_last = name;
    return st;
}

unsigned grid_rows(int rows)
{
    return (unsigned)(rows < 65535 ? rows : 65535);
}

__global__ void convert_pixels(cf_convert_plan plan, cf_convert_planes in, cf_convert_planes out,
                               int width, int height)
{
    cf_pdl_begin();
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width)
        return;
    int cw = (width + 1) / 2, ch = (height + 1) / 2;
    for (int y = blockIdx.y; y < height; y += gridDim.y)
        cf_cv_out_pixel(&plan, &in, &out, x, y, cw, ch);
}

/* The 32-bit word of an output pixel of 4 bytes. */
__device__ __forceinline__ uint32_t pack_rgb4(const cf_convert_plan &pl, int r, int g, int b,
                                              int a)
{
    const cf_convert_layout &l = pl.d;
    int pad = l.a >= 0 ? l.a : 6 - l.r - l.g - l.b;
    uint32_t av = (uint32_t)(pl.alpha >= 0 ? pl.alpha : a);
    return (uint32_t)r << (8 * l.r) | (uint32_t)g << (8 * l.g) | (uint32_t)b << (8 * l.b) |
           av << (8 * pad);
}

template <bool Pair>
__global__ void convert_rgb4_blocks(cf_convert_plan plan, cf_convert_planes in,
                                    cf_convert_planes out, int width, int height)
{
    cf_pdl_begin();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int cw = (width + 1) / 2, ch = (height + 1) / 2;
    if (i >= cw)
        return;
    int x = 2 * i;
    for (int j = blockIdx.y; j < ch; j += gridDim.y) {
        for (int dy = 0; dy < 2; dy++) {
            int y = 2 * j + dy;
            if (y >= height)
                break;
            uint32_t w[2];
            for (int dx = 0; dx < 2; dx++) {
                int r, g, b, a;
                cf_cv_pixel_rgb(&plan, &in, x + dx < width ? x + dx : x, y, cw, ch, &r, &g, &b, &a);
                w[dx] = pack_rgb4(plan, r, g, b, a);
            }
            uint32_t *row = reinterpret_cast<uint32_t *>(out.data[0] + (size_t)y * out.pitch[0]);
            if (Pair && x + 1 < width) {
                reinterpret_cast<uint2 *>(row)[i] = make_uint2(w[0], w[1]);
            } else {
                row[x] = w[0];
                if (x + 1 < width)
                    row[x + 1] = w[1];
            }
        }
    }
}

__global__ void convert_yuv_blocks(cf_convert_plan plan, cf_convert_planes in,
                                   cf_convert_planes out, int width, int height)
{
    cf_pdl_begin();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int cw = (width + 1) / 2, ch = (height + 1) / 2;
    if (i >= cw)
        return;
    const cf_convert_layout &d = plan.d;
    for (int j = blockIdx.y; j < ch; j += gridDim.y) {
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++) {
                int x = 2 * i + dx, y = 2 * j + dy;
                if (x < width && y < height)
                    cf_sample_store(out.data[0] + (size_t)y * out.pitch[0] + (size_t)x * d.sample_bytes,
                                d.sample_bytes, d.shift, cf_cv_out_luma(&plan, &in, x, y));
            }
        int u, v;
        cf_cv_out_chroma(&plan, &in, i, j, width, height, &u, &v);
        cf_cv_store_chroma(&d, &out, i, j, u, v);
    }
}

bool aligned(const void *p, size_t pitch, size_t n)
{
    return ((uintptr_t)p | pitch) % n == 0;
}

} // namespace

extern "C" void cf_convert_cuda_force_generic(bool generic)
{
    g_force_generic.store(generic, std::memory_order_relaxed);
}

extern "C" const char *cf_convert_cuda_last_kernel(void)
{
    return t_last;
}

extern "C" cf_status cf_convert_cuda(const cf_convert_plan *plan, const cf_frame *src,
                                     cf_frame *dst, cf_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    cf_convert_planes in = cf_convert_planes_of(src), out = cf_convert_planes_of(dst);
    int w = src->width, h = src->height, cw = (w + 1) / 2, ch = (h + 1) / 2;
    if (!g_force_generic.load(std::memory_order_relaxed)) {
        const char *fast = cf_convert_fast_takes(plan, &in, &out);
        if (fast)
            return ran(cf_convert_fast_run(plan, &in, &out, w, h, s), fast);
    }
    dim3 block(kThreads);
    dim3 blocks_grid((unsigned)((cw + kThreads - 1) / kThreads), grid_rows(ch));
    if (plan->d.kind == CF_KIND_YUV)
        return ran(CF_CUDA_CHECK(cf_launch(convert_yuv_blocks, blocks_grid, block, 0, s, *plan,
                                           in, out, w, h)),
                   "yuv_blocks");
    if (plan->d.kind == CF_KIND_RGB && plan->d.bpp == 4 && aligned(dst->data[0], dst->pitch[0], 4)) {
        auto kernel = aligned(dst->data[0], dst->pitch[0], 8) ? convert_rgb4_blocks<true>
                                                              : convert_rgb4_blocks<false>;
        return ran(CF_CUDA_CHECK(cf_launch(kernel, blocks_grid, block, 0, s, *plan, in, out, w, h)),
                   "rgb4_blocks");
    }
    dim3 grid((unsigned)((w + kThreads - 1) / kThreads), grid_rows(h));
    return ran(CF_CUDA_CHECK(cf_launch(convert_pixels, grid, block, 0, s, *plan, in, out, w, h)),
               "pixels");
}
