/* cudafilters tool: our filter chain (--vf) applied to FFmpeg frames. */
#include "vfilter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/hwcontext.h>

#include "pixfmt.h"

int cli_vf_init(cli_vf *vf, const char *desc, cli_err *err)
{
    memset(vf, 0, sizeof *vf);
    vf->device = -1;
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
        for (int p = 0; p < d->n_params; p++)
            if (d->params[p].role == CF_PARAM_ROLE_COLOR_RANGE &&
                cf_filter_param_is_set(f, d->params[p].name))
                vf->user_range[i] = true;
    }
    return 0;
}

void cli_vf_use_gpu(cli_vf *vf, int device, cf_stream stream)
{
    vf->gpu = true;
    vf->device = device;
    vf->stream = stream;
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
    cf_format outs[8];
    int k = cf_filter_get_output_formats(cf_chain_get(s->vf->chain, step), f, outs, 8);
    for (int j = 0; j < k && j < 8; j++) {
        s->path[step] = outs[j];
        search_from(s, step + 1, outs[j]);
    }
}

/* Sets every CF_PARAM_ROLE_COLOR_RANGE parameter (enum {limited, full}). */
static void set_range_params(cf_filter *f, bool full_range)
{
    const cf_filter_desc *d = cf_filter_get_desc(f);
    for (int p = 0; p < d->n_params; p++)
        if (d->params[p].role == CF_PARAM_ROLE_COLOR_RANGE)
            (void)cf_filter_set_int(f, d->params[p].name, full_range ? 1 : 0); /* in range by definition */
}

cf_format cli_vf_plan(cli_vf *vf, cf_format in, bool full_range, const cf_format *accepted,
                      int n_accepted, bool *accepted_out, cli_err *err)
{
    vf->in = in;
    if (vf->n == 0) {
        search s = { .in = in, .accepted = accepted, .n_accepted = n_accepted };
        *accepted_out = is_accepted(&s, in);
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
    memcpy(vf->out, s->best, sizeof vf->out);
    free(s);
    if (rank == 4) {
        cli_fail(err, AVERROR(EINVAL), "--vf: no filter path for %s input", cf_format_name(in));
        return CF_FORMAT_UNKNOWN;
    }
    for (int i = 0; i < vf->n; i++) {
        if (!vf->user_range[i]) /* an explicit range=... in --vf wins */
            set_range_params(cf_chain_get(vf->chain, i), full_range);
        /* YUV output keeps its input's range; RGB and gray output is full range. */
        if (!cf_format_get_info(vf->out[i])->is_yuv)
            full_range = true;
    }
    *accepted_out = rank == 0 || rank == 2;
    return vf->out[vf->n - 1];
}

cf_format cli_vf_output(const cli_vf *vf)
{
    return vf->n ? vf->out[vf->n - 1] : vf->in;
}

/* ---- running ----------------------------------------------------------- */

/* (Re)allocates a scratch frame when its format or size differs. */
static int ensure_frame(cf_frame *f, cf_format fmt, int w, int h, cf_memory mem, cli_err *err)
{
    if (f->allocation && f->format == fmt && f->width == w && f->height == h && f->memory == mem)
        return 0;
    cf_frame_free(f);
    if (cf_frame_alloc(f, fmt, w, h, mem) != CF_OK)
        return cli_fail_cf(err, "allocating a filter frame");
    return 0;
}

static int run_filter(cli_vf *vf, int i, const cf_frame *src, cf_frame *dst, cli_err *err)
{
    cf_filter *f = cf_chain_get(vf->chain, i);
    if (cf_filter_run(f, src, dst, vf->stream) != CF_OK) {
        char what[96];
        snprintf(what, sizeof what, "filter '%s'", cf_filter_get_desc(f)->name);
        return cli_fail_cf(err, what);
    }
    return 0;
}

/* The input as a cf_frame where the chain runs: uploaded if it is a host
 * frame and the chain runs on the GPU. */
static int chain_input(cli_vf *vf, const AVFrame *in, cf_frame *src, cli_err *err)
{
    bool dev = in->format == AV_PIX_FMT_CUDA;
    if (dev && !vf->gpu)
        return cli_fail(err, AVERROR(EINVAL), "internal: CUDA frame for a CPU filter chain");
    if (!cli_frame_wrap(in, vf->in, dev ? CF_MEMORY_DEVICE : CF_MEMORY_HOST, vf->device, src))
        return cli_fail(err, AVERROR(EINVAL), "frame %dx%d cannot be wrapped as %s", in->width,
                        in->height, cf_format_name(vf->in));
    if (!vf->gpu || dev)
        return 0;
    int ret = ensure_frame(&vf->staging, vf->in, in->width, in->height, CF_MEMORY_DEVICE, err);
    if (ret < 0)
        return ret;
    if (cf_frame_upload(src, &vf->staging, vf->stream) != CF_OK)
        return cli_fail_cf(err, "uploading a frame to the GPU");
    *src = vf->staging;
    return 0;
}

/* Gives `out` planes for the final result and wraps them as *dst. */
static int chain_output(cli_vf *vf, AVFrame *out, int w, int h, cf_frame *dst, cli_err *err)
{
    cf_format fmt = cli_vf_output(vf);
    int ret;
    out->format = cli_format_to_av(fmt);
    out->width = w;
    out->height = h;
    if (vf->gpu && vf->hw_frames) {
        if ((ret = av_hwframe_get_buffer(vf->hw_frames, out, 0)) < 0)
            return cli_fail_av(err, ret, "getting a CUDA frame for the encoder");
        return cli_frame_wrap(out, fmt, CF_MEMORY_DEVICE, vf->device, dst)
                   ? 0 : cli_fail(err, AVERROR(EINVAL), "cannot wrap the encoder's CUDA frame");
    }
    if (vf->gpu)
        ret = cli_pinned_frame_alloc(&vf->pinned, out);
    else
        ret = av_frame_get_buffer(out, 0);
    if (ret < 0)
        return cli_fail_av(err, ret, "allocating an output frame");
    return cli_frame_wrap(out, fmt, vf->gpu ? CF_MEMORY_PINNED_HOST : CF_MEMORY_HOST, -1, dst)
               ? 0 : cli_fail(err, AVERROR(EINVAL), "cannot wrap the output frame");
}

static int run_chain(cli_vf *vf, const cf_frame *src, AVFrame *out, cli_err *err)
{
    cf_memory mem = vf->gpu ? CF_MEMORY_DEVICE : CF_MEMORY_HOST;
    const cf_frame *cur = src;
    int w = src->width, h = src->height, ret;
    /* On the CPU the last filter writes the output frame itself; on the GPU
     * it writes device memory (mid[n-1]) unless the encoder takes CUDA frames. */
    bool last_direct = !vf->gpu || vf->hw_frames;
    int n_mid = last_direct ? vf->n - 1 : vf->n;
    for (int i = 0; i < n_mid; i++) {
        if ((ret = ensure_frame(&vf->mid[i], vf->out[i], w, h, mem, err)) < 0 ||
            (ret = run_filter(vf, i, cur, &vf->mid[i], err)) < 0)
            return ret;
        cur = &vf->mid[i];
    }
    cf_frame dst;
    if ((ret = chain_output(vf, out, w, h, &dst, err)) < 0)
        return ret;
    if (last_direct)
        ret = run_filter(vf, vf->n - 1, cur, &dst, err);
    else if (cf_frame_download(cur, &dst, vf->stream) != CF_OK)
        ret = cli_fail_cf(err, "downloading the filtered frame");
    /* The encoder reads the frame as soon as it gets it. */
    if (ret == 0 && vf->gpu && cf_stream_synchronize(vf->stream) != CF_OK)
        ret = cli_fail_cf(err, "GPU filters");
    return ret;
}

int cli_vf_run(cli_vf *vf, const AVFrame *in, AVFrame *out, cli_err *err)
{
    cf_frame src;
    int ret = chain_input(vf, in, &src, err);
    if (ret < 0 || (ret = run_chain(vf, &src, out, err)) < 0)
        return ret;
    if ((ret = av_frame_copy_props(out, in)) < 0)
        return cli_fail_av(err, ret, "copying frame properties");
    if (!cf_format_get_info(cli_vf_output(vf))->is_yuv)
        out->color_range = AVCOL_RANGE_JPEG;
    return 0;
}

void cli_vf_free(cli_vf *vf)
{
    cf_frame_free(&vf->staging);
    for (int i = 0; i < CLI_VF_MAX; i++)
        cf_frame_free(&vf->mid[i]);
    cli_pinned_free(&vf->pinned);
    cf_chain_free(&vf->chain);
}
