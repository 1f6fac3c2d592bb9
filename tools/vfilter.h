/* cudafilters tool: our filter chain (--vf) applied to FFmpeg frames.
 *
 * The chain runs on the CPU (host frames) or on one GPU. On the GPU the input
 * is a decoded CUDA frame (NVDEC, used in place) or a host frame that is
 * uploaded; intermediate frames stay in device memory; the result is either
 * downloaded into a pinned host frame or, for an encoder that takes CUDA
 * frames (NVENC), written straight into a frame of its hardware pool. */
#ifndef CLI_VFILTER_H
#define CLI_VFILTER_H

#include <stdbool.h>

#include <cudafilters/cudafilters.h>
#include <libavutil/buffer.h>
#include <libavutil/frame.h>

#include "gpu.h"
#include "util.h"

#define CLI_VF_MAX 32 /* filters in one chain */

typedef struct cli_vf {
    cf_chain *chain;
    int n;                       /* filters; 0 for an empty --vf */
    cf_format in;                /* planned input format */
    cf_format out[CLI_VF_MAX];   /* planned output format of each filter */
    bool user_range[CLI_VF_MAX]; /* --vf gave the filter's range itself */
    bool gpu;                    /* run on device `device` */
    int device;
    cf_stream stream;
    cf_frame staging;            /* device copy of a host input frame */
    cf_frame mid[CLI_VF_MAX];    /* filter outputs (the last one too on the GPU) */
    cli_pinned pinned;           /* host frames GPU results are downloaded into */
    AVBufferRef *hw_frames;      /* encoder's CUDA frame pool, or NULL (not owned) */
} cli_vf;

/* Parses `desc` (filter-string grammar of cf_chain_parse; NULL or "" is the
 * empty chain). Returns 0, or a negative AVERROR with err naming the bad
 * token. */
int cli_vf_init(cli_vf *vf, const char *desc, cli_err *err);

/* Runs the chain on GPU `device` with `stream` from now on (default: CPU). */
void cli_vf_use_gpu(cli_vf *vf, int device, cf_stream stream);

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
 * the final format is in `accepted`. */
cf_format cli_vf_plan(cli_vf *vf, cf_format in, bool full_range, const cf_format *accepted,
                      int n_accepted, bool *is_accepted, cli_err *err);

/* Runs the planned chain on `in` (host or CUDA frame of the planned input
 * format) into `out` (an empty frame the caller owns): a host frame, or a
 * CUDA frame from hw_frames when that is set. Output properties are the
 * input's (pts, duration, colour), with full range for non-YUV output.
 * Returns 0 or a negative AVERROR with err set. */
int cli_vf_run(cli_vf *vf, const AVFrame *in, AVFrame *out, cli_err *err);

/* The chain's final format (the input's when the chain is empty). */
cf_format cli_vf_output(const cli_vf *vf);

/* Frees the chain and its frames (device frames in the current context). */
void cli_vf_free(cli_vf *vf);

#endif
