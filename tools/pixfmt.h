/* cudafilters tool: the one table between FFmpeg pixel formats and ours. */
#ifndef CLI_PIXFMT_H
#define CLI_PIXFMT_H

#include <stdbool.h>

#include <cudafilters/cudafilters.h>
#include <libavutil/frame.h>
#include <libavutil/pixfmt.h>

/* Our format for an FFmpeg pixel format, or CF_FORMAT_UNKNOWN. *full_range
 * (may be NULL) is set for formats that imply full range (YUVJ420P). */
cf_format cli_format_from_av(enum AVPixelFormat fmt, bool *full_range);

/* The FFmpeg pixel format for one of ours (I420: YUV420P), or AV_PIX_FMT_NONE. */
enum AVPixelFormat cli_format_to_av(cf_format fmt);

/* The table format that `fmt` converts to with the least loss (for decoder
 * output our filters do not take, e.g. YUV422P -> YUV420P). */
enum AVPixelFormat cli_format_nearest(enum AVPixelFormat fmt);

/* True if the frame's colour range is full (JPEG) range: from its
 * color_range, or from a YUVJ pixel format. Unspecified counts as limited,
 * as it does for every video decoder and player. */
bool cli_frame_full_range(const AVFrame *frame, enum AVPixelFormat sw_format);

/* Wraps an AVFrame's planes (host or CUDA device pointers) as a cf_frame of
 * format `fmt` without copying: data[] and pitch = linesize. Fails (false)
 * for negative linesizes (bottom-up images), which cf_frame cannot express. */
bool cli_frame_wrap(const AVFrame *frame, cf_format fmt, cf_memory memory, int device,
                    cf_frame *out);

#endif
