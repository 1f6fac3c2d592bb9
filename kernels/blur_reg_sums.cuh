/* CUDA blur, register-window method (blur_reg.cu): a thread's vertical
 * sums from a window of intermediates, plain and with the symmetric taps
 * paired, and the picking of result bytes out of them. */
#ifndef CUDAFILTERS_KERNELS_BLUR_REG_SUMS_CUH
#define CUDAFILTERS_KERNELS_BLUR_REG_SUMS_CUH

#include <cstdint>

#include "blur_reg_shape.cuh"

// Only blur_reg.cu includes this file: what it declares lies in that
// file's unnamed namespace, as if written there.
namespace {

/* One thread's vertical sums: ROWS_V output rows of N values each from the
 * ROWS_V + K - 1 rows of intermediates that load(j, v) puts into v[0..N),
 * output row o taking rows o .. o + K - 1, one IMAD a tap. Sums start at
 * 2^23, the rounding of cf_blur_round_v: 8-bit samples keep the sum below
 * 2^32 (blur.h), and the result is its top byte. */
template <int ROWS_V, int N, int K, typename Load>
__device__ __forceinline__ void vertical_sums(uint32_t (&acc)[ROWS_V][N], const RegTaps &taps,
                                              Load load)
{
#pragma unroll
    for (int o = 0; o < ROWS_V; o++)
#pragma unroll
        for (int k = 0; k < N; k++) acc[o][k] = 1u << 23;
#pragma unroll
    for (int j = 0; j < ROWS_V + K - 1; j++) {
        uint32_t v[N];
        load(j, v);
#pragma unroll
        for (int o = 0; o < ROWS_V; o++)
#pragma unroll
            for (int k = 0; k < N; k++)
                if (j - o >= 0 && j - o < K) acc[o][k] += taps.v[j - o] * v[k];
    }
}

/* vertical_sums for symmetric vertical taps (v[t] == v[K-1-t], K = 2R +
 * 1): output o sums v[t] * (row o + t + row o + K - 1 - t) over the R
 * pairs, plus v[R] * row o + R: one add and one IMAD a pair of taps. The
 * rows come through two windows of ROWS_V rows held in registers, one
 * sliding down from the top row, one up from the bottom (each step loads
 * one row into each); the sums are the very integers of vertical_sums
 * (the true sums are below 2^32, blur.h). */
template <int ROWS_V, int N, int R, typename Load>
__device__ __forceinline__ void vertical_sums_paired(uint32_t (&acc)[ROWS_V][N],
                                                     const RegTaps &taps, Load load)
{
    constexpr int K = 2 * R + 1;
    uint32_t top[ROWS_V][N], bot[ROWS_V][N]; // rows t + i, K - 1 - t + i
#pragma unroll
    for (int o = 0; o < ROWS_V; o++) {
        load(o, top[o]);
        load(K - 1 + o, bot[o]);
#pragma unroll
        for (int k = 0; k < N; k++) acc[o][k] = 1u << 23;
    }
#pragma unroll
    for (int t = 0; t < R; t++) {
        const uint32_t w = taps.v[t];
#pragma unroll
        for (int o = 0; o < ROWS_V; o++)
#pragma unroll
            for (int k = 0; k < N; k++) acc[o][k] += w * (top[o][k] + bot[o][k]);
        // Slide: the top window one row down, the bottom one up.
#pragma unroll
        for (int o = 0; o + 1 < ROWS_V; o++)
#pragma unroll
            for (int k = 0; k < N; k++) top[o][k] = top[o + 1][k];
        load(t + ROWS_V, top[ROWS_V - 1]);
        if (t + 1 < R) {
#pragma unroll
            for (int o = ROWS_V - 1; o > 0; o--)
#pragma unroll
                for (int k = 0; k < N; k++) bot[o][k] = bot[o - 1][k];
            load(K - 2 - t, bot[0]);
        }
    }
#pragma unroll
    for (int o = 0; o < ROWS_V; o++)
#pragma unroll
        for (int k = 0; k < N; k++) acc[o][k] += taps.v[R] * top[o][k];
}

/* The top bytes of N (2 or 4) vertical sums, little-endian: N 8-bit
 * results in one word. */
template <int N>
__device__ __forceinline__ uint32_t top_bytes(const uint32_t *a)
{
    const uint32_t lo = __byte_perm(a[0], a[1], 0x0073);
    return N == 2 ? lo : __byte_perm(lo, __byte_perm(a[2 % N], a[3 % N], 0x0073), 0x5410);
}

} // namespace

#endif
