/* cudafilters blur: separable Gaussian, shared by blur_cpu.c and blur.cu.
 *
 * Kernel (OpenCV getGaussianKernel): g(i) = exp(-(i - r)^2 / (2 sigma^2)),
 * i = 0 .. ksize-1, r = ksize/2, normalised to sum 1, then rounded to Q16
 * fixed point with the rounding error put on the centre tap, so the taps sum
 * to exactly 65536 and a flat image stays flat. Size when kernel-size is 0:
 * OpenCV's rule for 8-bit images, ksize = round(6 sigma + 1) | 1.
 *
 * Arithmetic, identical on CPU and GPU:
 *   horizontal: t = (sum w * p + 2^7) >> 8      p: 8-bit, t: 16-bit (8 fraction bits)
 *   vertical:   q = (sum w * t + 2^23) >> 24    q: 8-bit result
 * Both sums fit in uint32: 255 * 65536 and 65280 * 65536 + 2^23 < 2^32.
 *
 * Borders (OpenCV names): reflect101 gfedcb|abcdefgh|gfedcba, replicate
 * aaaaaa|abcdefgh|hhhhhhh, reflect fedcba|abcdefgh|hgfedcb. Indices are
 * folded as often as needed, so a kernel wider than the image never reads
 * outside it. */
#ifndef CUDAFILTERS_KERNELS_BLUR_H
#define CUDAFILTERS_KERNELS_BLUR_H

#include <stdint.h>

#include "common.h"
#include "cudafilters/frame.h"
#include "internal.h"

#define CF_BLUR_MAX_KSIZE 1023 /* taps; the largest kernel-size accepted */
#define CF_BLUR_MAX_SIGMA 128.0 /* derived kernel 769 taps */
#define CF_BLUR_WEIGHT_ONE 65536u

typedef enum cf_border { CF_BORDER_REFLECT101, CF_BORDER_REPLICATE, CF_BORDER_REFLECT } cf_border;

/* Taps in Q16. Passed to CUDA kernels by value (4 KiB of kernel parameters). */
typedef struct cf_blur_kernel {
    int size; /* odd, 1 .. CF_BLUR_MAX_KSIZE */
    uint32_t w[CF_BLUR_MAX_KSIZE];
} cf_blur_kernel;

/* Source index for position i of a line of n samples under `border`. */
CF_HOSTDEV int cf_border_index(int i, int n, int border)
{
    if ((unsigned)i < (unsigned)n)
        return i;
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

CF_HOSTDEV uint16_t cf_blur_round_h(uint32_t sum)
{
    return (uint16_t)((sum + (1u << 7)) >> 8);
}

CF_HOSTDEV uint8_t cf_blur_round_v(uint32_t sum)
{
    return (uint8_t)((sum + (1u << 23)) >> 24);
}

#ifdef __cplusplus
extern "C" {
#endif
/* Kernel size for sigma: ksize if > 0, else OpenCV's 8-bit rule. */
int cf_blur_kernel_size(double sigma, int ksize);
/* Fills the Q16 taps. Errors: CF_ERROR_INVALID_ARGUMENT (size not odd or too big). */
cf_status cf_blur_make_kernel(double sigma, int ksize, cf_blur_kernel *kernel);
/* Bytes of scratch blur needs for a frame: one 16-bit intermediate plane. */
size_t cf_blur_scratch_bytes(const cf_frame *src, size_t *tmp_pitch);
/* Blurs every plane of src into dst (same format and size). tmp: scratch of
 * cf_blur_scratch_bytes() bytes in the frames' memory, tmp_pitch in bytes. */
cf_status cf_blur_cpu(const cf_blur_kernel *kernel, int border, const cf_frame *src,
                      cf_frame *dst, uint16_t *tmp, size_t tmp_pitch);
cf_status cf_blur_cuda(const cf_blur_kernel *kernel, int border, const cf_frame *src,
                       cf_frame *dst, uint16_t *tmp, size_t tmp_pitch, cf_stream stream);
#ifdef __cplusplus
}
#endif

#endif
