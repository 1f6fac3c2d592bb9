#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifdef CF_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

cf_status cf_frame_validate(const cf_frame *frame)
{
    if (!frame)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "frame is NULL");
    const cf_format_info *info = cf_format_get_info(frame->format);
    if (!info)
        return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT, "frame has unknown format %d",
                            (int)frame->format);
    if (frame->width < 1 || frame->height < 1)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "frame size %dx%d: both must be >= 1",
                            frame->width, frame->height);
    for (int p = 0; p < info->n_planes; p++) {
        size_t row = cf_format_plane_row_bytes(frame->format, p, frame->width);
        if (!frame->data[p])
            return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "%s frame: plane %d is NULL",
                                info->name, p);
        if (frame->pitch[p] < row)
            return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                                "%s frame %dx%d: plane %d pitch %zu < row bytes %zu", info->name,
                                frame->width, frame->height, p, frame->pitch[p], row);
        /* 16-bit samples are read as 16-bit words. */
        if (((uintptr_t)frame->data[p] | frame->pitch[p]) % (size_t)info->sample_bytes)
            return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                                "%s frame: plane %d address or pitch %zu is not a multiple of "
                                "the %d-byte sample",
                                info->name, p, frame->pitch[p], info->sample_bytes);
    }
    return CF_OK;
}

cf_status cf_frame_alloc(cf_frame *frame, cf_format format, int width, int height,
                         cf_memory memory)
{
    if (!frame)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_frame_alloc: frame is NULL");
    memset(frame, 0, sizeof *frame);
    const cf_format_info *info = cf_format_get_info(format);
    if (!info)
        return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT, "cf_frame_alloc: unknown format %d",
                            (int)format);
    if (width < 1 || height < 1)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_frame_alloc: size %dx%d", width,
                            height);
    size_t align = memory == CF_MEMORY_HOST ? 64 : 256;
    size_t offset[CF_MAX_PLANES], total = 0;
    for (int p = 0; p < info->n_planes; p++) {
        frame->pitch[p] = align_up(cf_format_plane_row_bytes(format, p, width), align);
        offset[p] = total;
        total += align_up(frame->pitch[p] * (size_t)cf_format_plane_height(format, p, height),
                          align);
    }
    void *block = NULL;
    switch (memory) {
    case CF_MEMORY_HOST:
        block = aligned_alloc(align, total);
        if (!block)
            return cf_set_error(CF_ERROR_OUT_OF_MEMORY, "cf_frame_alloc: %zu host bytes", total);
        break;
    case CF_MEMORY_PINNED_HOST:
        CF_TRY(cf_host_alloc_pinned(&block, total));
        break;
    case CF_MEMORY_DEVICE:
        CF_TRY(cf_device_alloc(&block, total));
        break;
    default:
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_frame_alloc: memory kind %d",
                            (int)memory);
    }
    frame->format = format;
    frame->width = width;
    frame->height = height;
    frame->memory = memory;
    frame->device = -1;
#ifdef CF_HAVE_CUDA
    if (memory == CF_MEMORY_DEVICE && CF_CUDA_CHECK(cudaGetDevice(&frame->device)) != CF_OK) {
        cf_device_free(block);
        memset(frame, 0, sizeof *frame);
        return CF_ERROR_CUDA;
    }
#endif
    for (int p = 0; p < info->n_planes; p++)
        frame->data[p] = (uint8_t *)block + offset[p];
    frame->allocation = block;
    return CF_OK;
}

void cf_frame_free(cf_frame *frame)
{
    if (!frame)
        return;
    if (frame->allocation) {
        if (frame->memory == CF_MEMORY_DEVICE)
            cf_device_free(frame->allocation);
        else if (frame->memory == CF_MEMORY_PINNED_HOST)
            cf_host_free_pinned(frame->allocation);
        else
            free(frame->allocation);
    }
    memset(frame, 0, sizeof *frame);
}

static cf_status check_same_shape(const cf_frame *src, const cf_frame *dst)
{
    CF_TRY(cf_frame_validate(src));
    CF_TRY(cf_frame_validate(dst));
    if (src->format != dst->format || src->width != dst->width || src->height != dst->height)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "copy from %s %dx%d to %s %dx%d",
                            cf_format_name(src->format), src->width, src->height,
                            cf_format_name(dst->format), dst->width, dst->height);
    return CF_OK;
}

cf_status cf_frame_copy(const cf_frame *src, cf_frame *dst, cf_stream stream)
{
    CF_TRY(check_same_shape(src, dst));
    const cf_format_info *info = cf_format_get_info(src->format);
    bool host_only = src->memory != CF_MEMORY_DEVICE && dst->memory != CF_MEMORY_DEVICE;
    for (int p = 0; p < info->n_planes; p++) {
        size_t row = cf_format_plane_row_bytes(src->format, p, src->width);
        int rows = cf_format_plane_height(src->format, p, src->height);
        if (host_only) {
            for (int y = 0; y < rows; y++)
                memcpy(dst->data[p] + (size_t)y * dst->pitch[p],
                       src->data[p] + (size_t)y * src->pitch[p], row);
            continue;
        }
#ifdef CF_HAVE_CUDA
        /* cudaMemcpyDefault: unified addressing infers the direction. */
        CF_TRY(CF_CUDA_CHECK(cudaMemcpy2DAsync(dst->data[p], dst->pitch[p], src->data[p],
                                               src->pitch[p], row, (size_t)rows,
                                               cudaMemcpyDefault, stream)));
#else
        (void)stream;
        return cf_set_error(CF_ERROR_NO_DEVICE, "cf_frame_copy: built without CUDA");
#endif
    }
    return CF_OK;
}

cf_status cf_frame_upload(const cf_frame *host_src, cf_frame *device_dst, cf_stream stream)
{
    if (!host_src || !device_dst || host_src->memory == CF_MEMORY_DEVICE ||
        device_dst->memory != CF_MEMORY_DEVICE)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "cf_frame_upload: needs a host source and a device destination");
    return cf_frame_copy(host_src, device_dst, stream);
}

cf_status cf_frame_download(const cf_frame *device_src, cf_frame *host_dst, cf_stream stream)
{
    if (!device_src || !host_dst || device_src->memory != CF_MEMORY_DEVICE ||
        host_dst->memory == CF_MEMORY_DEVICE)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "cf_frame_download: needs a device source and a host destination");
    return cf_frame_copy(device_src, host_dst, stream);
}
