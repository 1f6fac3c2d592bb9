/* cudafilters tool: frame conversions outside our filters. */
#include "convert.h"

#include <libavutil/hwcontext.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "pixfmt.h"

int cli_convert_download(AVFrame **frame, cli_err *err)
{
    if ((*frame)->format != AV_PIX_FMT_CUDA)
        return 0;
    AVFrame *host = av_frame_alloc();
    if (!host)
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    int ret = av_hwframe_transfer_data(host, *frame, 0);
    if (ret >= 0)
        ret = av_frame_copy_props(host, *frame);
    if (ret < 0) {
        av_frame_free(&host);
        return cli_fail_av(err, ret, "downloading a decoded frame from the GPU");
    }
    av_frame_free(frame);
    *frame = host;
    return 0;
}

static bool is_yuv(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return d && !(d->flags & AV_PIX_FMT_FLAG_RGB) && d->nb_components >= 3;
}

/* swscale's colour handling: YUV keeps its range, RGB and gray are full
 * range. YUV made from RGB or gray, which carry no matrix or the identity
 * (AVCOL_SPC_RGB, which players would decode the YUV with, as GBR), is
 * BT.601 and tagged so in *dst_space. */
static void set_ranges(struct SwsContext *sws, const AVFrame *src, enum AVPixelFormat dst_fmt,
                       bool *dst_full, enum AVColorSpace *dst_space)
{
    bool src_full = cli_frame_full_range(src, src->format);
    *dst_full = is_yuv(dst_fmt) ? (is_yuv(src->format) ? src_full : false) : true;
    int space = src->colorspace == AVCOL_SPC_UNSPECIFIED ? SWS_CS_DEFAULT : (int)src->colorspace;
    *dst_space = src->colorspace;
    if (is_yuv(dst_fmt) && !is_yuv(src->format) &&
        (src->colorspace == AVCOL_SPC_RGB || src->colorspace == AVCOL_SPC_UNSPECIFIED)) {
        space = SWS_CS_ITU601;
        *dst_space = AVCOL_SPC_SMPTE170M;
    }
    const int *coefs = sws_getCoefficients(space);
    /* Refused (-1) only for conversions without a matrix (gray to gray),
     * where the ranges are what swscale assumes anyway. */
    (void)sws_setColorspaceDetails(sws, coefs, src_full, coefs, *dst_full, 0, 1 << 16, 1 << 16);
}

int cli_convert_frame(cli_convert *c, AVFrame **frame, enum AVPixelFormat fmt, int w, int h,
                      cli_err *err)
{
    int ret = cli_convert_download(frame, err);
    if (ret < 0)
        return ret;
    AVFrame *src = *frame;
    if (src->format == fmt && src->width == w && src->height == h)
        return 0;
    c->sws = sws_getCachedContext(c->sws, src->width, src->height, src->format, w, h, fmt,
                                  SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL,
                                  NULL, NULL);
    if (!c->sws)
        return cli_fail(err, AVERROR(EINVAL), "swscale cannot convert %s %dx%d to %s %dx%d",
                        av_get_pix_fmt_name(src->format), src->width, src->height,
                        av_get_pix_fmt_name(fmt), w, h);
    bool dst_full = false;
    enum AVColorSpace dst_space = AVCOL_SPC_UNSPECIFIED;
    set_ranges(c->sws, src, fmt, &dst_full, &dst_space);
    AVFrame *dst = av_frame_alloc();
    if (!dst)
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    dst->format = fmt;
    dst->width = w;
    dst->height = h;
    if ((ret = av_frame_get_buffer(dst, 0)) < 0 || (ret = av_frame_copy_props(dst, src)) < 0) {
        av_frame_free(&dst);
        return cli_fail_av(err, ret, "allocating a converted frame");
    }
    ret = sws_scale(c->sws, (const uint8_t *const *)src->data, src->linesize, 0, src->height,
                    dst->data, dst->linesize);
    if (ret < 0) {
        av_frame_free(&dst);
        return cli_fail_av(err, ret, "swscale");
    }
    dst->color_range = dst_full ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
    dst->colorspace = dst_space;
    av_frame_free(frame);
    *frame = dst;
    c->conversions++;
    return 0;
}

void cli_convert_free(cli_convert *c)
{
    sws_freeContext(c->sws);
    c->sws = NULL;
}
