/* cudafilters tool: the conversion the planner appends to the chain.
 *
 * When the frames the chain makes (or the decoder's, with no --vf) are not
 * in a format the encoder takes, the planner appends our `convert` filter
 * as the chain's last step (the tail), so the conversion runs where the
 * chain runs: on the GPU for frames there (NVDEC, or a --vf chain on the
 * GPU), downloaded once after it; on the CPU for frames that stay there
 * (the same integer code, so CPU and GPU results are identical).
 * libswscale (convert.h) is left for the pairs convert does not cover:
 * formats outside our table (4:2:2, 4:4:4, PAL8...). */
#ifndef CLI_VF_TAIL_H
#define CLI_VF_TAIL_H

#include <stdbool.h>

#include <cudafilters/cudafilters.h>
#include <libavcodec/avcodec.h>

#include "util.h"
#include "vfilter.h"

/* True if our convert filter takes `from` and makes `to` (from its
 * descriptor; false for CF_FORMAT_UNKNOWN and for from == to). */
bool cli_vf_tail_covers(cf_format from, cf_format to);

/* The format the tail should make for `codec` from `from`: of the host
 * formats the encoder takes (cli_encoder_formats: no YUVJ) and convert
 * makes from `from`, the one libavcodec ranks best for a `from` frame
 * (avcodec_find_best_pix_fmt_of_list: least loss, e.g. RGBA -> YUV420P for
 * libx264, GRAY8 -> YUV420P for mpeg4). CF_FORMAT_UNKNOWN when there is
 * none (the caller converts with libswscale). */
cf_format cli_vf_tail_target(const AVCodec *codec, cf_format from);

/* Makes the tail convert the chain's planned output (the planned input
 * with no --vf: call cli_vf_plan() first) to `to`, replacing any tail
 * there was; CF_FORMAT_UNKNOWN removes it. The tail's colour and range are
 * the stream's (cli_vf_apply_stream: a YUV output made from RGB or gray is
 * limited range, as libswscale makes it). Destroys the scheduler, which
 * may run the old tail (call with no frames in flight); the next
 * cli_vf_start() makes one with the new steps. Returns 0, or a negative
 * AVERROR with err set (out of memory, or a pair cli_vf_tail_covers()
 * refuses). */
int cli_vf_set_tail(cli_vf *vf, cf_format to, cli_err *err);

#endif
