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

#include "launch.cuh"
#include "scale.h"
#include "scale_fast.cuh"

namespace {

constexpr int kThreads = 128;

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

/* T taps on both axes (0: a.tx, a.ty at run time); CvLinear: bilinear's
 * vertical step in OpenCV's vector form (scale.h). */
template <int CN, int T, bool CvLinear>
__global__ void scale_taps8(cf_scale_fast_args a)
{
    cf_pdl_begin();
    int x = blockIdx.x * blockDim.x + threadIdx.x;
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
    for (int y = blockIdx.y; y < a.dh; y += gridDim.y) {
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
                    /* 32 bits hold bilinear, nearest and area taps
                     * (weights >= 0 summing to 2048 per axis) */
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
__global__ void scale_box8(cf_scale_fast_args a)
{
    cf_pdl_begin();
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= a.dw)
        return;
    const int kx = K ? K : a.kx, ky = K ? K : a.ky;
    const unsigned area = (unsigned)kx * (unsigned)ky;
    for (int y = blockIdx.y; y < a.dh; y += gridDim.y) {
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

template <int CN>
cf_scale_fast_kernel taps_kernel(int taps, bool cv_linear)
{
    if (cv_linear)
        return taps == 2 ? scale_taps8<CN, 2, true> : nullptr;
    switch (taps) {
    case 1: return scale_taps8<CN, 1, false>;
    case 2: return scale_taps8<CN, 2, false>;
    case 4: return scale_taps8<CN, 4, false>;
    case 8: return scale_taps8<CN, 8, false>;
    default: return scale_taps8<CN, 0, false>;
    }
}

template <int CN>
cf_scale_fast_kernel box_kernel(int kx, int ky)
{
    return kx == 2 && ky == 2 ? scale_box8<CN, 2> : scale_box8<CN, 0>;
}

} // namespace

cf_scale_fast_kernel cf_scale_fast_pick(const cf_scale_plan *plan, int p, const char **name)
{
    const cf_scale_plane &pp = plan->planes[p];
    int k = pp.klass;
    if (pp.sample_bytes != 1 || pp.cn < 1 || pp.cn > 4)
        return nullptr;
    if (plan->box[k]) {
        if ((long long)plan->kx[k] * plan->ky[k] > (1 << 24))
            return nullptr;
        *name = "box8";
        switch (pp.cn) {
        case 1: return box_kernel<1>(plan->kx[k], plan->ky[k]);
        case 2: return box_kernel<2>(plan->kx[k], plan->ky[k]);
        case 3: return box_kernel<3>(plan->kx[k], plan->ky[k]);
        default: return box_kernel<4>(plan->kx[k], plan->ky[k]);
        }
    }
    int tx = plan->x[k].taps, ty = plan->y[k].taps;
    int taps = tx == ty ? tx : 0;
    if (plan->opencv_linear && (tx != 2 || ty != 2))
        return nullptr;
    *name = "taps8";
    switch (pp.cn) {
    case 1: return taps_kernel<1>(taps, plan->opencv_linear);
    case 2: return taps_kernel<2>(taps, plan->opencv_linear);
    case 3: return taps_kernel<3>(taps, plan->opencv_linear);
    default: return taps_kernel<4>(taps, plan->opencv_linear);
    }
}

cf_status cf_scale_fast_run(cf_scale_fast_kernel kernel, const cf_scale_fast_args *a,
                            cudaStream_t s)
{
    /* Two rows a thread: its column's taps, loaded once, serve both. */
    int rows = (a->dh + 1) / 2;
    dim3 grid((unsigned)((a->dw + kThreads - 1) / kThreads), (unsigned)(rows < 65535 ? rows : 65535));
    return CF_CUDA_CHECK(cf_launch(kernel, grid, dim3(kThreads), 0, s, *a));
}
