/* cudafilters blur: separable Gaussian, shared by blur_cpu.c and the CUDA
 * methods (blur_cuda.cuh).
 *
 * Kernel (OpenCV getGaussianKernel): g(i) = exp(-(i - r)^2 / (2 sigma^2)),
 * i = 0 .. ksize-1, r = ksize/2, normalised to sum 1, then rounded to Q16
 * fixed point with the rounding error put on the centre tap, so the taps sum
 * to exactly 65536 and a flat image stays flat. Size when kernel-size is 0,
 * per direction (OpenCV's createGaussianKernels): round(6 sigma + 1) | 1 for
 * 8-bit formats, round(8 sigma + 1) | 1 for 10- and 16-bit ones.
 *
 * Arithmetic on samples p of `depth` bits (P010's are shifted down first),
 * identical on CPU and GPU:
 *   horizontal: t = (sum wx * p + 2^7) >> 8     t keeps 8 fraction bits
 *   vertical:   q = (sum wy * t + 2^23) >> 24   q: the result sample
 * Bounds: sum wx * p <= 65535 * 65536 + 2^7 < 2^32, so the horizontal sum
 * is 32-bit for every depth; the vertical sum needs 64 bits for 16-bit
 * samples and fits 32 for 8-bit ones (65280 * 65536 + 2^23 < 2^32).
 *
 * Borders (OpenCV names): reflect101 gfedcb|abcdefgh|gfedcba, replicate
 * aaaaaa|abcdefgh|hhhhhhh, reflect fedcba|abcdefgh|hgfedcb, constant
 * vvvvvv|abcdefgh|vvvvvvv (v = border-value). Indices fold as often as
 * needed, so a kernel wider than the image never reads outside it. */
#ifndef CUDAFILTERS_KERNELS_BLUR_H
#define CUDAFILTERS_KERNELS_BLUR_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "cudafilters/frame.h"
#include "internal.h"

#define CF_BLUR_MAX_KSIZE 1025 /* taps; 8 sigma + 1 for the largest sigma */
#define CF_BLUR_MIN_SIGMA 0.01 /* a one-tap kernel: the identity */
#define CF_BLUR_MAX_SIGMA 128.0
#define CF_BLUR_WEIGHT_ONE 65536u

typedef enum cf_border {
    CF_BORDER_REFLECT101,
    CF_BORDER_REPLICATE,
    CF_BORDER_REFLECT,
    CF_BORDER_CONSTANT,
} cf_border;

/* Taps in Q16. Passed to CUDA kernels by value (4 KiB of parameters). */
typedef struct cf_blur_kernel {
    int size; /* odd, 1 .. CF_BLUR_MAX_KSIZE */
    uint32_t w[CF_BLUR_MAX_KSIZE];
} cf_blur_kernel;

/* One plane to blur: samples of `sample_bytes` bytes, `channels` per pixel. */
typedef struct cf_blur_plane {
    const uint8_t *src;
    size_t src_pitch;
    uint8_t *dst;
    size_t dst_pitch;
    int width, height;   /* pixels */
    int channels;        /* interleaved components: 1..4 */
    int sample_bytes;    /* 1 or 2 */
    int shift;           /* bit position of the sample (P010: 6) */
    int border;          /* cf_border */
    uint32_t border_value; /* constant border, in sample units (already clamped) */
} cf_blur_plane;

/* Source index for position i of a line of n samples, or -1 for "the
 * constant border value". */
CF_HOSTDEV int cf_border_index(int i, int n, int border)
{
    if ((unsigned)i < (unsigned)n)
        return i;
    if (border == CF_BORDER_CONSTANT)
        return -1;
    if (border == CF_BORDER_REPLICATE || n == 1)
        return i < 0 ? 0 : n - 1;
    if (border == CF_BORDER_REFLECT101) {
        int period = 2 * (n - 1);
        i %= period;
        if (i < 0) i += period;
        return i < n ? i : period - i;
    }
    int period = 2 * n; /* reflect */
    i %= period;
    if (i < 0) i += period;
    return i < n ? i : period - 1 - i;
}

CF_HOSTDEV uint32_t cf_blur_round_h(uint32_t sum)
{
    return (sum + (1u << 7)) >> 8;
}

CF_HOSTDEV uint32_t cf_blur_round_v(uint64_t sum)
{
    return (uint32_t)((sum + (1u << 23)) >> 24);
}

/* Tile rows of one launch of the GPU's register method (blur_reg.cu), which
 * does every plane of a frame in one grid, the planes' tile rows one after
 * the other. Plane i (0 <= i < n <= CF_MAX_PLANES) is height[i] pixels
 * high, in tiles tile_h[i] rows high (even) and cols[i] across; slots is
 * how many blocks the GPU holds at once (SMs x blocks per SM; 0: do not
 * split). Blocks go out in launch order, so the launch's last tiles make
 * a wave of their own, tiles % slots of them, mostly idle SMs when few.
 * Where that last wave fills at most half the slots, the whole tile rows
 * at the end of the launch that it holds become rows of tile_h[i] / 2
 * (at most twice as many tiles, each about half the work), which fills it
 * better and ends it sooner. Sets full_rows[i], plane i's rows of full
 * height (its first ones; tile row r >= full_rows[i] starts at pixel row
 * full_rows[i] * tile_h[i] + (r - full_rows[i]) * tile_h[i] / 2), and
 * first_row[i], its first row in the launch (INT_MAX once past it).
 * Returns the launch's tile rows. Pure arithmetic; thread-safe. */
static inline long long cf_blur_reg_rows(int n, const int *height, const int *tile_h,
                                         const int *cols, long long slots, int *full_rows,
                                         int *first_row)
{
    long long tiles = 0, moved = 0, rows = 0, last_wave;
    for (int i = 0; i < n; i++) {
        full_rows[i] = (height[i] + tile_h[i] - 1) / tile_h[i];
        tiles += (long long)full_rows[i] * cols[i];
    }
    last_wave = slots > 0 ? tiles % slots : 0;
    for (int i = n - 1; i >= 0 && last_wave > 0 && last_wave <= slots / 2; i--) {
        while (full_rows[i] > 0 && cols[i] > 0 && moved + cols[i] <= last_wave) {
            full_rows[i]--;
            moved += cols[i];
        }
        if (full_rows[i] > 0)
            break;
    }
    for (int i = 0; i < n; i++) {
        const int half = tile_h[i] / 2, rest = height[i] - full_rows[i] * tile_h[i];
        first_row[i] = rows > INT_MAX ? INT_MAX : (int)rows;
        rows += full_rows[i] + (rest > 0 ? (rest + half - 1) / half : 0);
    }
    return rows;
}

/* The pixel rows of tile row ty (0-based within its plane) of a launch
 * laid out by cf_blur_reg_rows: the first full_rows tile rows are tile_h
 * pixel rows high, the rest tile_h / 2. Returns the tile's first pixel
 * row and sets *rows to its height (before clipping to the plane). */
CF_HOSTDEV int cf_blur_reg_tile_y0(int ty, int full_rows, int tile_h, int *rows)
{
    *rows = ty < full_rows ? tile_h : tile_h / 2;
    return ty < full_rows ? ty * tile_h : full_rows * tile_h + (ty - full_rows) * (tile_h / 2);
}

#ifdef __cplusplus
extern "C" {
#endif
/* Kernel size: ksize if > 0, else OpenCV's rule for a sample depth. */
int cf_blur_kernel_size(double sigma, int ksize, int depth);
/* Fills the Q16 taps. Errors: CF_ERROR_INVALID_ARGUMENT (size not odd, or
 * more than CF_BLUR_MAX_KSIZE taps). */
cf_status cf_blur_make_kernel(double sigma, int ksize, int depth, cf_blur_kernel *kernel);
/* Blurs one plane; tmp holds width*channels*height 32-bit intermediates
 * with tmp_pitch bytes per row. */
void cf_blur_plane_cpu(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                       const cf_blur_plane *plane, uint32_t *tmp, size_t tmp_pitch);
/* Same on the GPU on `stream` for the n_planes (1 to CF_MAX_PLANES)
 * planes of a frame, by the method the dispatch table picks
 * (cf_blur_cuda_pick; the methods: blur_cuda.cuh). tmp is device memory of
 * tmp_pitch bytes a row (at least 4 bytes a sample of the widest plane, a
 * multiple of 256) and one row more than the tallest plane. Errors:
 * CF_ERROR_CUDA from a launch; CF_ERROR_UNSUPPORTED_FORMAT for a plane of
 * more than 4 channels, asymmetric taps (cf_blur_make_kernel's never are),
 * or a method forced by the test hook that does not take the frame;
 * CF_ERROR_INVALID_ARGUMENT for n_planes out of range. */
cf_status cf_blur_planes_cuda(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                              const cf_blur_plane *planes, int n_planes, void *tmp,
                              size_t tmp_pitch, cf_stream stream);

/* The CUDA blur's methods (blur_cuda.cuh). */
typedef enum cf_blur_method {
    CF_BLUR_METHOD_AUTO, /* the dispatch table's pick */
    CF_BLUR_METHOD_REG,  /* register windows, one pass per tile (blur_reg.cu) */
    CF_BLUR_METHOD_SEP,  /* two passes, paired taps (blur_sep.cu) */
    CF_BLUR_METHOD_TILE, /* 1-2 channels, one pass per tile, paired taps (blur_tile.cu) */
    CF_BLUR_METHOD_SLIDE, /* small radii, columns streamed through registers (blur_slide.cu) */
    CF_BLUR_METHOD_TENSOR, /* int8 tensor-core products: 8-bit planes both passes (blur_tensor.cu),
                              16-bit ones the rows pass (blur_tensor16.cu) and from
                              vertical radius 24 the columns where its blocks fit
                              (blur_tensor16_cols.cu) */
} cf_blur_method;

/* "auto", "reg", "sep", "tile", "slide", "tensor". */
CF_API const char *cf_blur_method_name(cf_blur_method method);
/* The method the dispatch table picks for these planes and kernels on the
 * current CUDA device (CF_BLUR_METHOD_AUTO when none takes them): host
 * arithmetic, after one query of the device's shared memory a block
 * (kept; without a device, as if it had no limit). */
CF_API cf_blur_method cf_blur_cuda_pick(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                                        const cf_blur_plane *planes, int n_planes);
/* The same on a GPU whose blocks may opt in to shared_limit bytes of
 * shared memory (99 KiB on sm_86 and sm_89, 64 on sm_75: the methods whose
 * tiles need more are passed over). Pure host arithmetic. */
CF_API cf_blur_method cf_blur_cuda_pick_for(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                                            const cf_blur_plane *planes, int n_planes,
                                            int shared_limit);
/* Test hook, exported for tests and cf-bench: every later GPU blur of the
 * process runs `method` (CF_BLUR_METHOD_AUTO: the table's pick; a method
 * that does not take a frame fails it with CF_ERROR_UNSUPPORTED_FORMAT),
 * and the register method splits a last wave of tiles that would leave
 * most of the GPU idle only if `split` (the default: AUTO, true).
 * Thread-safe (atomics); meant to be set between runs. */
CF_API void cf_blur_cuda_force(cf_blur_method method, bool split);
/* Test hook, exported for tests and cf-bench: whether the tile and two-pass
 * methods may do the vertical sums of 16-bit planes of at most 11-bit
 * samples (P010) on the FP64 units of a GPU with full-rate FP64
 * (blur_f64.cuh; the default, true), or must do them as 64-bit integer
 * multiply-adds (false; the sliding-window method always does). The
 * results are the same. Thread-safe (an atomic); meant to be set between
 * runs. */
CF_API void cf_blur_cuda_allow_fp64(bool allow);
/* Whether the calling thread's last successful GPU blur launch did some
 * plane's vertical sums on the FP64 units (false before any). */
CF_API bool cf_blur_cuda_last_fp64(void);
/* Test hook, exported for tests and cf-bench: which columns pass the
 * tensor-core method runs on 16-bit planes: CF_BLUR_METHOD_TENSOR the
 * tensor cores' (blur_tensor16_cols.cu) wherever its blocks fit the GPU,
 * CF_BLUR_METHOD_SEP the two-pass method's, CF_BLUR_METHOD_AUTO (the
 * default; any other value too) the tensor cores' from the vertical radius
 * the dispatch table's measurements set. The results are the same.
 * Thread-safe (an atomic); meant to be set between runs. */
CF_API void cf_blur_cuda_force_tensor16_columns(cf_blur_method method);
/* Whether the calling thread's last successful GPU blur launch did some
 * 16-bit plane's columns pass on the tensor cores (false before any). */
CF_API bool cf_blur_cuda_last_tensor_columns(void);
/* The method of the calling thread's last successful GPU blur launch
 * (CF_BLUR_METHOD_AUTO before any). */
CF_API cf_blur_method cf_blur_cuda_last_method(void);
#ifdef __cplusplus
}
#endif

#endif
