/* CUDA scale, the fast kernels for 8-bit planes: the same integers as
 * scale.h's cf_sc_sample and cf_sc_box, with the per-plane facts that the
 * generic kernel reads at run time (samples per pixel, taps per axis,
 * OpenCV's bilinear form, box size) made template parameters, so loops
 * unroll, a pixel is one vector load (1, 2 or 4 bytes), a thread keeps its
 * column's taps in registers for every row it computes, and the 64-bit
 * accumulator is only used where the taps can overflow 32 bits (bicubic,
 * Lanczos and run-time tap counts). The caller (scale.cu) checks the
 * alignment the vector accesses need (rows and planes on 4 bytes). */
#include <cuda_runtime.h>

#include <atomic>

#include "launch.cuh"
#include "scale.h"
#include "scale_fast.cuh"

namespace {

constexpr int kThreads = 128;

/* cf_scale_cuda_force_narrow's switch. */
std::atomic<bool> g_force_narrow{ false };

template <int CN>
__device__ __forceinline__ void load_px(const uint8_t *p, int v[CN])
{
    if (CN == 4) {
        uchar4 q = *reinterpret_cast<const uchar4 *>(p);
        v[0] = q.x, v[1] = q.y, v[2 % CN] = q.z, v[3 % CN] = q.w;
    } else if (CN == 2) {
        uchar2 q = *reinterpret_cast<const uchar2 *>(p);
        v[0] = q.x, v[1 % CN] = q.y;
    } else {
#pragma unroll
        for (int c = 0; c < CN; c++)
            v[c] = p[c];
    }
}

template <int CN>
__device__ __forceinline__ void store_px(uint8_t *p, const int v[CN])
{
    if (CN == 4) {
        *reinterpret_cast<uchar4 *>(p) = make_uchar4((unsigned char)v[0], (unsigned char)v[1],
                                                     (unsigned char)v[2 % CN],
                                                     (unsigned char)v[3 % CN]);
    } else if (CN == 2) {
        *reinterpret_cast<uchar2 *>(p) = make_uchar2((unsigned char)v[0], (unsigned char)v[1 % CN]);
    } else {
#pragma unroll
        for (int c = 0; c < CN; c++)
            p[c] = (uint8_t)v[c];
    }
}

__device__ __forceinline__ int clamp255(long long v)
{
    return v < 0 ? 0 : v > 255 ? 255 : (int)v;
}

/* One plane's share of a launch: block `blk` of its own numbering,
 * (blk % bx) along the row, rows (blk / bx) + k * by, k = 0, 1, ... */
struct Tile {
    int x, y0, ystep;
};

__device__ __forceinline__ Tile tile_of(const cf_scale_fast_args &a, unsigned blk)
{
    unsigned bx = ((unsigned)a.row_threads + kThreads - 1) / kThreads;
    return { (int)((blk % bx) * kThreads + threadIdx.x), (int)(blk / bx), a.row_blocks };
}

/* T taps on both axes (0: a.tx, a.ty at run time); CvLinear: bilinear's
 * vertical step in OpenCV's vector form (scale.h). */
template <int CN, int T, bool CvLinear>
__device__ __forceinline__ void taps8(const cf_scale_fast_args &a, unsigned blk)
{
    Tile t = tile_of(a, blk);
    int x = t.x;
    if (x >= a.dw)
        return;
    const int tx = T ? T : a.tx, ty = T ? T : a.ty;
    constexpr int R = T ? T : 1;
    int xo[R], xw[R];
#pragma unroll
    for (int i = 0; i < R; i++) {
        xo[i] = T ? a.xi[(size_t)x * T + i] * CN : 0;
        xw[i] = T ? a.xw[(size_t)x * T + i] : 0;
    }
    for (int y = t.y0; y < a.dh; y += t.ystep) {
        int h0[CN], h1[CN];
        long long acc[CN];
#pragma unroll
        for (int c = 0; c < CN; c++)
            h0[c] = h1[c] = 0, acc[c] = 0;
        const int32_t *yi = a.yi + (size_t)y * ty;
        const int16_t *yw = a.yw + (size_t)y * ty;
#pragma unroll
        for (int k = 0; k < ty; k++) {
            const uint8_t *row = a.src + (size_t)yi[k] * a.src_pitch;
            int s[CN];
#pragma unroll
            for (int c = 0; c < CN; c++)
                s[c] = 0;
#pragma unroll
            for (int i = 0; i < tx; i++) {
                int off = T ? xo[i] : a.xi[(size_t)x * tx + i] * CN;
                int wgt = T ? xw[i] : a.xw[(size_t)x * tx + i];
                int v[CN];
                load_px<CN>(row + off, v);
#pragma unroll
                for (int c = 0; c < CN; c++)
                    s[c] += v[c] * wgt;
            }
            int wy = yw[k];
#pragma unroll
            for (int c = 0; c < CN; c++) {
                if (k == 0)
                    h0[c] = s[c];
                if (k == 1)
                    h1[c] = s[c];
                if (!CvLinear) {
                    /* 32 bits hold nearest and bilinear-table taps (weights
                     * >= 0, about 2048 per axis) */
                    if (T == 1 || T == 2)
                        acc[c] = (int)acc[c] + s[c] * wy;
                    else
                        acc[c] += (long long)s[c] * wy;
                }
            }
        }
        int out[CN];
#pragma unroll
        for (int c = 0; c < CN; c++) {
            if (CvLinear)
                out[c] = clamp255(((((h0[c] >> 4) * (int)yw[0]) >> 16) +
                                   (((h1[c] >> 4) * (int)yw[1]) >> 16) + 2) >> 2);
            else
                out[c] = clamp255((acc[c] + (1 << (2 * CF_SCALE_BITS - 1))) >> (2 * CF_SCALE_BITS));
        }
        store_px<CN>(a.dst + (size_t)y * a.dst_pitch + (size_t)x * CN, out);
    }
}

/* Box mean of K x K samples (0: a.kx x a.ky at run time) from a.src, which
 * points at the box of output (0, 0). 32-bit sums: the caller keeps boxes
 * under 2^24 samples. */
template <int CN, int K>
__device__ __forceinline__ void box8(const cf_scale_fast_args &a, unsigned blk)
{
    Tile t = tile_of(a, blk);
    int x = t.x;
    if (x >= a.dw)
        return;
    const int kx = K ? K : a.kx, ky = K ? K : a.ky;
    const unsigned area = (unsigned)kx * (unsigned)ky;
    for (int y = t.y0; y < a.dh; y += t.ystep) {
        const uint8_t *base = a.src + (size_t)y * ky * a.src_pitch + (size_t)x * kx * CN;
        unsigned sum[CN];
#pragma unroll
        for (int c = 0; c < CN; c++)
            sum[c] = 0;
#pragma unroll
        for (int j = 0; j < ky; j++)
#pragma unroll
            for (int i = 0; i < kx; i++) {
                int v[CN];
                load_px<CN>(base + (size_t)j * a.src_pitch + (size_t)i * CN, v);
#pragma unroll
                for (int c = 0; c < CN; c++)
                    sum[c] += (unsigned)v[c];
            }
        int out[CN];
#pragma unroll
        for (int c = 0; c < CN; c++)
            out[c] = (int)((sum[c] + area / 2) / area);
        store_px<CN>(a.dst + (size_t)y * a.dst_pitch + (size_t)x * CN, out);
    }
}

/* Output bytes of a thread of box2w, from 2 x 2 W source bytes. */
constexpr int kBox2W = 8;

/* Source row bytes s0 .. s0 + 2W - 1 at row, as words (16-byte loads;
 * `full`: all of them inside the row, else bytes up to `end`). */
__device__ __forceinline__ void load_box2w_row(const uint8_t *row, int s0, int end, bool full,
                                               uint32_t w[kBox2W / 2])
{
    if (full) {
        uint4 q = *reinterpret_cast<const uint4 *>(row + s0);
        w[0] = q.x, w[1] = q.y, w[2] = q.z, w[3] = q.w;
        return;
    }
#pragma unroll
    for (int k = 0; k < kBox2W / 2; k++) {
        w[k] = 0;
#pragma unroll
        for (int b = 0; b < 4; b++)
            if (s0 + 4 * k + b < end)
                w[k] |= (uint32_t)row[s0 + 4 * k + b] << (8 * b);
    }
}

/* 2 x 2 box means, kBox2W output bytes a thread (a whole number of pixels
 * of CN = 1, 2 or 4 samples): output byte b of the thread is sample c =
 * b % CN of pixel p = b / CN, the mean of source bytes 2p CN + c and
 * (2p + 1) CN + c of two rows, (sum + 2) >> 2 as cf_sc_box. Both output
 * rows' loads are issued before any sum. The source (at the crop) is on
 * 16 bytes, the destination on 8 (variant_of). */
template <int CN>
__device__ __forceinline__ void box2w(const cf_scale_fast_args &a, unsigned blk)
{
    Tile t = tile_of(a, blk);
    int o0 = t.x * kBox2W, end = a.dw * CN; /* output bytes of the row */
    if (o0 >= end)
        return;
    bool full = o0 + kBox2W <= end;
    uint32_t w[2][2][kBox2W / 2];
#pragma unroll
    for (int r = 0; r < 2; r++) {
        int y = t.y0 + r * t.ystep;
        if (y >= a.dh)
            break;
        const uint8_t *row = a.src + (size_t)y * 2 * a.src_pitch;
        load_box2w_row(row, 2 * o0, 2 * end, full, w[r][0]);
        load_box2w_row(row + a.src_pitch, 2 * o0, 2 * end, full, w[r][1]);
    }
#pragma unroll
    for (int r = 0; r < 2; r++) {
        int y = t.y0 + r * t.ystep;
        if (y >= a.dh)
            break;
        uint32_t out[kBox2W / 4] = {};
#pragma unroll
        for (int b = 0; b < kBox2W; b++) {
            const int s0 = 2 * (b / CN) * CN + b % CN, s1 = s0 + CN;
            unsigned sum = 0;
#pragma unroll
            for (int k = 0; k < 2; k++)
                sum += (w[r][k][s0 / 4] >> (8 * (s0 % 4)) & 255) +
                       (w[r][k][s1 / 4] >> (8 * (s1 % 4)) & 255);
            out[b / 4] |= ((sum + 2) >> 2) << (8 * (b % 4));
        }
        uint8_t *q = a.dst + (size_t)y * a.dst_pitch + o0;
        if (full) {
            *reinterpret_cast<uint2 *>(q) = make_uint2(out[0], out[kBox2W / 4 - 1]);
        } else {
            for (int b = 0; o0 + b < end; b++)
                q[b] = (uint8_t)(out[b / 4] >> (8 * (b % 4)));
        }
    }
}

/* The variants: how a plane is computed, the same for every plane of a
 * fused launch. */
enum Variant { V_NONE = -1, V_BOX2W, V_BOX2, V_BOX, V_T1, V_T2CV, V_T2, V_T4, V_T8, V_T };

template <int V, int CN>
__device__ __forceinline__ void plane8(const cf_scale_fast_args &a, unsigned blk)
{
    switch (V) {
    case V_BOX2W: box2w<CN == 3 ? 1 : CN>(a, blk); break; /* never 3 samples: variant_for */
    case V_BOX2: box8<CN, 2>(a, blk); break;
    case V_BOX: box8<CN, 0>(a, blk); break;
    case V_T1: taps8<CN, 1, false>(a, blk); break;
    case V_T2CV: taps8<CN, 2, true>(a, blk); break;
    case V_T2: taps8<CN, 2, false>(a, blk); break;
    case V_T4: taps8<CN, 4, false>(a, blk); break;
    case V_T8: taps8<CN, 8, false>(a, blk); break;
    default: taps8<CN, 0, false>(a, blk); break;
    }
}

/* Every plane of a frame in one launch (CN1, CN2: 0 for no such plane):
 * the grid's blocks are the planes' blocks one after the other, so the
 * small chroma planes neither pay a launch of their own nor wait for the
 * luma plane's last wave. */
template <int V, int CN0, int CN1, int CN2>
__global__ void scale_planes8(cf_scale_fast_frame f)
{
    cf_pdl_begin();
    unsigned b = blockIdx.x;
    if (b < f.first_block[1])
        plane8<V, CN0>(f.plane[0], b);
    else if (CN1 && b < f.first_block[2])
        plane8<V, CN1 ? CN1 : 1>(f.plane[1], b - f.first_block[1]);
    else if (CN2)
        plane8<V, CN2 ? CN2 : 1>(f.plane[2], b - f.first_block[2]);
}

int variant_of(const cf_scale_plan *plan, int p)
{
    const cf_scale_plane &pp = plan->planes[p];
    int k = pp.klass;
    if (pp.sample_bytes != 1 || pp.cn < 1 || pp.cn > 4)
        return V_NONE;
    if (plan->box[k]) {
        if ((long long)plan->kx[k] * plan->ky[k] > (1 << 24))
            return V_NONE;
        return plan->kx[k] == 2 && plan->ky[k] == 2 ? V_BOX2 : V_BOX;
    }
    int tx = plan->x[k].taps, ty = plan->y[k].taps;
    if (plan->opencv_linear)
        return tx == 2 && ty == 2 ? V_T2CV : V_NONE;
    if (tx != ty)
        return V_T;
    return tx == 1 ? V_T1 : tx == 2 ? V_T2 : tx == 4 ? V_T4 : tx == 8 ? V_T8 : V_T;
}

typedef void (*planes_kernel)(cf_scale_fast_frame);

/* The kernel for variant V and the planes' samples per pixel: one plane
 * of 1 to 4, NV12's 1 + 2, I420's 1 + 1 + 1; else NULL. */
template <int V>
planes_kernel kernel_for(const int *cn, int n)
{
    if (n == 1)
        return cn[0] == 1   ? scale_planes8<V, 1, 0, 0>
               : cn[0] == 2 ? scale_planes8<V, 2, 0, 0>
               : cn[0] == 3 ? scale_planes8<V, 3, 0, 0>
                            : scale_planes8<V, 4, 0, 0>;
    if (n == 2 && cn[0] == 1 && cn[1] == 2)
        return scale_planes8<V, 1, 2, 0>;
    if (n == 3 && cn[0] == 1 && cn[1] == 1 && cn[2] == 1)
        return scale_planes8<V, 1, 1, 1>;
    return nullptr;
}

planes_kernel pick(int v, const int *cn, int n)
{
    switch (v) {
    case V_BOX2W: return kernel_for<V_BOX2W>(cn, n);
    case V_BOX2: return kernel_for<V_BOX2>(cn, n);
    case V_BOX: return kernel_for<V_BOX>(cn, n);
    case V_T1: return kernel_for<V_T1>(cn, n);
    case V_T2CV: return kernel_for<V_T2CV>(cn, n);
    case V_T2: return kernel_for<V_T2>(cn, n);
    case V_T4: return kernel_for<V_T4>(cn, n);
    case V_T8: return kernel_for<V_T8>(cn, n);
    default: return kernel_for<V_T>(cn, n);
    }
}

/* Plane a's variant: variant_of, with 2 x 2 boxes in words where the
 * samples and alignment allow and no test forces the narrow kernels. */
int variant_for(const cf_scale_plan *plan, const cf_scale_fast_args &a)
{
    int v = variant_of(plan, a.plane);
    int cn = plan->planes[a.plane].cn;
    if (v == V_BOX2 && cn != 3 && ((uintptr_t)a.src | a.src_pitch) % 16 == 0 &&
        ((uintptr_t)a.dst | a.dst_pitch) % 8 == 0 && !g_force_narrow.load(std::memory_order_relaxed))
        return V_BOX2W;
    return v;
}

const char *name_of(int v)
{
    return v == V_BOX2W ? "box2w" : v <= V_BOX ? "box8" : "taps8";
}

/* Launches planes [0, n) of f (variant v, samples per pixel cn[i];
 * first_block, row_blocks and row_threads filled here) with kernel k. */
cf_status launch(planes_kernel k, int v, const int *cn, cf_scale_fast_frame f, int n,
                 cudaStream_t s)
{
    unsigned blocks = 0;
    for (int i = 0; i < 3; i++) {
        f.first_block[i] = blocks;
        if (i < n) {
            cf_scale_fast_args &a = f.plane[i];
            /* Two rows a thread: its column's taps, loaded once, serve both. */
            a.row_blocks = (a.dh + 1) / 2;
            a.row_threads = v == V_BOX2W ? (a.dw * cn[i] + kBox2W - 1) / kBox2W : a.dw;
            blocks += (unsigned)((a.row_threads + kThreads - 1) / kThreads) * (unsigned)a.row_blocks;
        }
    }
    f.first_block[3] = blocks;
    return CF_CUDA_CHECK(cf_launch(k, dim3(blocks), dim3(kThreads), 0, s, f));
}

} // namespace

bool cf_scale_fast_takes(const cf_scale_plan *plan, int p)
{
    return variant_of(plan, p) != V_NONE;
}

cf_status cf_scale_fast_run(const cf_scale_plan *plan, const cf_scale_fast_args *a, int n,
                            cudaStream_t s, const char **name)
{
    int v = variant_for(plan, a[0]), cn[3] = { 0, 0, 0 };
    bool same = n <= 3;
    for (int i = 0; i < n && i < 3; i++) {
        cn[i] = plan->planes[a[i].plane].cn;
        same = same && variant_for(plan, a[i]) == v;
    }
    planes_kernel k = same ? pick(v, cn, n) : nullptr;
    if (k) {
        cf_scale_fast_frame f = {};
        for (int i = 0; i < n; i++)
            f.plane[i] = a[i];
        *name = name_of(v);
        return launch(k, v, cn, f, n, s);
    }
    for (int i = 0; i < n; i++) { /* one launch a plane */
        int vi = variant_for(plan, a[i]);
        cf_scale_fast_frame f = {};
        f.plane[0] = a[i];
        const int *ci = &plan->planes[a[i].plane].cn;
        CF_TRY(launch(pick(vi, ci, 1), vi, ci, f, 1, s));
        *name = name_of(vi);
    }
    return CF_OK;
}

extern "C" void cf_scale_cuda_force_narrow(bool narrow)
{
    g_force_narrow.store(narrow, std::memory_order_relaxed);
}
