/* cudafilters tool: demuxing and video decoding of one input file. */
#include "input.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <cudafilters/scheduler.h>
#include <libavutil/pixdesc.h>

#include "avlog.h"

/* Hardware (CUDA) format when the decoder offers it, else its first software
 * format. libavcodec calls this again without CUDA if NVDEC cannot take the
 * stream, which is how unsupported profiles fall back to software. */
static enum AVPixelFormat pick_format(AVCodecContext *dec, const enum AVPixelFormat *fmts)
{
    (void)dec;
    for (const enum AVPixelFormat *p = fmts; *p != AV_PIX_FMT_NONE; p++)
        if (*p == AV_PIX_FMT_CUDA)
            return *p;
    for (const enum AVPixelFormat *p = fmts; *p != AV_PIX_FMT_NONE; p++) {
        const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(*p);
        if (d && !(d->flags & AV_PIX_FMT_FLAG_HWACCEL))
            return *p;
    }
    return AV_PIX_FMT_NONE;
}

static bool has_cuda_config(const AVCodec *codec)
{
    for (int i = 0;; i++) {
        const AVCodecHWConfig *cfg = avcodec_get_hw_config(codec, i);
        if (!cfg)
            return false;
        if (cfg->device_type == AV_HWDEVICE_TYPE_CUDA &&
            (cfg->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
            return true;
    }
}

static int open_decoder(cli_input *in, AVBufferRef *hw_device, cli_err *err)
{
    AVStream *st = in->fmt->streams[in->video];
    const AVCodec *codec = avcodec_find_decoder(st->codecpar->codec_id);
    if (!codec)
        return cli_fail(err, AVERROR_DECODER_NOT_FOUND, "no decoder for video codec %s",
                        avcodec_get_name(st->codecpar->codec_id));
    if (!(in->dec = avcodec_alloc_context3(codec)))
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    int ret = avcodec_parameters_to_context(in->dec, st->codecpar);
    if (ret < 0)
        return cli_fail_av(err, ret, "video decoder parameters");
    in->dec->pkt_timebase = st->time_base;
    in->dec->thread_count = 0;
    if (in->max_errors == 0) {
        in->dec->err_recognition |= AV_EF_EXPLODE;
        /* Exploding errors from frame threads drive some decoders into
         * their own assertions (FFmpeg 5.1's mpeg4: "frame->buf[0] failed");
         * slice threads report them in order. */
        in->dec->thread_type = FF_THREAD_SLICE;
    }
    if (hw_device && has_cuda_config(codec)) {
        in->dec->hw_device_ctx = av_buffer_ref(hw_device);
        in->dec->get_format = pick_format;
        /* Decoded frames we hold: the filters' frames in flight, and the one
         * being submitted. */
        in->dec->extra_hw_frames = CF_SCHEDULER_DEFAULT_DEPTH + 2;
        in->hw_offered = true;
    }
    cli_avlog_clear();
    if ((ret = avcodec_open2(in->dec, codec, NULL)) < 0)
        return cli_fail_av(err, ret, "opening the video decoder");
    return 0;
}

/* Counts `n` damaged packets or frames; past the tolerance the file fails
 * with the first damage seen as the reason. */
static int note_damage_n(cli_input *in, int64_t n, const char *what, cli_err *err)
{
    if (in->errors == 0) {
        const char *log = cli_avlog_last();
        snprintf(in->first_error, sizeof in->first_error, "%s%s%s%s", what,
                 log[0] ? " (libav: " : "", log, log[0] ? ")" : "");
    }
    in->errors += n;
    if (in->errors <= in->max_errors)
        return 0;
    if (in->max_errors == 0)
        return cli_fail(err, AVERROR_INVALIDDATA, "corrupt data: %s", in->first_error);
    return cli_fail(err, AVERROR_INVALIDDATA,
                    "corrupt data: %" PRId64 " damaged packets or frames, more than --max-errors "
                    "%d; the first: %s", in->errors, in->max_errors, in->first_error);
}

static int note_damage(cli_input *in, const char *what, cli_err *err)
{
    return note_damage_n(in, 1, what, err);
}

/* A stream that is copied is not decoded, so damage in its set-up (a
 * corrupt Vorbis setup header) would pass into the output unseen: each
 * audio and subtitle stream's decoder is opened once on its parameters.
 * Codecs this libavcodec cannot decode are copied unchecked. */
static int check_other_streams(cli_input *in, cli_err *err)
{
    for (unsigned i = 0; i < in->fmt->nb_streams; i++) {
        const AVCodecParameters *par = in->fmt->streams[i]->codecpar;
        if (par->codec_type != AVMEDIA_TYPE_AUDIO && par->codec_type != AVMEDIA_TYPE_SUBTITLE)
            continue;
        const AVCodec *codec = avcodec_find_decoder(par->codec_id);
        AVCodecContext *ctx = codec ? avcodec_alloc_context3(codec) : NULL;
        if (!ctx)
            continue;
        cli_avlog_clear();
        int ret = avcodec_parameters_to_context(ctx, par);
        if (ret >= 0)
            ret = avcodec_open2(ctx, codec, NULL);
        avcodec_free_context(&ctx);
        if (ret == AVERROR(ENOMEM))
            return cli_fail_av(err, ret, "opening a decoder");
        if (ret < 0) {
            char what[160];
            snprintf(what, sizeof what, "%s stream #%u (%s) cannot be decoded: %s",
                     av_get_media_type_string(par->codec_type), i, codec->name,
                     av_err2str(ret));
            if ((ret = note_damage(in, what, err)) < 0)
                return ret;
        }
    }
    return 0;
}

int cli_input_open(cli_input *in, const char *path, AVBufferRef *hw_device, int max_errors,
                   const AVIOInterruptCB *interrupt, cli_err *err)
{
    memset(in, 0, sizeof *in);
    in->video = -1;
    in->max_errors = max_errors;
    if (!(in->fmt = avformat_alloc_context()))
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    in->fmt->interrupt_callback = *interrupt;
    cli_avlog_clear();
    int ret = avformat_open_input(&in->fmt, path, NULL, NULL);
    if (ret == AVERROR_EOF)
        return cli_fail(err, AVERROR_INVALIDDATA, "truncated: the file ends inside its header");
    if (ret < 0)
        return cli_fail_av(err, ret, "cannot open");
    cli_avlog_clear();
    if ((ret = avformat_find_stream_info(in->fmt, NULL)) == AVERROR_EOF)
        return cli_fail(err, AVERROR_INVALIDDATA,
                        "truncated: the file ends before its streams could be read");
    if (ret < 0)
        return cli_fail_av(err, ret, "reading stream information");
    ret = av_find_best_stream(in->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (ret < 0)
        return cli_fail(err, ret, "no video stream");
    in->video = ret;
    in->indexed = avformat_index_get_entries_count(in->fmt->streams[in->video]);
    if ((ret = open_decoder(in, hw_device, err)) < 0)
        return ret;
    return check_other_streams(in, err);
}

/* When `pkt` of stream `st` starts, from the stream's start, in its time
 * base (its pts, else its dts); AV_NOPTS_VALUE when it has neither. */
static int64_t packet_time(const AVStream *st, const AVPacket *pkt)
{
    int64_t ts = pkt->pts != AV_NOPTS_VALUE ? pkt->pts : pkt->dts;
    if (ts == AV_NOPTS_VALUE)
        return AV_NOPTS_VALUE;
    return ts - (st->start_time != AV_NOPTS_VALUE ? st->start_time : 0);
}

/* Remembers how far the packets reach, for the truncation check. */
static void note_end(cli_input *in, const AVPacket *pkt)
{
    const AVStream *st = in->fmt->streams[pkt->stream_index];
    int64_t t = packet_time(st, pkt);
    if (t == AV_NOPTS_VALUE)
        return;
    int64_t end = av_rescale_q(t + pkt->duration, st->time_base, AV_TIME_BASE_Q);
    if (end > in->end_us)
        in->end_us = end;
    if (pkt->stream_index == in->video && t + pkt->duration > in->video_end)
        in->video_end = t + pkt->duration;
}

/* A packet the demuxer marked corrupt when the input had run out (libav
 * returns what there was of it, flagged): the file was cut there. Fails
 * whatever --max-errors allows: what is missing is not damage to conceal. */
static int fail_cut(cli_input *in, const AVPacket *pkt, cli_err *err)
{
    const AVStream *st = in->fmt->streams[pkt->stream_index];
    int64_t t = packet_time(st, pkt);
    double at = t != AV_NOPTS_VALUE ? (double)t * av_q2d(st->time_base)
                                    : (double)in->end_us / AV_TIME_BASE;
    /* What the header states: its frame count, else its duration (a cut
     * AVI's duration is scaled down with its size; its count is not). */
    const AVStream *vst = in->fmt->streams[in->video];
    char where[96], of_frames[32] = "", of_time[32] = "";
    if (vst->nb_frames > 0)
        snprintf(of_frames, sizeof of_frames, " of %" PRId64, vst->nb_frames);
    else if (in->fmt->duration > 0 &&
             in->fmt->duration_estimation_method == AVFMT_DURATION_FROM_STREAM)
        snprintf(of_time, sizeof of_time, " of %.2f s", (double)in->fmt->duration / AV_TIME_BASE);
    if (pkt->stream_index == in->video)
        snprintf(where, sizeof where, "video frame %" PRId64 "%s", in->video_packets + 1,
                 of_frames);
    else
        snprintf(where, sizeof where, "a packet of %s stream #%d",
                 av_get_media_type_string(st->codecpar->codec_type), pkt->stream_index);
    return cli_fail(err, AVERROR_INVALIDDATA, "truncated: the file ends inside %s, at %.2f s%s",
                    where, at, of_time);
}

int cli_input_read(cli_input *in, AVPacket *pkt, cli_err *err)
{
    av_packet_unref(pkt);
    cli_avlog_clear();
    int ret = av_read_frame(in->fmt, pkt);
    if (ret == AVERROR_EOF)
        return ret;
    if (ret < 0)
        return cli_fail_av(err, ret, "reading");
    if ((pkt->flags & AV_PKT_FLAG_CORRUPT) && in->fmt->pb && avio_feof(in->fmt->pb))
        return fail_cut(in, pkt, err);
    if ((pkt->flags & AV_PKT_FLAG_CORRUPT) &&
        (ret = note_damage(in, "corrupt packet", err)) < 0)
        return ret;
    if (pkt->stream_index == in->video)
        in->video_packets++;
    note_end(in, pkt);
    return 0;
}

int cli_input_send(cli_input *in, const AVPacket *pkt, cli_err *err)
{
    cli_avlog_clear();
    int ret = avcodec_send_packet(in->dec, pkt);
    if (ret >= 0 || ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
        return 0;
    if (ret == AVERROR(ENOMEM))
        return cli_fail_av(err, ret, "decoding");
    /* Anything else is the stream's fault. */
    char what[128];
    snprintf(what, sizeof what, "decoding: %s", av_err2str(ret));
    return note_damage(in, what, err);
}

int cli_input_receive(cli_input *in, AVFrame *frame, cli_err *err)
{
    /* A damaged frame is counted and skipped; the bound keeps a decoder that
     * reports nothing but damage from spinning here. */
    for (int tries = 0; tries < 1000; tries++) {
        cli_avlog_clear();
        int ret = avcodec_receive_frame(in->dec, frame);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return ret;
        if (ret == AVERROR_INVALIDDATA) {
            if ((ret = note_damage(in, "decoding: invalid data", err)) < 0)
                return ret;
            continue;
        }
        if (ret < 0)
            return cli_fail_av(err, ret, "decoding");
        if (frame->decode_error_flags || (frame->flags & AV_FRAME_FLAG_CORRUPT))
            return note_damage(in, "damaged frame", err);
        return 0;
    }
    return cli_fail(err, AVERROR_INVALIDDATA, "decoding: nothing but damaged frames");
}

int64_t cli_input_expected_frames(const cli_input *in)
{
    const AVStream *st = in->fmt->streams[in->video];
    if (st->nb_frames > 0)
        return st->nb_frames;
    AVRational rate = av_guess_frame_rate(in->fmt, (AVStream *)st, NULL);
    if (in->fmt->duration > 0 && rate.num > 0)
        return av_rescale_q(in->fmt->duration, AV_TIME_BASE_Q, av_inv_q(rate));
    return 0;
}

/* Frame counts: more video packets than the header lists is repeated data;
 * fewer than the index lists is lost data. The index has one entry per frame
 * with data in MP4 and AVI; an AVI's empty entries ("repeat the previous
 * frame", written by capture tools) count in its header but not in its
 * index, and their frames are simply absent, so the header's count alone
 * would call such a file truncated. Containers without a count (MKV) are
 * checked by time alone. */
static int check_frame_count(cli_input *in, cli_err *err)
{
    int64_t header = in->fmt->streams[in->video]->nb_frames, got = in->video_packets;
    if (header <= 0)
        return 0;
    char what[160];
    if (got > header) {
        snprintf(what, sizeof what, "the header lists %" PRId64 " video frames, the file holds "
                 "%" PRId64 " (repeated data)", header, got);
        return note_damage_n(in, got - header, what, err);
    }
    /* A partial index (keyframes) lists fewer than were read anyway. */
    int64_t indexed = in->indexed;
    if (indexed > header || got >= indexed)
        return 0;
    /* Frames the index puts past the end of the file: it was cut there
     * (between two frames, or no packet would have been read short). That
     * is no damage --max-errors could tolerate. */
    AVStream *st = in->fmt->streams[in->video];
    int64_t size = in->fmt->pb ? avio_size(in->fmt->pb) : -1, beyond = 0;
    int entries = avformat_index_get_entries_count(st);
    for (int i = 0; i < entries && size > 0; i++) {
        const AVIndexEntry *e = avformat_index_get_entry(st, i);
        if (e && e->pos + e->size > size)
            beyond++;
    }
    if (beyond > 0 && got + beyond >= indexed)
        return cli_fail(err, AVERROR_INVALIDDATA,
                        "truncated: the file ends before video frame %" PRId64 " of %" PRId64
                        ", at %.2f s", got + 1, indexed, (double)in->end_us / AV_TIME_BASE);
    snprintf(what, sizeof what, "the index lists %" PRId64 " video frames, %" PRId64
             " could be read", indexed, got);
    return note_damage_n(in, indexed - got, what, err);
}

/* Whether the data ends well before `dur` (microseconds) does: by more
 * than 0.25 s plus 0.1% of it (3.85 s an hour). The packets' end (every
 * stream's, audio's too) of a whole file is within a frame of its
 * header's duration: FFmpeg 5.1's MKV, WebM, MP4 and MOV files of H.264,
 * VP9 and MPEG-4 video with AAC, Opus, MP3 or PCM audio end within 8 ms
 * of it; the margin also covers packets without a duration (their end
 * taken as their start). An earlier margin of 0.5 s plus 2% let a 100 s
 * MKV cut at 98% of its bytes (2 s of it gone) pass as whole. */
static bool ends_early(const cli_input *in, int64_t dur)
{
    return dur > 0 && in->end_us + AV_TIME_BASE / 4 + dur / 1000 < dur;
}

/* An AVI cut between two chunks: its index (idx1, at the end) is gone, and
 * libavformat scales the duration it reports down with the file's size, so
 * the check of that duration mostly passes (or names that estimate as the
 * header's), and no packet is cut short. The header's frame count still
 * says how long it was, exactly: each of its video chunks, empty ones
 * ("repeat the previous frame") too, is one tick of the stream's time
 * base, and a read without the index counts the empty ones in the
 * timestamps. A file whose index was read ends where its index does,
 * whatever its header says. */
static int check_avi_cut(cli_input *in, cli_err *err)
{
    const AVStream *st = in->fmt->streams[in->video];
    if (strcmp(in->fmt->iformat->name, "avi") != 0 || st->nb_frames <= 0 ||
        in->indexed >= in->video_packets || in->video_end >= st->nb_frames)
        return 0;
    return cli_fail(err, AVERROR_INVALIDDATA,
                    "truncated: the header says %.2f s (%" PRId64 " video frames), the data "
                    "ends at %.2f s", st->nb_frames * av_q2d(st->time_base), st->nb_frames,
                    in->video_end * av_q2d(st->time_base));
}

int cli_input_check_complete(cli_input *in, cli_err *err)
{
    int ret = check_avi_cut(in, err); /* first: it says the header's own length */
    if (ret < 0)
        return ret;
    /* A duration the muxer wrote into the header (not one estimated from the
     * bitrate or from the data itself) says where the data should end. */
    int64_t dur = in->fmt->duration;
    if (in->fmt->duration_estimation_method == AVFMT_DURATION_FROM_STREAM &&
        ends_early(in, dur))
        return cli_fail(err, AVERROR_INVALIDDATA,
                        "truncated: the header says %.2f s, the data ends at %.2f s",
                        (double)dur / AV_TIME_BASE, (double)in->end_us / AV_TIME_BASE);
    return check_frame_count(in, err);
}

void cli_input_close(cli_input *in)
{
    avcodec_free_context(&in->dec);
    avformat_close_input(&in->fmt);
}
