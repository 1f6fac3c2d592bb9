/* cudafilters convertscale: a resize and a format conversion in one filter.
 *
 * The result is defined as scale then convert: the source resized to the
 * output's size in its own format (scale.h, every plane at its own size),
 * then converted to the output's format (convert.h) at that size; the
 * tests compare it with the scale and convert filters run one after the
 * other. Both versions run exactly that: the scale into an intermediate
 * frame, then the convert from it, with each filter's own code (on the
 * CPU the optimized code, cf_scale_fast and cf_convert_fast; on the GPU
 * the kernels). A one-pass version that computed every sample the
 * conversion reads as the scale's output there was tried and dropped: on
 * the H200 it took 0.21 ms for 4K NV12 to 1080p RGBA against 0.022 ms for
 * the two passes (it recomputes each scaled chroma sample up to 16 times),
 * and compute-sanitizer found it reading past its source
 * (bench/results/2026-12-01-h200-s16-final.md). */
#ifndef CUDAFILTERS_KERNELS_CONVERT_SCALE_H
#define CUDAFILTERS_KERNELS_CONVERT_SCALE_H

#include "convert.h"
#include "scale.h"

/* Both halves; the scale plan's tables are its own (freed with it). */
typedef struct cf_convert_scale_plan {
    cf_scale_plan scale;     /* source -> output size, in the source's format */
    cf_convert_plan convert; /* source format -> output format, at the output size */
    /* Host frames: the intermediate (the source's format at the output's
     * size), allocated with the plan and freed with it, so a steady stream
     * allocates nothing; device frames: zeroed (it lives in the device
     * scratch, cf_convert_scale_cuda). */
    cf_frame mid;
} cf_convert_scale_plan;

CF_BEGIN_DECLS

/* The CUDA version: the scale into an intermediate frame after the scale's
 * tables in the device scratch (grown when the output is larger; growing
 * synchronises the device), then the convert, queued on `stream`.
 * Errors: CF_ERROR_CUDA, CF_ERROR_OUT_OF_MEMORY, CF_ERROR_INVALID_ARGUMENT. */
cf_status cf_convert_scale_cuda(const cf_convert_scale_plan *plan, const cf_frame *src,
                                cf_frame *dst, cf_stream stream, cf_scratch *scratch);

CF_END_DECLS

#endif
