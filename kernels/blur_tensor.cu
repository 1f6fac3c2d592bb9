/* CUDA blur, tensor-core method (blur_cuda.cuh): 8-bit planes of 1, 2 or 4
 * channels, kernels of any taps up to 1025 each way (the radii
 * independent), two passes through the scratch plane, every multiply an
 * int8 tensor-core product (mma.sync m16n8k32, u8 x u8 into s32; compute
 * capability 8.0 and later).
 *
 * Why: past radius 24 the register and two-pass methods spend one IMAD
 * (or DP2A) a tap pair; a tensor core makes 4096 byte products a warp
 * instruction. With the taps split into bytes the products are exact, so
 * the result is blur.h's to the bit. 4K GRAY8 radius 96 (sigma 32) takes
 * 86 us against the two-pass method's 196 and the register method's 220,
 * radius 192 126 against 344, 4K RGBA radius 48 208 against 522 and 535
 * (bench/diag/tensor_tune.cu, H200, session 23's second call,
 * bench/results/2026-12-03-h200-s23-17-tensor.md, which also says where
 * the time goes: about 50 us of a 4K GRAY8 frame's is there at any radius).
 *
 * Arithmetic of blur.h split into bytes (every tap below 65536: w = 256 wh
 * + wl; every intermediate t below 65536: t = 256 th + tl):
 *   rows:    H = 256 sum(wh p) + sum(wl p),  t = (H + 2^7) >> 8
 *   columns: V = sum(wl tl) + 256 (sum(wh tl) + sum(wl th)) + 65536
 *            sum(wh th),                      q = (V + 2^23) >> 24
 * Each sum is a matrix product: a band (Toeplitz) matrix of tap bytes by
 * the staged samples' bytes. Bounds: bytes are at most 255 and there are
 * at most 1025 taps, so every s32 sum stays below 2^28; H < 2^24 and V <
 * 2^32 (blur.h), so the unsigned combinations, exact modulo 2^32, are the
 * reference's integers.
 *
 * Fragments (PTX ISA, mma.m16n8k32 with .u8; lane = 4 g + t): A (16 x 32,
 * row major): a0 row g columns 4t..4t+3, a1 row g + 8, a2 and a3 the same
 * rows at columns 16 + 4t..; B (32 x 8): b0 rows 4t..4t+3 of column g, b1
 * rows 16 + 4t..; C (16 x 8): c0, c1 row g columns 2t, 2t + 1, c2, c3 row
 * g + 8. The band matrices' fragments depend only on an offset along the
 * band: each block builds a table of them in shared memory once, from two
 * planes of the taps' low and high bytes (a fragment word is 4 of their
 * bytes), and keeps it for every tile it makes (blocks loop over tiles).
 *
 * Rows pass (tensor_rows): a block's tile is 128 pixels of 32 / C rows;
 * it stages those rows' samples, channels apart (matrix row r C + c holds
 * channel c of row r), from P = R rounded up to 4 pixels left of the tile
 * (borders folded; a warp a row, 4 pixels a load where the row allows).
 * Eight warps, 4 across by 2 down, make 16 matrix rows by 32 pixels each:
 * per step of 32 staged columns one A fragment, and for each of its four
 * 8-pixel blocks two products (low and high tap bytes; past the band the
 * table's fragments are zeros). Intermediates go back through shared memory,
 * interleaved again, and leave in coalesced 16-byte stores.
 *
 * Columns pass (tensor_cols): a tile is 32 samples of 128 rows; it stages
 * the intermediate rows from P rows above it (folded; a constant border's
 * rows are border_value << 8; tiles whose rows all lie in the plane in
 * 16-byte loads, 8 samples of 4 rows a thread) as two planes of words,
 * word [r / 4][x]
 * holding byte 0 (plane 0) or 1 (plane 1) of rows r .. r + 3 of sample x:
 * a B fragment register is one word. Eight warps, stacked, make 16 rows by
 * 32 samples: per step of 32 staged rows the A fragments of both tap
 * bytes, then four products for each 8-sample block. */
#include <cuda_runtime.h>

#include <algorithm>

#include "blur_cuda.cuh"

namespace {

constexpr int kThreads = 256;          // 8 warps a block, both passes
constexpr int kRowPixels = 128;        // pixels of a rows tile
constexpr int kRowMatrixRows = 32;     // matrix rows of a rows tile: 32 / C image rows
constexpr int kColSamples = 32;        // samples of a columns tile
constexpr int kColRows = 128;          // rows of a columns tile
constexpr int kColWords = 40;          // words a staged row group: 32 samples, 8 mod 32

__host__ __device__ constexpr int round4(int r)
{
    return (r + 3) / 4 * 4;
}

/* Steps of 32 staged columns a rows warp makes for radius R (its 32 pixels
 * reach 2R + 31 + pad columns, pad = P - R), and the table entries: offset
 * d = 8 (e - 3) - pad along the band for entry e, e = 4 step - block + 3. */
__host__ __device__ constexpr int row_steps(int R)
{
    return (2 * R + 31 + (round4(R) - R)) / 32 + 1;
}
__host__ __device__ constexpr int row_entries(int R)
{
    return 4 * row_steps(R);
}
/* Staged bytes a matrix row: 4 warps across, 32 columns a step; the row
 * stride in words is 4 modulo 32, so the 8 rows x 4 words of an A
 * fragment's load hit 32 banks. */
__host__ __device__ constexpr int row_stage_bytes(int R)
{
    return 32 * row_steps(R) + 96;
}
__host__ __device__ constexpr int row_stride(int R)
{
    return (row_stage_bytes(R) / 4 + (36 - (row_stage_bytes(R) / 4) % 32) % 32) * 4;
}
/* The taps' bytes in shared memory, two planes (low bytes, high bytes) of
 * tap_plane_bytes(R): byte kTapMargin + i of a plane is tap i's, zero
 * outside 0 .. 2R. The margins hold every index a fragment table reads,
 * from -34 (rows pass) to at most 2R + 66 with the word after it. */
constexpr int kTapMargin = 64;
__host__ __device__ constexpr int tap_plane_bytes(int R)
{
    return (kTapMargin + 2 * R + 1 + 72 + 15) / 16 * 16;
}
__host__ __device__ constexpr int taps_bytes(int R)
{
    return 2 * tap_plane_bytes(R);
}
/* 16-bit intermediates a row of the rows pass's output tile for C
 * channels: 128 C and 8 more, so a row is 4 words modulo 32 and the 8
 * matrix rows of a fragment's store land on different banks. */
__host__ __device__ constexpr int row_out_stride(int C)
{
    return kRowPixels * C + 8;
}
/* Bytes of that tile, 32 / C rows, for any C: at most 32 (128 + 8) 16-bit
 * words. */
constexpr int kRowOutBytes = kRowMatrixRows * row_out_stride(1) * 2;
__host__ __device__ constexpr size_t rows_shared(int R)
{
    return (size_t)row_entries(R) * 32 * 16 + taps_bytes(R) + (size_t)kRowMatrixRows * row_stride(R) +
           kRowOutBytes;
}

/* Steps of 32 staged rows a columns warp makes (its 16 rows reach 2R + 15
 * + pad rows), and the staged rows of a tile (8 warps, 16 rows apart). */
__host__ __device__ constexpr int col_steps(int R)
{
    return (2 * R + 15 + (round4(R) - R)) / 32 + 1;
}
__host__ __device__ constexpr int col_staged_rows(int R)
{
    return 32 * col_steps(R) + 112;
}
__host__ __device__ constexpr size_t cols_shared(int R)
{
    return (size_t)col_steps(R) * 32 * 32 + taps_bytes(R) +
           2 * (size_t)(col_staged_rows(R) / 4) * kColWords * 4;
}

__device__ __forceinline__ void mma_u8(int (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                       uint32_t b1)
{
#if __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    __trap(); // tensor_run refuses such devices
#endif
}

/* Writes kernel k's tap bytes into the two planes at w (taps_bytes),
 * a word at a time, the margins zero. */
__device__ __forceinline__ void load_tap_bytes(uint32_t *w, const cf_blur_kernel &k)
{
    const int words = tap_plane_bytes(k.size / 2) / 4;
    for (int j = threadIdx.x; j < 2 * words; j += kThreads) {
        const int h = j >= words, i0 = 4 * (j - h * words) - kTapMargin;
        uint32_t v = 0;
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int i = i0 + b;
            const uint32_t t = (unsigned)i < (unsigned)k.size ? k.w[i] : 0u;
            v |= (t >> (8 * h) & 255u) << (8 * b);
        }
        w[j] = v;
    }
}
/* Byte `hi` (0: low, 1: high) of taps i0 .. i0 + 3 packed as a fragment
 * register, byte b from tap i0 + b (taps outside 0 .. 2R count 0): one
 * unaligned word of the plane, from the two aligned words it spans. */
__device__ __forceinline__ uint32_t tap_bytes(const uint32_t *w, int R, int i0, int hi)
{
    const int at = i0 + kTapMargin;
    const uint32_t *plane = w + hi * (tap_plane_bytes(R) / 4) + (at >> 2);
    return __funnelshift_r(plane[0], plane[1], 8 * (at & 3));
}

struct TensorRows {
    const uint8_t *src;
    size_t src_pitch;
    uint16_t *tmp;
    size_t tmp_pitch; // bytes
    int width, height, border;
    uint32_t border_value;
    int tiles_x, tiles;
    bool aligned; // src rows 4-byte aligned: interior words load whole
    bool wide;    // src rows 4C-byte aligned: 4 pixels load in one
};

/* Channel c of 4 pixels from their C words (pixels of C bytes). */
template <int C> __device__ __forceinline__ uint32_t channel_word(const uint32_t *v, int c)
{
    if constexpr (C == 1) {
        return v[0];
    } else if constexpr (C == 2) {
        return __byte_perm(v[0], v[1], c == 0 ? 0x6420 : 0x7531);
    } else {
        const uint32_t u = __byte_perm(v[0], v[1], c < 2 ? 0x5140 : 0x7362);
        const uint32_t x = __byte_perm(v[2], v[3], c < 2 ? 0x5140 : 0x7362);
        return __byte_perm(u, x, c % 2 == 0 ? 0x5410 : 0x7632);
    }
}

/* Four blocks an SM for 1-2 channels (at most 64 registers a thread;
 * CUDA 13.0's ptxas -v for sm_90: 60 and 62, none spilled); three for 4
 * channels (80; at 64 they spill). */
template <int C>
__global__ void __launch_bounds__(kThreads, C == 4 ? 3 : 4)
tensor_rows(const __grid_constant__ TensorRows p, const __grid_constant__ cf_blur_kernel k)
{
    cf_pdl_begin();
    constexpr int IMG_ROWS = kRowMatrixRows / C;
    extern __shared__ __align__(16) uint8_t smem[];
    const int R = k.size / 2, pad = round4(R) - R, P = R + pad, S = row_steps(R);
    const int stride = row_stride(R), words = row_stage_bytes(R) / 4;
    uint32_t *tab = reinterpret_cast<uint32_t *>(smem);
    uint32_t *w = tab + row_entries(R) * 32 * 4;
    uint8_t *stage = reinterpret_cast<uint8_t *>(w) + taps_bytes(R);
    uint16_t *out = reinterpret_cast<uint16_t *>(stage + kRowMatrixRows * stride);
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    load_tap_bytes(w, k);
    __syncthreads();
    // Entry e, lane (g, t), word q (b0 or b1 of the low or high bytes):
    // B[k][n] = w[d + k - n], rows k = 4t + 16 (q & 1) + byte.
    for (int i = tid; i < row_entries(R) * 32 * 4; i += kThreads) {
        const int q = i & 3, l = (i >> 2) & 31, e = i >> 7;
        const int d = 8 * (e - 3) - pad;
        tab[i] = tap_bytes(w, R, d + 16 * (q & 1) + 4 * (l & 3) - (l >> 2), q >> 1);
    }
    const int wx = warp & 3, wy = warp >> 2, g = lane >> 2, t = lane & 3;
    const uint8_t *a0p = stage + (16 * wy + g) * stride + 32 * wx + 4 * t;
    const uint8_t *a1p = a0p + 8 * stride;
    const uint4 *tab4 = reinterpret_cast<const uint4 *>(tab);
    const size_t tp = p.tmp_pitch / 2;
    const int samples = p.width * C;
    for (int tile = blockIdx.x; tile < p.tiles; tile += gridDim.x) {
        const int x0 = (tile % p.tiles_x) * kRowPixels, y0 = (tile / p.tiles_x) * IMG_ROWS;
        // Stage: word c4 of matrix row r C + c: channel c of pixels x0 - P
        // + 4 c4 .. + 3 of image row y0 + r (rows past the plane repeat its
        // last; their outputs are not stored).
        for (int r = warp; r < IMG_ROWS; r += kThreads / 32) {
            const uint8_t *row = p.src + (size_t)min(y0 + r, p.height - 1) * p.src_pitch;
            uint8_t *st = stage + r * C * stride;
            for (int c4 = lane; c4 < words; c4 += 32) {
                const int x = x0 - P + 4 * c4;
                uint32_t v[C];
                if (p.aligned && x >= 0 && x + 3 < p.width) {
                    if constexpr (C == 4) {
                        if (p.wide) {
                            const uint4 u = *reinterpret_cast<const uint4 *>(row + (size_t)x * C);
                            v[0] = u.x, v[1] = u.y, v[2] = u.z, v[3] = u.w;
                        } else {
#pragma unroll
                            for (int c = 0; c < C; c++)
                                v[c] = reinterpret_cast<const uint32_t *>(row + (size_t)x * C)[c];
                        }
                    } else if constexpr (C == 2) {
                        if (p.wide) {
                            const uint2 u = *reinterpret_cast<const uint2 *>(row + (size_t)x * C);
                            v[0] = u.x, v[1] = u.y;
                        } else {
#pragma unroll
                            for (int c = 0; c < C; c++)
                                v[c] = reinterpret_cast<const uint32_t *>(row + (size_t)x * C)[c];
                        }
                    } else {
                        v[0] = *reinterpret_cast<const uint32_t *>(row + x);
                    }
#pragma unroll
                    for (int c = 0; c < C; c++)
                        *reinterpret_cast<uint32_t *>(st + c * stride + 4 * c4) = channel_word<C>(v, c);
                } else {
#pragma unroll
                    for (int c = 0; c < C; c++) {
                        uint32_t s = 0;
                        for (int b = 0; b < 4; b++) {
                            const int sx = cf_border_index(x + b, p.width, p.border);
                            s |= (sx < 0 ? p.border_value : (uint32_t)row[(size_t)sx * C + c]) << (8 * b);
                        }
                        *reinterpret_cast<uint32_t *>(st + c * stride + 4 * c4) = s;
                    }
                }
            }
        }
        __syncthreads();
        // Every step makes all four blocks: where a block's band has ended
        // (the last step or two), its table entry is zeros, which add 0.
        // The step's loads all go first, so its products wait on one
        // shared-memory latency, not one each.
        int lo[4][4] = {}, hi[4][4] = {};
        for (int s = 0; s < S; s++) {
            const uint32_t a[4] = { *reinterpret_cast<const uint32_t *>(a0p + 32 * s),
                                    *reinterpret_cast<const uint32_t *>(a1p + 32 * s),
                                    *reinterpret_cast<const uint32_t *>(a0p + 32 * s + 16),
                                    *reinterpret_cast<const uint32_t *>(a1p + 32 * s + 16) };
            uint4 b[4];
#pragma unroll
            for (int j = 0; j < 4; j++) b[j] = tab4[(4 * s - j + 3) * 32 + lane];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                mma_u8(lo[j], a, b[j].x, b[j].y);
                mma_u8(hi[j], a, b[j].z, b[j].w);
            }
        }
        // Intermediates of matrix row m (image row m / C, channel m % C),
        // pixel n of the tile: out[m / C][n C + m % C] (one 32-bit store
        // for the two pixels of a register pair where C is 1).
        constexpr int OS = row_out_stride(C);
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int m = 16 * wy + g + 8 * h, n = 32 * wx + 8 * j + 2 * t;
                const uint32_t v0 =
                    ((uint32_t)hi[j][2 * h] * 256u + (uint32_t)lo[j][2 * h] + 128u) >> 8;
                const uint32_t v1 =
                    ((uint32_t)hi[j][2 * h + 1] * 256u + (uint32_t)lo[j][2 * h + 1] + 128u) >> 8;
                uint16_t *o = out + (m / C) * OS + n * C + m % C;
                if constexpr (C == 1) {
                    *reinterpret_cast<uint32_t *>(o) = v0 | v1 << 16;
                } else {
                    o[0] = (uint16_t)v0;
                    o[C] = (uint16_t)v1;
                }
            }
        __syncthreads();
        // Out: 8 intermediates a thread and store, whole where they fit.
        for (int i = tid; i < IMG_ROWS * kRowPixels * C / 8; i += kThreads) {
            const int r = i / (kRowPixels * C / 8), x8 = 8 * (i - r * (kRowPixels * C / 8));
            const int y = y0 + r, sx = x0 * C + x8;
            if (y >= p.height || sx >= samples)
                continue;
            const uint16_t *o = out + r * OS + x8;
            uint16_t *d = p.tmp + (size_t)y * tp + sx;
            if (sx + 8 <= samples)
                *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(o);
            else
                for (int e = 0; sx + e < samples; e++) d[e] = o[e];
        }
        // The next tile's staging writes `stage`, which every thread has
        // finished reading (the barrier above); its products go to `out`
        // after the barrier after that staging, which every thread reaches
        // once it has stored this tile.
    }
}

struct TensorCols {
    const uint16_t *tmp;
    size_t tmp_pitch; // bytes
    uint8_t *dst;
    size_t dst_pitch;
    int samples, height, border;
    uint32_t border_value;
    int tiles_x, tiles;
};

/* MinBlocks blocks an SM. At 2 the 48 sums, a step's 16 words of B
 * fragments and 8 of A stay in registers (CUDA 13.0's ptxas -v for sm_90:
 * 108, no spills); at 3 they get 80 and spill 8 bytes, and the third
 * block hides more of the staging: faster up to radius 40 (3 steps),
 * slower from 72 (tensor_run). */
template <int MinBlocks>
__global__ void __launch_bounds__(kThreads, MinBlocks)
tensor_cols(const __grid_constant__ TensorCols p, const __grid_constant__ cf_blur_kernel k)
{
    cf_pdl_begin();
    extern __shared__ __align__(16) uint8_t smem[];
    const int R = k.size / 2, pad = round4(R) - R, P = R + pad, S = col_steps(R);
    const int groups = col_staged_rows(R) / 4;
    uint32_t *tab = reinterpret_cast<uint32_t *>(smem);
    uint32_t *w = tab + S * 32 * 8;
    uint32_t *plane0 = reinterpret_cast<uint32_t *>(reinterpret_cast<uint8_t *>(w) + taps_bytes(R));
    uint32_t *plane1 = plane0 + groups * kColWords;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    load_tap_bytes(w, k);
    __syncthreads();
    // Step s, lane (g, t), register q of the low (h = 0) or high bytes:
    // A[m][k] = w[32 s - pad + k - m], row m = g + 8 (q & 1), columns k =
    // 4t + 16 (q >> 1) + byte.
    for (int i = tid; i < S * 32 * 8; i += kThreads) {
        const int q = i & 3, h = (i >> 2) & 1, l = (i >> 3) & 31, s = i >> 8;
        const int m = (l >> 2) + 8 * (q & 1), kc = 4 * (l & 3) + 16 * (q >> 1);
        tab[i] = tap_bytes(w, R, 32 * s - pad + kc - m, h);
    }
    const uint4 *tab4 = reinterpret_cast<const uint4 *>(tab);
    const int g = lane >> 2, t = lane & 3;
    const size_t tp = p.tmp_pitch / 2;
    const uint32_t flat = p.border_value << 8 | p.border_value << 24; // a constant row's pair
    for (int tile = blockIdx.x; tile < p.tiles; tile += gridDim.x) {
        const int x0 = (tile % p.tiles_x) * kColSamples, y0 = (tile / p.tiles_x) * kColRows;
        // Stage: rows 4 r4 .. + 3 (image rows y0 - P + ...) of the tile's
        // samples as the two bytes' words of each sample (samples past the
        // row read the scratch row's padding).
        if (y0 - P >= 0 && y0 - P + 4 * groups <= p.height) {
            // Every staged row inside the plane: 8 samples of 4 rows a
            // thread, 16-byte loads (the scratch plane's rows are 16-byte
            // aligned: tensor_run), no folding.
            const uint16_t *base = p.tmp + (size_t)(y0 - P) * tp + x0;
            for (int i = tid; i < groups * 4; i += kThreads) {
                const int r4 = i >> 2, c8 = i & 3;
                const uint16_t *src = base + (size_t)(4 * r4) * tp + 8 * c8;
                uint4 q4[4];
#pragma unroll
                for (int r = 0; r < 4; r++) q4[r] = *reinterpret_cast<const uint4 *>(src + r * tp);
                uint32_t o0[8], o1[8];
#pragma unroll
                for (int k2 = 0; k2 < 4; k2++) {
                    uint32_t q[4];
#pragma unroll
                    for (int r = 0; r < 4; r++)
                        q[r] = k2 == 0 ? q4[r].x : k2 == 1 ? q4[r].y : k2 == 2 ? q4[r].z : q4[r].w;
                    const uint32_t u0 = __byte_perm(q[0], q[1], 0x6240), v0 = __byte_perm(q[2], q[3], 0x6240);
                    const uint32_t u1 = __byte_perm(q[0], q[1], 0x7351), v1 = __byte_perm(q[2], q[3], 0x7351);
                    o0[2 * k2] = __byte_perm(u0, v0, 0x5410), o0[2 * k2 + 1] = __byte_perm(u0, v0, 0x7632);
                    o1[2 * k2] = __byte_perm(u1, v1, 0x5410), o1[2 * k2 + 1] = __byte_perm(u1, v1, 0x7632);
                }
                uint4 *d0 = reinterpret_cast<uint4 *>(plane0 + r4 * kColWords + 8 * c8);
                uint4 *d1 = reinterpret_cast<uint4 *>(plane1 + r4 * kColWords + 8 * c8);
                d0[0] = make_uint4(o0[0], o0[1], o0[2], o0[3]);
                d0[1] = make_uint4(o0[4], o0[5], o0[6], o0[7]);
                d1[0] = make_uint4(o1[0], o1[1], o1[2], o1[3]);
                d1[1] = make_uint4(o1[4], o1[5], o1[6], o1[7]);
            }
        } else {
            // Rows folded: samples x0 + 2 cp, + 1 of 4 rows a thread, four
            // words in.
            for (int i = tid; i < groups * 16; i += kThreads) {
                const int r4 = i >> 4, cp = i & 15;
                uint32_t q[4];
#pragma unroll
                for (int r = 0; r < 4; r++) {
                    const int sy = cf_border_index(y0 - P + 4 * r4 + r, p.height, p.border);
                    q[r] = sy < 0 ? flat
                                  : *reinterpret_cast<const uint32_t *>(p.tmp + (size_t)sy * tp + x0 + 2 * cp);
                }
                const uint32_t u0 = __byte_perm(q[0], q[1], 0x6240), v0 = __byte_perm(q[2], q[3], 0x6240);
                const uint32_t u1 = __byte_perm(q[0], q[1], 0x7351), v1 = __byte_perm(q[2], q[3], 0x7351);
                *reinterpret_cast<uint2 *>(plane0 + r4 * kColWords + 2 * cp) =
                    make_uint2(__byte_perm(u0, v0, 0x5410), __byte_perm(u0, v0, 0x7632));
                *reinterpret_cast<uint2 *>(plane1 + r4 * kColWords + 2 * cp) =
                    make_uint2(__byte_perm(u1, v1, 0x5410), __byte_perm(u1, v1, 0x7632));
            }
        }
        __syncthreads();
        // The step's loads all go first (16 words of B fragments, two of A),
        // so its 16 products wait on one shared-memory latency.
        int s00[4][4] = {}, s01[4][4] = {}, s11[4][4] = {}; // wl tl, wh tl + wl th, wh th
        for (int s = 0; s < S; s++) {
            const uint4 l4 = tab4[(s * 32 + lane) * 2], h4 = tab4[(s * 32 + lane) * 2 + 1];
            const int r4 = 4 * warp + 8 * s + t; // staged rows 16 warp + 32 s + 4t ..
            uint32_t b[4][4];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int c = 8 * j + g;
                b[j][0] = plane0[r4 * kColWords + c];
                b[j][1] = plane0[(r4 + 4) * kColWords + c];
                b[j][2] = plane1[r4 * kColWords + c];
                b[j][3] = plane1[(r4 + 4) * kColWords + c];
            }
            const uint32_t al[4] = { l4.x, l4.y, l4.z, l4.w }, ah[4] = { h4.x, h4.y, h4.z, h4.w };
#pragma unroll
            for (int j = 0; j < 4; j++) {
                mma_u8(s00[j], al, b[j][0], b[j][1]);
                mma_u8(s01[j], ah, b[j][0], b[j][1]);
                mma_u8(s11[j], ah, b[j][2], b[j][3]);
                mma_u8(s01[j], al, b[j][2], b[j][3]);
            }
        }
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const int x = x0 + 8 * j + 2 * t;
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int y = y0 + 16 * warp + g + 8 * h;
                if (y >= p.height || x >= p.samples)
                    continue;
                uint32_t q[2];
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    const int i = 2 * h + e;
                    const uint32_t V = (uint32_t)s00[j][i] + ((uint32_t)s01[j][i] << 8) +
                                       ((uint32_t)s11[j][i] << 16);
                    q[e] = (V + (1u << 23)) >> 24;
                }
                uint8_t *d = p.dst + (size_t)y * p.dst_pitch + x;
                if (x + 1 < p.samples && ((uintptr_t)d & 1) == 0) {
                    *reinterpret_cast<uint16_t *>(d) = (uint16_t)(q[0] | q[1] << 8);
                } else {
                    d[0] = (uint8_t)q[0];
                    if (x + 1 < p.samples)
                        d[1] = (uint8_t)q[1];
                }
            }
        }
        __syncthreads(); // the next tile's staging rewrites the planes
    }
}

/* Blocks of a launch of Kernel: every SM full (the blocks loop over the
 * tiles), no more than the tiles; 0 with *err set if the device cannot be
 * asked. */
template <auto Kernel> unsigned grid_for(size_t shared, int tiles, cudaError_t *err)
{
    int device = 0, sms = 0, major = 0, per_sm = 0;
    *err = cudaGetDevice(&device);
    if (*err == cudaSuccess)
        *err = cf_device_facts(device, &sms, &major);
    if (*err == cudaSuccess)
        *err = cf_occupancy<Kernel>(device, kThreads, shared, &per_sm);
    if (*err != cudaSuccess)
        return 0;
    return (unsigned)std::min<long long>(tiles, (long long)sms * std::max(per_sm, 1));
}

/* Queues the columns pass of one plane: tensor_cols with 3 blocks an SM
 * for vertical radii up to 40, else 2. 4K frames, harness, us (H200,
 * bench/results/2026-12-03-h200-s23-17-tensor.md, call 3): RGBA radius 6
 * 157 against 179, 24 168 against 188, 36 184 against 201; 8K GRAY8
 * radius 36 201 against 213; but 4K GRAY8 radius 96 97 against 85 and
 * RGBA radius 144 402 against 348. */
template <int MinBlocks>
cudaError_t cols_launch(const TensorCols &p, const cf_blur_kernel &ky, size_t shared,
                        cudaStream_t stream)
{
    cudaError_t err = cf_blur_cuda::allow_shared<tensor_cols<MinBlocks>>(shared);
    if (err != cudaSuccess)
        return err;
    const unsigned grid = grid_for<tensor_cols<MinBlocks>>(shared, p.tiles, &err);
    if (grid == 0)
        return err;
    return cf_launch(tensor_cols<MinBlocks>, dim3(grid), dim3(kThreads), shared, stream, p, ky);
}
constexpr int kColsThreeBlocksMaxR = 40;

template <int C>
cudaError_t rows_plane(const cf_blur_kernel &kx, const cf_blur_plane &pl, void *tmp,
                       size_t tmp_pitch, cudaStream_t stream)
{
    const size_t shared = rows_shared(kx.size / 2);
    cudaError_t err = cf_blur_cuda::allow_shared<tensor_rows<C>>(shared);
    if (err != cudaSuccess)
        return err;
    TensorRows p = {};
    p.src = pl.src;
    p.src_pitch = pl.src_pitch;
    p.tmp = static_cast<uint16_t *>(tmp);
    p.tmp_pitch = tmp_pitch;
    p.width = pl.width;
    p.height = pl.height;
    p.border = pl.border;
    p.border_value = pl.border_value;
    p.tiles_x = (pl.width + kRowPixels - 1) / kRowPixels;
    const long long tiles = (long long)p.tiles_x * ((pl.height + kRowMatrixRows / C - 1) / (kRowMatrixRows / C));
    if (tiles > INT_MAX)
        return cudaErrorInvalidValue;
    p.tiles = (int)tiles;
    p.aligned = ((uintptr_t)pl.src | pl.src_pitch) % 4 == 0;
    p.wide = ((uintptr_t)pl.src | pl.src_pitch) % (4 * C) == 0;
    const unsigned grid = grid_for<tensor_rows<C>>(shared, p.tiles, &err);
    if (grid == 0)
        return err;
    return cf_launch(tensor_rows<C>, dim3(grid), dim3(kThreads), shared, stream, p, kx);
}

} // namespace

namespace cf_blur_cuda {

size_t tensor_shared(int rx, int ry)
{
    return std::max(rows_shared(rx), cols_shared(ry));
}

bool tensor_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
                  int n_planes, int shared_limit)
{
    for (const cf_blur_kernel *k : { &kx, &ky }) {
        if (k->size < 1 || k->size > CF_BLUR_MAX_KSIZE || k->size % 2 == 0)
            return false;
        for (int i = 0; i < k->size; i++)
            if (k->w[i] > 0xffffu) // the one-tap identity: two bytes do not hold 65536
                return false;
    }
    // Every GPU of compute capability 8.0 or later lets a block have at
    // least 99 KiB of shared memory; sm_75, the oldest built, 64 KiB.
    if (shared_limit < 99 * 1024 || tensor_shared(kx.size / 2, ky.size / 2) > (size_t)shared_limit)
        return false;
    for (int i = 0; i < n_planes; i++)
        if (planes[i].sample_bytes != 1 || planes[i].shift != 0 ||
            (planes[i].channels != 1 && planes[i].channels != 2 && planes[i].channels != 4))
            return false;
    return true;
}

cudaError_t tensor_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                       const cf_blur_plane *planes, int n_planes, void *tmp, size_t tmp_pitch,
                       cudaStream_t stream)
{
    int device = 0, sms = 0, major = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cf_device_facts(device, &sms, &major);
    if (err != cudaSuccess)
        return err;
    if (major < 8)
        return cudaErrorNotSupported;
    if ((uintptr_t)tmp % 16 != 0 || tmp_pitch % 16 != 0)
        return cudaErrorInvalidValue;
    const size_t cshared = cols_shared(ky.size / 2);
    for (int i = 0; i < n_planes; i++) {
        const cf_blur_plane &pl = planes[i];
        if (pl.width < 1 || pl.height < 1)
            continue;
        // The columns pass reads pairs of intermediates up to the tile's
        // 32 samples: the scratch rows must hold them (blur_filter.c's hold
        // 32-bit intermediates).
        const int samples = pl.width * pl.channels;
        if ((size_t)(samples + kColSamples) * 2 > tmp_pitch)
            return cudaErrorInvalidValue;
        err = pl.channels == 1 ? rows_plane<1>(kx, pl, tmp, tmp_pitch, stream)
              : pl.channels == 2 ? rows_plane<2>(kx, pl, tmp, tmp_pitch, stream)
                                 : rows_plane<4>(kx, pl, tmp, tmp_pitch, stream);
        if (err != cudaSuccess)
            return err;
        TensorCols p = {};
        p.tmp = static_cast<const uint16_t *>(tmp);
        p.tmp_pitch = tmp_pitch;
        p.dst = pl.dst;
        p.dst_pitch = pl.dst_pitch;
        p.samples = samples;
        p.height = pl.height;
        p.border = pl.border;
        p.border_value = pl.border_value;
        p.tiles_x = (samples + kColSamples - 1) / kColSamples;
        const long long tiles = (long long)p.tiles_x * ((pl.height + kColRows - 1) / kColRows);
        if (tiles > INT_MAX)
            return cudaErrorInvalidValue;
        p.tiles = (int)tiles;
        err = ky.size / 2 <= kColsThreeBlocksMaxR ? cols_launch<3>(p, ky, cshared, stream)
                                                  : cols_launch<2>(p, ky, cshared, stream);
        if (err != cudaSuccess)
            return err;
    }
    return cudaSuccess;
}

} // namespace cf_blur_cuda
