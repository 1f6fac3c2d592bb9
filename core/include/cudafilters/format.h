/* cudafilters: the format table.
 *
 * One table describes every pixel format: planes, bytes per pixel in each
 * plane, chroma subsampling and component order. Plane sizes, copies and
 * kernels are all derived from it. Names are GStreamer's (GstVideoFormat
 * strings), so "RGBx" is 4 bytes R,G,B,padding and NV12 is a Y plane followed
 * by an interleaved U,V plane at half width and half height. Components per
 * pixel of a plane = pixel_bytes / sample_bytes. */
#ifndef CUDAFILTERS_FORMAT_H
#define CUDAFILTERS_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "export.h"

CF_BEGIN_DECLS

typedef enum cf_format {
    CF_FORMAT_UNKNOWN = 0,
    CF_FORMAT_GRAY8,
    CF_FORMAT_RGBA,
    CF_FORMAT_BGRA,
    CF_FORMAT_RGBX,
    CF_FORMAT_BGRX,
    CF_FORMAT_RGB,
    CF_FORMAT_BGR,
    CF_FORMAT_NV12,
    CF_FORMAT_I420,
    CF_FORMAT_GRAY16_LE, /* 16-bit little-endian gray */
    CF_FORMAT_P010_10LE, /* NV12 layout, 10-bit samples in the high bits of 16 */
    CF_FORMAT_I420_10LE, /* I420 layout, 10-bit samples in the low bits of 16 */
    CF_FORMAT_COUNT /* number of entries, not a format */
} cf_format;

#define CF_MAX_PLANES 4

typedef struct cf_format_info {
    cf_format format;
    const char *name;          /* GStreamer name: "GRAY8", "RGBx", "NV12" */
    int n_planes;
    int pixel_bytes[CF_MAX_PLANES]; /* bytes per pixel in each plane (NV12 UV: 2) */
    int x_shift[CF_MAX_PLANES];     /* log2 horizontal subsampling of each plane */
    int y_shift[CF_MAX_PLANES];     /* log2 vertical subsampling of each plane */
    bool is_yuv;               /* luma in plane 0, chroma in the others */
    int sample_bytes;          /* bytes of one component sample: 1, or 2 (little-endian) */
    int depth;                 /* significant bits of a sample: 8, 10 or 16 */
    int shift;                 /* bit position of those bits in the sample (P010: 6) */
    /* RGB family: byte offset of each component inside a pixel; -1 if absent
     * (alpha of RGB/RGBx/...). -1 for all four in YUV and gray formats. */
    int r_offset, g_offset, b_offset, a_offset;
} cf_format_info;

/* Table entry of a format, or NULL for CF_FORMAT_UNKNOWN / out of range.
 * The returned struct is static. Thread-safe. */
CF_API const cf_format_info *cf_format_get_info(cf_format format);

/* Format by GStreamer name (case-sensitive, "RGBx"), or CF_FORMAT_UNKNOWN. */
CF_API cf_format cf_format_from_name(const char *name);

/* GStreamer name of a format, or "UNKNOWN". */
CF_API const char *cf_format_name(cf_format format);

/* Plane dimensions in pixels of a width x height image: subsampled planes
 * round up, so a 5x3 NV12 frame has a 3x2 UV plane. 0 for a plane the
 * format does not have. */
CF_API int cf_format_plane_width(cf_format format, int plane, int width);
CF_API int cf_format_plane_height(cf_format format, int plane, int height);

/* Bytes of pixel data in one row of a plane (plane width * pixel bytes);
 * a pitch must be at least this. */
CF_API size_t cf_format_plane_row_bytes(cf_format format, int plane, int width);

CF_END_DECLS

#endif
