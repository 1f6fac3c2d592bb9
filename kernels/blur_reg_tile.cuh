/* CUDA blur, register-window method (blur_reg.cu): one output tile, its
 * staging in shared memory, the horizontal pass (DP2A pairs) and the
 * vertical pass. */
#ifndef CUDAFILTERS_KERNELS_BLUR_REG_TILE_CUH
#define CUDAFILTERS_KERNELS_BLUR_REG_TILE_CUH

#include <cuda_pipeline.h>

#include <type_traits>

#include "blur_reg_sums.cuh"

// Only blur_reg.cu includes this file: what it declares lies in that
// file's unnamed namespace, as if written there.
namespace {

/* One output tile of plane p, W pixels wide and tile_h rows high (H, or
 * H / 2 for the split rows of launch_reg), whose top-left output pixel is
 * (x0, y0), in the block's shared memory smem (reg_shared_bytes, laid out
 * for H and R), for horizontal taps centred in 2RH + 1 and vertical ones
 * in 2RV + 1 (one of them R, the other at most R; reg_reduced_radius):
 * the tile stages, and its horizontal pass filters, RV rows above and
 * below it; its staged rows hold R pixels left and right of it, of which
 * the horizontal pass reads RH. In a tile of H / 2 rows the 4-column
 * vertical pass gives each thread 2 columns, so every thread has work and
 * the pass takes half as long; the other shapes' threads past tile_h
 * idle. Ends with the block synchronised. */
template <int R, int RH, int RV, int C>
__device__ __forceinline__ void reg_tile(const RegPlane &p, int x0, int y0, int tile_h, int border,
                                         uint32_t border_value, const RegTaps &taps, uint8_t *smem)
{
    using Shape = RegShape<C, R>;
    static_assert(RH >= 1 && RV >= 1 && (RH == R || RV == R) && RH <= R && RV <= R &&
                      ((RH == R && RV == R) || !reg_wide(R)),
                  "one radius below R, for the narrow tiles only");
    constexpr int K = 2 * RV + 1, W = Shape::W, H = Shape::H, ROWS_V = Shape::RowsV;
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
    // the word-aligned window starting at its first input pixel (x0 - RH
    // for the tile's first item: byte OFF_H of a staged row). Its pairs
    // start at samples 0 .. SPAN - 1 of each channel, so the window covers
    // one pixel more than the taps reach (a weight of 0). Loaded WORD_VEC
    // words at a time, as the window's alignment allows.
    constexpr int OFF_H = OFF + (R - RH) * C;
    constexpr int OPX = Shape::Opx, ITEMS = W / OPX, SPAN = 2 * RH + OPX, SO = OFF_H % 4;
    constexpr int WORD_VEC = (OFF_H - SO) % 16 == 0 && OPX * C % 16 == 0 ? 4
                             : (OFF_H - SO) % 8 == 0 && OPX * C % 8 == 0 ? 2
                                                                         : 1;
    constexpr int WORDS = ((SO + SPAN * C - (C == 1 ? 1 : 2)) / 4 + 2 + WORD_VEC - 1) / WORD_VEC *
                          WORD_VEC;
    static_assert(C == 1 || (SO % 2 == 0 && (C == 2 || SO == 0)),
                  "a byte permute reaches the bytes of two pairs");
    static_assert(OFF_H - SO + (W - OPX) * C + 4 * WORDS <= IN_STRIDE + 32,
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
    const int in_h = tile_h + 2 * RV; // staged rows (IN_H for a full tile and RV = R)
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
                const int sy = cf_border_index(y0 - RV + r, height, border); // rows folded
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
        const int sy = cf_border_index(y0 - RV + r, height, border);
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
        const uint8_t *p = in + r * IN_STRIDE + OFF_H - SO + c * C;
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
        auto tap_pair = [&](int j, int o) { return j >= o && (j - o) % 2 == 0 && (j - o) / 2 <= RH; };
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
                vertical_sums_paired<ROWS_V, C, RV>(acc, taps, load);
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

} // namespace

#endif
