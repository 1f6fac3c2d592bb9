/* cudafilters tool: GPUs for jobs, FFmpeg's CUDA device, pinned host frames. */
#include "gpu.h"

#include <stdio.h>

#include <libavutil/hwcontext.h>
#ifdef CF_HAVE_CUDA
#include <libavutil/hwcontext_cuda.h>
#endif

int cli_gpu_count(const char **reason)
{
    int n = 0;
    if (cf_device_count(&n) != CF_OK)
        n = 0;
    *reason = n > 0 ? "" : cf_device_unavailable_reason();
    if (n == 0 && !**reason)
        *reason = "no CUDA device";
    return n;
}

void cli_gpu_open(cli_gpu *gpu, int index)
{
    *gpu = (cli_gpu){ .index = index };
#ifdef CF_HAVE_CUDA
    char ordinal[16];
    snprintf(ordinal, sizeof ordinal, "%d", index);
    AVDictionary *opts = NULL;
    /* FFmpeg 5.1 reads the flag; later versions also this option. */
    int ret = av_dict_set(&opts, "primary_ctx", "1", 0);
    if (ret >= 0)
        ret = av_hwdevice_ctx_create(&gpu->hw_device, AV_HWDEVICE_TYPE_CUDA, ordinal, opts,
                                     AV_CUDA_USE_PRIMARY_CONTEXT);
    av_dict_free(&opts);
    if (ret < 0) {
        snprintf(gpu->hw_error, sizeof gpu->hw_error, "FFmpeg CUDA device %d: %s", index,
                 av_err2str(ret));
        gpu->hw_device = NULL;
    }
#else
    snprintf(gpu->hw_error, sizeof gpu->hw_error, "cudafilters was built without CUDA");
#endif
}

void cli_gpu_close(cli_gpu *gpu)
{
    av_buffer_unref(&gpu->hw_device);
}

cf_stream cli_gpu_stream(const cli_gpu *gpu)
{
#ifdef CF_HAVE_CUDA
    if (gpu && gpu->hw_device) {
        const AVHWDeviceContext *dev = (const AVHWDeviceContext *)gpu->hw_device->data;
        const AVCUDADeviceContext *cuda = dev->hwctx;
        return cuda->stream;
    }
#else
    (void)gpu;
#endif
    return NULL;
}
