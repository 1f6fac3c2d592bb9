/* cudafilters GStreamer plugin: the base transform shared by every element.
 *
 * Without a usable GPU every element negotiates system memory only (CUDA
 * caps are dropped, gstcfcaps.c), upload and download become passthrough
 * and filters run their CPU code. With a GPU, the CUDA context comes from
 * the standard "gst.cuda.context" sharing, so our elements and nvcodec's
 * (nvh264dec, its cudaupload) use one context and hand CUDA memory to each
 * other.
 *
 * Streaming: transform() maps the two buffers and submits them to the
 * element's scheduler (gstcfschedule.c), which queues the upload, kernels
 * and download without waiting; the element's own task pushes each output
 * as soon as its work is done. So the streaming thread never waits for the
 * GPU, several frames are in flight in every element (frames-in-flight),
 * and a frame still leaves as soon as it is finished, however long the
 * next one takes to come. Serialized events and queries wait until the
 * frames before them have left; flushes drop them. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "gstcfbasetransformpriv.h"
#include "gstcfframe.h"
#include "gstcfpending.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

#define DEFAULT_DEVICE_ID (-1)

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_FRAMES_IN_FLIGHT,
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GstCfBaseTransform, gst_cf_base_transform,
    GST_TYPE_BASE_TRANSFORM);

#define PRIV(self) \
  ((GstCfBaseTransformPrivate *) gst_cf_base_transform_get_instance_private (self))

GstCfBaseTransformPrivate *
gst_cf_base_transform_get_priv (GstCfBaseTransform * self)
{
  return PRIV (self);
}

gboolean
gst_cf_base_transform_uses_gpu (GstCfBaseTransform * self)
{
  return gst_cf_have_gpu () && !PRIV (self)->gpu_lost;
}

/* ---- helpers ---- */

/* One bus warning per process, so a user sees once why it runs slowly. */
static void
warn_no_gpu_once (GstCfBaseTransform * self)
{
  static gint warned = 0;

  if (g_atomic_int_compare_and_exchange (&warned, 0, 1))
    GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
        ("No usable CUDA GPU (%s): cudafilters elements run their CPU code on system "
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
        const GstCapsFeatures *, GstCaps *))
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gst_element_class_set_static_metadata (element_class, longname, "Filter/Video", description,
      "cudafilters developers");
  gst_cf_base_transform_class_add_templates (element_class, GST_CF_ALL_FORMATS,
      GST_CF_ALL_FORMATS);
  GST_BASE_TRANSFORM_CLASS (klass)->passthrough_on_same_caps = TRUE;
  klass->transform_structure = transform_structure;
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

guint
gst_cf_base_transform_get_frames_in_flight (GstCfBaseTransform * self)
{
  guint n;

  GST_OBJECT_LOCK (self);
  n = PRIV (self)->frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  return n;
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
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (object);

  if (prop_id == PROP_DEVICE_ID)
    g_value_set_int (value, get_device_id (self));
  else if (prop_id == PROP_FRAMES_IN_FLIGHT)
    g_value_set_uint (value, gst_cf_base_transform_get_frames_in_flight (self));
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

/* ---- start and stop ---- */

/* The shared CUDA context, or FALSE after posting an error. */
static gboolean
get_context (GstCfBaseTransform * self)
{
  GstCfBaseTransformPrivate *priv = PRIV (self);
  gint device_id = get_device_id (self);
  gint ordinal = device_id < 0 ? 0 : device_id;   /* -1 with no context shared: device 0 */
  guint device = 0;

  if (!gst_cuda_ensure_element_context (GST_ELEMENT (self), device_id, &priv->context)) {
    size_t free_bytes = 0, total = 0;
    /* A context takes a few hundred MiB: with less than 1 GiB free, that
     * is why, and the caps can still take system memory. */
    if (cf_device_query_memory (ordinal, &free_bytes, &total) == CF_OK
        && free_bytes < ((size_t) 1 << 30)) {
      GST_ELEMENT_WARNING (self, RESOURCE, NO_SPACE_LEFT,
          ("CUDA device %d is out of memory (%.0f MiB free of %.0f MiB), too little for a "
              "CUDA context: the element runs its CPU code on system memory.",
              ordinal, free_bytes / 1048576.0, total / 1048576.0), (NULL));
      priv->gpu_lost = TRUE;
      return FALSE;
    }
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
gst_cf_base_transform_start (GstBaseTransform * trans)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCfBaseTransformPrivate *priv = PRIV (self);
  cf_filter *filter = klass->get_filter ? klass->get_filter (self) : NULL;
  gboolean gpu = gst_cf_have_gpu (), ok;

  if (!gpu) {
    warn_no_gpu_once (self);
  } else if (!get_context (self)) {
    if (!priv->gpu_lost)
      return FALSE;
    gpu = FALSE;                /* too full for a context: the CPU path (warned) */
  }
  /* The scheduler's streams and memory belong to the shared context. */
  if (gpu && !gst_cuda_context_push (priv->context)) {
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED, ("Cannot make the CUDA context current."),
        (NULL));
    return FALSE;
  }
  ok = gst_cf_schedule_start (priv->schedule, filter, gpu ? priv->context : NULL,
      gst_cf_base_transform_get_frames_in_flight (self));
  if (gpu)
    gst_cuda_context_pop (NULL);
  if (!ok)
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("%s", cf_last_error ()), (NULL));
  priv->discont = FALSE;
  return ok;
}

static gboolean
gst_cf_base_transform_stop (GstBaseTransform * trans)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCfBaseTransformPrivate *priv = PRIV (self);

  /* Waits for the GPU work of frames in flight, then lets them go. */
  gst_cf_schedule_stop (priv->schedule);
  if (priv->host_in_pinned || priv->host_in_pageable)
    GST_INFO_OBJECT (self, "system-memory input frames: %" G_GUINT64_FORMAT " pinned, %"
        G_GUINT64_FORMAT " pageable", priv->host_in_pinned, priv->host_in_pageable);
  priv->host_in_pinned = priv->host_in_pageable = 0;
  if (priv->context) {
    /* GPU memory of the subclass belongs to the context: free it while it
     * is current, before our reference to the context goes. */
    if (gst_cuda_context_push (priv->context)) {
      if (klass->release_gpu)
        klass->release_gpu (self);
      gst_cuda_context_pop (NULL);
    } else {
      GST_WARNING_OBJECT (self, "cannot push the CUDA context to free its memory");
    }
    gst_clear_object (&priv->context);
  }
  priv->in_cuda = priv->out_cuda = FALSE;
  priv->path_reported = FALSE;
  priv->allocation_decided = priv->downstream_waits = FALSE;
  priv->gpu_lost = FALSE;
  return TRUE;
}

/* Deactivating the src pad: the task holds its stream lock, so it must
 * leave first (GstPad waits for that lock after this returns). */
static gboolean
gst_cf_base_transform_src_activate_mode (GstPad * pad, GstObject * parent, GstPadMode mode,
    gboolean active)
{
  GstCfBaseTransformPrivate *priv = PRIV (GST_CF_BASE_TRANSFORM (parent));

  if (!active)
    gst_cf_schedule_stop_task (priv->schedule);
  return priv->src_activate_mode ? priv->src_activate_mode (pad, parent, mode, active) : TRUE;
}

/* ---- events and queries ---- */

/* Serialized events keep their place after the frames before them; a
 * flush drops the frames in flight. FLUSH_START is not serialized and may
 * come while the streaming thread waits for room: it wakes every wait
 * before going downstream, and the task is paused once downstream has
 * let go of it. */
static gboolean
gst_cf_base_transform_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCfBaseTransformPrivate *priv = PRIV (GST_CF_BASE_TRANSFORM (trans));
  GstBaseTransformClass *parent = GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class);
  gboolean ret;

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      gst_cf_schedule_flush_start (priv->schedule);
      ret = parent->sink_event (trans, event);
      gst_cf_schedule_pause (priv->schedule);
      return ret;
    case GST_EVENT_FLUSH_STOP:
      gst_cf_schedule_flush_stop (priv->schedule);
      priv->discont = FALSE;
      return parent->sink_event (trans, event);
    default:
      if (GST_EVENT_IS_SERIALIZED (event)) {
        GstFlowReturn flow = gst_cf_schedule_wait_idle (priv->schedule);
        if (flow == GST_FLOW_FLUSHING) {
          GST_DEBUG_OBJECT (trans, "flushing: dropping %" GST_PTR_FORMAT, event);
          gst_event_unref (event);
          return FALSE;
        }
        /* Upstream ends here: a NOT_LINKED of the last frames, which no
         * submit has returned to it, is reported now (as a queue does). */
        if (GST_EVENT_TYPE (event) == GST_EVENT_EOS
            && gst_cf_schedule_untold_flow (priv->schedule) == GST_FLOW_NOT_LINKED)
          GST_ELEMENT_FLOW_ERROR (trans, GST_FLOW_NOT_LINKED);
      }
      return parent->sink_event (trans, event);
  }
}

/* A link made again after NOT_LINKED sends RECONFIGURE upstream. */
static gboolean
gst_cf_base_transform_src_event (GstBaseTransform * trans, GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_RECONFIGURE)
    gst_cf_schedule_reconfigure (PRIV (GST_CF_BASE_TRANSFORM (trans))->schedule);
  return GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class)->src_event (trans, event);
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
  /* Where our output got to: GstBaseTransform would answer from buffers it
   * pushed itself, and it pushes none. */
  if (GST_QUERY_TYPE (query) == GST_QUERY_POSITION && direction == GST_PAD_SRC) {
    GstFormat format;
    GstClockTime position = gst_cf_schedule_get_position (priv->schedule);
    gst_query_parse_position (query, &format, NULL);
    if (format == GST_FORMAT_TIME && trans->segment.format == GST_FORMAT_TIME
        && GST_CLOCK_TIME_IS_VALID (position)) {
      gst_query_set_position (query, format,
          gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME, position));
      return TRUE;
    }
  }
  /* DRAIN, ALLOCATION: upstream wants its buffers back or is about to
   * renegotiate; the frames before go first. */
  if (direction == GST_PAD_SINK && GST_QUERY_IS_SERIALIZED (query)
      && gst_cf_schedule_wait_idle (priv->schedule) == GST_FLOW_FLUSHING)
    return FALSE;
  ret = GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class)->query (trans,
      direction, query);
  if (ret && GST_QUERY_TYPE (query) == GST_QUERY_CAPS)
    gst_cf_base_transform_shape_caps_answer (trans, direction, query);
  return ret;
}

/* ---- caps ---- */

static gboolean
gst_cf_base_transform_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCfBaseTransformPrivate *priv = PRIV (self);

  /* Frames made under the old caps leave before the new caps (the CAPS
   * event and a renegotiation both waited already; this is cheap then). */
  if (gst_cf_schedule_wait_idle (priv->schedule) == GST_FLOW_FLUSHING)
    return FALSE;
  if (!gst_video_info_from_caps (&priv->in_info, incaps)
      || !gst_video_info_from_caps (&priv->out_info, outcaps)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Invalid video caps."),
        ("in %" GST_PTR_FORMAT ", out %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  priv->in_format = gst_cf_negotiated_format (GST_ELEMENT (self), &priv->in_info);
  priv->out_format = gst_cf_negotiated_format (GST_ELEMENT (self), &priv->out_info);
  if (priv->in_format == CF_FORMAT_UNKNOWN || priv->out_format == CF_FORMAT_UNKNOWN)
    return FALSE;
  priv->in_cuda = gst_cf_features_are_cuda (gst_caps_get_features (incaps, 0));
  priv->out_cuda = gst_cf_features_are_cuda (gst_caps_get_features (outcaps, 0));
  /* decide_allocation follows (unless the caps make us a passthrough). */
  priv->allocation_decided = priv->downstream_waits = FALSE;
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

/* ---- streaming ---- */

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
  if (priv->context) {
    GST_ELEMENT_INFO (self, RESOURCE, SETTINGS, (NULL),
        ("cudafilters path: GPU, CUDA device %d, %s", priv->device, memory));
  } else {
    /* The process-wide level (cudafilters/cpu.h): the reference when
     * forced (CF_CPU=reference), else the optimized code at that level
     * (filters without SIMD code run their reference in slices of rows). */
    cf_cpu_level level = cf_cpu_get_level ();
    GST_ELEMENT_INFO (self, RESOURCE, SETTINGS, (NULL),
        ("cudafilters path: CPU, %s%s (%s)",
            level == CF_CPU_REFERENCE ? "the reference" : "optimized, ",
            level == CF_CPU_REFERENCE ? "" : cf_cpu_level_name (level),
            priv->gpu_lost ? "the GPU is out of memory" : gst_cf_no_gpu_reason ()));
  }
}

/* Counts system-memory inputs on the GPU path by memory kind; the first
 * pageable one is logged, since staging it through pinned memory costs CPU
 * time (upstream did not fill the pinned pool we proposed). */
static void
count_host_input (GstCfBaseTransform * self, const cf_frame * in)
{
  GstCfBaseTransformPrivate *priv = PRIV (self);

  if (!priv->context || priv->in_cuda)
    return;
  if (in->memory == CF_MEMORY_PINNED_HOST) {
    priv->host_in_pinned++;
    return;
  }
  if (priv->host_in_pageable++ == 0)
    GST_INFO_OBJECT (self, "input in pageable memory: the CPU copies it into pinned memory "
        "before the upload (upstream does not write into the pinned pool we propose)");
}

/* GstBaseTransform marks an output DISCONT only when it pushes it itself,
 * which it never does here, so the element keeps its own flag: set by a
 * DISCONT input or a frame QoS dropped, cleared by the next output. A
 * renegotiation (RECONFIGURE) waits for the frames made under the old caps
 * to leave first. */
static GstFlowReturn
gst_cf_base_transform_submit_input_buffer (GstBaseTransform * trans, gboolean is_discont,
    GstBuffer * input)
{
  GstCfBaseTransformPrivate *priv = PRIV (GST_CF_BASE_TRANSFORM (trans));
  GstFlowReturn ret;

  if (GST_BUFFER_IS_DISCONT (input))
    priv->discont = TRUE;
  if (gst_pad_needs_reconfigure (GST_BASE_TRANSFORM_SRC_PAD (trans))
      && (ret = gst_cf_schedule_wait_idle (priv->schedule)) != GST_FLOW_OK) {
    gst_buffer_unref (input);
    return ret;
  }
  ret = GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class)->submit_input_buffer
      (trans, is_discont, input);
  if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED)
    priv->discont = TRUE;
  return ret;
}

/* Hands the frame pair to the scheduler; the task pushes @outbuf once its
 * work is done. */
static GstFlowReturn
gst_cf_base_transform_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCfBaseTransformPrivate *priv = PRIV (self);
  GstVideoFrame in_frame, out_frame;
  cf_frame in, out;
  gboolean discont = priv->discont;
  /* The producer of a CUDA input may still be writing it (a buffer from
   * one of ours, gstcfpending.h); our output may leave before our own work
   * is done when downstream can wait for it on the GPU. */
  cf_event wait = priv->in_cuda ? gst_cf_buffer_pending_event (inbuf) : NULL;
  /* Only between CUDA memory on both sides: an element that takes system
   * memory (an upload) pushes from its own task once its copy is done, so
   * the source's thread does no more than the upload's submit, and the
   * elements after it run in that task's thread. (Pushing an upload's
   * output from its task before the copy is done was tried: 84-88% of the
   * pinned upload rate at 4K instead of 100%, bench/results/
   * 2026-12-01-h200-s16-4-upload-early.log.) */
  gboolean early = priv->downstream_waits && priv->in_cuda;
  GstFlowReturn ret;

  if (!gst_cf_frame_map (GST_ELEMENT (self), priv->context, &in_frame, inbuf, &priv->in_info,
          priv->in_cuda, GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (!gst_cf_frame_map (GST_ELEMENT (self), priv->context, &out_frame, outbuf,
          &priv->out_info, priv->out_cuda, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&in_frame);
    return GST_FLOW_ERROR;
  }
  gst_cf_frame_to_cf (&in_frame, priv->in_format, priv->in_cuda, priv->device, &in);
  gst_cf_frame_to_cf (&out_frame, priv->out_format, priv->out_cuda, priv->device, &out);
  report_path_once (self);
  count_host_input (self, &in);
  if (klass->before_submit)
    klass->before_submit (self);
  /* The frames stay mapped, and the buffers referenced, until the task is
   * done with them; the parent still holds and releases its own refs. */
  ret = gst_cf_schedule_submit (priv->schedule, gst_buffer_ref (inbuf), &in_frame, &in,
      gst_buffer_ref (outbuf), &out_frame, &out, discont, wait, early);
  if (ret == GST_FLOW_OK) {
    priv->submitted = TRUE;
    priv->submitted_early = early;
    priv->discont = FALSE;
  }
  return ret;
}

/* Every output leaves through the schedule, in order: a submitted frame
 * from the task (or at once, when downstream waits on the GPU), a
 * passthrough buffer behind the frames before it. */
static GstFlowReturn
gst_cf_base_transform_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCfBaseTransformPrivate *priv = PRIV (GST_CF_BASE_TRANSFORM (trans));
  GstFlowReturn ret;
  gboolean discont;

  priv->submitted = FALSE;
  ret = GST_BASE_TRANSFORM_CLASS (gst_cf_base_transform_parent_class)->generate_output (trans,
      outbuf);
  if (ret != GST_FLOW_OK || !*outbuf)
    return ret;
  if (priv->submitted) {
    /* The schedule holds its own reference. */
    gst_buffer_unref (*outbuf);
    *outbuf = NULL;
    return priv->submitted_early ? gst_cf_schedule_push_early (priv->schedule) : GST_FLOW_OK;
  }
  /* Passthrough. An input from one of ours may carry pending work: fine
   * for a downstream that waits on the GPU, and for caps passthrough (the
   * ALLOCATION query went through us, so upstream added the meta only if
   * downstream takes it); otherwise (a filter that became an identity after
   * its allocation was decided) the host waits here. */
  if (priv->allocation_decided && !priv->downstream_waits
      && !gst_cf_buffer_finish_pending (*outbuf)) {
    GST_ELEMENT_ERROR (trans, STREAM, FAILED, ("GPU work on a frame failed: %s",
            cf_last_error ()), (NULL));
    gst_clear_buffer (outbuf);
    return GST_FLOW_ERROR;
  }
  discont = priv->discont;
  priv->discont = FALSE;
  ret = gst_cf_schedule_push_ready (priv->schedule, *outbuf, discont,
      priv->allocation_decided && priv->downstream_waits);
  *outbuf = NULL;
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
gst_cf_base_transform_finalize (GObject * object)
{
  GstCfBaseTransformPrivate *priv = PRIV (GST_CF_BASE_TRANSFORM (object));

  gst_cf_schedule_free (priv->schedule);
  priv->schedule = NULL;
  G_OBJECT_CLASS (gst_cf_base_transform_parent_class)->finalize (object);
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
  gobject_class->finalize = gst_cf_base_transform_finalize;
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to run on; -1 takes the device of a CUDA context shared by "
          "neighbouring elements, else device 0. Read when the element starts.",
          -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Most frames the element holds between taking them in and pushing them out, "
          "their GPU work queued (uploads, kernels and downloads of neighbouring frames then "
          "overlap). Each frame is pushed as soon as its own work is done, so an application "
          "that waits for every result before pushing the next frame gets it at once. Read "
          "when the element starts.",
          1, GST_CF_MAX_FRAMES_IN_FLIGHT, GST_CF_DEFAULT_FRAMES_IN_FLIGHT,
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
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cf_base_transform_submit_input_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cf_base_transform_transform);
  trans_class->generate_output = GST_DEBUG_FUNCPTR (gst_cf_base_transform_generate_output);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cf_base_transform_sink_event);
  trans_class->src_event = GST_DEBUG_FUNCPTR (gst_cf_base_transform_src_event);

  gst_type_mark_as_plugin_api (GST_TYPE_CF_BASE_TRANSFORM, 0);
}

static void
gst_cf_base_transform_init (GstCfBaseTransform * self)
{
  GstCfBaseTransformPrivate *priv = PRIV (self);
  GstPad *srcpad = GST_BASE_TRANSFORM_SRC_PAD (self);

  priv->device_id = DEFAULT_DEVICE_ID;
  priv->frames_in_flight = GST_CF_DEFAULT_FRAMES_IN_FLIGHT;
  priv->device = -1;
  priv->schedule = gst_cf_schedule_new (GST_ELEMENT (self), srcpad);
  priv->src_activate_mode = GST_PAD_ACTIVATEMODEFUNC (srcpad);
  gst_pad_set_activatemode_function (srcpad, gst_cf_base_transform_src_activate_mode);
  /* Answer QoS: drop frames that would arrive too late anyway, as video
   * filters in GStreamer do by default. */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
}
