/* CUDA blur, register-window method (blur_reg.cu): its tile shapes per
 * radius and channel count, and the parameters of its launch. */

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
#ifndef CUDAFILTERS_KERNELS_BLUR_REG_SHAPE_CUH
#define CUDAFILTERS_KERNELS_BLUR_REG_SHAPE_CUH

#include "blur_cuda.cuh"

// Only blur_reg.cu includes this file: what it declares lies in that
// file's unnamed namespace, as if written there.
namespace {

/* Blocks per SM the register budget is cut for (48 registers at 5): 5
 * where an SM holds 1280 threads or more (sm_80 and later), 4 on Turing.
 * Radii up to kRegSmallMaxR (8-bit sigma 0.5-2), whose tiles take about 30
 * KiB of shared memory, on sm_90 and later (228 KiB an SM, 2048 threads):
 * 6, at 40 registers with a few spilled, so more blocks hide each other's
 * latency (4K GRAY8 radius 2 in 12.8 us instead of 16.9, radius 3 14.9
 * instead of 18.1, NV12 radius 2 17.8 instead of 21.8; 8K GRAY8 radius 2
 * 39.8 instead of 50.0; radius 5-6 within 1%: H200, session 19,
 * bench/results/2026-12-01-h200-s19-17-blur.md). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
constexpr int kRegMinBlocks = 4, kRegSmallMinBlocks = 4;
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
constexpr int kRegMinBlocks = 5, kRegSmallMinBlocks = 5;
#else
constexpr int kRegMinBlocks = 5, kRegSmallMinBlocks = 6;
#endif
constexpr int kRegSmallMaxR = 6;
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
/* The radii built beside R for kernels whose radius one way is much the
 * smaller (sigma 3 sigma-y 1: radii 9 and 3): a quarter and a half of R,
 * rounded up, for the narrow radii only. Such a tile keeps R's shape; a
 * smaller vertical radius RV stages and filters only RV rows above and
 * below it and sums 2 RV + 1 vertical taps instead of 2 R + 1, a smaller
 * horizontal one RH sums RH + 1 DP2A pairs instead of R + 1 (before, both
 * directions ran on R; 4K GRAY8 sigma 8 sigma-y 2 0.0599 -> 0.0343 ms,
 * H200, bench/results/2026-12-02-h200-s20-17-blur.md). */
__host__ __device__ constexpr int reg_quarter(int R)
{
    return (R + 3) / 4;
}
__host__ __device__ constexpr int reg_half(int R)
{
    return (R + 1) / 2;
}
/* The radius a tile of built radius R runs a kernel's direction of radius
 * r (at most R) on. */
__host__ __device__ constexpr int reg_reduced_radius(int R, int r)
{
    return reg_wide(R) ? R : r <= reg_quarter(R) ? reg_quarter(R)
                         : r <= reg_half(R)      ? reg_half(R)
                                                 : R;
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
    // Two channels at radii up to kRegSmallMaxR: 8 rows (tiles 64 high),
    // not the 10-11 of the pick below, whose accumulators made the kernel
    // that also holds the one-channel tiles (blur8_reg<R, 1, 2>) spill
    // registers at 48 (4K GRAY8 radius 2: 13.3 us against 16.9; same file).
    if (C == 2 && R <= kRegSmallMaxR)
        return 8;
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
    // Over 28 accumulators, 80 registers at 3 blocks; else kRegMinBlocks,
    // kRegSmallMinBlocks up to kRegSmallMaxR.
    // (The one-channel radius-24 kernel's 28 run faster at 5 blocks with
    // a few spilled registers than at 3 without: cf-bench, H200.) The
    // wide radii: 64 registers at 2 blocks of 512 threads; the huge ones
    // at 1 of 1024.
    static constexpr int MinBlocks = reg_huge(R)                ? 1
                                     : reg_wide(R)              ? 2
                                     : RowsV * VCols * C > 28 ? 3
                                     : R <= kRegSmallMaxR     ? kRegSmallMinBlocks
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

} // namespace

#endif
