/* cudafilters gray: per-pixel math shared by gray_cpu.c and gray.cu.
 *
 * RGB input: Y = (Kr*R + Kg*G + Kb*B + 2^14) >> 15 with the matrix's luma
 * weights in Q15 fixed point, rounded to nearest with the blue weight
 * taking the rounding error, so the weights sum to exactly 2^15 and white
 * stays 255. BT.601 (0.299, 0.587, 0.114) gives 9798/19235/3735: the very
 * constants of OpenCV 4's cvtColor RGB2GRAY for 8-bit images, which makes
 * our output bit-identical to it (checked on all 2^24 RGB values against
 * OpenCV 4.6). BT.709 (0.2126, 0.7152, 0.0722; ITU-R BT.709-6 item 3.2)
 * gives 6967/23436/2365 and BT.2020 (0.2627, 0.6780, 0.0593; BT.2020-2
 * table 4) 8608/22217/1943.
 *
 * Luma input (YUV plane 0, GRAY16) to GRAY8: the sample v maps linearly from
 * [lo, lo + span] onto [0, 255], rounding half up, clamping outside:
 * out = ((v - lo) * 510 + span) / (2 * span). Limited ("studio") range is
 * lo = 16, span = 219 for 8 bits and lo = 64, span = 876 for 10 bits
 * (BT.601-7 / BT.709-6 quantisation); full range is lo = 0 and span =
 * 2^depth - 1, which for 8 bits is the identity.
 *
 * The GPU divides by 2 * span with a multiply-high and a shift
 * (cf_gray_expand_magic): m = ceil(2^s / d), s = max(32, 30 + ceil(log2 d)),
 * d = 2 * span. By Granlund and Montgomery ("Division by invariant integers
 * using multiplication", PLDI 1994, theorem 4.2) floor(n * m / 2^s) =
 * floor(n / d) for every n < 2^N when m * d - 2^s <= 2^(s - N); here m * d -
 * 2^s < d <= 2^(s - 30) and every numerator is below 511 * 65536 < 2^25, so
 * the result equals the division for every sample (also checked
 * exhaustively in the CPU tests); m <= 2^31, and s >= 32 makes the product's
 * high word (one instruction on the GPU) all the shift needs. 8- and 10-bit
 * spans take a cheaper 32-bit form (cf_gray_mul24 below). */
#ifndef CUDAFILTERS_KERNELS_GRAY_H
#define CUDAFILTERS_KERNELS_GRAY_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "cudafilters/frame.h"
#include "internal.h"

#define CF_GRAY_SHIFT 15

typedef enum cf_gray_matrix { CF_GRAY_BT601, CF_GRAY_BT709, CF_GRAY_BT2020 } cf_gray_matrix;
typedef enum cf_gray_range { CF_GRAY_RANGE_LIMITED, CF_GRAY_RANGE_FULL } cf_gray_range;

typedef struct cf_gray_weights {
    int32_t r, g, b;
} cf_gray_weights;

/* Everything a gray kernel needs, worked out once per frame on the host. */
typedef struct cf_gray_plan {
    bool from_rgb;         /* RGB family input, else luma in plane 0 */
    bool keep_format;      /* output has the input's format, else GRAY8 */
    cf_gray_weights w;     /* from_rgb: luma weights */
    int lo, span;          /* luma input to GRAY8: the range mapping */
    int sample_bytes;      /* luma input: 1 or 2 */
    int shift;             /* luma input: bit position of the sample (P010: 6) */
    uint16_t neutral;      /* keep_format YUV: the raw chroma sample for "no colour" */
    uint32_t magic;        /* luma input: division by 2 * span as multiply ... */
    int magic_shift;       /* ... and shift right (cf_gray_expand_magic) */
    uint32_t mul24;        /* luma input, span < 2896: cf_gray_mul24, else 0 */
} cf_gray_plan;

CF_HOSTDEV uint8_t cf_gray_luma(int32_t r, int32_t g, int32_t b, cf_gray_weights w)
{
    return (uint8_t)((r * w.r + g * w.g + b * w.b + (1 << (CF_GRAY_SHIFT - 1))) >> CF_GRAY_SHIFT);
}

CF_HOSTDEV uint8_t cf_gray_expand(int v, int lo, int span)
{
    if (v <= lo)
        return 0;
    if (v >= lo + span)
        return 255;
    return (uint8_t)(((v - lo) * 510 + span) / (2 * span));
}

/* Multiplier and shift that divide by 2 * span (1 <= span <= 65535) in
 * cf_gray_expand_magic. */
CF_HOSTDEV void cf_gray_division_magic(int span, uint32_t *magic, int *shift)
{
    uint64_t d = 2 * (uint64_t)span;
    int l = 0;
    while ((1ull << l) < d)
        l++;
    *shift = l > 2 ? 30 + l : 32;
    *magic = (uint32_t)(((1ull << *shift) + d - 1) / d);
}

/* For spans below 2896 (8- and 10-bit samples) a 32-bit form: with A =
 * ceil(255 * 2^24 / span), y = (t * A + 2^23) / 2^24 is at least x = (510 t +
 * span) / (2 span) = 255 t / span + 1/2 and exceeds it by less than span /
 * 2^24, while x is at least 1 / (2 span) below the next integer; 2 span^2
 * < 2^24 makes floor(y) = floor(x) for every t in [0, span], and t * A +
 * 2^23 < 2^32. Returns A, or 0 where the span is too large. */
CF_HOSTDEV uint32_t cf_gray_mul24(int span)
{
    if (span < 1 || span >= 2896)
        return 0;
    return (uint32_t)((255ull << 24) / (uint64_t)span + ((255ull << 24) % (uint64_t)span != 0));
}

/* cf_gray_expand of a clamped t (0 <= t <= span) through cf_gray_mul24. */
CF_HOSTDEV uint8_t cf_gray_expand_mul24(uint32_t t, uint32_t mul24)
{
    return (uint8_t)((t * mul24 + (1u << 23)) >> 24);
}

/* cf_gray_expand with the division as a multiply and shift; magic and
 * shift from cf_gray_division_magic(span). Clamping v - lo to [0, span]
 * gives the two clamped cases their 0 and 255 (span / 2span and
 * 511 span / 2span). */
CF_HOSTDEV uint8_t cf_gray_expand_magic(int v, int lo, int span, uint32_t magic, int shift)
{
    int t = v - lo;
    t = t < 0 ? 0 : t > span ? span : t;
    uint32_t n = (uint32_t)t * 510u + (uint32_t)span;
    return (uint8_t)((uint32_t)(((uint64_t)n * magic) >> 32) >> (shift - 32));
}

#ifdef __cplusplus
extern "C" {
#endif
/* Works out the plan for src -> dst formats (dst: GRAY8 or src's format).
 * matrix: cf_gray_matrix, range: cf_gray_range of YUV input. */
cf_gray_plan cf_gray_make_plan(int matrix, int range, cf_format src, cf_format dst);
cf_status cf_gray_cpu(const cf_gray_plan *plan, const cf_frame *src, cf_frame *dst);
cf_status cf_gray_cuda(const cf_gray_plan *plan, const cf_frame *src, cf_frame *dst,
                       cf_stream stream);
#ifdef __cplusplus
}
#endif

#endif
