/* cudafilters blur on CUDA: vertical sums on the FP64 units, for 16-bit
 * planes whose samples have at most 11 bits (P010's 10).
 *
 * Why: a 16-bit plane's vertical sums need 64 bits (blur.h's bounds), and
 * the 64-bit integer multiply-add (IMAD.WIDE) runs at 41% of the 32-bit
 * IMAD rate on the pipe of the horizontal pass's IMADs (H200: 6.9 against
 * 16.7 T/s, cf-bench's ceilings). Hopper has 64 DFMA units an SM, as many
 * as IMAD lanes (H200: 14.2 T DFMA/s measured), on a pipe of their own, and
 * does them there exactly: every value below is an integer below 2^38,
 * which a double holds exactly (53-bit significand), so each DFMA rounds
 * nothing. The tile and two-pass methods use them there (f64_sums; 2-16%
 * faster on P010, bench/results/2026-12-03-h200-s26-17-fp64.md). A100 and
 * B200 also have fast FP64 (A100 32 DFMA a clock an SM, half its IMAD
 * rate); unmeasured, they keep the integer sums.
 *
 * Arithmetic, for intermediates t < 2^19 (blur.h: t = (sum wx p + 2^7) >> 8
 * <= (2047 * 65536 + 128) >> 8 < 2^19 for samples p of at most 11 bits):
 * - an operand s (one intermediate, or a pair of symmetric taps' two
 *   summed, s < 2^20) is the double 2^20 + s, made by one 32-bit add into
 *   its high word (f64_operand: the exponent of 2^20 and s as the top 20
 *   bits of the significand; the low word is 0), no conversion;
 * - the sum starts at 2^23 - 2^20 W (W the weights the sum multiplies, pairs
 *   and centre: f64_start), so that after the DFMAs w (2^20 + s) it is
 *   exactly 2^23 + sum w s, blur.h's vertical sum with its rounding term;
 * - the result, floor(sum / 2^24) (cf_blur_round_v), is one DFMA rounding
 *   toward zero: sum 2^-24 + 2^52 lies in [2^52, 2^53), whose unit is 1, so
 *   its low word is the floor (f64_result).
 * Bounds: |2^23 - 2^20 W| <= 2^36 (W <= 65536), each product w (2^20 + s)
 * < 2^16 2^21, every partial sum an integer of magnitude below 2^38. */
#ifndef CUDAFILTERS_KERNELS_BLUR_F64_CUH
#define CUDAFILTERS_KERNELS_BLUR_F64_CUH

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace cf_blur_cuda {

/* Samples of at most this many bits (16 - shift) take the FP64 sums. */
constexpr int kF64MaxDepth = 11;

/* The double 2^20 + s for s < 2^20 (its bits: high word 0x41300000 + s,
 * low word 0). */
__device__ __forceinline__ double f64_operand(uint32_t s)
{
    return __hiloint2double((int)(0x41300000u + s), 0);
}

/* floor(sum / 2^24) of a sum made as above, 0 <= sum < 2^52. */
__device__ __forceinline__ uint32_t f64_result(double sum)
{
    return (uint32_t)__double2loint(__fma_rz(sum, 0x1p-24, 0x1p52));
}

/* A vertical sum's step, sum + w s, in the arithmetic of Acc: double (w a
 * double; s, below 2^20, as f64_operand) or an unsigned integer (w an
 * integer). */
template <typename Acc, typename W>
__device__ __forceinline__ Acc vsum_mac(Acc sum, W w, uint32_t s)
{
    if constexpr (std::is_same_v<Acc, double>)
        return fma(w, f64_operand(s), sum);
    else
        return sum + (Acc)w * s;
}

/* A vertical sum's result, floor(sum / 2^24) (the sum started at 2^23,
 * cf_blur_round_v's rounding, or at f64_start). */
template <typename Acc>
__device__ __forceinline__ uint32_t vsum_result(Acc sum)
{
    if constexpr (std::is_same_v<Acc, double>)
        return f64_result(sum);
    else
        return (uint32_t)(sum >> 24);
}

/* The start of a vertical sum whose weights (every pair's once, and the
 * centre's) add up to weights: 2^23 - 2^20 weights. Host and device. */
__host__ __device__ constexpr double f64_start(uint32_t weights)
{
    return 0x1p23 - 0x1p20 * (double)weights;
}

/* The FP64 sums' taps from n paired integer taps w (zeros included) and
 * the centre's: wd[t] = w[t], *centre_d = centre, and *start the start
 * (f64_start) of exactly those weights, every pair's once and the
 * centre's, which the kernels' DFMAs then multiply. Host code. */
inline void f64_taps(const uint32_t *w, int n, uint32_t centre, double *wd, double *centre_d,
                     double *start)
{
    uint32_t weights = centre;
    for (int t = 0; t < n; t++) {
        wd[t] = w[t];
        weights += w[t];
    }
    *centre_d = centre;
    *start = f64_start(weights);
}

/* Whether the vertical sums of a plane of sample_bytes-byte samples
 * shifted up by shift bits run on the FP64 units: 16-bit samples of at
 * most kF64MaxDepth bits (16 - shift), on a current device of Hopper's
 * FP64 (cf_device_fast_fp64), unless the test hook
 * cf_blur_cuda_allow_fp64 turned them off. The methods ask per plane and
 * report what they launched (tile_run, sep_run). Host code
 * (blur_dispatch.cu); thread-safe. */
bool f64_sums(int sample_bytes, int shift);

} // namespace cf_blur_cuda

#endif
