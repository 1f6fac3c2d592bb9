/* cudafilters tool: GPUs for jobs and FFmpeg's CUDA device.
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
 * default stream). The filters' scheduler makes its GPU work wait for an
 * event recorded there before each decoded frame (the host does not wait);
 * a decoded frame is given back to the decoder only once that work is done. */
cf_stream cli_gpu_stream(const cli_gpu *gpu);

#endif
