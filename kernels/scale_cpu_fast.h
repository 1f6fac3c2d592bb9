/* cudafilters scale: the optimized CPU scale (scale_cpu_fast.c). */
#ifndef CUDAFILTERS_KERNELS_SCALE_CPU_FAST_H
#define CUDAFILTERS_KERNELS_SCALE_CPU_FAST_H

#include "scale.h"

CF_BEGIN_DECLS

/* cf_scale_cpu's result, bit for bit: the SIMD level in effect
 * (cpu_dispatch.h) on up to `threads` threads of the process pool (0: all
 * cores), in slices of output rows (every plane's rows one list). Every
 * method and format: the plan's tables turned per frame into one table per
 * tap (byte offsets and weights), read with gathers; box means (area,
 * whole-number factors) directly. The outputs at the right end whose source
 * word would reach past the row, and any case whose sums could leave 32
 * bits, take the reference's per-sample code. Records the level that ran
 * (cf_cpu_last_level). Tables and row lists come from `scratch` (grown
 * once, kept). Errors: CF_ERROR_OUT_OF_MEMORY (scratch). */
cf_status cf_scale_fast(const cf_scale_plan *plan, const cf_frame *src, cf_frame *dst,
                        cf_scratch *scratch, int threads);

CF_END_DECLS

#endif
