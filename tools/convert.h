/* cudafilters tool: frame conversions outside our filters.
 *
 * libswscale converts where our filters cannot: decoder output in a format
 * our filters do not take (YUV422P, YUV444P, PAL8...), and filter output an
 * encoder does not take (GRAY8 for mpeg4). CUDA frames are downloaded first. */
#ifndef CLI_CONVERT_H
#define CLI_CONVERT_H

#include <stdbool.h>

#include <libavutil/frame.h>

#include "util.h"

typedef struct cli_convert {
    struct SwsContext *sws;
    int conversions; /* frames converted with swscale */
} cli_convert;

/* Makes *frame a host frame of format `fmt` and size w x h: a CUDA frame is
 * downloaded, then swscale converts format and size if they differ. The old
 * frame is freed when replaced; properties (pts, colour) are kept, the range
 * becomes full for RGB and gray targets and stays as it was for YUV ones;
 * YUV made from RGB or gray is BT.601 (limited range) and tagged so.
 * Returns 0 or a negative AVERROR with err set. */
int cli_convert_frame(cli_convert *c, AVFrame **frame, enum AVPixelFormat fmt, int w, int h,
                      cli_err *err);

/* Downloads a CUDA frame into host memory (its sw_format); a no-op for host
 * frames. Same ownership and errors as cli_convert_frame(). */
int cli_convert_download(AVFrame **frame, cli_err *err);

void cli_convert_free(cli_convert *c);

#endif
