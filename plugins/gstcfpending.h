/* cudafilters GStreamer plugin: buffers whose GPU work is still queued.
 *
 * Between our own elements a buffer leaves as soon as its work is queued,
 * carrying the event that marks the end of that work (a GstCfPendingMeta);
 * the next element makes its own GPU work wait for that event, on the GPU,
 * so only the last element of a chain waits on the host. An element attaches
 * the meta only when downstream said, in the ALLOCATION query, that it reads
 * it (GST_CF_PENDING_META_API_TYPE); everything else gets finished buffers,
 * since GstCudaMemory (1.22) carries nothing a foreign element could wait
 * for. */
#ifndef GST_CF_PENDING_H
#define GST_CF_PENDING_H

#include <gst/cuda/gstcudacontext.h>
#include <gst/gst.h>

#include <cudafilters/cudafilters.h>

G_BEGIN_DECLS

/* A CUDA event of one context, shared by reference between the element that
 * records it and the buffers that carry it. Its sequence number counts the
 * records: a buffer remembers the one made for it, and an event recorded
 * again since (for a later frame) means that buffer's work has finished, as
 * an element records an event again only once the work it marked is done. */
typedef struct _GstCfEvent GstCfEvent;

/* A new event in @context (pushed here), or NULL with cf_last_error() set. */
GstCfEvent *gst_cf_event_new (GstCudaContext * context);
GstCfEvent *gst_cf_event_ref (GstCfEvent * event);
/* The last unref destroys the event in its context. Any thread. */
void gst_cf_event_unref (GstCfEvent * event);
/* The CUDA event, to record (after gst_cf_event_next()) or wait for. */
cf_event gst_cf_event_get (GstCfEvent * event);
/* Starts a new record: returns its sequence number. */
guint64 gst_cf_event_next (GstCfEvent * event);
/* Waits on the host until record @sequence has passed (at once when the
 * event was recorded again since). FALSE with cf_last_error() on failure. */
gboolean gst_cf_event_wait (GstCfEvent * event, guint64 sequence);

#define GST_CF_PENDING_META_API_TYPE (gst_cf_pending_meta_api_get_type ())

typedef struct
{
  GstMeta meta;
  GstCfEvent *event;            /* owned reference */
  guint64 sequence;             /* the record made for this buffer's work */
} GstCfPendingMeta;

GType gst_cf_pending_meta_api_get_type (void);

/* In an ALLOCATION query @consumer (our sink pad) answers: it reads the
 * meta. The offer names the pad, so a producer can tell it is linked to it
 * directly: an element between (a foreign transform copying downstream's
 * metas upstream, as GstBaseTransform does by default) would read the
 * buffer without waiting. */
void gst_cf_pending_meta_offer (GstQuery * query, GstPad * consumer);

/* TRUE if the ALLOCATION query @srcpad sent downstream came back with the
 * offer of the pad @srcpad is linked to. */
gboolean gst_cf_pending_meta_accepted (GstQuery * query, GstPad * srcpad);

/* Attaches (or replaces) the pending meta of @buffer (writable). */
void gst_cf_buffer_set_pending (GstBuffer * buffer, GstCfEvent * event, guint64 sequence);

/* The event the GPU must wait for before reading @buffer, or NULL when its
 * work is known to be done (no meta, or the event was recorded again). */
cf_event gst_cf_buffer_pending_event (GstBuffer * buffer);

/* Waits on the host for @buffer's pending work, if any (a buffer that goes
 * on to an element that cannot wait on the GPU). FALSE on a CUDA error. */
gboolean gst_cf_buffer_finish_pending (GstBuffer * buffer);

G_END_DECLS

#endif
