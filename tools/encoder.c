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

enum AVPixelFormat cli_encoder_best_format(const AVCodec *codec, enum AVPixelFormat src)
{
    if (!codec->pix_fmts)
        return src;
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(src);
    int alpha = d && (d->flags & AV_PIX_FMT_FLAG_ALPHA);
    /* Hardware formats (CUDA) are not a conversion target. */
    enum AVPixelFormat list[64];
    int n = 0;
    for (const enum AVPixelFormat *p = codec->pix_fmts; *p != AV_PIX_FMT_NONE && n < 63; p++) {
        const AVPixFmtDescriptor *pd = av_pix_fmt_desc_get(*p);
        if (pd && !(pd->flags & AV_PIX_FMT_FLAG_HWACCEL))
            list[n++] = *p;
    }
    list[n] = AV_PIX_FMT_NONE;
    return n ? avcodec_find_best_pix_fmt_of_list(list, src, alpha, NULL) : src;
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
