/* CUDA blur, tensor-core method for 16-bit planes (blur_cuda.cuh): the rows
 * pass of planes of 1 or 2 channels of 16-bit samples (GRAY16, P010,
 * I420_10LE; P010's shifted down first), every multiply an int8
 * tensor-core product (mma.sync m16n8k32, u8 x u8 into s32; compute
 * capability 8.0 and later), into the two-pass method's scratch plane of
 * 32-bit intermediates, from which a columns pass then makes the vertical
 * sums: on the tensor cores too (blur_tensor16_cols.cu) from a vertical
 * radius on, else the two-pass method's (blur_sep.cu, sep_cols_run), on
 * the FP64 units for P010 on Hopper, else as 64-bit integers.
 *
 * Why: for 16-bit planes the two-pass method's rows pass spends one IMAD
 * and one add a pair of taps and output, on the pipe its loads and
 * addresses also use (sep_rows: 468 instructions a sample at 4K P010
 * sigma 32, 65% of issue slots; bench/results/2026-12-03-h200-s26-17-
 * fp64.md). A tensor-core instruction makes 4096 byte products; with the
 * samples and the taps split into bytes, four products a tap give the
 * rows sum exactly.
 *
 * Arithmetic of blur.h split into bytes (every tap below 65536: w = 256 wh
 * + wl; every sample p below 65536: p = 256 ph + pl):
 *   H = sum(wl pl) + 256 (sum(wh pl) + sum(wl ph)) + 65536 sum(wh ph),
 *   t = (H + 2^7) >> 8.
 * Each sum is a product of a band matrix of tap bytes and the staged
 * samples' bytes (blur_tensor.cu's rows pass, with a second staged plane
 * for the samples' high bytes). Bounds: bytes are at most 255 and there
 * are at most 1025 taps, so every s32 sum stays below 2^27; H < 2^32
 * (blur.h: 65535 x 65536 + 2^7), so the unsigned combination, exact modulo
 * 2^32, is the reference's integer.
 *
 * A block's tile is 128 pixels of 32 / C rows, as blur_tensor.cu's rows
 * pass: it stages those rows' samples from P = R rounded up to 4 pixels
 * left of the tile, channels apart (matrix row r C + c holds channel c of
 * row r), as two byte planes (the samples' low bytes, their high bytes;
 * borders folded; 4 pixels a load where the row allows). Eight warps, 4
 * across by 2 down, make 16 matrix rows by 32 pixels each: per step of 32
 * staged columns an A fragment of each byte plane, and for each of its four
 * 8-pixel blocks four products (low and high tap bytes by low and high
 * sample bytes; past the band the table's fragments are zeros). The
 * intermediates go to an out tile in shared memory in the plane's order and
 * leave as 16-byte pieces of the scratch plane's rows. */
#include <cuda_runtime.h>

#include <algorithm>

#include "blur_cuda.cuh"
#include "blur_tensor_mma.cuh" // the int8 products, tap planes, the rows tile

namespace {

/* 32-bit intermediates a row of the out tile for C channels: 128 C and a
 * pad of 8, so that a row starts 8 banks after the one above it (the
 * epilogue's stores of 1-channel pairs then hit 32 banks a half-warp; of
 * 2 channels, one intermediate a store, at most 2 a bank); a multiple of
 * 4, so a row leaves in 16-byte pieces. */
__host__ __device__ constexpr int out16_stride(int C)
{
    return kRowPixels * C + 8;
}
__host__ __device__ constexpr size_t out16_bytes(int C)
{
    return (size_t)(kRowMatrixRows / C) * out16_stride(C) * 4;
}
/* Shared bytes of a block: the fragment table, the tap planes, the two
 * staged byte planes, the out tile. */
__host__ __device__ constexpr size_t rows16_shared(int R, int C)
{
    return (size_t)row_entries(R) * 32 * 16 + taps_bytes(R) + 2 * (size_t)kRowMatrixRows * row_stride(R) +
           out16_bytes(C);
}

struct TensorRows16 {
    const uint8_t *src;
    size_t src_pitch;
    uint32_t *tmp;    // the scratch plane: sample s of row y at tmp[y * tmp_words + s]
    size_t tmp_words; // words a scratch row (a multiple of 4)
    int width, height, border, shift;
    uint32_t border_value; // a constant border's sample, shifted down already
    int tiles_x, tiles;
    bool aligned; // src rows 4-byte aligned: interior pixels load in words
    bool wide;    // src rows 8C-byte aligned: 4 pixels load in one
};

/* The 2C words of 4 pixels of C 16-bit samples at px (4-byte aligned), in
 * one 8C-byte load where `wide` says px is that aligned. */
template <int C>
__device__ __forceinline__ void load_pixels16(const uint8_t *px, bool wide, uint32_t (&v)[2 * C])
{
    if constexpr (C == 1) {
        if (wide) {
            const uint2 u = *reinterpret_cast<const uint2 *>(px);
            v[0] = u.x, v[1] = u.y;
            return;
        }
    } else {
        if (wide) {
            const uint4 u = *reinterpret_cast<const uint4 *>(px);
            v[0] = u.x, v[1] = u.y, v[2] = u.z, v[3] = u.w;
            return;
        }
    }
#pragma unroll
    for (int k = 0; k < 2 * C; k++) v[k] = reinterpret_cast<const uint32_t *>(px)[k];
}

/* Channel c of those 4 pixels, shifted down by `shift`, as the word of
 * their low bytes (*lo: byte b from pixel b) and of their high bytes
 * (*hi). */
template <int C>
__device__ __forceinline__ void channel_bytes16(const uint32_t (&v)[2 * C], int c, int shift,
                                                uint32_t *lo, uint32_t *hi)
{
    uint32_t a, b; // samples 0 and 1 (low half first), 2 and 3
    if constexpr (C == 1) {
        a = v[0], b = v[1];
    } else {
        const unsigned sel = c == 0 ? 0x5410 : 0x7632;
        a = __byte_perm(v[0], v[1], sel), b = __byte_perm(v[2], v[3], sel);
    }
    const uint32_t mask = (0xffffu >> shift) * 0x10001u; // each half's bits after the shift
    a = (a >> shift) & mask, b = (b >> shift) & mask;
    *lo = __byte_perm(a, b, 0x6420);
    *hi = __byte_perm(a, b, 0x7531);
}

/* Blocks an SM the kernel is built for: 2, at most 128 registers a thread
 * (CUDA 13.0's ptxas -v for sm_90: 124 for 1 channel, 127 for 2, none
 * spilled): the 48 sums, a step's 8 words of A fragments and 16 of B stay
 * in registers. */
constexpr int kRows16MinBlocks = 2;

template <int C>
__global__ void __launch_bounds__(kThreads, kRows16MinBlocks)
tensor_rows16(const __grid_constant__ TensorRows16 p, const __grid_constant__ cf_blur_kernel k)
{
    cf_pdl_begin();
    constexpr int IMG_ROWS = kRowMatrixRows / C, OS = out16_stride(C);
    extern __shared__ __align__(16) uint8_t smem[];
    const int R = k.size / 2, P = round4(R), S = row_steps(R);
    const int stride = row_stride(R), words = row_stage_bytes(R) / 4;
    uint32_t *tab = reinterpret_cast<uint32_t *>(smem);
    uint32_t *w = tab + row_entries(R) * 32 * 4;
    uint8_t *stage = reinterpret_cast<uint8_t *>(w) + taps_bytes(R); // low bytes, then high
    const int hi_plane = kRowMatrixRows * stride;
    uint32_t *out = reinterpret_cast<uint32_t *>(stage + 2 * hi_plane);
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int samples = p.width * C;
    // A constant border's row below the plane, which the columns pass's
    // folded rows point at: intermediates of a flat row, border_value << 8.
    if (p.border == CF_BORDER_CONSTANT)
        for (int i = blockIdx.x * kThreads + tid; i < samples; i += gridDim.x * kThreads)
            p.tmp[(size_t)p.height * p.tmp_words + i] = p.border_value << 8;
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
        // Stage: word c4 of matrix row r C + c of each byte plane: channel c
        // of pixels x0 - P + 4 c4 .. + 3 of image row y0 + r (rows past the
        // plane repeat its last; their outputs are not stored).
        for (int r = warp; r < IMG_ROWS; r += kThreads / 32) {
            const uint8_t *row = p.src + (size_t)min(y0 + r, p.height - 1) * p.src_pitch;
            uint8_t *st = stage + r * C * stride;
            for (int c4 = lane; c4 < words; c4 += 32) {
                const int x = x0 - P + 4 * c4;
                if (p.aligned && x >= 0 && x + 3 < p.width) {
                    uint32_t v[2 * C];
                    load_pixels16<C>(row + (size_t)x * 2 * C, p.wide, v);
#pragma unroll
                    for (int c = 0; c < C; c++) {
                        uint32_t lo, hi;
                        channel_bytes16<C>(v, c, p.shift, &lo, &hi);
                        *reinterpret_cast<uint32_t *>(st + c * stride + 4 * c4) = lo;
                        *reinterpret_cast<uint32_t *>(st + hi_plane + c * stride + 4 * c4) = hi;
                    }
                } else {
                    const uint16_t *row16 = reinterpret_cast<const uint16_t *>(row);
#pragma unroll
                    for (int c = 0; c < C; c++) {
                        uint32_t lo = 0, hi = 0;
                        for (int b = 0; b < 4; b++) {
                            const int sx = cf_border_index(x + b, p.width, p.border);
                            const uint32_t s =
                                sx < 0 ? p.border_value : (uint32_t)row16[(size_t)sx * C + c] >> p.shift;
                            lo |= (s & 255u) << (8 * b);
                            hi |= (s >> 8) << (8 * b);
                        }
                        *reinterpret_cast<uint32_t *>(st + c * stride + 4 * c4) = lo;
                        *reinterpret_cast<uint32_t *>(st + hi_plane + c * stride + 4 * c4) = hi;
                    }
                }
            }
        }
        __syncthreads();
        // Per step: the A fragments of both byte planes, the four blocks'
        // B fragments, then 16 products (where a block's band has ended its
        // table entry is zeros, which add 0).
        int ll[4][4] = {}, lh[4][4] = {}, hh[4][4] = {}; // wl pl, wh pl + wl ph, wh ph
        for (int s = 0; s < S; s++) {
            uint32_t al[4], ah[4];
            rows_a_fragment(a0p, a1p, s, al);
            rows_a_fragment(a0p + hi_plane, a1p + hi_plane, s, ah);
            uint4 b[4];
#pragma unroll
            for (int j = 0; j < 4; j++) b[j] = tab4[(4 * s - j + 3) * 32 + lane];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                mma_u8(ll[j], al, b[j].x, b[j].y);
                mma_u8(lh[j], al, b[j].z, b[j].w);
                mma_u8(lh[j], ah, b[j].x, b[j].y);
                mma_u8(hh[j], ah, b[j].z, b[j].w);
            }
        }
        // The intermediate of matrix row m (tile row m / C, channel m % C)
        // and pixel n: out tile row m / C, sample n C + m % C.
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int m = 16 * wy + g + 8 * h, n = 32 * wx + 8 * j + 2 * t;
                uint32_t v[2];
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    const int i = 2 * h + e;
                    const uint32_t H = (uint32_t)ll[j][i] + ((uint32_t)lh[j][i] << 8) +
                                       ((uint32_t)hh[j][i] << 16);
                    v[e] = (H + (1u << 7)) >> 8;
                }
                if constexpr (C == 1) {
                    *reinterpret_cast<uint2 *>(out + m * OS + n) = make_uint2(v[0], v[1]);
                } else {
                    out[(m / C) * OS + n * C + m % C] = v[0];
                    out[(m / C) * OS + (n + 1) * C + m % C] = v[1];
                }
            }
        __syncthreads();
        // Out: 16 bytes a thread a copy, rows inside the plane and samples
        // before its end (a piece that ends past it stays inside the
        // scratch row, whose words are a multiple of 4 and at least the
        // samples).
        for (int i = tid; i < IMG_ROWS * 32 * C; i += kThreads) {
            const int r = i / (32 * C), k4 = i - r * (32 * C), s = x0 * C + 4 * k4;
            if (y0 + r < p.height && s < samples)
                *reinterpret_cast<uint4 *>(p.tmp + (size_t)(y0 + r) * p.tmp_words + s) =
                    *reinterpret_cast<const uint4 *>(out + r * OS + 4 * k4);
        }
        // The next tile's staging writes `stage`, which every thread has
        // finished reading (the barrier above); its products go to `out`
        // after the barrier after that staging, which every thread reaches
        // once it has stored this tile.
    }
}

template <int C>
cudaError_t rows16_plane(const cf_blur_kernel &kx, const cf_blur_plane &pl, void *tmp,
                         size_t tmp_pitch, cudaStream_t stream)
{
    TensorRows16 p = {};
    p.src = pl.src;
    p.src_pitch = pl.src_pitch;
    p.tmp = static_cast<uint32_t *>(tmp);
    p.tmp_words = tmp_pitch / 4;
    p.width = pl.width;
    p.height = pl.height;
    p.border = pl.border;
    p.shift = pl.shift;
    p.border_value = pl.border_value;
    if (!rows_tiles<C>(pl.width, pl.height, &p.tiles_x, &p.tiles))
        return cudaErrorInvalidValue;
    p.aligned = ((uintptr_t)pl.src | pl.src_pitch) % 4 == 0;
    p.wide = ((uintptr_t)pl.src | pl.src_pitch) % (8 * C) == 0;
    return pass_launch<tensor_rows16<C>>(p, kx, rows16_shared(kx.size / 2, C), stream);
}

} // namespace

namespace cf_blur_cuda {

size_t tensor16_rows_shared(int rx, int channels)
{
    return rows16_shared(rx, channels);
}

cudaError_t tensor16_rows_run(const cf_blur_kernel &kx, const cf_blur_plane &pl, void *tmp,
                              size_t tmp_pitch, cudaStream_t stream)
{
    if (pl.sample_bytes != 2 || (pl.channels != 1 && pl.channels != 2) ||
        (size_t)pl.width * pl.channels * 4 > tmp_pitch || tmp_pitch % 16 != 0 ||
        (uintptr_t)tmp % 16 != 0)
        return cudaErrorInvalidValue;
    return pl.channels == 1 ? rows16_plane<1>(kx, pl, tmp, tmp_pitch, stream)
                            : rows16_plane<2>(kx, pl, tmp, tmp_pitch, stream);
}

} // namespace cf_blur_cuda
