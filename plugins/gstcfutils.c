/* cudafilters GStreamer plugin: GPU detection and caps helpers. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>

#include "gstcfutils.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

G_STATIC_ASSERT (CF_FORMAT_COUNT <= 32); /* format sets are 32-bit masks */

/* ---- GPU detection ---- */

static const gchar *no_gpu_reason = "";

const gchar *
gst_cf_no_gpu_reason (void)
{
  return no_gpu_reason;
}

static gpointer
detect_gpu (gpointer data)
{
  int count = 0;

  (void) data;
  /* gst_cuda_load_library() is the only gst_cuda_* call that is safe
   * without libcuda; everything else must wait for its answer. */
  if (!gst_cuda_load_library ()) {
    no_gpu_reason = "the CUDA driver library (libcuda) cannot be loaded";
  } else if (cf_device_count (&count) != CF_OK || count == 0) {
    no_gpu_reason = cf_device_unavailable_reason ();
    if (!no_gpu_reason[0])
      no_gpu_reason = "no CUDA device found";
  } else {
    gst_cuda_memory_init_once ();
    GST_INFO ("%d CUDA device(s) usable", count);
    return GINT_TO_POINTER (TRUE);
  }
  GST_WARNING ("no usable CUDA GPU (%s): elements run their CPU code on system memory",
      no_gpu_reason);
  return GINT_TO_POINTER (FALSE);
}

gboolean
gst_cf_have_gpu (void)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, detect_gpu, NULL);
  return GPOINTER_TO_INT (once.retval);
}

/* ---- caps helpers ---- */

gboolean
gst_cf_features_are_cuda (const GstCapsFeatures * features)
{
  return features && !gst_caps_features_is_any (features)
      && gst_caps_features_contains (features, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
}

void
gst_cf_caps_append (GstCaps * out, const GstStructure * s, const gchar * feature)
{
  GstCapsFeatures *f = feature ? gst_caps_features_new (feature, NULL) : NULL;

  if (gst_caps_is_subset_structure_full (out, s, f)) {
    if (f)
      gst_caps_features_free (f);
    return;
  }
  gst_caps_append_structure_full (out, gst_structure_copy (s), f);
}

static guint32
format_bit_of_name (const gchar * name)
{
  cf_format f = name ? cf_format_from_name (name) : CF_FORMAT_UNKNOWN;

  return f == CF_FORMAT_UNKNOWN ? 0 : GST_CF_FORMAT_BIT (f);
}

guint32
gst_cf_structure_get_formats (const GstStructure * s)
{
  const GValue *v = gst_structure_get_value (s, "format");
  guint32 set = 0;

  if (!v)
    return GST_CF_ALL_FORMATS;
  if (G_VALUE_HOLDS_STRING (v))
    return format_bit_of_name (g_value_get_string (v));
  if (GST_VALUE_HOLDS_LIST (v)) {
    for (guint i = 0; i < gst_value_list_get_size (v); i++) {
      const GValue *item = gst_value_list_get_value (v, i);
      if (G_VALUE_HOLDS_STRING (item))
        set |= format_bit_of_name (g_value_get_string (item));
    }
  }
  return set;
}

void
gst_cf_structure_set_formats (GstStructure * s, guint32 formats)
{
  GValue list = G_VALUE_INIT, item = G_VALUE_INIT;

  g_value_init (&list, GST_TYPE_LIST);
  for (int f = 1; f < CF_FORMAT_COUNT; f++) {
    if (!(formats & GST_CF_FORMAT_BIT (f)))
      continue;
    g_value_init (&item, G_TYPE_STRING);
    g_value_set_static_string (&item, cf_format_name ((cf_format) f));
    gst_value_list_append_and_take_value (&list, &item);
  }
  if (gst_value_list_get_size (&list) == 1)
    gst_structure_set_value (s, "format", gst_value_list_get_value (&list, 0));
  else
    gst_structure_set_value (s, "format", &list);
  g_value_unset (&list);
}

GstCaps *
gst_cf_caps_for_formats (guint32 formats)
{
  GstStructure *s = gst_structure_new_empty ("video/x-raw");
  GstCaps *caps = gst_caps_new_empty ();

  gst_cf_structure_set_formats (s, formats);
  gst_structure_set (s, "width", GST_TYPE_INT_RANGE, 1, G_MAXINT,
      "height", GST_TYPE_INT_RANGE, 1, G_MAXINT,
      "framerate", GST_TYPE_FRACTION_RANGE, 0, 1, G_MAXINT, 1, NULL);
  gst_cf_caps_append (caps, s, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
  gst_caps_append_structure (caps, s);
  return caps;
}

/* gst_caps_filter_and_map_in_place() callback: keeps a structure whose
 * features are CUDA memory exactly when @keep_cuda is non-zero. */
static gboolean
keep_if_cuda_is (GstCapsFeatures * features, G_GNUC_UNUSED GstStructure * structure,
    gpointer keep_cuda)
{
  return !gst_cf_features_are_cuda (features) == !GPOINTER_TO_INT (keep_cuda);
}

GstCaps *
gst_cf_caps_drop_cuda (GstCaps * caps)
{
  caps = gst_caps_make_writable (caps);
  gst_caps_filter_and_map_in_place (caps, keep_if_cuda_is, GINT_TO_POINTER (FALSE));
  return caps;
}

gboolean
gst_cf_caps_have_cuda (const GstCaps * caps)
{
  for (guint i = 0; caps && i < gst_caps_get_size (caps); i++)
    if (gst_cf_features_are_cuda (gst_caps_get_features (caps, i)))
      return TRUE;
  return FALSE;
}

GstCaps *
gst_cf_caps_keep_cuda (GstCaps * caps)
{
  if (!gst_cf_caps_have_cuda (caps))
    return caps;
  caps = gst_caps_make_writable (caps);
  gst_caps_filter_and_map_in_place (caps, keep_if_cuda_is, GINT_TO_POINTER (TRUE));
  return caps;
}
