/* cudafilters tool: demuxing and video decoding of one input file.
 *
 * Damage is counted, not hidden: packets the demuxer marks corrupt, decoder
 * errors and frames flagged as damaged. With max_errors 0 (the default) the
 * decoder runs with AV_EF_EXPLODE, so it reports damage instead of
 * concealing it, and decoding stops at the first damage: libavcodec is not
 * called again after an exploded error (some decoders then hit internal
 * assertions). With a tolerance, decoders conceal damage as players do and
 * the file fails once the count exceeds it. Decoders run slice-threaded
 * only (no frame threads) while they explode. The set-up of every copied
 * audio and subtitle stream is checked by opening its decoder once. After
 * the last packet, cli_input_check_complete() compares what was read with
 * what the header and index promised, which catches truncated files that
 * end cleanly at a packet boundary and frames lost or repeated inside. */
#ifndef CLI_INPUT_H
#define CLI_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

#include "util.h"

typedef struct cli_input {
    AVFormatContext *fmt;
    int video;                /* index of the video stream transcoded */
    AVCodecContext *dec;
    bool hw_offered;          /* the decoder was given FFmpeg's CUDA device */
    int64_t video_packets;    /* video packets read */
    int64_t indexed;          /* video frames in the demuxer's index at the start */
    int max_errors;           /* damage tolerated before reading/decoding fails */
    int64_t errors;           /* corrupt packets + decode errors + damaged frames */
    int64_t end_us;           /* latest packet end seen, microseconds from start */
    int64_t video_end;        /* latest video packet end, in its stream's time base
                                 from its start */
    char first_error[256];    /* the first damage seen, for the message */
} cli_input;

/* Opens `path`, finds its video stream and opens a decoder for it
 * (tolerating `max_errors` damaged packets or frames); with
 * `hw_device` (FFmpeg CUDA device) the decoder decodes on NVDEC where the
 * codec and profile allow (else libavcodec falls back to software).
 * `interrupt` bounds blocking reads. Returns 0 or a negative AVERROR with
 * err set (no video stream, unknown codec, ...). */
int cli_input_open(cli_input *in, const char *path, AVBufferRef *hw_device, int max_errors,
                   const AVIOInterruptCB *interrupt, cli_err *err);

/* Next packet of any stream into pkt (unref'd first). Returns 0,
 * AVERROR_EOF at the end, or another negative AVERROR with err set:
 * AVERROR_INVALIDDATA once the damage exceeds max_errors, and for a packet
 * cut short by the end of the file, whatever max_errors ("truncated: the
 * file ends inside video frame 41 of 100, at 4.00 s"). */
int cli_input_read(cli_input *in, AVPacket *pkt, cli_err *err);

/* Sends a video packet (NULL: end of stream, to drain the decoder) and
 * counts a decoder error as damage. Returns 0, or a negative AVERROR with
 * err set (AVERROR_INVALIDDATA: damage beyond max_errors). */
int cli_input_send(cli_input *in, const AVPacket *pkt, cli_err *err);

/* Next decoded frame: 0 with a frame, AVERROR(EAGAIN) when the decoder needs
 * a packet, AVERROR_EOF when drained, other negative AVERROR on failure. */
int cli_input_receive(cli_input *in, AVFrame *frame, cli_err *err);

/* Checks, after the last packet, that the file held what its header
 * promised: data up to the duration it states, no more video frames than it
 * lists, every frame its index lists (frames missing or repeated count as
 * damage, see max_errors). Returns 0 or AVERROR_INVALIDDATA with err set
 * ("truncated: ...", "corrupt data: ..."). */
int cli_input_check_complete(cli_input *in, cli_err *err);

/* Total video frames expected, from the header, or 0 if unknown. */
int64_t cli_input_expected_frames(const cli_input *in);

void cli_input_close(cli_input *in);

#endif
