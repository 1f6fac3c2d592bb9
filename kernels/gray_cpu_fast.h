/* cudafilters gray: the optimized CPU gray (gray_cpu_fast.c). */
#ifndef CUDAFILTERS_KERNELS_GRAY_CPU_FAST_H
#define CUDAFILTERS_KERNELS_GRAY_CPU_FAST_H

#include "gray.h"

/* cf_gray_cpu's result, bit for bit: the SIMD level in effect
 * (cpu_dispatch.h) on up to `threads` threads of the process pool (0: all
 * cores), in slices of rows; the reference itself when it is forced or no
 * level applies. Records the level that ran (cf_cpu_last_level). Needs no
 * scratch. Never fails (CF_OK), like the reference. */
cf_status cf_gray_fast(const cf_gray_plan *plan, const cf_frame *src, cf_frame *dst, int threads);

#endif
