/* CUDA convert: the fast kernels of convert_fast.cu, for convert.cu's
 * dispatch. */
#ifndef CUDAFILTERS_KERNELS_CONVERT_FAST_CUH
#define CUDAFILTERS_KERNELS_CONVERT_FAST_CUH

#include <cuda_runtime.h>

#include "convert.h"

/* The name of the fast kernel that takes plan on these planes (8-bit
 * 4:2:0 to or from 3- or 4-byte RGB, planes aligned for its word
 * accesses), or NULL when none does. */
const char *cf_convert_fast_takes(const cf_convert_plan *plan, const cf_convert_planes *in,
                                  const cf_convert_planes *out);
/* Runs it on a w x h frame on stream s (only after cf_convert_fast_takes
 * said yes). Returns CF_OK or the launch's error. */
cf_status cf_convert_fast_run(const cf_convert_plan *plan, const cf_convert_planes *in,
                              const cf_convert_planes *out, int w, int h, cudaStream_t s);

#endif
