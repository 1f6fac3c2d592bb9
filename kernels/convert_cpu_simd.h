/* cudafilters convert: the per-level SIMD row functions of the optimized
 * CPU convert (convert_cpu_simd.c, compiled once per level;
 * convert_cpu_fast.c calls them). Each computes convert.h's integers
 * exactly, in 32-bit lanes (convert_cpu_fast.c checks the plan's bounds
 * that make 32 bits enough before it picks them).
 *
 * Pixels of 4 bytes are handled as little-endian 32-bit words; a "byte
 * shift" is 8 x the byte offset of a channel in that word. */
#ifndef CUDAFILTERS_KERNELS_CONVERT_CPU_SIMD_H
#define CUDAFILTERS_KERNELS_CONVERT_CPU_SIMD_H

#include <stdint.h>

/* YUV -> RGB: the plan's numbers for one run. */
typedef struct cf_cv_to_rgb {
    int32_t cy16, y_lo, c_mid16;      /* 16 x cy; Y offset; 16 x chroma midpoint */
    int32_t crv, cgu, cgv, cbu;       /* Q14 (convert.h) */
    int rs, gs, bs;                   /* byte shifts of R, G, B in the output word */
    uint32_t fill;                    /* the fourth byte's value, already shifted */
    int y_bytes, y_shift;             /* luma samples: 1 or 2 bytes, >> shift (P010: 6) */
    /* Chroma at pixel 2k: e0 c[k-1] + e1 c[k]; at 2k + 1: o1 c[k] + o2 c[k+1],
     * where c is the vertically mixed chroma row (weights summing to 4):
     * nearest 0 4 4 0, left siting 0 4 2 2, centre siting 1 3 3 1. */
    int e0, e1, o1, o2;
} cf_cv_to_rgb;

/* RGB -> YUV 4:2:0: the plan's numbers for one run. */
typedef struct cf_cv_to_yuv {
    int32_t wy[4];                    /* Q14 luma weight of word byte 0..3 (alpha: 0) */
    int32_t y_lo, ymax;
    int32_t wu[4], wv[4];             /* Q14 chroma weights of word byte 0..3 */
    int32_t c_mid;
    int mode;                         /* 0 nearest, 1 centre (2x2), 2 left (1:2:1 x 2 rows) */
    int madd;                         /* every weight fits 16 signed bits: pairwise multiply-adds */
} cf_cv_to_yuv;

typedef struct cf_convert_simd {
    /* Vertical chroma mix of one output row: c[i] = fa U(a, i) + fb U(b, i)
     * (and V) for i in [0, cw), rows a and b given as pointers to the U and
     * V samples (semi-planar: V = U + sample bytes, step 2 samples), samples
     * of `bytes` bytes >> shift. Writes cu[-1..cw] and cv[-1..cw] (the ends
     * repeat the edges). */
    void (*chroma_mix)(const uint8_t *ua, const uint8_t *va, const uint8_t *ub,
                       const uint8_t *vb, int step, int bytes, int shift, int fa, int fb, int cw,
                       int32_t *cu, int32_t *cv);
    /* One row of w pixels from luma row y and mixed chroma cu, cv (as
     * chroma_mix leaves them) into 4-byte words at d (any alignment). */
    void (*yuv_to_rgb4)(const cf_cv_to_rgb *k, const uint8_t *y, const int32_t *cu,
                        const int32_t *cv, int w, uint8_t *d);
    /* Luma of n 4-byte pixels at s, as samples of d_bytes bytes << d_shift. */
    void (*rgb4_luma)(const cf_cv_to_yuv *k, const uint8_t *s, int n, int d_bytes, int d_shift,
                      uint8_t *d);
    /* Chroma samples [i0, i1) of the pair of 4-byte pixel rows r0, r1 (r1 = r0
     * for the last row of an odd height) into u[i], v[i]; the caller keeps
     * every tap inside the row (1 <= i0 for left siting, 2 i1 <= w). */
    void (*rgb4_chroma)(const cf_cv_to_yuv *k, const uint8_t *r0, const uint8_t *r1, int i0,
                        int i1, int32_t *u, int32_t *v);
    /* 3-byte pixels to words (byte 3 = 0) and back (byte 3 dropped). */
    void (*rgb3_to_words)(const uint8_t *s, int n, uint32_t *w);
    void (*words_to_rgb3)(const uint32_t *w, int n, uint8_t *d);
    /* n chroma pairs u[i], v[i] into a 4:2:0 output's chroma row: d1
     * interleaved U, V (semi-planar) or d1 = U, d2 = V; samples of `bytes`
     * bytes << shift. */
    void (*store_chroma)(const int32_t *u, const int32_t *v, int n, int semi_planar, int bytes,
                         int shift, uint8_t *d1, uint8_t *d2);
    /* The bitwise or of n 16-bit little-endian samples at s: whether a
     * 10-bit format's samples stay below 2^10. */
    uint32_t (*or_u16)(const uint8_t *s, int n);
} cf_convert_simd;

extern const cf_convert_simd cf_convert_simd_baseline, cf_convert_simd_avx2,
    cf_convert_simd_avx512;

#endif
