/* cudafilters convertscale: a resize and a format conversion in one filter.
 *
 * The result is defined as scale then convert: the source resized to the
 * output's size in its own format (scale.h, every plane at its own size),
 * then converted to the output's format (convert.h) at that size; the
 * tests compare it with the scale and convert filters run one after the
 * other. The CPU version makes it in one pass with no intermediate
 * image: every sample convert reads is computed on the spot as the scale's
 * output sample there (convert.h's cf_cv_in over a scaled source,
 * CF_CONVERT_SCALED_SOURCE), with the same integers, so the result is the
 * composition's bit for bit; it recomputes what a stored intermediate
 * would hold (each chroma sample of a scaled 4:2:0 source up to 16 times
 * for RGB output), so `scale,convert` as two filters is faster there. The
 * CUDA version runs the scale and the convert kernels through an
 * intermediate frame (convert_scale.cu says why). */
#ifndef CUDAFILTERS_KERNELS_CONVERT_SCALE_H
#define CUDAFILTERS_KERNELS_CONVERT_SCALE_H

#include "convert.h"
#include "scale.h"

/* Both halves; the scale plan's tables are its own (freed with it). */
typedef struct cf_convert_scale_plan {
    cf_scale_plan scale;     /* source -> output size, in the source's format */
    cf_convert_plan convert; /* source format -> output format, at the output size */
} cf_convert_scale_plan;

CF_BEGIN_DECLS

/* The one-pass arithmetic: rows [r0, r1) of convert's row list for dst
 * (cf_convert_rows(&plan->convert, dst->height)), read from src through
 * the scale. Host frames. */
void cf_convert_scale_fused_rows(const cf_convert_scale_plan *plan, const cf_frame *src,
                                 cf_frame *dst, int r0, int r1);

/* The CPU version: those rows in slices on up to `threads` threads (0: all
 * cores; rows_cpu_threads.h). */
void cf_convert_scale_cpu(const cf_convert_scale_plan *plan, const cf_frame *src, cf_frame *dst,
                          int threads);

/* The CUDA version: the scale into an intermediate frame after the scale's
 * tables in the device scratch (grown when the output is larger; growing
 * synchronises the device), then the convert, queued on `stream`.
 * Errors: CF_ERROR_CUDA, CF_ERROR_OUT_OF_MEMORY, CF_ERROR_INVALID_ARGUMENT. */
cf_status cf_convert_scale_cuda(const cf_convert_scale_plan *plan, const cf_frame *src,
                                cf_frame *dst, cf_stream stream, cf_scratch *scratch);

CF_END_DECLS

#endif
