/* CUDA blur: two passes per plane with the arithmetic of blur.h.
 * Horizontal: a block stages its row segment plus the kernel radius (border
 * folded) in shared memory. Vertical: one thread per sample column, reads
 * coalesced across the row. Both grids stride over rows, so any height works
 * within the 65535 grid.y limit. */
#include <cuda_runtime.h>

#include "blur.h"

namespace {

constexpr int kBlockX = 128;

template <int C>
__global__ void blur_horizontal(const uint8_t *__restrict__ src, size_t src_pitch,
                                uint16_t *__restrict__ tmp, size_t tmp_pitch, int width,
                                int height, int border, cf_blur_kernel k)
{
    extern __shared__ uint8_t tile[];
    const int r = k.size / 2, span = kBlockX + 2 * r, x0 = blockIdx.x * kBlockX;
    const int x = x0 + threadIdx.x;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const uint8_t *row = src + (size_t)y * src_pitch;
        for (int i = threadIdx.x; i < span; i += kBlockX) {
            int sx = cf_border_index(x0 - r + i, width, border);
#pragma unroll
            for (int c = 0; c < C; c++)
                tile[i * C + c] = row[(size_t)sx * C + c];
        }
        __syncthreads();
        if (x < width) {
            uint32_t acc[C] = {};
            for (int t = 0; t < k.size; t++) {
                uint32_t w = k.w[t];
#pragma unroll
                for (int c = 0; c < C; c++)
                    acc[c] += w * tile[(threadIdx.x + t) * C + c];
            }
            uint16_t *out = tmp + (size_t)y * (tmp_pitch / sizeof *tmp) + (size_t)x * C;
#pragma unroll
            for (int c = 0; c < C; c++)
                out[c] = cf_blur_round_h(acc[c]);
        }
        __syncthreads();
    }
}

__global__ void blur_vertical(const uint16_t *__restrict__ tmp, size_t tmp_pitch,
                              uint8_t *__restrict__ dst, size_t dst_pitch, int samples,
                              int height, int border, cf_blur_kernel k)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= samples)
        return;
    const int r = k.size / 2;
    const size_t tp = tmp_pitch / sizeof *tmp;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        uint32_t acc = 0;
        for (int t = 0; t < k.size; t++)
            acc += k.w[t] * tmp[(size_t)cf_border_index(y - r + t, height, border) * tp + x];
        dst[(size_t)y * dst_pitch + x] = cf_blur_round_v(acc);
    }
}

unsigned grid_rows(int height)
{
    return (unsigned)(height < 65535 ? height : 65535);
}

template <int C>
void launch_horizontal(const cf_blur_kernel &k, int border, const uint8_t *src, size_t sp,
                       uint16_t *tmp, size_t tp, int w, int h, cudaStream_t stream)
{
    dim3 grid((unsigned)((w + kBlockX - 1) / kBlockX), grid_rows(h));
    size_t shared = (size_t)(kBlockX + 2 * (k.size / 2)) * C;
    blur_horizontal<C><<<grid, kBlockX, shared, stream>>>(src, sp, tmp, tp, w, h, border, k);
}

cf_status blur_plane(const cf_blur_kernel &k, int border, const uint8_t *src, size_t sp,
                     uint8_t *dst, size_t dp, int w, int h, int channels, uint16_t *tmp,
                     size_t tp, cudaStream_t stream)
{
    switch (channels) {
    case 1: launch_horizontal<1>(k, border, src, sp, tmp, tp, w, h, stream); break;
    case 2: launch_horizontal<2>(k, border, src, sp, tmp, tp, w, h, stream); break;
    case 3: launch_horizontal<3>(k, border, src, sp, tmp, tp, w, h, stream); break;
    case 4: launch_horizontal<4>(k, border, src, sp, tmp, tp, w, h, stream); break;
    default: return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT, "blur: %d channels", channels);
    }
    CF_TRY(CF_CUDA_CHECK(cudaGetLastError()));
    int samples = w * channels;
    dim3 grid((unsigned)((samples + 255) / 256), grid_rows(h));
    blur_vertical<<<grid, 256, 0, stream>>>(tmp, tp, dst, dp, samples, h, border, k);
    return CF_CUDA_CHECK(cudaGetLastError());
}

} // namespace

extern "C" cf_status cf_blur_cuda(const cf_blur_kernel *kernel, int border, const cf_frame *src,
                                  cf_frame *dst, uint16_t *tmp, size_t tmp_pitch,
                                  cf_stream stream)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    for (int p = 0; p < info->n_planes; p++)
        CF_TRY(blur_plane(*kernel, border, src->data[p], src->pitch[p], dst->data[p],
                          dst->pitch[p], cf_format_plane_width(src->format, p, src->width),
                          cf_format_plane_height(src->format, p, src->height),
                          info->pixel_bytes[p], tmp, tmp_pitch, stream));
    return CF_OK;
}
