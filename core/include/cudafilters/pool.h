/* cudafilters: pools of frames of one shape, reused instead of allocated.
 *
 * Allocating device or pinned memory costs far more than a frame's work
 * (cudaMalloc and cudaMallocHost can synchronise the whole device), so
 * everything that handles a stream of frames takes them from a pool: the
 * scheduler (scheduler.h) for its staging and output frames, and
 * applications for frames they fill themselves. A pool hands out frames of
 * one format and size in one kind of memory, makes new ones only while all
 * its frames are in use, and never frees one before it is destroyed. */
#ifndef CUDAFILTERS_POOL_H
#define CUDAFILTERS_POOL_H

#include <stdbool.h>

#include "export.h"
#include "format.h"
#include "frame.h"
#include "status.h"

CF_BEGIN_DECLS

typedef struct cf_frame_pool cf_frame_pool;

typedef struct cf_frame_pool_params {
    cf_format format;
    int width, height;   /* pixels, >= 1 */
    cf_memory memory;    /* CF_MEMORY_HOST, CF_MEMORY_PINNED_HOST or CF_MEMORY_DEVICE */
    int max_frames;      /* frames the pool makes at most; 0: no limit */
    void *reserved[4];   /* zero */
} cf_frame_pool_params;

/* Parameters inline, e.g.
 *   cf_frame_pool_create(&pool, cf_frame_pool_params(.format = CF_FORMAT_NV12,
 *                        .width = 1920, .height = 1080, .memory = CF_MEMORY_DEVICE));
 * Fields left out are zero. */
#ifndef __cplusplus
#define cf_frame_pool_params(...) CF_PARAMS_(cf_frame_pool_params, __VA_ARGS__)
#endif

/* Makes an empty pool into *pool. Frames are laid out as cf_frame_alloc()
 * lays them out. Device and pinned frames belong to the CUDA context current
 * now (see device.h); the pool makes that context current itself whenever it
 * allocates or frees, so any thread may use it. Caller owns the pool.
 * Errors (*pool is NULL then): CF_ERROR_INVALID_ARGUMENT,
 * CF_ERROR_UNSUPPORTED_FORMAT, CF_ERROR_NO_DEVICE (device or pinned memory
 * without a usable GPU), CF_ERROR_OUT_OF_MEMORY, CF_ERROR_CUDA. */
CF_API cf_status cf_frame_pool_create(cf_frame_pool **pool, const cf_frame_pool_params *params);

/* Destroys *pool and sets it to NULL. Frames not yet released stay valid and
 * are freed when they are released; the pool's memory goes with the last.
 * NULL or *pool == NULL is a no-op. */
CF_API void cf_frame_pool_destroy(cf_frame_pool **pool);

/* A free frame into *frame: a kept one, or a new one while fewer than
 * max_frames exist. When every frame is in use and none may be made, waits
 * for a release if `wait`, else returns CF_ERROR_AGAIN. The frame's pixels
 * are whatever they were. Thread-safe.
 * Errors: CF_ERROR_INVALID_ARGUMENT, CF_ERROR_AGAIN, CF_ERROR_FLUSHING (the
 * pool is flushing: cf_frame_pool_set_flushing), CF_ERROR_OUT_OF_MEMORY (the
 * message says how much was asked and, for the GPU, how much is free),
 * CF_ERROR_NO_DEVICE, CF_ERROR_CUDA. */
CF_API cf_status cf_frame_pool_acquire(cf_frame_pool *pool, cf_frame *frame, bool wait);

/* Gives a frame from cf_frame_pool_acquire() back and zeroes *frame. The
 * caller must be done with it, GPU work included. A frame that is not the
 * pool's is left alone (and reported through cf_last_error as
 * CF_ERROR_INVALID_ARGUMENT). Thread-safe; NULL arguments are a no-op. */
CF_API void cf_frame_pool_release(cf_frame_pool *pool, cf_frame *frame);

/* While flushing, waiting and new acquires return CF_ERROR_FLUSHING, so a
 * thread blocked in cf_frame_pool_acquire() can be woken. Thread-safe. */
CF_API void cf_frame_pool_set_flushing(cf_frame_pool *pool, bool flushing);

/* Frames the pool has made (in use or free), and frames in use now: a
 * steady stream must keep the first constant. Thread-safe. */
CF_API int cf_frame_pool_count(const cf_frame_pool *pool);
CF_API int cf_frame_pool_in_use(const cf_frame_pool *pool);

/* True if frames from `pool` have this format, size and memory kind. */
CF_API bool cf_frame_pool_matches(const cf_frame_pool *pool, cf_format format, int width,
                                  int height, cf_memory memory);

CF_END_DECLS

#endif
