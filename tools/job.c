/* cudafilters tool: one file, decoded, filtered, encoded, muxed.
 *
 * With filters, two threads share the work after the first frame: this one
 * reads, decodes and submits frames to the filters' scheduler (which runs
 * them on the GPU, or on the CPU inside the submit), and an encoding thread
 * takes the finished frames, in order, to the encoder and the muxer. Up to
 * the scheduler's depth of frames are in flight, so decoding, filtering and
 * encoding overlap. The first frame runs alone, since the formats and the
 * encoder are chosen from its result. */
#include "job.h"

#include <string.h>

#include <sys/stat.h>

#include <glib/gstdio.h>
#include <libavutil/hwcontext.h>
#include <libavutil/pixdesc.h>

#include "convert.h"
#include "encoder.h"
#include "existing.h"
#include "fields.h"
#include "input.h"
#include "output.h"
#include "pixfmt.h"
#include "vf_tail.h"
#include "vfilter.h"

/* A file whose video packets never produce a frame must fail, not loop. */
#define MAX_PACKETS_BEFORE_FIRST_FRAME 1000

typedef struct state {
    cli_job *job;
    cli_input in;
    cli_output out;
    cli_vf vf;
    cli_convert conv;          /* decoder side (this thread) */
    cli_convert conv_out;      /* encoder side of frames in flight (the encoding thread) */
    GThread *reader;           /* this thread: reads, decodes, submits */
    GThread *encoder;          /* takes filtered frames to the encoder, after the first */
    GMutex out_lock;           /* the muxer, written by both threads */
    cli_err enc_err;           /* the encoding thread's failure */
    int enc_ret;
    AVPacket *pkt;
    AVFrame *frame;
    double last_progress;      /* cli_now() of the last packet or frame */
    bool started;              /* encoder open, header written */
    bool vf_failed;            /* the filters refused a frame (in err) */
    int w, h;                  /* video size the chain works at */
    int ow, oh;                /* video size the chain makes (a scale), the encoder's */
    enum AVPixelFormat vf_in;  /* host format the chain takes */
    enum AVPixelFormat enc_fmt;/* what the encoder takes (AV_PIX_FMT_CUDA: device frames) */
    AVBufferRef *enc_frames;   /* CUDA pool NVENC reads from, or NULL */
    int64_t last_pts, last_duration;
    bool have_pts;
} state;

static AVStream *video_stream(const state *s)
{
    return s->in.fmt->streams[s->in.video];
}

/* ---- bounded time ------------------------------------------------------ */

/* libav calls this during blocking I/O: stop on Ctrl-C, or when the file has
 * made no progress (a packet read, a frame decoded) for --stall-timeout. */
static int interrupt_cb(void *opaque)
{
    state *s = opaque;
    /* The muxer calls it from the encoding thread too: each thread writes
     * the message it keeps (join_encoder passes the encoder's on). */
    cli_err *err = s->encoder && g_thread_self() != s->reader ? &s->enc_err : &s->job->err;
    if (cli_stop_requested)
        return cli_fail(err, 1, "interrupted");
    if (cli_now() - s->last_progress > s->job->opts->stall_timeout)
        return cli_fail(err, 1, "no progress for %g s: giving up", s->job->opts->stall_timeout);
    return 0;
}

/* ---- timestamps -------------------------------------------------------- */

/* Keeps the decoder's timestamps; fills only what is missing (a last frame
 * flushed out of the decoder may have none) and makes them increasing, which
 * every encoder requires. */
static void fix_timestamps(state *s, AVFrame *f)
{
    int64_t pts = f->best_effort_timestamp;
    if (pts == AV_NOPTS_VALUE)
        pts = f->pts;
    if (pts == AV_NOPTS_VALUE)
        pts = s->have_pts ? s->last_pts + (s->last_duration > 0 ? s->last_duration : 1) : 0;
    if (s->have_pts && pts <= s->last_pts) {
        pts = s->last_pts + 1;
        s->job->timestamps_fixed++;
    }
    f->pts = pts;
    if (f->pkt_duration <= 0)
        f->pkt_duration = s->last_duration;
    s->last_pts = pts;
    s->last_duration = f->pkt_duration;
    s->have_pts = true;
}

/* ---- per-frame pipeline ------------------------------------------------ */

static enum AVPixelFormat sw_format(const AVFrame *f)
{
    if (f->format != AV_PIX_FMT_CUDA || !f->hw_frames_ctx)
        return f->format;
    return ((const AVHWFramesContext *)f->hw_frames_ctx->data)->sw_format;
}

/* Brings a decoded frame to what the chain takes: CUDA frames stay on the
 * GPU when the chain runs there and takes their format; anything else is
 * downloaded and/or converted. */
static int conform(state *s, AVFrame **f)
{
    bool keep_cuda = (*f)->format == AV_PIX_FMT_CUDA && s->vf.gpu &&
                     sw_format(*f) == s->vf_in && (*f)->width == s->w && (*f)->height == s->h;
    if (keep_cuda)
        return 0;
    return cli_convert_frame(&s->conv, f, s->vf_in, s->w, s->h, &s->job->err);
}

/* What the encoder takes: CUDA frames stay for NVENC, anything else is
 * downloaded and/or converted. */
static int to_encoder(state *s, AVFrame **f, cli_convert *conv, cli_err *err)
{
    if (s->enc_fmt == AV_PIX_FMT_CUDA && (*f)->format == AV_PIX_FMT_CUDA)
        return 0;
    return cli_convert_frame(conv, f, s->enc_fmt, s->ow, s->oh, err);
}

/* One frame through the chain and to the encoder's format, waiting for it
 * (the first frame, and every frame of a job without filters). */
static int process(state *s, AVFrame **f)
{
    int ret;
    if (cli_vf_active(&s->vf)) {
        if ((ret = conform(s, f)) < 0)
            return ret;
        AVFrame *in = *f;
        *f = NULL;
        if ((ret = cli_vf_run(&s->vf, in, f, &s->job->err)) < 0) {
            s->vf_failed = true;
            return ret;
        }
    }
    return to_encoder(s, f, &s->conv, &s->job->err);
}

static int encode_frame(state *s, const AVFrame *f, cli_err *err)
{
    g_mutex_lock(&s->out_lock);
    int ret = cli_output_encode(&s->out, f, err);
    s->job->frames_done = s->out.frames_encoded;
    g_mutex_unlock(&s->out_lock);
    return ret;
}

/* ---- the encoding thread --------------------------------------------- */

static gpointer encode_loop(gpointer data)
{
    state *s = data;
    cli_err *err = &s->enc_err;
    AVFrame *f = NULL;
    int ret;
    while ((ret = cli_vf_receive(&s->vf, true, &f, err)) == 0) {
        s->job->heartbeat++;
        if ((ret = to_encoder(s, &f, &s->conv_out, err)) >= 0)
            ret = encode_frame(s, f, err);
        av_frame_free(&f);
        if (ret < 0)
            break;
    }
    if (ret == AVERROR_EOF)
        ret = 0;
    /* Any end but the drained one stops the reading thread too (it may wait
     * for room, which only this thread makes): an interrupted muxer write
     * (Ctrl-C, --stall-timeout) ends here with AVERROR_EXIT as well. */
    if (ret < 0)
        cli_vf_stop(&s->vf);
    s->enc_ret = ret;
    return NULL;
}

static int start_encoder(state *s)
{
    s->enc_err.msg[0] = '\0';
    s->enc_ret = 0;
    s->encoder = g_thread_try_new("cf-encode", encode_loop, s, NULL);
    return s->encoder ? 0 : cli_fail(&s->job->err, AVERROR(ENOMEM), "cannot start a thread");
}

/* Ends the encoding thread: once the frames submitted so far are encoded
 * when `drain`, else at once (a failure, an interrupt). Returns the
 * thread's failure, whose message becomes the job's unless it has one. */
static int join_encoder(state *s, bool drain)
{
    if (!s->encoder)
        return 0;
    if (drain)
        cli_vf_drain(&s->vf);
    else
        cli_vf_stop(&s->vf);
    g_thread_join(s->encoder);
    s->encoder = NULL;
    if (s->enc_ret >= 0 || s->enc_ret == AVERROR_EXIT)
        return 0;
    cli_fail(&s->job->err, s->enc_ret, "%s", s->enc_err.msg);
    return s->enc_ret;
}

/* ---- the first frame decides formats and opens the encoder -------------- */

/* The CUDA pool NVENC gets our chain's output in. NULL when frames go to the
 * encoder in host memory: with no filters too, since NVENC holding decoded
 * frames could exhaust the decoder's fixed pool, and when the steps run on
 * the CPU (the tail alone, after a CPU decoder). */
static AVBufferRef *nvenc_frames(state *s, const AVCodec *codec, cf_format final)
{
    if (!s->job->gpu || !s->job->gpu->hw_device || !cli_encoder_takes_cuda(codec) ||
        !cli_vf_active(&s->vf) || !s->vf.gpu)
        return NULL;
    if (final != CF_FORMAT_NV12 && final != CF_FORMAT_P010_10LE && final != CF_FORMAT_I420)
        return NULL;
    AVBufferRef *ref = av_hwframe_ctx_alloc(s->job->gpu->hw_device);
    if (!ref)
        return NULL;
    AVHWFramesContext *fc = (AVHWFramesContext *)ref->data;
    fc->format = AV_PIX_FMT_CUDA;
    fc->sw_format = cli_format_to_av(final);
    fc->width = s->ow;
    fc->height = s->oh;
    if (av_hwframe_ctx_init(ref) < 0)
        av_buffer_unref(&ref);
    return ref;
}

/* The tail for the encoder (vf_tail.h): our convert from the chain's
 * `final` format to --pix-fmt, or to the best of the encoder's formats
 * that convert makes when the encoder does not take `final`. It runs where
 * the chain runs; with no --vf, on the GPU when the decoded frames are
 * there (NVDEC), else on the CPU. CF_FORMAT_UNKNOWN: no tail (none needed,
 * or a pair convert does not cover: libswscale converts). */
static cf_format tail_target(const AVCodec *codec, cf_format final, enum AVPixelFormat forced)
{
    if (final == CF_FORMAT_UNKNOWN)
        return CF_FORMAT_UNKNOWN;
    if (forced != AV_PIX_FMT_NONE) {
        bool full = false;
        cf_format f = cli_format_from_av(forced, &full);
        /* A YUVJ format would relabel the range: libswscale's business. */
        return !full && cli_vf_tail_covers(final, f) ? f : CF_FORMAT_UNKNOWN;
    }
    if (cli_encoder_takes(codec, cli_format_to_av(final)))
        return CF_FORMAT_UNKNOWN;
    return cli_vf_tail_target(codec, final);
}

/* Chooses the formats for one encoder candidate: the chain's plan, the
 * tail to the encoder's format, and what the encoder is given (its own
 * format, or CUDA frames for NVENC). */
static int plan_for(state *s, const AVCodec *codec, const AVFrame *first)
{
    enum AVPixelFormat sw = sw_format(first), final_av = sw, forced = s->job->opts->pix_fmt;
    cf_format final = CF_FORMAT_UNKNOWN;
    if (forced != AV_PIX_FMT_NONE && !cli_encoder_takes(codec, forced))
        return cli_fail(&s->job->err, AVERROR(EINVAL), "%s does not take --pix-fmt %s",
                        codec->name, av_get_pix_fmt_name(forced));
    /* Removes the last candidate's tail (which cannot fail). */
    (void)cli_vf_set_tail(&s->vf, CF_FORMAT_UNKNOWN, &s->job->err);
    int ret;
    /* What the chain should end in: what the encoder takes, or --pix-fmt. */
    cf_format accepted[CF_FORMAT_COUNT];
    int n_acc = cli_encoder_formats(codec, accepted);
    if (forced != AV_PIX_FMT_NONE) {
        accepted[0] = cli_format_from_av(forced, NULL);
        n_acc = accepted[0] != CF_FORMAT_UNKNOWN;
    }
    bool ok = false;
    s->vf_in = cli_format_from_av(sw, NULL) != CF_FORMAT_UNKNOWN || s->vf.n == 0
                   ? sw : cli_format_nearest(sw);
    cli_vf_set_colour(&s->vf, first);
    final = cli_vf_plan(&s->vf, cli_format_from_av(s->vf_in, NULL),
                        cli_frame_full_range(first, sw), accepted, n_acc, &ok, &s->job->err);
    if (final == CF_FORMAT_UNKNOWN && s->vf.n > 0)
        return AVERROR(EINVAL);
    cf_format target = tail_target(codec, final, forced);
    if (target != CF_FORMAT_UNKNOWN && (ret = cli_vf_set_tail(&s->vf, target, &s->job->err)) < 0)
        return ret;
    if (target != CF_FORMAT_UNKNOWN && s->vf.n == 0 && s->job->gpu &&
        first->format == AV_PIX_FMT_CUDA) {
        cli_vf_use_gpu(&s->vf, s->job->gpu->index, cli_gpu_stream(s->job->gpu));
        s->job->gpu_filters = true;
    }
    final = cli_vf_output(&s->vf);
    if (cli_vf_active(&s->vf))
        final_av = cli_format_to_av(final);
    av_buffer_unref(&s->enc_frames);
    if (forced == AV_PIX_FMT_NONE || forced == final_av)
        s->enc_frames = nvenc_frames(s, codec, final);
    bool active = cli_vf_active(&s->vf);
    s->vf.hw_frames = active ? s->enc_frames : NULL;
    if (active && (ret = cli_vf_start(&s->vf, 0, &s->job->err)) < 0)
        return ret;
    if (s->enc_frames)
        s->enc_fmt = AV_PIX_FMT_CUDA;
    else if (forced != AV_PIX_FMT_NONE)
        s->enc_fmt = forced;
    else if (cli_encoder_takes(codec, final_av))
        s->enc_fmt = final_av;
    else
        s->enc_fmt = cli_encoder_best_format(codec, final_av);
    return 0;
}

/* Describes the plan for the summary: formats through the --vf chain and
 * the conversions around it, each with what made it (job.h). */
static void describe_plan(state *s, const AVFrame *first)
{
    cli_job *job = s->job;
    enum AVPixelFormat sw = sw_format(first);
    char *p = job->formats;
    size_t left = sizeof job->formats;
    int n = snprintf(p, left, "%s", s->vf.n ? cf_format_name(s->vf.in) : av_get_pix_fmt_name(sw));
    for (int i = 0; i < s->vf.n && n > 0 && (size_t)n < left; i++) {
        p += n;
        left -= (size_t)n;
        n = snprintf(p, left, " > %s > %s", cf_filter_get_desc(cf_chain_get(s->vf.chain, i))->name,
                     cf_format_name(s->vf.out[i]));
    }
    /* The chain's own output, before the tail. */
    enum AVPixelFormat chain_out = s->vf.n ? cli_format_to_av(s->vf.out[s->vf.n - 1]) : sw;
    enum AVPixelFormat final = cli_vf_active(&s->vf) ? cli_format_to_av(cli_vf_output(&s->vf)) : sw;
    const char *dec = cli_vf_active(&s->vf) && s->vf_in != sw ? av_get_pix_fmt_name(sw) : NULL;
    job->decoder_converter = dec ? CLI_CONVERTER_SWSCALE : CLI_CONVERTER_NONE;
    job->encoder_converter = s->vf.tail ? (s->vf.gpu ? CLI_CONVERTER_GPU : CLI_CONVERTER_CPU)
                             : s->enc_fmt != AV_PIX_FMT_CUDA && s->enc_fmt != final
                                 ? CLI_CONVERTER_SWSCALE
                                 : CLI_CONVERTER_NONE;
    const char *enc_to = s->vf.tail ? av_get_pix_fmt_name(final) : av_get_pix_fmt_name(s->enc_fmt);
    char a[64] = "", b[64] = "";
    if (dec)
        snprintf(a, sizeof a, "decoder output from %s to %s (%s)", dec,
                 av_get_pix_fmt_name(s->vf_in), job->decoder_converter);
    if (strcmp(job->encoder_converter, CLI_CONVERTER_NONE) != 0)
        snprintf(b, sizeof b, "encoder input %s to %s (%s)", av_get_pix_fmt_name(chain_out),
                 enc_to, job->encoder_converter);
    snprintf(job->conversions, sizeof job->conversions, "%s%s%s", a, a[0] && b[0] ? "; " : "", b);
}

/* Without --pix-fmt, an H.264 (HEVC, VP9, AV1) encoder given 4:4:4, 4:2:2
 * or RGB (an input in such colour that the planner's convert does not take
 * kept it) makes a profile that many players cannot play: the summary
 * warns, naming the --pix-fmt that gives 4:2:0. */
static void note_chroma(state *s, const AVCodec *codec)
{
    if (s->job->opts->pix_fmt != AV_PIX_FMT_NONE || s->enc_fmt == AV_PIX_FMT_CUDA)
        return;
    enum AVPixelFormat hint = cli_encoder_chroma_hint(codec, s->enc_fmt);
    if (hint == AV_PIX_FMT_NONE)
        return;
    snprintf(s->job->warning, sizeof s->job->warning,
             "%s got %s (%s), which many players cannot play; --pix-fmt %s makes 4:2:0",
             codec->name, av_get_pix_fmt_name(s->enc_fmt), cli_chroma_name(s->enc_fmt),
             av_get_pix_fmt_name(hint));
}

/* Runs the first frame through the candidate's plan and opens the encoder
 * with the result, so it is set up for the size, format and colour the
 * frames really have. *out: the processed first frame. */
static int try_encoder(state *s, const AVCodec *codec, const AVFrame *first, AVFrame **out)
{
    int ret = plan_for(s, codec, first);
    if (ret < 0)
        return ret;
    AVFrame *f = av_frame_clone(first);
    if (!f)
        return cli_fail(&s->job->err, AVERROR(ENOMEM), "out of memory");
    if ((ret = process(s, &f)) >= 0) {
        AVStream *st = video_stream(s);
        cli_enc_params p = { .frame = f, .time_base = st->time_base,
                             .frame_rate = av_guess_frame_rate(s->in.fmt, st, NULL),
                             .field_order = cli_fields_output_order(
                                 first, st->codecpar->field_order, codec->id),
                             .quality = s->job->opts->quality, .hw_frames = s->enc_frames };
        ret = cli_output_open_encoder(&s->out, codec, &p, &s->job->err);
    }
    if (ret < 0)
        av_frame_free(&f);
    *out = f;
    return ret;
}

/* Tries the encoders for --codec in order until one opens (NVENC fails to
 * open on GPUs without it), then writes the header. */
static int start(state *s, const AVFrame *first, AVFrame **processed)
{
    cli_err *err = &s->job->err;
    s->w = first->width;
    s->h = first->height;
    cli_vf_output_size(&s->vf, s->w, s->h, &s->ow, &s->oh);
    const AVCodec *cand[CLI_MAX_ENCODERS];
    const char *codec = s->job->opts->codec;
    const AVOutputFormat *ofmt = s->out.mux->oformat;
    if (s->job->opts->codec_default && ofmt->video_codec != AV_CODEC_ID_NONE &&
        avformat_query_codec(ofmt, AV_CODEC_ID_H264, FF_COMPLIANCE_NORMAL) == 0)
        codec = avcodec_get_name(ofmt->video_codec); /* WebM: vp9 (ffmpeg's choice too) */
    int n = cli_encoder_candidates(codec, s->job->gpu != NULL, cand);
    if (n == 0)
        return cli_fail(err, AVERROR_ENCODER_NOT_FOUND, "no encoder for --codec %s", codec);
    /* Each failure's message, for the error if none works. */
    GString *tried = g_string_new(NULL);
    int ret = AVERROR_ENCODER_NOT_FOUND;
    for (int i = 0; i < n && ret < 0 && !s->vf_failed; i++) {
        err->msg[0] = '\0';
        if ((ret = try_encoder(s, cand[i], first, processed)) < 0)
            g_string_append_printf(tried, "%s%s", tried->len ? "; " : "", err->msg);
    }
    /* The filters refused the first frame (a crop outside it, say): their
     * error as it is, not one of an encoder's (another encoder would not
     * change it). */
    if (ret < 0 && !s->vf_failed) {
        err->msg[0] = '\0';
        cli_fail(err, ret, "no encoder for --codec %s works: %s", codec, tried->str);
    }
    g_string_free(tried, TRUE);
    if (ret < 0)
        return ret;
    snprintf(s->job->encoder, sizeof s->job->encoder, "%s", s->out.enc->codec->name);
    describe_plan(s, first);
    note_chroma(s, s->out.enc->codec);
    s->started = true;
    return cli_output_start(&s->out, err);
}

static int handle_frame(state *s, AVFrame *decoded)
{
    cli_job *job = s->job;
    s->last_progress = cli_now();
    job->heartbeat++;
    job->frames_in++;
    if (cli_stop_requested)
        return cli_fail(&job->err, AVERROR_EXIT, "interrupted");
    fix_timestamps(s, decoded);
    AVFrame *f = NULL;
    int ret = cli_fields_check(&s->vf, decoded, video_stream(s)->codecpar->field_order, &job->err);
    if (ret < 0)
        return ret;
    bool first = !s->started;
    if (first) {
        job->hw_decode = decoded->format == AV_PIX_FMT_CUDA;
        ret = start(s, decoded, &f);
    } else if (!(f = av_frame_clone(decoded))) {
        ret = cli_fail(&job->err, AVERROR(ENOMEM), "out of memory");
    } else if (s->encoder) {
        /* Frames in flight: the encoding thread takes it from here. */
        if ((ret = conform(s, &f)) >= 0) {
            ret = cli_vf_submit(&s->vf, f, &job->err);
            f = NULL;
        }
        av_frame_free(&f);
        return ret;
    } else {
        ret = process(s, &f);
    }
    if (ret >= 0)
        ret = encode_frame(s, f, &job->err);
    av_frame_free(&f);
    if (ret >= 0 && first && cli_vf_active(&s->vf))
        ret = start_encoder(s);
    return ret;
}

/* Sends a video packet (NULL: drain at the end) and handles every frame
 * that comes out. */
static int decode(state *s, const AVPacket *pkt)
{
    int ret = cli_input_send(&s->in, pkt, &s->job->err);
    while (ret >= 0) {
        ret = cli_input_receive(&s->in, s->frame, &s->job->err);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return 0;
        if (ret >= 0)
            ret = handle_frame(s, s->frame);
        av_frame_unref(s->frame);
    }
    return ret;
}

static int check_paths(cli_job *job)
{
    GStatBuf in_st, out_st;
    const bool out_exists = g_stat(job->out_path, &out_st) == 0;
    /* Refused before any work, --overwrite or not, whatever the input (a
     * URL too): the rename at the end could never replace a directory. */
    if (out_exists && S_ISDIR(out_st.st_mode))
        return cli_fail(&job->err, AVERROR(EISDIR), "the output %s is a directory",
                        job->out_path);
    if (g_stat(job->in_path, &in_st) != 0)
        return 0; /* libavformat says why (or it is a URL) */
    if (S_ISDIR(in_st.st_mode))
        return cli_fail(&job->err, AVERROR(EISDIR), "is a directory");
    if (S_ISREG(in_st.st_mode) && in_st.st_size == 0)
        return cli_fail(&job->err, AVERROR_INVALIDDATA, "empty file");
    if (out_exists && cli_same_file(&in_st, &out_st))
        return cli_fail(&job->err, AVERROR(EINVAL), "the output %s is the input file",
                        job->out_path);
    return 0;
}

/* An existing output is refused unless --overwrite (existing.h); the
 * rename at the end refuses one that appears while the file runs. */
static int check_existing_output(cli_job *job)
{
    cli_existing policy = job->opts->overwrite ? CLI_EXISTING_OVERWRITE : CLI_EXISTING_REFUSE;
    if (cli_output_check_path(job->in_path, job->out_path, policy) != CLI_OUTPUT_REFUSE)
        return 0;
    char *why = cli_existing_refusal(job->out_path);
    int ret = cli_fail(&job->err, AVERROR(EEXIST), "%s", why);
    g_free(why);
    return ret;
}

static int open_all(state *s, const AVIOInterruptCB *cb)
{
    cli_job *job = s->job;
    cli_err *err = &job->err;
    int ret = check_paths(job);
    if (ret >= 0)
        ret = check_existing_output(job);
    if (ret < 0)
        return ret;
    if (job->gpu && cf_device_set(job->gpu->index) != CF_OK)
        return cli_fail_cf(err, "GPU");
    ret = cli_input_open(&s->in, job->in_path, job->gpu ? job->gpu->hw_device : NULL,
                         job->opts->max_errors, cb, err);
    if (ret < 0)
        return ret;
    job->frames_total = cli_input_expected_frames(&s->in);
    snprintf(job->decoder, sizeof job->decoder, "%s", s->in.dec->codec->name);
    if ((ret = cli_vf_init(&s->vf, job->opts->vf, job->opts->threads, err)) < 0)
        return ret;
    if (job->gpu && s->vf.n > 0) {
        cli_vf_use_gpu(&s->vf, job->gpu->index, cli_gpu_stream(job->gpu));
        job->gpu_filters = true;
    }
    ret = cli_output_open(&s->out, job->out_path, s->in.fmt, s->in.video, cb, err);
    s->out.replace = job->opts->overwrite;
    return ret;
}

static int run(state *s)
{
    cli_err *err = &s->job->err;
    AVIOInterruptCB cb = { interrupt_cb, s };
    /* Any failure here, AVERROR_EOF too (a file cut inside its header),
     * ends the job before there is a decoder to drain. */
    int ret = open_all(s, &cb);
    if (ret < 0)
        return ret;
    int rd;
    while ((rd = cli_input_read(&s->in, s->pkt, err)) >= 0) {
        s->last_progress = cli_now();
        s->job->heartbeat++;
        if (s->pkt->stream_index == s->in.video) {
            ret = decode(s, s->pkt);
        } else {
            g_mutex_lock(&s->out_lock);
            ret = cli_output_copy(&s->out, s->pkt, err);
            g_mutex_unlock(&s->out_lock);
        }
        if (ret >= 0 && !s->started && s->in.video_packets > MAX_PACKETS_BEFORE_FIRST_FRAME)
            ret = cli_fail(err, AVERROR_INVALIDDATA,
                           "no video frame decoded from the first %d video packets",
                           MAX_PACKETS_BEFORE_FIRST_FRAME);
        if (ret < 0)
            return ret;
    }
    if (rd != AVERROR_EOF)
        return rd;
    if ((ret = decode(s, NULL)) < 0 || (ret = join_encoder(s, true)) < 0)
        return ret;
    if (!s->started)
        return cli_fail(err, AVERROR_INVALIDDATA, "no video frame could be decoded");
    if ((ret = cli_input_check_complete(&s->in, err)) < 0)
        return ret;
    return cli_output_finish(&s->out, err);
}

static void collect(state *s)
{
    cli_job *job = s->job;
    job->frames_out = s->out.frames_encoded;
    job->damaged = s->in.errors;
    job->timestamps_fixed += s->out.timestamps_fixed;
    job->streams_copied = s->out.copied;
    job->streams_dropped = s->out.dropped;
    snprintf(job->dropped, sizeof job->dropped, "%s", s->out.dropped_names);
}

void cli_job_run(cli_job *job)
{
    double t0 = cli_now();
    state s = { .job = job, .last_progress = t0, .reader = g_thread_self() };
    job->running = 1;
    g_mutex_init(&s.out_lock);
    s.pkt = av_packet_alloc();
    s.frame = av_frame_alloc();
    int ret = s.pkt && s.frame ? run(&s) : cli_fail(&job->err, AVERROR(ENOMEM), "out of memory");
    int enc = join_encoder(&s, false); /* after a failure: stops it at once */
    if (ret >= 0)
        ret = enc;
    job->ok = ret >= 0;
    if (!job->ok && !job->err.msg[0])
        cli_fail_av(&job->err, ret, "failed");
    collect(&s);
    cli_output_close(&s.out); /* removes the temporary file of a failed job */
    av_buffer_unref(&s.enc_frames);
    cli_vf_free(&s.vf);
    cli_convert_free(&s.conv);
    cli_convert_free(&s.conv_out);
    cli_input_close(&s.in);
    av_packet_free(&s.pkt);
    av_frame_free(&s.frame);
    g_mutex_clear(&s.out_lock);
    job->seconds = cli_now() - t0;
    job->running = 0;
}
