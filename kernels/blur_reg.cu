/* CUDA blur, register-window method (blur_cuda.cuh): 8-bit planes of 1, 2
 * or 4 channels, both passes of a tile in shared memory, for the radii it
 * is built for (1-12, 16, 20, 24, 32, 40, 48; and 56, 64, 72, 80, 88, 96
 * for planes of 1-2 channels); kernels of other radii up to 96 (48 for 4
 * channels), and unequal horizontal and vertical radii, run on the next
 * built radius with their taps centred among zero weights (a zero tap adds
 * 0: the same sums). Arithmetic of blur.h. */
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <climits>
#include <type_traits>

#include "blur_cuda.cuh"

namespace {

/* 8-bit planes of 1, 2 or 4 interleaved channels (GRAY8 and the Y of
 * NV12/I420; the UV of NV12; RGBA and kin), kernels centred in 2R + 1 taps
 * both ways for the radii R built here (reg_radius): each thread
 * computes several outputs from a window of inputs held in registers, the
 * taps compile-time indices into the constant bank.
 * All planes of a frame go in one launch (blur8_reg), so one plane's last
 * tiles overlap the next plane's first ones.
 *
 * Per block a W x H output tile (RegShape). The block stages the tile
 * plus the radius on every side in shared memory, rows folded at the top
 * and bottom: 16-byte chunks that lie inside the source row are copied
 * whole and asynchronously (rows 16-byte aligned, as in our pools); the
 * chunks at a frame's left and right edges go byte by byte through a table
 * of folded columns. The horizontal pass makes Opx pixels of a row per
 * item for all H + 2R staged rows, two taps per DP2A instruction; the
 * vertical pass RowsV rows of VCols adjacent pixels, one IMAD a tap (one
 * IMAD a pair of taps past radius 24, vertical_sums_paired). The tile
 * height is picked per radius and channel count (reg_rows_v) so the
 * horizontal pass's last round of threads is nearly full and wide kernels
 * redo few rows. Rounding constants start the sums, and results are
 * picked out of them with byte permutes. Where the launch's last wave of
 * blocks would leave most of the GPU idle, its tile rows are split into
 * rows of H / 2 (launch_reg). */
/* Blocks per SM the register budget is cut for (48 registers at 5): 5
 * where an SM holds 1280 threads or more (sm_80 and later), 4 on Turing. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
constexpr int kRegMinBlocks = 4;
#else
constexpr int kRegMinBlocks = 5;
#endif
/* The wide radii (above 24): tiles of 512 threads and up to 100 KiB of
 * shared memory, two blocks an SM, so that a tile is tall enough for its
 * 2R staged rows of halo to cost less than its own rows (the horizontal
 * pass runs over both), 4-channel tiles 16 pixels wide to fit; and
 * vertical sums with the symmetric taps paired (vertical_sums_paired).
 * The huge radii (above 48, planes of 1-2 channels only): the same with
 * tiles of 1024 threads and up to 220 KiB, one block an SM, for the same
 * ratio of halo to tile at twice the radius. */
constexpr int kRegNarrowMaxR = 24, kRegWideMaxR = 48;
__host__ __device__ constexpr bool reg_wide(int R)
{
    return R > kRegNarrowMaxR;
}
__host__ __device__ constexpr bool reg_huge(int R)
{
    return R > kRegWideMaxR;
}
/* Tile width in pixels (16-byte multiples of samples). */
__host__ __device__ constexpr int reg_tile_w(int C, int R)
{
    return C == 1 ? 64 : C == 4 && reg_wide(R) ? 16 : 32;
}
/* Threads of a block: W * H / (RowsV * VCols). */
__host__ __device__ constexpr int reg_threads(int R)
{
    return reg_huge(R) ? 1024 : reg_wide(R) ? 512 : 256;
}

/* Adjacent pixels per thread of the vertical pass: 4 for one channel up
 * to radius 12 (the intermediates then 32-bit, 4 to a 16-byte load), else
 * 1 (16-bit intermediates). */
__host__ __device__ constexpr int reg_vcols(int C, int R)
{
    return C == 1 && R <= 12 ? 4 : 1;
}

/* Shared memory of blur8_reg for a tile of W x H pixels (the layout
 * reg_tile carves): staged rows and slack, intermediates, column table. */
__host__ __device__ constexpr int reg_shared_bytes(int C, int R, int W, int H)
{
    const int in_px = W + 2 * R, off = (16 - R * C % 16) % 16;
    const int stride = (off + in_px * C + 15) / 16 * 16;
    return (H + 2 * R) * stride + 32 + (H + 2 * R) * W * C * (reg_vcols(C, R) == 4 ? 4 : 2) +
           in_px * C * 4;
}

/* Output pixels per item of the horizontal pass: 8 for one channel (8
 * sums), 4 for two and four (8 and 16 sums). */
constexpr int reg_opx(int C)
{
    return C == 1 ? 8 : 4;
}

/* Output rows per thread of the vertical pass, which sets the tile height
 * H = RowsV * VCols * reg_threads(R) / W. The horizontal pass runs (H + 2R)
 * * W / Opx items on reg_threads(R) threads in whole rounds; the pick is the
 * height with the fewest rounds per output row (a partly idle last round
 * is paid in full), within 47 KiB of shared memory and a bound on
 * accumulators (RowsV * VCols * C registers). */
constexpr int reg_rows_v(int C, int R)
{
    const int W = reg_tile_w(C, R), vc = reg_vcols(C, R), threads = reg_threads(R);
    if (reg_wide(R)) {
        // The tallest tile within 100 KiB (220 KiB for the huge radii) and
        // 16 accumulators (the paired sums hold three values an
        // accumulator): a partial last round of the horizontal pass costs
        // little beside the block's other rounds or other blocks.
        const int max_shared = (reg_huge(R) ? 220 : 100) * 1024;
        int rv = 1;
        while ((rv + 1) * C <= 16 &&
               reg_shared_bytes(C, R, W, (rv + 1) * threads / W) <= max_shared)
            rv++;
        return rv;
    }
    const int max_acc = C == 1 ? (R > 12 ? 32 : 20) : 24;
    const int first = vc == 4 ? 1 : 4; // rows of 4 pixels from 1, of 1 pixel from 4
    int best_rv = first, best_rounds = 0, best_h = 0;
    for (int rv = first; rv * C * vc <= max_acc; rv++) {
        const int h = rv * vc * threads / W;
        if (reg_shared_bytes(C, R, W, h) > 47 * 1024)
            break;
        const int rounds = ((h + 2 * R) * (W / reg_opx(C)) + threads - 1) / threads;
        if (best_h == 0 || rounds * best_h < best_rounds * h)
            best_rv = rv, best_rounds = rounds, best_h = h;
    }
    return best_rv;
}

template <int C, int R> struct RegShape {
    static_assert(C == 1 || C == 2 || C == 4, "1, 2 or 4 channels");
    static constexpr int W = reg_tile_w(C, R), Opx = reg_opx(C), VCols = reg_vcols(C, R);
    static constexpr int Threads = reg_threads(R);
    static constexpr int RowsV = reg_rows_v(C, R), H = RowsV * VCols * Threads / W;
    // Over 28 accumulators, 80 registers at 3 blocks; else kRegMinBlocks.
    // (The one-channel radius-24 kernel's 28 run faster at 5 blocks with
    // a few spilled registers than at 3 without: cf-bench, H200.) The
    // wide radii: 64 registers at 2 blocks of 512 threads; the huge ones
    // at 1 of 1024.
    static constexpr int MinBlocks = reg_huge(R)                ? 1
                                     : reg_wide(R)              ? 2
                                     : RowsV * VCols * C > 28 ? 3
                                                              : kRegMinBlocks;
};
constexpr int kRegMaxR = 96; // widest radius built

/* Horizontal taps in neighbouring pairs for DP2A: p[m] = w[2m] | w[2m+1]
 * << 16, the last tap alone (needs every tap below 65536). Vertical taps
 * as they are. Sized for the widest kernel built, so the launch carries
 * about 540 bytes of parameters (with RegLaunch) rather than two 4 KiB
 * cf_blur_kernels. */
struct RegTaps {
    uint32_t pairs[kRegMaxR + 1];
    uint32_t v[2 * kRegMaxR + 1];
};

/* One plane of a blur8_reg launch. */
struct RegPlane {
    const uint8_t *src;
    size_t src_pitch; // bytes
    uint8_t *dst;
    size_t dst_pitch; // bytes
    int width, height; // pixels
    int wide;          // 1: the launch's second channel count (C1), 0: its first (C0)
    int first_row;     // its first tile row in the launch's numbering
    int full_rows;     // its tile rows of full height H; the rows after them are H / 2 high
};

/* Every plane of a frame in one launch, their tile rows one after the
 * other: tile row t of the launch is tile row t - first_row of the last
 * plane whose first_row is at most t; blockIdx.x is the tile column (those
 * past a plane's width do nothing). */
struct RegLaunch {
    RegPlane plane[CF_MAX_PLANES];
    int n_planes, rows, border;
    uint32_t border_value;
};

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

/* One output tile of plane p, W pixels wide and tile_h rows high (H, or
 * H / 2 for the split rows of launch_reg), whose top-left output pixel is
 * (x0, y0), in the block's shared memory smem (reg_shared_bytes, laid out
 * for H). In a tile of H / 2 rows the 4-column vertical pass gives each
 * thread 2 columns, so every thread has work and the pass takes half as
 * long; the other shapes' threads past tile_h idle. Ends with the block
 * synchronised. */
template <int R, int C>
__device__ __forceinline__ void reg_tile(const RegPlane &p, int x0, int y0, int tile_h, int border,
                                         uint32_t border_value, const RegTaps &taps, uint8_t *smem)
{
    using Shape = RegShape<C, R>;
    constexpr int K = 2 * R + 1, W = Shape::W, H = Shape::H, ROWS_V = Shape::RowsV;
    constexpr int VC = Shape::VCols, T = Shape::Threads;
    static_assert(W * H / (ROWS_V * VC) == T, "one vertical item per thread");
    static_assert(H % (2 * ROWS_V) == 0, "a tile of H / 2 rows is whole threads' rows");
    static_assert(W * C % 16 == 0, "tiles start on 16-byte boundaries");
    constexpr int IN_H = H + 2 * R, IN_PX = W + 2 * R;
    // A staged row starts 16-byte aligned, LEFT bytes left of the tile; the
    // pixel x0 - R is its byte OFF.
    constexpr int OFF = (16 - R * C % 16) % 16, LEFT = R * C + OFF;
    constexpr int IN_STRIDE = (OFF + IN_PX * C + 15) / 16 * 16; // bytes per staged row
    constexpr int VECS = IN_STRIDE / 16;
    // Horizontal item: OPX outputs from the words holding bytes SO .. of
    // the word-aligned window starting at its first input pixel. Its pairs
    // start at samples 0 .. SPAN - 1 of each channel, so the window covers
    // one pixel more than the taps reach (a weight of 0). Loaded WORD_VEC
    // words at a time, as the window's alignment allows.
    constexpr int OPX = Shape::Opx, ITEMS = W / OPX, SPAN = 2 * R + OPX, SO = OFF % 4;
    constexpr int WORD_VEC = (OFF - SO) % 16 == 0 && OPX * C % 16 == 0 ? 4
                             : (OFF - SO) % 8 == 0 && OPX * C % 8 == 0 ? 2
                                                                       : 1;
    constexpr int WORDS = ((SO + SPAN * C - (C == 1 ? 1 : 2)) / 4 + 2 + WORD_VEC - 1) / WORD_VEC *
                          WORD_VEC;
    static_assert(C == 1 || (SO % 2 == 0 && (C == 2 || SO == 0)),
                  "a byte permute reaches the bytes of two pairs");
    static_assert(OFF - SO + (W - OPX) * C + 4 * WORDS <= IN_STRIDE + 32,
                  "the last row's window stays in the slack");
    using Mid = std::conditional_t<VC == 4, uint32_t, uint16_t>; // an intermediate
    static_assert(reg_shared_bytes(C, R, W, H) ==
                      (IN_H * IN_STRIDE + 32) + IN_H * W * C * (int)sizeof(Mid) + IN_PX * C * 4,
                  "the layout reg_shared_bytes counts");
    uint8_t *in = smem; // IN_H rows of IN_STRIDE bytes, then 32 bytes of slack for word loads
    Mid *mid = reinterpret_cast<Mid *>(smem + IN_H * IN_STRIDE + 32); // IN_H x W x C
    int *col_src = reinterpret_cast<int *>(mid + IN_H * W * C);       // IN_PX x C
    const uint8_t *__restrict__ src = p.src;
    uint8_t *__restrict__ dst = p.dst;
    const size_t src_pitch = p.src_pitch, dst_pitch = p.dst_pitch;
    const int width = p.width, height = p.height;
    const int tid = threadIdx.x;
    const int in_h = tile_h + 2 * R; // staged rows (IN_H for a full tile)
    const bool dst_aligned = ((uintptr_t)dst | dst_pitch) % C == 0;
    // Staged rows go 16-byte chunk by chunk. Chunks [v_lo, v_hi) lie
    // inside the source row (rows 16-byte aligned): copied whole,
    // asynchronously. The others, at a frame's left or right edge, byte by
    // byte through a table of folded source columns.
    const int g0 = x0 * C - LEFT; // a staged row's first byte in its source row (may be < 0)
    int v_lo = 0, v_hi = 0;
    if (((uintptr_t)src | src_pitch) % 16 == 0) {
        v_lo = g0 < 0 ? (15 - g0) / 16 : 0;
        v_hi = max(v_lo, min(VECS, (width * C - g0) / 16));
    }
    const bool edge = v_lo > 0 || v_hi < VECS;
    if (edge) {
        // The byte offset in a source row of each staged pixel byte
        // (border folded; -1 for the constant).
        for (int b = tid; b < IN_PX * C; b += T) {
            const int sx = cf_border_index(x0 - R + b / C, width, border);
            col_src[b] = sx < 0 ? -1 : sx * C + b % C;
        }
        __syncthreads();
    }
    const uint4 fill = make_uint4(border_value * 0x01010101u, border_value * 0x01010101u,
                                  border_value * 0x01010101u, border_value * 0x01010101u);
    // Whole chunks first, so that the edge chunks' loads overlap them.
    // Each thread keeps one chunk column and steps down the rows.
    constexpr int ROWS_PER_PASS = T / VECS;
    static_assert(ROWS_PER_PASS >= 1, "a staged row fits the block's threads");
    if (tid < ROWS_PER_PASS * VECS) {
        const int v = tid % VECS;
        if (v >= v_lo && v < v_hi) {
            const uint8_t *col = src + g0 + 16 * v;
            for (int r = tid / VECS; r < in_h; r += ROWS_PER_PASS) {
                const int sy = cf_border_index(y0 - R + r, height, border); // rows folded
                uint8_t *to = in + r * IN_STRIDE + 16 * v;
                if (sy < 0)
                    *reinterpret_cast<uint4 *>(to) = fill;
                else
                    __pipeline_memcpy_async(to, col + (size_t)sy * src_pitch, 16);
            }
        }
    }
    __pipeline_commit();
    for (int i = tid; edge && i < in_h * VECS; i += T) {
        const int r = i / VECS, v = i - r * VECS;
        if (v >= v_lo && v < v_hi)
            continue;
        const int sy = cf_border_index(y0 - R + r, height, border);
        // All 16 loads issued before any store; the chunk stored whole
        // (alignment padding as the border value: only a zero-weight
        // half of the last tap pair reads it).
        const uint8_t *row = src + (size_t)(sy < 0 ? 0 : sy) * src_pitch;
        uint32_t bytes[16];
#pragma unroll
        for (int k = 0; k < 16; k++) {
            const int b = 16 * v + k - OFF; // byte of the staged pixels; else alignment padding
            const int sb = b >= 0 && b < IN_PX * C ? col_src[b] : -1;
            bytes[k] = sy < 0 || sb < 0 ? border_value : row[sb];
        }
        uint32_t w[4];
#pragma unroll
        for (int q = 0; q < 4; q++)
            w[q] = __byte_perm(__byte_perm(bytes[4 * q], bytes[4 * q + 1], 0x0040),
                               __byte_perm(bytes[4 * q + 2], bytes[4 * q + 3], 0x0040), 0x5410);
        *reinterpret_cast<uint4 *>(in + r * IN_STRIDE + 16 * v) = make_uint4(w[0], w[1], w[2], w[3]);
    }
    __pipeline_wait_prior(0);
    __syncthreads();
    // Horizontal: OPX output pixels of one row per item. Neighbouring
    // taps go in pairs through DP2A (two 16-bit weights times two 8-bit
    // samples plus the running sum: one instruction for two
    // multiply-adds; the _lo form takes the samples from bytes 0-1 of
    // its second operand, the _hi form from bytes 2-3). The sum stays
    // below 2^24, so it is the very integer the tap-by-tap loop gives.
    // Sums start at 2^7, the rounding of cf_blur_round_h, so the
    // intermediate is bytes 1-2 of the sum.
    for (int i = tid; i < in_h * ITEMS; i += T) {
        const int r = i / ITEMS, c = (i - r * ITEMS) * OPX; // first pixel
        const uint8_t *p = in + r * IN_STRIDE + OFF - SO + c * C;
        uint32_t words[WORDS];
#pragma unroll
        for (int k = 0; k < WORDS; k += WORD_VEC) {
            if constexpr (WORD_VEC == 4) {
                const uint4 q = *reinterpret_cast<const uint4 *>(p + 4 * k);
                words[k] = q.x, words[k + 1] = q.y, words[k + 2] = q.z, words[k + 3] = q.w;
            } else if constexpr (WORD_VEC == 2) {
                const uint2 q = *reinterpret_cast<const uint2 *>(p + 4 * k);
                words[k] = q.x, words[k + 1] = q.y;
            } else {
                words[k] = *reinterpret_cast<const uint32_t *>(p + 4 * k);
            }
        }
        uint32_t acc[OPX][C];
#pragma unroll
        for (int o = 0; o < OPX; o++)
#pragma unroll
            for (int ch = 0; ch < C; ch++) acc[o][ch] = 1u << 7;
        // Output o takes pair m (taps 2m, 2m + 1) from samples j and
        // j + 1 of its channel, j = o + 2m.
        auto tap_pair = [&](int j, int o) { return j >= o && (j - o) % 2 == 0 && (j - o) / 2 <= R; };
        if constexpr (C == 1) {
            // Samples q .. q + 3 in one register (a funnel shift of two
            // words where they straddle): pair q in its low half, pair
            // q + 2 in its high half. Quads at q = 0, 1 mod 4 hold every
            // pair once.
#pragma unroll
            for (int q = 0; q < SPAN; q++) {
                if (q % 4 > 1)
                    continue;
                const int b = SO + q, w0 = b / 4, s = b % 4;
                const uint32_t quad =
                    s == 0 ? words[w0] : __funnelshift_r(words[w0], words[w0 + 1], 8 * s);
#pragma unroll
                for (int o = 0; o < OPX; o++) {
                    if (tap_pair(q, o))
                        acc[o][0] = __dp2a_lo(taps.pairs[(q - o) / 2], quad, acc[o][0]);
                    if (tap_pair(q + 2, o))
                        acc[o][0] = __dp2a_hi(taps.pairs[(q + 2 - o) / 2], quad, acc[o][0]);
                }
            }
        } else {
            // Channels 2h and 2h + 1 of samples j and j + 1 in one
            // register: one byte permute for two pairs.
#pragma unroll
            for (int j = 0; j < SPAN; j++)
#pragma unroll
                for (int h = 0; h < C / 2; h++) {
                    const int b = SO + j * C + 2 * h, w0 = b / 4, s = b % 4;
                    const uint32_t quad = __byte_perm(words[w0], words[w0 + 1],
                                                      s | (s + C) << 4 | (s + 1) << 8 |
                                                          (s + C + 1) << 12);
#pragma unroll
                    for (int o = 0; o < OPX; o++)
                        if (tap_pair(j, o)) {
                            const uint32_t w = taps.pairs[(j - o) / 2];
                            acc[o][2 * h] = __dp2a_lo(w, quad, acc[o][2 * h]);
                            acc[o][2 * h + 1] = __dp2a_hi(w, quad, acc[o][2 * h + 1]);
                        }
                }
        }
        // Two intermediates per word: bytes 1-2 of two sums.
        auto pack = [](uint32_t a, uint32_t b) { return __byte_perm(a, b, 0x6521); };
        Mid *m = mid + (r * W + c) * C;
        if constexpr (VC == 4) {
#pragma unroll
            for (int o = 0; o < OPX; o += 4)
                *reinterpret_cast<uint4 *>(m + o) = make_uint4(acc[o][0] >> 8, acc[o + 1][0] >> 8,
                                                               acc[o + 2][0] >> 8, acc[o + 3][0] >> 8);
        } else if constexpr (C == 1) {
            *reinterpret_cast<uint4 *>(m) =
                make_uint4(pack(acc[0][0], acc[1][0]), pack(acc[2][0], acc[3][0]),
                           pack(acc[4 % OPX][0], acc[5 % OPX][0]),
                           pack(acc[6 % OPX][0], acc[7 % OPX][0]));
        } else if constexpr (C == 2) {
            *reinterpret_cast<uint4 *>(m) =
                make_uint4(pack(acc[0][0], acc[0][1]), pack(acc[1][0], acc[1][1]),
                           pack(acc[2][0], acc[2][1]), pack(acc[3][0], acc[3][1]));
        } else {
#pragma unroll
            for (int o = 0; o < OPX; o++)
                *reinterpret_cast<uint2 *>(m + o * 4) =
                    make_uint2(pack(acc[o][0], acc[o][1]), pack(acc[o][2 % C], acc[o][3 % C]));
        }
    }
    __syncthreads();
    // Vertical: ROWS_V output rows of VC adjacent pixels per thread (VN,
    // half as many, in a tile of H / 2 rows).
    auto columns4 = [&](auto vn) {
        constexpr int VN = decltype(vn)::value;
        static_assert((W / VN) * (H * VN / 4) / ROWS_V == T,
                      "one vertical item per thread");
        const int cg = tid % (W / VN), r0 = (tid / (W / VN)) * ROWS_V;
        uint32_t acc[ROWS_V][VN];
        vertical_sums<ROWS_V, VN, K>(acc, taps, [&](int j, uint32_t *v) {
            if constexpr (VN == 4) {
                const uint4 q = *reinterpret_cast<const uint4 *>(mid + (r0 + j) * W + 4 * cg);
                v[0] = q.x, v[1] = q.y, v[2 % VN] = q.z, v[3 % VN] = q.w;
            } else {
                const uint2 q = *reinterpret_cast<const uint2 *>(mid + (r0 + j) * W + 2 * cg);
                v[0] = q.x, v[1] = q.y;
            }
        });
        const int x = x0 + VN * cg, rows = min(height - y0, tile_h) - r0;
        uint8_t *d = dst + (size_t)(y0 + r0) * dst_pitch + x;
        if (x + VN <= width && ((uintptr_t)dst | dst_pitch) % VN == 0 && rows >= ROWS_V) {
#pragma unroll
            for (int o = 0; o < ROWS_V; o++, d += dst_pitch) {
                if constexpr (VN == 4)
                    *reinterpret_cast<uint32_t *>(d) = top_bytes<4>(acc[o]);
                else
                    *reinterpret_cast<uint16_t *>(d) = (uint16_t)top_bytes<2>(acc[o]);
            }
        } else if (x < width) {
#pragma unroll
            for (int o = 0; o < ROWS_V; o++, d += dst_pitch)
                if (o < rows)
#pragma unroll
                    for (int k = 0; k < VN; k++)
                        if (x + k < width)
                            d[k] = (uint8_t)(acc[o][k] >> 24);
        }
    };
    if constexpr (VC == 4) {
        if (tile_h < H)
            columns4(std::integral_constant<int, 2>());
        else
            columns4(std::integral_constant<int, 4>());
    } else {
        const int c = tid % W, r0 = (tid / W) * ROWS_V;
        // Threads past the tile's rows (a split tile) have none.
        if (r0 < tile_h) {
            uint32_t acc[ROWS_V][C];
            auto load = [&](int j, uint32_t *v) {
                if constexpr (C == 1) {
                    v[0] = mid[(r0 + j) * W + c];
                } else if constexpr (C == 2) {
                    const uint32_t q = reinterpret_cast<const uint32_t *>(mid)[(r0 + j) * W + c];
                    v[0] = q & 0xffffu, v[1 % C] = q >> 16;
                } else {
                    const uint2 q = reinterpret_cast<const uint2 *>(mid)[(r0 + j) * W + c];
                    v[0] = q.x & 0xffffu, v[1 % C] = q.x >> 16, v[2 % C] = q.y & 0xffffu,
                    v[3 % C] = q.y >> 16;
                }
            };
            if constexpr (reg_wide(R))
                vertical_sums_paired<ROWS_V, C, R>(acc, taps, load);
            else
                vertical_sums<ROWS_V, C, K>(acc, taps, load);
            const int x = x0 + c, rows = min(height - y0, tile_h) - r0;
            uint8_t *d = dst + (size_t)(y0 + r0) * dst_pitch + (size_t)x * C;
            // Output o: the top bytes of its sums, one store per pixel
            // where the destination is aligned to it.
            auto store = [&](int o, uint8_t *out) {
                if constexpr (C > 1) {
                    if (dst_aligned) {
                        const uint32_t bytes = top_bytes<C>(acc[o]);
                        if (C == 4)
                            *reinterpret_cast<uint32_t *>(out) = bytes;
                        else
                            *reinterpret_cast<uint16_t *>(out) = (uint16_t)bytes;
                        return;
                    }
                }
#pragma unroll
                for (int ch = 0; ch < C; ch++) out[ch] = (uint8_t)(acc[o][ch] >> 24);
            };
            if (x < width && rows >= ROWS_V) { // the whole column inside the frame
#pragma unroll
                for (int o = 0; o < ROWS_V; o++, d += dst_pitch) store(o, d);
            } else if (x < width) {
#pragma unroll
                for (int o = 0; o < ROWS_V; o++, d += dst_pitch)
                    if (o < rows)
                        store(o, d);
            }
        }
    }
    __syncthreads();
}

/* The register-window kernel over every tile of every plane of a launch:
 * planes of C0 channels (wide == 0) and of C1 channels (wide == 1). */
template <int R, int C0, int C1>
__global__ void __launch_bounds__(reg_threads(R),
                                  std::min(RegShape<C0, R>::MinBlocks, RegShape<C1, R>::MinBlocks))
blur8_reg(const __grid_constant__ RegLaunch l, const __grid_constant__ RegTaps taps)
{
    cf_pdl_begin();
    extern __shared__ __align__(16) uint8_t smem[];
    for (unsigned t = blockIdx.y; t < (unsigned)l.rows; t += gridDim.y) {
        int i = 0;
        while (i + 1 < l.n_planes && t >= (unsigned)l.plane[i + 1].first_row)
            i++;
        const RegPlane &p = l.plane[i];
        // The tile of plane p's tile row t - first_row in column
        // blockIdx.x, with the shape of its channel count.
        auto tile = [&](auto channels) {
            constexpr int C = decltype(channels)::value;
            constexpr int W = RegShape<C, R>::W, H = RegShape<C, R>::H;
            const int x0 = blockIdx.x * W;
            int tile_h;
            const int y0 = cf_blur_reg_tile_y0((int)t - p.first_row, p.full_rows, H, &tile_h);
            if (x0 < p.width)
                reg_tile<R, C>(p, x0, y0, tile_h, l.border, l.border_value, taps, smem);
        };
        if (C0 == C1 || !p.wide)
            tile(std::integral_constant<int, C0>());
        else
            tile(std::integral_constant<int, C1>());
    }
}

/* Tap t of kernel k centred in 2R + 1 taps (R at least its radius): its
 * own weights in the middle, zeros around them. */
uint32_t centred_tap(const cf_blur_kernel &k, int R, int t)
{
    const int i = t - (R - k.size / 2);
    return i >= 0 && i < k.size ? k.w[i] : 0u;
}

/* One launch for every plane; false if the frame has too many tiles, else
 * true with the launch's error in *err. split: whether the last wave's
 * tile rows may be split (cf_blur_reg_rows). */
template <int R, int C0, int C1>
bool launch_reg(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
                int n_planes, bool split, cudaStream_t stream, cudaError_t *err)
{
    static_assert(R <= kRegMaxR, "taps sized for kRegMaxR");
    RegTaps taps = {};
    for (int m = 0; m <= R; m++)
        taps.pairs[m] = centred_tap(kx, R, 2 * m) | (m < R ? centred_tap(kx, R, 2 * m + 1) << 16 : 0);
    for (int t = 0; t < 2 * R + 1; t++)
        taps.v[t] = centred_tap(ky, R, t);
    RegLaunch l = {};
    l.n_planes = n_planes;
    l.border = planes[0].border;
    l.border_value = planes[0].border_value;
    int shared = 0, strips = 0, tile_h[CF_MAX_PLANES], height[CF_MAX_PLANES], cols[CF_MAX_PLANES];
    for (int i = 0; i < n_planes; i++) {
        const cf_blur_plane &p = planes[i];
        const bool wide = p.channels != C0;
        const int tile_w = wide ? RegShape<C1, R>::W : RegShape<C0, R>::W;
        tile_h[i] = wide ? RegShape<C1, R>::H : RegShape<C0, R>::H;
        height[i] = p.height;
        cols[i] = (p.width + tile_w - 1) / tile_w;
        l.plane[i] = { p.src, p.src_pitch, p.dst, p.dst_pitch, p.width, p.height, wide, 0, 0 };
        strips = std::max(strips, cols[i]);
        shared = std::max(shared, reg_shared_bytes(p.channels, R, tile_w, tile_h[i]));
    }
    *err = cudaSuccess;
    if (strips == 0) // an empty frame
        return true;
    // The last wave's tile rows split in two where it would leave most of
    // the GPU idle (cf_blur_reg_rows), unless the caller keeps every tile
    // whole (the test hook, blur.h).
    // The SM count and occupancy are asked once per device and kept
    // (launch.cuh), not queried every frame.
    int device = 0, sms = 0, major = 0, per_sm = 0;
    *err = cf_blur_cuda::allow_shared<blur8_reg<R, C0, C1>>((size_t)shared);
    if (*err == cudaSuccess)
        *err = cudaGetDevice(&device);
    if (*err == cudaSuccess)
        *err = cf_device_facts(device, &sms, &major);
    if (*err == cudaSuccess)
        *err = cf_occupancy<blur8_reg<R, C0, C1>>(device, reg_threads(R), (size_t)shared,
                                                    &per_sm);
    if (*err != cudaSuccess)
        return true;
    const long long slots = split ? (long long)sms * per_sm : 0;
    int full_rows[CF_MAX_PLANES], first_row[CF_MAX_PLANES];
    const long long rows =
        cf_blur_reg_rows(n_planes, height, tile_h, cols, slots, full_rows, first_row);
    if (rows > INT_MAX)
        return false;
    for (int i = 0; i < n_planes; i++) {
        l.plane[i].full_rows = full_rows[i];
        l.plane[i].first_row = first_row[i];
    }
    l.rows = (int)rows;
    if (l.rows == 0)
        return true;
    const dim3 grid((unsigned)strips, (unsigned)std::min(l.rows, 65535));
    *err = cf_launch(blur8_reg<R, C0, C1>, grid, dim3(reg_threads(R)), (size_t)shared, stream, l,
                     taps);
    return true;
}

template <int C0, int C1>
bool launch_reg_radius(int R, const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                       const cf_blur_plane *planes, int n_planes, bool split, cudaStream_t stream,
                       cudaError_t *err)
{
    switch (R) {
#define CF_REG_CASE(r)                                                                          \
    case r: return launch_reg<r, C0, C1>(kx, ky, planes, n_planes, split, stream, err);
        CF_REG_CASE(1) CF_REG_CASE(2) CF_REG_CASE(3) CF_REG_CASE(4) CF_REG_CASE(5) CF_REG_CASE(6)
        CF_REG_CASE(7) CF_REG_CASE(8) CF_REG_CASE(9) CF_REG_CASE(10) CF_REG_CASE(11)
        CF_REG_CASE(12) CF_REG_CASE(16) CF_REG_CASE(20) CF_REG_CASE(24) CF_REG_CASE(32)
        CF_REG_CASE(40) CF_REG_CASE(48)
    }
    // The huge radii: planes of 1-2 channels only (reg_takes).
    if constexpr (C0 != 4) {
        switch (R) {
            CF_REG_CASE(56) CF_REG_CASE(64) CF_REG_CASE(72) CF_REG_CASE(80) CF_REG_CASE(88)
            CF_REG_CASE(96)
        }
    }
#undef CF_REG_CASE
    return false;
}

} // namespace

namespace cf_blur_cuda {

int reg_radius(int r, bool four_channels)
{
    if (r <= 12)
        return r < 1 ? 1 : r;
    if (r <= 24)
        return (r + 3) / 4 * 4; // 16, 20, 24
    if (r <= kRegWideMaxR || (!four_channels && r <= kRegMaxR))
        return (r + 7) / 8 * 8; // 32, 40, 48; 56, 64, ... 96
    return 0;
}

bool reg_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
               int n_planes)
{
    if (n_planes < 1 || n_planes > CF_MAX_PLANES)
        return false;
    const int R = reg_radius(std::max(kx.size, ky.size) / 2, planes[0].channels == 4);
    // The wide radii pair the vertical taps (vertical_sums_paired).
    if (R == 0 || (reg_wide(R) && !symmetric_taps(ky)))
        return false;
    for (int t = 0; t < kx.size; t++)
        if (kx.w[t] > 0xffffu) // a one-tap kernel: no 16-bit weight pairs
            return false;
    bool small = true, four = true; // every plane of 1-2 channels; of 4
    for (int i = 0; i < n_planes; i++) {
        const cf_blur_plane &p = planes[i];
        if (p.sample_bytes != 1 || p.border != planes[0].border ||
            p.border_value != planes[0].border_value)
            return false;
        small = small && (p.channels == 1 || p.channels == 2);
        four = four && p.channels == 4;
    }
    return small || four;
}

bool reg_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
             int n_planes, bool split, cudaStream_t stream, cudaError_t *err)
{
    if (!reg_takes(kx, ky, planes, n_planes))
        return false;
    const int R = reg_radius(std::max(kx.size, ky.size) / 2, planes[0].channels == 4);
    if (planes[0].channels == 4)
        return launch_reg_radius<4, 4>(R, kx, ky, planes, n_planes, split, stream, err);
    return launch_reg_radius<1, 2>(R, kx, ky, planes, n_planes, split, stream, err);
}

} // namespace cf_blur_cuda
