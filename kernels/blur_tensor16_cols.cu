/* CUDA blur, tensor-core method for 16-bit planes (blur_cuda.cuh): the
 * columns pass, every multiply an int8 tensor-core product (mma.sync
 * m16n8k32, u8 x u8 into s32; compute capability 8.0 and later), from the
 * two-pass method's scratch plane of 32-bit intermediates, which the rows
 * pass (blur_tensor16.cu, or sep's) leaves there.
 *
 * Why: the two-pass method's columns pass spends one DFMA (P010 on
 * Hopper) or one 64-bit IMAD (GRAY16, I420_10LE, other GPUs) a pair of
 * taps and output; at 4K P010 sigma 64 that was about 0.5 of the frame's
 * 0.66 ms, past the rows pass on the tensor cores (bench/results/
 * 2026-12-04-h200-s27-17-tensor16.md). A tensor-core instruction makes
 * 4096 byte products; with the taps split into two bytes and the
 * intermediates into three, six products a tap give the vertical sum
 * exactly. With this pass the frame takes 0.36 ms, and a 4K GRAY16 plane
 * at radius 256 0.23 ms against the 64-bit integer sums' 0.56 (H200,
 * session 28: bench/results/2026-12-04-h200-s28-17-tensor16-cols.md).
 *
 * Arithmetic of blur.h split into bytes (every tap below 65536: w = 256 wh
 * + wl; every intermediate t below 2^24, t = 65536 t2 + 256 t1 + t0, since
 * t = (H + 2^7) >> 8 with H < 2^32):
 *   V = S0 + 2^8 S1 + 2^16 S2 + 2^24 S3,  q = (V + 2^23) >> 24,
 *   S0 = sum(wl t0), S1 = sum(wh t0) + sum(wl t1),
 *   S2 = sum(wh t1) + sum(wl t2), S3 = sum(wh t2).
 * Each sum is a product of a band (Toeplitz) matrix of tap bytes and the
 * staged intermediates' bytes, blur_tensor.cu's columns pass with a third
 * byte plane. Bounds: bytes are at most 255 and there are at most 1025
 * taps, so S1 and S2, two sums each, stay below 2^28 in s32; V < 2^40
 * (65536 taps' worth of weight times t < 2^24), combined in 64 bits: the
 * reference's integer.
 *
 * A block's tile is 32 samples by 128 rows (blur_tensor_mma.cuh's columns
 * shape): it stages the tile's samples of the rows from P = round4(R)
 * above it to P below, folded (a constant border's rows are the scratch
 * plane's row below the plane, border_value << 8), as three planes of
 * bytes (t0, t1, t2), word [r / 4][position] holding byte b of a sample
 * from rows 4 (r / 4) .. + 3 (a B fragment register); sample 8 j + g of
 * the tile at position 16 (j / 2) + 2 g + j % 2, so that lane g's words of
 * blocks j = 2 h and 2 h + 1 are one 8-byte load. Eight warps, stacked,
 * make 16 rows by 32 samples each, in two halves of two 8-sample blocks
 * (32 sums a half: the registers of three blocks an SM): per step of 32
 * staged rows the A fragments of both tap bytes, then six products for
 * each block. The staging is a transpose of 4 x 4 bytes a pair of
 * samples, from 32-bit words loaded through L1. */
#include <cuda_runtime.h>

#include <algorithm>

#include "blur_cuda.cuh"
#include "blur_tensor_mma.cuh" // the int8 products, tap planes, the columns tile

namespace {

/* Blocks an SM the kernel is built for: 3, at most 80 registers a thread
 * (CUDA 13.0's ptxas -v for sm_90: 79, none spilled; at 2 blocks it takes
 * 89). Rows pass and this one at 4K P010, radius 8 122 us against 130 at
 * 2 blocks, radius 64 158 against 171, 8K radius 32 502 against 539; equal
 * from radius 192 (H200, bench/diag/tensor16_cols_tune.cu, session 28:
 * bench/results/2026-12-04-h200-s28-17-tensor16-cols.md). */
constexpr int kCols16MinBlocks = 3;

/* Words of one staged byte plane, and shared bytes of a block: the
 * fragment table, the tap planes, three staged planes. */
__host__ __device__ constexpr int cols16_plane_words(int R)
{
    return col_staged_rows(R) / 4 * kColWords;
}
__host__ __device__ constexpr size_t cols16_shared(int R)
{
    return (size_t)col_steps(R) * 32 * 32 + taps_bytes(R) + 3 * (size_t)cols16_plane_words(R) * 4;
}

struct TensorCols16 {
    const uint32_t *tmp; // the scratch plane: sample s of row y at tmp[y * tmp_words + s]
    size_t tmp_words;    // words a scratch row; row `height` holds a constant border's intermediates
    uint8_t *dst;
    size_t dst_pitch;
    int samples, height, border, shift;
    int tiles_x, tiles;
    bool pairs; // dst rows 4-byte aligned: two samples a store
};

/* Stages the rows ys .. ys + 4 groups - 1 of the tile's samples x0 .. x0 +
 * 31 (header): item i is row group i / 16 and the samples n and n + 8, n
 * = 16 (i / 8 % 2) + i % 8, whose words go to positions 2 (n % 8) + 16 (n
 * / 16) and the one after it. Samples past the plane's end repeat its last
 * (their outputs are not stored). */
__device__ __forceinline__ void cols16_stage(const TensorCols16 &p, int x0, int ys, int groups,
                                             uint32_t *planes, int plane_words)
{
    const bool inside = ys >= 0 && ys + 4 * groups <= p.height;
    for (int i = threadIdx.x; i < groups * 16; i += kColThreads) {
        const int r4 = i >> 4, h = (i >> 3) & 1, g = i & 7, n = 16 * h + g;
        const int xa = min(x0 + n, p.samples - 1), xb = min(x0 + n + 8, p.samples - 1);
        uint32_t a[4], b[4];
#pragma unroll
        for (int r = 0; r < 4; r++) {
            int y = ys + 4 * r4 + r;
            if (!inside) {
                y = cf_border_index(y, p.height, p.border);
                if (y < 0)
                    y = p.height; // the constant border's row
            }
            const uint32_t *row = p.tmp + (size_t)y * p.tmp_words;
            a[r] = __ldg(row + xa);
            b[r] = __ldg(row + xb);
        }
        const uint4 ta = transpose_bytes(a), tb = transpose_bytes(b); // .x: bytes t0, .y t1, .z t2
        uint32_t *d = planes + r4 * kColWords + 16 * h + 2 * g;
        *reinterpret_cast<uint2 *>(d) = make_uint2(ta.x, tb.x);
        *reinterpret_cast<uint2 *>(d + plane_words) = make_uint2(ta.y, tb.y);
        *reinterpret_cast<uint2 *>(d + 2 * plane_words) = make_uint2(ta.z, tb.z);
    }
}

__global__ void __launch_bounds__(kColThreads, kCols16MinBlocks)
tensor_cols16(const __grid_constant__ TensorCols16 p, const __grid_constant__ cf_blur_kernel k)
{
    cf_pdl_begin();
    extern __shared__ __align__(16) uint8_t smem[];
    const int R = k.size / 2, P = round4(R), S = col_steps(R);
    const int groups = col_staged_rows(R) / 4, plane_words = cols16_plane_words(R);
    uint32_t *tab = reinterpret_cast<uint32_t *>(smem);
    uint32_t *w = tab + S * 32 * 8;
    uint32_t *planes = reinterpret_cast<uint32_t *>(reinterpret_cast<uint8_t *>(w) + taps_bytes(R));
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, g = lane >> 2, t = lane & 3;
    load_tap_bytes<kColThreads>(w, k);
    __syncthreads();
    cols_table<kColThreads>(tab, w, R); // read after the first tile's staging barrier
    const uint4 *tab4 = reinterpret_cast<const uint4 *>(tab);
    const int dx = gridDim.x % p.tiles_x, dy = gridDim.x / p.tiles_x;
    int tx = blockIdx.x % p.tiles_x, ty = blockIdx.x / p.tiles_x;
    for (int tile = blockIdx.x; tile < p.tiles; tile += gridDim.x, next_tile(tx, ty, dx, dy, p.tiles_x)) {
        const int x0 = tx * kColSamples, y0 = ty * kColRows;
        cols16_stage(p, x0, y0 - P, groups, planes, plane_words);
        __syncthreads();
        // Lane (g, t) of step s reads row groups 4 warp + 8 s + t (B rows
        // 4t ..) and 4 after it (rows 16 + 4t ..).
        const uint32_t *bp = planes + (4 * warp + t) * kColWords + 2 * g;
#pragma unroll 1
        for (int h = 0; h < 2; h++) {
            int s0[2][4] = {}, s1[2][4] = {}, s2[2][4] = {}, s3[2][4] = {};
            for (int s = 0; s < S; s++) {
                const uint4 l4 = tab4[(s * 32 + lane) * 2], h4 = tab4[(s * 32 + lane) * 2 + 1];
                const uint32_t *q = bp + 8 * s * kColWords + 16 * h;
                uint2 lo[3], hi[3]; // byte planes t0, t1, t2: groups r4 and r4 + 4
#pragma unroll
                for (int b = 0; b < 3; b++) {
                    lo[b] = *reinterpret_cast<const uint2 *>(q + b * plane_words);
                    hi[b] = *reinterpret_cast<const uint2 *>(q + b * plane_words + 4 * kColWords);
                }
                const uint32_t al[4] = { l4.x, l4.y, l4.z, l4.w }, ah[4] = { h4.x, h4.y, h4.z, h4.w };
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    const uint32_t b0[3] = { e ? lo[0].y : lo[0].x, e ? lo[1].y : lo[1].x, e ? lo[2].y : lo[2].x };
                    const uint32_t b1[3] = { e ? hi[0].y : hi[0].x, e ? hi[1].y : hi[1].x, e ? hi[2].y : hi[2].x };
                    mma_u8(s0[e], al, b0[0], b1[0]);
                    mma_u8(s1[e], ah, b0[0], b1[0]);
                    mma_u8(s1[e], al, b0[1], b1[1]);
                    mma_u8(s2[e], ah, b0[1], b1[1]);
                    mma_u8(s2[e], al, b0[2], b1[2]);
                    mma_u8(s3[e], ah, b0[2], b1[2]);
                }
            }
            // Block j = 2 h + e: sums (c0, c1) of row g, samples 2t and 2t
            // + 1 of the block, (c2, c3) of row g + 8.
#pragma unroll
            for (int e = 0; e < 2; e++) {
                const int x = x0 + 8 * (2 * h + e) + 2 * t;
#pragma unroll
                for (int r = 0; r < 2; r++) {
                    const int y = y0 + 16 * warp + g + 8 * r;
                    if (y >= p.height || x >= p.samples)
                        continue;
                    uint32_t v[2];
#pragma unroll
                    for (int c = 0; c < 2; c++) {
                        const int i = 2 * r + c;
                        const uint64_t V = (uint64_t)(uint32_t)s0[e][i] + ((uint64_t)(uint32_t)s1[e][i] << 8) +
                                           ((uint64_t)(uint32_t)s2[e][i] << 16) +
                                           ((uint64_t)(uint32_t)s3[e][i] << 24);
                        // Truncated to the sample's 16 bits, as blur.h's
                        // (T) cast does (kernels whose taps sum past 65536).
                        v[c] = ((uint32_t)((V + (1u << 23)) >> 24) << p.shift) & 0xffffu;
                    }
                    uint16_t *d = reinterpret_cast<uint16_t *>(p.dst + (size_t)y * p.dst_pitch) + x;
                    if (p.pairs && x + 1 < p.samples) {
                        *reinterpret_cast<uint32_t *>(d) = v[0] | v[1] << 16;
                    } else {
                        d[0] = (uint16_t)v[0];
                        if (x + 1 < p.samples)
                            d[1] = (uint16_t)v[1];
                    }
                }
            }
        }
        __syncthreads(); // the next tile's staging overwrites the planes
    }
}

} // namespace

namespace cf_blur_cuda {

size_t tensor16_cols_shared(int ry)
{
    return cols16_shared(ry);
}

cudaError_t tensor16_cols_run(const cf_blur_kernel &ky, const cf_blur_plane &pl, const void *tmp,
                              size_t tmp_pitch, cudaStream_t stream)
{
    const int samples = pl.width * pl.channels;
    if (pl.sample_bytes != 2 || pl.width < 1 || pl.height < 1 || (size_t)samples * 4 > tmp_pitch ||
        tmp_pitch % 4 != 0 || ky.size < 1 || ky.size > CF_BLUR_MAX_KSIZE || ky.size % 2 == 0)
        return cudaErrorInvalidValue;
    for (int i = 0; i < ky.size; i++)
        if (ky.w[i] > 0xffffu) // two bytes a tap
            return cudaErrorInvalidValue;
    TensorCols16 p = {};
    p.tmp = static_cast<const uint32_t *>(tmp);
    p.tmp_words = tmp_pitch / 4;
    p.dst = pl.dst;
    p.dst_pitch = pl.dst_pitch;
    p.samples = samples;
    p.height = pl.height;
    p.border = pl.border;
    p.shift = pl.shift;
    if (!cols_tiles(samples, pl.height, &p.tiles_x, &p.tiles))
        return cudaErrorInvalidValue;
    p.pairs = ((uintptr_t)pl.dst | pl.dst_pitch) % 4 == 0;
    return pass_launch<tensor_cols16>(p, ky, cols16_shared(ky.size / 2), stream);
}

} // namespace cf_blur_cuda
