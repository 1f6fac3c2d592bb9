/* cudafilters tool: GPUs for jobs, FFmpeg's CUDA device, pinned host frames.
 *
 * FFmpeg (NVDEC, NVENC) and our core share each device's primary CUDA
 * context: FFmpeg's CUDA device is created with AV_CUDA_USE_PRIMARY_CONTEXT
 * and our core's runtime calls use the primary context of the device made
 * current with cf_device_set(). So a decoded CUDA frame's device pointers are
 * valid for our kernels with no context push and no copy. */
#ifndef CLI_GPU_H
#define CLI_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include <cudafilters/cudafilters.h>
#include <libavutil/buffer.h>
#include <libavutil/frame.h>

/* One CUDA device as the jobs see it. */
typedef struct cli_gpu {
    int index;              /* CUDA ordinal */
    AVBufferRef *hw_device; /* FFmpeg CUDA device (NVDEC/NVENC), NULL if unavailable */
    char hw_error[256];     /* why hw_device is NULL */
} cli_gpu;

/* Number of usable CUDA devices; with none, *reason (static string) says why. */
int cli_gpu_count(const char **reason);

/* Prepares device `index`: creates FFmpeg's CUDA device on its primary
 * context. Must run before our core makes that primary context current
 * (cf_device_set, any allocation): FFmpeg sets the context's scheduling flags
 * and refuses a primary context already active with other flags. On failure
 * hw_device stays NULL and hw_error says why; the filters still run on the GPU
 * (frames decoded on the CPU are uploaded). */
void cli_gpu_open(cli_gpu *gpu, int index);
void cli_gpu_close(cli_gpu *gpu);

/* The CUDA stream FFmpeg's device queues its copies on (NULL: the legacy
 * default stream). Running our kernels on it orders them after the decoder's
 * copy of each frame and before the buffer's reuse, with no extra sync. */
cf_stream cli_gpu_stream(const cli_gpu *gpu);

/* Page-locked host frames, so downloads from the GPU are true DMA. */
typedef struct cli_pinned {
    AVBufferPool *pool;
    size_t block; /* bytes per buffer of the pool */
} cli_pinned;

/* Gives `frame` (format, width, height set) planes in one pinned block from
 * the pool, rows 256-byte aligned; the pool is remade when the size changes.
 * Returns 0 or a negative AVERROR. */
int cli_pinned_frame_alloc(cli_pinned *pinned, AVFrame *frame);
/* Frees the pool once the last frame from it is freed. */
void cli_pinned_free(cli_pinned *pinned);

#endif
