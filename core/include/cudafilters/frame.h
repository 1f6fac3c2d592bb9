/* cudafilters: frames (images in host or device memory) and transfers. */
#ifndef CUDAFILTERS_FRAME_H
#define CUDAFILTERS_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "export.h"
#include "format.h"
#include "status.h"

CF_BEGIN_DECLS

typedef enum cf_memory {
    CF_MEMORY_HOST = 0,    /* ordinary (pageable) host memory */
    CF_MEMORY_PINNED_HOST, /* page-locked host memory (cf_host_alloc_pinned) */
    CF_MEMORY_DEVICE,      /* CUDA device memory of the current context */
} cf_memory;

/* One image. The struct does not own its planes unless it came from
 * cf_frame_alloc(); callers may fill it by hand to wrap their own buffers
 * (GstVideoFrame planes, AVFrame data, cudaMalloc'd memory).
 *
 * Plane p holds cf_format_plane_height() rows of
 * cf_format_plane_row_bytes() bytes, row y starting at data[p] + y * pitch[p].
 * Pitches are in bytes and may exceed the row bytes; they are never assumed
 * to equal width * pixel bytes. */
typedef struct cf_frame {
    cf_format format;
    int width, height;               /* pixels, of plane 0 */
    uint8_t *data[CF_MAX_PLANES];    /* first byte of each plane */
    size_t pitch[CF_MAX_PLANES];     /* bytes from one row to the next */
    cf_memory memory;
    int device;                      /* CUDA ordinal for CF_MEMORY_DEVICE, else -1 */
    void *allocation;                /* private: set by cf_frame_alloc() */
} cf_frame;

/* Allocates a frame of the given format and size (width, height >= 1) in
 * one block of `memory` (device memory in the current context). Each pitch is
 * the row bytes rounded up to 256 bytes for device and pinned memory, 64
 * bytes for host memory. The frame owns the block: free with
 * cf_frame_free(). Errors: CF_ERROR_INVALID_ARGUMENT,
 * CF_ERROR_UNSUPPORTED_FORMAT, CF_ERROR_OUT_OF_MEMORY, CF_ERROR_NO_DEVICE. */
CF_API cf_status cf_frame_alloc(cf_frame *frame, cf_format format, int width,
                                int height, cf_memory memory);

/* Frees what cf_frame_alloc() allocated and zeroes the struct. A frame that
 * wraps caller memory (allocation == NULL) is only zeroed. NULL is a no-op. */
CF_API void cf_frame_free(cf_frame *frame);

/* Checks a filled-in frame: known format, size >= 1, every plane non-NULL
 * with pitch >= its row bytes, and for 16-bit formats plane addresses and
 * pitches that are multiples of 2. Errors: CF_ERROR_INVALID_ARGUMENT,
 * CF_ERROR_UNSUPPORTED_FORMAT. */
CF_API cf_status cf_frame_validate(const cf_frame *frame);

/* Copies every plane of src into dst (same format and size, any pitches),
 * asynchronously on `stream` when either side is device memory; the copy is
 * complete only after cf_stream_synchronize(stream) (or an event). Host to
 * host copies run synchronously. Pinned host memory gives true async DMA;
 * pageable host memory makes CUDA stage the copy (slower, may block).
 * Thread-safety: frames must not be written concurrently.
 * Errors: CF_ERROR_INVALID_ARGUMENT (format/size mismatch, bad frame),
 * CF_ERROR_NO_DEVICE, CF_ERROR_CUDA. */
CF_API cf_status cf_frame_copy(const cf_frame *src, cf_frame *dst, cf_stream stream);

/* cf_frame_copy() that also checks the direction: upload needs a host or
 * pinned src and a device dst, download the reverse. */
CF_API cf_status cf_frame_upload(const cf_frame *host_src, cf_frame *device_dst,
                                 cf_stream stream);
CF_API cf_status cf_frame_download(const cf_frame *device_src, cf_frame *host_dst,
                                   cf_stream stream);

CF_END_DECLS

#endif
