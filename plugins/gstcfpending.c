/* cudafilters GStreamer plugin: buffers whose GPU work is still queued
 * (gstcfpending.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfpending.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

struct _GstCfEvent
{
  gint refcount;
  cf_event event;
  GstCudaContext *context;
  guint64 sequence;             /* atomic: records started */
};

GstCfEvent *
gst_cf_event_new (GstCudaContext * context)
{
  GstCfEvent *ev;
  cf_event event = NULL;
  cf_status st;

  if (!gst_cuda_context_push (context))
    return NULL;
  st = cf_event_create (&event);
  gst_cuda_context_pop (NULL);
  if (st != CF_OK)
    return NULL;
  ev = g_new0 (GstCfEvent, 1);
  ev->refcount = 1;
  ev->event = event;
  ev->context = gst_object_ref (context);
  return ev;
}

GstCfEvent *
gst_cf_event_ref (GstCfEvent * event)
{
  g_atomic_int_inc (&event->refcount);
  return event;
}

void
gst_cf_event_unref (GstCfEvent * event)
{
  if (!event || !g_atomic_int_dec_and_test (&event->refcount))
    return;
  if (gst_cuda_context_push (event->context)) {
    cf_event_destroy (&event->event);
    gst_cuda_context_pop (NULL);
  } else {
    GST_WARNING ("cannot push the CUDA context: an event leaks");
  }
  gst_object_unref (event->context);
  g_free (event);
}

cf_event
gst_cf_event_get (GstCfEvent * event)
{
  return event->event;
}

guint64
gst_cf_event_next (GstCfEvent * event)
{
  /* Only the element that owns the event records it: one writer. */
  guint64 next = __atomic_load_n (&event->sequence, __ATOMIC_RELAXED) + 1;

  __atomic_store_n (&event->sequence, next, __ATOMIC_RELEASE);
  return next;
}

/* TRUE while record @sequence is the event's latest. */
static gboolean
is_latest (GstCfEvent * event, guint64 sequence)
{
  return __atomic_load_n (&event->sequence, __ATOMIC_ACQUIRE) == sequence;
}

gboolean
gst_cf_event_wait (GstCfEvent * event, guint64 sequence)
{
  cf_status st;

  if (!is_latest (event, sequence))
    return TRUE;
  if (!gst_cuda_context_push (event->context))
    return FALSE;
  /* Waiting for a later record of the same event only waits longer. */
  st = cf_event_synchronize (event->event);
  gst_cuda_context_pop (NULL);
  return st == CF_OK;
}

/* ---- the meta ---- */

static gboolean
pending_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCfPendingMeta *m = (GstCfPendingMeta *) meta;

  (void) params;
  (void) buffer;
  m->event = NULL;
  m->sequence = 0;
  return TRUE;
}

static void
pending_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstCfPendingMeta *m = (GstCfPendingMeta *) meta;

  (void) buffer;
  gst_cf_event_unref (m->event);
  m->event = NULL;
}

/* A copy of the buffer shares its memory, and so its pending work. */
static gboolean
pending_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer, GQuark type,
    gpointer data)
{
  GstCfPendingMeta *m = (GstCfPendingMeta *) meta;

  (void) buffer;
  (void) data;
  if (!GST_META_TRANSFORM_IS_COPY (type) || !m->event)
    return FALSE;
  gst_cf_buffer_set_pending (dest, m->event, m->sequence);
  return TRUE;
}

GType
gst_cf_pending_meta_api_get_type (void)
{
  static GType type = 0;
  /* The meta describes the buffer's memory: GstBaseTransform never copies
   * it from an input buffer to a new output buffer. */
  static const gchar *tags[] = { GST_META_TAG_MEMORY_STR, NULL };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("GstCfPendingMetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

static const GstMetaInfo *
pending_meta_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *i = gst_meta_register (GST_CF_PENDING_META_API_TYPE,
        "GstCfPendingMeta", sizeof (GstCfPendingMeta), pending_meta_init,
        pending_meta_free, pending_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) i);
  }
  return info;
}

#define OFFER_NAME "GstCfPendingMetaOffer"

void
gst_cf_pending_meta_offer (GstQuery * query, GstPad * consumer)
{
  GstStructure *params;

  if (gst_query_find_allocation_meta (query, GST_CF_PENDING_META_API_TYPE, NULL))
    return;
  params = gst_structure_new (OFFER_NAME, "consumer", G_TYPE_POINTER, consumer, NULL);
  gst_query_add_allocation_meta (query, GST_CF_PENDING_META_API_TYPE, params);
  gst_structure_free (params);
}

gboolean
gst_cf_pending_meta_accepted (GstQuery * query, GstPad * srcpad)
{
  const GstStructure *params = NULL;
  gpointer consumer = NULL;
  GstPad *peer;
  guint index;
  gboolean direct;

  if (!gst_query_find_allocation_meta (query, GST_CF_PENDING_META_API_TYPE, &index))
    return FALSE;
  gst_query_parse_nth_allocation_meta (query, index, &params);
  if (!params || !gst_structure_has_name (params, OFFER_NAME)
      || !gst_structure_get (params, "consumer", G_TYPE_POINTER, &consumer, NULL))
    return FALSE;
  peer = gst_pad_get_peer (srcpad);
  direct = peer && (gpointer) peer == consumer;
  gst_clear_object (&peer);
  return direct;
}

static GstCfPendingMeta *
get_pending_meta (GstBuffer * buffer)
{
  return (GstCfPendingMeta *) gst_buffer_get_meta (buffer, GST_CF_PENDING_META_API_TYPE);
}

void
gst_cf_buffer_set_pending (GstBuffer * buffer, GstCfEvent * event, guint64 sequence)
{
  GstCfPendingMeta *m = get_pending_meta (buffer);

  if (!m)
    m = (GstCfPendingMeta *) gst_buffer_add_meta (buffer, pending_meta_info (), NULL);
  gst_cf_event_ref (event);
  gst_cf_event_unref (m->event);
  m->event = event;
  m->sequence = sequence;
}

cf_event
gst_cf_buffer_pending_event (GstBuffer * buffer)
{
  GstCfPendingMeta *m = get_pending_meta (buffer);

  return m && m->event && is_latest (m->event, m->sequence) ? m->event->event : NULL;
}

gboolean
gst_cf_buffer_finish_pending (GstBuffer * buffer)
{
  GstCfPendingMeta *m = get_pending_meta (buffer);

  return !m || !m->event || gst_cf_event_wait (m->event, m->sequence);
}
