/* The filter registry: every filter's descriptor, one line each. Adding a
 * filter is its kernel group plus one line here; the GStreamer plugin, the
 * command line and the C API pick it up from this table. */
#include "internal.h"

extern const cf_filter_desc cf_filter_gray, cf_filter_blur, cf_filter_convert, cf_filter_scale,
    cf_filter_convert_scale;

const cf_filter_desc *const cf_filter_table[] = {
    &cf_filter_gray,
    &cf_filter_blur,
    &cf_filter_convert,
    &cf_filter_scale,
    &cf_filter_convert_scale,
};
const int cf_filter_table_size = (int)(sizeof cf_filter_table / sizeof cf_filter_table[0]);
