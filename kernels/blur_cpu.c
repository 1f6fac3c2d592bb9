/* CPU reference of blur: defines the result the CUDA kernels must match. */
#include "blur.h"

static void blur_plane(const cf_blur_kernel *k, int border, const uint8_t *src, size_t src_pitch,
                       uint8_t *dst, size_t dst_pitch, int width, int height, int channels,
                       uint16_t *tmp, size_t tmp_pitch)
{
    int r = k->size / 2;
    size_t tp = tmp_pitch / sizeof *tmp;
    for (int y = 0; y < height; y++) {
        const uint8_t *s = src + (size_t)y * src_pitch;
        for (int x = 0; x < width; x++)
            for (int c = 0; c < channels; c++) {
                uint32_t acc = 0;
                for (int t = 0; t < k->size; t++)
                    acc += k->w[t] * s[cf_border_index(x - r + t, width, border) * channels + c];
                tmp[(size_t)y * tp + (size_t)x * channels + c] = cf_blur_round_h(acc);
            }
    }
    int samples = width * channels;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < samples; x++) {
            uint32_t acc = 0;
            for (int t = 0; t < k->size; t++)
                acc += k->w[t] * tmp[(size_t)cf_border_index(y - r + t, height, border) * tp + x];
            dst[(size_t)y * dst_pitch + x] = cf_blur_round_v(acc);
        }
}

cf_status cf_blur_cpu(const cf_blur_kernel *kernel, int border, const cf_frame *src,
                      cf_frame *dst, uint16_t *tmp, size_t tmp_pitch)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    for (int p = 0; p < info->n_planes; p++)
        blur_plane(kernel, border, src->data[p], src->pitch[p], dst->data[p], dst->pitch[p],
                   cf_format_plane_width(src->format, p, src->width),
                   cf_format_plane_height(src->format, p, src->height), info->pixel_bytes[p],
                   tmp, tmp_pitch);
    return CF_OK;
}
