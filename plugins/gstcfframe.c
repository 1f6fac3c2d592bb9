/* cudafilters GStreamer plugin: GstBuffers as cf_frames (gstcfframe.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/cuda/gstcudamemory.h>

#include "gstcfframe.h"
#include "gstcfpinned.h"

/* A CUDA buffer must hold GstCudaMemory that our context can reach, or
 * its "device pointers" would be host pointers or another context's. */
static gboolean
check_cuda_buffer (GstElement * self, GstCudaContext * context, GstBuffer * buffer)
{
  for (guint i = 0; i < gst_buffer_n_memory (buffer); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    if (!gst_is_cuda_memory (mem)) {
      GST_ELEMENT_ERROR (self, STREAM, FAILED,
          ("A buffer with memory:CUDAMemory caps holds memory that is not CUDA memory."),
          (NULL));
      return FALSE;
    }
    if (GST_CUDA_MEMORY_CAST (mem)->context != context
        && !gst_cuda_context_can_access_peer (context, GST_CUDA_MEMORY_CAST (mem)->context)) {
      GST_ELEMENT_ERROR (self, STREAM, FAILED,
          ("CUDA memory from another CUDA context that this one cannot access."), (NULL));
      return FALSE;
    }
  }
  return TRUE;
}

/* The plane layout of @buffer: its GstVideoMeta when it has one (the
 * frame map uses it), else the layout a single GstCudaMemory records, else
 * the default layout of the caps. */
static void
buffer_layout (GstBuffer * buffer, gboolean cuda, GstVideoInfo * info)
{
  GstCudaMemory *mem;

  if (!cuda || gst_buffer_get_video_meta (buffer) || gst_buffer_n_memory (buffer) != 1)
    return;
  mem = GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory (buffer, 0));
  if (GST_VIDEO_INFO_FORMAT (&mem->info) != GST_VIDEO_INFO_FORMAT (info))
    return;
  memcpy (info->offset, mem->info.offset, sizeof info->offset);
  memcpy (info->stride, mem->info.stride, sizeof info->stride);
}

gboolean
gst_cf_frame_map (GstElement * self, GstCudaContext * context, GstVideoFrame * frame,
    GstBuffer * buffer, const GstVideoInfo * caps_info, gboolean cuda, GstMapFlags flags)
{
  GstVideoInfo info = *caps_info;

  if (cuda && !check_cuda_buffer (self, context, buffer))
    return FALSE;
  buffer_layout (buffer, cuda, &info);
  /* With GST_MAP_CUDA, GstCudaMemory maps to its device pointer (after
   * uploading any pending CPU writes), so the planes are device pointers. */
  if (!gst_video_frame_map (frame, &info, buffer, flags | (cuda ? GST_MAP_CUDA : 0))) {
    /* Most often a buffer smaller than its caps say (strides without
     * GStreamer's padding and no GstVideoMeta): say both sizes. */
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Cannot map a %s video frame: the buffer holds %" G_GSIZE_FORMAT " bytes, %s %s "
            "%dx%d needs %" G_GSIZE_FORMAT " with the strides it uses.",
            cuda ? "CUDA" : "system memory", gst_buffer_get_size (buffer),
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&info)),
            gst_buffer_get_video_meta (buffer) ? "(GstVideoMeta)" : "(default strides)",
            GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info),
            GST_VIDEO_INFO_SIZE (&info)), (NULL));
    return FALSE;
  }
  return TRUE;
}

/* TRUE if every memory of @buffer is our pinned memory. */
static gboolean
is_pinned (GstBuffer * buffer)
{
  guint n = gst_buffer_n_memory (buffer);

  for (guint i = 0; i < n; i++)
    if (!gst_cf_is_pinned_memory (gst_buffer_peek_memory (buffer, i)))
      return FALSE;
  return n > 0;
}

void
gst_cf_frame_to_cf (const GstVideoFrame * frame, cf_format format, gboolean cuda, gint device,
    cf_frame * out)
{
  memset (out, 0, sizeof *out);
  out->format = format;
  out->width = GST_VIDEO_FRAME_WIDTH (frame);
  out->height = GST_VIDEO_FRAME_HEIGHT (frame);
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame) && p < CF_MAX_PLANES; p++) {
    out->data[p] = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    out->pitch[p] = (size_t) GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
  }
  out->memory = cuda ? CF_MEMORY_DEVICE
      : is_pinned (frame->buffer) ? CF_MEMORY_PINNED_HOST : CF_MEMORY_HOST;
  out->device = cuda ? device : -1;
}

