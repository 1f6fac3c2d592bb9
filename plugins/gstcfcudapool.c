/* cudafilters GStreamer plugin: buffer pools of GstCudaMemory.
 *
 * libgstcuda 1.22's allocator lays out planes only for the formats its own
 * elements use and hits g_assert_not_reached() (aborting the process) for
 * any other, GRAY8 among them; and for I420 of odd height it places the V
 * plane one row into the U plane (offset by height / 2 rows, rounded
 * down). Where either bites, this file's pool allocates the same kind of
 * pitched GstCudaMemory as a stand-in RGBA image tall enough for every
 * plane, and describes the real format and plane layout in the buffer's
 * GstVideoMeta. Readers map CUDA frames through that meta, so the stand-in
 * never shows. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfcudapool.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

#define GST_TYPE_CF_CUDA_POOL (gst_cf_cuda_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCfCudaPool, gst_cf_cuda_pool, GST, CF_CUDA_POOL, GstBufferPool)

struct _GstCfCudaPool
{
  GstBufferPool parent;
  GstCudaContext *context;
  GstCudaAllocator *allocator;
  GstVideoInfo info;       /* what the buffers hold */
  GstVideoInfo alloc_info; /* what the allocator is asked for */
};

G_DEFINE_TYPE (GstCfCudaPool, gst_cf_cuda_pool, GST_TYPE_BUFFER_POOL);

/* Formats of ours whose layout the 1.22 allocator knows (the switch in
 * gst_cuda_allocator_alloc; checked in Debian's libgstcuda-1.0 1.22.0).
 * Newer releases know more; listing too few only sends a format through
 * the stand-in pool, which works for every format. */
static gboolean
allocator_knows (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
      return TRUE;
    default:
      return FALSE;
  }
}

/* Rows of plane @plane of @info (subsampled planes round up). */
static guint
plane_height (const GstVideoInfo * info, guint plane)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  gst_video_format_info_component (info->finfo, plane, comp);
  return (guint) GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
}

/* An RGBA image whose rows hold a row of any plane of @info and whose
 * height is that of all its planes stacked. */
static gboolean
stand_in_info (const GstVideoInfo * info, GstVideoInfo * alloc_info)
{
  guint row_bytes = 0, rows = 0;

  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    row_bytes = MAX (row_bytes, (guint) GST_VIDEO_INFO_PLANE_STRIDE (info, p));
    rows += plane_height (info, p);
  }
  return gst_video_info_set_format (alloc_info, GST_VIDEO_FORMAT_RGBA, (row_bytes + 3) / 4,
      rows);
}

/* Whether GstCudaBufferPool gets @info wrong in this release. */
static gboolean
needs_stand_in (const GstVideoInfo * info)
{
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (info);

  return !allocator_knows (format)
      || (format == GST_VIDEO_FORMAT_I420 && GST_VIDEO_INFO_HEIGHT (info) % 2 == 1);
}

static const gchar **
gst_cf_cuda_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  (void) pool;
  return options;
}

static gboolean
gst_cf_cuda_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstCfCudaPool *self = GST_CF_CUDA_POOL (pool);
  GstCaps *caps = NULL;
  guint size, min, max;
  GstMemory *mem;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max) || !caps
      || !gst_video_info_from_caps (&self->info, caps)
      || !stand_in_info (&self->info, &self->alloc_info)) {
    GST_WARNING_OBJECT (pool, "cannot hold caps %" GST_PTR_FORMAT, caps);
    return FALSE;
  }
  /* The allocator pads rows to the device's pitch: one allocation tells
   * the real buffer size, as GstCudaBufferPool does. */
  mem = gst_cuda_allocator_alloc (self->allocator, self->context, &self->alloc_info);
  if (!mem) {
    GST_WARNING_OBJECT (pool, "CUDA allocation failed");
    return FALSE;
  }
  size = (guint) mem->size;
  gst_memory_unref (mem);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  return GST_BUFFER_POOL_CLASS (gst_cf_cuda_pool_parent_class)->set_config (pool, config);
}

static GstFlowReturn
gst_cf_cuda_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  GstCfCudaPool *self = GST_CF_CUDA_POOL (pool);
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  GstMemory *mem;

  (void) params;
  mem = gst_cuda_allocator_alloc (self->allocator, self->context, &self->alloc_info);
  if (!mem) {
    GST_WARNING_OBJECT (pool, "CUDA allocation failed");
    return GST_FLOW_ERROR;
  }
  /* Every plane takes the allocation's pitch; planes follow each other. */
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&self->info); p++) {
    stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (&GST_CUDA_MEMORY_CAST (mem)->info, 0);
    if (p > 0)
      offset[p] = offset[p - 1] + (gsize) stride[p - 1] * plane_height (&self->info, p - 1);
  }
  *buffer = gst_buffer_new ();
  gst_buffer_append_memory (*buffer, mem);
  gst_buffer_add_video_meta_full (*buffer, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&self->info), GST_VIDEO_INFO_WIDTH (&self->info),
      GST_VIDEO_INFO_HEIGHT (&self->info), GST_VIDEO_INFO_N_PLANES (&self->info), offset,
      stride);
  return GST_FLOW_OK;
}

static void
gst_cf_cuda_pool_dispose (GObject * object)
{
  gst_clear_object (&GST_CF_CUDA_POOL (object)->context);
  gst_clear_object (&GST_CF_CUDA_POOL (object)->allocator);
  G_OBJECT_CLASS (gst_cf_cuda_pool_parent_class)->dispose (object);
}

static void
gst_cf_cuda_pool_class_init (GstCfCudaPoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = gst_cf_cuda_pool_dispose;
  pool_class->get_options = gst_cf_cuda_pool_get_options;
  pool_class->set_config = gst_cf_cuda_pool_set_config;
  pool_class->alloc_buffer = gst_cf_cuda_pool_alloc_buffer;
}

static void
gst_cf_cuda_pool_init (GstCfCudaPool * self)
{
  (void) self;
}

GstBufferPool *
gst_cf_cuda_pool_new (GstCudaContext * context, const GstVideoInfo * info)
{
  GstCfCudaPool *self;

  if (!needs_stand_in (info))
    return gst_cuda_buffer_pool_new (context);
  self = g_object_new (GST_TYPE_CF_CUDA_POOL, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  /* 1.22.0 takes no NULL allocator; gst_cuda_memory_init_once() (called
   * once a GPU is found) registered the library's one. */
  gst_cuda_memory_init_once ();
  self->allocator = (GstCudaAllocator *) gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
  if (!self->allocator) {
    GST_ERROR ("the CUDA allocator is not registered");
    gst_object_unref (self);
    return NULL;
  }
  return GST_BUFFER_POOL_CAST (self);
}

gboolean
gst_cf_cuda_pool_is_usable (GstBufferPool * pool, GstCudaContext * context,
    const GstVideoInfo * info)
{
  if (GST_IS_CF_CUDA_POOL (pool))
    return GST_CF_CUDA_POOL (pool)->context == context;
  /* Configuring a GstCudaBufferPool with a format its allocator does not
   * know aborts the process. */
  return GST_IS_CUDA_BUFFER_POOL (pool) && GST_CUDA_BUFFER_POOL (pool)->context == context
      && !needs_stand_in (info);
}

gboolean
gst_cf_cuda_pool_configure (GstBufferPool * pool, GstCaps * caps, guint min, guint max,
    guint * size)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gboolean ok;

  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_set_params (config, caps, 0, min, max);
  if (!gst_buffer_pool_set_config (pool, config))
    return FALSE;
  /* The pool replaced the size with that of its pitched allocation. */
  config = gst_buffer_pool_get_config (pool);
  ok = gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
  gst_structure_free (config);
  return ok;
}
