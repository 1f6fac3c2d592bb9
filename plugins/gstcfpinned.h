/* cudafilters GStreamer plugin: page-locked (pinned) host memory.
 *
 * Copies between the GPU and pinned host memory run at the PCIe limit and
 * asynchronously; from ordinary (pageable) memory the driver stages them
 * through a bounce buffer at about a third of that speed (see
 * ../shared/device/README.md for the figures on the H200 host). cudaupload
 * offers a pool of these buffers upstream and cudadownload writes into one,
 * so a source that fills the buffers it is given gets the fast path. */
#ifndef GST_CF_PINNED_H
#define GST_CF_PINNED_H

#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* GstMemory mem_type of pinned memory from this allocator. */
#define GST_CF_PINNED_MEMORY_TYPE "cudafilters.PinnedMemory"

/* A new allocator of pinned host memory, made page-locked in @context's
 * device (cudaMallocHost with @context current); each memory keeps the
 * allocator, and through it @context, alive until it is freed, since
 * pinned memory belongs to the context that made it. Memory maps for
 * reading and writing like system memory. */
GstAllocator *gst_cf_pinned_allocator_new (GstCudaContext * context);

/* TRUE if @mem is pinned memory from gst_cf_pinned_allocator_new(). */
gboolean gst_cf_is_pinned_memory (GstMemory * mem);

/* A configured (not active) GstVideoBufferPool of pinned buffers, handing
 * out the one released last (gstcflifopool.h), for
 * @caps (system-memory video caps) with GstVideoMeta, @min..@max buffers
 * (0 = unlimited); *@size is the buffer size in bytes. NULL if the caps
 * are not video caps or the pool refuses the configuration. */
GstBufferPool *gst_cf_pinned_pool_new (GstCudaContext * context, GstCaps * caps, guint min,
    guint max, guint * size);

/* TRUE if @pool is a pool we may replace with a pinned one: a plain
 * system-memory pool (GstBufferPool or GstVideoBufferPool, not a
 * subclass that allocates something special such as a display's memory)
 * with no allocator of its own. */
gboolean gst_cf_pool_is_plain (GstBufferPool * pool);

G_END_DECLS

#endif
