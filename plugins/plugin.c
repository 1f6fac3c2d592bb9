/* cudafilters GStreamer plugin: registration. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcfelements.h"

GST_DEBUG_CATEGORY (gst_cf_debug);

/* Rank NONE: these elements are asked for by name, never autoplugged.
 * Registration touches no CUDA function, so it is safe without a GPU.
 * The transfers go under two names each: cudaupload and cudadownload, which
 * gst-plugins-bad's nvcodec also registers (the registry keeps one feature a
 * name: whichever plugin registered it last, so a pipeline's first
 * "cudaupload" can be nvcodec's and a later one ours), and cfcudaupload and
 * cfcudadownload, which always name ours. */
static gboolean
plugin_init (GstPlugin * plugin)
{
  GST_DEBUG_CATEGORY_INIT (gst_cf_debug, "cudafilters", 0, "cudafilters elements");
  return gst_element_register (plugin, "cudaupload", GST_RANK_NONE,
      gst_cf_cuda_upload_get_type ())
      && gst_element_register (plugin, "cudadownload", GST_RANK_NONE,
      gst_cf_cuda_download_get_type ())
      && gst_element_register (plugin, "cfcudaupload", GST_RANK_NONE,
      gst_cf_cuda_upload_get_type ())
      && gst_element_register (plugin, "cfcudadownload", GST_RANK_NONE,
      gst_cf_cuda_download_get_type ())
      && gst_cf_filters_register (plugin);
}

/* The macro leaves the descriptor's padding to zero-initialisation, which
 * -Wextra reports. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudafilters,
    "GPU video filters with exact CPU twins", plugin_init, CF_PLUGIN_VERSION,
    "LGPL", "cudafilters", "Unknown package origin")
#pragma GCC diagnostic pop
