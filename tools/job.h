/* cudafilters tool: one file, decoded, filtered, encoded, muxed. */
#ifndef CLI_JOB_H
#define CLI_JOB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <libavutil/pixfmt.h>

#include "gpu.h"
#include "util.h"

/* What converted frames outside the --vf filters (cli_job's
 * decoder_converter, encoder_converter; --json "converters"): nothing, our
 * convert filter appended to the chain on the GPU or on the CPU
 * (vf_tail.h), or libswscale on the CPU (convert.h). */
#define CLI_CONVERTER_NONE "none"
#define CLI_CONVERTER_GPU "convert-gpu"
#define CLI_CONVERTER_CPU "convert-cpu"
#define CLI_CONVERTER_SWSCALE "libswscale"

/* Settings shared by every job of a run. */
typedef struct cli_job_opts {
    const char *vf;        /* filter string, NULL or "": none */
    const char *codec;     /* --codec: codec or encoder name */
    bool codec_default;    /* --codec not given: codec is h264, except for a container
                            * that cannot hold H.264 (WebM, Ogg...), which gets its
                            * own default codec, as ffmpeg picks it */
    int quality;           /* --quality, -1: the encoder's default */
    enum AVPixelFormat pix_fmt; /* --pix-fmt for the encoder, AV_PIX_FMT_NONE: chosen */
    int max_errors;        /* damaged packets/frames tolerated per file */
    double stall_timeout;  /* seconds without progress before giving up */
    bool overwrite;        /* --overwrite: replace an existing output (else refuse it) */
    int threads;           /* --threads: CPU threads of the filters, 0: all cores */
} cli_job_opts;

/* One file. The runner fills the first block; cli_job_run() the rest. */
typedef struct cli_job {
    const char *in_path, *out_path;
    const cli_job_opts *opts;
    cli_gpu *gpu;                 /* NULL: everything on the CPU */

    /* Progress, read by the progress printer while the job runs. */
    _Atomic int64_t frames_done;  /* frames encoded so far */
    _Atomic int64_t frames_total; /* expected, from the header; 0 if unknown */
    _Atomic int running;
    _Atomic int64_t heartbeat;    /* bumped on every packet read and frame decoded */

    /* Result. */
    bool ok;
    cli_err err;                  /* why it failed (without the file name) */
    double seconds;
    int64_t frames_in, frames_out;   /* decoded, encoded */
    int64_t damaged;                 /* damaged packets/frames seen (up to --max-errors) */
    int64_t timestamps_fixed;        /* frames and copied packets whose timestamps had to be
                                        made increasing */
    char decoder[48], encoder[48];
    bool hw_decode;                  /* frames came from NVDEC as CUDA frames */
    bool gpu_filters;                /* our filters ran on the GPU */
    int streams_copied, streams_dropped;
    char dropped[256];
    char formats[160];               /* "I420 > gray > I420 > blur > I420" */
    char conversions[160];           /* conversions outside --vf, "" if none: "encoder input
                                        rgba to yuv420p (convert-gpu)" */
    const char *decoder_converter;   /* what brought the decoder's frames to the chain's
                                        format: a CLI_CONVERTER_* name */
    const char *encoder_converter;   /* what brought the chain's (or the decoder's) frames
                                        to the encoder's format: a CLI_CONVERTER_* name */
    char warning[256];               /* "" or what the user should know about a file that
                                        succeeded (an output many players cannot play) */
} cli_job;

/* Runs the job on the calling thread (with job->gpu's device made current on
 * it). Never leaves a partial output file. Thread-safe for distinct jobs. */
void cli_job_run(cli_job *job);

#endif
