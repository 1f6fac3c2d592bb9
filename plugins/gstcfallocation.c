/* cudafilters GStreamer plugin: allocation queries of the base transform.
 *
 * Output in CUDA memory goes into a GstCudaMemory pool (downstream's when it
 * is usable in our context, else ours). System memory we copy to or from
 * the GPU is pinned (gstcfpinned.h): the pool we offer upstream, and our
 * output pool unless downstream brings one of its own kind (a display's).
 * Pools are unbounded, so the frames an element keeps in flight never
 * starve a neighbour; their minimum covers the frames in flight. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfbasetransformpriv.h"
#include "gstcfcudapool.h"
#include "gstcfpending.h"
#include "gstcfpinned.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

/* A configured CUDA pool for @caps: @pool if usable, else a new one. */
static GstBufferPool *
ensure_cuda_pool (GstCfBaseTransform * self, GstBufferPool * pool, GstCaps * caps,
    guint min, guint max, guint * size)
{
  GstCudaContext *context = gst_cf_base_transform_get_priv (self)->context;
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps)) {
    gst_clear_object (&pool);
    return NULL;
  }
  if (pool && (!gst_cf_cuda_pool_is_usable (pool, context, &info)
          || !gst_cf_cuda_pool_configure (pool, caps, min, max, size)))
    gst_clear_object (&pool);
  if (!pool) {
    pool = gst_cf_cuda_pool_new (context, &info);
    if (pool && !gst_cf_cuda_pool_configure (pool, caps, min, max, size))
      gst_clear_object (&pool);
  }
  return pool;
}

/* We carry no metas but the frame layout (GstVideoMeta): drop the others
 * from the decide query, as basetransform does without filter_meta, so
 * upstream is not told downstream handles them (a crop meta would be
 * lost on the way). */
static void
keep_only_video_meta (GstQuery * query)
{
  for (guint i = gst_query_get_n_allocation_metas (query); i > 0; i--) {
    GType api = gst_query_parse_nth_allocation_meta (query, i - 1, NULL);
    if (api != GST_VIDEO_META_API_TYPE && api != GST_CF_PENDING_META_API_TYPE)
      gst_query_remove_nth_allocation_meta (query, i - 1);
  }
}

/* Puts @pool into the decide query: in place of downstream's first pool
 * when it offered one (@have_pool), else as the only one. */
static void
answer_pool (GstQuery * query, gboolean have_pool, GstBufferPool * pool, guint size, guint min,
    guint max)
{
  if (have_pool)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
}

/* System-memory output on a GPU machine (cudadownload, staged filters):
 * written by a copy from the GPU, so into pinned memory unless downstream
 * offers a pool of its own kind (a display's, say), which we keep. Takes
 * @pool. */
static gboolean
decide_system_allocation (GstCfBaseTransform * self, GstQuery * query, GstBufferPool * pool,
    GstCaps * caps, guint size, guint min, guint max)
{
  gboolean have_pool = gst_query_get_n_allocation_pools (query) > 0, configured = FALSE;

  if (!caps) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Allocation query without caps."), (NULL));
    gst_clear_object (&pool);
    return FALSE;
  }
  if (!pool || gst_cf_pool_is_plain (pool)) {
    GstBufferPool *pinned = gst_cf_pinned_pool_new (gst_cf_base_transform_get_priv (self)->context, caps, min, max, &size);
    if (pinned) {
      gst_clear_object (&pool);
      pool = pinned;
      configured = TRUE;
    } else {
      GST_WARNING_OBJECT (self, "no pinned pool for %" GST_PTR_FORMAT, caps);
    }
  }
  if (!pool) {
    GstVideoInfo info;
    if (!gst_video_info_from_caps (&info, caps))
      return FALSE;
    pool = gst_video_buffer_pool_new ();
    size = (guint) GST_VIDEO_INFO_SIZE (&info);
  }
  if (!configured) {
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    if (gst_buffer_pool_has_option (pool, GST_BUFFER_POOL_OPTION_VIDEO_META))
      gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config)) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("Cannot configure the output buffer pool."),
          ("caps %" GST_PTR_FORMAT, caps));
      gst_object_unref (pool);
      return FALSE;
    }
  }
  answer_pool (query, have_pool, pool, size, min, max);
  GST_DEBUG_OBJECT (self, "output pool %" GST_PTR_FORMAT " (%s)", pool,
      G_OBJECT_TYPE_NAME (pool));
  gst_object_unref (pool);
  return TRUE;
}

/* Posts why @pool's buffers could not be allocated: the GPU's free memory
 * against what the pool asked for when it is short, else the plain fact. */
static void
report_pool_failure (GstCfBaseTransform * self, GstBufferPool * pool)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  guint size = 0, min = 0;
  size_t free_bytes = 0, total = 0;
  gint device = gst_cf_base_transform_get_priv (self)->device;
  gdouble need;

  gst_buffer_pool_config_get_params (config, NULL, &size, &min, NULL);
  gst_structure_free (config);
  need = (gdouble) size * MAX (min, 1);
  if (cf_device_query_memory (device, &free_bytes, &total) == CF_OK && free_bytes < need + size)
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("CUDA device %d is out of memory: the output pool needs %u buffers of %.1f MiB, "
            "%.0f MiB of %.0f MiB are free.", device, MAX (min, 1), size / 1048576.0,
            free_bytes / 1048576.0, total / 1048576.0), (NULL));
  else
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Cannot allocate the %u buffers of %.1f MiB of the output pool on CUDA device %d.",
            MAX (min, 1), size / 1048576.0, device), (NULL));
}

gboolean
gst_cf_base_transform_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformPrivate *priv = gst_cf_base_transform_get_priv (self);
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;
  gboolean have_pool = gst_query_get_n_allocation_pools (query) > 0;
  GstCaps *caps = NULL;

  if (!priv->out_cuda && !priv->context)
    return GST_CF_PARENT_CLASS->decide_allocation (trans, query);

  gst_query_parse_allocation (query, &caps, NULL);
  if (have_pool)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  /* Downstream (one of ours) can queue its GPU work behind ours: our
   * outputs then leave as soon as their work is queued. */
  priv->allocation_decided = TRUE;
  priv->downstream_waits = priv->out_cuda && priv->context
      && gst_cf_pending_meta_accepted (query, GST_BASE_TRANSFORM_SRC_PAD (trans));
  GST_DEBUG_OBJECT (self, "downstream %s wait for pending GPU work",
      priv->downstream_waits ? "can" : "cannot");
  keep_only_video_meta (query);
  if (!priv->out_cuda)
    return decide_system_allocation (self, query, pool, caps, size, min, max);
  pool = caps ? ensure_cuda_pool (self, pool, caps, min, max, &size) : NULL;
  if (!pool) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Cannot make a CUDA buffer pool."),
        ("caps %" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  /* Activated here, not by GstBaseTransform after us, so that a GPU too
   * full for the pool's buffers says so rather than "failed to activate
   * bufferpool". */
  if (!gst_buffer_pool_set_active (pool, TRUE)) {
    report_pool_failure (self, pool);
    gst_object_unref (pool);
    return FALSE;
  }
  answer_pool (query, have_pool, pool, size, min, max);
  gst_object_unref (pool);
  return TRUE;
}

gboolean
gst_cf_base_transform_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query,
    GstQuery * query)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCudaContext *context = gst_cf_base_transform_get_priv (self)->context;
  GstCaps *caps = NULL;
  GstBufferPool *pool;
  guint size = 0, min = 0;

  /* In passthrough the query goes on downstream (the parent's default),
   * whose answer stands. */
  if (gst_base_transform_is_passthrough (trans))
    return GST_CF_PARENT_CLASS->propose_allocation (trans, decide_query, query);
  /* Otherwise we answer ourselves: the parent keeps our own decision only
   * sometimes (@decide_query may be NULL after a renegotiation), and
   * without it would forward the query, and with it would copy downstream's
   * metas, which we do not carry. */
  /* We map every frame through GstVideoMeta, so any strides are fine. */
  if (!gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !context)
    return TRUE;
  /* Buffers between upstream and us: up to its frames in flight and ours
   * (both elements hold up to frames-in-flight: an element of ours, or a
   * decoder's few), one being filled and one being pushed. Made when the
   * pool starts, so a steady stream allocates nothing; more come on demand
   * (the pools are unbounded). */
  min = 2 * MAX (gst_cf_base_transform_get_frames_in_flight (self), 1) + 2;
  if (gst_cf_features_are_cuda (gst_caps_get_features (caps, 0))) {
    /* We can wait on the GPU for work still pending on our input. */
    gst_cf_pending_meta_offer (query, GST_BASE_TRANSFORM_SINK_PAD (trans));
    pool = ensure_cuda_pool (self, NULL, caps, min, 0, &size);
  } else {
    /* System memory we copy to the GPU: pinned, so the copy is
     * asynchronous and at full PCIe speed. */
    pool = gst_cf_pinned_pool_new (context, caps, min, 0, &size);
    /* The allocator goes in the answer too: GstBaseSrc's and
     * GstBaseTransform's default decide_allocation set the pool's allocator
     * to the query's first allocation param, and to the default system
     * memory when there is none (videotestsrc rendered into pageable
     * memory through our own pool). */
    if (pool) {
      GstStructure *config = gst_buffer_pool_get_config (pool);
      GstAllocator *allocator = NULL;
      if (gst_buffer_pool_config_get_allocator (config, &allocator, NULL) && allocator)
        gst_query_add_allocation_param (query, allocator, NULL);
      gst_structure_free (config);
    }
  }
  if (pool) {
    gst_query_add_allocation_pool (query, pool, size, min, 0);
    gst_object_unref (pool);
  }
  return TRUE;
}

