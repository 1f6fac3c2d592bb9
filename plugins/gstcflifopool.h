/* cudafilters GStreamer plugin: a GstVideoBufferPool that hands out the
 * buffer released last (a stack) instead of the one released first.
 *
 * A pool holds more buffers than are in use at once (ours make 2 x
 * frames-in-flight + 2 up front). GstBufferPool's queue cycles through all
 * of them, so a source writes each frame into memory it last touched many
 * frames ago, out of the CPU's caches: on the H200 host a plain `queue
 * max-size-buffers=10` after videotestsrc alone adds 0.32 ms a 1080p RGBA
 * frame (bench/results/2026-12-01-h200-s16-3-release-at-submit.log). A
 * stack reuses the few buffers that are cycling, while the others wait.
 * Otherwise as GstVideoBufferPool: configure it the same way; released
 * buffers whose memory was replaced or shared are freed, as there. */
#ifndef GST_CF_LIFO_POOL_H
#define GST_CF_LIFO_POOL_H

#include <gst/video/video.h>

G_BEGIN_DECLS

/* A new (floating reference sunk, so owned by the caller) unconfigured
 * pool. Thread-safe as any GstBufferPool. */
GstBufferPool *gst_cf_lifo_video_pool_new (void);

G_END_DECLS

#endif
