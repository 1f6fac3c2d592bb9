/* cudafilters tool: our filter chain (--vf) applied to FFmpeg frames. */
#include "vfilter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <libavutil/hwcontext.h>

#include "pixfmt.h"

int cli_vf_init(cli_vf *vf, const char *desc, int threads, cli_err *err)
{
    memset(vf, 0, sizeof *vf);
    vf->device = -1;
    vf->threads = threads;
    if (!desc || !desc[strspn(desc, " \t")])
        return 0;
    vf->chain = cf_chain_parse(desc);
    if (!vf->chain)
        return cli_fail(err, AVERROR(EINVAL), "--vf: %s", cf_last_error());
    vf->n = cf_chain_length(vf->chain);
    if (vf->n > CLI_VF_MAX) {
        cf_chain_free(&vf->chain);
        return cli_fail(err, AVERROR(EINVAL), "--vf: more than %d filters", CLI_VF_MAX);
    }
    /* Remember what the user set before the stream fills in the rest. */
    for (int i = 0; i < vf->n; i++) {
        cf_filter *f = cf_chain_get(vf->chain, i);
        const cf_filter_desc *d = cf_filter_get_desc(f);
        if (cf_filter_set_cpu_threads(f, threads) != CF_OK) {
            cf_chain_free(&vf->chain);
            return cli_fail(err, AVERROR(EINVAL), "--threads: %s", cf_last_error());
        }
        for (int p = 0; p < d->n_params; p++) {
            if (d->params[p].role == CF_PARAM_ROLE_COLOR_RANGE &&
                cf_filter_param_is_set(f, d->params[p].name))
                vf->user_range[i] = true;
            if (cf_filter_param_is_set(f, d->params[p].name))
                vf->user_roles[i] |= 1u << d->params[p].role;
        }
    }
    return 0;
}

void cli_vf_use_gpu(cli_vf *vf, int device, cf_stream decoder_stream)
{
    vf->gpu = true;
    vf->device = device;
    vf->decoder_stream = decoder_stream;
}

/* ---- planning ---------------------------------------------------------- */

typedef struct search {
    const cli_vf *vf;
    cf_format in;
    const cf_format *accepted;
    int n_accepted;
    bool seen[CLI_VF_MAX + 1][CF_FORMAT_COUNT];
    cf_format path[CLI_VF_MAX];
    cf_format best[CLI_VF_MAX];
    int best_rank; /* see rank() */
} search;

static bool is_accepted(const search *s, cf_format f)
{
    for (int i = 0; i < s->n_accepted; i++)
        if (s->accepted[i] == f)
            return true;
    return false;
}

/* 0: ends in the input format, which the encoder takes; 1: ends in the
 * input format, repacked for the encoder (P010 -> YUV420P10): the output
 * keeps the input's layout and depth, which every player handles; 2: ends
 * in another format the encoder takes; 3: neither. 4: no path yet. */
static int rank_of(const search *s, cf_format f)
{
    bool ok = is_accepted(s, f);
    if (f == s->in)
        return ok ? 0 : 1;
    return ok ? 2 : 3;
}

/* Depth-first in each filter's order of preference, so the first path found
 * for a rank is the most preferred one; a (step, format) state reached once
 * needs no second visit, which keeps the search linear in the chain length. */
static void search_from(search *s, int step, cf_format f)
{
    if (s->seen[step][f] || s->best_rank == 0)
        return;
    s->seen[step][f] = true;
    if (step == s->vf->n) {
        int rank = rank_of(s, f);
        if (rank < s->best_rank) {
            s->best_rank = rank;
            memcpy(s->best, s->path, sizeof s->path);
        }
        return;
    }
    cf_format outs[16];
    int k = cf_filter_get_output_formats(cf_chain_get(s->vf->chain, step), f, outs, 16);
    /* A format the user asked for is the only one (convert=format=rgba
     * must not become GRAY8 because the encoder takes that). */
    if (k > 1 && (s->vf->user_roles[step] & (1u << CF_PARAM_ROLE_OUTPUT_FORMAT)))
        k = 1;
    for (int j = 0; j < k && j < 16; j++) {
        s->path[step] = outs[j];
        search_from(s, step + 1, outs[j]);
    }
}

void cli_vf_set_colour(cli_vf *vf, const AVFrame *frame)
{
    vf->matrix = frame->colorspace == AVCOL_SPC_BT709 ? "bt709"
                 : frame->colorspace == AVCOL_SPC_BT2020_NCL ||
                           frame->colorspace == AVCOL_SPC_BT2020_CL
                     ? "bt2020"
                     : "bt601";
    vf->site = frame->chroma_location == AVCHROMA_LOC_CENTER ? "center" : "left";
}

/* Sets every parameter of `role` (an enum whose choices include `value`). */
static void set_role(cf_filter *f, cf_param_role role, const char *value)
{
    const cf_filter_desc *d = cf_filter_get_desc(f);
    for (int p = 0; p < d->n_params; p++)
        if (d->params[p].role == role)
            (void)cf_filter_set_string(f, d->params[p].name, value); /* a choice of its enum */
}

/* The step's range as --vf gave it (enum {limited, full}). */
static bool user_full_range(const cf_filter *f)
{
    const cf_filter_desc *d = cf_filter_get_desc(f);
    double v = 0;
    for (int p = 0; p < d->n_params; p++)
        if (d->params[p].role == CF_PARAM_ROLE_COLOR_RANGE &&
            cf_filter_get_double(f, d->params[p].name, &v) == CF_OK)
            return v != 0;
    return false;
}

static bool is_yuv(cf_format f)
{
    const cf_format_info *info = cf_format_get_info(f);
    return info && info->is_yuv;
}

/* The AVColorSpace of a matrix choice of cli_vf_set_colour(). */
static enum AVColorSpace matrix_tag(const char *matrix)
{
    if (matrix && !strcmp(matrix, "bt709"))
        return AVCOL_SPC_BT709;
    if (matrix && !strcmp(matrix, "bt2020"))
        return AVCOL_SPC_BT2020_NCL;
    return AVCOL_SPC_SMPTE170M; /* BT.601 */
}

void cli_vf_apply_stream(cli_vf *vf)
{
    bool full = vf->in_full;
    cf_format prev = vf->in;
    for (int i = 0; i < cli_vf_steps(vf); i++) {
        cf_filter *f = cli_vf_step(vf, i);
        unsigned user = vf->user_roles[i];
        if (vf->matrix && !(user & (1u << CF_PARAM_ROLE_COLOR_MATRIX)))
            set_role(f, CF_PARAM_ROLE_COLOR_MATRIX, vf->matrix);
        if (vf->site && !(user & (1u << CF_PARAM_ROLE_CHROMA_SITE)))
            set_role(f, CF_PARAM_ROLE_CHROMA_SITE, vf->site);
        if (!is_yuv(prev) && is_yuv(vf->out[i]))
            full = false; /* a YUV side made from RGB or gray */
        if (vf->user_range[i]) /* an explicit range=... in --vf wins */
            full = is_yuv(vf->out[i]) ? user_full_range(f) : full;
        else
            set_role(f, CF_PARAM_ROLE_COLOR_RANGE, full ? "full" : "limited");
        /* YUV output keeps its range; RGB and gray output is full range. */
        if (!is_yuv(vf->out[i]))
            full = true;
        prev = vf->out[i];
    }
    vf->out_full = full;
}

cf_format cli_vf_plan(cli_vf *vf, cf_format in, bool full_range, const cf_format *accepted,
                      int n_accepted, bool *accepted_out, cli_err *err)
{
    vf->in = in;
    vf->in_full = full_range;
    if (vf->n == 0) {
        search s = { .in = in, .accepted = accepted, .n_accepted = n_accepted };
        *accepted_out = is_accepted(&s, in);
        cli_vf_apply_stream(vf);
        return in;
    }
    search *s = calloc(1, sizeof *s);
    if (!s) {
        cli_fail(err, AVERROR(ENOMEM), "out of memory");
        return CF_FORMAT_UNKNOWN;
    }
    *s = (search){ .vf = vf, .in = in, .accepted = accepted, .n_accepted = n_accepted,
                   .best_rank = 4 };
    search_from(s, 0, in);
    int rank = s->best_rank;
    memcpy(vf->out, s->best, (size_t)vf->n * sizeof *vf->out);
    free(s);
    if (rank == 4) {
        cli_fail(err, AVERROR(EINVAL), "--vf: no filter path for %s input", cf_format_name(in));
        return CF_FORMAT_UNKNOWN;
    }
    cli_vf_apply_stream(vf);
    *accepted_out = rank == 0 || rank == 2;
    return vf->out[vf->n - 1];
}

int cli_vf_steps(const cli_vf *vf)
{
    return vf->n + (vf->tail != NULL);
}

bool cli_vf_active(const cli_vf *vf)
{
    return cli_vf_steps(vf) > 0;
}

cf_filter *cli_vf_step(const cli_vf *vf, int i)
{
    return i < vf->n ? cf_chain_get(vf->chain, i) : vf->tail;
}

cf_format cli_vf_output(const cli_vf *vf)
{
    int n = cli_vf_steps(vf);
    return n ? vf->out[n - 1] : vf->in;
}

void cli_vf_output_size(const cli_vf *vf, int w, int h, int *ow, int *oh)
{
    for (int i = 0; i < cli_vf_steps(vf); i++) /* sizes >= 1 in, so this cannot fail */
        (void)cf_filter_get_output_size(cli_vf_step(vf, i), w, h, &w, &h);
    *ow = w;
    *oh = h;
}

/* ---- running ----------------------------------------------------------- */

static void drop_job(void *token, void *user_data)
{
    (void)user_data;
    cli_vf_job *job = token;
    av_frame_free(&job->in);
    av_frame_free(&job->out);
}

int cli_vf_start(cli_vf *vf, int depth, cli_err *err)
{
    cf_scheduler_destroy(&vf->sched);
    if (vf->gpu && !vf->decoded && cf_event_create(&vf->decoded) != CF_OK)
        return cli_fail_cf(err, "GPU");
    cf_filter *filters[CLI_VF_MAX + 1];
    for (int i = 0; i < cli_vf_steps(vf); i++)
        filters[i] = cli_vf_step(vf, i);
    cf_scheduler_params p = {
        .filters = filters,
        .n_filters = cli_vf_steps(vf),
        .formats = vf->out,
        .depth = depth,
        .backend = vf->gpu ? CF_BACKEND_CUDA : CF_BACKEND_CPU,
        .output = CF_SCHEDULER_OUTPUT_HOST,
        .name = "--vf",
        .drop = drop_job,
    };
    if (cf_scheduler_create(&vf->sched, &p) != CF_OK)
        return cli_fail_cf(err, "starting the filters");
    vf->next_job = 0;
    return 0;
}

/* The job for the next frame: jobs are used in turn, and with at most depth
 * frames in flight the one depth + 1 submits back has been received. */
static cli_vf_job *next_job(cli_vf *vf)
{
    cli_vf_job *job = &vf->jobs[vf->next_job];
    vf->next_job = (vf->next_job + 1) % (CF_SCHEDULER_MAX_DEPTH + 1);
    return job;
}

/* The encoder's CUDA frame the result goes into (NVENC), as a cf_frame. */
static int hw_output(cli_vf *vf, cli_vf_job *job, int w, int h, cf_frame *dst, cli_err *err)
{
    cf_format fmt = cli_vf_output(vf);
    job->out = av_frame_alloc();
    if (!job->out)
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    job->out->format = cli_format_to_av(fmt);
    job->out->width = w;
    job->out->height = h;
    int ret = av_hwframe_get_buffer(vf->hw_frames, job->out, 0);
    if (ret < 0)
        return cli_fail_av(err, ret, "getting a CUDA frame for the encoder");
    if (!cli_frame_wrap(job->out, fmt, CF_MEMORY_DEVICE, vf->device, dst))
        return cli_fail(err, AVERROR(EINVAL), "cannot wrap the encoder's CUDA frame");
    return 0;
}

int cli_vf_submit(cli_vf *vf, AVFrame *in, cli_err *err)
{
    bool dev = in->format == AV_PIX_FMT_CUDA;
    cli_vf_job *job = next_job(vf);
    cf_frame src, dst;
    job->in = in;
    job->out = NULL;
    int ret = 0;
    if (dev && !vf->gpu)
        ret = cli_fail(err, AVERROR(EINVAL), "internal: CUDA frame for a CPU filter chain");
    else if (!cli_frame_wrap(in, vf->in, dev ? CF_MEMORY_DEVICE : CF_MEMORY_HOST, vf->device, &src))
        ret = cli_fail(err, AVERROR(EINVAL), "frame %dx%d cannot be wrapped as %s", in->width,
                       in->height, cf_format_name(vf->in));
    else if (vf->gpu && vf->hw_frames) {
        int ow, oh;
        cli_vf_output_size(vf, in->width, in->height, &ow, &oh);
        ret = hw_output(vf, job, ow, oh, &dst, err);
    }
    /* A decoded CUDA frame is written by FFmpeg's copies on its stream: the
     * filters' GPU work waits for them there, not here. */
    if (ret == 0 && dev && cf_event_record(vf->decoded, vf->decoder_stream) != CF_OK)
        ret = cli_fail_cf(err, "GPU");
    cf_status st = CF_OK;
    if (ret == 0)
        st = cf_scheduler_submit_with_events(vf->sched, &src, job->out ? &dst : NULL, job,
                                             dev ? vf->decoded : NULL, NULL);
    if (st == CF_ERROR_FLUSHING)
        ret = AVERROR_EXIT;
    else if (st != CF_OK)
        ret = cli_fail_cf(err, "filters");
    if (ret < 0)
        drop_job(job, NULL);
    return ret;
}

static void release_result(void *opaque, uint8_t *data)
{
    (void)data;
    cf_scheduler_release(NULL, opaque);
    g_free(opaque);
}

/* An AVFrame over a result frame of the scheduler's pool: its buffer gives
 * the frame back when the last reference goes (in whatever thread). Takes
 * the result: *r is zeroed, success or not. */
static int wrap_result(cf_scheduler_result *r, AVFrame *out, cli_err *err)
{
    const cf_frame f_copy = r->frame, *f = &f_copy;
    const cf_format_info *info = cf_format_get_info(f->format);
    out->format = cli_format_to_av(f->format);
    out->width = f->width;
    out->height = f->height;
    size_t end = 0;
    for (int p = 0; p < info->n_planes; p++) {
        out->data[p] = f->data[p];
        out->linesize[p] = (int)f->pitch[p];
        size_t plane_end = (size_t)(f->data[p] - f->data[0]) +
                           f->pitch[p] * (size_t)cf_format_plane_height(f->format, p, f->height);
        if (plane_end > end)
            end = plane_end;
    }
    out->extended_data = out->data;
    cf_scheduler_result *kept = g_new(cf_scheduler_result, 1);
    *kept = *r;
    memset(r, 0, sizeof *r);
    out->buf[0] = av_buffer_create(kept->frame.data[0], end, release_result, kept, 0);
    if (!out->buf[0]) {
        cf_scheduler_release(NULL, kept);
        g_free(kept);
        return cli_fail(err, AVERROR(ENOMEM), "out of memory");
    }
    return 0;
}

int cli_vf_receive(cli_vf *vf, bool wait, AVFrame **out, cli_err *err)
{
    cf_scheduler_result r;
    cf_status st = cf_scheduler_receive(vf->sched, &r, wait);
    if (st == CF_ERROR_AGAIN)
        return AVERROR(EAGAIN);
    if (st == CF_ERROR_EOF)
        return AVERROR_EOF;
    if (st == CF_ERROR_FLUSHING)
        return AVERROR_EXIT;
    if (st != CF_OK)
        return cli_fail_cf(err, "filters");
    cli_vf_job *job = r.token;
    AVFrame *in = job->in, *o = job->out;
    job->in = job->out = NULL;
    int ret = 0;
    if (r.status != CF_OK) {
        ret = cli_fail_cf(err, "filters");
        cf_scheduler_release(vf->sched, &r);
    } else if (!o) {
        if (!(o = av_frame_alloc()))
            ret = cli_fail(err, AVERROR(ENOMEM), "out of memory");
        else
            ret = wrap_result(&r, o, err);
        cf_scheduler_release(vf->sched, &r); /* a no-op once wrapped */
    }
    if (ret == 0 && (ret = av_frame_copy_props(o, in)) < 0)
        ret = cli_fail_av(err, ret, "copying frame properties");
    /* The range the steps made (a YUV input's own, unless a step changed it). */
    if (ret == 0 && (vf->out_full || !is_yuv(cli_vf_output(vf))))
        o->color_range = AVCOL_RANGE_JPEG;
    else if (ret == 0 && o->color_range == AVCOL_RANGE_JPEG)
        o->color_range = AVCOL_RANGE_MPEG;
    /* YUV made from RGB: tagged with the matrix it was made with, not RGB's
     * identity "matrix" (which would make players decode it as GBR), nor
     * none (players take BT.709 for HD sizes then). */
    if (ret == 0 && is_yuv(cli_vf_output(vf)) &&
        (o->colorspace == AVCOL_SPC_RGB ||
         (o->colorspace == AVCOL_SPC_UNSPECIFIED && !is_yuv(vf->in))))
        o->colorspace = matrix_tag(vf->matrix);
    av_frame_free(&in);
    if (ret < 0)
        av_frame_free(&o);
    *out = o;
    return ret;
}

void cli_vf_drain(cli_vf *vf)
{
    cf_scheduler_drain(vf->sched);
}

void cli_vf_stop(cli_vf *vf)
{
    cf_scheduler_set_flushing(vf->sched, true);
}

int cli_vf_run(cli_vf *vf, AVFrame *in, AVFrame **out, cli_err *err)
{
    *out = NULL;
    int ret = cli_vf_submit(vf, in, err);
    return ret < 0 ? ret : cli_vf_receive(vf, true, out, err);
}

void cli_vf_free(cli_vf *vf)
{
    cf_scheduler_destroy(&vf->sched);
    cf_event_destroy(&vf->decoded);
    cf_chain_free(&vf->chain);
    cf_filter_free(&vf->tail);
}
