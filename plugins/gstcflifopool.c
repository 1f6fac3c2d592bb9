/* cudafilters GStreamer plugin: a buffer pool that hands out the buffer
 * released last (gstcflifopool.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcflifopool.h"

typedef struct
{
  GstVideoBufferPool parent;
  GMutex lock;
  GCond released;               /* a buffer came back (or was freed), or flushing */
  GQueue stack;                 /* GstBuffer *, released last first */
} GstCfLifoPool;

typedef struct
{
  GstVideoBufferPoolClass parent_class;
} GstCfLifoPoolClass;

GType gst_cf_lifo_pool_get_type (void);
G_DEFINE_TYPE (GstCfLifoPool, gst_cf_lifo_pool, GST_TYPE_VIDEO_BUFFER_POOL);

static GstFlowReturn
lifo_acquire (GstBufferPool * pool, GstBuffer ** buffer, GstBufferPoolAcquireParams * params)
{
  GstCfLifoPool *self = (GstCfLifoPool *) pool;
  GstBufferPoolAcquireParams dontwait = { 0 };
  GstFlowReturn ret;

  if (params)
    dontwait = *params;
  dontwait.flags |= GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
  g_mutex_lock (&self->lock);
  for (;;) {
    /* As GstBufferPool's own acquire: nothing while inactive or flushing. */
    if (GST_BUFFER_POOL_IS_FLUSHING (pool)) {
      ret = GST_FLOW_FLUSHING;
      break;
    }
    if ((*buffer = g_queue_pop_head (&self->stack))) {
      ret = GST_FLOW_OK;
      break;
    }
    /* None kept: the parent makes one, unless the pool is at its maximum
     * (EOS). It must not wait itself: released buffers come to the stack,
     * not to its queue, so nothing would wake it. */
    g_mutex_unlock (&self->lock);
    ret = GST_BUFFER_POOL_CLASS (gst_cf_lifo_pool_parent_class)->acquire_buffer (pool, buffer,
        &dontwait);
    g_mutex_lock (&self->lock);
    if (ret != GST_FLOW_EOS || (params && (params->flags & GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT)))
      break;
    /* At the maximum: wait for one to come back. */
    while (g_queue_is_empty (&self->stack) && !GST_BUFFER_POOL_IS_FLUSHING (pool))
      g_cond_wait (&self->released, &self->lock);
  }
  g_mutex_unlock (&self->lock);
  return ret;
}

static void
lifo_release (GstBufferPool * pool, GstBuffer * buffer)
{
  GstCfLifoPool *self = (GstCfLifoPool *) pool;

  /* What GstBufferPool's own release frees rather than keeps: memory
   * replaced or shared (a tagged or non-writable buffer). The pool is then
   * one below its count, so a waiter may make a new one. */
  if (GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_TAG_MEMORY)
      || !gst_buffer_is_all_memory_writable (buffer)) {
    GST_BUFFER_POOL_CLASS (gst_cf_lifo_pool_parent_class)->release_buffer (pool, buffer);
    g_mutex_lock (&self->lock);
  } else {
    g_mutex_lock (&self->lock);
    g_queue_push_head (&self->stack, buffer);
  }
  g_cond_signal (&self->released);
  g_mutex_unlock (&self->lock);
}

static void
lifo_flush_start (GstBufferPool * pool)
{
  GstCfLifoPool *self = (GstCfLifoPool *) pool;

  g_mutex_lock (&self->lock);
  g_cond_broadcast (&self->released);
  g_mutex_unlock (&self->lock);
  if (GST_BUFFER_POOL_CLASS (gst_cf_lifo_pool_parent_class)->flush_start)
    GST_BUFFER_POOL_CLASS (gst_cf_lifo_pool_parent_class)->flush_start (pool);
}

static gboolean
lifo_stop (GstBufferPool * pool)
{
  GstCfLifoPool *self = (GstCfLifoPool *) pool;
  GstBuffer *buffer;

  /* Back to the parent's queue, whose stop frees them and counts them. */
  g_mutex_lock (&self->lock);
  while ((buffer = g_queue_pop_head (&self->stack)))
    GST_BUFFER_POOL_CLASS (gst_cf_lifo_pool_parent_class)->release_buffer (pool, buffer);
  g_mutex_unlock (&self->lock);
  return GST_BUFFER_POOL_CLASS (gst_cf_lifo_pool_parent_class)->stop (pool);
}

static void
lifo_finalize (GObject * object)
{
  GstCfLifoPool *self = (GstCfLifoPool *) object;

  g_warn_if_fail (g_queue_is_empty (&self->stack));
  g_cond_clear (&self->released);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (gst_cf_lifo_pool_parent_class)->finalize (object);
}

static void
gst_cf_lifo_pool_class_init (GstCfLifoPoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  pool_class->acquire_buffer = lifo_acquire;
  pool_class->release_buffer = lifo_release;
  pool_class->stop = lifo_stop;
  pool_class->flush_start = lifo_flush_start;
  G_OBJECT_CLASS (klass)->finalize = lifo_finalize;
}

static void
gst_cf_lifo_pool_init (GstCfLifoPool * self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->released);
  g_queue_init (&self->stack);
}

GstBufferPool *
gst_cf_lifo_video_pool_new (void)
{
  GstBufferPool *pool = g_object_new (gst_cf_lifo_pool_get_type (), NULL);

  gst_object_ref_sink (pool);
  return pool;
}
