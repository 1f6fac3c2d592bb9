/* cudafilters GStreamer plugin: caps negotiation of the base transform.
 *
 * Every element negotiates its formats in two memory kinds: CUDA memory
 * (listed first, preferred) and system memory. Without a usable GPU the
 * CUDA structures are dropped from every answer, so such caps cannot be
 * negotiated. The subclass's transform_structure says what one structure
 * becomes on the other pad. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfbasetransformpriv.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

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

/* The answer to a caps query, shaped for the machine (see the header). */
void
gst_cf_base_transform_shape_caps_answer (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCaps *caps = NULL, *filter = NULL;

  gst_query_parse_caps_result (query, &caps);
  gst_query_parse_caps (query, &filter);
  if (!caps)
    return;
  if (!gst_cf_base_transform_uses_gpu (GST_CF_BASE_TRANSFORM (trans))) {
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
    return;
  }
  gst_query_set_caps_result (query, caps);
  gst_caps_unref (caps);
}

GstCaps *
gst_cf_base_transform_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCfBaseTransform *self = GST_CF_BASE_TRANSFORM (trans);
  GstCfBaseTransformClass *klass = GST_CF_BASE_TRANSFORM_GET_CLASS (self);
  GstCaps *out = gst_caps_new_empty ();

  for (guint i = 0; i < gst_caps_get_size (caps); i++)
    klass->transform_structure (self, direction, gst_caps_get_structure (caps, i),
        gst_caps_get_features (caps, i), out);
  if (!gst_cf_base_transform_uses_gpu (self))
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
GstCaps *
gst_cf_base_transform_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  GstCaps *ours = gst_cf_base_transform_transform_caps (trans, direction, caps, NULL);
  GstCaps *preferred = gst_caps_intersect_full (ours, othercaps, GST_CAPS_INTERSECT_FIRST);

  gst_caps_unref (ours);
  if (gst_caps_is_empty (preferred)) {
    gst_caps_unref (preferred);
    return GST_CF_PARENT_CLASS->fixate_caps (trans,
        direction, caps, othercaps);
  }
  gst_caps_unref (othercaps);
  if (GST_CF_BASE_TRANSFORM_GET_CLASS (trans)->fixate_structure) {
    preferred = gst_caps_truncate (preferred);
    GST_CF_BASE_TRANSFORM_GET_CLASS (trans)->fixate_structure (GST_CF_BASE_TRANSFORM (trans),
        direction, gst_caps_get_structure (caps, 0), gst_caps_get_structure (preferred, 0));
  }
  GST_DEBUG_OBJECT (trans, "preferred %" GST_PTR_FORMAT, preferred);
  return gst_caps_fixate (preferred);
}

/* The templates only list core formats, so this is a last line of
 * defence with a clear message. */
cf_format
gst_cf_negotiated_format (GstElement * self, const GstVideoInfo * info)
{
  const gchar *name = gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info));
  cf_format format = cf_format_from_name (name);

  if (format == CF_FORMAT_UNKNOWN)
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Video format %s is not supported.", name), (NULL));
  return format;
}

