/* CUDA convert's fast kernels: what convert_fast.cu (the dispatch),
 * convert_fast_rgb.cu (8-bit 4:2:0 -> RGB) and convert_fast_yuv.cu
 * (RGB -> 8-bit 4:2:0) share. Internal to those files. */
#ifndef CUDAFILTERS_KERNELS_CONVERT_FAST_UTIL_CUH
#define CUDAFILTERS_KERNELS_CONVERT_FAST_UTIL_CUH

#include <cuda_runtime.h>

#include "convert.h"

/* Threads of a block: 32 column groups (one warp a row) x 4 rows. */
constexpr int kCvFastBlockX = 32, kCvFastBlockY = 4;

/* round(v / 2^n), half up, clamped to 0..255 (convert.h's cf_cv_round
 * at 8 bits, in 32 bits: every fast-kernel intermediate fits, see
 * convert_fast_rgb.cu). */
__device__ __forceinline__ int cf_cv_fast_round(int v, int n)
{
    int r = (v + (1 << (n - 1))) >> n;
    return r < 0 ? 0 : r > 255 ? 255 : r;
}

/* 8-bit 4:2:0 -> 3- or 4-byte RGB of a w x h frame on stream s: a thread
 * takes `cols` columns (4 or 8) of 2 x `rows` pixel rows (rows: 1 or 2
 * chroma rows; 2 only with linear chroma). The planes' alignment is the
 * caller's check (convert_fast.cu). Returns CF_OK or the launch's error. */
cf_status cf_convert_fast_to_rgb(const cf_convert_plan &plan, const cf_convert_planes &in,
                                 const cf_convert_planes &out, int w, int h, int cols, int rows,
                                 cudaStream_t s);
/* 3- or 4-byte RGB -> 8-bit 4:2:0, `cols` (4 or 8) columns of one chroma
 * row (two pixel rows) a thread; otherwise as cf_convert_fast_to_rgb. */
cf_status cf_convert_fast_to_yuv(const cf_convert_plan &plan, const cf_convert_planes &in,
                                 const cf_convert_planes &out, int w, int h, int cols,
                                 cudaStream_t s);

#endif
