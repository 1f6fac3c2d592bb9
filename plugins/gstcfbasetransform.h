/* cudafilters GStreamer plugin: the base transform shared by every element.
 *
 * It owns what all elements have in common: GPU detection, the shared
 * GstCudaContext ("gst.cuda.context"), one CUDA stream, caps in the two
 * memory kinds (memory:CUDAMemory and system memory), CUDA buffer pools,
 * frame mapping and error reporting. A subclass says how one caps structure
 * transforms and does the work on one pair of frames. */
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

  /* Takes the negotiated input and output (format, colorimetry) and checks
   * what transform_structure cannot; returns FALSE after posting an error.
   * Optional. */
  gboolean (*set_info) (GstCfBaseTransform * self, const GstVideoInfo * in_info,
      cf_format in_format, const GstVideoInfo * out_info, cf_format out_format);

  /* Does the work on one frame pair. When either frame is in device memory
   * the element's CUDA context is pushed and @stream is the element's
   * stream (the base synchronises it afterwards); otherwise @stream is
   * NULL. On failure cf_last_error() must describe it. Required. */
  cf_status (*process) (GstCfBaseTransform * self, const cf_frame * in, cf_frame * out,
      cf_stream stream);

  /* Frees GPU memory the subclass holds, called from stop() with the
   * context still pushed, since that memory belongs to it. Optional. */
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
 * of every format in both memory kinds, passthrough on equal caps, the
 * frames-in-flight property (frames whose copy is queued on the element's
 * stream, tracked by CUDA events and pushed once later frames are queued
 * behind them; finished and pushed before any serialized event or query,
 * dropped on flush; never with a live source or a bounded pool on either
 * side), and the two subclass functions. */
void gst_cf_base_transform_class_init_transfer (GstCfBaseTransformClass * klass,
    const gchar * longname, const gchar * description,
    void (*transform_structure) (GstCfBaseTransform *, GstPadDirection, const GstStructure *,
        const GstCapsFeatures *, GstCaps *),
    cf_status (*process) (GstCfBaseTransform *, const cf_frame *, cf_frame *, cf_stream));

G_END_DECLS

#endif
