/* cudafilters tool: encoding the video, copying the other streams, muxing. */
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <libavutil/opt.h>

#include "avlog.h"
#include "encoder.h"
#include "existing.h"
#include "fields.h"

/* Copied packets held before the first video frame: a file whose video never
 * decodes must fail, not fill the memory. */
#define MAX_PENDING_BYTES ((size_t)256 << 20)

typedef struct pts_duration {
    int64_t pts, duration;
} pts_duration;

static bool can_copy(const AVOutputFormat *ofmt, const AVCodecParameters *par)
{
    if (par->codec_id == AV_CODEC_ID_NONE)
        return false;
    switch (par->codec_type) {
    case AVMEDIA_TYPE_VIDEO: case AVMEDIA_TYPE_AUDIO: case AVMEDIA_TYPE_SUBTITLE:
    case AVMEDIA_TYPE_DATA: case AVMEDIA_TYPE_ATTACHMENT:
        break;
    default:
        return false;
    }
    /* < 0: the muxer cannot tell; let it try when writing the header. */
    return avformat_query_codec(ofmt, par->codec_id, FF_COMPLIANCE_NORMAL) != 0;
}

static void note_dropped(cli_output *o, const AVStream *ist)
{
    char one[64];
    snprintf(one, sizeof one, "%s#%d (%s)", o->dropped ? ", " : "", ist->index,
             avcodec_get_name(ist->codecpar->codec_id));
    strncat(o->dropped_names, one, sizeof o->dropped_names - strlen(o->dropped_names) - 1);
    o->dropped++;
}

static int add_stream(cli_output *o, const AVStream *ist, bool video, cli_err *err)
{
    AVStream *ost = avformat_new_stream(o->mux, NULL);
    if (!ost)
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    int ret = av_dict_copy(&ost->metadata, ist->metadata, 0);
    if (ret < 0)
        return cli_fail_av(err, ret, "copying stream metadata");
    ost->disposition = ist->disposition;
    ost->time_base = ist->time_base; /* a wish: the muxer may choose another */
    o->map[ist->index] = ost->index;
    if (video) {
        /* Those tags describe the old encoding (deleting cannot fail). */
        (void)av_dict_set(&ost->metadata, "encoder", NULL, 0);
        (void)av_dict_set(&ost->metadata, "duration", NULL, 0);
        ost->avg_frame_rate = ist->avg_frame_rate;
        ost->r_frame_rate = ist->r_frame_rate;
        o->video_out = ost->index;
        return 0;
    }
    if ((ret = avcodec_parameters_copy(ost->codecpar, ist->codecpar)) < 0)
        return cli_fail_av(err, ret, "copying stream parameters");
    ost->codecpar->codec_tag = 0; /* the input container's tag may mean nothing in ours */
    o->copied++;
    return 0;
}

static int copy_chapters(cli_output *o, const AVFormatContext *in, cli_err *err)
{
    for (unsigned i = 0; i < in->nb_chapters; i++) {
        const AVChapter *c = in->chapters[i];
        AVChapter *oc = av_mallocz(sizeof *oc);
        AVChapter **list = av_realloc_array(o->mux->chapters, o->mux->nb_chapters + 1,
                                            sizeof *list);
        if (!oc || !list) {
            av_free(oc);
            if (list)
                o->mux->chapters = list;
            return cli_fail(err, AVERROR(ENOMEM), "out of memory");
        }
        *oc = (AVChapter){ .id = c->id, .time_base = c->time_base, .start = c->start,
                           .end = c->end };
        o->mux->chapters = list;
        list[o->mux->nb_chapters++] = oc; /* owned by the muxer from here on */
        int ret = av_dict_copy(&oc->metadata, c->metadata, 0);
        if (ret < 0)
            return cli_fail_av(err, ret, "copying chapters");
    }
    return 0;
}

static int create_muxer(cli_output *o, cli_err *err)
{
    const AVOutputFormat *ofmt = av_guess_format(NULL, o->path, NULL);
    if (!ofmt)
        return cli_fail(err, AVERROR(EINVAL),
                        "cannot tell the output format from the name %s (use .mp4, .mkv, ...)",
                        o->path);
    /* The format comes from the final name; the bytes go to the temporary one. */
    int ret = avformat_alloc_output_context2(&o->mux, ofmt, NULL, o->tmp);
    if (ret < 0)
        return cli_fail_av(err, ret, "output");
    return 0;
}

/* The output cannot be created: said with the name the user gave (the
 * temporary name beside it is ours), and its folder when that is missing. */
static int fail_create(const cli_output *o, int ret, cli_err *err)
{
    char *dir = g_path_get_dirname(o->path);
    if (g_file_test(dir, G_FILE_TEST_IS_DIR)) {
        g_free(dir);
        char what[512];
        snprintf(what, sizeof what, "cannot create %s", o->path);
        return cli_fail_av(err, ret, what); /* e.g. Permission denied */
    }
    if (g_file_test(dir, G_FILE_TEST_EXISTS))
        cli_fail(err, ret, "cannot create %s: %s is not a folder", o->path, dir);
    else
        cli_fail(err, ret, "cannot create %s: the folder %s does not exist", o->path, dir);
    g_free(dir);
    return ret;
}

char *cli_output_tmp_name(const char *path, int pid)
{
    char suffix[32];
    snprintf(suffix, sizeof suffix, ".part-%d", pid);
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash + 1 - path) : 0, base = strlen(path) - dir;
    const size_t name_max = 255;
    if (base + strlen(suffix) <= name_max)
        return g_strconcat(path, suffix, NULL);
    return g_strdup_printf("%.*s%s", (int)(dir + name_max - strlen(suffix)), path, suffix);
}

int cli_output_open(cli_output *o, const char *path, const AVFormatContext *in, int video_in,
                    const AVIOInterruptCB *interrupt, cli_err *err)
{
    memset(o, 0, sizeof *o);
    g_queue_init(&o->pending);
    o->path = g_strdup(path);
    o->tmp = cli_output_tmp_name(path, (int)getpid());
    /* A name too long in itself would fail only at the final rename. */
    const char *base = strrchr(path, '/');
    if (strlen(base ? base + 1 : path) > 255)
        return cli_fail(err, AVERROR(ENAMETOOLONG), "cannot create %s: %s", path,
                        g_strerror(ENAMETOOLONG));
    o->n_in = (int)in->nb_streams;
    o->map = g_new(int, o->n_in);
    o->in_tb = g_new(AVRational, o->n_in);
    o->video_in = video_in;
    o->durations = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
    if (!(o->pkt = av_packet_alloc()))
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    int ret = create_muxer(o, err);
    if (ret < 0)
        return ret;
    o->mux->interrupt_callback = *interrupt;
    for (int i = 0; i < o->n_in && ret >= 0; i++) {
        const AVStream *ist = in->streams[i];
        o->map[i] = -1;
        o->in_tb[i] = ist->time_base;
        if (i == video_in || can_copy(o->mux->oformat, ist->codecpar))
            ret = add_stream(o, ist, i == video_in, err);
        else
            note_dropped(o, ist);
    }
    if (ret < 0 || (ret = copy_chapters(o, in, err)) < 0)
        return ret;
    o->last_dts = g_new(int64_t, o->mux->nb_streams);
    for (unsigned i = 0; i < o->mux->nb_streams; i++)
        o->last_dts[i] = AV_NOPTS_VALUE;
    if ((ret = av_dict_copy(&o->mux->metadata, in->metadata, 0)) < 0 ||
        (ret = av_dict_set(&o->mux->metadata, "encoder", "cudafilters " CLI_VERSION, 0)) < 0)
        return cli_fail_av(err, ret, "copying metadata");
    if (!(o->mux->oformat->flags & AVFMT_NOFILE)) {
        cli_avlog_clear();
        cli_cleanup_set(o->tmp);
        ret = avio_open2(&o->mux->pb, o->tmp, AVIO_FLAG_WRITE, interrupt, NULL);
        if (ret < 0)
            return fail_create(o, ret, err);
    }
    return 0;
}

static void set_colour(AVCodecContext *enc, const AVFrame *f)
{
    enc->color_range = f->color_range;
    enc->color_primaries = f->color_primaries;
    enc->color_trc = f->color_trc;
    enc->colorspace = f->colorspace;
    enc->chroma_sample_location = f->chroma_location;
}

static int configure_encoder(cli_output *o, const AVCodec *codec, const cli_enc_params *p,
                             cli_err *err)
{
    AVCodecContext *enc = avcodec_alloc_context3(codec);
    if (!(o->enc = enc))
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    enc->width = p->frame->width;
    enc->height = p->frame->height;
    enc->pix_fmt = p->frame->format;
    enc->sample_aspect_ratio = p->frame->sample_aspect_ratio;
    enc->time_base = p->time_base;
    if (p->frame_rate.num > 0 && p->frame_rate.den > 0)
        enc->framerate = p->frame_rate;
    set_colour(enc, p->frame);
    if (cli_fields_order_is_interlaced(p->field_order)) {
        /* Interlaced frames stay interlaced: coded as fields (x264, mpeg2,
         * mpeg4 take these flags), the order written into the stream. */
        enc->field_order = p->field_order;
        enc->flags |= AV_CODEC_FLAG_INTERLACED_DCT | AV_CODEC_FLAG_INTERLACED_ME;
    }
    enc->thread_count = 0;
    if (o->mux->oformat->flags & AVFMT_GLOBALHEADER)
        enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (p->hw_frames && !(enc->hw_frames_ctx = av_buffer_ref(p->hw_frames)))
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    if (av_log_get_level() < AV_LOG_INFO) /* not -v -v */
        cli_encoder_quiet(enc);
    if (p->quality >= 0)
        return cli_encoder_set_quality(enc, p->quality, err);
    return 0;
}

int cli_output_open_encoder(cli_output *o, const AVCodec *codec, const cli_enc_params *p,
                            cli_err *err)
{
    int ret = configure_encoder(o, codec, p, err);
    if (ret >= 0) {
        cli_avlog_clear();
        if ((ret = avcodec_open2(o->enc, codec, NULL)) < 0) {
            char what[128];
            snprintf(what, sizeof what, "opening encoder %s", codec->name);
            cli_fail_av(err, ret, what);
        }
    }
    AVStream *ost = o->mux->streams[o->video_out];
    if (ret >= 0 && (ret = avcodec_parameters_from_context(ost->codecpar, o->enc)) < 0)
        cli_fail_av(err, ret, "video stream parameters");
    if (ret < 0) {
        avcodec_free_context(&o->enc);
        return ret;
    }
    ost->time_base = o->enc->time_base;
    ost->sample_aspect_ratio = o->enc->sample_aspect_ratio;
    return 0;
}

static int write_packet(cli_output *o, AVPacket *pkt, AVRational tb, cli_err *err)
{
    AVStream *ost = o->mux->streams[pkt->stream_index];
    av_packet_rescale_ts(pkt, tb, ost->time_base);
    pkt->pos = -1;
    cli_avlog_clear();
    int ret = av_interleaved_write_frame(o->mux, pkt);
    if (ret < 0)
        return cli_fail_av(err, ret, "writing");
    o->packets_written++;
    return 0;
}

/* A copied stream whose timestamps go back or repeat is the input's fault,
 * and the muxer would refuse it: like FFmpeg's stream copy, the packet is
 * moved just past the previous one (dts in the output time base) and
 * counted. */
static void fix_copied_dts(cli_output *o, AVPacket *pkt)
{
    int64_t *last = &o->last_dts[pkt->stream_index];
    if (pkt->dts != AV_NOPTS_VALUE && *last != AV_NOPTS_VALUE &&
        !(o->mux->oformat->flags & AVFMT_NOTIMESTAMPS)) {
        int64_t min = *last + !(o->mux->oformat->flags & AVFMT_TS_NONSTRICT);
        if (pkt->dts < min) {
            if (pkt->pts != AV_NOPTS_VALUE && pkt->pts >= pkt->dts)
                pkt->pts = FFMAX(pkt->pts, min);
            pkt->dts = min;
            o->timestamps_fixed++;
        }
    }
    if (pkt->dts != AV_NOPTS_VALUE)
        *last = pkt->dts;
}

/* pkt: input stream index on entry. */
static int write_copied(cli_output *o, AVPacket *pkt, cli_err *err)
{
    AVRational tb = o->in_tb[pkt->stream_index];
    pkt->stream_index = o->map[pkt->stream_index];
    av_packet_rescale_ts(pkt, tb, o->mux->streams[pkt->stream_index]->time_base);
    fix_copied_dts(o, pkt);
    return write_packet(o, pkt, o->mux->streams[pkt->stream_index]->time_base, err);
}

int cli_output_start(cli_output *o, cli_err *err)
{
    cli_avlog_clear();
    int ret = avformat_write_header(o->mux, NULL);
    if (ret < 0)
        return cli_fail_av(err, ret, "writing the header");
    o->header = true;
    AVPacket *pkt;
    while ((pkt = g_queue_pop_head(&o->pending))) {
        ret = ret < 0 ? ret : write_copied(o, pkt, err);
        av_packet_free(&pkt);
    }
    o->pending_bytes = 0;
    return ret;
}

int cli_output_copy(cli_output *o, AVPacket *pkt, cli_err *err)
{
    if (pkt->stream_index >= o->n_in || o->map[pkt->stream_index] < 0) {
        av_packet_unref(pkt);
        return 0;
    }
    if (o->header)
        return write_copied(o, pkt, err);
    if (o->pending_bytes > MAX_PENDING_BYTES)
        return cli_fail(err, AVERROR_INVALIDDATA,
                        "no video frame decoded before %zu MiB of other streams",
                        MAX_PENDING_BYTES >> 20);
    AVPacket *held = av_packet_alloc();
    if (!held)
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    av_packet_move_ref(held, pkt);
    o->pending_bytes += (size_t)held->size + sizeof *held;
    g_queue_push_tail(&o->pending, held);
    return 0;
}

static int drain_encoder(cli_output *o, cli_err *err)
{
    for (;;) {
        int ret = avcodec_receive_packet(o->enc, o->pkt);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return 0;
        if (ret < 0)
            return cli_fail_av(err, ret, "encoding");
        pts_duration *d = g_hash_table_lookup(o->durations, &o->pkt->pts);
        if (d) {
            o->pkt->duration = d->duration;
            g_hash_table_remove(o->durations, &o->pkt->pts);
        }
        o->pkt->stream_index = o->video_out;
        ret = write_packet(o, o->pkt, o->enc->time_base, err);
        av_packet_unref(o->pkt);
        if (ret < 0)
            return ret;
    }
}

int cli_output_encode(cli_output *o, const AVFrame *frame, cli_err *err)
{
    if (frame) {
        pts_duration *d = g_new(pts_duration, 1);
        *d = (pts_duration){ frame->pts, frame->pkt_duration };
        g_hash_table_replace(o->durations, &d->pts, d);
    }
    cli_avlog_clear();
    int ret = avcodec_send_frame(o->enc, frame);
    if (ret < 0)
        return cli_fail_av(err, ret, "encoding");
    if (frame)
        o->frames_encoded++;
    return drain_encoder(o, err);
}

int cli_output_finish(cli_output *o, cli_err *err)
{
    int ret = cli_output_encode(o, NULL, err);
    if (ret < 0)
        return ret;
    cli_avlog_clear();
    if ((ret = av_write_trailer(o->mux)) < 0)
        return cli_fail_av(err, ret, "finishing the file");
    if ((ret = avio_closep(&o->mux->pb)) < 0)
        return cli_fail_av(err, ret, "closing the file");
    if ((o->replace ? g_rename(o->tmp, o->path) : cli_rename_noreplace(o->tmp, o->path)) != 0)
        return errno == EEXIST
                   ? cli_fail(err, AVERROR(EEXIST), "the output %s appeared while this file "
                              "ran: left alone (--overwrite replaces it)", o->path)
                   : cli_fail(err, AVERROR(errno), "cannot rename %s to %s: %s", o->tmp,
                              o->path, g_strerror(errno));
    o->done = true;
    return 0;
}

void cli_output_close(cli_output *o)
{
    AVPacket *pkt;
    while ((pkt = g_queue_pop_head(&o->pending)))
        av_packet_free(&pkt);
    avcodec_free_context(&o->enc);
    if (o->mux) {
        if (!(o->mux->oformat->flags & AVFMT_NOFILE))
            avio_closep(&o->mux->pb);
        avformat_free_context(o->mux);
        o->mux = NULL;
    }
    if (o->tmp && !o->done)
        g_unlink(o->tmp);
    cli_cleanup_clear();
    av_packet_free(&o->pkt);
    if (o->durations)
        g_hash_table_destroy(o->durations);
    g_free(o->map);
    g_free(o->in_tb);
    g_free(o->last_dts);
    g_free(o->tmp);
    g_free(o->path);
    memset(o, 0, sizeof *o);
}
