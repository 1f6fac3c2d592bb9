/* CPU reference of gray: defines the result the CUDA kernel must match. */
#include <string.h>

#include "gray.h"

cf_status cf_gray_cpu(int matrix, const cf_frame *src, cf_frame *dst)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    if (info->r_offset < 0) {
        /* GRAY8 and YUV: plane 0 already is the luma. */
        for (int y = 0; y < src->height; y++)
            memcpy(dst->data[0] + (size_t)y * dst->pitch[0],
                   src->data[0] + (size_t)y * src->pitch[0], (size_t)src->width);
        return CF_OK;
    }
    cf_gray_weights w = cf_gray_weights_for(matrix);
    int bpp = info->pixel_bytes[0];
    for (int y = 0; y < src->height; y++) {
        const uint8_t *s = src->data[0] + (size_t)y * src->pitch[0];
        uint8_t *d = dst->data[0] + (size_t)y * dst->pitch[0];
        for (int x = 0; x < src->width; x++, s += bpp)
            d[x] = cf_gray_luma(s[info->r_offset], s[info->g_offset], s[info->b_offset], w);
    }
    return CF_OK;
}
