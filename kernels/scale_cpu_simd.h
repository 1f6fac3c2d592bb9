/* cudafilters scale: the per-level SIMD row functions of the optimized CPU
 * scale (scale_cpu_simd.c, compiled once per level; scale_cpu_fast.c calls
 * them). Each computes n outputs (a multiple of the level's lanes, from
 * output 0 of the table it is given) of one output row of one plane with
 * scale.h's integers exactly. A source pixel is read as the 32-bit word at
 * its byte offset (a gather): the caller keeps every offset + 4 inside the
 * source row. */
#ifndef CUDAFILTERS_KERNELS_SCALE_CPU_SIMD_H
#define CUDAFILTERS_KERNELS_SCALE_CPU_SIMD_H

#include <stdint.h>

/* One output row through the tables. */
typedef struct cf_sc_row {
    const uint8_t *const *rows; /* ty source rows (the vertical taps' rows) */
    const int16_t *yw;          /* ty vertical weights, Q11 */
    int ty;
    const int32_t *off;         /* off[i * stride + dx]: byte offset of tap i of output dx */
    const int32_t *xw;          /* xw[i * stride + dx]: its weight, Q11 */
    int tx, stride;
    int cn, sample_bytes, shift, maxval;
    int row_bytes;              /* bytes of a source row that may be read */
} cf_sc_row;

/* One output row of a box mean: output dx, component c is the mean of
 * samples (x0 + dx kx + i, row j) for i < kx, j < ky, rounded half up. */
typedef struct cf_sc_box_row {
    const uint8_t *const *rows; /* ky source rows */
    int ky, kx, x0;
    int cn, sample_bytes, shift;
    int log2_area;              /* >= 0: kx ky is 2^log2_area; -1: divide in float */
    int area;
    int row_bytes;              /* bytes of a source row that may be read */
} cf_sc_box_row;

typedef struct cf_scale_simd {
    /* Bilinear at 8 bits, OpenCV's vertical form (scale.h; ty = tx = 2). */
    void (*linear8)(const cf_sc_row *r, int n, uint8_t *d);
    /* The same in 16-bit lanes, where every horizontal weight is >= 0, each
     * pair sums to at most 2049 and both vertical weights are in [0, 2048]. */
    void (*linear8_16)(const cf_sc_row *r, int n, uint8_t *d);
    /* Any taps: the sum of scale.h in 32-bit lanes, split in two halves
     * so that it cannot overflow where scale_cpu_fast.c allows it. */
    void (*general)(const cf_sc_row *r, int n, uint8_t *d);
    /* Box means (area with whole-number factors). */
    void (*box)(const cf_sc_box_row *r, int n, uint8_t *d);
} cf_scale_simd;

extern const cf_scale_simd cf_scale_simd_baseline, cf_scale_simd_avx2, cf_scale_simd_avx512;

#endif
