/* CUDA blur, tile method (blur_cuda.cuh): planes of 1 or 2 channels, 8-
 * or 16-bit samples (GRAY16, P010, I420_10LE; GRAY8, NV12, I420), kernels
 * of radius up to 48 either way, both passes of a tile in shared memory,
 * one launch a plane. The radii built are 2, 4, 6, 8, 12, 16, 20, 24 and
 * 32 (the radii of OpenCV's 16-bit kernel sizes, round(8 sigma + 1) | 1,
 * for sigma 0.5, 1, 1.5, 2, 3, 4, 5, 6 and 8), 40 and 48 (8-bit sigma 12
 * and 16: radius 36 and 48); a kernel of another radius runs on the next
 * built radius with its taps centred among zero weights (a zero tap adds
 * 0: the same sums). Unequal radii run on the larger one both ways, but up
 * to radius 24 a vertical radius of at most a half or a quarter of it runs
 * on the built radius next above that (tile_v_radius): the tile stages and
 * filters that many rows above and below it, not R.
 *
 * Why: the two-pass method writes and reads a 32-bit intermediate plane
 * in device memory and pays two launches a plane, about 0.17 ms a 4K P010
 * frame at any radius (bench/results/2026-12-01-h200-s15-17-blur-sweep.md);
 * here the intermediates of a tile stay in shared memory.
 *
 * Arithmetic of blur.h, as the reference does it. The taps are symmetric
 * (w[t] = w[2R - t], cf_blur_make_kernel; centring keeps it), so each pass
 * sums w[t] * (p[t] + p[2R - t]) over the R pairs plus the centre: one
 * multiply-add a pair. Those are the very integers of the tap-by-tap sum:
 * unsigned arithmetic is exact modulo 2^32 (horizontal) and 2^64
 * (vertical), and blur.h's bounds keep the true sums below either; P010's
 * vertical sums on Hopper are doubles, exact below 2^53 (blur_f64.cuh).
 *
 * A block (tile_threads(R) threads) makes a tile of kTileS samples
 * (kTileS / C pixels) by TILE_H rows (64; 128 from radius 24). It stages
 * the tile and R pixels on every side (borders folded; samples as 16-bit
 * words whatever their size, a 16-bit source's as they are, low bits and
 * all: inside the plane they go two a cp.async, no register and no shift,
 * and the horizontal pass masks and scales) in shared memory; the
 * horizontal pass makes kNH outputs of one channel of one staged row per
 * item from a window of the row, into 32-bit intermediates in shared
 * memory (the tile's columns and all TILE_H + 2R rows); the vertical pass
 * kNV rows of one sample column per thread from a window of the
 * intermediates (64-bit sums for 16-bit samples, 32-bit for 8-bit; FP64
 * for P010 on Hopper, F64 in the template). Rows
 * of both arrays have an odd number of words, so the 32 lanes of a warp,
 * which take 32 consecutive rows in the horizontal pass, hit 32 different
 * banks. */
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "blur_cuda.cuh"
#include "blur_f64.cuh"

namespace {

constexpr int kTileS = 64;  // output samples of a tile row
constexpr int kNH = 8;      // outputs per item of the horizontal pass
constexpr int kNV = 8;      // outputs per thread of the vertical pass
constexpr int kMaxR = 48;   // widest radius built
constexpr int kReducedMaxR = 24; // widest radius with reduced vertical radii (tile_v_radius)
constexpr int kStageBatch = 8; // staged samples a thread loads before it stores any

/* Threads of a block for radius R: 512 (tiles of 64 rows), 1024 from
 * radius 24 (tiles of 128 rows, so that the 2R rows of halo the horizontal
 * pass also makes cost less against the tile's own). Registers are cut to
 * 64 a thread either way (two blocks of 512 an SM, or one of 1024):
 * against blocks of 256 threads making 16 rows a thread with up to 128
 * registers (session 18), 4K P010 radius 8 ran in 91 us instead of 104,
 * radius 24 in 205 instead of 232, 8K radius 24 in 680 instead of 759
 * (H200, bench/results/2026-12-01-h200-s19-17-blur.md). */
__host__ __device__ constexpr int tile_threads(int R)
{
    return R >= 24 ? 1024 : 512;
}

/* The shared memory layout of one tile for C channels and radius R. */
__host__ __device__ constexpr int tile_in_h(int R) // staged rows
{
    return kNV * tile_threads(R) / kTileS + 2 * R;
}
__host__ __device__ constexpr int tile_in_sp(int C, int R) // 16-bit words a staged row
{
    // IN_SP % 4 == 2: an odd number of 32-bit words.
    return (kTileS + 2 * R * C + 3) / 4 * 4 + 2;
}
__host__ __device__ constexpr int tile_in_bytes(int C, int R)
{
    return (tile_in_h(R) * tile_in_sp(C, R) * 2 + 15) / 16 * 16;
}
__host__ __device__ constexpr int tile_bytes(int C, int R)
{
    return tile_in_bytes(C, R) + tile_in_h(R) * (kTileS + 1) * 4;
}
template <int C, int R> struct TileShape {
    static_assert(C == 1 || C == 2, "1 or 2 channels");
    static constexpr int THREADS = tile_threads(R);
    static constexpr int TILE_H = kNV * THREADS / kTileS; // output rows
    // Staged rows: at most tile_in_h(R) (TILE_H + 2 RV, blur_tile).
    static constexpr int IN_S = kTileS + 2 * R * C; // staged samples a row
    static constexpr int IN_SP = tile_in_sp(C, R);
    static constexpr int MID_SP = kTileS + 1; // 32-bit words an intermediate row (odd)
    static constexpr int IN_BYTES = tile_in_bytes(C, R);
    static constexpr int BYTES = tile_bytes(C, R);
    // Blocks an SM is built for: two of 512 threads where they fit in its
    // 227 KiB of shared memory (every radius below 24 does: 2-channel
    // radius 20 takes 57 KiB), else one.
    static constexpr int MIN_BLOCKS = THREADS == 512 && 2 * BYTES <= 227 * 1024 ? 2 : 1;
};

/* Taps centred in 2R + 1 (R the built radius): x[t] and y[t] weigh the
 * pair of samples t and 2R - t (t < R), xc and yc the centre. */
struct TileTaps {
    uint32_t x[kMaxR], y[kMaxR];
    uint32_t xc, yc;
};

/* The vertical taps as TileTaps's, for the FP64 sums (blur_f64.cuh), and
 * the sums' start; a kernel of integer sums gets the empty TileNoF64. (In
 * TileTaps, for every kernel, they cost the integer kernels of radius 20
 * to 32 132-304 bytes of spills a thread: ptxas -v, sm_90.) */
struct TileTapsF64 {
    double y[kMaxR], yc, start;
};
struct TileNoF64 {};

/* One plane of a launch. */
struct TilePlane {
    const uint8_t *src;
    size_t src_pitch; // bytes
    uint8_t *dst;
    size_t dst_pitch; // bytes
    int width, height; // pixels
    int border, shift;
    uint32_t border_value; // blur.h's sample units (shifted down); staging shifts it up
    int tile_rows;         // tiles down the plane
};

/* Vertical sums: 32 bits for 8-bit samples, 64 for 16-bit ones (blur.h's
 * bounds). */
template <typename T> struct TileAcc {
    using type = uint64_t;
};
template <> struct TileAcc<uint8_t> {
    using type = uint32_t;
};

/* The smallest built radius at least r (1 to kMaxR): 2-8 by 2, 12-24 by
 * 4, 32-48 by 8. */
__host__ __device__ constexpr int tile_built(int r)
{
    return r <= 8 ? (r + 1) / 2 * 2 : r <= 24 ? (r + 3) / 4 * 4 : (r + 7) / 8 * 8;
}
/* The vertical radius a tile of built radius R runs a kernel whose
 * vertical radius is ry (at most R) on: R, or up to kReducedMaxR the built
 * radius next above a quarter or a half of R where ry is at most that
 * (radius 12 and 4: P010 sigma 3 sigma-y 1). */
__host__ __device__ constexpr int tile_v_quarter(int R)
{
    return tile_built((R + 3) / 4);
}
__host__ __device__ constexpr int tile_v_half(int R)
{
    return tile_built((R + 1) / 2);
}
__host__ __device__ constexpr int tile_v_radius(int R, int ry)
{
    return R > kReducedMaxR ? R : ry <= tile_v_quarter(R) ? tile_v_quarter(R)
                                : ry <= tile_v_half(R)      ? tile_v_half(R)
                                                            : R;
}

/* Whether the staged pixels px0 .. px0 + px - 1 of rows y0 - RV .. y0 - RV
 * + rows - 1 all lie inside the plane (no border to fold). */
__device__ __forceinline__ bool inside(const TilePlane &p, int px0, int y0, int px, int rows,
                                       int RV)
{
    return px0 >= 0 && px0 + px <= p.width && y0 - RV >= 0 && y0 - RV + rows <= p.height;
}

/* Staging, both forms: a staged sample is a 16-bit word, a 16-bit
 * source's as the source holds it (the sample p << shift and whatever its
 * low `shift` bits hold, which the horizontal pass masks off), an 8-bit
 * one widened; the constant border is border_value << shift. The
 * horizontal sums of such words stay below 2^32 because the taps sum to
 * 65536 (cf_blur_make_kernel; blur.h's bound), with no room to spare at
 * shift 0 as before, and none needed. */

/* Stages a tile (TileShape's `in`: its TILE_H rows and RV above and
 * below) whose rows or pixels reach past the plane. The folded source row
 * of each staged row and the folded source sample of each staged sample
 * column go first into tables (cf_border_index once each, not once a
 * sample), in `mid`, which the horizontal pass overwrites only after the
 * barrier that ends the staging; the barrier before them keeps the
 * previous tile's vertical pass, which reads `mid`, ahead of them. Then
 * every sample from the tables, kStageBatch loads in flight per thread
 * before their stores. */
template <typename T, int C, int R, int RV>
__device__ __forceinline__ void stage_folded(const TilePlane &p, int px0, int y0, uint16_t *in,
                                             uint32_t *mid)
{
    using Shape = TileShape<C, R>;
    constexpr int IN_S = Shape::IN_S, IN_SP = Shape::IN_SP, IN_H = Shape::TILE_H + 2 * RV;
    constexpr int N = IN_H * IN_S;
    constexpr int kThreads = Shape::THREADS, ROUNDS = (N + kThreads - 1) / kThreads;
    static_assert(IN_S + IN_H <= Shape::TILE_H * Shape::MID_SP, "the tables fit in mid");
    int *col_src = reinterpret_cast<int *>(mid);  // IN_S: sample of its source row, or -1
    int *row_src = col_src + IN_S;                 // IN_H: source row, or -1
    const int tid = threadIdx.x;
    __syncthreads();
    for (int i = tid; i < IN_S + IN_H; i += kThreads) {
        if (i < IN_S) {
            const int sx = cf_border_index(px0 + i / C, p.width, p.border);
            col_src[i] = sx < 0 ? -1 : sx * C + i % C;
        } else {
            row_src[i - IN_S] = cf_border_index(y0 - RV + i - IN_S, p.height, p.border);
        }
    }
    __syncthreads();
    const uint32_t border = p.border_value << p.shift;
    for (int b0 = 0; b0 < ROUNDS; b0 += kStageBatch) {
        uint32_t v[kStageBatch];
#pragma unroll
        for (int k = 0; k < kStageBatch; k++) {
            const int i = tid + (b0 + k) * kThreads;
            v[k] = border;
            if (b0 + k < ROUNDS && i < N) {
                const int r = i / IN_S, xs = i - r * IN_S;
                const int sy = row_src[r], sx = col_src[xs];
                if (sy >= 0 && sx >= 0)
                    v[k] = reinterpret_cast<const T *>(p.src + (size_t)sy * p.src_pitch)[sx];
            }
        }
#pragma unroll
        for (int k = 0; k < kStageBatch; k++) {
            const int i = tid + (b0 + k) * kThreads;
            if (b0 + k < ROUNDS && i < N) {
                const int r = i / IN_S, xs = i - r * IN_S;
                in[r * IN_SP + xs] = (uint16_t)v[k];
            }
        }
    }
}

/* Stages a tile that lies inside the plane, rows aligned to two samples
 * (R is even, so a tile's first staged sample, sample blockIdx.x * kTileS
 * - R C of its row, is an even one), with none of stage_folded's tables.
 * 16-bit samples: two a 4-byte asynchronous copy (cp.async: straight into
 * shared memory, no register, no shift; the horizontal pass masks).
 * 8-bit ones: two a load, widened to two 16-bit words, one 32-bit store. */
template <typename T, int C, int R, int RV>
__device__ __forceinline__ void stage_inside(const TilePlane &p, int px0, int y0, uint16_t *in)
{
    using Shape = TileShape<C, R>;
    static_assert(R % 2 == 0, "a tile's staged samples start on an even one");
    constexpr int IN_SP = Shape::IN_SP, ROW_PAIRS = Shape::IN_S / 2;
    constexpr int N = (Shape::TILE_H + 2 * RV) * ROW_PAIRS, kThreads = Shape::THREADS;
    constexpr int ROUNDS = (N + kThreads - 1) / kThreads;
    const int tid = threadIdx.x;
    const uint8_t *base = p.src + (size_t)(y0 - RV) * p.src_pitch + (size_t)px0 * C * sizeof(T);
    if constexpr (sizeof(T) == 2) {
#pragma unroll 8
        for (int k = 0; k < ROUNDS; k++) {
            const int i = tid + k * kThreads;
            if (i < N) {
                const int r = i / ROW_PAIRS, xp = i - r * ROW_PAIRS;
                __pipeline_memcpy_async(in + r * IN_SP + 2 * xp,
                                        base + (size_t)r * p.src_pitch + (size_t)xp * 4, 4);
            }
        }
        __pipeline_commit();
        __pipeline_wait_prior(0);
    } else {
        for (int b0 = 0; b0 < ROUNDS; b0 += kStageBatch) {
            uint32_t v[kStageBatch];
#pragma unroll
            for (int k = 0; k < kStageBatch; k++) {
                const int i = tid + (b0 + k) * kThreads;
                v[k] = 0;
                if (b0 + k < ROUNDS && i < N) {
                    const int r = i / ROW_PAIRS, xp = i - r * ROW_PAIRS;
                    v[k] = __ldg(reinterpret_cast<const uint16_t *>(base + (size_t)r * p.src_pitch +
                                                                    (size_t)xp * 2));
                }
            }
#pragma unroll
            for (int k = 0; k < kStageBatch; k++) {
                const int i = tid + (b0 + k) * kThreads;
                if (b0 + k < ROUNDS && i < N) {
                    const int r = i / ROW_PAIRS, xp = i - r * ROW_PAIRS;
                    *reinterpret_cast<uint32_t *>(in + r * IN_SP + 2 * xp) =
                        (v[k] & 0xffu) | (v[k] >> 8) << 16;
                }
            }
        }
    }
}

/* One launch a plane: vertical radius RV (tile_v_radius), the horizontal
 * taps and the tile's shape those of R. */
template <typename T, int C, int R, int RV, bool F64>
__global__ void __launch_bounds__(TileShape<C, R>::THREADS, TileShape<C, R>::MIN_BLOCKS)
blur_tile(const __grid_constant__ TilePlane p, const __grid_constant__ TileTaps taps,
          const __grid_constant__ std::conditional_t<F64, TileTapsF64, TileNoF64> taps64)
{
    cf_pdl_begin();
    static_assert(!F64 || sizeof(T) == 2, "FP64 sums for 16-bit planes");
    using Shape = TileShape<C, R>;
    static_assert(RV >= 1 && RV <= R, "a vertical radius up to R");
    // Staged and filtered rows: the tile's and RV above and below it.
    constexpr int IN_H = Shape::TILE_H + 2 * RV, IN_S = Shape::IN_S, IN_SP = Shape::IN_SP;
    constexpr int MID_SP = Shape::MID_SP, kThreads = Shape::THREADS, kTileH = Shape::TILE_H;
    constexpr int GROUPS = kTileS / kNH; // horizontal items a staged row
    static_assert(kTileS % (kNH * C) == 0, "whole groups of pixels a tile row");
    extern __shared__ __align__(16) uint8_t smem[];
    uint16_t *in = reinterpret_cast<uint16_t *>(smem);
    uint32_t *mid = reinterpret_cast<uint32_t *>(smem + Shape::IN_BYTES);
    const int tid = threadIdx.x;
    const int px0 = blockIdx.x * (kTileS / C) - R; // first staged pixel
    const int samples = p.width * C;
    const int sx_out = blockIdx.x * kTileS;        // first output sample
    const bool src_aligned = ((uintptr_t)p.src | p.src_pitch) % (2 * sizeof(T)) == 0;
    for (int ty = blockIdx.y; ty < p.tile_rows; ty += gridDim.y) {
        const int y0 = ty * kTileH;
        if (src_aligned && inside(p, px0, y0, IN_S / C, IN_H, RV))
            stage_inside<T, C, R, RV>(p, px0, y0, in);
        else
            stage_folded<T, C, R, RV>(p, px0, y0, in, mid);
        __syncthreads();
        // Horizontal: item i is staged row i % IN_H (lanes on consecutive
        // rows), group g = i / IN_H: channel g % C of the kNH pixels from
        // pixel kNH * (g / C) of the tile. The staged samples are p <<
        // shift (masked here: a 16-bit source's low bits need not be 0),
        // so the sums are 2^shift times blur.h's, still below 2^32 (at
        // most 65536 (65535 >> shift << shift) + 2^(7 + shift)); they
        // start at 2^(7 + shift), the rounding of cf_blur_round_h, and
        // end shifted down by 8 + shift.
        const uint32_t mask = sizeof(T) == 2 ? 0xffffu >> p.shift << p.shift : 0xffffu;
        const int h_shift = 8 + (sizeof(T) == 2 ? p.shift : 0);
        for (int i = tid; i < IN_H * GROUPS; i += kThreads) {
            const int r = i % IN_H, g = i / IN_H;
            const int base = kNH * (g / C) * C + g % C; // its first sample in the tile
            const uint16_t *w = in + r * IN_SP + base;  // staged sample base + m C: tap m
            auto sample = [&](int m) -> uint32_t {
                if constexpr (sizeof(T) == 2)
                    return w[m * C] & mask;
                else
                    return w[m * C];
            };
            uint32_t acc[kNH];
#pragma unroll
            for (int o = 0; o < kNH; o++) acc[o] = 1u << (h_shift - 1);
#pragma unroll
            for (int t = 0; t < R; t++)
#pragma unroll
                for (int o = 0; o < kNH; o++)
                    acc[o] += taps.x[t] * (sample(o + t) + sample(o + 2 * R - t));
            uint32_t *m = mid + r * MID_SP + base;
#pragma unroll
            for (int o = 0; o < kNH; o++)
                m[o * C] = (acc[o] + taps.xc * sample(o + R)) >> h_shift;
        }
        __syncthreads();
        // Vertical: sample column x of the tile, output rows r0 .. r0 +
        // kNV - 1 from intermediate rows r0 .. r0 + kNV + 2RV - 1. Integer
        // sums start at 2^23, the rounding of cf_blur_round_v; FP64 ones at
        // f64_start, which has it.
        const int x = tid % kTileS, r0 = tid / kTileS * kNV;
        const uint32_t *m = mid + r0 * MID_SP + x;
        // Every tap unrolled, but radius 48 goes kVChunk taps at a time (a
        // loop over the chunks), which keeps the rows of one chunk, not of
        // all 2RV + kNV, in registers: unrolled whole, with this staging
        // it spilled about 550 bytes a thread (radii up to 40 do not).
        constexpr int kVChunk = RV > 40 ? 8 : RV;
        static_assert(RV % kVChunk == 0, "whole chunks of vertical taps");
        // The sums: 32- or 64-bit integers, or on the FP64 units
        // (blur_f64.cuh: each pair's two intermediates added into an
        // operand's high word, one DFMA a pair and output).
        using VAcc = std::conditional_t<F64, double, typename TileAcc<T>::type>;
        auto weight = [&](int t) { // pair t
            if constexpr (F64)
                return taps64.y[t];
            else
                return (VAcc)taps.y[t];
        };
        auto centre_weight = [&] {
            if constexpr (F64)
                return taps64.yc;
            else
                return (VAcc)taps.yc;
        };
        VAcc acc[kNV];
#pragma unroll
        for (int o = 0; o < kNV; o++) {
            if constexpr (F64)
                acc[o] = taps64.start;
            else
                acc[o] = 1u << 23;
        }
#pragma unroll 1
        for (int t0 = 0; t0 < RV; t0 += kVChunk)
#pragma unroll
            for (int j = 0; j < kVChunk; j++) {
                const int t = t0 + j;
                const auto w = weight(t);
#pragma unroll
                for (int o = 0; o < kNV; o++)
                    acc[o] = cf_blur_cuda::vsum_mac(
                        acc[o], w, m[(o + t) * MID_SP] + m[(o + 2 * RV - t) * MID_SP]);
            }
        if (sx_out + x < samples) {
#pragma unroll
            for (int o = 0; o < kNV; o++) {
                const int y = y0 + r0 + o;
                if (y >= p.height)
                    break;
                const VAcc sum = cf_blur_cuda::vsum_mac(acc[o], centre_weight(), m[(o + RV) * MID_SP]);
                reinterpret_cast<T *>(p.dst + (size_t)y * p.dst_pitch)[sx_out + x] =
                    (T)(cf_blur_cuda::vsum_result(sum) << p.shift);
            }
        }
        // The next tile's staging writes `in`, which every thread has
        // finished reading (the barrier after the horizontal pass), and,
        // folded, its tables in `mid`, only after the barrier that opens
        // stage_folded, which every thread reaches after its vertical
        // pass; its horizontal pass writes `mid` only after the barrier
        // after staging.
    }
}

template <typename T, int C, int R, int RV, bool F64>
cudaError_t launch_tile_sums(const TileTaps &taps, const cf_blur_plane &pl, cudaStream_t stream)
{
    std::conditional_t<F64, TileTapsF64, TileNoF64> taps64 = {};
    if constexpr (F64)
        cf_blur_cuda::f64_taps(taps.y, RV, taps.yc, taps64.y, &taps64.yc, &taps64.start);
    constexpr int bytes = TileShape<C, R>::BYTES;
    cudaError_t err = cf_blur_cuda::allow_shared<blur_tile<T, C, R, RV, F64>>(bytes);
    if (err != cudaSuccess)
        return err;
    TilePlane p = { pl.src,    pl.src_pitch, pl.dst,   pl.dst_pitch,     pl.width, pl.height,
                    pl.border, pl.shift,     pl.border_value,
                    (pl.height + TileShape<C, R>::TILE_H - 1) / TileShape<C, R>::TILE_H };
    const long long cols = ((long long)pl.width * C + kTileS - 1) / kTileS;
    if (cols > 0x7fffffffLL)
        return cudaErrorInvalidValue;
    const dim3 grid((unsigned)cols, (unsigned)std::min(p.tile_rows, 65535));
    return cf_launch(blur_tile<T, C, R, RV, F64>, grid, dim3(TileShape<C, R>::THREADS),
                     (size_t)bytes, stream, p, taps, taps64);
}

/* launch_tile_sums with the FP64 vertical sums if f64 (tile_run asks
 * cf_blur_cuda::f64_sums; 16-bit planes only, so 8-bit ones build one
 * kernel a radius). */
template <typename T, int C, int R, int RV>
cudaError_t launch_tile(const TileTaps &taps, const cf_blur_plane &pl, bool f64,
                        cudaStream_t stream)
{
    if constexpr (sizeof(T) == 2)
        if (f64)
            return launch_tile_sums<T, C, R, RV, true>(taps, pl, stream);
    return launch_tile_sums<T, C, R, RV, false>(taps, pl, stream);
}

/* launch_tile for built radius R and vertical radius RV (tile_v_radius). */
template <typename T, int C, int R>
cudaError_t launch_tile_v(int RV, const TileTaps &taps, const cf_blur_plane &p, bool f64,
                          cudaStream_t stream)
{
    if constexpr (R <= kReducedMaxR) {
        if (RV == tile_v_quarter(R) && RV < R)
            return launch_tile<T, C, R, tile_v_quarter(R)>(taps, p, f64, stream);
        if (RV == tile_v_half(R) && RV < R)
            return launch_tile<T, C, R, tile_v_half(R)>(taps, p, f64, stream);
    }
    return launch_tile<T, C, R, R>(taps, p, f64, stream);
}

template <typename T, int C>
cudaError_t launch_tile_radius(int R, int RV, const TileTaps &taps, const cf_blur_plane &p,
                               bool f64, cudaStream_t stream)
{
    switch (R) {
#define CF_TILE_CASE(r) \
    case r: return launch_tile_v<T, C, r>(RV, taps, p, f64, stream);
        CF_TILE_CASE(2) CF_TILE_CASE(4) CF_TILE_CASE(6) CF_TILE_CASE(8) CF_TILE_CASE(12)
        CF_TILE_CASE(16) CF_TILE_CASE(20) CF_TILE_CASE(24) CF_TILE_CASE(32) CF_TILE_CASE(40)
        CF_TILE_CASE(48)
#undef CF_TILE_CASE
    }
    return cudaErrorInvalidValue;
}

} // namespace

namespace cf_blur_cuda {

int tile_radius(int r)
{
    return r > kMaxR ? 0 : tile_built(std::max(r, 1));
}

bool tile_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
                int n_planes, int shared_limit)
{
    const int R = tile_radius(std::max(kx.size, ky.size) / 2);
    if (n_planes < 1 || n_planes > CF_MAX_PLANES || kx.size < 1 || ky.size < 1 ||
        kx.size % 2 == 0 || ky.size % 2 == 0 || R == 0 || !symmetric_taps(kx) ||
        !symmetric_taps(ky))
        return false;
    for (int i = 0; i < n_planes; i++)
        if ((planes[i].sample_bytes != 1 && planes[i].sample_bytes != 2) ||
            (planes[i].channels != 1 && planes[i].channels != 2) ||
            tile_bytes(planes[i].channels, R) > shared_limit)
            return false;
    return true;
}

cudaError_t tile_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                     const cf_blur_plane *planes, int n_planes, int shared_limit,
                     cudaStream_t stream, bool *f64_used)
{
    *f64_used = false;
    if (!tile_takes(kx, ky, planes, n_planes, shared_limit))
        return cudaErrorInvalidValue;
    const int R = tile_radius(std::max(kx.size, ky.size) / 2);
    const int RV = tile_v_radius(R, ky.size / 2);
    TileTaps taps = {};
    for (int t = 0; t < R; t++)
        taps.x[t] = cf_blur_cuda::centred_tap(kx, R, t);
    for (int t = 0; t < RV; t++)
        taps.y[t] = cf_blur_cuda::centred_tap(ky, RV, t);
    taps.xc = cf_blur_cuda::centred_tap(kx, R, R);
    taps.yc = cf_blur_cuda::centred_tap(ky, RV, RV);
    for (int i = 0; i < n_planes; i++) {
        const cf_blur_plane &p = planes[i];
        if (p.width < 1 || p.height < 1)
            continue;
        const bool f64 = cf_blur_cuda::f64_sums(p.sample_bytes, p.shift);
        cudaError_t err;
        if (p.sample_bytes == 1)
            err = p.channels == 1 ? launch_tile_radius<uint8_t, 1>(R, RV, taps, p, false, stream)
                                  : launch_tile_radius<uint8_t, 2>(R, RV, taps, p, false, stream);
        else
            err = p.channels == 1 ? launch_tile_radius<uint16_t, 1>(R, RV, taps, p, f64, stream)
                                  : launch_tile_radius<uint16_t, 2>(R, RV, taps, p, f64, stream);
        if (err != cudaSuccess)
            return err;
        *f64_used = *f64_used || f64;
    }
    return cudaSuccess;
}

} // namespace cf_blur_cuda
