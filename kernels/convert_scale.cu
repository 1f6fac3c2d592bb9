/* CUDA convertscale: scale and convert in one pass (convert_scale.h). The
 * kernels are convert.cu's general ones, compiled over a scaled source:
 * RGB and gray outputs one thread per pixel, 4:2:0 outputs one thread per
 * chroma sample (its 2x2 luma block, then the sample). Each sample they
 * read is the scale's output there, computed from the source through the
 * plan's tables in the device scratch. Grids stride over rows so any
 * height fits the 65535 grid.y limit. */
#define CF_CONVERT_SCALED_SOURCE
#include <cuda_runtime.h>

#include "convert_scale.h"
#include "launch.cuh"

namespace {

constexpr int kThreads = 128;

unsigned grid_rows(int rows)
{
    return (unsigned)(rows < 65535 ? rows : 65535);
}

/* The plan stays in the parameter space (__grid_constant__): the source
 * reads it through a pointer, with no per-thread copy. */
__global__ void convert_scale_pixels(const __grid_constant__ cf_convert_scale_plan plan,
                                     cf_convert_planes in, cf_convert_planes out, int width,
                                     int height)
{
    cf_pdl_begin();
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width)
        return;
    in.scale = &plan.scale;
    int cw = (width + 1) / 2, ch = (height + 1) / 2;
    for (int y = blockIdx.y; y < height; y += gridDim.y)
        cf_cv_out_pixel(&plan.convert, &in, &out, x, y, cw, ch);
}

__global__ void convert_scale_yuv(const __grid_constant__ cf_convert_scale_plan plan,
                                  cf_convert_planes in, cf_convert_planes out, int width,
                                  int height)
{
    cf_pdl_begin();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int cw = (width + 1) / 2, ch = (height + 1) / 2;
    if (i >= cw)
        return;
    in.scale = &plan.scale;
    const cf_convert_layout &d = plan.convert.d;
    for (int j = blockIdx.y; j < ch; j += gridDim.y) {
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++) {
                int x = 2 * i + dx, y = 2 * j + dy;
                if (x < width && y < height)
                    cf_sample_store(out.data[0] + (size_t)y * out.pitch[0] +
                                        (size_t)x * d.sample_bytes,
                                    d.sample_bytes, d.shift,
                                    cf_cv_out_luma(&plan.convert, &in, x, y));
            }
        int u, v;
        cf_cv_out_chroma(&plan.convert, &in, i, j, width, height, &u, &v);
        cf_cv_store_chroma(&d, &out, i, j, u, v);
    }
}

} // namespace

extern "C" cf_status cf_convert_scale_cuda(const cf_convert_scale_plan *plan, const cf_frame *src,
                                           cf_frame *dst, cf_stream stream, cf_scratch *scratch)
{
    cudaStream_t s = (cudaStream_t)stream;
    const void *tables = NULL;
    CF_TRY(cf_scale_cuda_tables(&plan->scale, scratch, stream, &tables));
    cf_convert_planes in = cf_convert_planes_of(src), out = cf_convert_planes_of(dst);
    in.tables = tables;
    int w = dst->width, h = dst->height, cw = (w + 1) / 2, ch = (h + 1) / 2;
    dim3 block(kThreads);
    if (plan->convert.d.kind == CF_KIND_YUV) {
        dim3 grid((unsigned)((cw + kThreads - 1) / kThreads), grid_rows(ch));
        return CF_CUDA_CHECK(cf_launch(convert_scale_yuv, grid, block, 0, s, *plan, in, out, w, h));
    }
    dim3 grid((unsigned)((w + kThreads - 1) / kThreads), grid_rows(h));
    return CF_CUDA_CHECK(cf_launch(convert_scale_pixels, grid, block, 0, s, *plan, in, out, w, h));
}
