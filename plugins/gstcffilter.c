/* cudafilters GStreamer plugin: one element per filter of the core registry.
 *
 * Element types are made at run time from the filter descriptors (the
 * descriptor is the class data), so a filter added to the core's registry
 * gets its element, properties and caps with no edit here. */
/**
 * SECTION:element-cudagray
 * @title: cudagray, cudablur and the other filter elements
 *
 * Each filter of the cudafilters registry is an element named "cuda" + the
 * filter's name ("cf" + the name where nvcodec has that name: cfconvert,
 * cfscale), with one property per filter parameter (gst-inspect-1.0
 * lists them) plus cuda-device-id. CUDA input gives CUDA output, system
 * input gives system output. On a machine with a usable GPU the CUDA
 * kernels always run (system-memory frames are staged through GPU memory);
 * without one the bit-identical CPU reference runs. Each element posts one
 * INFO message saying which path it took.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=vtest.avi ! decodebin ! cudaupload ! cudagray ! \
 *     cudablur sigma=2 ! cudadownload ! videoconvert ! autovideosink
 * ]|
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12 ! cudaupload ! \
 *     cudablur sigma=3 border=replicate ! cudadownload ! videoconvert ! autovideosink
 * ]|
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! qtdemux ! h264parse ! nvh264dec ! \
 *     cfscale method=area ! "video/x-raw(memory:CUDAMemory),width=1280,height=720" ! \
 *     cfconvert ! "video/x-raw(memory:CUDAMemory),format=RGBA" ! cudadownload ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudamemory.h>

#include "gstcfbasetransform.h"
#include "gstcfelements.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

typedef struct
{
  GstCfBaseTransform parent;
  /* Properties live in `settings`, under `lock`, which is held only
   * briefly; the streaming thread copies them into its own `filter` at the
   * start of a frame, so setting a property never waits for a frame. */
  GMutex lock;
  cf_filter *settings;
  gboolean changed;   /* settings differ from filter */
  cf_filter *filter;  /* streaming thread only */
  cf_format in_format, out_format; /* negotiated, streaming thread only */
  /* Input caps refused at negotiation, already posted: GstBaseTransform
   * tries the same caps again (a renegotiation at the next buffer), and the
   * application should hear it once. */
  GstVideoInfo refused;
  gboolean have_refused;
} GstCfFilter;

typedef struct
{
  GstCfBaseTransformClass parent_class;
  const cf_filter_desc *desc;
} GstCfFilterClass;

#define GST_CF_FILTER(obj) ((GstCfFilter *) (obj))
#define GST_CF_FILTER_GET_CLASS(obj) ((GstCfFilterClass *) G_OBJECT_GET_CLASS (obj))

static gpointer parent_class = NULL;

static gchar *factory_name (const cf_filter_desc * desc);

/* ---- names ---- */

/* "kernel-size" -> "KernelSize", for GType names. */
static void
append_camel (GString * s, const gchar * name)
{
  gboolean upper = TRUE;

  for (; *name; name++) {
    if (!g_ascii_isalnum (*name)) {
      upper = TRUE;
      continue;
    }
    g_string_append_c (s, upper ? g_ascii_toupper (*name) : *name);
    upper = FALSE;
  }
}

/* Interned "GstCf" + camel-cased parts, e.g. GstCfBlurBorder. */
static const gchar *
type_name (const gchar * a, const gchar * b)
{
  GString *s = g_string_new ("GstCf");
  const gchar *interned;

  append_camel (s, a);
  append_camel (s, b);
  interned = g_intern_string (s->str);
  g_string_free (s, TRUE);
  return interned;
}

/* ---- properties ---- */

/* An enum type for an enum parameter's choices, registered once; the
 * values live as long as the type, i.e. for the process. */
static GType
enum_type (const cf_filter_desc * desc, const cf_param_desc * p)
{
  const gchar *name = type_name (desc->name, p->name);
  GType type = g_type_from_name (name);
  GEnumValue *values;
  int n = 0;

  if (type)
    return type;
  while (p->choices[n])
    n++;
  values = g_new0 (GEnumValue, n + 1);
  for (int i = 0; i < n; i++) {
    values[i].value = i;
    values[i].value_name = p->choices[i];
    values[i].value_nick = p->choices[i];
  }
  return g_enum_register_static (name, values);
}

static GParamSpec *
param_spec (const cf_filter_desc * desc, const cf_param_desc * p)
{
  /* The descriptor's strings are static; the blurb is interned. */
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;
  gchar *text = p->unit[0] ? g_strdup_printf ("%s (%s)", p->summary, p->unit)
      : g_strdup (p->summary);
  const gchar *blurb = g_intern_string (text);

  g_free (text);
  switch (p->type) {
    case CF_PARAM_DOUBLE:
      return g_param_spec_double (p->name, p->name, blurb, p->min, p->max, p->default_value,
          flags);
    case CF_PARAM_INT:
      return g_param_spec_int (p->name, p->name, blurb, (gint) p->min, (gint) p->max,
          (gint) p->default_value, flags);
    case CF_PARAM_ENUM:
      return g_param_spec_enum (p->name, p->name, blurb, enum_type (desc, p),
          (gint) p->default_value, flags);
  }
  return NULL;
}

/* Property ids are 1 + the parameter's index. */
static const cf_param_desc *
param_of (GObject * object, guint prop_id)
{
  const cf_filter_desc *desc = GST_CF_FILTER_GET_CLASS (object)->desc;

  return prop_id >= 1 && prop_id <= (guint) desc->n_params ? &desc->params[prop_id - 1] : NULL;
}

/* cpu-threads, after the parameters' ids. */
static guint
cpu_threads_prop (GObject * object)
{
  return (guint) GST_CF_FILTER_GET_CLASS (object)->desc->n_params + 1;
}

static void
gst_cf_filter_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCfFilter *self = GST_CF_FILTER (object);
  const cf_param_desc *p = param_of (object, prop_id);
  gchar *error = NULL;
  double v;

  if (prop_id == cpu_threads_prop (object)) {
    g_mutex_lock (&self->lock);
    (void) cf_filter_set_cpu_threads (self->settings, (int) g_value_get_uint (value));
    self->changed = TRUE;
    g_mutex_unlock (&self->lock);
    return;
  }
  if (!p) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  v = p->type == CF_PARAM_DOUBLE ? g_value_get_double (value)
      : p->type == CF_PARAM_INT ? g_value_get_int (value) : g_value_get_enum (value);
  g_mutex_lock (&self->lock);
  if (cf_filter_set_double (self->settings, p->name, v) != CF_OK)
    error = g_strdup (cf_last_error ());
  else
    self->changed = TRUE;
  g_mutex_unlock (&self->lock);
  /* GParamSpec ranges catch most bad values; this is the rest (sigma 0,
   * an even kernel-size). Like GObject, warn and keep the old value. */
  if (error) {
    g_warning ("%s: %s; keeping the previous value", GST_OBJECT_NAME (self), error);
    g_free (error);
  }
}

static void
gst_cf_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCfFilter *self = GST_CF_FILTER (object);
  const cf_param_desc *p = param_of (object, prop_id);
  double v = 0;

  if (prop_id == cpu_threads_prop (object)) {
    g_mutex_lock (&self->lock);
    g_value_set_uint (value, (guint) cf_filter_get_cpu_threads (self->settings));
    g_mutex_unlock (&self->lock);
    return;
  }
  if (!p) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  g_mutex_lock (&self->lock);
  if (cf_filter_get_double (self->settings, p->name, &v) != CF_OK)
    v = p->default_value;
  g_mutex_unlock (&self->lock);
  if (p->type == CF_PARAM_DOUBLE)
    g_value_set_double (value, v);
  else if (p->type == CF_PARAM_INT)
    g_value_set_int (value, (gint) v);
  else
    g_value_set_enum (value, (gint) v);
}

/* ---- caps ---- */

/* Output formats for @in with the current parameters, preferred first;
 * returns how many. */
static int
output_formats (GstCfFilter * self, cf_format in, cf_format out[GST_CF_MAX_OUTPUTS])
{
  int n;

  g_mutex_lock (&self->lock);
  n = cf_filter_get_output_formats (self->settings, in, out, GST_CF_MAX_OUTPUTS);
  g_mutex_unlock (&self->lock);
  return MIN (n, GST_CF_MAX_OUTPUTS);
}

/* Formats keep their memory kind. Sink formats map to the formats the
 * filter makes of them, one structure per preference rank (gray: GRAY8
 * first, then the input's own format); src formats map back to every input
 * that gives them. Colorimetry and chroma siting stay only where a rank keeps
 * every format as it is. */
static void
gst_cf_filter_transform_structure (GstCfBaseTransform * base, GstPadDirection direction,
    const GstStructure * s, const GstCapsFeatures * features, GstCaps * out)
{
  GstCfFilter *self = GST_CF_FILTER (base);
  const cf_filter_desc *desc = GST_CF_FILTER_GET_CLASS (self)->desc;
  guint32 given = gst_cf_structure_get_formats (s), result[GST_CF_MAX_OUTPUTS] = { 0 };
  gboolean same[GST_CF_MAX_OUTPUTS];

  for (int r = 0; r < GST_CF_MAX_OUTPUTS; r++)
    same[r] = TRUE;
  for (int i = 0; i < desc->n_formats; i++) {
    cf_format in = desc->formats[i], outs[GST_CF_MAX_OUTPUTS];
    int n = output_formats (self, in, outs);
    for (int r = 0; r < n; r++) {
      guint32 from = GST_CF_FORMAT_BIT (direction == GST_PAD_SINK ? in : outs[r]);
      if (!(given & from))
        continue;
      result[r] |= GST_CF_FORMAT_BIT (direction == GST_PAD_SINK ? outs[r] : in);
      same[r] = same[r] && in == outs[r];
    }
  }
  for (int r = 0; r < GST_CF_MAX_OUTPUTS; r++) {
    GstStructure *copy;
    if (!result[r])
      continue;
    copy = gst_structure_copy (s);
    gst_cf_structure_set_formats (copy, result[r]);
    if (!same[r])
      gst_structure_remove_fields (copy, "colorimetry", "chroma-site", NULL);
    if (desc->flags & CF_FILTER_RESIZES) {
      /* Any size on the other pad; fixate_structure picks the one the
       * filter proposes. The pixel aspect ratio goes with the size. */
      gst_structure_set (copy, "width", GST_TYPE_INT_RANGE, 1, G_MAXINT,
          "height", GST_TYPE_INT_RANGE, 1, G_MAXINT, NULL);
      gst_structure_remove_field (copy, "pixel-aspect-ratio");
      /* A size the properties give (w, h not 0) is the output's whatever
       * downstream would like: a peer that cannot take it fails to
       * negotiate instead of getting another size silently. */
      if (direction == GST_PAD_SINK) {
        double pw = 0, ph = 0;
        g_mutex_lock (&self->lock);
        if (cf_filter_get_double (self->settings, "w", &pw) != CF_OK)
          pw = 0;
        if (cf_filter_get_double (self->settings, "h", &ph) != CF_OK)
          ph = 0;
        g_mutex_unlock (&self->lock);
        if (pw >= 1)
          gst_structure_set (copy, "width", G_TYPE_INT, (gint) pw, NULL);
        if (ph >= 1)
          gst_structure_set (copy, "height", G_TYPE_INT, (gint) ph, NULL);
      }
    }
    gst_cf_caps_append (out, copy,
        gst_cf_features_are_cuda (features) ? GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY : NULL);
    gst_structure_free (copy);
  }
}

/* A resizing filter's output: the size it proposes for the input's size
 * (scale's w and h, the input's where they are 0), or the nearest the peer
 * allows. The input side, when the output is fixed first, keeps any size. */
static void
gst_cf_filter_fixate_structure (GstCfBaseTransform * base, GstPadDirection direction,
    const GstStructure * in, GstStructure * out)
{
  GstCfFilter *self = GST_CF_FILTER (base);
  gint w = 0, h = 0, ow = 0, oh = 0, par_n = 1, par_d = 1, n, d;
  double cx = 0, cy = 0, cw = 0, ch = 0;
  cf_status st;

  if (direction != GST_PAD_SINK || !gst_structure_get_int (in, "width", &w)
      || !gst_structure_get_int (in, "height", &h))
    return;
  g_mutex_lock (&self->lock);
  st = cf_filter_get_output_size (self->settings, w, h, &ow, &oh);
  /* The region scaled: the crop, where there is one (out-of-range crops
   * fail later, in the filter, with their own message). */
  (void) cf_filter_get_double (self->settings, "crop-x", &cx);
  (void) cf_filter_get_double (self->settings, "crop-y", &cy);
  (void) cf_filter_get_double (self->settings, "crop-w", &cw);
  (void) cf_filter_get_double (self->settings, "crop-h", &ch);
  g_mutex_unlock (&self->lock);
  if (st != CF_OK)
    return;
  gst_structure_fixate_field_nearest_int (out, "width", ow);
  gst_structure_fixate_field_nearest_int (out, "height", oh);
  if (!gst_structure_get_int (out, "width", &ow) || !gst_structure_get_int (out, "height", &oh))
    return;
  /* The picture keeps its display aspect ratio, as videoscale's does:
   * out PAR = in PAR x (region width / region height) / (out width / out
   * height). */
  gint rw = cw >= 1 ? (gint) cw : MAX (w - (gint) cx, 1);
  gint rh = ch >= 1 ? (gint) ch : MAX (h - (gint) cy, 1);
  gst_structure_get_fraction (in, "pixel-aspect-ratio", &par_n, &par_d);
  if (!gst_util_fraction_multiply (par_n, par_d, rw, rh, &n, &d)
      || !gst_util_fraction_multiply (n, d, oh, ow, &n, &d))
    return;
  if (gst_structure_has_field (out, "pixel-aspect-ratio"))
    gst_structure_fixate_field_nearest_fraction (out, "pixel-aspect-ratio", n, d);
  else
    gst_structure_set (out, "pixel-aspect-ratio", GST_TYPE_FRACTION, n, d, NULL);
}

/* The caps that describe the YUV side of a conversion: the input's when it
 * is YUV or the output is not, else the output's. */
static const GstVideoInfo *
yuv_side (const GstVideoInfo * in_info, const GstVideoInfo * out_info)
{
  return GST_VIDEO_INFO_IS_YUV (in_info) || !GST_VIDEO_INFO_IS_YUV (out_info) ? in_info
      : out_info;
}

/* The choice a stream-described parameter takes from the caps, or NULL. */
static const gchar *
role_value (cf_param_role role, const GstVideoInfo * info)
{
  const GstVideoColorimetry *c = &info->colorimetry;

  switch (role) {
    case CF_PARAM_ROLE_COLOR_RANGE:
      /* Unknown range: YUV video is limited range unless it says otherwise. */
      return c->range == GST_VIDEO_COLOR_RANGE_0_255 ? "full" : "limited";
    case CF_PARAM_ROLE_COLOR_MATRIX:
      return c->matrix == GST_VIDEO_COLOR_MATRIX_BT709 ? "bt709"
          : c->matrix == GST_VIDEO_COLOR_MATRIX_BT2020 ? "bt2020" : "bt601";
    case CF_PARAM_ROLE_CHROMA_SITE:
      /* Unknown siting: MPEG-2's, the default of H.264 and HEVC. */
      return info->chroma_site == GST_VIDEO_CHROMA_SITE_UNKNOWN
          || (info->chroma_site & GST_VIDEO_CHROMA_SITE_H_COSITED) ? "left" : "center";
    default:
      return NULL;
  }
}

/* Fills the parameters the stream decides (CF_PARAM_ROLE_*) from the caps
 * of the YUV side and checks the format pair. */
static gboolean
gst_cf_filter_set_info (GstCfBaseTransform * base, const GstVideoInfo * in_info,
    cf_format in_format, const GstVideoInfo * out_info, cf_format out_format)
{
  GstCfFilter *self = GST_CF_FILTER (base);
  const cf_filter_desc *desc = GST_CF_FILTER_GET_CLASS (self)->desc;
  cf_format outs[GST_CF_MAX_OUTPUTS];
  int n = output_formats (self, in_format, outs);
  const GstVideoInfo *described = yuv_side (in_info, out_info);

  if ((desc->flags & CF_FILTER_SPATIAL)
      && GST_VIDEO_INFO_INTERLACE_MODE (in_info) != GST_VIDEO_INTERLACE_MODE_PROGRESSIVE) {
    if (self->have_refused && gst_video_info_is_equal (&self->refused, in_info))
      return FALSE;
    self->refused = *in_info;
    self->have_refused = TRUE;
    GST_ELEMENT_ERROR (base, CORE, NEGOTIATION,
        ("%s cannot filter interlaced video (interlace-mode=%s): its result depends on "
            "neighbouring rows, which belong to the other field. Deinterlace first "
            "(e.g. GStreamer's deinterlace element before it).", GST_OBJECT_NAME (base),
            gst_video_interlace_mode_to_string (GST_VIDEO_INFO_INTERLACE_MODE (in_info))),
        (NULL));
    return FALSE;
  }
  self->have_refused = FALSE;
  self->in_format = in_format;
  self->out_format = out_format;
  g_mutex_lock (&self->lock);
  for (int i = 0; i < desc->n_params; i++) {
    const gchar *value = role_value (desc->params[i].role, described);
    if (value && cf_filter_set_string (self->settings, desc->params[i].name, value) == CF_OK)
      self->changed = TRUE;
  }
  g_mutex_unlock (&self->lock);
  for (int i = 0; i < n; i++)
    if (outs[i] == out_format) {
      /* before_transform decided for the caps before these (a buffer can
       * bring a renegotiation after it ran): decide again for these. */
      g_mutex_lock (&self->lock);
      gboolean identity = cf_filter_is_identity (self->settings, in_format, out_format)
          && GST_VIDEO_INFO_WIDTH (in_info) == GST_VIDEO_INFO_WIDTH (out_info)
          && GST_VIDEO_INFO_HEIGHT (in_info) == GST_VIDEO_INFO_HEIGHT (out_info);
      g_mutex_unlock (&self->lock);
      gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (base), identity);
      return TRUE;
    }
  GST_ELEMENT_ERROR (base, CORE, NEGOTIATION,
      ("The filter cannot make %s from %s.", cf_format_name (out_format),
          cf_format_name (in_format)), (NULL));
  return FALSE;
}

/* ---- processing ---- */

/* Frames pass through untouched while the parameters make the filter an
 * identity (gray on GRAY8, blur with one-tap kernels); decided per buffer,
 * so changing a property while playing switches it on or off. */
static void
gst_cf_filter_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstCfFilter *self = GST_CF_FILTER (trans);
  gboolean identity;

  (void) buffer;
  g_mutex_lock (&self->lock);
  identity = cf_filter_is_identity (self->settings, self->in_format, self->out_format);
  g_mutex_unlock (&self->lock);
  if (identity != gst_base_transform_is_passthrough (trans))
    GST_DEBUG_OBJECT (self, "passthrough %s", identity ? "on" : "off");
  gst_base_transform_set_passthrough (trans, identity);
}

/* Brings the streaming thread's filter up to date with the properties
 * (set from any thread into `settings`) before each frame: the scheduler
 * runs it inside the submit that follows, and it keeps its plan until a
 * value changes. */
static void
gst_cf_filter_before_submit (GstCfBaseTransform * base)
{
  GstCfFilter *self = GST_CF_FILTER (base);

  g_mutex_lock (&self->lock);
  if (self->changed) {
    const cf_filter_desc *desc = GST_CF_FILTER_GET_CLASS (self)->desc;
    for (int i = 0; i < desc->n_params; i++) {
      double v;
      /* Both instances take the same values, so this cannot fail. */
      if (cf_filter_get_double (self->settings, desc->params[i].name, &v) == CF_OK)
        (void) cf_filter_set_double (self->filter, desc->params[i].name, v);
    }
    (void) cf_filter_set_cpu_threads (self->filter,
        cf_filter_get_cpu_threads (self->settings));
    self->changed = FALSE;
  }
  g_mutex_unlock (&self->lock);
}

static cf_filter *
gst_cf_filter_get_filter (GstCfBaseTransform * base)
{
  return GST_CF_FILTER (base)->filter;
}

/* The instance's GPU scratch belongs to the context being released. */
static void
gst_cf_filter_release_gpu (GstCfBaseTransform * base)
{
  cf_filter_release_scratch (GST_CF_FILTER (base)->filter);
}

/* ---- type ---- */

static void
gst_cf_filter_finalize (GObject * object)
{
  GstCfFilter *self = GST_CF_FILTER (object);

  /* stop() already freed any GPU scratch; what is left is host memory. */
  cf_filter_free (&self->filter);
  cf_filter_free (&self->settings);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* Formats the filter produces from its inputs, with default parameters. */
static guint32
default_output_formats (const cf_filter_desc * desc)
{
  cf_filter *filter = cf_filter_new (desc->name);
  guint32 set = 0;

  for (int i = 0; filter && i < desc->n_formats; i++) {
    cf_format outs[GST_CF_MAX_OUTPUTS];
    int n = cf_filter_get_output_formats (filter, desc->formats[i], outs, GST_CF_MAX_OUTPUTS);
    for (int r = 0; r < n && r < GST_CF_MAX_OUTPUTS; r++)
      set |= GST_CF_FORMAT_BIT (outs[r]);
  }
  cf_filter_free (&filter);
  return set;
}

static void
set_metadata (GstElementClass * element_class, const cf_filter_desc * desc)
{
  gchar *longname = g_strdup_printf ("CUDA %s (cudafilters)", desc->name);
  gchar *factory = factory_name (desc);
  gchar *description = g_strdup_printf ("%s. %s Example: gst-launch-1.0 videotestsrc ! "
      "cudaupload ! %s ! cudadownload ! videoconvert ! autovideosink", desc->summary,
      desc->description, factory);

  gst_element_class_set_metadata (element_class, longname, "Filter/Effect/Video",
      description, "cudafilters developers");
  g_free (longname);
  g_free (factory);
  g_free (description);
}

static void
gst_cf_filter_class_init (gpointer g_class, gpointer class_data)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (g_class);
  GstElementClass *element_class = GST_ELEMENT_CLASS (g_class);
  GstCfBaseTransformClass *cf_class = GST_CF_BASE_TRANSFORM_CLASS (g_class);
  const cf_filter_desc *desc = class_data;
  guint32 in_formats = 0;

  parent_class = g_type_class_peek_parent (g_class);
  ((GstCfFilterClass *) g_class)->desc = desc;
  gobject_class->set_property = gst_cf_filter_set_property;
  gobject_class->get_property = gst_cf_filter_get_property;
  gobject_class->finalize = gst_cf_filter_finalize;
  /* Parameters with a colour role come from the caps, not from the user. */
  for (int i = 0; i < desc->n_params; i++)
    if (desc->params[i].role == CF_PARAM_ROLE_NONE
        || desc->params[i].role == CF_PARAM_ROLE_OUTPUT_FORMAT)
      g_object_class_install_property (gobject_class, (guint) i + 1,
          param_spec (desc, &desc->params[i]));
  g_object_class_install_property (gobject_class, (guint) desc->n_params + 1,
      g_param_spec_uint ("cpu-threads", "CPU threads",
          "Threads of the CPU path (no GPU): 0 uses all cores; every element and "
          "pipeline of the process shares one pool of them", 0, CF_MAX_CPU_THREADS, 0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  set_metadata (element_class, desc);
  for (int i = 0; i < desc->n_formats; i++)
    in_formats |= GST_CF_FORMAT_BIT (desc->formats[i]);
  gst_cf_base_transform_class_add_templates (element_class, in_formats,
      default_output_formats (desc));

  cf_class->transform_structure = gst_cf_filter_transform_structure;
  cf_class->prefer_cuda_input = TRUE;
  cf_class->set_info = gst_cf_filter_set_info;
  if (desc->flags & CF_FILTER_RESIZES)
    cf_class->fixate_structure = gst_cf_filter_fixate_structure;
  GST_BASE_TRANSFORM_CLASS (g_class)->before_transform = gst_cf_filter_before_transform;
  cf_class->get_filter = gst_cf_filter_get_filter;
  cf_class->before_submit = gst_cf_filter_before_submit;
  cf_class->release_gpu = gst_cf_filter_release_gpu;
}

static void
gst_cf_filter_init (GTypeInstance * instance, gpointer g_class)
{
  GstCfFilter *self = GST_CF_FILTER (instance);

  g_mutex_init (&self->lock);
  self->filter = cf_filter_new (((GstCfFilterClass *) g_class)->desc->name);
  self->settings = cf_filter_new (((GstCfFilterClass *) g_class)->desc->name);
  if (!self->filter || !self->settings)
    GST_ERROR_OBJECT (self, "cannot create the filter: %s", cf_last_error ());
}

static GType
filter_type (const cf_filter_desc * desc)
{
  const gchar *name = type_name ("Cuda", desc->name);
  GType type = g_type_from_name (name);
  const GTypeInfo info = {
    .class_size = sizeof (GstCfFilterClass),
    .class_init = gst_cf_filter_class_init,
    .class_data = desc,
    .instance_size = sizeof (GstCfFilter),
    .instance_init = gst_cf_filter_init,
  };

  return type ? type : g_type_register_static (GST_TYPE_CF_BASE_TRANSFORM, name, &info, 0);
}

/* "cuda" + the filter's name, except where gst-plugins-bad's nvcodec
 * registers that name too (cudaconvert, cudascale, cudaconvertscale from
 * 1.22 on, where its kernels compile): GStreamer keeps one feature per
 * name, so one of the two elements would be unreachable. Those take "cf" +
 * the name (cfconvert, cfscale). */
static gchar *
factory_name (const cf_filter_desc * desc)
{
  static const gchar *const nvcodec[] = { "cudaconvert", "cudascale", "cudaconvertscale" };
  gchar *name = g_strconcat ("cuda", desc->name, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (nvcodec); i++)
    if (g_str_equal (name, nvcodec[i])) {
      g_free (name);
      return g_strconcat ("cf", desc->name, NULL);
    }
  return name;
}

gboolean
gst_cf_filters_register (GstPlugin * plugin)
{
  gboolean ok = TRUE;

  for (int i = 0; i < cf_filter_registry_count (); i++) {
    const cf_filter_desc *desc = cf_filter_registry_get (i);
    gchar *factory = factory_name (desc);
    ok = gst_element_register (plugin, factory, GST_RANK_NONE, filter_type (desc)) && ok;
    g_free (factory);
  }
  return ok;
}
