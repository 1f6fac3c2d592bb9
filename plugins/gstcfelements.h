/* cudafilters GStreamer plugin: the elements the plugin registers. */
#ifndef GST_CF_ELEMENTS_H
#define GST_CF_ELEMENTS_H

#include <gst/gst.h>

G_BEGIN_DECLS

GType gst_cf_cuda_upload_get_type (void);
GType gst_cf_cuda_download_get_type (void);

/* Registers one element per filter of the core registry: factory "cuda"
 * + the filter's name, properties from its parameters. */
gboolean gst_cf_filters_register (GstPlugin * plugin);

G_END_DECLS

#endif
