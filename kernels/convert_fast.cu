/* CUDA convert, the fast kernels' dispatch: 8-bit 4:2:0 (NV12, I420) to
 * and from 3- and 4-byte RGB go to convert_fast_rgb.cu and
 * convert_fast_yuv.cu, in the widest shape (columns and rows a thread)
 * the planes' alignment allows, unless a test forces a shape
 * (cf_convert_cuda_force_shape). */
#include <cuda_runtime.h>

#include <atomic>

#include "convert.h"
#include "convert_fast.cuh"
#include "convert_fast_util.cuh"

namespace {

/* Forced shape, columns << 8 | rows; 0: the dispatch's choice. */
std::atomic<int> g_force_shape{ 0 };

bool aligned(const void *p, size_t pitch, size_t n)
{
    return ((uintptr_t)p | pitch) % n == 0;
}

bool is_yuv420_8(const cf_convert_layout &l)
{
    return l.kind == CF_KIND_YUV && l.sample_bytes == 1;
}

bool is_rgb34(const cf_convert_layout &l)
{
    return l.kind == CF_KIND_RGB && (l.bpp == 3 || l.bpp == 4);
}

/* The 4:2:0 planes' alignment for `cols` columns a thread: luma words of
 * `cols` bytes, NV12 chroma words of `cols` bytes, I420 chroma words of
 * cols / 2. (The RGB side needs 4 bytes; 4-byte pixels go 16 bytes at a
 * time where those rows are on 16, as cudaMallocPitch's are, a run-time
 * test in the kernels: GStreamer's RGBA rows of 1366 pixels are on 8.) */
bool yuv_aligned(const cf_convert_layout &l, const cf_convert_planes &p, int cols)
{
    if (!aligned(p.data[0], p.pitch[0], (size_t)cols))
        return false;
    if (l.semi_planar)
        return aligned(p.data[1], p.pitch[1], (size_t)cols);
    return aligned(p.data[1], p.pitch[1], (size_t)cols / 2) &&
           aligned(p.data[2], p.pitch[2], (size_t)cols / 2);
}

struct Shape {
    int cols, rows;
    const char *name;
};

/* The shape for plan on these planes; cols 0 when no fast kernel takes
 * them. Default: 8 columns where the 4:2:0 planes are on 8 bytes, and for
 * 4:2:0 -> RGB with linear chroma 2 chroma rows a thread. */
Shape shape_of(const cf_convert_plan *plan, const cf_convert_planes *in,
               const cf_convert_planes *out)
{
    bool to_rgb = is_yuv420_8(plan->s) && is_rgb34(plan->d);
    bool to_yuv = is_rgb34(plan->s) && is_yuv420_8(plan->d);
    if (!to_rgb && !to_yuv)
        return { 0, 0, NULL };
    const cf_convert_layout &yl = to_rgb ? plan->s : plan->d;
    const cf_convert_planes &yp = to_rgb ? *in : *out, &rp = to_rgb ? *out : *in;
    if (!aligned(rp.data[0], rp.pitch[0], 4) || !yuv_aligned(yl, yp, 4))
        return { 0, 0, NULL };
    int forced = g_force_shape.load(std::memory_order_relaxed);
    int cols = forced ? forced >> 8 : 8, rows = forced ? forced & 255 : 2;
    if (cols != 8 || !yuv_aligned(yl, yp, 8))
        cols = 4;
    if (!to_rgb || plan->filter == CF_CHROMA_NEAREST || rows != 2)
        rows = 1;
    static const char *const names[2][2][2] = {
        { { "rgb_to_yuv420_c4", "rgb_to_yuv420_c4" }, { "rgb_to_yuv420_c8", "rgb_to_yuv420_c8" } },
        { { "yuv420_to_rgb_c4r1", "yuv420_to_rgb_c4r2" },
          { "yuv420_to_rgb_c8r1", "yuv420_to_rgb_c8r2" } }
    };
    return { cols, rows, names[to_rgb][cols == 8][rows == 2] };
}

} // namespace

const char *cf_convert_fast_takes(const cf_convert_plan *plan, const cf_convert_planes *in,
                                  const cf_convert_planes *out)
{
    return shape_of(plan, in, out).name;
}

cf_status cf_convert_fast_run(const cf_convert_plan *plan, const cf_convert_planes *in,
                              const cf_convert_planes *out, int w, int h, cudaStream_t s)
{
    Shape sh = shape_of(plan, in, out);
    if (plan->s.kind == CF_KIND_YUV)
        return cf_convert_fast_to_rgb(*plan, *in, *out, w, h, sh.cols, sh.rows, s);
    return cf_convert_fast_to_yuv(*plan, *in, *out, w, h, sh.cols, s);
}

extern "C" void cf_convert_cuda_force_shape(int columns, int rows)
{
    g_force_shape.store(columns > 0 ? columns << 8 | (rows & 255) : 0, std::memory_order_relaxed);
}
