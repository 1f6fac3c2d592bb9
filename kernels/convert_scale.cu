/* CUDA convertscale (convert_scale.h): the scale into an intermediate
 * frame (the source's format at the output's size) in the filter's device
 * scratch, after the scale's tables, then the convert from it, both queued
 * on the caller's stream with their fast kernels (scale_fast.cu,
 * convert_fast.cu). On the H200 this is 0.021 ms for 4K NV12 to 1080p
 * RGBA, where a one-pass kernel computing every sample through the scale
 * (convert.h's scaled source) took 0.21 ms and read past its source
 * (bench/results/2026-12-01-h200-s16-final.md). */
#include <cuda_runtime.h>

#include "convert_scale.h"

namespace {

size_t align256(size_t n)
{
    return (n + 255) & ~(size_t)255;
}

} // namespace

extern "C" cf_status cf_convert_scale_cuda(const cf_convert_scale_plan *plan, const cf_frame *src,
                                           cf_frame *dst, cf_stream stream, cf_scratch *scratch)
{
    cf_frame mid = {};
    mid.format = src->format;
    mid.width = dst->width;
    mid.height = dst->height;
    mid.memory = CF_MEMORY_DEVICE;
    mid.device = dst->device;
    const cf_format_info *fi = cf_format_get_info(src->format);
    if (!fi)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "convertscale: unknown source format");
    /* Layout: the tables at 0 (cf_scale_cuda_tables reuses the block when
     * it is big enough), then each plane on 256-byte rows. */
    size_t offset[CF_MAX_PLANES] = {}, total = align256(plan->scale.table_bytes);
    for (int p = 0; p < fi->n_planes; p++) {
        mid.pitch[p] = align256(cf_format_plane_row_bytes(src->format, p, mid.width));
        offset[p] = total;
        total += mid.pitch[p] * (size_t)cf_format_plane_height(src->format, p, mid.height);
    }
    void *block = NULL;
    CF_TRY(cf_scratch_reserve(scratch, total, CF_MEMORY_DEVICE, &block));
    for (int p = 0; p < fi->n_planes; p++)
        mid.data[p] = (uint8_t *)block + offset[p];
    CF_TRY(cf_scale_cuda(&plan->scale, src, &mid, stream, scratch));
    return cf_convert_cuda(&plan->convert, &mid, dst, stream);
}
