/* cudafilters GStreamer plugin: buffer pools of GstCudaMemory. */
#ifndef GST_CF_CUDA_POOL_H
#define GST_CF_CUDA_POOL_H

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* A new, unconfigured pool of GstCudaMemory buffers of @info in @context,
 * each with a GstVideoMeta giving the real plane layout. It is a
 * GstCudaBufferPool where libgstcuda's allocator gets @info right; else
 * (GRAY8, odd-height I420 in 1.22) a pool of our own that allocates the
 * same memory as a stand-in RGBA image and lays the planes out itself. */
GstBufferPool *gst_cf_cuda_pool_new (GstCudaContext * context, const GstVideoInfo * info);

/* TRUE if @pool (e.g. one proposed by a downstream element) gives CUDA
 * buffers of @info in @context and can be configured for it safely. */
gboolean gst_cf_cuda_pool_is_usable (GstBufferPool * pool, GstCudaContext * context,
    const GstVideoInfo * info);

/* Configures @pool for @caps with GstVideoMeta, @min..@max buffers, and
 * returns the buffer size the pool settled on in *@size. */
gboolean gst_cf_cuda_pool_configure (GstBufferPool * pool, GstCaps * caps, guint min,
    guint max, guint * size);

G_END_DECLS

#endif
