/* cudafilters GStreamer plugin: the base transform shared by every element.
 *
 * Without a usable GPU every element negotiates system memory only: caps
 * with memory:CUDAMemory are dropped from transform_caps and caps queries,
 * upload and download become passthrough and filters run the CPU
 * reference. With a GPU, the CUDA context comes from the standard
 * "gst.cuda.context" sharing, so our elements and nvcodec's (nvh264dec,
 * its cudaupload) use one context and hand CUDA memory to each other.
 * System memory we copy to or from the GPU comes from pinned buffer pools
 * (gstcfpinned.h); frames may stay in flight on the element's stream,
 * tracked by CUDA events (the frames-in-flight property of cudaupload and
 * cudadownload). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "gstcfbasetransform.h"
#include "gstcfcudapool.h"
#include "gstcfpinned.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

#define DEFAULT_DEVICE_ID (-1)

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_FRAMES_IN_FLIGHT,
};

#define DEFAULT_FRAMES_IN_FLIGHT 1
#define MAX_FRAMES_IN_FLIGHT 8

/* A frame whose GPU work is queued on the element's stream: @out is
 * complete once @done has passed; @in is held until then because the
 * copies still read it. */
typedef struct
{
  cf_event done;
  GstBuffer *in, *out;
} GstCfInFlight;

typedef struct
{
  gint device_id;            /* property, under the object lock */
  guint frames_in_flight;    /* property, under the object lock */
  GstCudaContext *context;   /* NULL without a GPU or before start() */
  gint device;               /* CUDA ordinal of the context */
  cf_stream stream;          /* created on first use, in the context */
  GstVideoInfo in_info, out_info;
  cf_format in_format, out_format;
  gboolean in_cuda, out_cuda;
  /* Device frames for system-memory caps on a GPU machine: input and
   * output are staged through them so the kernels still run on the GPU. */
  cf_frame stage_in, stage_out;
  gboolean path_reported;    /* the one INFO message saying where we run */
  /* Frames in flight (streaming thread only; see frames_in_flight). */
  guint depth;               /* in use now: the class's, or 1 */
  GQueue in_flight;          /* GstCfInFlight *, oldest first */
  GstCfInFlight *queued;     /* set by transform() for generate_output() */
  GQueue spare_events;       /* cf_event, for reuse */
  cf_event sync_event;       /* waits for frames not kept in flight */
} GstCfBaseTransformPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GstCfBaseTransform, gst_cf_base_transform,
    GST_TYPE_BASE_TRANSFORM);

#define PRIV(self) \
  ((GstCfBaseTransformPrivate *) gst_cf_base_transform_get_instance_private (self))

static void gst_cf_base_transform_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cf_base_transform_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);

/* ---- helpers ---- */

/* One bus warning per process, so a user sees once why it runs slowly. */
static void
warn_no_gpu_once (GstCfBaseTransform * self)
{
  static gint warned = 0;

  if (g_atomic_int_compare_and_exchange (&warned, 0, 1))
    GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
        ("No usable CUDA GPU (%s): cudafilters elements run their CPU reference on system "
            "memory; cudaupload and cudadownload pass buffers through.",
            gst_cf_no_gpu_reason ()), (NULL));
}

void
gst_cf_base_transform_class_add_templates (GstElementClass * klass, guint32 in_formats,
    guint32 out_formats)
{
  GstCaps *sink = gst_cf_caps_for_formats (in_formats),
      *src = gst_cf_caps_for_formats (out_formats);

  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, sink));
  gst_element_class_add_pad_template (klass,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, src));
  gst_caps_unref (sink);
  gst_caps_unref (src);
}

void
gst_cf_base_transform_class_init_transfer (GstCfBaseTransformClass * klass,
    const gchar * longname, const gchar * description,
    void (*transform_structure) (GstCfBaseTransform *, GstPadDirection, const GstStructure *,
        const GstCapsFeatures *, GstCaps *),
    cf_status (*process) (GstCfBaseTransform *, const cf_frame *, cf_frame *, cf_stream))
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gst_element_class_set_static_metadata (element_class, longname, "Filter/Video", description,
      "cudafilters developers");
  gst_cf_base_transform_class_add_templates (element_class, GST_CF_ALL_FORMATS,
      GST_CF_ALL_FORMATS);
  GST_BASE_TRANSFORM_CLASS (klass)->passthrough_on_same_caps = TRUE;
  /* A class installing properties must name its accessors itself. */
  G_OBJECT_CLASS (klass)->set_property = gst_cf_base_transform_set_property;
  G_OBJECT_CLASS (klass)->get_property = gst_cf_base_transform_get_property;
  g_object_class_install_property (G_OBJECT_CLASS (klass), PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Maximum number of frames whose copy is queued on the GPU but not yet pushed. 1 "
          "pushes each frame as soon as its copy is done. More lets copies in both "
          "directions and the kernels between overlap (set 3 on both cudaupload and "
          "cudadownload for full PCIe speed); a frame is then pushed once later frames are "
          "queued behind it, or at EOS, caps, segment and other serialized events, so an "
          "application that waits for each result before pushing the next frame must keep 1. "
          "No effect with a live source, a bounded buffer pool or without a GPU.",
          1, MAX_FRAMES_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  klass->transform_structure = transform_structure;
  klass->process = process;
}

/* ---- frames in flight ---- */

/* The frames-in-flight property (1 for elements without it). */
static guint
get_frames_in_flight (GstCfBaseTransform * self)
{
  guint n;

  GST_OBJECT_LOCK (self);
  n = PRIV (self)->frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  return n;
}

/* Returns @slot's event for reuse and its buffers' references. */
static void
release_in_flight (GstCfBaseTransform * self, GstCfInFlight * slot)
{
  g_queue_push_tail (&PRIV (self)->spare_events, slot->done);
  gst_clear_buffer (&slot->in);
  gst_clear_buffer (&slot->out);
  g_free (slot);
}

/* Waits until @slot's GPU work has finished. */
static cf_status
wait_in_flight (GstCfBaseTransform * self, GstCfInFlight * slot)
{
  cf_status status;

  if (!gst_cuda_context_push (PRIV (self)->context))
    return CF_ERROR_CUDA;
  status = cf_event_synchronize (slot->done);
  gst_cuda_context_pop (NULL);
  return status;
}

/* Drops every frame in flight, once the GPU no longer writes into them. */
static void
drop_in_flight (GstCfBaseTransform * self)
{
  GstCfInFlight *slot;

  while ((slot = g_queue_pop_head (&PRIV (self)->in_flight))) {
    if (wait_in_flight (self, slot) != CF_OK)
      GST_WARNING_OBJECT (self, "dropping a frame whose GPU work failed: %s", cf_last_error ());
    release_in_flight (self, slot);
  }
}

/* Waits for the oldest frame in flight and takes its output buffer. */
static GstFlowReturn
finish_oldest (GstCfBaseTransform * self, GstBuffer ** outbuf)
{
  GstCfInFlight *slot = g_queue_pop_head (&PRIV (self)->in_flight);
  cf_status status = wait_in_flight (self, slot);

  *outbuf = NULL;
  if (status == CF_OK) {
    *outbuf = slot->out;
    slot->out = NULL;
  } else {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("GPU work on a frame failed: %s",
            cf_last_error ()), ("%s", cf_status_name (status)));
  }
  release_in_flight (self, slot);
  return status == CF_OK ? GST_FLOW_OK : GST_FLOW_ERROR;
}

/* Pushes every frame in flight downstream, oldest first; on a flow error
 * drops the rest. */
static GstFlowReturn
drain_in_flight (GstCfBaseTransform * self)
{
  GstFlowReturn ret = GST_FLOW_OK;

  while (ret == GST_FLOW_OK && !g_queue_is_empty (&PRIV (self)->in_flight)) {
    GstBuffer *buffer;
    ret = finish_oldest (self, &buffer);
    if (ret == GST_FLOW_OK)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), buffer);
  }
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (self, "dropping frames in flight: %s", gst_flow_get_name (ret));
    drop_in_flight (self);
  }
  return ret;
}

/* After the parent made *@outbuf for the queued input: a frame whose work
 * transform() left on the stream joins the frames in flight, and the
 * oldest leaves once there are priv->depth of them; a finished frame
 * (CPU path, passthrough) waits for every frame in flight to go first. */
static GstFlowReturn
gst_cf_base_transform_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformPrivate *priv = PRIV (self);
  GstFlowReturn ret =
      GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class)->generate_output (trans,
      outbuf);
  GstCfInFlight *slot = priv->queued;

  priv->queued = NULL;
  if (slot) {
    if (ret != GST_FLOW_OK || !*outbuf) {
      g_queue_push_tail (&priv->in_flight, slot);
      drop_in_flight (self);
      return ret;
    }
    slot->out = *outbuf;
    *outbuf = NULL;
    g_queue_push_tail (&priv->in_flight, slot);
    if (g_queue_get_length (&priv->in_flight) < priv->depth)
      return GST_FLOW_OK;
    return finish_oldest (self, outbuf);
  }
  if (ret == GST_FLOW_OK && *outbuf && !g_queue_is_empty (&priv->in_flight)) {
    ret = drain_in_flight (self);
    if (ret != GST_FLOW_OK)
      gst_clear_buffer (outbuf);
  }
  return ret;
}

/* Serialized events keep their place after the frames before them; a
 * flush drops the frames in flight. FLUSH_START is not serialized and
 * may come while the streaming thread works on them, so FLUSH_STOP (which
 * holds the stream lock) does the dropping. */
static gboolean
gst_cf_base_transform_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);

  if (GST_EVENT_IS_SERIALIZED (event) && !g_queue_is_empty (&PRIV (self)->in_flight)) {
    if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
      drop_in_flight (self);
    else
      drain_in_flight (self);
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class)->sink_event (trans,
      event);
}

/* TRUE if upstream is live, or does not say: frames are then never held
 * back, for the lowest latency. */
static gboolean
upstream_is_live (GstCfBaseTransform * self)
{
  GstQuery *query = gst_query_new_latency ();
  gboolean live = TRUE;

  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (self), query))
    gst_query_parse_latency (query, &live, NULL, NULL);
  gst_query_unref (query);
  return live;
}

/* Sets how many frames may be in flight with an output pool of at most
 * @max_buffers (0 = unbounded): holding frames from a bounded pool could
 * leave us waiting for a buffer that only we can free. */
static void
choose_depth (GstCfBaseTransform * self, guint max_buffers)
{
  GstCfBaseTransformPrivate *priv = PRIV (self);
  guint depth = MAX (get_frames_in_flight (self), 1);

  if (depth > 1 && (max_buffers != 0 || !priv->context || upstream_is_live (self)))
    depth = 1;
  priv->depth = depth;
  GST_DEBUG_OBJECT (self, "up to %u frames in flight", depth);
}

/* ---- properties and context ---- */

static gint
get_device_id (GstCfBaseTransform * self)
{
  gint id;

  GST_OBJECT_LOCK (self);
  id = PRIV (self)->device_id;
  GST_OBJECT_UNLOCK (self);
  return id;
}

static void
gst_cf_base_transform_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (object);

  GST_OBJECT_LOCK (self);
  if (prop_id == PROP_DEVICE_ID)
    PRIV (self)->device_id = g_value_get_int (value);
  else if (prop_id == PROP_FRAMES_IN_FLIGHT)
    PRIV (self)->frames_in_flight = g_value_get_uint (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cf_base_transform_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  if (prop_id == PROP_DEVICE_ID)
    g_value_set_int (value, get_device_id (GST_CF_BASE_TRANSFORM (object)));
  else if (prop_id == PROP_FRAMES_IN_FLIGHT)
    g_value_set_uint (value, get_frames_in_flight (GST_CF_BASE_TRANSFORM (object)));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_cf_base_transform_set_context (GstElement * element, GstContext * context)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (element);

  if (gst_cf_have_gpu ())
    gst_cuda_handle_set_context (element, context, get_device_id (self),
        &PRIV (self)->context);
  GST_ELEMENT_CLASS (gst_cf_base_transform_parent_class)->set_context (element, context);
}

static gboolean
gst_cf_base_transform_start (GstBaseTransform * trans)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformPrivate *priv = PRIV (self);
  gint device_id = get_device_id (self);
  guint device = 0;

  if (!gst_cf_have_gpu ()) {
    warn_no_gpu_once (self);
    return TRUE;
  }
  if (!gst_cuda_ensure_element_context (GST_ELEMENT (trans), device_id, &priv->context)) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("Cannot get a CUDA context for cuda-device-id %d.", device_id), (NULL));
    return FALSE;
  }
  g_object_get (priv->context, "cuda-device-id", &device, NULL);
  priv->device = (gint) device;
  GST_DEBUG_OBJECT (self, "using CUDA device %u", device);
  return TRUE;
}

static gboolean
gst_cf_base_transform_stop (GstBaseTransform * trans)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCfBaseTransformPrivate *priv = PRIV (self);

  if (priv->context) {
    /* Device memory and streams belong to the context: free them while it
     * is current, before our reference to it goes. */
    gboolean pushed = gst_cuda_context_push (priv->context);
    if (pushed) {
      drop_in_flight (self);
    } else {
      GstCfInFlight *slot;
      GST_WARNING_OBJECT (self, "cannot push the CUDA context to free its resources");
      /* Without the context the GPU work cannot be waited for: let the
       * buffers go (their events leak with the context). */
      while ((slot = g_queue_pop_head (&priv->in_flight)))
        release_in_flight (self, slot);
    }
    if (klass->release_gpu)
      klass->release_gpu (self);
    if (pushed) {
      cf_event event;
      while ((event = g_queue_pop_head (&priv->spare_events)))
        cf_event_destroy (&event);
      cf_event_destroy (&priv->sync_event);
      cf_frame_free (&priv->stage_in);
      cf_frame_free (&priv->stage_out);
      cf_stream_destroy (&priv->stream);
      gst_cuda_context_pop (NULL);
    }
    gst_clear_object (&priv->context);
  }
  priv->stream = NULL;
  priv->sync_event = NULL;
  g_queue_clear (&priv->spare_events);
  priv->in_cuda = priv->out_cuda = FALSE;
  priv->path_reported = FALSE;
  return TRUE;
}

/* TRUE if our sink pad's peer is a GstBaseTransform's pad: the kind of
 * element that picks passthrough when our caps allow it. Elements that
 * merge several peers' answers (tee intersects its branches') are left
 * alone: a CUDA-only answer there would fail a branch that needs system
 * memory. */
static gboolean
peer_is_transform (GstBaseTransform * trans)
{
  GstPad *peer = gst_pad_get_peer (GST_BASE_TRANSFORM_SINK_PAD (trans));
  GstElement *element = peer ? gst_pad_get_parent_element (peer) : NULL;
  gboolean ret = element && GST_IS_BASE_TRANSFORM (element);

  gst_clear_object (&element);
  gst_clear_object (&peer);
  return ret;
}

static gboolean
gst_cf_base_transform_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCfBaseTransformPrivate *priv = PRIV (GST_CF_BASE_TRANSFORM (trans));
  gboolean ret;

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT && gst_cf_have_gpu ()
      && gst_cuda_handle_context_query (GST_ELEMENT (trans), query, priv->context))
    return TRUE;
  /* DRAIN, ALLOCATION: upstream wants its buffers back or is about to
   * renegotiate; frames in flight go first. */
  if (direction == GST_PAD_SINK && GST_QUERY_IS_SERIALIZED (query)
      && !g_queue_is_empty (&priv->in_flight))
    drain_in_flight (GST_CF_BASE_TRANSFORM (trans));
  ret = GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class)->query (trans,
      direction, query);
  if (ret && GST_QUERY_TYPE (query) == GST_QUERY_CAPS) {
    GstCaps *caps = NULL, *filter = NULL;
    gst_query_parse_caps_result (query, &caps);
    gst_query_parse_caps (query, &filter);
    if (!caps)
      return ret;
    if (!gst_cf_have_gpu ()) {
      /* An unlinked pad answers with its template, which lists CUDA memory. */
      caps = gst_cf_caps_drop_cuda (gst_caps_ref (caps));
    } else if (direction == GST_PAD_SINK
        && GST_CF_BASE_TRANSFORM_GET_CLASS (trans)->prefer_cuda_input
        && gst_cf_caps_have_cuda (filter) && peer_is_transform (trans)) {
      /* Upstream can give CUDA memory: ask for nothing else (see
       * prefer_cuda_input). Upstream that cannot still gets system memory,
       * since its filter then has no CUDA structure. */
      caps = gst_cf_caps_keep_cuda (gst_caps_ref (caps));
    } else {
      return ret;
    }
    gst_query_set_caps_result (query, caps);
    gst_caps_unref (caps);
  }
  return ret;
}

/* ---- caps negotiation ---- */

static GstCaps *
gst_cf_base_transform_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCaps *out = gst_caps_new_empty ();

  for (guint i = 0; i < gst_caps_get_size (caps); i++)
    klass->transform_structure (self, direction, gst_caps_get_structure (caps, i),
        gst_caps_get_features (caps, i), out);
  if (!gst_cf_have_gpu ())
    out = gst_cf_caps_drop_cuda (out);
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, out, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (out);
    out = tmp;
  }
  GST_DEBUG_OBJECT (self, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps, out);
  return out;
}

/* Among the caps downstream accepts, takes the one we list first for
 * @caps (CUDA memory before system memory, a filter's preferred format
 * first), whatever order the peers answered in: basetransform would take
 * the peers' first, which lets a system-memory answer win over CUDA
 * memory or gray's input format win over GRAY8. */
static GstCaps *
gst_cf_base_transform_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  GstCaps *ours = gst_cf_base_transform_transform_caps (trans, direction, caps, NULL);
  GstCaps *preferred = gst_caps_intersect_full (ours, othercaps, GST_CAPS_INTERSECT_FIRST);

  gst_caps_unref (ours);
  if (gst_caps_is_empty (preferred)) {
    gst_caps_unref (preferred);
    return GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class)->fixate_caps (trans,
        direction, caps, othercaps);
  }
  gst_caps_unref (othercaps);
  GST_DEBUG_OBJECT (trans, "preferred %" GST_PTR_FORMAT, preferred);
  return gst_caps_fixate (preferred);
}

/* The core's format for negotiated @info, or CF_FORMAT_UNKNOWN after
 * posting an error: the templates only list core formats, so this is a
 * last line of defence with a clear message. */
static cf_format
negotiated_format (GstCfBaseTransform * self, const GstVideoInfo * info)
{
  const gchar *name = gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info));
  cf_format format = cf_format_from_name (name);

  if (format == CF_FORMAT_UNKNOWN)
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Video format %s is not supported.", name), (NULL));
  return format;
}

static gboolean
gst_cf_base_transform_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCfBaseTransformPrivate *priv = PRIV (self);

  /* A renegotiation from a RECONFIGURE (no CAPS event, so sink_event did
   * not drain): frames made under the old caps leave before the new caps. */
  if (!g_queue_is_empty (&priv->in_flight) && drain_in_flight (self) != GST_FLOW_OK)
    GST_DEBUG_OBJECT (self, "frames in flight dropped at renegotiation");
  if (!gst_video_info_from_caps (&priv->in_info, incaps)
      || !gst_video_info_from_caps (&priv->out_info, outcaps)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Invalid video caps."),
        ("in %" GST_PTR_FORMAT ", out %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  priv->in_format = negotiated_format (self, &priv->in_info);
  priv->out_format = negotiated_format (self, &priv->out_info);
  if (priv->in_format == CF_FORMAT_UNKNOWN || priv->out_format == CF_FORMAT_UNKNOWN)
    return FALSE;
  priv->in_cuda = gst_cf_features_are_cuda (gst_caps_get_features (incaps, 0));
  priv->out_cuda = gst_cf_features_are_cuda (gst_caps_get_features (outcaps, 0));
  if ((priv->in_cuda || priv->out_cuda) && !priv->context) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("CUDA memory was negotiated but the element has no CUDA context."), (NULL));
    return FALSE;
  }
  if (klass->set_info && !klass->set_info (self, &priv->in_info, priv->in_format,
          &priv->out_info, priv->out_format))
    return FALSE;
  GST_DEBUG_OBJECT (self, "%s %s -> %s %s", cf_format_name (priv->in_format),
      priv->in_cuda ? "CUDA" : "system", cf_format_name (priv->out_format),
      priv->out_cuda ? "CUDA" : "system");
  return TRUE;
}

/* Output buffers have the default size of the output caps, whatever the
 * input's (strides and padding of upstream buffers vary). */
static gboolean
gst_cf_base_transform_transform_size (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, gsize size, GstCaps * othercaps, gsize * othersize)
{
  GstVideoInfo info;

  (void) trans;
  (void) direction;
  (void) caps;
  (void) size;
  if (!gst_video_info_from_caps (&info, othercaps))
    return FALSE;
  *othersize = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

/* ---- allocation ---- */

/* A configured CUDA pool for @caps: @pool if usable, else a new one. */
static GstBufferPool *
ensure_cuda_pool (GstCfBaseTransform * self, GstBufferPool * pool, GstCaps * caps,
    guint min, guint max, guint * size)
{
  GstCudaContext *context = PRIV (self)->context;
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
  for (guint i = gst_query_get_n_allocation_metas (query); i > 0; i--)
    if (gst_query_parse_nth_allocation_meta (query, i - 1, NULL) != GST_VIDEO_META_API_TYPE)
      gst_query_remove_nth_allocation_meta (query, i - 1);
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
    GstBufferPool *pinned = gst_cf_pinned_pool_new (PRIV (self)->context, caps, min, max, &size);
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
  if (have_pool)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  GST_DEBUG_OBJECT (self, "output pool %" GST_PTR_FORMAT " (%s)", pool,
      G_OBJECT_TYPE_NAME (pool));
  gst_object_unref (pool);
  choose_depth (self, max);
  return TRUE;
}

static gboolean
gst_cf_base_transform_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;
  gboolean have_pool = gst_query_get_n_allocation_pools (query) > 0;
  GstCaps *caps = NULL;

  PRIV (self)->depth = 1;
  if (!PRIV (self)->out_cuda && !PRIV (self)->context)
    return GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class)->decide_allocation
        (trans, query);

  gst_query_parse_allocation (query, &caps, NULL);
  if (have_pool)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  keep_only_video_meta (query);
  if (!PRIV (self)->out_cuda)
    return decide_system_allocation (self, query, pool, caps, size, min, max);
  pool = caps ? ensure_cuda_pool (self, pool, caps, min, max, &size) : NULL;
  if (!pool) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Cannot make a CUDA buffer pool."),
        ("caps %" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  if (have_pool)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  choose_depth (self, max);
  return TRUE;
}

static gboolean
gst_cf_base_transform_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query,
    GstQuery * query)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCaps *caps = NULL;
  GstBufferPool *pool;
  guint size = 0, min = 0;

  /* The parent forwards the query in passthrough and copies downstream's
   * metas otherwise. */
  if (!GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class)->propose_allocation
      (trans, decide_query, query))
    return FALSE;
  if (!decide_query)
    return TRUE;
  /* We map every frame through GstVideoMeta, so any strides are fine. */
  if (!gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !PRIV (self)->context)
    return TRUE;
  /* Enough buffers for the frames we keep in flight plus one upstream
   * fills. */
  min = MAX (get_frames_in_flight (self), 1) + 1;
  if (gst_cf_features_are_cuda (gst_caps_get_features (caps, 0)))
    pool = ensure_cuda_pool (self, NULL, caps, min, 0, &size);
  else
    /* System memory we copy to the GPU: pinned, so the copy is
     * asynchronous and at full PCIe speed. */
    pool = gst_cf_pinned_pool_new (PRIV (self)->context, caps, min, 0, &size);
  if (pool) {
    gst_query_add_allocation_pool (query, pool, size, min, 0);
    gst_object_unref (pool);
  }
  return TRUE;
}

/* ---- processing ---- */

/* A CUDA buffer must hold GstCudaMemory that our context can reach, or
 * its "device pointers" would be host pointers or another context's. */
static gboolean
check_cuda_buffer (GstCfBaseTransform * self, GstBuffer * buffer)
{
  GstCudaContext *context = PRIV (self)->context;

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

static gboolean
map_frame (GstCfBaseTransform * self, GstVideoFrame * frame, GstBuffer * buffer,
    const GstVideoInfo * caps_info, gboolean cuda, GstMapFlags flags)
{
  GstVideoInfo info = *caps_info;

  if (cuda && !check_cuda_buffer (self, buffer))
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

static void
frame_to_cf (const GstVideoFrame * frame, cf_format format, gboolean cuda, gint device,
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
  out->memory = cuda ? CF_MEMORY_DEVICE : CF_MEMORY_HOST;
  out->device = cuda ? device : -1;
}

static GstFlowReturn
post_status (GstCfBaseTransform * self, cf_status status)
{
  if (status == CF_OK)
    return GST_FLOW_OK;
  GST_ELEMENT_ERROR (self, STREAM, FAILED, ("%s", cf_last_error ()),
      ("%s", cf_status_name (status)));
  return GST_FLOW_ERROR;
}

/* Makes @stage a device frame of @format and the size of @like, reusing
 * it when it already is one (no allocation per buffer). */
static cf_status
ensure_stage (cf_frame * stage, cf_format format, const cf_frame * like)
{
  if (stage->allocation && stage->format == format && stage->width == like->width
      && stage->height == like->height)
    return CF_OK;
  cf_frame_free (stage);
  return cf_frame_alloc (stage, format, like->width, like->height, CF_MEMORY_DEVICE);
}

/* System-memory frames on a GPU machine: upload, run the kernels, download,
 * all on the element's stream. This keeps "cuda" elements on the GPU even
 * where upstream negotiated system memory (nvcodec's cudaupload prefers
 * passthrough, for one). */
static cf_status
process_staged (GstCfBaseTransform * self, const cf_frame * in, cf_frame * out,
    cf_stream stream)
{
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCfBaseTransformPrivate *priv = PRIV (self);
  cf_status status = ensure_stage (&priv->stage_in, in->format, in);

  if (status == CF_OK)
    status = ensure_stage (&priv->stage_out, out->format, out);
  if (status == CF_OK)
    status = cf_frame_upload (in, &priv->stage_in, stream);
  if (status == CF_OK)
    status = klass->process (self, &priv->stage_in, &priv->stage_out, stream);
  if (status == CF_OK)
    status = cf_frame_download (&priv->stage_out, out, stream);
  return status;
}

/* TRUE if holding @inbuf in flight cannot starve its pool: upstream
 * would otherwise wait for a buffer that only we can give back. */
static gboolean
input_pool_allows_keeping (GstCfBaseTransform * self, GstBuffer * inbuf)
{
  GstBufferPool *pool = inbuf->pool;
  GstStructure *config;
  guint max = 0;

  if (!pool)
    return TRUE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, NULL, NULL, NULL, &max);
  gst_structure_free (config);
  return max == 0 || max > PRIV (self)->depth + 1;
}

/* With the work for @inbuf queued on the stream: waits for it, or (when
 * @keep) records where it ends and leaves it in flight in priv->queued. */
static cf_status
finish_or_queue (GstCfBaseTransform * self, gboolean keep, GstBuffer * inbuf)
{
  GstCfBaseTransformPrivate *priv = PRIV (self);
  cf_event event = keep ? g_queue_pop_head (&priv->spare_events) : priv->sync_event;
  cf_status status = CF_OK;

  if (!event)
    status = cf_event_create (&event);
  if (!keep)
    priv->sync_event = event;
  if (status == CF_OK)
    status = cf_event_record (event, priv->stream);
  if (!keep)
    return status == CF_OK ? cf_event_synchronize (event) : status;
  if (status != CF_OK) {
    if (event)
      g_queue_push_tail (&priv->spare_events, event);
    return status;
  }
  priv->queued = g_new0 (GstCfInFlight, 1);
  priv->queued->done = event;
  priv->queued->in = gst_buffer_ref (inbuf);
  return CF_OK;
}

/* Runs the subclass on the GPU with our context current: directly on
 * device frames, or staged when both frames are in system memory. */
static GstFlowReturn
process_on_gpu (GstCfBaseTransform * self, const cf_frame * in, cf_frame * out,
    GstBuffer * inbuf)
{
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCfBaseTransformPrivate *priv = PRIV (self);
  gboolean staged = in->memory != CF_MEMORY_DEVICE && out->memory != CF_MEMORY_DEVICE;
  cf_status status = CF_OK;
  GstFlowReturn ret;

  if (!gst_cuda_context_push (priv->context)) {
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED, ("Cannot make the CUDA context current."),
        (NULL));
    return GST_FLOW_ERROR;
  }
  /* The core's runtime calls use the driver context pushed above, so the
   * stream is created in (and belongs to) the shared context. */
  if (!priv->stream)
    status = cf_stream_create (&priv->stream);
  if (status == CF_OK)
    status = staged ? process_staged (self, in, out, priv->stream)
        : klass->process (self, in, out, priv->stream);
  /* GstCudaMemory in 1.22 carries no stream or event a consumer could
   * wait on, so the work must be finished before the buffer leaves: now,
   * or (frames in flight; never for the single staging frame) when
   * generate_output() lets it go. */
  if (status == CF_OK)
    status = finish_or_queue (self, !staged && priv->depth > 1
        && input_pool_allows_keeping (self, inbuf), inbuf);
  ret = post_status (self, status);
  if (!gst_cuda_context_pop (NULL))
    GST_WARNING_OBJECT (self, "cannot pop the CUDA context");
  return ret;
}

/* Tells the application once per start where this element runs (gst-launch
 * prints INFO messages), so a silent CPU fallback never goes unnoticed. */
static void
report_path_once (GstCfBaseTransform * self)
{
  GstCfBaseTransformPrivate *priv = PRIV (self);
  const gchar *memory = priv->in_cuda && priv->out_cuda ? "CUDA memory in and out"
      : priv->in_cuda || priv->out_cuda ? "between system and CUDA memory"
      : "system memory staged through the GPU";

  if (priv->path_reported)
    return;
  priv->path_reported = TRUE;
  if (priv->context)
    GST_ELEMENT_INFO (self, RESOURCE, SETTINGS, (NULL),
        ("cudafilters path: GPU, CUDA device %d, %s", priv->device, memory));
  else
    GST_ELEMENT_INFO (self, RESOURCE, SETTINGS, (NULL),
        ("cudafilters path: CPU reference (%s)", gst_cf_no_gpu_reason ()));
}

static GstFlowReturn
gst_cf_base_transform_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCfBaseTransformPrivate *priv = PRIV (self);
  GstVideoFrame in_frame, out_frame;
  cf_frame in, out;
  GstFlowReturn ret;

  if (!map_frame (self, &in_frame, inbuf, &priv->in_info, priv->in_cuda, GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (!map_frame (self, &out_frame, outbuf, &priv->out_info, priv->out_cuda, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&in_frame);
    return GST_FLOW_ERROR;
  }
  frame_to_cf (&in_frame, priv->in_format, priv->in_cuda, priv->device, &in);
  frame_to_cf (&out_frame, priv->out_format, priv->out_cuda, priv->device, &out);
  report_path_once (self);
  if (priv->context)
    ret = process_on_gpu (self, &in, &out, inbuf);
  else
    ret = post_status (self, klass->process (self, &in, &out, NULL));
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  return ret;
}

/* ---- type ---- */

static void
gst_cf_base_transform_dispose (GObject * object)
{
  gst_clear_object (&PRIV (GST_CF_BASE_TRANSFORM (object))->context);
  G_OBJECT_CLASS (gst_cf_base_transform_parent_class)->dispose (object);
}

static void
gst_cf_base_transform_class_init (GstCfBaseTransformClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cf_base_transform_set_property;
  gobject_class->get_property = gst_cf_base_transform_get_property;
  gobject_class->dispose = gst_cf_base_transform_dispose;
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to run on; -1 takes the device of a CUDA context shared by "
          "neighbouring elements, else device 0. Read when the element starts.",
          -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cf_base_transform_set_context);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cf_base_transform_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cf_base_transform_stop);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cf_base_transform_query);
  trans_class->transform_caps = GST_DEBUG_FUNCPTR (gst_cf_base_transform_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cf_base_transform_fixate_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cf_base_transform_set_caps);
  trans_class->transform_size = GST_DEBUG_FUNCPTR (gst_cf_base_transform_transform_size);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_cf_base_transform_decide_allocation);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cf_base_transform_propose_allocation);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cf_base_transform_transform);
  trans_class->generate_output = GST_DEBUG_FUNCPTR (gst_cf_base_transform_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cf_base_transform_sink_event);

  gst_type_mark_as_plugin_api (GST_TYPE_CF_BASE_TRANSFORM, 0);
}

static void
gst_cf_base_transform_init (GstCfBaseTransform * self)
{
  GstCfBaseTransformPrivate *priv = PRIV (self);

  priv->device_id = DEFAULT_DEVICE_ID;
  priv->frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  priv->device = -1;
  priv->depth = 1;
  g_queue_init (&priv->in_flight);
  g_queue_init (&priv->spare_events);
  /* Answer QoS: drop frames that would arrive too late anyway, as video
   * filters in GStreamer do by default. */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
}
