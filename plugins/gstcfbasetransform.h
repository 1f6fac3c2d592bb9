/* cudafilters GStreamer plugin: the base transform shared by every element.
 *
 * It owns what all elements have in common: GPU detection, the shared
 * GstCudaContext ("gst.cuda.context"), caps in the two memory kinds
 * (memory:CUDAMemory and system memory; gstcfcaps.c), buffer pools
 * (gstcfallocation.c), frame mapping (gstcfframe.c) and the frames in
 * flight: every element runs its work through a cf_scheduler and pushes
 * results from a task of its own (gstcfschedule.c). A subclass says how one
 * caps structure transforms and which filter, if any, it runs. */
#ifndef GST_CF_BASE_TRANSFORM_H
#define GST_CF_BASE_TRANSFORM_H

#include <gst/base/gstbasetransform.h>

#include "gstcfutils.h"

G_BEGIN_DECLS

#define GST_TYPE_CF_BASE_TRANSFORM (gst_cf_base_transform_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCfBaseTransform, gst_cf_base_transform, GST, CF_BASE_TRANSFORM,
    GstBaseTransform)

struct _GstCfBaseTransformClass
{
  GstBaseTransformClass parent_class;

  /* Appends to @out what caps structure @s (with @features) on the pad of
   * @direction becomes on the other pad. Memory features other than
   * memory:CUDAMemory count as system memory. Required. */
  void (*transform_structure) (GstCfBaseTransform * self, GstPadDirection direction,
      const GstStructure * s, const GstCapsFeatures * features, GstCaps * out);

  /* Fixes what gst_caps_fixate() would fix badly in @out, the preferred
   * structure for the other pad of @direction when this pad has the fixed
   * @in (a resizing filter: the size it proposes, not the smallest the
   * range allows). Optional. */
  void (*fixate_structure) (GstCfBaseTransform * self, GstPadDirection direction,
      const GstStructure * in, GstStructure * out);

  /* Takes the negotiated input and output (format, colorimetry) and checks
   * what transform_structure cannot; returns FALSE after posting an error.
   * Optional. */
  gboolean (*set_info) (GstCfBaseTransform * self, const GstVideoInfo * in_info,
      cf_format in_format, const GstVideoInfo * out_info, cf_format out_format);

  /* The filter the element runs, owned by the subclass; NULL (or no
   * function) for a pure transfer, which copies frames between the two
   * memory kinds. Asked once at start(). */
  cf_filter * (*get_filter) (GstCfBaseTransform * self);

  /* Called in the streaming thread before each frame is submitted, so the
   * subclass can bring its filter's parameters up to date (properties set
   * from other threads). Optional. */
  void (*before_submit) (GstCfBaseTransform * self);

  /* Frees GPU memory the subclass holds, called from stop() with the
   * context pushed, since that memory belongs to it. Optional. */
  void (*release_gpu) (GstCfBaseTransform * self);

  /* TRUE for elements whose work is GPU work (the filters): on a GPU
   * machine, when an upstream transform asks whether we take caps it can
   * give in CUDA memory, the sink pad answers with the CUDA ones only.
   * Otherwise a peer that prefers passthrough (gst-plugins-bad's
   * cudaupload) would hand us system memory, to be staged through the GPU
   * on every buffer. Other peers (a tee merging its branches' answers) get
   * the full answer. FALSE (the default) for cudaupload/cudadownload,
   * where passthrough is right. */
  gboolean prefer_cuda_input;
};

/* Adds the sink and src pad templates: @in_formats and @out_formats,
 * each in CUDA memory (listed first) and in system memory, any size. */
void gst_cf_base_transform_class_add_templates (GstElementClass * klass, guint32 in_formats,
    guint32 out_formats);

/* Class set-up shared by cudaupload and cudadownload: metadata, templates
 * of every format in both memory kinds, passthrough on equal caps, and the
 * caps function. */
void gst_cf_base_transform_class_init_transfer (GstCfBaseTransformClass * klass,
    const gchar * longname, const gchar * description,
    void (*transform_structure) (GstCfBaseTransform *, GstPadDirection, const GstStructure *,
        const GstCapsFeatures *, GstCaps *));

G_END_DECLS

#endif
