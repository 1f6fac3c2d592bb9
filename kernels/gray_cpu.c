/* CPU reference of gray: defines the result the CUDA kernels must match. */
#include <string.h>

#include "gray.h"

static void gray_rgb(const cf_gray_plan *plan, const cf_frame *src, cf_frame *dst)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    int bpp = info->pixel_bytes[0];
    for (int y = 0; y < src->height; y++) {
        const uint8_t *s = src->data[0] + (size_t)y * src->pitch[0];
        uint8_t *d = dst->data[0] + (size_t)y * dst->pitch[0];
        for (int x = 0; x < src->width; x++, s += bpp) {
            uint8_t v = cf_gray_luma(s[info->r_offset], s[info->g_offset], s[info->b_offset],
                                     plan->w);
            if (!plan->keep_format) {
                d[x] = v;
                continue;
            }
            uint8_t *p = d + (size_t)x * bpp;
            memcpy(p, s, (size_t)bpp); /* alpha or padding kept */
            p[info->r_offset] = p[info->g_offset] = p[info->b_offset] = v;
        }
    }
}

static void gray_luma(const cf_gray_plan *plan, const cf_frame *src, cf_frame *dst)
{
    for (int y = 0; y < src->height; y++) {
        const uint8_t *s = src->data[0] + (size_t)y * src->pitch[0];
        uint8_t *d = dst->data[0] + (size_t)y * dst->pitch[0];
        for (int x = 0; x < src->width; x++) {
            int v = plan->sample_bytes == 1 ? s[x] : (s[2 * x] | s[2 * x + 1] << 8) >> plan->shift;
            d[x] = cf_gray_expand(v, plan->lo, plan->span);
        }
    }
}

/* Same format out: luma plane copied, chroma planes set to no colour. */
static void keep_luma(const cf_gray_plan *plan, const cf_frame *src, cf_frame *dst)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    size_t row = cf_format_plane_row_bytes(src->format, 0, src->width);
    for (int y = 0; y < src->height; y++)
        memcpy(dst->data[0] + (size_t)y * dst->pitch[0], src->data[0] + (size_t)y * src->pitch[0],
               row);
    for (int p = 1; p < info->n_planes; p++) {
        size_t samples = cf_format_plane_row_bytes(src->format, p, src->width) /
                         (size_t)info->sample_bytes;
        for (int y = 0; y < cf_format_plane_height(src->format, p, src->height); y++) {
            uint8_t *d = dst->data[p] + (size_t)y * dst->pitch[p];
            for (size_t x = 0; x < samples; x++) {
                if (info->sample_bytes == 1) {
                    d[x] = (uint8_t)plan->neutral;
                } else {
                    d[2 * x] = (uint8_t)(plan->neutral & 0xff);
                    d[2 * x + 1] = (uint8_t)(plan->neutral >> 8);
                }
            }
        }
    }
}

cf_status cf_gray_cpu(const cf_gray_plan *plan, const cf_frame *src, cf_frame *dst)
{
    if (plan->from_rgb)
        gray_rgb(plan, src, dst);
    else if (plan->keep_format)
        keep_luma(plan, src, dst);
    else
        gray_luma(plan, src, dst);
    return CF_OK;
}
