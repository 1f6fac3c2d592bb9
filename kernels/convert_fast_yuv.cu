/* CUDA convert, fast kernel: 3- and 4-byte RGB -> 8-bit 4:2:0 (NV12,
 * I420). Same integers as convert.h's cf_cv_out_luma and
 * cf_cv_out_chroma, in 32 bits (at 8 bits every sum is below 2^28): a
 * thread owns G columns (4 or 8) of one chroma row, that is G x 2 pixels,
 * reads them with word loads (16-byte words for 4-byte pixels where the
 * rows allow) plus the pixel left of them for the left-sited chroma
 * filter, and writes G luma bytes a row (8 at once at G = 8) and G / 2
 * chroma samples. Columns past the last whole group go through the
 * reference functions. The caller (convert_fast.cu) checks the alignment
 * the word accesses need. */
#include <cuda_runtime.h>

#include "convert.h"
#include "convert_fast_util.cuh"
#include "launch.cuh"

namespace {

/* Pixels k = -1 .. G - 1 of a group starting at column x0 of a row, in
 * px[k + 1], each a word with the input's component bytes at their layout
 * offsets; pixel -1 is column x0 - 1, or column 0 when x0 is 0 (the
 * reference's clamp). 4-byte pixels: 16-byte loads where the rows allow
 * (`wide`). */
template <int Bpp, int G>
__device__ __forceinline__ void yuv_load_group(const uint8_t *row, int x0, uint32_t px[G + 1],
                                           bool wide)
{
    if (Bpp == 4) {
        const uint32_t *w = reinterpret_cast<const uint32_t *>(row) + x0;
#pragma unroll
        for (int k = 0; k < G; k += 4) {
            if (wide) {
                uint4 q = *reinterpret_cast<const uint4 *>(w + k);
                px[k + 1] = q.x, px[k + 2] = q.y, px[k + 3] = q.z, px[k + 4] = q.w;
            } else {
                px[k + 1] = w[k], px[k + 2] = w[k + 1], px[k + 3] = w[k + 2], px[k + 4] = w[k + 3];
            }
        }
        px[0] = x0 > 0 ? w[-1] : px[1];
    } else {
        const uint32_t *w = reinterpret_cast<const uint32_t *>(row + 3 * (size_t)x0);
#pragma unroll
        for (int k = 0; k < G; k += 4) {
            uint32_t w0 = w[3 * k / 4], w1 = w[3 * k / 4 + 1], w2 = w[3 * k / 4 + 2];
            px[k + 1] = w0 & 0xffffff;
            px[k + 2] = (w0 >> 24 | w1 << 8) & 0xffffff;
            px[k + 3] = (w1 >> 16 | w2 << 16) & 0xffffff;
            px[k + 4] = w2 >> 8;
        }
        px[0] = x0 > 0 ? w[-1] >> 8 : px[1];
    }
}

/* Mode 0: left linear, 1: centre linear, 2: nearest (convert.h,
 * cf_cv_out_chroma). */
template <int Bpp, bool Semi, int Mode, int G>
__global__ void convert_rgb_to_yuv420(cf_convert_plan plan, cf_convert_planes in,
                                      cf_convert_planes out, int width, int height)
{
    cf_pdl_begin();
    constexpr int S = G / 2;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int x0 = G * g;
    if (x0 >= width)
        return;
    int cw = (width + 1) / 2, ch = (height + 1) / 2;
    const cf_convert_layout &s = plan.s;
    const int sr = 8 * s.r, sg = 8 * s.g, sb = 8 * s.b;
    bool wide = (((uintptr_t)in.data[0] | in.pitch[0]) & 15) == 0;
    for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < ch; j += gridDim.y * blockDim.y) {
        if (x0 + G > width) { /* the last columns through the reference */
            for (int y = 2 * j; y < 2 * j + 2 && y < height; y++)
                for (int x = x0; x < width; x++)
                    out.data[0][(size_t)y * out.pitch[0] + x] =
                        (uint8_t)cf_cv_out_luma(&plan, &in, x, y);
            for (int i = S * g; i < S * g + S && i < cw; i++) {
                int u, v;
                cf_cv_out_chroma(&plan, &in, i, j, width, height, &u, &v);
                cf_cv_store_chroma(&plan.d, &out, i, j, u, v);
            }
            continue;
        }
        /* both rows' loads first (the last row repeats when height is odd) */
        uint32_t px[2][G + 1];
#pragma unroll
        for (int dy = 0; dy < 2; dy++) {
            int y = 2 * j + dy < height ? 2 * j + dy : height - 1;
            yuv_load_group<Bpp, G>(in.data[0] + (size_t)y * in.pitch[0], x0, px[dy], wide);
        }
        int su[S], sv[S];
#pragma unroll
        for (int c = 0; c < S; c++)
            su[c] = sv[c] = 0;
#pragma unroll
        for (int dy = 0; dy < 2; dy++) {
            int y = 2 * j + dy;
            int r[G + 1], gg[G + 1], b[G + 1];
#pragma unroll
            for (int k = 0; k < G + 1; k++)
                r[k] = px[dy][k] >> sr & 255, gg[k] = px[dy][k] >> sg & 255,
                b[k] = px[dy][k] >> sb & 255;
            if (y < height) {
                uint32_t yw[G / 4] = {};
#pragma unroll
                for (int k = 0; k < G; k++) {
                    int l = cf_cv_fast_round(plan.yr * r[k + 1] + plan.yg * gg[k + 1] +
                                                 plan.yb * b[k + 1] +
                                                 (plan.y_lo << CF_CONVERT_SHIFT),
                                             CF_CONVERT_SHIFT);
                    yw[k / 4] |= (uint32_t)l << (8 * (k & 3));
                }
                uint8_t *q = out.data[0] + (size_t)y * out.pitch[0] + x0;
                if (G == 8)
                    *reinterpret_cast<uint2 *>(q) = make_uint2(yw[0], yw[(G / 4) - 1]);
                else
                    *reinterpret_cast<uint32_t *>(q) = yw[0];
            }
            if (Mode == 2 && dy == 1)
                continue;
#pragma unroll
            for (int c = 0; c < S; c++) {
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
        int u[S], v[S];
#pragma unroll
        for (int c = 0; c < S; c++) {
            u[c] = cf_cv_fast_round(su[c] + (plan.c_mid << n), n);
            v[c] = cf_cv_fast_round(sv[c] + (plan.c_mid << n), n);
        }
        if (Semi) {
            uint32_t w[S / 2];
#pragma unroll
            for (int c = 0; c < S; c += 2)
                w[c / 2] = (uint32_t)u[c] | (uint32_t)v[c] << 8 | (uint32_t)u[c + 1] << 16 |
                           (uint32_t)v[c + 1] << 24;
            uint8_t *q = out.data[1] + (size_t)j * out.pitch[1] + 2 * (size_t)(S * g);
            if (S == 4)
                *reinterpret_cast<uint2 *>(q) = make_uint2(w[0], w[(S / 2) - 1]);
            else
                *reinterpret_cast<uint32_t *>(q) = w[0];
        } else {
            uint32_t wu = 0, wv = 0;
#pragma unroll
            for (int c = 0; c < S; c++)
                wu |= (uint32_t)u[c] << (8 * c), wv |= (uint32_t)v[c] << (8 * c);
            uint8_t *qu = out.data[1] + (size_t)j * out.pitch[1] + (size_t)(S * g);
            uint8_t *qv = out.data[2] + (size_t)j * out.pitch[2] + (size_t)(S * g);
            if (S == 4) {
                *reinterpret_cast<uint32_t *>(qu) = wu;
                *reinterpret_cast<uint32_t *>(qv) = wv;
            } else {
                *reinterpret_cast<uint16_t *>(qu) = (uint16_t)wu;
                *reinterpret_cast<uint16_t *>(qv) = (uint16_t)wv;
            }
        }
    }
}

template <int Bpp, bool Semi, int G>
auto pick_yuv(const cf_convert_plan &plan)
{
    return plan.filter == CF_CHROMA_NEAREST ? convert_rgb_to_yuv420<Bpp, Semi, 2, G>
           : plan.site == CF_SITE_CENTER    ? convert_rgb_to_yuv420<Bpp, Semi, 1, G>
                                            : convert_rgb_to_yuv420<Bpp, Semi, 0, G>;
}

template <int G>
cf_status launch_yuv(const cf_convert_plan &plan, const cf_convert_planes &in,
                 const cf_convert_planes &out, int w, int h, cudaStream_t s)
{
    bool semi = plan.d.semi_planar;
    auto kernel = plan.s.bpp == 4 ? (semi ? pick_yuv<4, true, G>(plan) : pick_yuv<4, false, G>(plan))
                                  : (semi ? pick_yuv<3, true, G>(plan) : pick_yuv<3, false, G>(plan));
    int groups = (w + G - 1) / G, ch = (h + 1) / 2;
    int gy = (ch + kCvFastBlockY - 1) / kCvFastBlockY;
    dim3 grid((unsigned)((groups + kCvFastBlockX - 1) / kCvFastBlockX),
              (unsigned)(gy < 65535 ? gy : 65535));
    return CF_CUDA_CHECK(cf_launch(kernel, grid, dim3(kCvFastBlockX, kCvFastBlockY), 0, s, plan,
                                   in, out, w, h));
}

} // namespace

cf_status cf_convert_fast_to_yuv(const cf_convert_plan &plan, const cf_convert_planes &in,
                                 const cf_convert_planes &out, int w, int h, int cols,
                                 cudaStream_t s)
{
    return cols == 8 ? launch_yuv<8>(plan, in, out, w, h, s) : launch_yuv<4>(plan, in, out, w, h, s);
}
