/* CUDA convert, fast kernel: 8-bit 4:2:0 (NV12, I420) -> 3- and 4-byte
 * RGB. Same integers as convert.h's reference functions, reorganised:
 *  - a thread owns G columns (4 or 8) of 2R pixel rows (R chroma rows, 1
 *    or 2), reads luma and chroma with word loads (8 bytes at G = 8) and
 *    writes 16-byte words where the rows allow; R = 2 reads 4 chroma rows
 *    for 4 pixel rows where R = 1 reads 3 for 2;
 *  - the chroma filter is separable (weights (4 - f) and f per axis,
 *    cf_cv_rgb_chroma_at), so each chroma column is blended vertically once
 *    and shared by the pixels that use it; integer sums are exact, so the
 *    order does not change the result;
 *  - 32-bit arithmetic where the reference uses 64 bits: at 8 bits every
 *    intermediate is below 2^28 (coefficients below 2^16 times chroma
 *    sums below 2^12, luma term below 2^27), so both give the same
 *    integers.
 * Columns past the last whole group of G go through the reference
 * functions one pixel at a time. The caller (convert_fast.cu) checks the
 * alignment the word accesses need. */
#include <cuda_runtime.h>

#include "convert.h"
#include "convert_fast_util.cuh"
#include "launch.cuh"

namespace {

/* U, V of chroma sample i (already in range) of chroma row `row`. */
template <bool Semi>
__device__ __forceinline__ void rgb_chroma_at(const cf_convert_planes &p, int row, int i, int &u,
                                          int &v)
{
    if (Semi) { /* one half-word: 2-byte aligned as every sample pair */
        uint32_t q = *reinterpret_cast<const uint16_t *>(p.data[1] + (size_t)row * p.pitch[1] +
                                                         2 * (size_t)i);
        u = q & 255, v = q >> 8;
    } else {
        u = p.data[1][(size_t)row * p.pitch[1] + i];
        v = p.data[2][(size_t)row * p.pitch[2] + i];
    }
}

/* Chroma samples c0 - 1 .. c0 + S (clamped to [0, cw - 1]) of one row in
 * u[0 .. S + 1], v[...], S = 2 or 4, c0 a multiple of S, c0 + S <= cw.
 * S = 4 needs NV12 chroma rows on 8 bytes, I420's on 4. */
template <bool Semi, int S>
__device__ __forceinline__ void chroma_row(const cf_convert_planes &p, int row, int c0, int cw,
                                           int u[S + 2], int v[S + 2])
{
    const uint8_t *q = p.data[1] + (size_t)row * p.pitch[1];
    if (Semi) {
        uint32_t m[S / 2];
        if (S == 4) {
            uint2 w = *reinterpret_cast<const uint2 *>(q + 2 * (size_t)c0);
            m[0] = w.x, m[(S / 2) - 1] = w.y;
        } else {
            m[0] = *reinterpret_cast<const uint32_t *>(q + 2 * (size_t)c0);
        }
#pragma unroll
        for (int k = 0; k < S; k++) {
            uint32_t pair = m[k / 2] >> (16 * (k & 1));
            u[1 + k] = pair & 255, v[1 + k] = pair >> 8 & 255;
        }
    } else {
        const uint8_t *qv = p.data[2] + (size_t)row * p.pitch[2];
        uint32_t mu, mv;
        if (S == 4) {
            mu = *reinterpret_cast<const uint32_t *>(q + c0);
            mv = *reinterpret_cast<const uint32_t *>(qv + c0);
        } else {
            mu = *reinterpret_cast<const uint16_t *>(q + c0);
            mv = *reinterpret_cast<const uint16_t *>(qv + c0);
        }
#pragma unroll
        for (int k = 0; k < S; k++)
            u[1 + k] = mu >> (8 * k) & 255, v[1 + k] = mv >> (8 * k) & 255;
    }
    rgb_chroma_at<Semi>(p, row, c0 > 0 ? c0 - 1 : 0, u[0], v[0]);
    rgb_chroma_at<Semi>(p, row, c0 + S < cw ? c0 + S : cw - 1, u[S + 1], v[S + 1]);
}

/* Packs 4 pixels' R, G, B into the output's bytes: Bpp 4, one word each
 * (offsets from the layout, alpha or padding filled), stored as one
 * 16-byte word where the rows allow (`wide`); Bpp 3, 12 bytes in 3 words
 * (Bgr: B first). */
template <int Bpp, bool Bgr>
__device__ __forceinline__ void store_rgb4(const cf_convert_plan &pl, uint8_t *q, const int r[4],
                                           const int g[4], const int b[4], bool wide)
{
    if (Bpp == 4) {
        const cf_convert_layout &l = pl.d;
        int pad = l.a >= 0 ? l.a : 6 - l.r - l.g - l.b;
        uint32_t a = (uint32_t)(pl.alpha >= 0 ? pl.alpha : 255) << (8 * pad);
        uint32_t w[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
            w[k] = (uint32_t)r[k] << (8 * l.r) | (uint32_t)g[k] << (8 * l.g) |
                   (uint32_t)b[k] << (8 * l.b) | a;
        if (wide) {
            *reinterpret_cast<uint4 *>(q) = make_uint4(w[0], w[1], w[2], w[3]);
        } else {
            uint32_t *o = reinterpret_cast<uint32_t *>(q);
            o[0] = w[0], o[1] = w[1], o[2] = w[2], o[3] = w[3];
        }
    } else {
        uint32_t px[4];
#pragma unroll
        for (int k = 0; k < 4; k++)
            px[k] = Bgr ? (uint32_t)b[k] | (uint32_t)g[k] << 8 | (uint32_t)r[k] << 16
                        : (uint32_t)r[k] | (uint32_t)g[k] << 8 | (uint32_t)b[k] << 16;
        uint32_t *o = reinterpret_cast<uint32_t *>(q);
        o[0] = px[0] | px[1] << 24;
        o[1] = px[1] >> 8 | px[2] << 16;
        o[2] = px[2] >> 16 | px[3] << 8;
    }
}

/* G luma samples of a row from column x0 (G = 8: one 8-byte load). */
template <int G>
__device__ __forceinline__ void load_luma(const uint8_t *row, int x0, uint32_t y[G / 4])
{
    if (G == 8) {
        uint2 w = *reinterpret_cast<const uint2 *>(row + x0);
        y[0] = w.x, y[(G / 4) - 1] = w.y;
    } else {
        y[0] = *reinterpret_cast<const uint32_t *>(row + x0);
    }
}

/* Nearest: the block's chroma; else linear with the plan's horizontal
 * siting (vertical is always centred, convert.h). */
template <bool Nearest, bool Semi, int Bpp, bool Bgr, int G, int R>
__global__ void convert_yuv420_to_rgb(cf_convert_plan plan, cf_convert_planes in,
                                      cf_convert_planes out, int width, int height)
{
    cf_pdl_begin();
    constexpr int S = G / 2, Q = S + 2, NR = R + 2;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int x0 = G * g;
    if (x0 >= width)
        return;
    int cw = (width + 1) / 2, ch = (height + 1) / 2, nj = (ch + R - 1) / R;
    bool centre = plan.site == CF_SITE_CENTER;
    bool wide = (((uintptr_t)out.data[0] | out.pitch[0]) & 15) == 0;
    for (int jb = blockIdx.y * blockDim.y + threadIdx.y; jb < nj; jb += gridDim.y * blockDim.y) {
        int j0 = R * jb, y0 = 2 * j0;
        if (x0 + G > width) { /* the last columns, pixel by pixel */
            for (int y = y0; y < y0 + 2 * R && y < height; y++)
                for (int x = x0; x < width; x++)
                    cf_cv_out_pixel(&plan, &in, &out, x, y, cw, ch);
            continue;
        }
        int c0 = S * g;
        /* chroma rows j0 - 1 .. j0 + R (clamped) in u[0 .. R + 1] */
        int u[NR][Q], v[NR][Q];
#pragma unroll
        for (int t = 0; t < NR; t++) {
            if (Nearest && (t == 0 || t == NR - 1))
                continue;
            int row = j0 - 1 + t;
            row = row < 0 ? 0 : row > ch - 1 ? ch - 1 : row;
            chroma_row<Semi, S>(in, row, c0, cw, u[t], v[t]);
        }
        uint32_t yw[2 * R][G / 4];
#pragma unroll
        for (int dy = 0; dy < 2 * R; dy++)
            if (y0 + dy < height)
                load_luma<G>(in.data[0] + (size_t)(y0 + dy) * in.pitch[0], x0, yw[dy]);
#pragma unroll
        for (int dy = 0; dy < 2 * R; dy++) {
            int y = y0 + dy;
            if (y >= height)
                break;
            const int t = 1 + dy / 2; /* chroma row j0 + dy / 2 */
            int u16[G], v16[G];
            if (Nearest) {
#pragma unroll
                for (int k = 0; k < G; k++)
                    u16[k] = 16 * u[t][1 + (k >> 1)], v16[k] = 16 * v[t][1 + (k >> 1)];
            } else {
                /* Vertical blend (weights of 4): row 2j takes 1 x (j - 1)
                 * + 3 x j, row 2j + 1 takes 3 x j + 1 x (j + 1). */
                int cu[Q], cv[Q];
#pragma unroll
                for (int i = 0; i < Q; i++) {
                    cu[i] = dy & 1 ? 3 * u[t][i] + u[t + 1][i] : u[t - 1][i] + 3 * u[t][i];
                    cv[i] = dy & 1 ? 3 * v[t][i] + v[t + 1][i] : v[t - 1][i] + 3 * v[t][i];
                }
                if (centre) { /* x = 2i: 1 x (i - 1) + 3 x i; x = 2i + 1: 3 x i + 1 x (i + 1) */
#pragma unroll
                    for (int k = 0; k < G; k++) {
                        int i = 1 + (k >> 1);
                        u16[k] = k & 1 ? 3 * cu[i] + cu[i + 1] : cu[i - 1] + 3 * cu[i];
                        v16[k] = k & 1 ? 3 * cv[i] + cv[i + 1] : cv[i - 1] + 3 * cv[i];
                    }
                } else { /* left: x = 2i: 4 x i; x = 2i + 1: 2 x i + 2 x (i + 1) */
#pragma unroll
                    for (int k = 0; k < G; k++) {
                        int i = 1 + (k >> 1);
                        u16[k] = k & 1 ? 2 * (cu[i] + cu[i + 1]) : 4 * cu[i];
                        v16[k] = k & 1 ? 2 * (cv[i] + cv[i + 1]) : 4 * cv[i];
                    }
                }
            }
            int r[G], gg[G], b[G];
            const int n = CF_CONVERT_SHIFT + 4;
#pragma unroll
            for (int k = 0; k < G; k++) {
                int yy = plan.cy * ((int)(yw[dy][k / 4] >> (8 * (k & 3)) & 255) - plan.y_lo) * 16;
                int cu = u16[k] - 16 * plan.c_mid, cv = v16[k] - 16 * plan.c_mid;
                r[k] = cf_cv_fast_round(yy + plan.crv * cv, n);
                gg[k] = cf_cv_fast_round(yy + plan.cgu * cu + plan.cgv * cv, n);
                b[k] = cf_cv_fast_round(yy + plan.cbu * cu, n);
            }
            uint8_t *q = out.data[0] + (size_t)y * out.pitch[0] + (size_t)x0 * Bpp;
#pragma unroll
            for (int k = 0; k < G; k += 4)
                store_rgb4<Bpp, Bgr>(plan, q + k * Bpp, r + k, gg + k, b + k, wide);
        }
    }
}

/* 3-byte RGB is R, G, B or B, G, R (convert_filter.c's layouts). */
bool bgr3_rgb(const cf_convert_layout &l)
{
    return l.bpp == 3 && l.b == 0;
}

template <bool Nearest, bool Semi, int G, int R>
cf_status launch_rgb(const cf_convert_plan &plan, const cf_convert_planes &in,
                 const cf_convert_planes &out, int w, int h, cudaStream_t s)
{
    auto kernel = plan.d.bpp == 4 ? convert_yuv420_to_rgb<Nearest, Semi, 4, false, G, R>
                  : bgr3_rgb(plan.d)  ? convert_yuv420_to_rgb<Nearest, Semi, 3, true, G, R>
                                  : convert_yuv420_to_rgb<Nearest, Semi, 3, false, G, R>;
    int groups = (w + G - 1) / G, ch = (h + 1) / 2, nj = (ch + R - 1) / R;
    int gy = (nj + kCvFastBlockY - 1) / kCvFastBlockY;
    dim3 grid((unsigned)((groups + kCvFastBlockX - 1) / kCvFastBlockX),
              (unsigned)(gy < 65535 ? gy : 65535));
    return CF_CUDA_CHECK(cf_launch(kernel, grid, dim3(kCvFastBlockX, kCvFastBlockY), 0, s, plan,
                                   in, out, w, h));
}

template <bool Semi>
cf_status launch_rgb_shape(const cf_convert_plan &plan, const cf_convert_planes &in,
                       const cf_convert_planes &out, int w, int h, int cols, int rows,
                       cudaStream_t s)
{
    if (plan.filter == CF_CHROMA_NEAREST)
        return cols == 8 ? launch_rgb<true, Semi, 8, 1>(plan, in, out, w, h, s)
                         : launch_rgb<true, Semi, 4, 1>(plan, in, out, w, h, s);
    if (cols == 8)
        return rows == 2 ? launch_rgb<false, Semi, 8, 2>(plan, in, out, w, h, s)
                         : launch_rgb<false, Semi, 8, 1>(plan, in, out, w, h, s);
    return rows == 2 ? launch_rgb<false, Semi, 4, 2>(plan, in, out, w, h, s)
                     : launch_rgb<false, Semi, 4, 1>(plan, in, out, w, h, s);
}

} // namespace

cf_status cf_convert_fast_to_rgb(const cf_convert_plan &plan, const cf_convert_planes &in,
                                 const cf_convert_planes &out, int w, int h, int cols, int rows,
                                 cudaStream_t s)
{
    return plan.s.semi_planar ? launch_rgb_shape<true>(plan, in, out, w, h, cols, rows, s)
                              : launch_rgb_shape<false>(plan, in, out, w, h, cols, rows, s);
}
