/* CUDA convert's fast kernels: what convert_fast.cu (the dispatch),
 * convert_fast_rgb.cu (8-bit 4:2:0 -> RGB) and convert_fast_yuv.cu
 * (RGB -> 8-bit 4:2:0) share. Internal to those files. */
#ifndef CUDAFILTERS_KERNELS_CONVERT_FAST_UTIL_CUH
#define CUDAFILTERS_KERNELS_CONVERT_FAST_UTIL_CUH

#include <cuda_runtime.h>

#include "convert.h"

/* Threads of a block: one warp along a row (the kernels' interleaving
 * of column groups counts on blockDim.x being 32) x 4 rows. */
constexpr int kCvFastBlockY = 4;

/* v clamped to 0..255. The kernels round a Qn value v half up as
 * cf_cv_fast_clamp((v + 2^(n - 1)) >> n), convert.h's cf_cv_round at 8
 * bits, with 2^(n - 1) folded into a constant term computed once; in 32
 * bits, as every fast-kernel intermediate fits (see convert_fast_rgb.cu). */
__device__ __forceinline__ int cf_cv_fast_clamp(int v)
{
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* 8-bit 4:2:0 -> 3- or 4-byte RGB of a w x h frame on stream s: a thread
 * takes `cols` columns (4, or 8 as two groups of 4 a warp's width apart)
 * of 2 x `rows` pixel rows (rows: 1 or 2 chroma rows; 2 only with linear
 * chroma). The planes' alignment is the caller's check (convert_fast.cu).
 * Returns CF_OK or the launch's error. */
cf_status cf_convert_fast_to_rgb(const cf_convert_plan &plan, const cf_convert_planes &in,
                                 const cf_convert_planes &out, int w, int h, int cols, int rows,
                                 cudaStream_t s);
/* 3- or 4-byte RGB -> 8-bit 4:2:0, `cols` (4 or 8, as above) columns of
 * one chroma row (two pixel rows) a thread; otherwise as
 * cf_convert_fast_to_rgb. */
cf_status cf_convert_fast_to_yuv(const cf_convert_plan &plan, const cf_convert_planes &in,
                                 const cf_convert_planes &out, int w, int h, int cols,
                                 cudaStream_t s);

#endif
