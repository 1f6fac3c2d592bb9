/* cudafilters GStreamer plugin: GPU detection and caps helpers. */
#ifndef GST_CF_UTILS_H
#define GST_CF_UTILS_H

#include <gst/video/video.h>

#include <cudafilters/cudafilters.h>

G_BEGIN_DECLS

/* Most output formats a filter offers for one input. */
#define GST_CF_MAX_OUTPUTS 12 /* convert: every format */

/* Sets of formats, one bit per cf_format. */
#define GST_CF_FORMAT_BIT(format) (1u << (unsigned) (format))
#define GST_CF_ALL_FORMATS (((1u << CF_FORMAT_COUNT) - 1u) & ~GST_CF_FORMAT_BIT (CF_FORMAT_UNKNOWN))

/* TRUE when this process can use a CUDA GPU: libcuda loads through
 * gst_cuda_load_library() and the core sees at least one device. Decided
 * once per process and cached; logs the reason once when there is none.
 * No other gst_cuda_* function may be called when this is FALSE: without
 * libcuda, gst_cuda_context_new() aborts the process. */
gboolean gst_cf_have_gpu (void);

/* Why gst_cf_have_gpu() is FALSE ("" when it is TRUE). Static string. */
const gchar *gst_cf_no_gpu_reason (void);

/* TRUE if @features is memory:CUDAMemory. */
gboolean gst_cf_features_are_cuda (const GstCapsFeatures * features);

/* Appends a copy of @s with the memory feature @feature (NULL: system
 * memory) to @out, unless @out already holds it. */
void gst_cf_caps_append (GstCaps * out, const GstStructure * s, const gchar * feature);

/* The set of formats @s allows in its "format" field; every format when
 * the field is missing. Names the core does not know are left out. */
guint32 gst_cf_structure_get_formats (const GstStructure * s);

/* Sets the "format" field of @s to the formats in @formats (a string for
 * one, a list for more), in the order of the core's format table. */
void gst_cf_structure_set_formats (GstStructure * s, guint32 formats);

/* Caps of @formats in CUDA memory (first) and in system memory, any size
 * and frame rate. */
GstCaps *gst_cf_caps_for_formats (guint32 formats);

/* Takes @caps and returns it without its memory:CUDAMemory structures. */
GstCaps *gst_cf_caps_drop_cuda (GstCaps * caps);

/* TRUE if @caps (may be NULL) has a memory:CUDAMemory structure. */
gboolean gst_cf_caps_have_cuda (const GstCaps * caps);

/* Takes @caps and returns only its memory:CUDAMemory structures; @caps
 * unchanged when it has none. */
GstCaps *gst_cf_caps_keep_cuda (GstCaps * caps);

G_END_DECLS

#endif
