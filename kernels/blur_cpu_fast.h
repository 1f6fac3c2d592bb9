/* cudafilters blur: the optimized CPU blur (blur_cpu_fast.c). */
#ifndef CUDAFILTERS_KERNELS_BLUR_CPU_FAST_H
#define CUDAFILTERS_KERNELS_BLUR_CPU_FAST_H

#include "blur.h"

/* Blurs one plane with the result of cf_blur_plane_cpu, bit for bit: the
 * SIMD level in effect (cpu_dispatch.h) on up to `threads` threads of the
 * process pool (0: all cores), or the reference itself when it is forced,
 * no SIMD level applies, or a kernel is not symmetric (cf_blur_make_kernel
 * makes only symmetric ones). Scratch (the horizontal results, a border
 * row and a padded line per thread) comes from `scratch`, grown when too
 * small and kept for the next frames. Records the level that ran
 * (cf_cpu_last_level). Errors: CF_ERROR_OUT_OF_MEMORY. Thread-safe for
 * different scratch blocks. */
cf_status cf_blur_plane_fast(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                             const cf_blur_plane *plane, cf_scratch *scratch, int threads);

#endif
