/* cudafilters GStreamer plugin: cudaupload. */
/**
 * SECTION:element-cudaupload
 * @title: cudaupload
 *
 * Copies system-memory video frames into CUDA memory
 * (`video/x-raw(memory:CUDAMemory)`), so the cudafilters elements and
 * nvcodec's elements that follow work on the GPU without further copies.
 * Where downstream takes only system memory, or the machine has no usable
 * GPU, it passes buffers through untouched.
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
} GstCfCudaUpload;

typedef struct
{
  GstCfBaseTransformClass parent_class;
} GstCfCudaUploadClass;

G_DEFINE_TYPE (GstCfCudaUpload, gst_cf_cuda_upload, GST_TYPE_CF_BASE_TRANSFORM);

/* System memory becomes CUDA memory (preferred) or stays (passthrough);
 * CUDA memory stays. */
static void
gst_cf_cuda_upload_transform_structure (GstCfBaseTransform * self, GstPadDirection direction,
    const GstStructure * s, const GstCapsFeatures * features, GstCaps * out)
{
  gboolean cuda = gst_cf_features_are_cuda (features);

  (void) self;
  if (direction == GST_PAD_SINK && !cuda)
    gst_cf_caps_append (out, s, GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
  if (direction == GST_PAD_SRC && cuda)
    gst_cf_caps_append (out, s, NULL);
  gst_cf_caps_append (out, s, cuda ? GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY : NULL);
}

static void
gst_cf_cuda_upload_class_init (GstCfCudaUploadClass * klass)
{
  gst_cf_base_transform_class_init_transfer (GST_CF_BASE_TRANSFORM_CLASS (klass),
      "CUDA upload (cudafilters)",
      "Copies video frames from system memory into CUDA memory. Example: "
      "gst-launch-1.0 filesrc location=vtest.avi ! decodebin ! cudaupload ! cudagray ! "
      "cudablur sigma=2 ! cudadownload ! videoconvert ! autovideosink",
      gst_cf_cuda_upload_transform_structure);
}

static void
gst_cf_cuda_upload_init (GstCfCudaUpload * self)
{
  (void) self;
}
