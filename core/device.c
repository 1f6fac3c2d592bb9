#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "internal.h"

#ifdef CF_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#define NO_CUDA_BUILD "cudafilters was built without CUDA"

int cf_have_cuda(void)
{
#ifdef CF_HAVE_CUDA
    return 1;
#else
    return 0;
#endif
}

#ifdef CF_HAVE_CUDA

static const char *unavailable_reason = "";

cf_status cf_device_count(int *count)
{
    if (!count)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_device_count: count is NULL");
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); /* clear the error so later calls start clean */
        /* The static string for each case makes the reason thread-safe to read. */
        const char *reason = cf_cuda_no_device_reason(e);
        unavailable_reason = reason ? reason : "CUDA initialisation failed";
        n = 0;
    } else {
        unavailable_reason = n > 0 ? "" : "no CUDA-capable device found";
    }
    *count = n;
    return CF_OK;
}

const char *cf_device_unavailable_reason(void)
{
    return unavailable_reason;
}

static cf_status check_index(int index)
{
    int n = 0;
    CF_TRY(cf_device_count(&n));
    if (n == 0)
        return cf_set_error(CF_ERROR_NO_DEVICE, "no CUDA device: %s", unavailable_reason);
    if (index < 0 || index >= n)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT,
                            "CUDA device %d does not exist (this machine has %d: 0..%d)", index,
                            n, n - 1);
    return CF_OK;
}

cf_status cf_device_get_info(int index, cf_device_info *info)
{
    if (!info)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_device_get_info: info is NULL");
    CF_TRY(check_index(index));
    struct cudaDeviceProp prop;
    CF_TRY(CF_CUDA_CHECK(cudaGetDeviceProperties(&prop, index)));
    memset(info, 0, sizeof *info);
    info->index = index;
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->total_memory = prop.totalGlobalMem;
    info->compute_major = prop.major;
    info->compute_minor = prop.minor;
    info->multiprocessors = prop.multiProcessorCount;
    return CF_OK;
}

cf_status cf_device_get_memory(size_t *free_bytes, size_t *total_bytes)
{
    if (!free_bytes || !total_bytes)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_device_get_memory: NULL argument");
    return CF_CUDA_CHECK(cudaMemGetInfo(free_bytes, total_bytes));
}

cf_status cf_device_set(int index)
{
    CF_TRY(check_index(index));
    return CF_CUDA_CHECK(cudaSetDevice(index));
}

cf_status cf_stream_create(cf_stream *stream)
{
    if (!stream)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_stream_create: stream is NULL");
    cudaStream_t s = NULL;
    CF_TRY(CF_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)));
    *stream = s;
    return CF_OK;
}

void cf_stream_destroy(cf_stream *stream)
{
    if (stream && *stream) {
        /* Destroying cannot fail for a valid stream; a failure means the
         * context is already gone, which leaves nothing to release. */
        (void)CF_CUDA_CHECK(cudaStreamDestroy(*stream));
        *stream = NULL;
    }
}

cf_status cf_stream_synchronize(cf_stream stream)
{
    return CF_CUDA_CHECK(cudaStreamSynchronize(stream));
}

/* An event with `flags` into *event; `fn` names the caller in errors. */
static cf_status create_event(cf_event *event, unsigned flags, const char *fn)
{
    if (!event)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "%s: event is NULL", fn);
    *event = NULL;
    cudaEvent_t e = NULL;
    CF_TRY(CF_CUDA_CHECK(cudaEventCreateWithFlags(&e, flags)));
    *event = e;
    return CF_OK;
}

cf_status cf_event_create(cf_event *event)
{
    /* Neither timing nor cudaEventBlockingSync: see cf_event_synchronize. */
    return create_event(event, cudaEventDisableTiming, "cf_event_create");
}

void cf_event_destroy(cf_event *event)
{
    if (event && *event) {
        (void)CF_CUDA_CHECK(cudaEventDestroy(*event));
        *event = NULL;
    }
}

cf_status cf_event_record(cf_event event, cf_stream stream)
{
    return CF_CUDA_CHECK(cudaEventRecord(event, stream));
}

/* Host waits ask and sleep instead of cudaEventSynchronize. On an event of
 * cudaEventBlockingSync that call sleeps until the driver's interrupt
 * thread (cuda-EvtHandlr) wakes it, and every record of such an event, even
 * one nobody waits for, has that thread take an interrupt; on a plain event
 * it spins a core. On the H200, 4K RGBA through upload, four filters and
 * download at 1620 frames/s: 0.80 cores of host CPU with blocking-sync
 * events, 0.36 with plain events and these polls, at the same frames/s
 * (bench/results/2026-12-01-h200-s17-14-events.md). A poll is one
 * cudaEventQuery (under a microsecond) and one sleep; the wait ends at
 * most one sleep, plus the kernel's timer slack (50 us by default), after
 * the work does. */
#define POLL_FIRST_US 10
#define POLL_MAX_US 160

cf_status cf_event_synchronize(cf_event event)
{
    for (unsigned long us = POLL_FIRST_US;; us = us < POLL_MAX_US ? 2 * us : POLL_MAX_US) {
        cudaError_t e = cudaEventQuery(event);
        if (e != cudaErrorNotReady)
            return CF_CUDA_CHECK(e);
        g_usleep(us);
    }
}

cf_status cf_event_query(cf_event event)
{
    cudaError_t e = cudaEventQuery(event);
    if (e == cudaErrorNotReady)
        return cf_set_error(CF_ERROR_AGAIN, "event not reached yet");
    return CF_CUDA_CHECK(e);
}

cf_status cf_stream_wait_event(cf_stream stream, cf_event event)
{
    return CF_CUDA_CHECK(cudaStreamWaitEvent(stream, event, 0));
}

cf_status cf_device_alloc(void **ptr, size_t bytes)
{
    if (!ptr)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_device_alloc: ptr is NULL");
    *ptr = NULL;
    if (bytes == 0)
        return CF_OK;
    cudaError_t e = cudaMalloc(ptr, bytes);
    if (e == cudaErrorMemoryAllocation) {
        *ptr = NULL;
        (void)cudaGetLastError();
        size_t free_bytes = 0, total = 0;
        int device = -1;
        (void)cudaGetDevice(&device);
        if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
            (void)cudaGetLastError();
            return cf_set_error(CF_ERROR_OUT_OF_MEMORY,
                                "GPU out of memory: %.1f MiB asked on CUDA device %d",
                                bytes / 1048576.0, device);
        }
        return cf_set_error(CF_ERROR_OUT_OF_MEMORY,
                            "GPU out of memory: %.1f MiB asked on CUDA device %d, %.1f MiB free "
                            "of %.1f MiB",
                            bytes / 1048576.0, device, free_bytes / 1048576.0,
                            total / 1048576.0);
    }
    cf_status st = CF_CUDA_CHECK(e);
    if (st != CF_OK)
        *ptr = NULL;
    return st;
}

void cf_device_free(void *ptr)
{
    if (ptr)
        (void)CF_CUDA_CHECK(cudaFree(ptr));
}

cf_status cf_host_alloc_pinned(void **ptr, size_t bytes)
{
    if (!ptr)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_host_alloc_pinned: ptr is NULL");
    *ptr = NULL;
    if (bytes == 0)
        return CF_OK;
    cudaError_t e = cudaMallocHost(ptr, bytes);
    if (e == cudaErrorMemoryAllocation) {
        *ptr = NULL;
        (void)cudaGetLastError();
        return cf_set_error(CF_ERROR_OUT_OF_MEMORY,
                            "out of pinned host memory: cannot page-lock %.1f MiB",
                            bytes / 1048576.0);
    }
    cf_status st = CF_CUDA_CHECK(e);
    if (st != CF_OK)
        *ptr = NULL;
    return st;
}

void cf_host_free_pinned(void *ptr)
{
    if (ptr)
        (void)CF_CUDA_CHECK(cudaFreeHost(ptr));
}

#else /* !CF_HAVE_CUDA */

static cf_status no_cuda(const char *what)
{
    return cf_set_error(CF_ERROR_NO_DEVICE, "%s: %s", what, NO_CUDA_BUILD);
}

cf_status cf_device_count(int *count)
{
    if (!count)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_device_count: count is NULL");
    *count = 0;
    return CF_OK;
}
const char *cf_device_unavailable_reason(void) { return NO_CUDA_BUILD; }
cf_status cf_device_get_info(int index, cf_device_info *info)
{
    (void)index; (void)info;
    return no_cuda("cf_device_get_info");
}
cf_status cf_device_set(int index) { (void)index; return no_cuda("cf_device_set"); }
cf_status cf_device_get_memory(size_t *free_bytes, size_t *total_bytes)
{
    (void)free_bytes; (void)total_bytes;
    return no_cuda("cf_device_get_memory");
}
cf_status cf_stream_create(cf_stream *stream)
{
    if (stream) *stream = NULL;
    return no_cuda("cf_stream_create");
}
void cf_stream_destroy(cf_stream *stream) { if (stream) *stream = NULL; }
cf_status cf_stream_synchronize(cf_stream stream) { (void)stream; return no_cuda("cf_stream_synchronize"); }
cf_status cf_event_create(cf_event *event)
{
    if (event) *event = NULL;
    return no_cuda("cf_event_create");
}
void cf_event_destroy(cf_event *event) { if (event) *event = NULL; }
cf_status cf_event_record(cf_event event, cf_stream stream)
{
    (void)event, (void)stream;
    return no_cuda("cf_event_record");
}
cf_status cf_event_synchronize(cf_event event) { (void)event; return no_cuda("cf_event_synchronize"); }
cf_status cf_event_query(cf_event event) { (void)event; return no_cuda("cf_event_query"); }
cf_status cf_stream_wait_event(cf_stream stream, cf_event event)
{
    (void)stream, (void)event;
    return no_cuda("cf_stream_wait_event");
}
cf_status cf_device_alloc(void **ptr, size_t bytes)
{
    if (ptr) *ptr = NULL;
    (void)bytes;
    return no_cuda("cf_device_alloc");
}
void cf_device_free(void *ptr) { (void)ptr; }
cf_status cf_host_alloc_pinned(void **ptr, size_t bytes)
{
    if (ptr) *ptr = NULL;
    (void)bytes;
    return no_cuda("cf_host_alloc_pinned");
}
void cf_host_free_pinned(void *ptr) { (void)ptr; }

#endif
