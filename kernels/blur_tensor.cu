/* CUDA blur, tensor-core method (blur_cuda.cuh): 8-bit planes of 1, 2 or 4
 * channels, kernels of any taps up to 1025 each way (the radii
 * independent), two passes through the scratch plane, every multiply an
 * int8 tensor-core product (mma.sync m16n8k32, u8 x u8 into s32; compute
 * capability 8.0 and later). 16-bit planes of 1 or 2 channels: the rows
 * pass on the tensor cores too (blur_tensor16.cu), the columns pass there
 * (blur_tensor16_cols.cu) or the two-pass method's (tensor_run).
 *
 * Why: past radius 24 the register and two-pass methods spend one IMAD
 * (or DP2A) a tap pair; a tensor core makes 4096 byte products a warp
 * instruction. With the taps split into bytes the products are exact, so
 * the result is blur.h's to the bit. 4K GRAY8 radius 96 (sigma 32) takes
 * 82 us against the two-pass method's 195 and the register method's 219,
 * radius 192 120 against 344, 4K RGBA radius 48 202 against 521 and 534
 * (bench/diag/tensor_tune.cu, H200, session 24's second call,
 * bench/results/2026-12-03-h200-s24-17-tensor.md; where the time goes:
 * bench/results/2026-12-03-h200-s23-17-tensor.md, about 50 us of a 4K
 * GRAY8 frame's is there at any radius).
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
 * The scratch plane, between the passes, holds the intermediates in the
 * columns pass's layout: row groups of 4 rows (group G: rows 4G .. 4G + 3;
 * ceil(height / 4) of them, 2 words a position apart), each a row of
 * positions (samples rounded up to 32; sample 8 j + g of each aligned
 * block of 32 at position 4 g + j: scratch_position), in
 * chunks of 4 positions: their 4 words of low bytes, then their 4 of high
 * bytes, byte r of a word from row 4G + r.
 *
 * Rows pass (tensor_rows): a block's tile is 128 pixels of 32 / C rows;
 * it stages those rows' samples, channels apart (matrix row r C + c holds
 * channel c of row r), from P = R rounded up to 4 pixels left of the tile
 * (borders folded; a warp a row, 4 pixels a load where the row allows).
 * Eight warps, 4 across by 2 down, make 16 matrix rows by 32 pixels each:
 * per step of 32 staged columns one A fragment, and for each of its four
 * 8-pixel blocks two products (low and high tap bytes; past the band the
 * table's fragments are zeros). Intermediates go to an out tile in shared
 * memory at their scratch positions, and leave as its row groups' 32-byte
 * chunks (two 16-byte stores a thread).
 *
 * Columns pass (tensor_cols): a tile is 32 samples of 128 rows; it stages
 * the row groups from P rows above it as two planes of words (the chunks'
 * low and high halves), word [r / 4][position]: a B fragment register is
 * one word, and lane g's four (one per 8-sample block) are adjacent.
 * Tiles whose rows all lie inside the plane are plain copies (cp.async,
 * the next tile's while this one's products are made where two buffers
 * fit); tiles with staged rows outside the plane (the first and last
 * tile rows, more past radius 124) fold theirs row by row (a constant
 * border's rows are border_value << 8). Eight warps, stacked, make 16 rows
 * by 32 samples: per step of 32 staged rows the A fragments of both tap
 * bytes, then four products for each 8-sample block. */
#include <cuda_runtime.h>

#include <algorithm>

#include "blur_cuda.cuh"
#include "blur_tensor_mma.cuh" // the int8 products, tap planes, the rows tile

namespace {

constexpr int kColMinBlocks = 2;       // columns blocks an SM (tensor_cols)

/* 16-bit intermediates a row of the rows pass's output tile for C
 * channels: 128 C and a pad that, with the chunks of a row swizzled by
 * its index (out_slot), keeps the epilogue's 16-bit stores at most
 * 2-way bank-conflicted for 1 channel and conflict-free for 2 and 4 (found
 * by enumerating the stores' banks for pads 0 .. 60); a multiple of 4, so
 * a chunk of 4 intermediates loads in 8 bytes. */
__host__ __device__ constexpr int row_out_stride(int C)
{
    return kRowPixels * C + (C == 1 ? 8 : C == 2 ? 32 : 16);
}
/* Bytes of that tile, 32 / C rows, for C channels and for any C. */
__host__ __device__ constexpr int row_out_bytes(int C)
{
    return kRowMatrixRows / C * row_out_stride(C) * 2;
}
constexpr int kRowOutBytes = std::max({ row_out_bytes(1), row_out_bytes(2), row_out_bytes(4) });

/* The scratch plane in the columns pass's layout (see the header): the
 * position of sample s of a row group, a permutation within each aligned
 * block of 32 (sample 8 j + g at 4 g + j, so that a columns lane g loads
 * its four 8-sample blocks' B words in one 16-byte load). */
__host__ __device__ constexpr int scratch_position(int s)
{
    return (s & ~31) | 4 * (s & 7) | (s & 31) >> 3;
}
/* Where the rows pass's output tile keeps position pos of tile row r: the
 * 4-position chunk within its 32-block swizzled by r & 3 (bank conflicts,
 * row_out_stride). */
__host__ __device__ constexpr int out_slot(int pos, int r)
{
    return pos ^ 4 * (r & 3);
}
/* Positions of a scratch row group for `samples` samples: a multiple of
 * 32 (a columns tile's width); and the words from one row group to the
 * next, 2 a position. */
__host__ __device__ constexpr int scratch_positions(int samples)
{
    return (samples + kColSamples - 1) / kColSamples * kColSamples;
}
__host__ __device__ constexpr size_t scratch_group_words(int positions)
{
    return 2 * (size_t)positions;
}
__host__ __device__ constexpr size_t rows_shared(int R)
{
    return (size_t)row_entries(R) * 32 * 16 + taps_bytes(R) + (size_t)kRowMatrixRows * row_stride(R) +
           kRowOutBytes;
}

/* Words of one staging buffer of a columns block: two planes of
 * col_staged_rows / 4 groups of kColWords. */
__host__ __device__ constexpr int col_buffer_words(int R)
{
    return 2 * (col_staged_rows(R) / 4) * kColWords;
}
/* Shared bytes of a columns block with `buffers` staging buffers (2: the
 * next tile's rows are copied in while this one's products are made). */
__host__ __device__ constexpr size_t cols_shared(int R, int buffers)
{
    return (size_t)col_steps(R) * 32 * 32 + taps_bytes(R) + (size_t)buffers * col_buffer_words(R) * 4;
}

struct TensorRows {
    const uint8_t *src;
    size_t src_pitch;
    uint32_t *tmp;       // the scratch plane's row groups (header)
    int positions;       // scratch_positions(width * C)
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

/* The C words of 4 pixels of C bytes at px (4-byte aligned), in one
 * 4C-byte load where `wide` says px is that aligned. */
template <int C>
__device__ __forceinline__ void load_pixel_words(const uint8_t *px, bool wide, uint32_t (&v)[C])
{
    if constexpr (C == 4) {
        if (wide) {
            const uint4 u = *reinterpret_cast<const uint4 *>(px);
            v[0] = u.x, v[1] = u.y, v[2] = u.z, v[3] = u.w;
            return;
        }
    } else if constexpr (C == 2) {
        if (wide) {
            const uint2 u = *reinterpret_cast<const uint2 *>(px);
            v[0] = u.x, v[1] = u.y;
            return;
        }
    }
#pragma unroll
    for (int c = 0; c < C; c++) v[c] = reinterpret_cast<const uint32_t *>(px)[c];
}

/* Two samples of 4 rows, q[r] holding samples x, x + 1 of row r (16 bits
 * each), in the columns pass's layout: lo = the low bytes' words of x and
 * x + 1 (byte r of a word from row r), hi = the high bytes'. */
__device__ __forceinline__ void byte_plane_pair(const uint32_t (&q)[4], uint2 &lo, uint2 &hi)
{
    const uint32_t u0 = __byte_perm(q[0], q[1], 0x6240), v0 = __byte_perm(q[2], q[3], 0x6240);
    const uint32_t u1 = __byte_perm(q[0], q[1], 0x7351), v1 = __byte_perm(q[2], q[3], 0x7351);
    lo = make_uint2(__byte_perm(u0, v0, 0x5410), __byte_perm(u0, v0, 0x7632));
    hi = make_uint2(__byte_perm(u1, v1, 0x5410), __byte_perm(u1, v1, 0x7632));
}

/* Four blocks an SM for 1-2 channels (at most 64 registers a thread;
 * CUDA 13.0's ptxas -v for sm_90: 64 each; for 2 channels one word is
 * spilled, stored in the staging and loaded after the steps, once a tile);
 * three for 4 channels (80; at 64 they spill). */
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
    load_tap_bytes<kThreads>(w, k);
    __syncthreads();
    rows_table<kThreads>(tab, w, R);
    const int wx = warp & 3, wy = warp >> 2, g = lane >> 2, t = lane & 3;
    const uint8_t *a0p = stage + (16 * wy + g) * stride + 32 * wx + 4 * t;
    const uint8_t *a1p = a0p + 8 * stride;
    const uint4 *tab4 = reinterpret_cast<const uint4 *>(tab);
    const int dx = gridDim.x % p.tiles_x, dy = gridDim.x / p.tiles_x;
    int tx = blockIdx.x % p.tiles_x, ty = blockIdx.x / p.tiles_x;
    for (int tile = blockIdx.x; tile < p.tiles; tile += gridDim.x, next_tile(tx, ty, dx, dy, p.tiles_x)) {
        const int x0 = tx * kRowPixels, y0 = ty * IMG_ROWS;
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
                    load_pixel_words<C>(row + (size_t)x * C, p.wide, v);
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
            uint32_t a[4];
            rows_a_fragment(a0p, a1p, s, a);
            uint4 b[4];
#pragma unroll
            for (int j = 0; j < 4; j++) b[j] = tab4[(4 * s - j + 3) * 32 + lane];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                mma_u8(lo[j], a, b[j].x, b[j].y);
                mma_u8(hi[j], a, b[j].z, b[j].w);
            }
        }
        // The intermediate of matrix row m (tile row m / C, channel m % C)
        // and pixel n, tile sample n C + m % C, goes to the out tile at its
        // scratch position (in the slot out_slot gives it).
        constexpr int OS = row_out_stride(C);
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int h = 0; h < 2; h++)
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    const int m = 16 * wy + g + 8 * h, n = 32 * wx + 8 * j + 2 * t + e, r = m / C;
                    const uint32_t v =
                        ((uint32_t)hi[j][2 * h + e] * 256u + (uint32_t)lo[j][2 * h + e] + 128u) >> 8;
                    out[r * OS + out_slot(scratch_position(n * C + m % C), r)] = (uint16_t)v;
                }
        __syncthreads();
        // Out: a thread a chunk of 4 positions of one row group (of the
        // tile's IMG_ROWS / 4 groups, 32 C chunks each: 256 for every C), as
        // its low bytes' 4 words and its high bytes' 4, one 32-byte piece
        // of the scratch plane. Groups past the plane and positions past
        // its last 32-block are not stored.
        {
            const int gl = tid / (32 * C), k4 = tid % (32 * C), G = y0 / 4 + gl;
            const int pos = x0 * C + 4 * k4;
            if (4 * G < p.height && pos < p.positions) {
                uint32_t q[4][2];
#pragma unroll
                for (int r = 0; r < 4; r++) {
                    const int tr = 4 * gl + r;
                    const uint2 u = *reinterpret_cast<const uint2 *>(
                        out + tr * OS + out_slot(4 * k4, tr));
                    q[r][0] = u.x, q[r][1] = u.y;
                }
                const uint32_t q01[4] = { q[0][0], q[1][0], q[2][0], q[3][0] };
                const uint32_t q23[4] = { q[0][1], q[1][1], q[2][1], q[3][1] };
                uint2 lo01, hi01, lo23, hi23;
                byte_plane_pair(q01, lo01, hi01);
                byte_plane_pair(q23, lo23, hi23);
                uint4 *d = reinterpret_cast<uint4 *>(p.tmp + G * scratch_group_words(p.positions) + 2 * (size_t)pos);
                d[0] = make_uint4(lo01.x, lo01.y, lo23.x, lo23.y);
                d[1] = make_uint4(hi01.x, hi01.y, hi23.x, hi23.y);
            }
        }
        // The next tile's staging writes `stage`, which every thread has
        // finished reading (the barrier above); its products go to `out`
        // after the barrier after that staging, which every thread reaches
        // once it has stored this tile.
    }
}

struct TensorCols {
    const uint32_t *tmp; // the scratch plane's row groups (header)
    size_t group_words;  // words from one row group to the next
    uint8_t *dst;
    size_t dst_pitch;
    int samples, height, border;
    uint32_t border_value;
    int tiles_x, tiles;
    int buffers; // staging buffers: 2 copies the next tile in during this one's products
};

/* Byte b (0 .. 3) of each of the 4 words of v, as the bytes of one word. */
__device__ __forceinline__ uint32_t byte_of_each(const uint4 v, int b)
{
    const unsigned sel = (unsigned)b | (unsigned)(b + 4) << 4;
    return __byte_perm(__byte_perm(v.x, v.y, sel), __byte_perm(v.z, v.w, sel), 0x5410);
}

/* Stages the row groups of columns tile (tx, ty) into `planes` (two planes
 * of col_staged_rows(R) / 4 groups of kColWords): group r4 is image rows
 * y0 - P + 4 r4 .. + 3, its 32 positions from the scratch plane. Tiles
 * whose staged rows all lie inside the plane are copied asynchronously
 * (cp.async, 16 bytes a thread a copy: the caller commits and waits);
 * the others row by row, folded (a constant border's rows are
 * border_value << 8: low byte 0, high byte border_value). */
__device__ __forceinline__ void cols_stage(const TensorCols &p, int tx, int ty, int P, int groups,
                                           uint32_t *planes)
{
    const int x0 = tx * kColSamples, y0 = ty * kColRows;
    uint32_t *plane1 = planes + groups * kColWords;
    if (y0 - P >= 0 && y0 - P + 4 * groups <= p.height) {
        // A group's 32 positions are 256 contiguous bytes of the scratch
        // plane: 8 chunks of 4 positions, each 16 bytes of low-byte words
        // then 16 of high-byte ones. Copy c of a group takes plane c / 8's
        // half of chunk c % 8, so 8 adjacent threads fill one plane's 128
        // bytes (all 32 banks), and 16 the group's 256.
        const uint32_t *base = p.tmp + (size_t)((y0 - P) / 4) * p.group_words + 2 * (size_t)x0;
        for (int i = threadIdx.x; i < groups * 16; i += kColThreads) {
            const int r4 = i >> 4, c = i & 15;
            cp_async16((c & 8 ? plane1 : planes) + r4 * kColWords + 4 * (c & 7),
                       base + (size_t)r4 * p.group_words + 8 * (c & 7) + 4 * (c >> 3));
        }
        return;
    }
    const uint32_t flat = p.border_value * 0x01010101u;
    for (int i = threadIdx.x; i < groups * 8; i += kColThreads) {
        const int r4 = i >> 3, c4 = i & 7;
        uint32_t lo[4], hi[4]; // row r's bytes of the chunk's 4 positions
#pragma unroll
        for (int r = 0; r < 4; r++) {
            const int sy = cf_border_index(y0 - P + 4 * r4 + r, p.height, p.border);
            if (sy < 0) {
                lo[r] = 0;
                hi[r] = flat;
            } else {
                const uint4 *q = reinterpret_cast<const uint4 *>(
                    p.tmp + (size_t)(sy >> 2) * p.group_words + 2 * (size_t)x0 + 8 * c4);
                lo[r] = byte_of_each(q[0], sy & 3);
                hi[r] = byte_of_each(q[1], sy & 3);
            }
        }
        *reinterpret_cast<uint4 *>(planes + r4 * kColWords + 4 * c4) = transpose_bytes(lo);
        *reinterpret_cast<uint4 *>(plane1 + r4 * kColWords + 4 * c4) = transpose_bytes(hi);
    }
}

/* Two blocks an SM: the 48 sums, a step's 16 words of B fragments and 8
 * of A stay in registers (CUDA 13.0's ptxas -v for sm_90: 114, no
 * spills). At 3 (80 registers, steps not unrolled so as not to spill) it
 * was no faster at radii up to 24 and up to 20% slower at 30-36 (session
 * 24, call 2: bench/results/2026-12-03-h200-s24-17-tensor.md), though
 * before the staging was asynchronous 3 had been faster up to radius 40. */
__global__ void __launch_bounds__(kColThreads, kColMinBlocks)
tensor_cols(const __grid_constant__ TensorCols p, const __grid_constant__ cf_blur_kernel k)
{
    cf_pdl_begin();
    extern __shared__ __align__(16) uint8_t smem[];
    const int R = k.size / 2, pad = round4(R) - R, P = R + pad, S = col_steps(R);
    const int groups = col_staged_rows(R) / 4;
    uint32_t *tab = reinterpret_cast<uint32_t *>(smem);
    uint32_t *w = tab + S * 32 * 8;
    uint32_t *buffer0 = reinterpret_cast<uint32_t *>(reinterpret_cast<uint8_t *>(w) + taps_bytes(R));
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int dx = gridDim.x % p.tiles_x, dy = gridDim.x / p.tiles_x;
    int tx = blockIdx.x % p.tiles_x, ty = blockIdx.x / p.tiles_x, buf = 0;
    if ((int)blockIdx.x < p.tiles)
        cols_stage(p, tx, ty, P, groups, buffer0);
    cp_async_commit();
    load_tap_bytes<kColThreads>(w, k);
    __syncthreads();
    cols_table<kColThreads>(tab, w, R);
    const uint4 *tab4 = reinterpret_cast<const uint4 *>(tab);
    const int g = lane >> 2, t = lane & 3;
    for (int tile = blockIdx.x; tile < p.tiles; tile += gridDim.x) {
        if (p.buffers == 2) {
            // The next tile's rows go to the other buffer, whose last
            // reader (the tile before this one) passed the barrier below.
            if (tile + (int)gridDim.x < p.tiles) {
                int nx = tx, ny = ty;
                next_tile(nx, ny, dx, dy, p.tiles_x);
                cols_stage(p, nx, ny, P, groups, buffer0 + (buf ^ 1) * col_buffer_words(R));
            }
            cp_async_commit();
            cp_async_wait<1>(); // this tile's copies, committed one tile ago
        } else {
            cp_async_wait<0>();
        }
        __syncthreads();
        const uint32_t *plane0 = buffer0 + buf * col_buffer_words(R), *plane1 = plane0 + groups * kColWords;
        // The step's loads all go first (4 16-byte loads of B fragments,
        // lane g's words of its four 8-sample blocks adjacent: positions
        // 4 g .. 4 g + 3; two of A), so its 16 products wait on one
        // shared-memory latency.
        int s00[4][4] = {}, s01[4][4] = {}, s11[4][4] = {}; // wl tl, wh tl + wl th, wh th
        for (int s = 0; s < S; s++) {
            const uint4 l4 = tab4[(s * 32 + lane) * 2], h4 = tab4[(s * 32 + lane) * 2 + 1];
            const int r4 = 4 * warp + 8 * s + t; // staged rows 16 warp + 32 s + 4t ..
            const uint4 b0 = *reinterpret_cast<const uint4 *>(plane0 + r4 * kColWords + 4 * g);
            const uint4 b1 = *reinterpret_cast<const uint4 *>(plane0 + (r4 + 4) * kColWords + 4 * g);
            const uint4 b2 = *reinterpret_cast<const uint4 *>(plane1 + r4 * kColWords + 4 * g);
            const uint4 b3 = *reinterpret_cast<const uint4 *>(plane1 + (r4 + 4) * kColWords + 4 * g);
            const uint32_t b[4][4] = { { b0.x, b1.x, b2.x, b3.x },
                                       { b0.y, b1.y, b2.y, b3.y },
                                       { b0.z, b1.z, b2.z, b3.z },
                                       { b0.w, b1.w, b2.w, b3.w } };
            const uint32_t al[4] = { l4.x, l4.y, l4.z, l4.w }, ah[4] = { h4.x, h4.y, h4.z, h4.w };
#pragma unroll
            for (int j = 0; j < 4; j++) {
                mma_u8(s00[j], al, b[j][0], b[j][1]);
                mma_u8(s01[j], ah, b[j][0], b[j][1]);
                mma_u8(s11[j], ah, b[j][2], b[j][3]);
                mma_u8(s01[j], al, b[j][2], b[j][3]);
            }
        }
        const int x0 = tx * kColSamples, y0 = ty * kColRows;
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
        __syncthreads(); // the next staging into this buffer comes after every thread's reads
        next_tile(tx, ty, dx, dy, p.tiles_x);
        if (p.buffers == 2) {
            buf ^= 1;
        } else if (tile + (int)gridDim.x < p.tiles) {
            cols_stage(p, tx, ty, P, groups, buffer0);
            cp_async_commit();
        }
    }
}

/* Queues the columns pass of one plane: two staging buffers where the
 * device still holds kColMinBlocks blocks an SM with them (vertical radii
 * up to 232 on sm_90), else one. */
cudaError_t cols_launch(TensorCols p, const cf_blur_kernel &ky, cudaStream_t stream)
{
    const int R = ky.size / 2;
    int device = 0, optin = 0, per_sm = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cf_device_shared_optin(device, &optin);
    if (err != cudaSuccess)
        return err;
    p.buffers = 1;
    if (cols_shared(R, 2) <= (size_t)optin) {
        if (cf_blur_cuda::allow_shared<tensor_cols>(cols_shared(R, 2)) == cudaSuccess &&
            cf_occupancy<tensor_cols>(device, kColThreads, cols_shared(R, 2), &per_sm) == cudaSuccess)
            p.buffers = per_sm >= kColMinBlocks ? 2 : 1;
        else
            (void)cudaGetLastError(); // refused: one buffer, and no error left for the next call
    }
    return pass_launch<tensor_cols>(p, ky, cols_shared(R, p.buffers), stream);
}

template <int C>
cudaError_t rows_plane(const cf_blur_kernel &kx, const cf_blur_plane &pl, void *tmp,
                       cudaStream_t stream)
{
    TensorRows p = {};
    p.src = pl.src;
    p.src_pitch = pl.src_pitch;
    p.tmp = static_cast<uint32_t *>(tmp);
    p.positions = scratch_positions(pl.width * C);
    p.width = pl.width;
    p.height = pl.height;
    p.border = pl.border;
    p.border_value = pl.border_value;
    if (!rows_tiles<C>(pl.width, pl.height, &p.tiles_x, &p.tiles))
        return cudaErrorInvalidValue;
    p.aligned = ((uintptr_t)pl.src | pl.src_pitch) % 4 == 0;
    p.wide = ((uintptr_t)pl.src | pl.src_pitch) % (4 * C) == 0;
    return pass_launch<tensor_rows<C>>(p, kx, rows_shared(kx.size / 2), stream);
}

} // namespace

namespace cf_blur_cuda {

size_t tensor_shared(int rx, int ry)
{
    return std::max(rows_shared(rx), cols_shared(ry, 1));
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
    if (shared_limit < 99 * 1024 || n_planes < 1)
        return false;
    if (planes[0].sample_bytes == 2) {
        // 16-bit planes: the rows pass here (blur_tensor16.cu), the columns
        // pass on the tensor cores or sep's (tensor16_cols_picked), which
        // pairs the symmetric vertical taps (and runs wherever the tensor
        // cores' blocks do not fit).
        if (!symmetric_taps(ky))
            return false;
        for (int i = 0; i < n_planes; i++)
            if (planes[i].sample_bytes != 2 || (planes[i].channels != 1 && planes[i].channels != 2) ||
                tensor16_rows_shared(kx.size / 2, planes[i].channels) > (size_t)shared_limit)
                return false;
        return true;
    }
    if (tensor_shared(kx.size / 2, ky.size / 2) > (size_t)shared_limit)
        return false;
    for (int i = 0; i < n_planes; i++)
        if (planes[i].sample_bytes != 1 || planes[i].shift != 0 ||
            (planes[i].channels != 1 && planes[i].channels != 2 && planes[i].channels != 4))
            return false;
    return true;
}

cudaError_t tensor_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                       const cf_blur_plane *planes, int n_planes, void *tmp, size_t tmp_pitch,
                       cudaStream_t stream, bool *f64_used, bool *tensor_cols_used)
{
    *f64_used = false;
    *tensor_cols_used = false;
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
    const int limit = shared_limit(); // for the 16-bit planes' columns pass
    for (int i = 0; i < n_planes; i++) {
        const cf_blur_plane &pl = planes[i];
        if (pl.width < 1 || pl.height < 1)
            continue;
        // The scratch plane holds the intermediates as row groups of 2
        // words a position (header): ceil(height / 4) groups, at most the
        // (height + 1) rows of tmp_pitch bytes that blur_filter.c reserves
        // where a row has 4 bytes a position.
        if (pl.sample_bytes == 2) {
            // The rows pass on the tensor cores, the columns pass there too
            // or sep's (tensor16_cols_picked).
            bool f64 = false;
            const bool tc = tensor16_cols_picked(ky.size / 2, limit);
            err = tensor16_rows_run(kx, pl, tmp, tmp_pitch, stream);
            if (err == cudaSuccess)
                err = tc ? tensor16_cols_run(ky, pl, tmp, tmp_pitch, stream)
                         : sep_cols_run(ky, pl, tmp, tmp_pitch, stream, &f64);
            if (err != cudaSuccess)
                return err;
            *f64_used = *f64_used || f64;
            *tensor_cols_used = *tensor_cols_used || tc;
            continue;
        }
        const int samples = pl.width * pl.channels;
        if ((size_t)scratch_positions(samples) * 4 > tmp_pitch)
            return cudaErrorInvalidValue;
        err = pl.channels == 1 ? rows_plane<1>(kx, pl, tmp, stream)
              : pl.channels == 2 ? rows_plane<2>(kx, pl, tmp, stream)
                                 : rows_plane<4>(kx, pl, tmp, stream);
        if (err != cudaSuccess)
            return err;
        TensorCols p = {};
        p.tmp = static_cast<const uint32_t *>(tmp);
        p.group_words = scratch_group_words(scratch_positions(samples));
        p.dst = pl.dst;
        p.dst_pitch = pl.dst_pitch;
        p.samples = samples;
        p.height = pl.height;
        p.border = pl.border;
        p.border_value = pl.border_value;
        if (!cols_tiles(samples, pl.height, &p.tiles_x, &p.tiles))
            return cudaErrorInvalidValue;
        err = cols_launch(p, ky, stream);
        if (err != cudaSuccess)
            return err;
    }
    return cudaSuccess;
}

} // namespace cf_blur_cuda
