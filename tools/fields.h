/* cudafilters tool: interlaced video.
 *
 * One rule for both front ends: a filter whose output pixels depend on
 * their neighbours (CF_FILTER_SPATIAL, e.g. blur) would mix the two fields
 * of an interlaced frame, so it is refused with the words the GStreamer
 * element uses at negotiation; other filters (gray) take interlaced frames,
 * and the output stays interlaced with the input's field order. */
#ifndef CLI_FIELDS_H
#define CLI_FIELDS_H

#include <stdbool.h>

#include <libavcodec/codec_par.h>
#include <libavutil/frame.h>

#include "util.h"
#include "vfilter.h"

/* Whether a field order says two fields (not unknown, not progressive). */
bool cli_fields_order_is_interlaced(enum AVFieldOrder order);

/* Whether `frame` of a stream with field order `stream_order` holds two
 * fields: the frame says so, or the stream does (mixed streams, where some
 * frames are progressive, count as interlaced, as their caps do). */
bool cli_fields_interlaced(const AVFrame *frame, enum AVFieldOrder stream_order);

/* Refuses an interlaced frame (see cli_fields_interlaced) when the chain
 * holds a spatial filter. Returns 0, or AVERROR(EINVAL) with err set:
 * "blur cannot filter interlaced video (field order tt): ...". Call it for
 * every decoded frame; frames may turn interlaced mid-stream. */
int cli_fields_check(const cli_vf *vf, const AVFrame *frame, enum AVFieldOrder stream_order,
                     cli_err *err);

/* The field order the encoder of codec `id` is given for interlaced input:
 * the input stream's when it has one, else from the first frame's
 * top_field_first as FFmpeg's own tool sets it (TB/BT for interlaced coding,
 * TT/BB for MJPEG). AV_FIELD_PROGRESSIVE for progressive input. */
enum AVFieldOrder cli_fields_output_order(const AVFrame *first, enum AVFieldOrder stream_order,
                                          enum AVCodecID id);

#endif
