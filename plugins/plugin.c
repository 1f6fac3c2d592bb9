/* cudafilters GStreamer plugin: registration. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcfelements.h"

GST_DEBUG_CATEGORY (gst_cf_debug);

/* Rank NONE: these elements are asked for by name, never autoplugged.
 * Registration touches no CUDA function, so it is safe without a GPU. */
static gboolean
plugin_init (GstPlugin * plugin)
{
  GST_DEBUG_CATEGORY_INIT (gst_cf_debug, "cudafilters", 0, "cudafilters elements");
  return gst_element_register (plugin, "cudaupload", GST_RANK_NONE,
      gst_cf_cuda_upload_get_type ())
      && gst_element_register (plugin, "cudadownload", GST_RANK_NONE,
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
