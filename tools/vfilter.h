/* cudafilters tool: our filter chain (--vf) applied to FFmpeg frames.
 *
 * The chain runs through a cf_scheduler (core/include/cudafilters/
 * scheduler.h), on the CPU (host frames) or on one GPU, with frames in
 * flight: the decoding thread submits frames and returns, the encoding
 * thread receives finished frames in order. On the GPU the input is a
 * decoded CUDA frame (NVDEC, used in place) or a host frame the scheduler
 * uploads; intermediate frames stay in device memory; the result is either
 * downloaded into a pinned frame of the scheduler's pool or, for an encoder
 * that takes CUDA frames (NVENC), written straight into a frame of its
 * hardware pool. */
#ifndef CLI_VFILTER_H
#define CLI_VFILTER_H

#include <stdbool.h>

#include <cudafilters/cudafilters.h>
#include <libavutil/buffer.h>
#include <libavutil/frame.h>

#include "gpu.h"
#include "util.h"

#define CLI_VF_MAX 32 /* filters in one chain */

/* A frame on its way through the scheduler (its token). */
typedef struct cli_vf_job {
    AVFrame *in;  /* the input, held until its work is done */
    AVFrame *out; /* NVENC: the encoder's CUDA frame the result goes into; else NULL */
} cli_vf_job;

/* The steps the scheduler runs: the --vf filters, then the tail (our
 * convert, to the encoder's format: vf_tail.h) when the planner adds one. */
typedef struct cli_vf {
    cf_chain *chain;
    int n;                       /* --vf filters; 0 for an empty --vf */
    cf_filter *tail;             /* the planner's convert after them (cli_vf_set_tail), or NULL */
    cf_format in;                /* planned input format */
    cf_format out[CLI_VF_MAX + 1];   /* planned output format of each step */
    bool user_range[CLI_VF_MAX + 1]; /* --vf gave the filter's range itself */
    unsigned user_roles[CLI_VF_MAX + 1]; /* bit 1 << cf_param_role: --vf gave that parameter */
    bool in_full;                /* the planned input is full range */
    bool out_full;               /* the final output is full range */
    const char *matrix, *site;   /* the stream's colour (cli_vf_set_colour), NULL: not yet */
    int threads;                 /* CPU threads of each step (--threads; 0: all cores) */
    bool gpu;                    /* run on device `device` */
    int device;
    cf_stream decoder_stream;    /* FFmpeg's stream, whose copies the GPU work waits for */
    cf_event decoded;            /* recorded on decoder_stream before each CUDA input */
    cf_scheduler *sched;         /* made by cli_vf_start() */
    cli_vf_job jobs[CF_SCHEDULER_MAX_DEPTH + 1]; /* tokens, used in turn */
    int next_job;
    AVBufferRef *hw_frames;      /* encoder's CUDA frame pool, or NULL (not owned) */
} cli_vf;

/* Parses `desc` (filter-string grammar of cf_chain_parse; NULL or "" is the
 * empty chain); each filter runs on the CPU with up to `threads` threads
 * (0: all cores, cf_filter_set_cpu_threads). Returns 0, or a negative AVERROR with err naming the bad
 * token. */
int cli_vf_init(cli_vf *vf, const char *desc, int threads, cli_err *err);

/* Steps the scheduler runs: n, plus 1 with a tail. */
int cli_vf_steps(const cli_vf *vf);

/* True when there is anything to run (filters or a tail). */
bool cli_vf_active(const cli_vf *vf);

/* Step i (0 .. cli_vf_steps() - 1): a --vf filter, or the tail (both owned by vf). */
cf_filter *cli_vf_step(const cli_vf *vf, int i);

/* Sets the parameters the stream decides on every step from what
 * cli_vf_set_colour() and cli_vf_plan() recorded, and works out out_full:
 * colour (matrix, siting) where --vf did not give it; the range
 * (CF_PARAM_ROLE_COLOR_RANGE) of each step's YUV side where --vf did not
 * give it: its input's range for YUV input, limited for a YUV output made
 * from RGB or gray (what encoders and players expect, and what libswscale
 * makes); RGB and gray are full range. Called by cli_vf_plan() and
 * cli_vf_set_tail(). */
void cli_vf_apply_stream(cli_vf *vf);

/* Runs the chain on GPU `device` from now on (default: CPU); its work waits
 * for what FFmpeg queued on `decoder_stream` before each decoded CUDA frame. */
void cli_vf_use_gpu(cli_vf *vf, int device, cf_stream decoder_stream);

/* Chooses each filter's output format for input `in` and sets the
 * parameters the stream decides (CF_PARAM_ROLE_COLOR_RANGE: from
 * `full_range` for the first filter, then as each filter leaves it).
 * Preference: a chain ending in `in` itself, since that changes no range,
 * layout or depth (gray on NV12 keeps NV12: Y as it is, neutral chroma),
 * first where `accepted` (what the encoder takes) has it, else for the
 * caller to repack (P010 -> YUV420P10); else the first accepted format in
 * the filters' own order of preference; else each filter's preferred output
 * (the caller converts). Returns the final format, or CF_FORMAT_UNKNOWN with
 * err set when a filter does not take its input. *is_accepted says whether
 * the final format is in `accepted`. Plans the --vf filters: a tail stays
 * as it is (cli_vf_set_tail(vf, CF_FORMAT_UNKNOWN, ...) removes it). */
cf_format cli_vf_plan(cli_vf *vf, cf_format in, bool full_range, const cf_format *accepted,
                      int n_accepted, bool *is_accepted, cli_err *err);

/* Records the stream's colour (matrix: CF_PARAM_ROLE_COLOR_MATRIX, from
 * frame->colorspace: BT.709, BT.2020, else BT.601; 4:2:0 siting:
 * CF_PARAM_ROLE_CHROMA_SITE, from frame->chroma_location: centre for
 * AVCHROMA_LOC_CENTER, else MPEG-2's left), which cli_vf_apply_stream()
 * sets wherever --vf did not give it. Call before cli_vf_plan(). */
void cli_vf_set_colour(cli_vf *vf, const AVFrame *frame);

/* Makes the scheduler for the planned chain, with `depth` frames in flight
 * (0: the scheduler's default), replacing one made before (whose frames must
 * all have been received). Returns 0 or a negative AVERROR with err set. */
int cli_vf_start(cli_vf *vf, int depth, cli_err *err);

/* Submits `in` (taken; a host frame of the planned input format, or a CUDA
 * frame of it), waiting while depth frames are in flight. Returns 0, or a
 * negative AVERROR with err set: AVERROR_EXIT when the scheduler is flushing
 * (cli_vf_stop), nothing taken then. */
int cli_vf_submit(cli_vf *vf, AVFrame *in, cli_err *err);

/* The oldest result into *out (the caller's): a host frame in pinned or
 * ordinary memory (or a CUDA frame of hw_frames) with the input's
 * properties (pts, duration, colour; full range for non-YUV output).
 * Waits for it when `wait`. Returns 0, AVERROR(EAGAIN) (not finished, or
 * nothing in flight, without `wait`), AVERROR_EOF (drained and nothing
 * left), AVERROR_EXIT (stopped), or the frame's own failure with err set. */
int cli_vf_receive(cli_vf *vf, bool wait, AVFrame **out, cli_err *err);

/* No more input: receive returns AVERROR_EOF once everything is out. */
void cli_vf_drain(cli_vf *vf);

/* Wakes and refuses every wait in submit and receive from now on (another
 * thread failed or the job was interrupted). Any thread. */
void cli_vf_stop(cli_vf *vf);

/* Submit and receive of one frame: the synchronous form, for the first
 * frame (formats and the encoder are chosen from its result). */
int cli_vf_run(cli_vf *vf, AVFrame *in, AVFrame **out, cli_err *err);

/* The final format: the last step's (the input's when there is none). */
cf_format cli_vf_output(const cli_vf *vf);

/* The size the chain makes of a w x h frame (a scale changes it), in
 * *ow x *oh; w x h for an empty chain. */
void cli_vf_output_size(const cli_vf *vf, int w, int h, int *ow, int *oh);

/* Frees the chain, the tail, the scheduler (dropping frames still in flight) and the
 * event, in the current CUDA context. */
void cli_vf_free(cli_vf *vf);

#endif
