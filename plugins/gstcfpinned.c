/* cudafilters GStreamer plugin: page-locked (pinned) host memory. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/cuda/gstcudautils.h>

#include <cudafilters/cudafilters.h>

#include "gstcfpinned.h"
#include "gstcflifopool.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

typedef struct
{
  GstAllocator parent;
  GstCudaContext *context;
} GstCfPinnedAllocator;

typedef struct
{
  GstAllocatorClass parent_class;
} GstCfPinnedAllocatorClass;

/* One pinned allocation, shared by sub-memories (gst_memory_share). */
typedef struct
{
  GstMemory mem;
  guint8 *data;        /* start of the allocation, maxsize bytes */
} GstCfPinnedMemory;

GType gst_cf_pinned_allocator_get_type (void);
G_DEFINE_TYPE (GstCfPinnedAllocator, gst_cf_pinned_allocator, GST_TYPE_ALLOCATOR);

static GstMemory *
pinned_alloc (GstAllocator * allocator, gsize size, GstAllocationParams * params)
{
  GstCfPinnedAllocator *self = (GstCfPinnedAllocator *) allocator;
  gsize maxsize = size + params->prefix + params->padding;
  GstCfPinnedMemory *mem;
  void *data = NULL;
  cf_status status = CF_ERROR_CUDA;

  /* cudaMallocHost memory is page aligned, more than any align asks. */
  if (gst_cuda_context_push (self->context)) {
    status = cf_host_alloc_pinned (&data, maxsize);
    gst_cuda_context_pop (NULL);
  }
  if (status != CF_OK) {
    GST_WARNING_OBJECT (self, "cannot allocate %" G_GSIZE_FORMAT " bytes of pinned memory: %s",
        maxsize, cf_last_error ());
    return NULL;
  }
  mem = g_new0 (GstCfPinnedMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (mem), params->flags, allocator, NULL, maxsize, 0,
      params->prefix, size);
  mem->data = data;
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED) && params->prefix)
    memset (mem->data, 0, params->prefix);
  if ((params->flags & GST_MEMORY_FLAG_ZERO_PADDED) && params->padding)
    memset (mem->data + params->prefix + size, 0, params->padding);
  return GST_MEMORY_CAST (mem);
}

static void
pinned_free (GstAllocator * allocator, GstMemory * memory)
{
  GstCfPinnedAllocator *self = (GstCfPinnedAllocator *) allocator;
  GstCfPinnedMemory *mem = (GstCfPinnedMemory *) memory;

  /* Shared sub-memories point into their parent's allocation. */
  if (!memory->parent) {
    if (gst_cuda_context_push (self->context)) {
      cf_host_free_pinned (mem->data);
      gst_cuda_context_pop (NULL);
    } else {
      GST_ERROR_OBJECT (self, "cannot push the CUDA context: pinned memory leaked");
    }
  }
  g_free (mem);
}

static gpointer
pinned_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  (void) maxsize;
  (void) flags;
  return ((GstCfPinnedMemory *) memory)->data;
}

static void
pinned_unmap (GstMemory * memory)
{
  (void) memory;
}

static GstMemory *
pinned_share (GstMemory * memory, gssize offset, gssize size)
{
  GstCfPinnedMemory *mem = (GstCfPinnedMemory *) memory, *sub;
  GstMemory *parent = memory->parent ? memory->parent : memory;

  if (size == -1)
    size = (gssize) memory->size - offset;
  sub = g_new0 (GstCfPinnedMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY, memory->allocator,
      parent, memory->maxsize, memory->align, memory->offset + (gsize) offset, (gsize) size);
  sub->data = mem->data;
  return GST_MEMORY_CAST (sub);
}

static void
gst_cf_pinned_allocator_finalize (GObject * object)
{
  gst_clear_object (&((GstCfPinnedAllocator *) object)->context);
  G_OBJECT_CLASS (gst_cf_pinned_allocator_parent_class)->finalize (object);
}

static void
gst_cf_pinned_allocator_class_init (GstCfPinnedAllocatorClass * klass)
{
  GST_ALLOCATOR_CLASS (klass)->alloc = pinned_alloc;
  GST_ALLOCATOR_CLASS (klass)->free = pinned_free;
  G_OBJECT_CLASS (klass)->finalize = gst_cf_pinned_allocator_finalize;
}

static void
gst_cf_pinned_allocator_init (GstCfPinnedAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = GST_CF_PINNED_MEMORY_TYPE;
  allocator->mem_map = pinned_map;
  allocator->mem_unmap = pinned_unmap;
  allocator->mem_share = pinned_share;
  /* gst_memory_copy() of our memory then takes system memory rather than a
   * page-locked allocation per copy. */
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_cf_pinned_allocator_new (GstCudaContext * context)
{
  GstCfPinnedAllocator *self = g_object_new (gst_cf_pinned_allocator_get_type (), NULL);

  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);
  return GST_ALLOCATOR_CAST (self);
}

gboolean
gst_cf_is_pinned_memory (GstMemory * mem)
{
  return mem && mem->allocator
      && G_TYPE_CHECK_INSTANCE_TYPE (mem->allocator, gst_cf_pinned_allocator_get_type ());
}

GstBufferPool *
gst_cf_pinned_pool_new (GstCudaContext * context, GstCaps * caps, guint min, guint max,
    guint * size)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstAllocator *allocator;
  GstVideoInfo info;
  gboolean ok;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;
  pool = gst_cf_lifo_video_pool_new ();
  allocator = gst_cf_pinned_allocator_new (context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, (guint) GST_VIDEO_INFO_SIZE (&info), min, max);
  gst_buffer_pool_config_set_allocator (config, allocator, NULL);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_object_unref (allocator);
  ok = gst_buffer_pool_set_config (pool, config);
  if (ok) {
    config = gst_buffer_pool_get_config (pool);
    ok = gst_buffer_pool_config_get_params (config, NULL, size, NULL, NULL);
    gst_structure_free (config);
  }
  if (!ok)
    gst_clear_object (&pool);
  return pool;
}

gboolean
gst_cf_pool_is_plain (GstBufferPool * pool)
{
  GType type = G_OBJECT_TYPE (pool);
  GstStructure *config;
  GstAllocator *allocator = NULL;
  gboolean plain;

  if (type != GST_TYPE_BUFFER_POOL && type != GST_TYPE_VIDEO_BUFFER_POOL)
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  plain = !gst_buffer_pool_config_get_allocator (config, &allocator, NULL) || !allocator
      || g_strcmp0 (allocator->mem_type, GST_ALLOCATOR_SYSMEM) == 0;
  gst_structure_free (config);
  return plain;
}
