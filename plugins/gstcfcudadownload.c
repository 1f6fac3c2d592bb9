/* cudafilters GStreamer plugin: cudadownload. */
/**
 * SECTION:element-cudadownload
 * @title: cudadownload
 *
 * Copies video frames from CUDA memory (`video/x-raw(memory:CUDAMemory)`)
 * into system memory for elements that work on the CPU. System-memory
 * input passes through untouched, so the element can stay in a pipeline
 * on a machine without a GPU.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=vtest.avi ! decodebin ! cudaupload ! cudagray ! \
 *     cudablur sigma=2 ! cudadownload ! videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudamemory.h>

#include "gstcfbasetransform.h"
#include "gstcfelements.h"

typedef struct
{
  GstCfBaseTransform parent;
} GstCfCudaDownload;

typedef struct
{
  GstCfBaseTransformClass parent_class;
} GstCfCudaDownloadClass;

G_DEFINE_TYPE (GstCfCudaDownload, gst_cf_cuda_download, GST_TYPE_CF_BASE_TRANSFORM);

/* CUDA memory and system memory both come out as system memory. */
static void
gst_cf_cuda_download_transform_structure (GstCfBaseTransform * self,
    GstPadDirection direction, const GstStructure * s, const GstCapsFeatures * features,
    GstCaps * out)
{
  gboolean cuda = gst_cf_features_are_cuda (features);

  (void) self;
  if (direction == GST_PAD_SINK) {
    gst_cf_caps_append (out, s, NULL);
  } else if (!cuda) {
    gst_cf_caps_append (out, s, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
    gst_cf_caps_append (out, s, NULL);
  }
}

static void
gst_cf_cuda_download_class_init (GstCfCudaDownloadClass * klass)
{
  gst_cf_base_transform_class_init_transfer (GST_CF_BASE_TRANSFORM_CLASS (klass),
      "CUDA download (cudafilters)",
      "Copies video frames from CUDA memory into system memory. Example: "
      "gst-launch-1.0 filesrc location=vtest.avi ! decodebin ! cudaupload ! cudagray ! "
      "cudablur sigma=2 ! cudadownload ! videoconvert ! autovideosink",
      gst_cf_cuda_download_transform_structure);
}

static void
gst_cf_cuda_download_init (GstCfCudaDownload * self)
{
  (void) self;
}
