/* cudafilters convert: the optimized CPU convert (convert_cpu_fast.c). */
#ifndef CUDAFILTERS_KERNELS_CONVERT_CPU_FAST_H
#define CUDAFILTERS_KERNELS_CONVERT_CPU_FAST_H

#include "convert.h"

CF_BEGIN_DECLS

/* cf_convert_cpu's result, bit for bit: the SIMD level in effect
 * (cpu_dispatch.h) on up to `threads` threads of the process pool (0: all
 * cores), in slices of rows. SIMD covers 4:2:0 YUV (8 and 10 bits) to RGB
 * (3 and 4 bytes) and RGB to 4:2:0 YUV, every matrix, range, siting and
 * chroma filter, RGB to RGB or gray, 4:2:0 to 4:2:0 of the same depth,
 * and through lookup tables filled by the reference (convert_cpu_lut.h)
 * the rest: gray to anything, YUV to gray, 8 <-> 10-bit YUV. Every pair
 * has an optimized path; the reference's rows remain for a plan whose
 * sums could leave 32-bit lanes (none of the table's).
 * Records the level that ran (cf_cpu_last_level: CF_CPU_REFERENCE for the
 * reference's rows). Row buffers come from `scratch` (grown once, kept).
 * Errors: CF_ERROR_OUT_OF_MEMORY (scratch). */
cf_status cf_convert_fast(const cf_convert_plan *plan, const cf_frame *src, cf_frame *dst,
                          cf_scratch *scratch, int threads);

CF_END_DECLS

#endif
