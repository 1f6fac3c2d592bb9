/* cudafilters tool: choosing and configuring the video encoder. */
#ifndef CLI_ENCODER_H
#define CLI_ENCODER_H

#include <stdbool.h>

#include <cudafilters/cudafilters.h>
#include <libavcodec/avcodec.h>

#include "util.h"

#define CLI_MAX_ENCODERS 8

/* Encoders to try for --codec `name`, best first, into out[]; returns how
 * many. `name` is a codec ("h264", "hevc", "mpeg4") or an encoder
 * ("libx264", "h264_nvenc"). For a codec: its NVENC encoder first when
 * `gpu` (it is skipped at open time where the GPU has no NVENC, e.g. H200),
 * then the usual software encoder (libx264, libx265), then libavcodec's
 * default. 0 if libavcodec has no encoder by that name. */
int cli_encoder_candidates(const char *name, bool gpu, const AVCodec **out);

/* True if the encoder takes frames of pixel format `fmt` (any, if it lists none). */
bool cli_encoder_takes(const AVCodec *codec, enum AVPixelFormat fmt);

/* True if the encoder takes CUDA frames (NVENC). */
bool cli_encoder_takes_cuda(const AVCodec *codec);

/* The formats of ours the encoder takes as host frames, in its order, into
 * out[0 .. CF_FORMAT_COUNT-1]; returns how many. An encoder that lists no
 * formats is taken to accept all of ours. */
int cli_encoder_formats(const AVCodec *codec, cf_format *out);

/* The encoder's best host format for a frame of format `src` that none of
 * our formats fit (see cli_encoder_formats): for an RGB or palette `src`,
 * the best of its 4:2:0 YUV formats where it has one (libavcodec's own
 * pick would be 4:4:4), else libavcodec's pick among all of them. */
enum AVPixelFormat cli_encoder_best_format(const AVCodec *codec, enum AVPixelFormat src);

/* For an encoder of H.264, HEVC, VP9 or AV1 given frames of format `given`
 * in colour other than 4:2:0 YUV (4:4:4, 4:2:2, RGB: profiles that many
 * players cannot play): the 4:2:0 format of the encoder's to suggest for
 * --pix-fmt. AV_PIX_FMT_NONE when `given` is 4:2:0 (yuvj420p too) or gray,
 * for other codecs, and for encoders without a 4:2:0 format (libx264rgb). */
enum AVPixelFormat cli_encoder_chroma_hint(const AVCodec *codec, enum AVPixelFormat given);

/* The chroma layout of a pixel format for messages: "4:4:4", "4:2:2",
 * "4:2:0", "RGB", "gray"... */
const char *cli_chroma_name(enum AVPixelFormat fmt);

/* Applies --quality q (lower is better): the encoder's "crf" (x264, x265)
 * or "cq" (NVENC) option, else a fixed quantiser (qscale) like mpeg4's.
 * Returns 0 or a negative AVERROR with err set. */
int cli_encoder_set_quality(AVCodecContext *enc, int q, cli_err *err);

/* Silences encoder libraries that log on their own (x265), for a quiet run. */
void cli_encoder_quiet(AVCodecContext *enc);

#endif
