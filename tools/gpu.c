/* cudafilters tool: GPUs for jobs, FFmpeg's CUDA device, pinned host frames. */
#include "gpu.h"

#include <stdio.h>

#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
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

static void pinned_buffer_free(void *opaque, uint8_t *data)
{
    (void)opaque;
    cf_host_free_pinned(data);
}

static AVBufferRef *pinned_buffer_alloc(void *opaque, size_t size)
{
    (void)opaque;
    void *p = NULL;
    if (cf_host_alloc_pinned(&p, size) != CF_OK)
        return NULL;
    AVBufferRef *buf = av_buffer_create(p, size, pinned_buffer_free, NULL, 0);
    if (!buf)
        cf_host_free_pinned(p);
    return buf;
}

/* Linesizes rounded up to 256 bytes (what our device frames use), plane sizes and their total. */
static int pinned_layout(const AVFrame *f, int linesize[4], size_t sizes[4], size_t *total)
{
    int ret = av_image_fill_linesizes(linesize, f->format, f->width);
    if (ret < 0)
        return ret;
    ptrdiff_t ls[4];
    for (int p = 0; p < 4; p++) {
        linesize[p] = (linesize[p] + 255) / 256 * 256;
        ls[p] = linesize[p];
    }
    if ((ret = av_image_fill_plane_sizes(sizes, f->format, f->height, ls)) < 0)
        return ret;
    *total = 0;
    for (int p = 0; p < 4; p++)
        *total += (sizes[p] + 255) / 256 * 256;
    return 0;
}

int cli_pinned_frame_alloc(cli_pinned *pinned, AVFrame *frame)
{
    int linesize[4];
    size_t sizes[4], total = 0;
    int ret = pinned_layout(frame, linesize, sizes, &total);
    if (ret < 0)
        return ret;
    if (!pinned->pool || pinned->block != total) {
        cli_pinned_free(pinned);
        pinned->pool = av_buffer_pool_init2(total, NULL, pinned_buffer_alloc, NULL);
        if (!pinned->pool)
            return AVERROR(ENOMEM);
        pinned->block = total;
    }
    AVBufferRef *buf = av_buffer_pool_get(pinned->pool);
    if (!buf)
        return AVERROR(ENOMEM);
    frame->buf[0] = buf;
    uint8_t *p = buf->data;
    for (int i = 0; i < 4 && sizes[i]; i++) {
        frame->data[i] = p;
        frame->linesize[i] = linesize[i];
        p += (sizes[i] + 255) / 256 * 256;
    }
    frame->extended_data = frame->data;
    return 0;
}

void cli_pinned_free(cli_pinned *pinned)
{
    av_buffer_pool_uninit(&pinned->pool); /* buffers still out free themselves later */
    pinned->block = 0;
}
