/* cudafilters: how a filter plugs in an optimized CPU version.
 * Library-internal.
 *
 * A filter with an optimized CPU version (dav1d's model):
 *  1. keeps its reference (kernels/<name>_cpu.c) as it is: the result;
 *  2. writes the SIMD code once, in kernels/<name>_cpu_simd.c, with GCC
 *     vector extensions (kernels/simd.h: vu32, VL lanes, cf_simd_ld/st),
 *     exporting one table of function pointers named CF_SIMD_NAME(table);
 *     kernels/meson.build compiles that file once per level
 *     (-DCF_SIMD_LEVEL=..., -mavx2 ..., see its comment), so the table
 *     exists as <table>_baseline, <table>_avx2, <table>_avx512;
 *  3. in its glue (kernels/<name>_cpu_fast.c), declares
 *       static const void *const table[CF_CPU_LEVELS] = { NULL,
 *           &x_baseline, &x_avx2, &x_avx512 };   (a NULL entry: no such level)
 *     and per frame calls cf_cpu_pick(table, &level): NULL means "run the
 *     reference" (forced, or nothing optimized for this processor);
 *  4. runs the picked functions in slices of rows with cf_parallel_rows()
 *     (core/parallel.h), scratch per slot sized before the run, from the
 *     instance's cf_scratch (grown once, not per frame);
 *  5. calls cf_cpu_note_ran(level) so tests can assert which path ran, and
 *     tests/test_cpu_exact.cpp gets a case that runs every level against
 *     the reference on random sizes with guard bytes.
 * The process-wide level (cudafilters/cpu.h: CF_CPU, cf_cpu_set_level)
 * caps every filter at once. */
#ifndef CUDAFILTERS_CPU_DISPATCH_H
#define CUDAFILTERS_CPU_DISPATCH_H

#include "cudafilters/cpu.h"
#include "internal.h"

CF_BEGIN_DECLS

/* The entry of `table` for the level in effect: table[l] for the highest
 * l <= cf_cpu_get_level() with table[l] != NULL, l >= CF_CPU_BASELINE; its
 * level into *level. NULL (and CF_CPU_REFERENCE) when the reference is
 * forced or no entry fits. Thread-safe. */
const void *cf_cpu_pick(const void *const table[CF_CPU_LEVELS], cf_cpu_level *level);

/* Records the path a CPU filter run took in the calling thread, for
 * cf_cpu_last_level(). */
void cf_cpu_note_ran(cf_cpu_level level);

CF_END_DECLS

#endif
