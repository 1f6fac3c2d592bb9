/* CUDA blur with the arithmetic of blur.h.
 *
 * 8-bit planes of 1, 2 or 4 channels with the same radius both ways, for
 * the radii it is built for (1-12, 24): blur8_reg, both passes per tile in
 * shared memory, several outputs per thread from a window of registers.
 *
 * Other 8-bit planes with kernels that fit: one fused kernel per 32x32 tile. It
 * stages the tile plus the kernel radius on every side (border folded) in
 * shared memory, runs the horizontal pass into a shared 16-bit tile and the
 * vertical pass from it, so the intermediate never goes to device memory.
 *
 * Otherwise (10/16-bit planes, very large kernels) two passes through a
 * scratch plane. Horizontal: a block stages its row segment plus the radius
 * in shared memory. Vertical: one thread per sample column, reads coalesced
 * across the row. 8-bit planes keep 16-bit intermediates and a 32-bit
 * vertical sum; 10/16-bit planes keep 32-bit intermediates and a 64-bit
 * vertical sum (bounds in blur.h). Grids stride over rows, so any height
 * fits the 65535 grid.y limit. */
#include <cuda_runtime.h>

#include "blur.h"

namespace {

constexpr int kBlockX = 128;

template <typename T> struct BlurTypes;
template <> struct BlurTypes<uint8_t> {
    using Tmp = uint16_t;
    using VAcc = uint32_t;
};
template <> struct BlurTypes<uint16_t> {
    using Tmp = uint32_t;
    using VAcc = uint64_t;
};

template <typename T, int C>
__global__ void blur_horizontal(const uint8_t *__restrict__ src, size_t src_pitch,
                                uint8_t *__restrict__ tmp, size_t tmp_pitch, int width,
                                int height, int border, uint32_t border_value, int shift,
                                const __grid_constant__ cf_blur_kernel k)
{
    using Tmp = typename BlurTypes<T>::Tmp;
    extern __shared__ __align__(16) uint8_t shared[];
    T *tile = reinterpret_cast<T *>(shared);
    const int r = k.size / 2, span = kBlockX + 2 * r, x0 = blockIdx.x * kBlockX;
    const int x = x0 + threadIdx.x;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const T *row = reinterpret_cast<const T *>(src + (size_t)y * src_pitch);
        for (int i = threadIdx.x; i < span; i += kBlockX) {
            int sx = cf_border_index(x0 - r + i, width, border);
#pragma unroll
            for (int c = 0; c < C; c++)
                tile[i * C + c] = sx < 0 ? (T)border_value : (T)(row[(size_t)sx * C + c] >> shift);
        }
        __syncthreads();
        if (x < width) {
            uint32_t acc[C] = {};
            for (int t = 0; t < k.size; t++) {
                uint32_t w = k.w[t];
#pragma unroll
                for (int c = 0; c < C; c++)
                    acc[c] += w * tile[(threadIdx.x + t) * C + c];
            }
            Tmp *out = reinterpret_cast<Tmp *>(tmp + (size_t)y * tmp_pitch) + (size_t)x * C;
#pragma unroll
            for (int c = 0; c < C; c++)
                out[c] = (Tmp)cf_blur_round_h(acc[c]);
        }
        __syncthreads();
    }
}

template <typename T>
__global__ void blur_vertical(const uint8_t *__restrict__ tmp, size_t tmp_pitch,
                              uint8_t *__restrict__ dst, size_t dst_pitch, int samples,
                              int height, int border, uint32_t border_value, int shift,
                              const __grid_constant__ cf_blur_kernel k)
{
    using Tmp = typename BlurTypes<T>::Tmp;
    using VAcc = typename BlurTypes<T>::VAcc;
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= samples)
        return;
    const int r = k.size / 2;
    const Tmp border_t = (Tmp)(border_value << 8);
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        VAcc acc = 0;
        for (int t = 0; t < k.size; t++) {
            int j = cf_border_index(y - r + t, height, border);
            Tmp v = j < 0 ? border_t : reinterpret_cast<const Tmp *>(tmp + (size_t)j * tmp_pitch)[x];
            acc += (VAcc)k.w[t] * v;
        }
        reinterpret_cast<T *>(dst + (size_t)y * dst_pitch)[x] = (T)(cf_blur_round_v(acc) << shift);
    }
}

unsigned grid_rows(int height)
{
    return (unsigned)(height < 65535 ? height : 65535);
}

constexpr int kTile = 32;           // fused kernel: output tile, pixels per side
constexpr int kFusedThreads = 256;
constexpr size_t kFusedMaxShared = 48 * 1024; // no opt-in needed up to this

/* Shared memory of the fused kernel: the 8-bit input tile, padded to an
 * even size, then the 16-bit horizontal results. */
__host__ __device__ size_t fused_mid_offset(int in_w, int in_h, int channels)
{
    size_t in = (size_t)in_w * in_h * channels;
    return (in + 15) / 16 * 16; // 16-byte aligned for the packed 4-channel path
}

__host__ __device__ size_t fused_shared_bytes(int in_w, int in_h, int channels)
{
    return fused_mid_offset(in_w, in_h, channels) + (size_t)in_h * kTile * channels * sizeof(uint16_t);
}

/* Both passes of the fused kernel for 4-channel pixels (RGBA and kin): one
 * thread per pixel, one 32-bit shared load per tap in the horizontal pass
 * and one 64-bit load per tap in the vertical pass, four sums each. Same
 * arithmetic as the per-sample loops. Ends with the block synchronised. */
__device__ __forceinline__ void packed4_passes(const uint8_t *in, uint16_t *mid, int in_w, int in_h,
                               uint8_t *__restrict__ dst, size_t dst_pitch, int x0, int y0,
                               int width, int height, const cf_blur_kernel &kx,
                               const cf_blur_kernel &ky)
{
    const uint32_t *in4 = reinterpret_cast<const uint32_t *>(in);
    uint2 *mid4 = reinterpret_cast<uint2 *>(mid);
    for (int i = threadIdx.x; i < in_h * kTile; i += kFusedThreads) {
        int r = i / kTile, col = i - r * kTile;
        const uint32_t *p = in4 + (size_t)r * in_w + col;
        uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (int t = 0; t < kx.size; t++) {
            uint32_t w = kx.w[t], v = p[t];
            a0 += w * (v & 0xff);
            a1 += w * ((v >> 8) & 0xff);
            a2 += w * ((v >> 16) & 0xff);
            a3 += w * (v >> 24);
        }
        mid4[i] = make_uint2(cf_blur_round_h(a0) | cf_blur_round_h(a1) << 16,
                             cf_blur_round_h(a2) | cf_blur_round_h(a3) << 16);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < kTile * kTile; i += kFusedThreads) {
        int r = i / kTile, col = i - r * kTile;
        int x = x0 + col, y = y0 + r;
        if (x >= width || y >= height)
            continue;
        const uint2 *p = mid4 + (size_t)r * kTile + col;
        uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (int t = 0; t < ky.size; t++) {
            uint32_t w = ky.w[t];
            uint2 v = p[(size_t)t * kTile];
            a0 += w * (v.x & 0xffff);
            a1 += w * (v.x >> 16);
            a2 += w * (v.y & 0xffff);
            a3 += w * (v.y >> 16);
        }
        uint8_t *d = dst + (size_t)y * dst_pitch + (size_t)x * 4;
        d[0] = (uint8_t)cf_blur_round_v(a0);
        d[1] = (uint8_t)cf_blur_round_v(a1);
        d[2] = (uint8_t)cf_blur_round_v(a2);
        d[3] = (uint8_t)cf_blur_round_v(a3);
    }
    __syncthreads();
}

/* Both passes of the fused kernel, one thread per sample. Ends with the
 * block synchronised. */
template <int C>
__device__ __forceinline__ void per_sample_passes(const uint8_t *in, uint16_t *mid, int in_w, int in_h,
                                  uint8_t *__restrict__ dst, size_t dst_pitch, int x0, int y0,
                                  int width, int height, const cf_blur_kernel &kx,
                                  const cf_blur_kernel &ky)
{
    for (int i = threadIdx.x; i < in_h * kTile * C; i += kFusedThreads) {
        int r = i / (kTile * C), rest = i - r * kTile * C;
        const uint8_t *p = in + ((size_t)r * in_w) * C + rest;
        uint32_t acc = 0;
        for (int t = 0; t < kx.size; t++)
            acc += kx.w[t] * p[t * C];
        mid[i] = (uint16_t)cf_blur_round_h(acc);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < kTile * kTile * C; i += kFusedThreads) {
        int r = i / (kTile * C), rest = i - r * kTile * C;
        int x = x0 + rest / C, y = y0 + r;
        if (x >= width || y >= height)
            continue;
        const uint16_t *p = mid + (size_t)r * kTile * C + rest;
        uint32_t acc = 0;
        for (int t = 0; t < ky.size; t++)
            acc += ky.w[t] * p[(size_t)t * kTile * C];
        dst[(size_t)y * dst_pitch + (size_t)x0 * C + rest] = (uint8_t)cf_blur_round_v(acc);
    }
    __syncthreads();
}

/* One 32x32 output tile of an 8-bit plane, both passes in shared memory.
 * kx and ky have the same radius R (the launcher checks). */
template <int C>
__global__ void blur_fused8(const uint8_t *__restrict__ src, size_t src_pitch,
                            uint8_t *__restrict__ dst, size_t dst_pitch, int width, int height,
                            int border, uint32_t border_value,
                            const __grid_constant__ cf_blur_kernel kx,
                            const __grid_constant__ cf_blur_kernel ky)
{
    extern __shared__ __align__(16) uint8_t shared[];
    const int rx = kx.size / 2, ry = ky.size / 2;
    const int in_w = kTile + 2 * rx, in_h = kTile + 2 * ry;
    uint8_t *in = shared; // in_h x in_w x C
    uint16_t *mid = reinterpret_cast<uint16_t *>(shared + fused_mid_offset(in_w, in_h, C)); // in_h x kTile x C
    const int tiles_y = (height + kTile - 1) / kTile;
    const int x0 = blockIdx.x * kTile;
    for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
        const int y0 = ty * kTile;
        for (int i = threadIdx.x; i < in_h * in_w; i += kFusedThreads) {
            int r = i / in_w, c = i - r * in_w;
            int sy = cf_border_index(y0 - ry + r, height, border);
            int sx = cf_border_index(x0 - rx + c, width, border);
            const uint8_t *s = src + (size_t)sy * src_pitch + (size_t)sx * C;
#pragma unroll
            for (int k = 0; k < C; k++)
                in[i * C + k] = (sy < 0 || sx < 0) ? (uint8_t)border_value : s[k];
        }
        __syncthreads();
        if constexpr (C == 4)
            packed4_passes(in, mid, in_w, in_h, dst, dst_pitch, x0, y0, width, height, kx, ky);
        else
            per_sample_passes<C>(in, mid, in_w, in_h, dst, dst_pitch, x0, y0, width, height, kx,
                                 ky);
    }
}

/* 8-bit planes of 1, 2 or 4 interleaved channels (GRAY8 and the Y of
 * NV12/I420; the UV of NV12; RGBA and kin) with the same radius both ways,
 * for the radii built here (1-12 and 24): the arithmetic of blur_fused8,
 * with each thread computing several outputs from a window of inputs held
 * in registers and the taps compile-time indices into the constant bank.
 *
 * Per block a W x H output tile (RegShape). The block stages the tile
 * plus the radius on every side in shared memory: 16 bytes at a time, rows
 * folded at the top and bottom, where the staged columns lie inside the
 * frame and the rows are 16-byte aligned (every tile column but the first
 * and last, for our pools); else a byte at a time through a per-block
 * table of folded columns. The horizontal pass makes 4 pixels a thread for
 * all H + 2R staged rows, two taps per DP2A instruction; the vertical pass
 * RowsV pixels down a column, one IMAD a tap. The tile height is picked
 * per radius and channel count (reg_rows_v) so the horizontal pass's last
 * round of threads is nearly full and wide kernels redo few rows. */
/* Blocks per SM the register budget is cut for (48 registers at 5): 5
 * where an SM holds 1280 threads or more (sm_80 and later), 4 on Turing. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
constexpr int kRegMinBlocks = 4;
#else
constexpr int kRegMinBlocks = 5;
#endif
constexpr int kRegThreads = 256; // W * H / RowsV threads

/* Static shared memory of blur8_reg for a tile of W x H pixels (the layout
 * the kernel declares). */
constexpr int reg_shared_bytes(int C, int R, int W, int H)
{
    const int in_px = W + 2 * R, off = (16 - R * C % 16) % 16;
    const int stride = (off + in_px * C + 15) / 16 * 16;
    return (H + 2 * R) * stride + 32 + (H + 2 * R) * W * C * 2 + in_px * C * 4;
}

/* Output rows per thread of the vertical pass, which sets the tile height
 * H = RowsV * kRegThreads / W. The horizontal pass runs (H + 2R) * W / 4
 * items on kRegThreads threads in whole rounds; the pick is the height
 * with the fewest rounds per output row (a partly idle last round is paid
 * in full), within 47 KiB of shared memory and a bound on accumulators
 * (RowsV * C registers). */
constexpr int reg_rows_v(int C, int R)
{
    const int W = C == 1 ? 64 : 32, max_acc = C == 1 ? (R > 12 ? 32 : 16) : 24;
    int best_rv = 4, best_rounds = 0, best_h = 0;
    for (int rv = 4; rv * C <= max_acc; rv++) {
        const int h = rv * kRegThreads / W;
        if (reg_shared_bytes(C, R, W, h) > 47 * 1024)
            break;
        const int rounds = ((h + 2 * R) * (W / 4) + kRegThreads - 1) / kRegThreads;
        if (best_h == 0 || rounds * best_h < best_rounds * h)
            best_rv = rv, best_rounds = rounds, best_h = h;
    }
    return best_rv;
}

template <int C, int R> struct RegShape {
    static_assert(C == 1 || C == 2 || C == 4, "1, 2 or 4 channels");
    static constexpr int W = C == 1 ? 64 : 32, RowsV = reg_rows_v(C, R);
    static constexpr int H = RowsV * kRegThreads / W;
    static constexpr int MinBlocks = RowsV * C > 16 && C == 1 ? 3 : kRegMinBlocks;
};
constexpr int kRegMaxR = 24;     // widest radius built

/* Horizontal taps in neighbouring pairs for DP2A: p[m] = w[2m] | w[2m+1]
 * << 16, the last tap alone (needs every tap below 65536). Vertical taps
 * as they are. Sized for the widest kernel built, so the launch carries
 * 300 bytes of parameters rather than two 4 KiB cf_blur_kernels. */
struct RegTaps {
    uint32_t pairs[kRegMaxR + 1];
    uint32_t v[2 * kRegMaxR + 1];
};

template <int R, int C>
__global__ void __launch_bounds__(kRegThreads, RegShape<C, R>::MinBlocks)
blur8_reg(const uint8_t *__restrict__ src, size_t src_pitch, uint8_t *__restrict__ dst,
          size_t dst_pitch, int width, int height, int border, uint32_t border_value,
          const __grid_constant__ RegTaps taps)
{
    using Shape = RegShape<C, R>;
    constexpr int K = 2 * R + 1, W = Shape::W, H = Shape::H, ROWS_V = Shape::RowsV;
    static_assert(W * H / ROWS_V == kRegThreads, "one vertical item per thread");
    static_assert(W * C % 16 == 0, "tiles start on 16-byte boundaries");
    constexpr int IN_H = H + 2 * R, IN_PX = W + 2 * R;
    // A staged row starts 16-byte aligned, LEFT bytes left of the tile; the
    // pixel x0 - R is its byte OFF.
    constexpr int OFF = (16 - R * C % 16) % 16, LEFT = R * C + OFF;
    constexpr int IN_STRIDE = (OFF + IN_PX * C + 15) / 16 * 16; // bytes per staged row
    constexpr int VECS = IN_STRIDE / 16;
    // Horizontal item: 4 outputs from the words holding bytes SO .. of the
    // word-aligned window starting at its first input pixel; the window
    // covers one pixel more than the taps reach (its weight is 0).
    constexpr int SO = OFF % 4, WORDS = (SO + (2 * R + 5) * C + 3) / 4 + 1;
    __shared__ __align__(16) uint8_t in[IN_H * IN_STRIDE + 32]; // + slack for word loads
    __shared__ __align__(16) uint16_t mid[IN_H * W * C];
    const int tid = threadIdx.x;
    const int tiles_y = (height + H - 1) / H;
    const int x0 = blockIdx.x * W;
    const bool dst_aligned = ((uintptr_t)dst | dst_pitch) % C == 0;
    // Every staged byte, alignment padding included, inside the row's pixels.
    const bool inside_x = ((uintptr_t)src | src_pitch) % 16 == 0 && x0 * C - LEFT >= 0 &&
                          x0 * C - LEFT + IN_STRIDE <= width * C;
    // Edge blocks: the byte offset in a source row of each staged byte
    // (border folded; -1 for the constant), worked out once per block.
    __shared__ int col_src[IN_PX * C];
    if (!inside_x) {
        for (int b = tid; b < IN_PX * C; b += kRegThreads) {
            const int sx = cf_border_index(x0 - R + b / C, width, border);
            col_src[b] = sx < 0 ? -1 : sx * C + b % C;
        }
        __syncthreads();
    }
    for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
        const int y0 = ty * H;
        if (inside_x) {
            // Rows (border folded) copied 16 bytes at a time.
            const uint4 fill = make_uint4(border_value * 0x01010101u, border_value * 0x01010101u,
                                          border_value * 0x01010101u, border_value * 0x01010101u);
            for (int i = tid; i < IN_H * VECS; i += kRegThreads) {
                const int r = i / VECS, v = i - r * VECS;
                const int sy = cf_border_index(y0 - R + r, height, border);
                *reinterpret_cast<uint4 *>(in + r * IN_STRIDE + 16 * v) =
                    sy < 0 ? fill
                           : reinterpret_cast<const uint4 *>(src + (size_t)sy * src_pitch +
                                                             (size_t)x0 * C - LEFT)[v];
            }
        } else {
            // At a left or right edge: a byte at a time, through the
            // block's table of folded source columns.
            for (int i = tid; i < IN_H * IN_PX * C; i += kRegThreads) {
                const int r = i / (IN_PX * C), b = i - r * (IN_PX * C);
                const int sy = cf_border_index(y0 - R + r, height, border), sb = col_src[b];
                in[r * IN_STRIDE + OFF + b] = (sy < 0 || sb < 0) ? (uint8_t)border_value
                                                                 : src[(size_t)sy * src_pitch + sb];
            }
        }
        __syncthreads();
        // Horizontal: 4 output pixels of one row per item. Neighbouring taps
        // go in pairs through DP2A (two 16-bit weights times two 8-bit
        // samples plus the running sum: one instruction for two
        // multiply-adds); the sum stays below 2^24, so it is the very
        // integer the tap-by-tap loop gives.
        for (int i = tid; i < IN_H * (W / 4); i += kRegThreads) {
            const int r = i / (W / 4), c = (i - r * (W / 4)) * 4; // first pixel
            const uint32_t *p =
                reinterpret_cast<const uint32_t *>(in + r * IN_STRIDE + OFF - SO + c * C);
            uint32_t words[WORDS];
#pragma unroll
            for (int k = 0; k < WORDS; k++) words[k] = p[k];
            uint32_t acc[4][C] = {};
#pragma unroll
            for (int ch = 0; ch < C; ch++)
#pragma unroll
                for (int j = 0; j < 2 * R + 4; j++) {
                    // Samples j and j + 1 of this channel in the low two
                    // bytes: taps 2m and 2m + 1 of output j - 2m.
                    const int b0 = SO + j * C + ch, w0 = b0 / 4;
                    const uint32_t pair =
                        __byte_perm(words[w0], words[w0 + 1], (b0 % 4) | ((b0 + C - 4 * w0) << 4));
#pragma unroll
                    for (int o = 0; o < 4; o++)
                        if ((j - o) % 2 == 0 && j - o >= 0 && (j - o) / 2 <= R)
                            acc[o][ch] = __dp2a_lo(taps.pairs[(j - o) / 2], pair, acc[o][ch]);
                }
            uint16_t *m = mid + (r * W + c) * C;
            if constexpr (C == 1) {
                *reinterpret_cast<uint2 *>(m) =
                    make_uint2(cf_blur_round_h(acc[0][0]) | cf_blur_round_h(acc[1][0]) << 16,
                               cf_blur_round_h(acc[2][0]) | cf_blur_round_h(acc[3][0]) << 16);
            } else if constexpr (C == 2) {
                *reinterpret_cast<uint4 *>(m) =
                    make_uint4(cf_blur_round_h(acc[0][0]) | cf_blur_round_h(acc[0][1]) << 16,
                               cf_blur_round_h(acc[1][0]) | cf_blur_round_h(acc[1][1]) << 16,
                               cf_blur_round_h(acc[2][0]) | cf_blur_round_h(acc[2][1]) << 16,
                               cf_blur_round_h(acc[3][0]) | cf_blur_round_h(acc[3][1]) << 16);
            } else {
#pragma unroll
                for (int o = 0; o < 4; o++)
                    *reinterpret_cast<uint2 *>(m + o * 4) =
                        make_uint2(cf_blur_round_h(acc[o][0]) | cf_blur_round_h(acc[o][1]) << 16,
                                   cf_blur_round_h(acc[o][2]) | cf_blur_round_h(acc[o][3]) << 16);
            }
        }
        __syncthreads();
        // Vertical: ROWS_V output pixels down one column per thread.
        {
            const int c = tid % W, r0 = (tid / W) * ROWS_V;
            uint32_t acc[ROWS_V][C] = {};
#pragma unroll
            for (int j = 0; j < ROWS_V + 2 * R; j++) {
                uint32_t v[C];
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
#pragma unroll
                for (int o = 0; o < ROWS_V; o++)
#pragma unroll
                    for (int ch = 0; ch < C; ch++)
                        if (j - o >= 0 && j - o < K) acc[o][ch] += taps.v[j - o] * v[ch];
            }
            // 8-bit samples: the vertical sum plus 2^23 stays below 2^32
            // (blur.h), so cf_blur_round_v in 32 bits.
            auto round_v = [](uint32_t sum) { return (sum + (1u << 23)) >> 24; };
            const int x = x0 + c, rows = height - (y0 + r0);
            uint8_t *d = dst + (size_t)(y0 + r0) * dst_pitch + (size_t)x * C;
#pragma unroll
            for (int o = 0; o < ROWS_V; o++, d += dst_pitch) {
                if (x >= width || o >= rows)
                    continue;
                if (C > 1 && dst_aligned) {
                    uint32_t px = 0;
#pragma unroll
                    for (int ch = 0; ch < C; ch++) px |= round_v(acc[o][ch]) << (8 * ch);
                    if (C == 4)
                        *reinterpret_cast<uint32_t *>(d) = px;
                    else
                        *reinterpret_cast<uint16_t *>(d) = (uint16_t)px;
                } else {
#pragma unroll
                    for (int ch = 0; ch < C; ch++) d[ch] = (uint8_t)round_v(acc[o][ch]);
                }
            }
        }
        __syncthreads();
    }
}

template <int R, int C>
void launch_reg(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane &p,
                cudaStream_t stream)
{
    using Shape = RegShape<C, R>;
    static_assert(R <= kRegMaxR, "taps sized for kRegMaxR");
    RegTaps taps = {};
    for (int m = 0; m <= R; m++)
        taps.pairs[m] = kx.w[2 * m] | (m < R ? kx.w[2 * m + 1] << 16 : 0);
    for (int t = 0; t < 2 * R + 1; t++)
        taps.v[t] = ky.w[t];
    int tiles_y = (p.height + Shape::H - 1) / Shape::H;
    dim3 grid((unsigned)((p.width + Shape::W - 1) / Shape::W),
              (unsigned)(tiles_y < 65535 ? tiles_y : 65535));
    blur8_reg<R, C><<<grid, kRegThreads, 0, stream>>>(p.src, p.src_pitch, p.dst, p.dst_pitch,
                                                      p.width, p.height, p.border, p.border_value,
                                                      taps);
}

template <int C>
bool launch_reg_radius(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane &p,
                       cudaStream_t stream)
{
    switch (kx.size / 2) {
    case 1: launch_reg<1, C>(kx, ky, p, stream); return true;
    case 2: launch_reg<2, C>(kx, ky, p, stream); return true;
    case 3: launch_reg<3, C>(kx, ky, p, stream); return true;
    case 4: launch_reg<4, C>(kx, ky, p, stream); return true;
    case 5: launch_reg<5, C>(kx, ky, p, stream); return true;
    case 6: launch_reg<6, C>(kx, ky, p, stream); return true;
    case 7: launch_reg<7, C>(kx, ky, p, stream); return true;
    case 8: launch_reg<8, C>(kx, ky, p, stream); return true;
    case 9: launch_reg<9, C>(kx, ky, p, stream); return true;
    case 10: launch_reg<10, C>(kx, ky, p, stream); return true;
    case 11: launch_reg<11, C>(kx, ky, p, stream); return true;
    case 12: launch_reg<12, C>(kx, ky, p, stream); return true;
    case 24: launch_reg<24, C>(kx, ky, p, stream); return true;
    }
    return false;
}

/* The register-window kernel where it is built (1, 2 or 4 channels of 8
 * bits, the same radius both ways, kernels of 3 to 25 taps: 8-bit sigma up
 * to about 4, or 49 taps: sigma 8); false to fall back. */
bool try_reg8(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane &p,
              cudaStream_t stream)
{
    if (p.sample_bytes != 1 || kx.size != ky.size)
        return false;
    for (int t = 0; t < kx.size; t++)
        if (kx.w[t] > 0xffffu) // a one-tap-like kernel: no 16-bit weight pairs
            return false;
    if (p.channels == 1)
        return launch_reg_radius<1>(kx, ky, p, stream);
    if (p.channels == 2)
        return launch_reg_radius<2>(kx, ky, p, stream);
    if (p.channels == 4)
        return launch_reg_radius<4>(kx, ky, p, stream);
    return false;
}

template <int C>
void launch_fused8(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane &p,
                   size_t shared, cudaStream_t stream)
{
    int tiles_y = (p.height + kTile - 1) / kTile;
    dim3 grid((unsigned)((p.width + kTile - 1) / kTile), (unsigned)(tiles_y < 65535 ? tiles_y : 65535));
    blur_fused8<C><<<grid, kFusedThreads, shared, stream>>>(p.src, p.src_pitch, p.dst, p.dst_pitch,
                                                            p.width, p.height, p.border,
                                                            p.border_value, kx, ky);
}

/* Runs the fused kernel when it applies; returns false to fall back. */
bool try_fused8(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane &p,
                cudaStream_t stream)
{
    size_t shared = fused_shared_bytes(kTile + 2 * (kx.size / 2), kTile + 2 * (ky.size / 2),
                                       p.channels);
    if (p.sample_bytes != 1 || shared > kFusedMaxShared)
        return false;
    switch (p.channels) {
    case 1: launch_fused8<1>(kx, ky, p, shared, stream); return true;
    case 2: launch_fused8<2>(kx, ky, p, shared, stream); return true;
    case 3: launch_fused8<3>(kx, ky, p, shared, stream); return true;
    case 4: launch_fused8<4>(kx, ky, p, shared, stream); return true;
    }
    return false;
}

template <typename T, int C>
void launch_horizontal(const cf_blur_kernel &k, const cf_blur_plane &p, void *tmp, size_t tp,
                       cudaStream_t stream)
{
    dim3 grid((unsigned)((p.width + kBlockX - 1) / kBlockX), grid_rows(p.height));
    size_t shared = (size_t)(kBlockX + 2 * (k.size / 2)) * C * sizeof(T);
    blur_horizontal<T, C><<<grid, kBlockX, shared, stream>>>(
        p.src, p.src_pitch, (uint8_t *)tmp, tp, p.width, p.height, p.border, p.border_value,
        p.shift, k);
}

template <typename T>
cf_status blur_plane(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane &p,
                     void *tmp, size_t tp, cudaStream_t stream)
{
    if (try_reg8(kx, ky, p, stream) || try_fused8(kx, ky, p, stream))
        return CF_CUDA_CHECK(cudaGetLastError());
    switch (p.channels) {
    case 1: launch_horizontal<T, 1>(kx, p, tmp, tp, stream); break;
    case 2: launch_horizontal<T, 2>(kx, p, tmp, tp, stream); break;
    case 3: launch_horizontal<T, 3>(kx, p, tmp, tp, stream); break;
    case 4: launch_horizontal<T, 4>(kx, p, tmp, tp, stream); break;
    default: return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT, "blur: %d channels", p.channels);
    }
    CF_TRY(CF_CUDA_CHECK(cudaGetLastError()));
    int samples = p.width * p.channels;
    dim3 grid((unsigned)((samples + 255) / 256), grid_rows(p.height));
    blur_vertical<T><<<grid, 256, 0, stream>>>((const uint8_t *)tmp, tp, p.dst, p.dst_pitch,
                                                samples, p.height, p.border, p.border_value,
                                                p.shift, ky);
    return CF_CUDA_CHECK(cudaGetLastError());
}

} // namespace

extern "C" cf_status cf_blur_plane_cuda(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                                        const cf_blur_plane *plane, void *tmp, size_t tmp_pitch,
                                        cf_stream stream)
{
    if (plane->sample_bytes == 1)
        return blur_plane<uint8_t>(*kx, *ky, *plane, tmp, tmp_pitch, stream);
    return blur_plane<uint16_t>(*kx, *ky, *plane, tmp, tmp_pitch, stream);
}
