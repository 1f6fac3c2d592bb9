/* cudafilters GStreamer plugin: GstBuffers as cf_frames.
 *
 * Maps a video buffer for the core: system memory as host planes (pinned
 * when it comes from our pinned allocator), GstCudaMemory as device planes
 * (GST_MAP_CUDA), with the plane layout the buffer really has (its
 * GstVideoMeta, or the layout a GstCudaMemory records). */
#ifndef GST_CF_FRAME_H
#define GST_CF_FRAME_H

#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include <cudafilters/cudafilters.h>

G_BEGIN_DECLS

/* Maps @buffer into @frame for @flags (GST_MAP_READ or GST_MAP_WRITE) with
 * the caps' @caps_info; @cuda when the caps are memory:CUDAMemory, whose
 * memory must then be CUDA memory reachable from @context. FALSE after
 * posting an element error on @element that says why. */
gboolean gst_cf_frame_map (GstElement * element, GstCudaContext * context, GstVideoFrame * frame,
    GstBuffer * buffer, const GstVideoInfo * caps_info, gboolean cuda, GstMapFlags flags);

/* The planes of a mapped @frame as a cf_frame of @format: device memory of
 * CUDA ordinal @device when @cuda, else host memory (pinned when every
 * memory of the buffer is our pinned memory). */
void gst_cf_frame_to_cf (const GstVideoFrame * frame, cf_format format, gboolean cuda,
    gint device, cf_frame * out);

G_END_DECLS

#endif
