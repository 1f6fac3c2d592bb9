/* cudafilters: the process-wide CPU worker pool. Library-internal.
 *
 * One pool of threads (GLib's GThreadPool, one thread per processor less
 * the caller's own) serves
 * every scheduler and filter in the process, so several pipelines share the
 * cores instead of each starting threads of its own. */
#ifndef CUDAFILTERS_PARALLEL_H
#define CUDAFILTERS_PARALLEL_H

#include <stddef.h>

#include "internal.h"

CF_BEGIN_DECLS

/* Runs fn(ctx, i) for every i in [0, n), spread over at most `threads`
 * threads (the calling thread included; 0: one per processor), and returns
 * once all have run. fn must be safe to run concurrently for different i. */
void cf_parallel_for(int n, int threads, void (*fn)(void *ctx, int i), void *ctx);

/* The threads a call with `threads` uses at most: 1 .. processors (0 and
 * anything above: all processors). Size per-slot scratch with it. */
int cf_parallel_threads(int threads);

/* cf_parallel_for that also tells fn which participant runs it: slot is in
 * [0, cf_parallel_threads(threads)) and no two participants share one at
 * a time, so fn can use scratch of its slot. */
void cf_parallel_for_slots(int n, int threads, void (*fn)(void *ctx, int i, int slot), void *ctx);

/* Runs fn(ctx, y0, y1, slot) over rows [0, rows) cut into slices [y0, y1)
 * of at least min_rows rows (except a last shorter one), about four per
 * thread, with cf_parallel_for_slots. The thread-slicing helper of the
 * optimized CPU filters (cpu_dispatch.h). */
void cf_parallel_rows(int rows, int threads, int min_rows,
                      void (*fn)(void *ctx, int y0, int y1, int slot), void *ctx);

/* Copies the pixels of host frame src into host frame dst (same format and
 * size, any pitches) with up to `threads` threads, in slices of rows. */
void cf_parallel_copy_frame(const cf_frame *src, cf_frame *dst, int threads);

CF_END_DECLS

#endif
