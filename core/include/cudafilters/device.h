/* cudafilters: CUDA devices, streams and raw allocations.
 *
 * All GPU work happens in the CUDA context current on the calling thread:
 * the device's primary context by default, or a context the caller made
 * current (GStreamer's GstCudaContext, FFmpeg's AVCUDADeviceContext).
 * A machine without a GPU or driver is a normal state: cf_device_count()
 * reports 0 and says why, every GPU function returns CF_ERROR_NO_DEVICE. */
#ifndef CUDAFILTERS_DEVICE_H
#define CUDAFILTERS_DEVICE_H

#include <stddef.h>

#include "export.h"
#include "status.h"

CF_BEGIN_DECLS

/* A CUDA stream. Same underlying type as cudaStream_t and CUstream, so those
 * convert without a cast; NULL is the legacy default stream. */
typedef struct CUstream_st *cf_stream;
/* A CUDA event (cudaEvent_t): a marker in a stream's work that the host
 * can wait for, so several frames can be in flight on one stream. */
typedef struct CUevent_st *cf_event;

typedef struct cf_device_info {
    int index;                  /* CUDA runtime ordinal */
    char name[256];             /* "NVIDIA H200" */
    size_t total_memory;        /* bytes */
    int compute_major, compute_minor; /* compute capability, 9.0 on H200 */
    int multiprocessors;        /* SM count */
} cf_device_info;

/* True if the library was built with CUDA support. */
CF_API int cf_have_cuda(void);

/* Number of usable CUDA devices into *count. No driver, no device or a build
 * without CUDA give *count = 0 and CF_OK; cf_device_unavailable_reason() then
 * says why. Errors: CF_ERROR_INVALID_ARGUMENT (count NULL). Thread-safe. */
CF_API cf_status cf_device_count(int *count);

/* Why cf_device_count() found no device ("no CUDA driver", ...), or "" when
 * it found one. Static string. Thread-safe. */
CF_API const char *cf_device_unavailable_reason(void);

/* Properties of device `index` (0 .. count-1).
 * Errors: CF_ERROR_INVALID_ARGUMENT, CF_ERROR_NO_DEVICE, CF_ERROR_CUDA. */
CF_API cf_status cf_device_get_info(int index, cf_device_info *info);

/* Free and total memory of the current device, in bytes (cudaMemGetInfo).
 * Errors: CF_ERROR_INVALID_ARGUMENT, CF_ERROR_NO_DEVICE, CF_ERROR_CUDA. */
CF_API cf_status cf_device_get_memory(size_t *free_bytes, size_t *total_bytes);

/* Free and total memory of device `index` in bytes, asked of the driver's
 * management library (NVML) without making a CUDA context, so it also
 * answers when the device is too full for one (why a context could not be
 * made, say). Thread-safe. Errors: CF_ERROR_INVALID_ARGUMENT,
 * CF_ERROR_NO_DEVICE (no such device, no NVML, or a build without CUDA). */
CF_API cf_status cf_device_query_memory(int index, size_t *free_bytes, size_t *total_bytes);

/* Make device `index` current for the runtime on this thread (its primary
 * context). Not needed when the caller already made a context current.
 * Errors: CF_ERROR_NO_DEVICE, CF_ERROR_CUDA. */
CF_API cf_status cf_device_set(int index);

/* Stream in the current context, non-blocking with respect to the legacy
 * default stream. Caller owns it and frees it with cf_stream_destroy().
 * Errors: CF_ERROR_INVALID_ARGUMENT, CF_ERROR_NO_DEVICE, CF_ERROR_CUDA. */
CF_API cf_status cf_stream_create(cf_stream *stream);
/* Destroys *stream (work already queued still completes) and sets it to NULL.
 * NULL or *stream == NULL is a no-op. */
CF_API void cf_stream_destroy(cf_stream *stream);
/* Blocks the host until all work queued on the stream has finished.
 * Errors: CF_ERROR_NO_DEVICE, CF_ERROR_CUDA (including errors of earlier
 * asynchronous kernels and copies on the stream). */
CF_API cf_status cf_stream_synchronize(cf_stream stream);

/* Event in the current context, without timing and without
 * cudaEventBlockingSync: recording it asks the driver for no host
 * notification, so it costs the same whether streams or the host wait for
 * it (cf_event_synchronize polls it). Caller owns it; free with
 * cf_event_destroy().
 * Errors: CF_ERROR_INVALID_ARGUMENT, CF_ERROR_NO_DEVICE, CF_ERROR_CUDA. */
CF_API cf_status cf_event_create(cf_event *event);
/* Destroys *event and sets it to NULL; NULL or *event == NULL is a no-op. */
CF_API void cf_event_destroy(cf_event *event);
/* Marks the point after all work queued on `stream` so far.
 * Errors: CF_ERROR_NO_DEVICE, CF_ERROR_CUDA. */
CF_API cf_status cf_event_record(cf_event event, cf_stream stream);
/* Blocks the host until the work before the event's last record has
 * finished (at once if it was never recorded), asking the GPU and sleeping
 * between asks: 10 us at first, doubling to 160 us. So the wait costs a
 * few microseconds of CPU per sleep rather than a spinning core or the
 * driver's interrupt thread, and returns at most one sleep plus the
 * kernel's timer slack after the work ends. Any event of the current
 * context, made here or not. Errors: CF_ERROR_NO_DEVICE, CF_ERROR_CUDA
 * (including errors of that work). */
CF_API cf_status cf_event_synchronize(cf_event event);
/* Whether the work before the event's last record has finished, without
 * waiting: CF_OK when it has (or the event was never recorded),
 * CF_ERROR_AGAIN when not yet. Errors: CF_ERROR_NO_DEVICE, CF_ERROR_CUDA
 * (including errors of that work). */
CF_API cf_status cf_event_query(cf_event event);
/* Makes work queued on `stream` after this call wait, on the GPU, for the
 * work before the event's last record (the host does not wait).
 * Errors: CF_ERROR_NO_DEVICE, CF_ERROR_CUDA. */
CF_API cf_status cf_stream_wait_event(cf_stream stream, cf_event event);

/* Device memory of `bytes` bytes in the current context into *ptr.
 * Caller owns it; free with cf_device_free(). bytes == 0 gives *ptr = NULL.
 * Errors: CF_ERROR_INVALID_ARGUMENT, CF_ERROR_NO_DEVICE, CF_ERROR_OUT_OF_MEMORY. */
CF_API cf_status cf_device_alloc(void **ptr, size_t bytes);
CF_API void cf_device_free(void *ptr);

/* Page-locked (pinned) host memory, so copies to and from the GPU are true
 * asynchronous DMA. Same ownership and errors as cf_device_alloc(). */
CF_API cf_status cf_host_alloc_pinned(void **ptr, size_t bytes);
CF_API void cf_host_free_pinned(void *ptr);

CF_END_DECLS

#endif
