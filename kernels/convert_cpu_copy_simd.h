/* cudafilters convert: the per-level row functions of the optimized CPU
 * convert for the pairs that only move samples (convert_cpu_copy_simd.c,
 * compiled once per level; convert_cpu_fast.c calls them): RGB to RGB
 * (any byte order, alpha kept, made 255 or filled), 4:2:0 YUV to 4:2:0
 * YUV of the same depth (NV12 <-> I420, P010 <-> I420_10), RGB to gray,
 * and lookup tables for the pairs whose every output sample is a function
 * of one input sample (convert_cpu_lut.c fills them from the reference).
 * Each gives convert.h's result exactly (cf_cv_read_rgb / cf_cv_write_rgb,
 * cf_cv_out_luma / cf_cv_out_chroma at equal depths, cf_cv_pixel_gray). */
#ifndef CUDAFILTERS_KERNELS_CONVERT_CPU_COPY_SIMD_H
#define CUDAFILTERS_KERNELS_CONVERT_CPU_COPY_SIMD_H

#include <stdint.h>

/* Byte offsets of an RGB pixel: r, g, b, and alpha or padding (-1: none). */
typedef struct cf_cv_bytes {
    int bpp, r, g, b, a;
} cf_cv_bytes;

typedef struct cf_convert_copy_simd {
    /* n pixels from s (layout in) to d (layout out); out's fourth byte
     * (alpha or padding) is `fill` when fill >= 0, else in's alpha (255
     * where in has none). */
    void (*rgb_to_rgb)(const uint8_t *s, cf_cv_bytes in, int n, uint8_t *d, cf_cv_bytes out,
                       int fill);
    /* n 16-bit samples: d = (s >> s_shift) << d_shift, kept to 16 bits. */
    void (*samples16)(const uint8_t *s, int n, int s_shift, int d_shift, uint8_t *d);
    /* n chroma pairs from U at u and V at v (s_step samples apart, 1 or 2)
     * to du, dv (d_step apart), samples of `bytes` bytes, 16-bit ones
     * moved from s_shift to d_shift. */
    void (*chroma)(const uint8_t *u, const uint8_t *v, int s_step, int n, int bytes, int s_shift,
                   int d_shift, uint8_t *du, uint8_t *dv, int d_step);
    /* n samples of `s_bytes` bytes (16-bit ones >> s_shift) through lut
     * (indexed by the sample) into samples of d_bytes bytes (the entry is
     * the 16-bit word to store, or its low byte). */
    void (*lut16)(const uint8_t *s, int n, int s_bytes, int s_shift, const uint16_t *lut,
                  int d_bytes, uint8_t *d);
    /* The same into pixels of d_bpp (3 or 4) bytes: bytes 0..d_bpp-1 of the
     * 32-bit entry. */
    void (*lut32)(const uint8_t *s, int n, int s_bytes, int s_shift, const uint32_t *lut,
                  int d_bpp, uint8_t *d);
    /* RGB to gray with gray.h's Q15 weights (cf_cv_pixel_gray): 8-bit
     * (s + 2^14) >> 15, or 16-bit (257 s + 2^14) >> 15 when d16. */
    void (*rgb_gray)(const uint8_t *s, cf_cv_bytes in, int n, int32_t lr, int32_t lg, int32_t lb,
                     int d16, uint8_t *d);
} cf_convert_copy_simd;

extern const cf_convert_copy_simd cf_convert_copy_simd_baseline, cf_convert_copy_simd_avx2,
    cf_convert_copy_simd_avx512;

#endif
