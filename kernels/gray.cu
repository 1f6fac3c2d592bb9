/* CUDA gray: same arithmetic as gray_cpu.c through gray.h. */
#include <cuda_runtime.h>

#include "gray.h"

namespace {

/* One thread per output pixel; the grid strides over rows so any height
 * works within the 65535 grid.y limit. */
__global__ void gray_packed_rgb(const uint8_t *__restrict__ src, size_t src_pitch, int bpp,
                                int r_off, int g_off, int b_off, uint8_t *__restrict__ dst,
                                size_t dst_pitch, int width, int height, cf_gray_weights w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width)
        return;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const uint8_t *s = src + (size_t)y * src_pitch + (size_t)x * bpp;
        dst[(size_t)y * dst_pitch + x] = cf_gray_luma(s[r_off], s[g_off], s[b_off], w);
    }
}

} // namespace

extern "C" cf_status cf_gray_cuda(int matrix, const cf_frame *src, cf_frame *dst,
                                  cf_stream stream)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    if (info->r_offset < 0)
        return CF_CUDA_CHECK(cudaMemcpy2DAsync(dst->data[0], dst->pitch[0], src->data[0],
                                               src->pitch[0], (size_t)src->width,
                                               (size_t)src->height, cudaMemcpyDeviceToDevice,
                                               stream));
    dim3 block(256, 1);
    dim3 grid((unsigned)((src->width + 255) / 256), (unsigned)(src->height < 65535 ? src->height : 65535));
    gray_packed_rgb<<<grid, block, 0, stream>>>(src->data[0], src->pitch[0], info->pixel_bytes[0],
                                                info->r_offset, info->g_offset, info->b_offset,
                                                dst->data[0], dst->pitch[0], src->width,
                                                src->height, cf_gray_weights_for(matrix));
    return CF_CUDA_CHECK(cudaGetLastError());
}
