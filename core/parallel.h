/* cudafilters: the process-wide CPU worker pool. Library-internal.
 *
 * One pool of threads (GLib's GThreadPool, one thread per processor) serves
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

/* Copies the pixels of host frame src into host frame dst (same format and
 * size, any pitches) with up to `threads` threads, in slices of rows. */
void cf_parallel_copy_frame(const cf_frame *src, cf_frame *dst, int threads);

CF_END_DECLS

#endif
