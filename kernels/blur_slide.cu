/* CUDA blur, sliding-window method (blur_cuda.cuh): small kernels, where a
 * blur costs what moving its bytes costs. Planes of 1-4 channels of 8-bit
 * samples up to radius 6, of 1-2 channels of 16-bit samples up to radius 8
 * (built: 1-6 for 8-bit; 2, 4, 6 and 8 for 16-bit, the radii of OpenCV's
 * 16-bit kernel sizes for sigma 0.5 to 2), every plane of a frame in one
 * launch, with no shared memory, no barrier and no intermediate plane. A
 * kernel of a radius between the built ones, and unequal horizontal and
 * vertical radii, run on the next built radius with their taps centred
 * among zero weights (a zero tap adds 0: the same sums).
 *
 * Why: at these radii the register and tile methods (blur_reg.cu,
 * blur_tile.cu) spend most of a tile's time between their barriers,
 * staging, then the horizontal pass, then the vertical one (4K GRAY8 sigma
 * 0.5 at 23% of the copy rate, P010 at 19%: bench/results/2026-12-01-h200-
 * s17-final.log); here no thread waits for another. Measured on the H200
 * (bench/results/2026-12-01-h200-s18-17-slide.md): for 16-bit frames up to
 * radius 4 it is faster than the tile method (4K P010 sigma 0.5 in 0.034 ms
 * against 0.062), which is what the dispatch table gives it; for 8-bit
 * frames the register method stays faster at every radius. Nsight Compute
 * has it waiting on its own latency with few warps (about one wave, 27%
 * occupancy at 4K GRAY8 sigma 0.5); shorter strips (4-12 rows) and one
 * word a thread did not make it faster (bench/diag/slide_tune.cu,
 * bench/results/2026-12-01-h200-s18-17-next.log).
 *
 * In a plane's interior, a thread owns one or two 32-bit words of a row
 * (slide_words: 4 or 8 samples of 8 bits, 2 or 4 of 16) and a strip of
 * slide_rows(R) output rows, and
 * reads the strip's input rows from the top, 2R more than it makes. Of
 * each row it loads the words its horizontal taps reach (its own and HW
 * each side, fetched once from memory by the lanes that own them and from
 * L1 by their neighbours), makes its samples' horizontal sums and keeps
 * the last 2R + 1 rows of them in registers, a ring whose slots are
 * compile-time indices (the rows go 2R + 1 at a time, unrolled); each row
 * from the 2R + 1-th on completes an output row's vertical sums. The 32
 * lanes of a warp take neighbouring words (128 or 256 bytes of a row); the
 * warps of a block take strips one below the other. The interior is every
 * word whose taps stay inside the row, of rows 4-byte aligned; the few
 * samples left and right of it (all of a plane of unaligned rows) are its
 * edge, made one a thread straight from their (2R + 1)^2 inputs through
 * cf_border_index, by blocks of their own at the start of the launch (a
 * slow path inside the strips would make every warp beside an edge as
 * slow as its slowest lane, and the launch as long as those warps).
 *
 * Arithmetic of blur.h, with the symmetric taps paired as the tile and
 * two-pass methods do (w[t] = w[2R - t]; one multiply-add a pair): the
 * very integers of the tap-by-tap sums, unsigned arithmetic being exact
 * modulo 2^32 (horizontal; vertical for 8-bit samples) or 2^64 (vertical
 * for 16-bit samples) and blur.h's bounds keeping the true sums below. */
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <type_traits>

#include "blur_cuda.cuh"

namespace {

constexpr int kSlideWarps = 4; // warps of a block: strips one below the other
constexpr int kSlideMaxR = 8;  // widest radius built

/* Output rows of a thread's strip. The strips above and below read its 2R
 * rows of halo again and make their horizontal sums again, so larger radii
 * take taller strips; small ones keep enough threads to fill the GPU at
 * 4K (3840 x 2160 GRAY8, radius 2, two words a thread, in strips of 16:
 * 65 000 threads). */
__host__ __device__ constexpr int slide_rows(int R)
{
    return R <= 2 ? 16 : R <= 4 ? 24 : 32;
}

/* 32-bit words of a row a thread owns: 2 where the ring of 2R + 1 rows of
 * its samples fits in 40 registers (8-bit radius 1-2, 16-bit 1-4), which
 * halves the per-row costs a sample pays (the row's fold and address, the
 * words of the taps' reach each side); else 1. */
__host__ __device__ constexpr int slide_words(int R, int sample_bytes)
{
    return (2 * R + 1) * 2 * (4 / sample_bytes) <= 40 ? 2 : 1;
}

/* Samples of a row a thread owns: slide_words words of 4 / sample_bytes
 * samples. */
__host__ __device__ constexpr int slide_samples(int R, int sample_bytes)
{
    return slide_words(R, sample_bytes) * (4 / sample_bytes);
}

/* Blocks an SM the register budget is cut for: 80 registers a thread for
 * 8-bit samples at radius 1-2 (two words a thread: a ring of up to 5 rows
 * of 8 sums), 64 for the other radii up to 3 (16-bit radius 2 included),
 * 96 above (ptxas for sm_90: the 8-bit radius-6 kernels spill 460-976
 * bytes there, 16-bit radius 8 40, the others little or none). */
__host__ __device__ constexpr int slide_min_blocks(int R, int sample_bytes)
{
    return R > 3 ? 5 : slide_words(R, sample_bytes) == 2 && sample_bytes == 1 ? 6 : 8;
}

/* Taps centred in 2R + 1 (R the built radius): x[t] and y[t] (t < R) weigh
 * the pair of samples t and 2R - t, x[R] and y[R] the centre. */
struct SlideTaps {
    uint32_t x[kSlideMaxR + 1], y[kSlideMaxR + 1];
};

/* One plane of a launch. Its thread columns [fast_lo, fast_hi), each of
 * slide_words 32-bit words (words fast_lo * WPT .. fast_hi * WPT - 1), are
 * the interior: every sample their taps reach lies inside the row, and
 * the rows are 4-byte aligned; the samples left and right of them, edge
 * in all (left of them, then right), are its edge samples. */
struct SlidePlane {
    const uint8_t *src;
    size_t src_pitch; // bytes
    uint8_t *dst;
    size_t dst_pitch;  // bytes
    int width, height; // pixels
    int wide;          // 1: the launch's second channel count (C1), 0: its first (C0)
    int border, shift;
    uint32_t border_value; // sample units, after the shift
    int fast_lo, fast_hi;  // interior thread columns
    int left, edge;        // edge samples of a row: left of the interior, in all
    int first_group;       // its first strip group in the launch
    long long first_edge;  // its first edge sample in the launch's numbering
};

/* Every plane of a frame in one launch. Block rows (blockIdx.y) below
 * edge_rows make the edge samples, one a thread, numbered over the
 * launch: plane by plane, row by row; the others the interior strips,
 * kSlideWarps a block (one a warp), block row edge_rows + g being strip
 * group g - first_group of the last plane whose first_group is at most g,
 * blockIdx.x its column of 32 threads (those past a plane's interior do
 * nothing). Edge blocks come first, so that their longer threads start
 * early. */
struct SlideLaunch {
    SlidePlane plane[CF_MAX_PLANES];
    int n_planes, groups, edge_rows;
    long long edges; // edge samples of every plane, all rows
};

/* Vertical sums: 32 bits for 8-bit samples, 64 for 16-bit ones (blur.h's
 * bounds). */
template <typename T> struct SlideAcc {
    using type = uint64_t;
};
template <> struct SlideAcc<uint8_t> {
    using type = uint32_t;
};

/* One interior strip: output rows y0 .. y0 + slide_rows(R) - 1 (those
 * inside the plane) of the samples of word xw of each row, each input row
 * WIN word loads. The input rows go K at a time, those K unrolled, so
 * that each takes ring slot k (its row number modulo K) at a compile-time
 * index and the loads of the K rows do not wait on each other. */
template <typename T, int C, int R>
__device__ __forceinline__ void slide_strip(const SlidePlane &p, int xw, int y0,
                                            const SlideTaps &taps)
{
    constexpr int SW = 4 / (int)sizeof(T); // samples a word
    // Words and samples a thread owns.
    constexpr int WPT = slide_words(R, sizeof(T)), VS = slide_samples(R, sizeof(T));
    constexpr int HW = (R * C + SW - 1) / SW; // words each side that the taps reach
    constexpr int WIN = 2 * HW + WPT, K = 2 * R + 1;
    constexpr int N = slide_rows(R) + 2 * R; // input rows
    constexpr int BITS = 8 * (int)sizeof(T);
    constexpr uint32_t MASK = (1u << BITS) - 1;
    using Acc = typename SlideAcc<T>::type;
    const int shift = p.shift;
    const uint32_t fill = p.border_value;
    const int misalign = (int)(((uintptr_t)p.dst | p.dst_pitch) % (4 * WPT)); // 0: one store
    uint32_t ring[K][VS]; // horizontal sums of input row j in slot j % K
    for (int j0 = 0; j0 < N; j0 += K) {
#pragma unroll
        for (int k = 0; k < K; k++) {
            const int j = j0 + k;
            if (j >= N)
                break;
            const int sy = cf_border_index(y0 - R + j, p.height, p.border); // -1: constant
            const uint32_t *words =
                reinterpret_cast<const uint32_t *>(p.src + (size_t)max(sy, 0) * p.src_pitch) +
                (xw * WPT - HW);
            uint32_t s[WIN * SW]; // the window's samples, shifted down
#pragma unroll
            for (int w = 0; w < WIN; w++) {
                const uint32_t word = __ldg(words + w);
#pragma unroll
                for (int v = 0; v < SW; v++) {
                    const uint32_t x = (word >> (BITS * v)) & MASK;
                    s[w * SW + v] = sy < 0 ? fill : sizeof(T) == 1 ? x : x >> shift;
                }
            }
            // Horizontal: sample v of the thread is s[HW * SW + v]; tap t
            // of it is R - t channels' strides to its left. Sums start at
            // 2^7, the rounding of cf_blur_round_h.
#pragma unroll
            for (int v = 0; v < VS; v++) {
                constexpr int c0 = HW * SW;
                uint32_t a = 1u << 7;
#pragma unroll
                for (int t = 0; t < R; t++)
                    a += taps.x[t] * (s[c0 + v + (t - R) * C] + s[c0 + v + (R - t) * C]);
                a += taps.x[R] * s[c0 + v];
                ring[k][v] = a >> 8;
            }
            if (j < 2 * R)
                continue;
            // Vertical: output row y0 + j - 2R from input rows j - 2R .. j,
            // ring slots (k + 1 + t) % K (-2R = 1 modulo K). Sums start at
            // 2^23, the rounding of cf_blur_round_v.
            const int y = y0 + j - 2 * R;
            uint32_t q[VS];
#pragma unroll
            for (int v = 0; v < VS; v++) {
                Acc a = 1u << 23;
#pragma unroll
                for (int t = 0; t < R; t++)
                    a += (Acc)taps.y[t] *
                         (ring[(k + 1 + t) % K][v] + ring[(k + 1 + 2 * R - t) % K][v]);
                a += (Acc)taps.y[R] * ring[(k + 1 + R) % K][v];
                q[v] = (uint32_t)(a >> 24) << shift;
            }
            if (y >= p.height)
                continue;
            uint8_t *out = p.dst + (size_t)y * p.dst_pitch + (size_t)xw * 4 * WPT;
            uint32_t packed[WPT];
#pragma unroll
            for (int w = 0; w < WPT; w++)
                packed[w] = sizeof(T) == 1
                                ? q[4 * w % VS] | q[(4 * w + 1) % VS] << 8 |
                                      q[(4 * w + 2) % VS] << 16 | q[(4 * w + 3) % VS] << 24
                                : q[2 * w % VS] | q[(2 * w + 1) % VS] << 16;
            if (WPT == 2 && misalign == 0) {
                *reinterpret_cast<uint2 *>(out) = make_uint2(packed[0], packed[WPT - 1]);
            } else if (misalign % 4 == 0) {
#pragma unroll
                for (int w = 0; w < WPT; w++) reinterpret_cast<uint32_t *>(out)[w] = packed[w];
            } else {
#pragma unroll
                for (int v = 0; v < VS; v++) reinterpret_cast<T *>(out)[v] = (T)q[v];
            }
        }
    }
}

/* One edge sample: sample x of output row y, straight from its (2R + 1)^2
 * inputs, every row and column folded (cf_border_index): the horizontal
 * sums of the 2R + 1 rows, then their vertical sum, as slide_strip makes
 * them. */
template <typename T, int C, int R>
__device__ __forceinline__ void slide_edge(const SlidePlane &p, int x, int y,
                                           const SlideTaps &taps)
{
    constexpr int K = 2 * R + 1;
    using Acc = typename SlideAcc<T>::type;
    const int px = x / C, ch = x - px * C;
    int col[K]; // sample offsets in a row of the taps' columns (-1: constant)
#pragma unroll
    for (int t = 0; t < K; t++) {
        const int sx = cf_border_index(px + t - R, p.width, p.border);
        col[t] = sx < 0 ? -1 : sx * C + ch;
    }
    uint32_t h[K];
#pragma unroll
    for (int r = 0; r < K; r++) {
        const int sy = cf_border_index(y + r - R, p.height, p.border);
        const T *row = reinterpret_cast<const T *>(p.src + (size_t)max(sy, 0) * p.src_pitch);
        uint32_t v[K];
#pragma unroll
        for (int t = 0; t < K; t++)
            v[t] = sy < 0 || col[t] < 0 ? p.border_value : (uint32_t)row[max(col[t], 0)] >> p.shift;
        uint32_t a = 1u << 7;
#pragma unroll
        for (int t = 0; t < R; t++) a += taps.x[t] * (v[t] + v[2 * R - t]);
        h[r] = (a + taps.x[R] * v[R]) >> 8;
    }
    Acc a = 1u << 23;
#pragma unroll
    for (int t = 0; t < R; t++) a += (Acc)taps.y[t] * (h[t] + h[2 * R - t]);
    a += (Acc)taps.y[R] * h[R];
    reinterpret_cast<T *>(p.dst + (size_t)y * p.dst_pitch)[x] = (T)((uint32_t)(a >> 24) << p.shift);
}

template <typename T, int R, int C0, int C1>
__global__ void __launch_bounds__(32 * kSlideWarps, slide_min_blocks(R, sizeof(T)))
blur_slide(const __grid_constant__ SlideLaunch l, const __grid_constant__ SlideTaps taps)
{
    cf_pdl_begin();
    const int rows = l.edge_rows + l.groups;
    for (unsigned g = blockIdx.y; g < (unsigned)rows; g += gridDim.y) {
        auto run = [&](const SlidePlane &p, auto work) {
            if (C0 == C1 || !p.wide)
                work(std::integral_constant<int, C0>());
            else
                work(std::integral_constant<int, C1>());
        };
        if (g < (unsigned)l.edge_rows) {
            // Edge sample n of the launch: plane i, row m / edge, its edge
            // sample m % edge (left ones, then right ones).
            const long long n =
                ((long long)g * gridDim.x + blockIdx.x) * (32 * kSlideWarps) +
                threadIdx.y * 32 + threadIdx.x;
            if (n >= l.edges)
                continue;
            int i = 0;
            while (i + 1 < l.n_planes && n >= l.plane[i + 1].first_edge)
                i++;
            const SlidePlane &p = l.plane[i];
            const long long m = n - p.first_edge;
            const int y = (int)(m / p.edge), e = (int)(m - (long long)y * p.edge);
            run(p, [&](auto channels) {
                constexpr int C = decltype(channels)::value;
                constexpr int VS = slide_samples(R, sizeof(T));
                const int x = e < p.left ? e : p.fast_hi * VS + (e - p.left);
                slide_edge<T, C, R>(p, x, y, taps);
            });
            continue;
        }
        const unsigned gs = g - l.edge_rows;
        int i = 0;
        while (i + 1 < l.n_planes && gs >= (unsigned)l.plane[i + 1].first_group)
            i++;
        const SlidePlane &p = l.plane[i];
        const int xw = p.fast_lo + blockIdx.x * 32 + threadIdx.x;
        const int y0 = (((int)gs - p.first_group) * kSlideWarps + threadIdx.y) * slide_rows(R);
        if (xw >= p.fast_hi || y0 >= p.height)
            continue;
        run(p, [&](auto channels) {
            slide_strip<T, decltype(channels)::value, R>(p, xw, y0, taps);
        });
    }
}

template <typename T, int R, int C0, int C1>
cudaError_t launch_slide(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                         const cf_blur_plane *planes, int n_planes, cudaStream_t stream)
{
    static_assert(R <= kSlideMaxR, "taps sized for kSlideMaxR");
    constexpr int SW = 4 / (int)sizeof(T), WPT = slide_words(R, sizeof(T));
    constexpr int VS = slide_samples(R, sizeof(T));
    constexpr int THREADS = 32 * kSlideWarps;
    SlideTaps taps = {};
    for (int t = 0; t <= R; t++) {
        taps.x[t] = cf_blur_cuda::centred_tap(kx, R, t);
        taps.y[t] = cf_blur_cuda::centred_tap(ky, R, t);
    }
    SlideLaunch l = {};
    l.n_planes = n_planes;
    long long cols = 1, groups = 0, edges = 0;
    for (int i = 0; i < n_planes; i++) {
        const cf_blur_plane &p = planes[i];
        const int C = p.channels, hw = (R * C + SW - 1) / SW; // words each side
        const long long samples = (long long)p.width * C;
        SlidePlane &q = l.plane[i];
        q.src = p.src, q.src_pitch = p.src_pitch, q.dst = p.dst, q.dst_pitch = p.dst_pitch;
        q.width = p.width, q.height = p.height, q.wide = C != C0;
        q.border = p.border, q.shift = p.shift, q.border_value = p.border_value;
        // The interior: the threads whose words and the hw words each side
        // lie inside the row, of rows 4-byte aligned.
        const bool aligned = ((uintptr_t)p.src | p.src_pitch) % 4 == 0;
        q.fast_lo = (hw + WPT - 1) / WPT;
        q.fast_hi = (int)std::max<long long>(q.fast_lo, aligned ? (samples / SW - hw) / WPT : 0);
        const bool interior = q.fast_hi > q.fast_lo;
        q.left = interior ? q.fast_lo * VS : (int)samples;
        q.edge = interior ? (int)(q.left + samples - (long long)q.fast_hi * VS) : q.left;
        q.first_group = (int)std::min<long long>(groups, INT_MAX);
        q.first_edge = edges;
        if (p.height < 1 || samples < 1)
            continue;
        if (q.fast_hi > q.fast_lo) {
            const long long strips = ((long long)p.height + slide_rows(R) - 1) / slide_rows(R);
            cols = std::max<long long>(cols, (q.fast_hi - q.fast_lo + 31) / 32);
            groups += (strips + kSlideWarps - 1) / kSlideWarps;
        }
        edges += (long long)q.edge * p.height;
    }
    const long long edge_rows = (edges + cols * THREADS - 1) / (cols * THREADS);
    if (cols > INT_MAX || groups + edge_rows > INT_MAX)
        return cudaErrorInvalidValue;
    l.groups = (int)groups;
    l.edge_rows = (int)edge_rows;
    l.edges = edges;
    if (groups + edge_rows == 0) // an empty frame
        return cudaSuccess;
    const dim3 grid((unsigned)cols, (unsigned)std::min<long long>(groups + edge_rows, 65535));
    return cf_launch(blur_slide<T, R, C0, C1>, grid, dim3(32, kSlideWarps), 0, stream, l, taps);
}

template <typename T, int C0, int C1>
cudaError_t launch_slide_radius(int R, const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                                const cf_blur_plane *planes, int n_planes, cudaStream_t stream)
{
    switch (R) {
#define CF_SLIDE_CASE(r) \
    case r: return launch_slide<T, r, C0, C1>(kx, ky, planes, n_planes, stream);
        CF_SLIDE_CASE(2) CF_SLIDE_CASE(4) CF_SLIDE_CASE(6)
    }
    if constexpr (sizeof(T) == 1) {
        switch (R) { CF_SLIDE_CASE(1) CF_SLIDE_CASE(3) CF_SLIDE_CASE(5) }
    } else {
        switch (R) { CF_SLIDE_CASE(8) }
    }
#undef CF_SLIDE_CASE
    return cudaErrorInvalidValue;
}

} // namespace

namespace cf_blur_cuda {

int slide_radius(int r, int sample_bytes)
{
    if (sample_bytes == 1)
        return r <= 6 ? std::max(r, 1) : 0;
    return r <= kSlideMaxR ? std::max(2, (r + 1) / 2 * 2) : 0;
}

bool slide_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                 const cf_blur_plane *planes, int n_planes)
{
    if (n_planes < 1 || n_planes > CF_MAX_PLANES || kx.size < 1 || ky.size < 1 ||
        kx.size % 2 == 0 || ky.size % 2 == 0 || !symmetric_taps(kx) || !symmetric_taps(ky))
        return false;
    const int sb = planes[0].sample_bytes;
    if ((sb != 1 && sb != 2) || slide_radius(std::max(kx.size, ky.size) / 2, sb) == 0)
        return false;
    bool small = true, three = true, four = true; // every plane of 1-2 channels; of 3; of 4
    for (int i = 0; i < n_planes; i++) {
        // Sample and row numbers fit an int with the strips' reach to
        // spare (the kernel counts them in int), and 8-bit samples carry
        // no shift (the interior does not shift them down: no 8-bit
        // format has one).
        const long long samples = (long long)planes[i].width * planes[i].channels;
        if (planes[i].sample_bytes != sb || samples > INT_MAX ||
            planes[i].height > INT_MAX - 4 * kSlideWarps * slide_rows(kSlideMaxR) ||
            (sb == 1 && planes[i].shift != 0))
            return false;
        const int c = planes[i].channels;
        small = small && (c == 1 || c == 2);
        three = three && c == 3;
        four = four && c == 4;
    }
    return small || (sb == 1 && (three || four));
}

cudaError_t slide_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                      const cf_blur_plane *planes, int n_planes, cudaStream_t stream)
{
    if (!slide_takes(kx, ky, planes, n_planes))
        return cudaErrorInvalidValue;
    const int sb = planes[0].sample_bytes;
    const int R = slide_radius(std::max(kx.size, ky.size) / 2, sb);
    if (sb == 2)
        return launch_slide_radius<uint16_t, 1, 2>(R, kx, ky, planes, n_planes, stream);
    switch (planes[0].channels) {
    case 3: return launch_slide_radius<uint8_t, 3, 3>(R, kx, ky, planes, n_planes, stream);
    case 4: return launch_slide_radius<uint8_t, 4, 4>(R, kx, ky, planes, n_planes, stream);
    default: return launch_slide_radius<uint8_t, 1, 2>(R, kx, ky, planes, n_planes, stream);
    }
}

} // namespace cf_blur_cuda
