/* cudafilters blur: the per-level SIMD functions of the optimized CPU
 * blur (blur_cpu_simd.c, compiled once per level; blur_cpu_fast.c calls
 * them). Symmetric kernels of radius r: w[0] is the centre tap, w[k] the
 * tap at distance k on either side (k = 1 .. r). The arithmetic is
 * blur.h's, exactly; only the order of the additions differs, which
 * unsigned 32-bit sums that never exceed 2^32 (blur.h's bounds) allow. */
#ifndef CUDAFILTERS_KERNELS_BLUR_CPU_SIMD_H
#define CUDAFILTERS_KERNELS_BLUR_CPU_SIMD_H

#include <stdint.h>

/* Samples a line buffer holds beyond the padded line, so vector loads of
 * the last samples stay inside it (the widest vector: 16 lanes, twice). */
#define CF_BLUR_LINE_SLACK 32

typedef struct cf_blur_simd {
    /* src: n samples (8-bit) into line[0 .. n). */
    void (*widen8)(const uint8_t *src, int n, uint32_t *line);
    /* src: n little-endian 16-bit samples, each shifted right by shift. */
    void (*widen16)(const uint8_t *src, int n, int shift, uint32_t *line);
    /* Horizontal pass: for s in [0, n), out[s] = cf_blur_round_h(w[0] *
     * line[s + r*step] + sum_k w[k] * (line[s + (r+k)*step] + line[s + (r-k)*step])).
     * line holds n + 2*r*step + CF_BLUR_LINE_SLACK samples; out is
     * written up to n rounded up to 16 samples. step: channels. */
    void (*h_line)(const uint32_t *line, int n, int step, const uint32_t *w, int r, uint32_t *out);
    /* Vertical pass of n samples: rows[0 .. 2r] are the 2r+1 source rows
     * of horizontal results (readable up to n rounded up to 16), the output
     * sample is cf_blur_round_v(w[0] * rows[r][s] + sum_k w[k] * (rows[r+k][s] +
     * rows[r-k][s])), stored as 8 bits (v8) or as 16 bits shifted left by
     * shift (v16, for horizontal results of 16-bit samples: 64-bit sums
     * done as two 32-bit ones). dst gets exactly n samples. */
    void (*v8)(const uint32_t *const *rows, int n, const uint32_t *w, int r, uint8_t *dst);
    void (*v16)(const uint32_t *const *rows, int n, const uint32_t *w, int r, int shift,
                uint8_t *dst);
    /* h_line storing 16-bit results: for 8-bit samples, whose horizontal
     * results are at most 255 * 256 (blur.h). */
    void (*h_line16)(const uint32_t *line, int n, int step, const uint32_t *w, int r,
                     uint16_t *out);
    /* v8 reading 16-bit horizontal results (from h_line16). */
    void (*v8_16)(const uint16_t *const *rows, int n, const uint32_t *w, int r, uint8_t *dst);
    /* The 16-bit multiply-add passes for 8-bit samples, where the level
     * has them (NULL otherwise) and every tap is below 2^15 (sigma above
     * about 0.8): pairs of 16-bit products summed into 32 bits (x86
     * pmaddwd), twice the work per instruction of the 32-bit products.
     * widen8_16: n 8-bit samples into a 16-bit line. h_madd: h_line16 on
     * a 16-bit line, its results stored minus 2^15 (as int16). wp[i]
     * packs the weights of two terms, term 2i in the low half and 2i+1 in
     * the high one, term 0 the centre sample and term k the pair at
     * distance k (r + 1 terms; a missing last one has weight 0). v_madd:
     * v8_16 on such results, rows[0 .. 2r] each its own term (wp packs
     * the full kernel's taps two by two); it adds back 2^15 * 65536. */
    void (*widen8_16)(const uint8_t *src, int n, uint16_t *line);
    void (*h_madd)(const uint16_t *line, int n, int step, const uint32_t *wp, int r,
                   uint16_t *out);
    void (*v_madd)(const int16_t *const *rows, int n, const uint32_t *wp, int r, uint8_t *dst);
} cf_blur_simd;

extern const cf_blur_simd cf_blur_simd_baseline, cf_blur_simd_avx2, cf_blur_simd_avx512;

#endif
