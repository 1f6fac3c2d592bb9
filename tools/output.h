/* cudafilters tool: encoding the video, copying the other streams, muxing.
 *
 * The file is written under a temporary name beside the output (OUT.part-PID)
 * and renamed to OUT only when everything succeeded; cli_output_close()
 * removes it otherwise, so a failed job leaves no partial file.
 * Timestamps: the encoder works in the input video stream's time base and
 * gets the decoded frames' pts unchanged; each packet gets back the duration
 * of the frame it came from; copied packets are only rescaled to their output
 * stream's time base (and, where the input's go back or repeat, moved just
 * past the previous packet, as FFmpeg's stream copy does, and counted).
 * Nothing is rescaled when the muxer keeps the time base
 * (MKV with 1/1000, MP4 with any), so timestamps come out exactly as they
 * went in. */
#ifndef CLI_OUTPUT_H
#define CLI_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

#include "util.h"

typedef struct cli_output {
    AVFormatContext *mux;
    char *path, *tmp;         /* final and temporary file names */
    int *map;                 /* input stream index -> output index, -1: not copied */
    AVRational *in_tb;        /* time base of each input stream */
    int n_in;
    int video_in, video_out;
    AVCodecContext *enc;
    bool replace;             /* the final rename may replace an existing output
                               * (--overwrite); false after open: it refuses */
    bool header, done;
    GQueue pending;           /* copied packets held until the header is written */
    size_t pending_bytes;
    GHashTable *durations;    /* pts -> duration of frames inside the encoder */
    AVPacket *pkt;
    int64_t frames_encoded, packets_written;
    int64_t *last_dts;        /* per output stream, in its time base, for copied packets */
    int64_t timestamps_fixed; /* copied packets whose dts had to be made increasing */
    int copied, dropped;      /* streams copied / left out (the muxer cannot hold them) */
    char dropped_names[256];
} cli_output;

/* The temporary name that process `pid` writes `path` under: PATH.part-PID,
 * with the name's start kept (not the whole of it) where the whole would
 * pass the 255 bytes a file name can have (an output name of 250 bytes
 * failed with "File name too long"). g_free it. */
char *cli_output_tmp_name(const char *path, int pid);

/* Sets up the muxer for `path` (format from its extension) and one output
 * stream per input stream that is copied. Nothing is written yet except the
 * empty temporary file. Returns 0 or a negative AVERROR with err set. */
int cli_output_open(cli_output *o, const char *path, const AVFormatContext *in, int video_in,
                    const AVIOInterruptCB *interrupt, cli_err *err);

/* What the video encoder gets, from the first filtered frame. */
typedef struct cli_enc_params {
    const AVFrame *frame;     /* size, pixel format, aspect, colour */
    AVRational time_base;     /* the input video stream's */
    AVRational frame_rate;    /* nominal, for rate control; may be 0/1 */
    enum AVFieldOrder field_order; /* interlaced output: coded as fields, in this order */
    int quality;              /* --quality, or -1 */
    AVBufferRef *hw_frames;   /* CUDA frame pool when giving NVENC device frames */
} cli_enc_params;

/* Opens `codec` for the video stream. On failure the encoder is freed again
 * (the caller may try another) and err says why. */
int cli_output_open_encoder(cli_output *o, const AVCodec *codec, const cli_enc_params *p,
                            cli_err *err);

/* Writes the header and the packets held back so far. */
int cli_output_start(cli_output *o, cli_err *err);

/* Copies a packet of input stream pkt->stream_index (dropped if that stream
 * is not copied); held back until cli_output_start(). Takes the packet's
 * reference. */
int cli_output_copy(cli_output *o, AVPacket *pkt, cli_err *err);

/* Encodes a frame (pts and pkt_duration in the input video time base). */
int cli_output_encode(cli_output *o, const AVFrame *frame, cli_err *err);

/* Drains the encoder, writes the trailer and renames the temporary file to
 * the output name. */
int cli_output_finish(cli_output *o, cli_err *err);

/* Frees everything; removes the temporary file unless finish succeeded. */
void cli_output_close(cli_output *o);

#endif
