/* CPU reference of blur: defines the result the CUDA kernels must match. */
#include "blur.h"

static uint32_t load(const uint8_t *row, int i, const cf_blur_plane *pl)
{
    if (pl->sample_bytes == 1)
        return row[i];
    return (uint32_t)(row[2 * i] | row[2 * i + 1] << 8) >> pl->shift;
}

static void store(uint8_t *row, int i, uint32_t v, const cf_blur_plane *pl)
{
    if (pl->sample_bytes == 1) {
        row[i] = (uint8_t)v;
        return;
    }
    v <<= pl->shift;
    row[2 * i] = (uint8_t)(v & 0xff);
    row[2 * i + 1] = (uint8_t)(v >> 8);
}

void cf_blur_plane_cpu(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                       const cf_blur_plane *pl, uint32_t *tmp, size_t tmp_pitch)
{
    const int c_n = pl->channels, rx = kx->size / 2, ry = ky->size / 2;
    const size_t tp = tmp_pitch / sizeof *tmp;
    for (int y = 0; y < pl->height; y++) {
        const uint8_t *s = pl->src + (size_t)y * pl->src_pitch;
        for (int x = 0; x < pl->width; x++)
            for (int c = 0; c < c_n; c++) {
                uint32_t acc = 0;
                for (int t = 0; t < kx->size; t++) {
                    int i = cf_border_index(x - rx + t, pl->width, pl->border);
                    acc += kx->w[t] * (i < 0 ? pl->border_value : load(s, i * c_n + c, pl));
                }
                tmp[(size_t)y * tp + (size_t)x * c_n + c] = cf_blur_round_h(acc);
            }
    }
    /* A constant border row is the constant after the horizontal pass too. */
    const uint32_t border_t = pl->border_value << 8;
    const int samples = pl->width * c_n;
    for (int y = 0; y < pl->height; y++)
        for (int x = 0; x < samples; x++) {
            uint64_t acc = 0;
            for (int t = 0; t < ky->size; t++) {
                int j = cf_border_index(y - ry + t, pl->height, pl->border);
                acc += (uint64_t)ky->w[t] * (j < 0 ? border_t : tmp[(size_t)j * tp + x]);
            }
            store(pl->dst + (size_t)y * pl->dst_pitch, x, cf_blur_round_v(acc), pl);
        }
}
