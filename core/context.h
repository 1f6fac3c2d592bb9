/* cudafilters: the CUDA context a long-lived object works in.
 *
 * The runtime API works in whatever driver context is current on the
 * calling thread. Objects that outlive one call and may be used from other
 * threads (frame pools, schedulers) remember the context current when they
 * are made and make it current themselves around their CUDA calls, so a
 * GStreamer task thread or an encoder thread can use them without knowing
 * which context they belong to. The driver functions come through
 * cudaGetDriverEntryPointByVersion, so the library still loads on a
 * machine without libcuda. Library-internal. */
#ifndef CUDAFILTERS_CONTEXT_H
#define CUDAFILTERS_CONTEXT_H

#include "internal.h"

CF_BEGIN_DECLS

/* A driver context (CUcontext); NULL for none. */
typedef struct CUctx_st *cf_cuda_context;

/* The context CUDA work of this thread goes to: the one current, or, when
 * none is, the current device's primary context, which this initialises
 * (cudaFree(0)). Errors: CF_ERROR_NO_DEVICE (no driver or device, or a build
 * without CUDA), CF_ERROR_CUDA. */
cf_status cf_context_get_current(cf_cuda_context *ctx);

/* Makes `ctx` current on this thread until the matching cf_context_pop().
 * Calls nest. Errors: CF_ERROR_CUDA (the message names the call). */
cf_status cf_context_push(cf_cuda_context ctx);
void cf_context_pop(void);

CF_END_DECLS

#endif
