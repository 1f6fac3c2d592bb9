/* CUDA blur: two passes per plane with the arithmetic of blur.h.
 * Horizontal: a block stages its row segment plus the kernel radius (border
 * folded) in shared memory. Vertical: one thread per sample column, reads
 * coalesced across the row. 8-bit planes keep 16-bit intermediates and a
 * 32-bit vertical sum; 10/16-bit planes keep 32-bit intermediates and a
 * 64-bit vertical sum (bounds in blur.h). Grids stride over rows, so any
 * height fits the 65535 grid.y limit. */
#include <cuda_runtime.h>

#include "blur.h"

namespace {

constexpr int kBlockX = 128;

template <typename T> struct BlurTypes;
template <> struct BlurTypes<uint8_t> {
    using Tmp = uint16_t;
    using VAcc = uint32_t;
};
template <> struct BlurTypes<uint16_t> {
    using Tmp = uint32_t;
    using VAcc = uint64_t;
};

template <typename T, int C>
__global__ void blur_horizontal(const uint8_t *__restrict__ src, size_t src_pitch,
                                uint8_t *__restrict__ tmp, size_t tmp_pitch, int width,
                                int height, int border, uint32_t border_value, int shift,
                                cf_blur_kernel k)
{
    using Tmp = typename BlurTypes<T>::Tmp;
    extern __shared__ __align__(16) uint8_t shared[];
    T *tile = reinterpret_cast<T *>(shared);
    const int r = k.size / 2, span = kBlockX + 2 * r, x0 = blockIdx.x * kBlockX;
    const int x = x0 + threadIdx.x;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const T *row = reinterpret_cast<const T *>(src + (size_t)y * src_pitch);
        for (int i = threadIdx.x; i < span; i += kBlockX) {
            int sx = cf_border_index(x0 - r + i, width, border);
#pragma unroll
            for (int c = 0; c < C; c++)
                tile[i * C + c] = sx < 0 ? (T)border_value : (T)(row[(size_t)sx * C + c] >> shift);
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
            Tmp *out = reinterpret_cast<Tmp *>(tmp + (size_t)y * tmp_pitch) + (size_t)x * C;
#pragma unroll
            for (int c = 0; c < C; c++)
                out[c] = (Tmp)cf_blur_round_h(acc[c]);
        }
        __syncthreads();
    }
}

template <typename T>
__global__ void blur_vertical(const uint8_t *__restrict__ tmp, size_t tmp_pitch,
                              uint8_t *__restrict__ dst, size_t dst_pitch, int samples,
                              int height, int border, uint32_t border_value, int shift,
                              cf_blur_kernel k)
{
    using Tmp = typename BlurTypes<T>::Tmp;
    using VAcc = typename BlurTypes<T>::VAcc;
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= samples)
        return;
    const int r = k.size / 2;
    const Tmp border_t = (Tmp)(border_value << 8);
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        VAcc acc = 0;
        for (int t = 0; t < k.size; t++) {
            int j = cf_border_index(y - r + t, height, border);
            Tmp v = j < 0 ? border_t : reinterpret_cast<const Tmp *>(tmp + (size_t)j * tmp_pitch)[x];
            acc += (VAcc)k.w[t] * v;
        }
        reinterpret_cast<T *>(dst + (size_t)y * dst_pitch)[x] = (T)(cf_blur_round_v(acc) << shift);
    }
}

unsigned grid_rows(int height)
{
    return (unsigned)(height < 65535 ? height : 65535);
}

template <typename T, int C>
void launch_horizontal(const cf_blur_kernel &k, const cf_blur_plane &p, void *tmp, size_t tp,
                       cudaStream_t stream)
{
    dim3 grid((unsigned)((p.width + kBlockX - 1) / kBlockX), grid_rows(p.height));
    size_t shared = (size_t)(kBlockX + 2 * (k.size / 2)) * C * sizeof(T);
    blur_horizontal<T, C><<<grid, kBlockX, shared, stream>>>(
        p.src, p.src_pitch, (uint8_t *)tmp, tp, p.width, p.height, p.border, p.border_value,
        p.shift, k);
}

template <typename T>
cf_status blur_plane(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane &p,
                     void *tmp, size_t tp, cudaStream_t stream)
{
    switch (p.channels) {
    case 1: launch_horizontal<T, 1>(kx, p, tmp, tp, stream); break;
    case 2: launch_horizontal<T, 2>(kx, p, tmp, tp, stream); break;
    case 3: launch_horizontal<T, 3>(kx, p, tmp, tp, stream); break;
    case 4: launch_horizontal<T, 4>(kx, p, tmp, tp, stream); break;
    default: return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT, "blur: %d channels", p.channels);
    }
    CF_TRY(CF_CUDA_CHECK(cudaGetLastError()));
    int samples = p.width * p.channels;
    dim3 grid((unsigned)((samples + 255) / 256), grid_rows(p.height));
    blur_vertical<T><<<grid, 256, 0, stream>>>((const uint8_t *)tmp, tp, p.dst, p.dst_pitch,
                                                samples, p.height, p.border, p.border_value,
                                                p.shift, ky);
    return CF_CUDA_CHECK(cudaGetLastError());
}

} // namespace

extern "C" cf_status cf_blur_plane_cuda(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                                        const cf_blur_plane *plane, void *tmp, size_t tmp_pitch,
                                        cf_stream stream)
{
    if (plane->sample_bytes == 1)
        return blur_plane<uint8_t>(*kx, *ky, *plane, tmp, tmp_pitch, stream);
    return blur_plane<uint16_t>(*kx, *ky, *plane, tmp, tmp_pitch, stream);
}
