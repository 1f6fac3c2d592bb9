#include <string.h>

#include "cudafilters/format.h"

#define NONE -1, -1, -1, -1
#define BYTE 1, 8, 0

/* Component offsets and sample layouts follow GStreamer's definitions. */
static const cf_format_info format_table[CF_FORMAT_COUNT] = {
    [CF_FORMAT_GRAY8] = { CF_FORMAT_GRAY8, "GRAY8", 1, { 1 }, { 0 }, { 0 }, false, BYTE, NONE },
    [CF_FORMAT_RGBA] = { CF_FORMAT_RGBA, "RGBA", 1, { 4 }, { 0 }, { 0 }, false, BYTE, 0, 1, 2, 3 },
    [CF_FORMAT_BGRA] = { CF_FORMAT_BGRA, "BGRA", 1, { 4 }, { 0 }, { 0 }, false, BYTE, 2, 1, 0, 3 },
    [CF_FORMAT_RGBX] = { CF_FORMAT_RGBX, "RGBx", 1, { 4 }, { 0 }, { 0 }, false, BYTE, 0, 1, 2, -1 },
    [CF_FORMAT_BGRX] = { CF_FORMAT_BGRX, "BGRx", 1, { 4 }, { 0 }, { 0 }, false, BYTE, 2, 1, 0, -1 },
    [CF_FORMAT_RGB] = { CF_FORMAT_RGB, "RGB", 1, { 3 }, { 0 }, { 0 }, false, BYTE, 0, 1, 2, -1 },
    [CF_FORMAT_BGR] = { CF_FORMAT_BGR, "BGR", 1, { 3 }, { 0 }, { 0 }, false, BYTE, 2, 1, 0, -1 },
    [CF_FORMAT_NV12] = { CF_FORMAT_NV12, "NV12", 2, { 1, 2 }, { 0, 1 }, { 0, 1 }, true, BYTE,
                         NONE },
    [CF_FORMAT_I420] = { CF_FORMAT_I420, "I420", 3, { 1, 1, 1 }, { 0, 1, 1 }, { 0, 1, 1 }, true,
                         BYTE, NONE },
    [CF_FORMAT_GRAY16_LE] = { CF_FORMAT_GRAY16_LE, "GRAY16_LE", 1, { 2 }, { 0 }, { 0 }, false,
                              2, 16, 0, NONE },
    [CF_FORMAT_P010_10LE] = { CF_FORMAT_P010_10LE, "P010_10LE", 2, { 2, 4 }, { 0, 1 }, { 0, 1 },
                              true, 2, 10, 6, NONE },
    [CF_FORMAT_I420_10LE] = { CF_FORMAT_I420_10LE, "I420_10LE", 3, { 2, 2, 2 }, { 0, 1, 1 },
                              { 0, 1, 1 }, true, 2, 10, 0, NONE },
};

const cf_format_info *cf_format_get_info(cf_format format)
{
    if (format <= CF_FORMAT_UNKNOWN || format >= CF_FORMAT_COUNT)
        return NULL;
    return &format_table[format];
}

cf_format cf_format_from_name(const char *name)
{
    if (!name)
        return CF_FORMAT_UNKNOWN;
    for (int f = CF_FORMAT_UNKNOWN + 1; f < CF_FORMAT_COUNT; f++)
        if (strcmp(format_table[f].name, name) == 0)
            return (cf_format)f;
    return CF_FORMAT_UNKNOWN;
}

const char *cf_format_name(cf_format format)
{
    const cf_format_info *info = cf_format_get_info(format);
    return info ? info->name : "UNKNOWN";
}

static const cf_format_info *plane_info(cf_format format, int plane)
{
    const cf_format_info *info = cf_format_get_info(format);
    return info && plane >= 0 && plane < info->n_planes ? info : NULL;
}

int cf_format_plane_width(cf_format format, int plane, int width)
{
    const cf_format_info *info = plane_info(format, plane);
    if (!info || width <= 0)
        return 0;
    int s = info->x_shift[plane];
    return (width + (1 << s) - 1) >> s;
}

int cf_format_plane_height(cf_format format, int plane, int height)
{
    const cf_format_info *info = plane_info(format, plane);
    if (!info || height <= 0)
        return 0;
    int s = info->y_shift[plane];
    return (height + (1 << s) - 1) >> s;
}

size_t cf_format_plane_row_bytes(cf_format format, int plane, int width)
{
    const cf_format_info *info = plane_info(format, plane);
    if (!info)
        return 0;
    return (size_t)cf_format_plane_width(format, plane, width) * (size_t)info->pixel_bytes[plane];
}
