/* cudafilters convert: the optimized CPU convert's lookup-table pairs
 * (convert_cpu_lut.c). Library-internal. */
#ifndef CUDAFILTERS_KERNELS_CONVERT_CPU_LUT_H
#define CUDAFILTERS_KERNELS_CONVERT_CPU_LUT_H

#include "convert.h"
#include "convert_cpu_copy_simd.h"

CF_BEGIN_DECLS

/* Whether every output sample of plan is a function of one input sample:
 * YUV or GRAY to GRAY, GRAY to RGB or YUV, YUV to YUV of another depth. */
bool cf_convert_lut_applies(const cf_convert_plan *plan);

/* cf_convert_cpu's result for such a plan, bit for bit: tables of every
 * input sample value filled by the reference's own functions (once per
 * plan, kept in `scratch`, whose tag marks them), applied by fn's rows on
 * up to `threads` threads. Errors: CF_ERROR_OUT_OF_MEMORY (scratch). */
cf_status cf_convert_lut(const cf_convert_copy_simd *fn, const cf_convert_plan *plan,
                         const cf_frame *src, cf_frame *dst, cf_scratch *scratch, int threads);

CF_END_DECLS

#endif
