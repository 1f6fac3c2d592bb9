/* cudafilters kernels: running a reference that comes in independent rows
 * on the process's CPU pool. Library-internal.
 *
 * The fallback of the optimized convert and scale (convert_cpu_fast.h,
 * scale_cpu_fast.h) for a case their SIMD rows do not take, and what runs
 * when no optimized level exists: the reference's own arithmetic, so the
 * same result, in slices of rows on every core. */
#ifndef CUDAFILTERS_ROWS_CPU_THREADS_H
#define CUDAFILTERS_ROWS_CPU_THREADS_H

#include "internal.h"

CF_BEGIN_DECLS

/* Calls rows_fn(plan, src, dst, r0, r1) over [0, rows) in slices on up to
 * `threads` threads (0: all cores; cf_parallel_rows), each slice at least
 * about 64 KiB of dst (its bytes shared evenly among the rows). With the reference forced
 * (CF_CPU=reference, cf_cpu_set_level) it runs all rows in the calling
 * thread, as the reference does. Records CF_CPU_REFERENCE for
 * cf_cpu_last_level(): the arithmetic is the reference's. */
void cf_rows_cpu_run(void (*rows_fn)(const void *plan, const cf_frame *src, cf_frame *dst,
                                     int r0, int r1),
                     const void *plan, const cf_frame *src, cf_frame *dst, int rows,
                     int threads);

CF_END_DECLS

#endif
