/* CUDA blur, two-pass method (blur_sep.cu): the rows pass for 8-bit
 * planes, two taps per DP2A instruction.
 *
 * sep_rows pairs the symmetric taps: one IMAD and one add per two taps, the
 * two instructions an issue slot each, and a shared-memory load per tap
 * pair and output group besides. Here a DP2A multiplies two neighbouring
 * samples by two neighbouring taps and adds both products to the sum (16-
 * bit taps, 8-bit samples: every tap below 65536, a kernel of more than one
 * tap), so two taps cost one instruction, and the samples come four to a
 * 32-bit load.
 *
 * A block takes a segment of kOut * G pixels of one row (as sep_rows) and
 * stages it plus R on each side (borders folded) as bytes, one array per
 * channel, zeros after it. Thread l of channel c makes outputs 8l .. 8l + 7
 * (staged byte 8l + o + t weighs tap t): per chunk of kChunk tap pairs it
 * loads six words of the array, from word 2l, and makes their copies
 * shifted by one byte (the odd outputs' pairs straddle a 16-bit half);
 * output o's pair m is then a 16-bit half of one of the twelve. Lanes of
 * a warp read words two apart, a two-way bank conflict, which the DP2As
 * (64 a chunk and thread) leave room for. Sums start at 2^7, the rounding
 * of cf_blur_round_h; 65535 * 255 summed over taps of sum 65536 stays
 * below 2^32 (blur.h), so they are the reference's integers. Outputs go
 * through shared memory and leave in coalesced rows. */
#ifndef CUDAFILTERS_KERNELS_BLUR_SEP_ROWS8_CUH
#define CUDAFILTERS_KERNELS_BLUR_SEP_ROWS8_CUH

#include <cstdint>

#include "blur_cuda.cuh"

// Only blur_sep.cu includes this file, after its constants, constant_row
// and stage_row: what it declares lies in that file's unnamed namespace,
// as if written there.
namespace {

constexpr int kMaxDpPairs = ((CF_BLUR_MAX_KSIZE + 1) / 2 + kChunk - 1) / kChunk * kChunk;

/* Horizontal taps for DP2A: wp[m] = w[2m] | w[2m + 1] << 16 (w[2R + 1]
 * = 0) for the R + 1 pairs m, zeros up to chunks * kChunk. */
struct SepPairTaps {
    int r, chunks;
    uint32_t wp[kMaxDpPairs];
};

/* Whether DP2A can carry kernel k's taps: all below 65536, which fails
 * only where the centre holds the whole weight. */
bool dp2a_taps(const cf_blur_kernel &k)
{
    for (int t = 0; t < k.size; t++)
        if (k.w[t] > 0xffffu)
            return false;
    return true;
}

SepPairTaps make_pair_taps(const cf_blur_kernel &k)
{
    SepPairTaps t = {};
    t.r = k.size / 2;
    t.chunks = (t.r + 1 + kChunk - 1) / kChunk;
    for (int i = 0; i < k.size; i++) t.wp[i / 2] |= k.w[i] << (16 * (i % 2));
    return t;
}

/* Bytes of one channel's staged array of a block: the segment, R each
 * side, and what the last chunk's loads reach past it (zeros), in whole
 * 16-byte units. */
__host__ __device__ constexpr int rows8_array_bytes(int C, int chunks)
{
    return (kOut * rows_lanes(C) + 2 * kChunk * chunks + 24 + 15) / 16 * 16;
}
/* Shared memory of a block: the C staged arrays, then C rows of 16-bit
 * outputs. */
__host__ __device__ constexpr int rows8_shared_bytes(int C, int chunks)
{
    return C * rows8_array_bytes(C, chunks) + C * kOut * rows_lanes(C) * 2;
}

template <int C>
__global__ void __launch_bounds__(256, 3)
sep_rows8(const uint8_t *__restrict__ src, size_t src_pitch, uint16_t *__restrict__ tmp,
          size_t tmp_pitch, int width, int height, int border, uint32_t border_value, int shift,
          const __grid_constant__ SepPairTaps taps)
{
    cf_pdl_begin();
    extern __shared__ __align__(16) uint8_t smem[];
    constexpr int G = rows_lanes(C), SEG = kOut * G;
    const int R = taps.r, tid = threadIdx.x;
    const int n_staged = SEG + 2 * R; // pixels x0 - R .. x0 + SEG + R - 1
    const int array_bytes = rows8_array_bytes(C, taps.chunks);
    uint16_t *outs = reinterpret_cast<uint16_t *>(smem + C * array_bytes);
    const int x0 = blockIdx.x * SEG;
    const int samples = width * C;
    const size_t tp = tmp_pitch / sizeof(uint16_t);
    if (border == CF_BORDER_CONSTANT && blockIdx.y == 0)
        constant_row(tmp + (size_t)height * tp, x0 * C, SEG * C, samples, G * C, border_value);
    // The zeros after each staged array, which no row overwrites.
    for (int k = tid; k < C * (array_bytes - n_staged); k += G * C) {
        const int ch = k / (array_bytes - n_staged), i = k - ch * (array_bytes - n_staged);
        smem[ch * array_bytes + n_staged + i] = 0;
    }
    const int c = tid / G, l = tid - c * G; // this thread: channel c, pixels x0 + 8l ..
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const uint8_t *s = src + (size_t)y * src_pitch;
        stage_row<C>(s, x0 - R, n_staged, width, border, border_value, shift, G * C,
                     [&](int i, int ch, uint32_t v) { smem[ch * array_bytes + i] = (uint8_t)v; });
        __syncthreads();
        if (c < C) {
            const uint32_t *f = reinterpret_cast<const uint32_t *>(smem + c * array_bytes) + 2 * l;
            uint32_t acc[kOut];
#pragma unroll
            for (int o = 0; o < kOut; o++) acc[o] = 1u << 7;
            for (int q = 0; q < taps.chunks; q++) {
                // Pairs m = kChunk q + j: taps 2m, 2m + 1 on staged bytes
                // 8l + o + 2m (+1), that is relative byte o + 2j of
                // a[], whose word 0 is word 2l + 4q of the array.
                uint32_t a[6], h[6];
#pragma unroll
                for (int k = 0; k < 6; k++) a[k] = f[4 * q + k];
#pragma unroll
                for (int k = 0; k < 6; k++)
                    h[k] = __funnelshift_r(a[k], k < 5 ? a[k + 1] : 0u, 8); // bytes k*4 + 1 ..
#pragma unroll
                for (int j = 0; j < kChunk; j++) {
                    const uint32_t w = taps.wp[kChunk * q + j];
#pragma unroll
                    for (int o = 0; o < kOut; o++) {
                        const int b = o + 2 * j; // first byte of the pair
                        const uint32_t word = b % 2 == 0 ? a[b / 4] : h[b / 4];
                        acc[o] = (b % 4) / 2 == 0 ? __dp2a_lo(w, word, acc[o])
                                                  : __dp2a_hi(w, word, acc[o]);
                    }
                }
            }
            // Outputs 8l .. 8l + 7 of channel c, as cf_blur_round_h leaves them.
            uint4 q;
            q.x = (acc[0] >> 8) | (acc[1] >> 8) << 16;
            q.y = (acc[2] >> 8) | (acc[3] >> 8) << 16;
            q.z = (acc[4] >> 8) | (acc[5] >> 8) << 16;
            q.w = (acc[6] >> 8) | (acc[7] >> 8) << 16;
            *reinterpret_cast<uint4 *>(outs + c * SEG + kOut * l) = q;
        }
        __syncthreads();
        uint16_t *out = tmp + (size_t)y * tp + (size_t)x0 * C;
        for (int k = tid; k < SEG * C; k += G * C) {
            const int i = k / C, ch = k - i * C;
            if (x0 * C + k < samples)
                out[k] = outs[ch * SEG + i];
        }
        // The next row's staging writes only the arrays, which every thread
        // has finished reading (the barrier above); its outputs go to
        // `outs` after the barrier after that staging, which every thread
        // reaches once it has written this row out.
    }
}

} // namespace

#endif
