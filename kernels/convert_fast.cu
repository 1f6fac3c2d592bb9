/* CUDA convert, the fast kernels for the hot shapes: 8-bit 4:2:0 (NV12,
 * I420) to and from 3- and 4-byte RGB. Same integers as convert.h's
 * reference functions, reorganised:
 *  - a thread owns 4 columns x 2 rows (two chroma samples of one chroma
 *    row), reads them with word loads and writes them with word stores;
 *  - the 4:2:0 -> RGB chroma filter is separable (weights (4 - f) and f
 *    per axis, cf_cv_chroma_at), so each chroma column is blended
 *    vertically once and shared by the pixels that use it; integer sums
 *    are exact, so the order does not change the result;
 *  - 32-bit arithmetic where the reference uses 64 bits: at 8 bits every
 *    intermediate is below 2^28 (coefficients below 2^16 times chroma
 *    sums below 2^12, luma term below 2^27), so both give the same
 *    integers.
 * Columns past the last whole group of 4 go through the reference
 * functions one pixel at a time. The caller (convert.cu) checks the
 * alignment the word accesses need (cf_convert_fast_takes). */
#include <cuda_runtime.h>

#include "convert.h"
#include "convert_fast.cuh"
#include "launch.cuh"

namespace {

constexpr int kBlockX = 32, kBlockY = 4;

__device__ __forceinline__ int round_q(int v, int n)
{
    int r = (v + (1 << (n - 1))) >> n;
    return r < 0 ? 0 : r > 255 ? 255 : r;
}

/* U, V of chroma sample i (already in range) of chroma row `row`. */
template <bool Semi>
__device__ __forceinline__ void chroma_at(const cf_convert_planes &p, int row, int i, int &u,
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

/* Chroma samples c0 - 1 .. c0 + 2 (clamped to [0, cw - 1]) of one row,
 * c0 even and c0 + 1 < cw. */
template <bool Semi>
__device__ __forceinline__ void chroma_quad(const cf_convert_planes &p, int row, int c0, int cw,
                                            int u[4], int v[4])
{
    if (Semi) {
        const uint8_t *q = p.data[1] + (size_t)row * p.pitch[1];
        uint32_t mid = *reinterpret_cast<const uint32_t *>(q + 2 * (size_t)c0);
        u[1] = mid & 255, v[1] = mid >> 8 & 255, u[2] = mid >> 16 & 255, v[2] = mid >> 24;
    } else {
        const uint8_t *qu = p.data[1] + (size_t)row * p.pitch[1];
        const uint8_t *qv = p.data[2] + (size_t)row * p.pitch[2];
        uint32_t mu = *reinterpret_cast<const uint16_t *>(qu + c0);
        uint32_t mv = *reinterpret_cast<const uint16_t *>(qv + c0);
        u[1] = mu & 255, u[2] = mu >> 8, v[1] = mv & 255, v[2] = mv >> 8;
    }
    chroma_at<Semi>(p, row, c0 > 0 ? c0 - 1 : 0, u[0], v[0]);
    chroma_at<Semi>(p, row, c0 + 2 < cw ? c0 + 2 : cw - 1, u[3], v[3]);
}

/* Packs 4 pixels' R, G, B into the output's bytes: Bpp 4, one word each
 * (offsets from the layout, alpha or padding filled), stored as one
 * 16-byte word where the rows allow (`wide`); Bpp 3, 12 bytes in 3 words
 * (Bgr: B first). */
template <int Bpp, bool Bgr>
__device__ __forceinline__ void store_rgb(const cf_convert_plan &pl, uint8_t *q, const int r[4],
                                          const int g[4], const int b[4], bool wide)
{
    if (Bpp == 4) {
        const cf_convert_layout &l = pl.d;
        int pad = l.a >= 0 ? l.a : 6 - l.r - l.g - l.b;
        uint32_t a = (uint32_t)(pl.alpha >= 0 ? pl.alpha : 255) << (8 * pad);
        uint32_t w[4];
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
        for (int k = 0; k < 4; k++)
            px[k] = Bgr ? (uint32_t)b[k] | (uint32_t)g[k] << 8 | (uint32_t)r[k] << 16
                        : (uint32_t)r[k] | (uint32_t)g[k] << 8 | (uint32_t)b[k] << 16;
        uint32_t *o = reinterpret_cast<uint32_t *>(q);
        o[0] = px[0] | px[1] << 24;
        o[1] = px[1] >> 8 | px[2] << 16;
        o[2] = px[2] >> 16 | px[3] << 8;
    }
}

/* 4:2:0 8-bit -> RGB, Nearest: the block's chroma; else linear with the
 * plan's horizontal siting (vertical is always centred, convert.h). */
template <bool Nearest, bool Semi, int Bpp, bool Bgr>
__global__ void convert_yuv420_to_rgb(cf_convert_plan plan, cf_convert_planes in,
                                      cf_convert_planes out, int width, int height)
{
    cf_pdl_begin();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int x0 = 4 * g;
    if (x0 >= width)
        return;
    int cw = (width + 1) / 2, ch = (height + 1) / 2;
    bool centre = plan.site == CF_SITE_CENTER;
    bool wide = (((uintptr_t)out.data[0] | out.pitch[0]) & 15) == 0;
    for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < ch; j += gridDim.y * blockDim.y) {
        if (x0 + 4 > width) { /* the last columns, pixel by pixel */
            for (int y = 2 * j; y < 2 * j + 2 && y < height; y++)
                for (int x = x0; x < width; x++)
                    cf_cv_out_pixel(&plan, &in, &out, x, y, cw, ch);
            continue;
        }
        int c0 = 2 * g;
        int um[4], vm[4], u0[4], v0[4], up[4], vp[4];
        chroma_quad<Semi>(in, j, c0, cw, u0, v0);
        if (!Nearest) {
            chroma_quad<Semi>(in, j > 0 ? j - 1 : 0, c0, cw, um, vm);
            chroma_quad<Semi>(in, j + 1 < ch ? j + 1 : ch - 1, c0, cw, up, vp);
        }
        for (int dy = 0; dy < 2; dy++) {
            int y = 2 * j + dy;
            if (y >= height)
                break;
            uint32_t yw = *reinterpret_cast<const uint32_t *>(in.data[0] + (size_t)y * in.pitch[0] + x0);
            int u16[4], v16[4];
            if (Nearest) {
                for (int k = 0; k < 4; k++)
                    u16[k] = 16 * u0[1 + (k >> 1)], v16[k] = 16 * v0[1 + (k >> 1)];
            } else {
                /* Vertical blend (weights of 4): row 2j takes 1 x (j - 1)
                 * + 3 x j, row 2j + 1 takes 3 x j + 1 x (j + 1). */
                int cu[4], cv[4];
                for (int t = 0; t < 4; t++) {
                    cu[t] = dy ? 3 * u0[t] + up[t] : um[t] + 3 * u0[t];
                    cv[t] = dy ? 3 * v0[t] + vp[t] : vm[t] + 3 * v0[t];
                }
                if (centre) { /* x = 2i: 1 x (i - 1) + 3 x i; x = 2i + 1: 3 x i + 1 x (i + 1) */
                    for (int k = 0; k < 4; k++) {
                        int i = 1 + (k >> 1);
                        u16[k] = k & 1 ? 3 * cu[i] + cu[i + 1] : cu[i - 1] + 3 * cu[i];
                        v16[k] = k & 1 ? 3 * cv[i] + cv[i + 1] : cv[i - 1] + 3 * cv[i];
                    }
                } else { /* left: x = 2i: 4 x i; x = 2i + 1: 2 x i + 2 x (i + 1) */
                    for (int k = 0; k < 4; k++) {
                        int i = 1 + (k >> 1);
                        u16[k] = k & 1 ? 2 * (cu[i] + cu[i + 1]) : 4 * cu[i];
                        v16[k] = k & 1 ? 2 * (cv[i] + cv[i + 1]) : 4 * cv[i];
                    }
                }
            }
            int r[4], gg[4], b[4];
            const int n = CF_CONVERT_SHIFT + 4;
            for (int k = 0; k < 4; k++) {
                int yy = plan.cy * ((int)(yw >> (8 * k) & 255) - plan.y_lo) * 16;
                int u = u16[k] - 16 * plan.c_mid, v = v16[k] - 16 * plan.c_mid;
                r[k] = round_q(yy + plan.crv * v, n);
                gg[k] = round_q(yy + plan.cgu * u + plan.cgv * v, n);
                b[k] = round_q(yy + plan.cbu * u, n);
            }
            store_rgb<Bpp, Bgr>(plan, out.data[0] + (size_t)y * out.pitch[0] + (size_t)x0 * Bpp,
                                r, gg, b, wide);
        }
    }
}

/* Pixel k (-1 .. 3) of a group of 4 starting at column x0 of a row, as a
 * word with the input's component bytes at their layout offsets; pixel -1
 * is column x0 - 1, or column 0 when x0 is 0 (the reference's clamp).
 * 4-byte pixels: one 16-byte load where the rows allow (`wide`). */
template <int Bpp>
__device__ __forceinline__ void load_group(const uint8_t *row, int x0, uint32_t px[5], bool wide)
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

/* RGB (3 or 4 bytes) -> 8-bit 4:2:0. Mode 0: left linear, 1: centre
 * linear, 2: nearest (convert.h, cf_cv_out_chroma). */
template <int Bpp, bool Semi, int Mode>
__global__ void convert_rgb_to_yuv420(cf_convert_plan plan, cf_convert_planes in,
                                      cf_convert_planes out, int width, int height)
{
    cf_pdl_begin();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int x0 = 4 * g;
    if (x0 >= width)
        return;
    int cw = (width + 1) / 2, ch = (height + 1) / 2;
    const cf_convert_layout &s = plan.s;
    const int sr = 8 * s.r, sg = 8 * s.g, sb = 8 * s.b;
    bool wide = (((uintptr_t)in.data[0] | in.pitch[0]) & 15) == 0;
    for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < ch; j += gridDim.y * blockDim.y) {
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
        for (int dy = 0; dy < 2; dy++) {
            int y = 2 * j + dy < height ? 2 * j + dy : height - 1;
            uint32_t px[5];
            load_group<Bpp>(in.data[0] + (size_t)y * in.pitch[0], x0, px, wide);
            int r[5], gg[5], b[5];
            for (int k = 0; k < 5; k++)
                r[k] = px[k] >> sr & 255, gg[k] = px[k] >> sg & 255, b[k] = px[k] >> sb & 255;
            if (2 * j + dy == y) {
                uint32_t yw = 0;
                for (int k = 0; k < 4; k++) {
                    int l = round_q(plan.yr * r[k + 1] + plan.yg * gg[k + 1] + plan.yb * b[k + 1] +
                                        (plan.y_lo << CF_CONVERT_SHIFT),
                                    CF_CONVERT_SHIFT);
                    yw |= (uint32_t)l << (8 * k);
                }
                *reinterpret_cast<uint32_t *>(out.data[0] + (size_t)y * out.pitch[0] + x0) = yw;
            }
            if (Mode == 2 && dy == 1)
                continue;
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
        int u[2], v[2];
        for (int c = 0; c < 2; c++) {
            u[c] = round_q(su[c] + (plan.c_mid << n), n);
            v[c] = round_q(sv[c] + (plan.c_mid << n), n);
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

/* The planes' alignment for the word accesses: luma words of 4 bytes,
 * NV12 chroma words of 4, I420 chroma half-words, RGB words (4-byte
 * pixels go 16 bytes at a time where rows are on 16 bytes, as
 * cudaMallocPitch's are; GStreamer's RGBA rows of 1366 pixels are on 8). */
bool yuv_aligned(const cf_convert_layout &l, const cf_convert_planes &p)
{
    if (!aligned(p.data[0], p.pitch[0], 4))
        return false;
    if (l.semi_planar)
        return aligned(p.data[1], p.pitch[1], 4);
    return aligned(p.data[1], p.pitch[1], 2) && aligned(p.data[2], p.pitch[2], 2);
}

bool rgb_aligned(const cf_convert_planes &p)
{
    return aligned(p.data[0], p.pitch[0], 4);
}

/* 3-byte RGB is R, G, B or B, G, R (convert_filter.c's layouts). */
bool bgr3(const cf_convert_layout &l)
{
    return l.bpp == 3 && l.b == 0;
}

template <typename K>
cf_status launch(K kernel, const cf_convert_plan &plan, const cf_convert_planes &in,
                 const cf_convert_planes &out, int w, int h, cudaStream_t s)
{
    int groups = (w + 3) / 4, ch = (h + 1) / 2;
    int gy = (ch + kBlockY - 1) / kBlockY;
    dim3 grid((unsigned)((groups + kBlockX - 1) / kBlockX), (unsigned)(gy < 65535 ? gy : 65535));
    return CF_CUDA_CHECK(cf_launch(kernel, grid, dim3(kBlockX, kBlockY), 0, s, plan, in, out, w, h));
}

template <bool Nearest, bool Semi>
auto pick_to_rgb(const cf_convert_layout &d)
{
    return d.bpp == 4    ? convert_yuv420_to_rgb<Nearest, Semi, 4, false>
           : bgr3(d)     ? convert_yuv420_to_rgb<Nearest, Semi, 3, true>
                         : convert_yuv420_to_rgb<Nearest, Semi, 3, false>;
}

template <int Bpp, bool Semi>
auto pick_to_yuv(const cf_convert_plan &plan)
{
    return plan.filter == CF_CHROMA_NEAREST ? convert_rgb_to_yuv420<Bpp, Semi, 2>
           : plan.site == CF_SITE_CENTER    ? convert_rgb_to_yuv420<Bpp, Semi, 1>
                                            : convert_rgb_to_yuv420<Bpp, Semi, 0>;
}

} // namespace

const char *cf_convert_fast_takes(const cf_convert_plan *plan, const cf_convert_planes *in,
                                  const cf_convert_planes *out)
{
    if (is_yuv420_8(plan->s) && is_rgb34(plan->d) && yuv_aligned(plan->s, *in) &&
        rgb_aligned(*out))
        return "yuv420_to_rgb";
    if (is_rgb34(plan->s) && is_yuv420_8(plan->d) && rgb_aligned(*in) &&
        yuv_aligned(plan->d, *out))
        return "rgb_to_yuv420";
    return NULL;
}

cf_status cf_convert_fast_run(const cf_convert_plan *plan, const cf_convert_planes *in,
                              const cf_convert_planes *out, int w, int h, cudaStream_t s)
{
    const cf_convert_plan &p = *plan;
    if (p.s.kind == CF_KIND_YUV) {
        bool nearest = p.filter == CF_CHROMA_NEAREST;
        if (p.s.semi_planar)
            return launch(nearest ? pick_to_rgb<true, true>(p.d) : pick_to_rgb<false, true>(p.d),
                          p, *in, *out, w, h, s);
        return launch(nearest ? pick_to_rgb<true, false>(p.d) : pick_to_rgb<false, false>(p.d),
                      p, *in, *out, w, h, s);
    }
    bool semi = p.d.semi_planar;
    if (p.s.bpp == 4)
        return launch(semi ? pick_to_yuv<4, true>(p) : pick_to_yuv<4, false>(p), p, *in, *out, w,
                      h, s);
    return launch(semi ? pick_to_yuv<3, true>(p) : pick_to_yuv<3, false>(p), p, *in, *out, w, h,
                  s);
}
