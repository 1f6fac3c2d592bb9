/* CUDA blur, two-pass method (blur_cuda.cuh): any plane the element takes,
 * kernels up to 1025 taps each way, the radii independent. Arithmetic of
 * blur.h; intermediates in the scratch plane of 16 bits for 8-bit samples
 * and of 32 bits for 16-bit ones (SepTypes).
 *
 * The taps are symmetric (w[t] = w[K-1-t], cf_blur_make_kernel), so each
 * pass sums w[t] * (p[-R+t] + p[R-t]) over the R pairs plus the centre:
 * one multiply-add (IMAD) and one add per pair of taps, the add on the
 * integer pipe beside the multiplier. The sums are the very integers of the
 * tap-by-tap loop: unsigned arithmetic is exact modulo 2^32 (2^64 for the
 * vertical sums of 16-bit samples) and blur.h's bounds keep the true sums
 * below it. On Hopper the columns pass of P010 makes its sums as doubles
 * instead, one DFMA a pair, exact below 2^53 (blur_f64.cuh; sep_cols'
 * F64). Pairs go kChunk at a time, unrolled; the pair count is rounded
 * up to a multiple of kChunk with zero weights, which add nothing.
 *
 * Rows (sep_rows; 8-bit planes: sep_rows8 in blur_sep_rows8.cuh, two taps
 * a DP2A instruction, unless the centre holds the whole weight): a block
 * takes a segment of kOut * G pixels of one row, stages it plus R on each
 * side (border folded) in shared memory, one
 * array per channel and a reversed copy of it, so that the left and right
 * samples of every pair are at compile-time offsets from two per-thread
 * pointers; a thread makes kOut adjacent outputs of one channel from
 * windows of registers. Arrays are skewed (index i at i + i / 8) so the
 * lanes of a warp, 8 samples apart, hit 32 different banks. Outputs go back
 * through shared memory and leave in coalesced rows.
 *
 * Columns (sep_cols): a block takes 32 * VC adjacent samples of kColOut *
 * kColWarps rows; each thread kColOut rows of VC adjacent samples, reading
 * the intermediates it needs once each (a window of rows slides down the top
 * taps and up the bottom ones) from L1/L2 through a table of folded row
 * addresses in shared memory. A constant border's rows point at one row of
 * border_value << 8 that the rows pass writes below the plane. */
#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "blur_cuda.cuh"
#include "blur_f64.cuh"

namespace {

constexpr int kOut = 8;   // outputs per thread of a rows block: pixels of a row
constexpr int kChunk = 8; // tap pairs per unrolled step (a multiple of 8: the skew)
constexpr int kMaxPairs = (CF_BLUR_MAX_KSIZE / 2 + kChunk - 1) / kChunk * kChunk;
constexpr int kColOut = 8;   // outputs per thread of a columns block: rows of a column
constexpr int kColWarps = 8; // warps of a columns block, stacked down the rows
constexpr int kColMinBlocks = 2; // columns blocks an SM is built for
constexpr int kColRows = kColOut * kColWarps;
constexpr int kStageBatch = 8; // staged samples a thread of a rows block loads before storing

/* One direction's taps, paired: w[t] weighs samples -R+t and R-t (t < R),
 * zeros up to `pairs` (R rounded up to kChunk), centre weighs sample 0. */
struct SepTaps {
    int r, pairs;
    uint32_t centre;
    uint32_t w[kMaxPairs];
};

/* The vertical taps for the columns pass's FP64 sums (blur_f64.cuh): as
 * SepTaps, and the sums' start. 4 KiB and a little more of parameters,
 * which CUDA 12.1 and later pass to every GPU we build for. */
struct SepTapsF64 {
    int r, pairs;
    double centre, start;
    double w[kMaxPairs];
};

SepTapsF64 make_taps_f64(const SepTaps &k)
{
    SepTapsF64 t = {};
    t.r = k.r;
    t.pairs = k.pairs;
    cf_blur_cuda::f64_taps(k.w, k.pairs, k.centre, t.w, &t.centre, &t.start);
    return t;
}

SepTaps make_taps(const cf_blur_kernel &k)
{
    SepTaps t = {};
    t.r = k.size / 2;
    t.pairs = (t.r + kChunk - 1) / kChunk * kChunk;
    t.centre = k.w[t.r];
    for (int i = 0; i < t.r; i++) t.w[i] = k.w[i];
    return t;
}

/* Skewed index of sample i of a staged array: 8 samples apart land on
 * banks 9 apart. */
__host__ __device__ constexpr int skew(int i)
{
    return i + (i >> 3);
}

/* Lanes a channel gets in a rows block (kOut pixels each), and the block's
 * threads. */
__host__ __device__ constexpr int rows_lanes(int C)
{
    return C == 3 ? 64 : 256 / C;
}

/* Words of one staged array (and of its reversed copy) of a rows block,
 * and the stride between channels' pairs of arrays (odd: channels of one
 * pixel on different banks). */
__host__ __device__ constexpr int rows_array_words(int C, int R)
{
    return skew(kOut * rows_lanes(C) + 2 * R + kChunk) + 1;
}
__host__ __device__ constexpr int rows_channel_words(int C, int R)
{
    return 2 * rows_array_words(C, R) | 1;
}

template <typename T> struct SepTypes;
template <> struct SepTypes<uint8_t> {
    using VAcc = uint32_t; // vertical sums (blur.h bounds)
    // Intermediates: (sum + 2^7) >> 8 <= 65280 for 8-bit samples (blur.h),
    // so 16 bits hold them, which halves the scratch plane's traffic.
    using Mid = uint16_t;
    static constexpr int VC = 4; // samples per thread of the columns pass
};
template <> struct SepTypes<uint16_t> {
    using VAcc = uint64_t;
    using Mid = uint32_t;
    static constexpr int VC = 2;
};

/* The constant row below the plane, for the columns pass (a constant
 * border's rows point at it): samples x .. x + n - 1 of it, those before
 * `samples`, as border_value << 8 (an intermediate of a flat row), the
 * block's `threads` threads taking every threads-th. */
template <typename Mid>
__device__ __forceinline__ void constant_row(Mid *row, int x, int n, int samples, int threads,
                                             uint32_t border_value)
{
    for (int k = threadIdx.x; k < n; k += threads)
        if (x + k < samples)
            row[x + k] = (Mid)(border_value << 8);
}

/* Stages pixels x .. x + n - 1 of row s (C channels a pixel, T samples):
 * store(i, ch, v) gets channel ch of pixel x + i, folded into the row of
 * `width` pixels by `border` (border_value outside for a constant one) and
 * shifted down by `shift`, for every i < n, the block's `threads` threads
 * taking every threads-th sample. A thread issues kStageBatch loads before
 * it stores any, so their latencies overlap (a load then its store, one at
 * a time, made the staging of a row several memory latencies long: most of
 * a rows pass's time at small radii, a block being one row). */
template <int C, typename T, typename Store>
__device__ __forceinline__ void stage_row(const T *s, int x, int n, int width, int border,
                                          uint32_t border_value, int shift, int threads,
                                          Store store)
{
    const int n_items = n * C;
    for (int k0 = threadIdx.x; k0 < n_items; k0 += kStageBatch * threads) {
        uint32_t v[kStageBatch];
#pragma unroll
        for (int b = 0; b < kStageBatch; b++) {
            const int k = k0 + b * threads, i = k / C, ch = k - i * C;
            const int sx = k < n_items ? cf_border_index(x + i, width, border) : -1;
            v[b] = sx < 0 ? border_value : (uint32_t)s[(size_t)sx * C + ch] >> shift;
        }
#pragma unroll
        for (int b = 0; b < kStageBatch; b++) {
            const int k = k0 + b * threads, i = k / C, ch = k - i * C;
            if (k < n_items)
                store(i, ch, v[b]);
        }
    }
}

/* Three blocks an SM (at most 80 registers; none spilled, ptxas -v for
 * sm_90): a block is one row, so the blocks in flight are what hides the
 * memory latency of this pass. */
template <typename T, int C>
__global__ void __launch_bounds__(256, 3)
sep_rows(const uint8_t *__restrict__ src, size_t src_pitch,
         typename SepTypes<T>::Mid *__restrict__ tmp, size_t tmp_pitch, int width, int height,
         int border, uint32_t border_value, int shift, const __grid_constant__ SepTaps taps)
{
    cf_pdl_begin();
    using Mid = typename SepTypes<T>::Mid;
    extern __shared__ uint32_t sh[];
    constexpr int G = rows_lanes(C), SEG = kOut * G;
    const int R = taps.r, tid = threadIdx.x;
    const int n_staged = SEG + 2 * R; // pixels x0 - R .. x0 + SEG + R - 1
    const int arr = rows_array_words(C, R), chw = rows_channel_words(C, R);
    const int x0 = blockIdx.x * SEG;
    const int samples = width * C;
    const size_t tp = tmp_pitch / sizeof(Mid);
    if (border == CF_BORDER_CONSTANT && blockIdx.y == 0)
        constant_row(tmp + (size_t)height * tp, x0 * C, SEG * C, samples, G * C, border_value);
    const int c = tid / G, l = tid - c * G; // this thread: channel c, pixels x0 + 8l ..
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const T *s = reinterpret_cast<const T *>(src + (size_t)y * src_pitch);
        // Stage: pixel x0 - R + i of channel ch at fwd[skew(i)] and
        // rev[skew(n_staged - 1 - i)]; kChunk zeros after each.
        stage_row<C>(s, x0 - R, n_staged, width, border, border_value, shift, G * C,
                     [&](int i, int ch, uint32_t v) {
                         uint32_t *f = sh + ch * chw;
                         f[skew(i)] = v;
                         f[arr + skew(n_staged - 1 - i)] = v;
                     });
        for (int k = tid; k < kChunk * C; k += G * C) {
            uint32_t *f = sh + (k / kChunk) * chw;
            f[skew(n_staged + k % kChunk)] = 0;
            f[arr + skew(n_staged + k % kChunk)] = 0;
        }
        __syncthreads();
        uint32_t acc[kOut];
        if (c < C) {
            const uint32_t *f = sh + c * chw + 9 * l;             // skew(8l + j) = 9l + skew(j)
            const uint32_t *r = sh + c * chw + arr + 9 * (G - 1 - l);
#pragma unroll
            for (int o = 0; o < kOut; o++) acc[o] = 1u << 7; // cf_blur_round_h's rounding
            for (int t0 = 0; t0 < taps.pairs; t0 += kChunk) {
                // Output o, pair t0 + j: left sample 8l + o + t0 + j, right
                // 8l + o + 2R - t0 - j, that is reversed index
                // 8(G - 1 - l) + t0 + j + 7 - o.
                const uint32_t *fb = f + 9 * (t0 / 8), *rb = r + 9 * (t0 / 8);
#pragma unroll
                for (int j = 0; j < kChunk; j++) {
                    const uint32_t w = taps.w[t0 + j];
#pragma unroll
                    for (int o = 0; o < kOut; o++)
                        acc[o] += w * (fb[skew(o + j)] + rb[skew(7 - o + j)]);
                }
            }
#pragma unroll
            for (int o = 0; o < kOut; o++) acc[o] += taps.centre * f[skew(o + R)];
        }
        __syncthreads();
        if (c < C) {
#pragma unroll
            for (int o = 0; o < kOut; o++) sh[c * chw + 9 * l + o] = acc[o] >> 8;
        }
        __syncthreads();
        Mid *out = tmp + (size_t)y * tp + (size_t)x0 * C;
        for (int k = tid; k < SEG * C; k += G * C) {
            const int i = k / C, ch = k - i * C;
            if (x0 * C + k < samples)
                out[k] = (Mid)sh[ch * chw + skew(i)];
        }
        __syncthreads();
    }
}

template <typename T, bool F64>
__global__ void __launch_bounds__(32 * kColWarps, kColMinBlocks)
sep_cols(const typename SepTypes<T>::Mid *__restrict__ tmp, size_t tmp_pitch,
         uint8_t *__restrict__ dst, size_t dst_pitch, int samples, int height, int border,
         int shift, const __grid_constant__ std::conditional_t<F64, SepTapsF64, SepTaps> taps)
{
    cf_pdl_begin();
    static_assert(!F64 || sizeof(T) == 2, "FP64 sums for 16-bit planes");
    // The sums: 32- or 64-bit integers, or on the FP64 units (blur_f64.cuh).
    using VAcc = std::conditional_t<F64, double, typename SepTypes<T>::VAcc>;
    using Mid = typename SepTypes<T>::Mid;
    constexpr int VC = SepTypes<T>::VC;
    extern __shared__ const void *row_table[];
    // Input row y0 - R - kChunk + k, column 0.
    const Mid **rows = reinterpret_cast<const Mid **>(row_table);
    const int R = taps.r, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int n_rows = kColRows + 2 * R + 2 * kChunk;
    const size_t tp = tmp_pitch / sizeof(Mid);
    const int x = blockIdx.x * 32 * VC + VC * lane;
    // Lanes past the row read its last whole group (inside the pitch) and
    // store nothing.
    const int xl = min(x, (int)tp - VC);
    const int tiles = (height + kColRows - 1) / kColRows;
    for (int ty = blockIdx.y; ty < tiles; ty += gridDim.y) {
        const int y0 = ty * kColRows;
        for (int k = tid; k < n_rows; k += 32 * kColWarps) {
            const int sy = cf_border_index(y0 - R - kChunk + k, height, border);
            rows[k] = tmp + (size_t)(sy < 0 ? height : sy) * tp;
        }
        __syncthreads();
        VAcc acc[kColOut][VC];
#pragma unroll
        for (int o = 0; o < kColOut; o++)
#pragma unroll
            for (int v = 0; v < VC; v++) {
                if constexpr (F64)
                    acc[o][v] = taps.start;
                else
                    acc[o][v] = 1u << 23; // cf_blur_round_v's rounding
            }
        auto load = [&](int k, uint32_t *v) {
            if constexpr (VC == 4) { // 4 16-bit intermediates
                const uint2 q = __ldg(reinterpret_cast<const uint2 *>(rows[k] + xl));
                v[0] = q.x & 0xffffu, v[1] = q.x >> 16, v[2 % VC] = q.y & 0xffffu,
                v[3 % VC] = q.y >> 16;
            } else {
                const uint2 q = __ldg(reinterpret_cast<const uint2 *>(rows[k] + xl));
                v[0] = q.x, v[1] = q.y;
            }
        };
        // Output row y0 + kColOut warp + o, pair t0 + j: top input row
        // (table index) kColOut warp + o + t0 + j + kChunk, bottom kColOut
        // warp + o + 2R - t0 - j + kChunk.
        const int top = kColOut * warp + kChunk, bottom = kColOut * warp + 2 * R + kChunk;
        for (int t0 = 0; t0 < taps.pairs; t0 += kChunk) {
#pragma unroll
            for (int j = 0; j < kChunk; j++) {
                const auto w = taps.w[t0 + j];
#pragma unroll
                for (int o = 0; o < kColOut; o++) {
                    uint32_t a[VC], b[VC];
                    load(top + t0 + o + j, a);
                    load(bottom - t0 + o - j, b);
#pragma unroll
                    for (int v = 0; v < VC; v++)
                        acc[o][v] = cf_blur_cuda::vsum_mac(acc[o][v], w, a[v] + b[v]);
                }
            }
        }
#pragma unroll
        for (int o = 0; o < kColOut; o++) {
            uint32_t a[VC];
            load(top + R + o, a);
#pragma unroll
            for (int v = 0; v < VC; v++)
                acc[o][v] = cf_blur_cuda::vsum_mac(acc[o][v], taps.centre, a[v]);
        }
        __syncthreads(); // the table is rewritten for the next tile
        if (x >= samples)
            continue;
#pragma unroll
        for (int o = 0; o < kColOut; o++) {
            const int y = y0 + kColOut * warp + o;
            if (y >= height)
                break;
            T *d = reinterpret_cast<T *>(dst + (size_t)y * dst_pitch) + x;
#pragma unroll
            for (int v = 0; v < VC; v++)
                if (x + v < samples)
                    d[v] = (T)(cf_blur_cuda::vsum_result(acc[o][v]) << shift);
        }
    }
}

unsigned grid_y(long long n)
{
    return (unsigned)std::min<long long>(n, 65535);
}

} // namespace

#include "blur_sep_rows8.cuh" // the rows pass of 8-bit planes

namespace {

template <typename T, int C>
cudaError_t launch_rows(const SepTaps &taps, const SepPairTaps *pairs, const cf_blur_plane &p,
                        typename SepTypes<T>::Mid *tmp, size_t tmp_pitch, cudaStream_t stream)
{
    if constexpr (sizeof(T) == 1) {
        if (pairs) {
            constexpr int G = rows_lanes(C), SEG = kOut * G;
            const size_t shared = (size_t)rows8_shared_bytes(C, pairs->chunks);
            cudaError_t err = cf_blur_cuda::allow_shared<sep_rows8<C>>(shared);
            if (err != cudaSuccess)
                return err;
            const dim3 grid((unsigned)((p.width + SEG - 1) / SEG), grid_y(p.height));
            return cf_launch(sep_rows8<C>, grid, dim3(G * C), shared, stream, p.src, p.src_pitch,
                             tmp, tmp_pitch, p.width, p.height, p.border, p.border_value, p.shift,
                             *pairs);
        }
    }
    constexpr int G = rows_lanes(C), SEG = kOut * G;
    const size_t shared = (size_t)C * rows_channel_words(C, taps.r) * sizeof(uint32_t);
    cudaError_t err = cf_blur_cuda::allow_shared<sep_rows<T, C>>(shared);
    if (err != cudaSuccess)
        return err;
    const dim3 grid((unsigned)((p.width + SEG - 1) / SEG), grid_y(p.height));
    return cf_launch(sep_rows<T, C>, grid, dim3(G * C), shared, stream, p.src, p.src_pitch, tmp,
                     tmp_pitch, p.width, p.height, p.border, p.border_value, p.shift, taps);
}

/* The columns pass of plane p from tmp, its sums as F64 says. */
template <typename T, bool F64>
cudaError_t launch_cols(const std::conditional_t<F64, SepTapsF64, SepTaps> &ty,
                        const cf_blur_plane &p, const typename SepTypes<T>::Mid *tmp,
                        size_t tmp_pitch, cudaStream_t stream)
{
    constexpr int VC = SepTypes<T>::VC;
    const int samples = p.width * p.channels;
    const size_t shared = (size_t)(kColRows + 2 * ty.r + 2 * kChunk) * sizeof(uint32_t *);
    cudaError_t err = cf_blur_cuda::allow_shared<sep_cols<T, F64>>(shared);
    if (err != cudaSuccess)
        return err;
    const dim3 grid((unsigned)((samples + 32 * VC - 1) / (32 * VC)),
                    grid_y((p.height + kColRows - 1) / kColRows));
    return cf_launch(sep_cols<T, F64>, grid, dim3(32 * kColWarps), shared, stream, tmp,
                     tmp_pitch, p.dst, p.dst_pitch, samples, p.height, p.border, p.shift, ty);
}

/* pairs: the horizontal taps for sep_rows8 (8-bit planes), or null for
 * sep_rows; f64: the columns pass's sums on the FP64 units (16-bit planes
 * only; sep_run asks cf_blur_cuda::f64_sums). */
template <typename T>
cudaError_t sep_plane(const SepTaps &tx, const SepPairTaps *pairs, const SepTaps &ty,
                      const cf_blur_plane &p, bool f64, void *scratch, size_t tmp_pitch,
                      cudaStream_t stream)
{
    using Mid = typename SepTypes<T>::Mid;
    Mid *tmp = static_cast<Mid *>(scratch);
    cudaError_t err = cudaErrorInvalidValue;
    switch (p.channels) {
    case 1: err = launch_rows<T, 1>(tx, pairs, p, tmp, tmp_pitch, stream); break;
    case 2: err = launch_rows<T, 2>(tx, pairs, p, tmp, tmp_pitch, stream); break;
    case 3: err = launch_rows<T, 3>(tx, pairs, p, tmp, tmp_pitch, stream); break;
    case 4: err = launch_rows<T, 4>(tx, pairs, p, tmp, tmp_pitch, stream); break;
    }
    if (err != cudaSuccess)
        return err;
    if constexpr (sizeof(T) == 2)
        if (f64)
            return launch_cols<T, true>(make_taps_f64(ty), p, tmp, tmp_pitch, stream);
    return launch_cols<T, false>(ty, p, tmp, tmp_pitch, stream);
}

} // namespace

namespace cf_blur_cuda {

bool sep_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
               int n_planes)
{
    if (kx.size < 1 || ky.size < 1 || kx.size > CF_BLUR_MAX_KSIZE || ky.size > CF_BLUR_MAX_KSIZE ||
        kx.size % 2 == 0 || ky.size % 2 == 0 || !symmetric_taps(kx) || !symmetric_taps(ky))
        return false;
    for (int i = 0; i < n_planes; i++)
        if (planes[i].channels < 1 || planes[i].channels > 4 ||
            (planes[i].sample_bytes != 1 && planes[i].sample_bytes != 2))
            return false;
    return true;
}

cudaError_t sep_cols_run(const cf_blur_kernel &ky, const cf_blur_plane &p, const void *tmp,
                         size_t tmp_pitch, cudaStream_t stream, bool *f64_used)
{
    *f64_used = false;
    if (p.sample_bytes != 2 || !symmetric_taps(ky))
        return cudaErrorInvalidValue;
    if (p.width < 1 || p.height < 1)
        return cudaSuccess;
    const SepTaps ty = make_taps(ky);
    const uint32_t *t = static_cast<const uint32_t *>(tmp);
    if (cf_blur_cuda::f64_sums(p.sample_bytes, p.shift)) {
        *f64_used = true;
        return launch_cols<uint16_t, true>(make_taps_f64(ty), p, t, tmp_pitch, stream);
    }
    return launch_cols<uint16_t, false>(ty, p, t, tmp_pitch, stream);
}

cudaError_t sep_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                    const cf_blur_plane *planes, int n_planes, void *tmp, size_t tmp_pitch,
                    cudaStream_t stream, bool *f64_used)
{
    *f64_used = false;
    const SepTaps tx = make_taps(kx), ty = make_taps(ky);
    bool eight = false; // a plane of 8-bit samples, whose rows pass takes DP2A pairs
    for (int i = 0; i < n_planes; i++) eight = eight || planes[i].sample_bytes == 1;
    SepPairTaps px;
    const SepPairTaps *pairs = nullptr;
    if (eight && dp2a_taps(kx)) {
        px = make_pair_taps(kx);
        pairs = &px;
    }
    for (int i = 0; i < n_planes; i++) {
        const cf_blur_plane &p = planes[i];
        if (p.width < 1 || p.height < 1)
            continue;
        const bool f64 = cf_blur_cuda::f64_sums(p.sample_bytes, p.shift);
        const cudaError_t err =
            p.sample_bytes == 1
                ? sep_plane<uint8_t>(tx, pairs, ty, p, false, tmp, tmp_pitch, stream)
                : sep_plane<uint16_t>(tx, nullptr, ty, p, f64, tmp, tmp_pitch, stream);
        if (err != cudaSuccess)
            return err;
        *f64_used = *f64_used || f64;
    }
    return cudaSuccess;
}

} // namespace cf_blur_cuda
