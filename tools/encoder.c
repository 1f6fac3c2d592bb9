/* cudafilters tool: choosing and configuring the video encoder. */
#include "encoder.h"

#include <string.h>

#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>

#include "pixfmt.h"

static int add(const AVCodec **out, int n, const AVCodec *c)
{
    if (!c || !av_codec_is_encoder(c) || n >= CLI_MAX_ENCODERS)
        return n;
    for (int i = 0; i < n; i++)
        if (out[i] == c)
            return n;
    out[n] = c;
    return n + 1;
}

int cli_encoder_candidates(const char *name, bool gpu, const AVCodec **out)
{
    const AVCodecDescriptor *desc = avcodec_descriptor_get_by_name(name);
    int n = 0;
    if (!desc) /* an encoder name, used as given */
        return add(out, 0, avcodec_find_encoder_by_name(name));
    /* NVENC and the well-known software encoders by name, since libavcodec's
     * default for a codec id depends on registration order. */
    static const struct { enum AVCodecID id; const char *nvenc, *software; } known[] = {
        { AV_CODEC_ID_H264, "h264_nvenc", "libx264" },
        { AV_CODEC_ID_HEVC, "hevc_nvenc", "libx265" },
        { AV_CODEC_ID_AV1, "av1_nvenc", "libsvtav1" },
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (known[i].id != desc->id)
            continue;
        if (gpu)
            n = add(out, n, avcodec_find_encoder_by_name(known[i].nvenc));
        n = add(out, n, avcodec_find_encoder_by_name(known[i].software));
    }
    /* Hardware encoders of other APIs (VAAPI, QSV, V4L2) need their own devices. */
    const AVCodec *dflt = avcodec_find_encoder(desc->id);
    if (dflt && !(dflt->capabilities & AV_CODEC_CAP_HARDWARE))
        n = add(out, n, dflt);
    return n;
}

bool cli_encoder_takes(const AVCodec *codec, enum AVPixelFormat fmt)
{
    if (!codec->pix_fmts)
        return true;
    for (const enum AVPixelFormat *p = codec->pix_fmts; *p != AV_PIX_FMT_NONE; p++)
        if (*p == fmt)
            return true;
    return false;
}

bool cli_encoder_takes_cuda(const AVCodec *codec)
{
    return codec->pix_fmts && cli_encoder_takes(codec, AV_PIX_FMT_CUDA);
}

int cli_encoder_formats(const AVCodec *codec, cf_format *out)
{
    int n = 0;
    if (!codec->pix_fmts) {
        for (int f = CF_FORMAT_UNKNOWN + 1; f < CF_FORMAT_COUNT; f++)
            out[n++] = (cf_format)f;
        return n;
    }
    for (const enum AVPixelFormat *p = codec->pix_fmts; *p != AV_PIX_FMT_NONE; p++) {
        bool full = false;
        cf_format f = cli_format_from_av(*p, &full);
        /* YUVJ formats would relabel limited-range frames as full range. */
        if (f == CF_FORMAT_UNKNOWN || full || n >= CF_FORMAT_COUNT)
            continue;
        bool dup = false;
        for (int i = 0; i < n; i++)
            dup = dup || out[i] == f;
        if (!dup)
            out[n++] = f;
    }
    return n;
}

/* YUV in host memory with both chroma dimensions halved, full range
 * (yuvj420p, MJPEG's) too: what players of the codecs in
 * cli_encoder_chroma_hint play. */
static bool is_any_yuv420(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    const uint64_t not_yuv = AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_HWACCEL;
    return d && !(d->flags & not_yuv) && d->nb_components >= 3 && d->log2_chroma_w == 1 &&
           d->log2_chroma_h == 1;
}

/* The same, less the YUVJ (full range) aliases: what to convert into. */
static bool is_yuv420(enum AVPixelFormat fmt)
{
    return is_any_yuv420(fmt) && strncmp(av_pix_fmt_desc_get(fmt)->name, "yuvj", 4) != 0;
}

/* The best of the encoder's host formats for `src`, of its 4:2:0 ones only
 * when `only_420`; AV_PIX_FMT_NONE when there is none. */
static enum AVPixelFormat best_of(const AVCodec *codec, enum AVPixelFormat src, bool only_420)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(src);
    int alpha = d && (d->flags & AV_PIX_FMT_FLAG_ALPHA);
    /* Hardware formats (CUDA) are not a conversion target. */
    enum AVPixelFormat list[64];
    int n = 0;
    for (const enum AVPixelFormat *p = codec->pix_fmts; *p != AV_PIX_FMT_NONE && n < 63; p++) {
        const AVPixFmtDescriptor *pd = av_pix_fmt_desc_get(*p);
        if (pd && !(pd->flags & AV_PIX_FMT_FLAG_HWACCEL) && (!only_420 || is_yuv420(*p)))
            list[n++] = *p;
    }
    list[n] = AV_PIX_FMT_NONE;
    return n ? avcodec_find_best_pix_fmt_of_list(list, src, alpha, NULL) : AV_PIX_FMT_NONE;
}

enum AVPixelFormat cli_encoder_best_format(const AVCodec *codec, enum AVPixelFormat src)
{
    if (!codec->pix_fmts)
        return src;
    /* RGB becomes YUV anyway: 4:2:0, as the planner's convert makes it from
     * our RGB formats, rather than libavcodec's pick (4:4:4). */
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(src);
    enum AVPixelFormat best = AV_PIX_FMT_NONE;
    if (d && (d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL)))
        best = best_of(codec, src, true);
    if (best == AV_PIX_FMT_NONE)
        best = best_of(codec, src, false);
    return best != AV_PIX_FMT_NONE ? best : src;
}

enum AVPixelFormat cli_encoder_chroma_hint(const AVCodec *codec, enum AVPixelFormat given)
{
    static const enum AVCodecID delivery[] = { AV_CODEC_ID_H264, AV_CODEC_ID_HEVC,
                                               AV_CODEC_ID_VP9, AV_CODEC_ID_AV1 };
    bool listed = false;
    for (size_t i = 0; i < sizeof delivery / sizeof delivery[0]; i++)
        listed = listed || codec->id == delivery[i];
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(given);
    if (!listed || !codec->pix_fmts || !d || (d->flags & AV_PIX_FMT_FLAG_HWACCEL) ||
        d->nb_components < 3)
        return AV_PIX_FMT_NONE;
    if (is_any_yuv420(given)) /* it plays: no hint */
        return AV_PIX_FMT_NONE;
    return best_of(codec, given, true);
}

const char *cli_chroma_name(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    if (!d)
        return "?";
    if (d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL))
        return "RGB";
    if (d->nb_components < 3)
        return "gray";
    static const char *const names[3][3] = { { "4:4:4", "4:4:0", "4:4:0" },
                                             { "4:2:2", "4:2:0", "4:2:0" },
                                             { "4:1:1", "4:1:1", "4:1:0" } };
    return names[d->log2_chroma_w > 2 ? 2 : d->log2_chroma_w]
                [d->log2_chroma_h > 2 ? 2 : d->log2_chroma_h];
}

int cli_encoder_set_quality(AVCodecContext *enc, int q, cli_err *err)
{
    static const char *const options[] = { "crf", "cq" };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (!av_opt_find(enc->priv_data, options[i], NULL, 0, 0))
            continue;
        int ret = av_opt_set_int(enc->priv_data, options[i], q, 0);
        if (ret < 0)
            return cli_fail(err, ret, "--quality %d: %s %s: %s", q, enc->codec->name, options[i],
                            av_err2str(ret));
        return 0;
    }
    enc->flags |= AV_CODEC_FLAG_QSCALE;
    enc->global_quality = FF_QP2LAMBDA * q;
    return 0;
}

void cli_encoder_quiet(AVCodecContext *enc)
{
    /* x265 prints its banner and statistics itself, around libav's log. */
    if (av_opt_find(enc->priv_data, "x265-params", NULL, 0, 0))
        (void)av_opt_set(enc->priv_data, "x265-params", "log-level=error", 0); /* cosmetic */
}
