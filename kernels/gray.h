/* cudafilters gray: luma from RGB, shared by gray_cpu.c and gray.cu.
 *
 * Y = (Kr*R + Kg*G + Kb*B + 2^13) >> 14 with the matrix's luma weights in
 * Q14 fixed point (sum exactly 2^14, so white stays 255). BT.601 uses
 * OpenCV's cvtColor RGB2GRAY constants 4899/9617/1868 (0.299, 0.587, 0.114),
 * which makes our output bit-identical to OpenCV. BT.709 (0.2126, 0.7152,
 * 0.0722) and BT.2020 (0.2627, 0.6780, 0.0593) are rounded to Q14 the same
 * way (ITU-R BT.709-6 and BT.2020-2, table 4). */
#ifndef CUDAFILTERS_KERNELS_GRAY_H
#define CUDAFILTERS_KERNELS_GRAY_H

#include <stdint.h>

#include "common.h"
#include "cudafilters/frame.h"
#include "internal.h"

#define CF_GRAY_SHIFT 14

typedef enum cf_gray_matrix { CF_GRAY_BT601, CF_GRAY_BT709, CF_GRAY_BT2020 } cf_gray_matrix;

typedef struct cf_gray_weights {
    int32_t r, g, b;
} cf_gray_weights;

CF_HOSTDEV cf_gray_weights cf_gray_weights_for(int matrix)
{
    cf_gray_weights w601 = { 4899, 9617, 1868 }, w709 = { 3483, 11718, 1183 },
                    w2020 = { 4304, 11108, 972 };
    return matrix == CF_GRAY_BT709 ? w709 : matrix == CF_GRAY_BT2020 ? w2020 : w601;
}

CF_HOSTDEV uint8_t cf_gray_luma(int32_t r, int32_t g, int32_t b, cf_gray_weights w)
{
    return (uint8_t)((r * w.r + g * w.g + b * w.b + (1 << (CF_GRAY_SHIFT - 1))) >> CF_GRAY_SHIFT);
}

#ifdef __cplusplus
extern "C" {
#endif
/* src: any accepted format; dst: GRAY8 of the same size. matrix: cf_gray_matrix. */
cf_status cf_gray_cpu(int matrix, const cf_frame *src, cf_frame *dst);
cf_status cf_gray_cuda(int matrix, const cf_frame *src, cf_frame *dst, cf_stream stream);
#ifdef __cplusplus
}
#endif

#endif
