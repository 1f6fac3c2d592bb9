/* cudafilters gray: the per-level SIMD functions of the optimized CPU gray
 * (gray_cpu_simd.c, compiled once per level; gray_cpu_fast.c calls them).
 * Each does one row of n pixels with gray.h's arithmetic exactly. */
#ifndef CUDAFILTERS_KERNELS_GRAY_CPU_SIMD_H
#define CUDAFILTERS_KERNELS_GRAY_CPU_SIMD_H

#include <stdint.h>

typedef struct cf_gray_simd {
    /* Packed RGB of bpp (3 or 4) bytes a pixel whose bytes 0, 1, 2 have
     * the weights w0, w1, w2 (the matrix's weights in the format's order):
     * cf_gray_luma into d[x]. */
    void (*rgb)(const uint8_t *s, int n, int bpp, int32_t w0, int32_t w1, int32_t w2,
                uint8_t *d);
    /* Same, written back as the input format: bytes 0-2 the luma, the
     * others copied. */
    void (*rgb_keep)(const uint8_t *s, int n, int bpp, int32_t w0, int32_t w1, int32_t w2,
                     uint8_t *d);
    /* 8-bit luma: cf_gray_expand_mul24 of v - lo clamped to [0, span]. */
    void (*luma8)(const uint8_t *s, int n, int lo, int span, uint32_t mul24, uint8_t *d);
    /* 16-bit little-endian luma, each sample shifted right by shift:
     * through mul24 when it is not 0, else cf_gray_expand_magic. */
    void (*luma16)(const uint8_t *s, int n, int shift, int lo, int span, uint32_t mul24,
                   uint32_t magic, int magic_shift, uint8_t *d);
    /* Luma of 8-bit (sample_bytes 1) or 16-bit samples in 16-bit lanes,
     * where the level has it (NULL otherwise): t = v - lo clamped to
     * [0, span], then y = (min((t << k) + c, 65535) * a) >> (16 + m), a
     * form gray_cpu_fast.c finds per span and checks against
     * cf_gray_expand for every t. The tail goes through cf_gray_expand. */
    void (*luma_mulhi)(const uint8_t *s, int n, int sample_bytes, int shift, int lo, int span,
                       int k, int m, uint16_t a, uint16_t c, uint8_t *d);
} cf_gray_simd;

extern const cf_gray_simd cf_gray_simd_baseline, cf_gray_simd_avx2, cf_gray_simd_avx512;

#endif
