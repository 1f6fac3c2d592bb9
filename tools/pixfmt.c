/* cudafilters tool: the one table between FFmpeg pixel formats and ours. */
#include "pixfmt.h"

#include <libavcodec/avcodec.h>
#include <libavutil/pixdesc.h>

typedef struct pixfmt_entry {
    enum AVPixelFormat av;
    cf_format cf;
    bool full_range; /* the pixel format itself says full range */
} pixfmt_entry;

/* First entry of each cf_format is the one cli_format_to_av() returns. */
static const pixfmt_entry table[] = {
    { AV_PIX_FMT_GRAY8, CF_FORMAT_GRAY8, false },
    { AV_PIX_FMT_RGBA, CF_FORMAT_RGBA, false },
    { AV_PIX_FMT_BGRA, CF_FORMAT_BGRA, false },
    { AV_PIX_FMT_RGB0, CF_FORMAT_RGBX, false },
    { AV_PIX_FMT_BGR0, CF_FORMAT_BGRX, false },
    { AV_PIX_FMT_RGB24, CF_FORMAT_RGB, false },
    { AV_PIX_FMT_BGR24, CF_FORMAT_BGR, false },
    { AV_PIX_FMT_NV12, CF_FORMAT_NV12, false },
    { AV_PIX_FMT_YUV420P, CF_FORMAT_I420, false },
    { AV_PIX_FMT_YUVJ420P, CF_FORMAT_I420, true },
    { AV_PIX_FMT_GRAY16LE, CF_FORMAT_GRAY16_LE, false },
    { AV_PIX_FMT_P010LE, CF_FORMAT_P010_10LE, false },
    { AV_PIX_FMT_YUV420P10LE, CF_FORMAT_I420_10LE, false },
};
#define N_ENTRIES (int)(sizeof table / sizeof table[0])

cf_format cli_format_from_av(enum AVPixelFormat fmt, bool *full_range)
{
    for (int i = 0; i < N_ENTRIES; i++) {
        if (table[i].av == fmt) {
            if (full_range)
                *full_range = table[i].full_range;
            return table[i].cf;
        }
    }
    return CF_FORMAT_UNKNOWN;
}

enum AVPixelFormat cli_format_to_av(cf_format fmt)
{
    for (int i = 0; i < N_ENTRIES; i++)
        if (table[i].cf == fmt)
            return table[i].av;
    return AV_PIX_FMT_NONE;
}

enum AVPixelFormat cli_format_nearest(enum AVPixelFormat fmt)
{
    /* YUVJ420P is left out: it is a deprecated alias of YUV420P + full range. */
    enum AVPixelFormat list[N_ENTRIES + 1];
    int n = 0;
    for (int i = 0; i < N_ENTRIES; i++)
        if (!table[i].full_range)
            list[n++] = table[i].av;
    list[n] = AV_PIX_FMT_NONE;
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    int has_alpha = d && (d->flags & AV_PIX_FMT_FLAG_ALPHA);
    return avcodec_find_best_pix_fmt_of_list(list, fmt, has_alpha, NULL);
}

bool cli_frame_full_range(const AVFrame *frame, enum AVPixelFormat sw_format)
{
    bool implied = false;
    cli_format_from_av(sw_format, &implied);
    return implied || frame->color_range == AVCOL_RANGE_JPEG;
}

bool cli_frame_wrap(const AVFrame *frame, cf_format fmt, cf_memory memory, int device,
                    cf_frame *out)
{
    const cf_format_info *info = cf_format_get_info(fmt);
    if (!info)
        return false;
    *out = (cf_frame){ .format = fmt, .width = frame->width, .height = frame->height,
                       .memory = memory, .device = memory == CF_MEMORY_DEVICE ? device : -1 };
    for (int p = 0; p < info->n_planes; p++) {
        if (frame->linesize[p] <= 0 || !frame->data[p])
            return false;
        out->data[p] = frame->data[p];
        out->pitch[p] = (size_t)frame->linesize[p];
    }
    return true;
}
