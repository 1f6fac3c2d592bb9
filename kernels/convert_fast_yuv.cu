/* CUDA convert, fast kernel: 3- and 4-byte RGB -> 8-bit 4:2:0 (NV12,
 * I420). Same integers as convert.h's cf_cv_out_luma and
 * cf_cv_out_chroma, in 32 bits (at 8 bits every sum is below 2^28): a
 * thread owns H groups (1 or 2) of 4 columns, a warp's width apart, of
 * one chroma row, that is 4 x 2 pixels a group, reads them with word
 * loads (a 16-byte word for 4-byte pixels where the rows allow) plus the
 * pixel left of them for the left-sited chroma filter, and writes a luma
 * word a row and two chroma samples a group. Columns past the last whole
 * group go through the reference functions. The caller (convert_fast.cu)
 * checks the alignment the word accesses need. */
#include <cuda_runtime.h>

#include "convert.h"
#include "convert_fast_util.cuh"
#include "launch.cuh"

namespace {

/* Pixels k = -1 .. 3 of a group of 4 starting at column x0 of a row, in
 * px[k + 1], each a word with the input's component bytes at their layout
 * offsets; pixel -1 is column x0 - 1, or column 0 when x0 is 0 (the
 * reference's clamp). 4-byte pixels: one 16-byte load where the rows
 * allow (`wide`). */
template <int Bpp>
__device__ __forceinline__ void yuv_load_group(const uint8_t *row, int x0, uint32_t px[5],
                                               bool wide)
{
    if (Bpp == 4) {
        const uint32_t *w = reinterpret_cast<const uint32_t *>(row) + x0;
        if (wide) {
            uint4 q = *reinterpret_cast<const uint4 *>(w);
            px[1] = q.x, px[2] = q.y, px[3] = q.z, px[4] = q.w;
        } else {
            px[1] = w[0], px[2] = w[1], px[3] = w[2], px[4] = w[3];
        }
        px[0] = x0 > 0 ? w[-1] : px[1];
    } else {
        const uint32_t *w = reinterpret_cast<const uint32_t *>(row + 3 * (size_t)x0);
        uint32_t w0 = w[0], w1 = w[1], w2 = w[2];
        px[1] = w0 & 0xffffff;
        px[2] = (w0 >> 24 | w1 << 8) & 0xffffff;
        px[3] = (w1 >> 16 | w2 << 16) & 0xffffff;
        px[4] = w2 >> 8;
        px[0] = x0 > 0 ? w[-1] >> 8 : px[1];
    }
}

/* Mode 0: left linear, 1: centre linear, 2: nearest (convert.h,
 * cf_cv_out_chroma). A warp (blockDim.x is 32) takes 32 H groups of 4
 * columns of a chroma row: lane t groups t, t + 32, ..., so that each
 * load and store instruction of the warp covers contiguous bytes. */
template <int Bpp, bool Semi, int Mode, int H>
__global__ void convert_rgb_to_yuv420(cf_convert_plan plan, cf_convert_planes in,
                                      cf_convert_planes out, int width, int height)
{
    cf_pdl_begin();
    const int g0 = blockIdx.x * (32 * H) + threadIdx.x;
    if (4 * g0 >= width)
        return;
    int cw = (width + 1) / 2, ch = (height + 1) / 2;
    const cf_convert_layout &s = plan.s;
    const int sr = 8 * s.r, sg = 8 * s.g, sb = 8 * s.b;
    bool wide = (((uintptr_t)in.data[0] | in.pitch[0]) & 15) == 0;
    for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < ch; j += gridDim.y * blockDim.y) {
        /* every group's rows first (the last row repeats when height is odd) */
        uint32_t px[H][2][5] = {};
#pragma unroll
        for (int h = 0; h < H; h++) {
            int x0 = 4 * (g0 + 32 * h);
            if (x0 + 4 > width)
                continue;
#pragma unroll
            for (int dy = 0; dy < 2; dy++) {
                int y = 2 * j + dy < height ? 2 * j + dy : height - 1;
                yuv_load_group<Bpp>(in.data[0] + (size_t)y * in.pitch[0], x0, px[h][dy], wide);
            }
        }
#pragma unroll
        for (int h = 0; h < H; h++) {
            int g = g0 + 32 * h, x0 = 4 * g;
            if (x0 >= width)
                break;
            if (x0 + 4 > width) { /* the last columns through the reference */
                for (int y = 2 * j; y < 2 * j + 2 && y < height; y++)
                    for (int x = x0; x < width; x++)
                        out.data[0][(size_t)y * out.pitch[0] + x] =
                            (uint8_t)cf_cv_out_luma(&plan, &in, x, y);
                for (int i = 2 * g; i < 2 * g + 2 && i < cw; i++) {
                    int u, v;
                    cf_cv_out_chroma(&plan, &in, i, j, width, height, &u, &v);
                    cf_cv_store_chroma(&plan.d, &out, i, j, u, v);
                }
                continue;
            }
            int su[2] = { 0, 0 }, sv[2] = { 0, 0 };
#pragma unroll
            for (int dy = 0; dy < 2; dy++) {
                int y = 2 * j + dy;
                int r[5], gg[5], b[5];
#pragma unroll
                for (int k = 0; k < 5; k++)
                    r[k] = px[h][dy][k] >> sr & 255, gg[k] = px[h][dy][k] >> sg & 255,
                    b[k] = px[h][dy][k] >> sb & 255;
                if (y < height) {
                    const int lbase = (plan.y_lo << CF_CONVERT_SHIFT) + (1 << (CF_CONVERT_SHIFT - 1));
                    uint32_t yw = 0;
#pragma unroll
                    for (int k = 0; k < 4; k++) {
                        int l = cf_cv_fast_clamp(
                            (plan.yr * r[k + 1] + plan.yg * gg[k + 1] + plan.yb * b[k + 1] + lbase) >>
                            CF_CONVERT_SHIFT);
                        yw |= (uint32_t)l << (8 * k);
                    }
                    *reinterpret_cast<uint32_t *>(out.data[0] + (size_t)y * out.pitch[0] + x0) = yw;
                }
                if (Mode == 2 && dy == 1)
                    continue;
#pragma unroll
                for (int c = 0; c < 2; c++) {
                    int m = 1 + 2 * c; /* pixel 2i of the group */
                    int wr, wg, wb;
                    if (Mode == 0) {
                        wr = r[m - 1] + 2 * r[m] + r[m + 1];
                        wg = gg[m - 1] + 2 * gg[m] + gg[m + 1];
                        wb = b[m - 1] + 2 * b[m] + b[m + 1];
                    } else if (Mode == 1) {
                        wr = r[m] + r[m + 1], wg = gg[m] + gg[m + 1], wb = b[m] + b[m + 1];
                    } else {
                        wr = r[m], wg = gg[m], wb = b[m];
                    }
                    su[c] += plan.ur * wr + plan.ug * wg + plan.ub * wb;
                    sv[c] += plan.vr * wr + plan.vg * wg + plan.vb * wb;
                }
            }
            const int n = CF_CONVERT_SHIFT + (Mode == 0 ? 3 : Mode == 1 ? 2 : 0);
            const int cbase = (plan.c_mid << n) + (1 << (n - 1));
            int u[2], v[2];
#pragma unroll
            for (int c = 0; c < 2; c++) {
                u[c] = cf_cv_fast_clamp((su[c] + cbase) >> n);
                v[c] = cf_cv_fast_clamp((sv[c] + cbase) >> n);
            }
            if (Semi) {
                *reinterpret_cast<uint32_t *>(out.data[1] + (size_t)j * out.pitch[1] + 4 * (size_t)g) =
                    (uint32_t)u[0] | (uint32_t)v[0] << 8 | (uint32_t)u[1] << 16 | (uint32_t)v[1] << 24;
            } else {
                *reinterpret_cast<uint16_t *>(out.data[1] + (size_t)j * out.pitch[1] + 2 * (size_t)g) =
                    (uint16_t)(u[0] | u[1] << 8);
                *reinterpret_cast<uint16_t *>(out.data[2] + (size_t)j * out.pitch[2] + 2 * (size_t)g) =
                    (uint16_t)(v[0] | v[1] << 8);
            }
        }
    }
}

template <int Bpp, bool Semi, int H>
auto pick_yuv(const cf_convert_plan &plan)
{
    return plan.filter == CF_CHROMA_NEAREST ? convert_rgb_to_yuv420<Bpp, Semi, 2, H>
           : plan.site == CF_SITE_CENTER    ? convert_rgb_to_yuv420<Bpp, Semi, 1, H>
                                            : convert_rgb_to_yuv420<Bpp, Semi, 0, H>;
}

template <int H>
cf_status launch_yuv(const cf_convert_plan &plan, const cf_convert_planes &in,
                     const cf_convert_planes &out, int w, int h, cudaStream_t s)
{
    bool semi = plan.d.semi_planar;
    auto kernel = plan.s.bpp == 4 ? (semi ? pick_yuv<4, true, H>(plan) : pick_yuv<4, false, H>(plan))
                                  : (semi ? pick_yuv<3, true, H>(plan) : pick_yuv<3, false, H>(plan));
    int groups = (w + 3) / 4, ch = (h + 1) / 2;
    int gy = (ch + kCvFastBlockY - 1) / kCvFastBlockY;
    dim3 grid((unsigned)((groups + 32 * H - 1) / (32 * H)), (unsigned)(gy < 65535 ? gy : 65535));
    return CF_CUDA_CHECK(cf_launch(kernel, grid, dim3(32, kCvFastBlockY), 0, s, plan, in, out, w,
                                   h));
}

} // namespace

cf_status cf_convert_fast_to_yuv(const cf_convert_plan &plan, const cf_convert_planes &in,
                                 const cf_convert_planes &out, int w, int h, int cols,
                                 cudaStream_t s)
{
    return cols == 8 ? launch_yuv<2>(plan, in, out, w, h, s) : launch_yuv<1>(plan, in, out, w, h, s);
}
