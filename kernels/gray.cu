/* CUDA gray: same arithmetic as gray_cpu.c through gray.h. Grids stride
 * over rows so any height fits the 65535 grid.y limit. The common case,
 * packed RGB to GRAY8 with aligned rows, moves 4 pixels per thread with
 * 32-bit loads and one 32-bit store (a memory-bound kernel lives on wide,
 * coalesced accesses); everything else takes one pixel per thread. */
#include <cuda_runtime.h>

#include "gray.h"

namespace {

unsigned grid_rows(int height)
{
    return (unsigned)(height < 65535 ? height : 65535);
}

template <bool Keep>
__global__ void gray_rgb(const uint8_t *__restrict__ src, size_t src_pitch, int bpp, int r_off,
                         int g_off, int b_off, uint8_t *__restrict__ dst, size_t dst_pitch,
                         int width, int height, cf_gray_weights w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width)
        return;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const uint8_t *s = src + (size_t)y * src_pitch + (size_t)x * bpp;
        uint8_t v = cf_gray_luma(s[r_off], s[g_off], s[b_off], w);
        if (!Keep) {
            dst[(size_t)y * dst_pitch + x] = v;
            continue;
        }
        uint8_t *d = dst + (size_t)y * dst_pitch + (size_t)x * bpp;
        for (int i = 0; i < bpp; i++)
            d[i] = (i == r_off || i == g_off || i == b_off) ? v : s[i];
    }
}

bool aligned4(const void *p, size_t pitch)
{
    return ((uintptr_t)p | pitch) % 4 == 0;
}

/* 4 pixels of BPP (3 or 4) bytes per thread: BPP 32-bit words in, one
 * 32-bit word out. Needs 4-byte aligned rows and a width that is a multiple
 * of 4 (the launcher checks). */
template <int BPP>
__global__ void gray_rgb_x4(const uint8_t *__restrict__ src, size_t src_pitch, int r_off,
                            int g_off, int b_off, uint8_t *__restrict__ dst, size_t dst_pitch,
                            int quads, int height, cf_gray_weights w)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= quads)
        return;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const uint32_t *s = reinterpret_cast<const uint32_t *>(src + (size_t)y * src_pitch) + (size_t)q * BPP;
        uint32_t words[BPP];
#pragma unroll
        for (int i = 0; i < BPP; i++)
            words[i] = s[i];
        const uint8_t *b = reinterpret_cast<const uint8_t *>(words);
        uint32_t out = 0;
#pragma unroll
        for (int p = 0; p < 4; p++)
            out |= (uint32_t)cf_gray_luma(b[p * BPP + r_off], b[p * BPP + g_off], b[p * BPP + b_off], w)
                   << (8 * p);
        reinterpret_cast<uint32_t *>(dst + (size_t)y * dst_pitch)[q] = out;
    }
}


/* Range expansion through a table (8- and 10-bit samples): built from
 * cf_gray_expand on the host, so it gives exactly what the CPU twin
 * computes, and staged in shared memory because a warp's lookups scatter. */
struct GrayLut {
    uint8_t v[1024];
};

GrayLut make_lut(const cf_gray_plan &plan, int depth)
{
    GrayLut lut;
    for (int i = 0; i < (1 << depth); i++)
        lut.v[i] = cf_gray_expand(i, plan.lo, plan.span);
    return lut;
}

/* 4 samples per thread when rows are aligned and the width is a multiple
 * of 4 (X4), else one. */
template <typename T, bool X4>
__global__ void gray_luma_lut(const uint8_t *__restrict__ src, size_t src_pitch, int shift,
                              int entries, uint8_t *__restrict__ dst, size_t dst_pitch, int width,
                              int height, GrayLut lut)
{
    __shared__ uint8_t table[1024];
    for (int i = threadIdx.x; i < entries; i += blockDim.x)
        table[i] = lut.v[i];
    __syncthreads();
    const int per = X4 ? 4 : 1;
    int x = (blockIdx.x * blockDim.x + threadIdx.x) * per;
    if (x >= width)
        return;
    // Out-of-range samples (garbage above 10 bits) take the last entry, as
    // cf_gray_expand clamps them on the CPU.
    const int last = entries - 1;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const T *s = reinterpret_cast<const T *>(src + (size_t)y * src_pitch) + x;
        uint8_t *d = dst + (size_t)y * dst_pitch + x;
        if (X4) {
            T v[4];
            if (sizeof(T) == 1) {
                uint32_t word = *reinterpret_cast<const uint32_t *>(s);
                for (int i = 0; i < 4; i++) v[i] = (T)(word >> (8 * i));
            } else {
                uint2 words = *reinterpret_cast<const uint2 *>(s);
                v[0] = (T)words.x, v[1] = (T)(words.x >> 16), v[2] = (T)words.y, v[3] = (T)(words.y >> 16);
            }
            uint32_t out = 0;
#pragma unroll
            for (int i = 0; i < 4; i++)
                out |= (uint32_t)table[min((int)(v[i] >> shift), last)] << (8 * i);
            *reinterpret_cast<uint32_t *>(d) = out;
        } else {
            d[0] = table[min((int)(s[0] >> shift), last)];
        }
    }
}

template <typename T>
void launch_luma_lut(const cf_gray_plan &plan, int depth, const cf_frame *src, cf_frame *dst,
                     cudaStream_t stream)
{
    GrayLut lut = make_lut(plan, depth);
    bool x4 = src->width % 4 == 0 && ((uintptr_t)src->data[0] | src->pitch[0]) % (4 * sizeof(T)) == 0 &&
              aligned4(dst->data[0], dst->pitch[0]);
    int threads_x = x4 ? src->width / 4 : src->width;
    // About 8 rows per block, so each block's table load is shared by several rows.
    dim3 grid((unsigned)((threads_x + 255) / 256), grid_rows((src->height + 7) / 8));
    if (x4)
        gray_luma_lut<T, true><<<grid, 256, 0, stream>>>(src->data[0], src->pitch[0], plan.shift,
                                                         1 << depth, dst->data[0], dst->pitch[0],
                                                         src->width, src->height, lut);
    else
        gray_luma_lut<T, false><<<grid, 256, 0, stream>>>(src->data[0], src->pitch[0], plan.shift,
                                                          1 << depth, dst->data[0], dst->pitch[0],
                                                          src->width, src->height, lut);
}

/* 16-bit samples: the expansion computed per sample. */
template <typename T>
__global__ void gray_luma(const uint8_t *__restrict__ src, size_t src_pitch, int shift, int lo,
                          int span, uint8_t *__restrict__ dst, size_t dst_pitch, int width,
                          int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width)
        return;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        int v = reinterpret_cast<const T *>(src + (size_t)y * src_pitch)[x] >> shift;
        dst[(size_t)y * dst_pitch + x] = cf_gray_expand(v, lo, span);
    }
}

__global__ void fill16(uint8_t *dst, size_t pitch, int samples, int height, uint16_t value)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= samples)
        return;
    for (int y = blockIdx.y; y < height; y += gridDim.y)
        reinterpret_cast<uint16_t *>(dst + (size_t)y * pitch)[x] = value;
}

cf_status keep_luma(const cf_gray_plan &plan, const cf_frame *src, cf_frame *dst,
                    cudaStream_t stream)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    CF_TRY(CF_CUDA_CHECK(cudaMemcpy2DAsync(
        dst->data[0], dst->pitch[0], src->data[0], src->pitch[0],
        cf_format_plane_row_bytes(src->format, 0, src->width), (size_t)src->height,
        cudaMemcpyDeviceToDevice, stream)));
    for (int p = 1; p < info->n_planes; p++) {
        size_t row = cf_format_plane_row_bytes(src->format, p, src->width);
        int rows = cf_format_plane_height(src->format, p, src->height);
        if (info->sample_bytes == 1) {
            CF_TRY(CF_CUDA_CHECK(cudaMemset2DAsync(dst->data[p], dst->pitch[p], plan.neutral, row,
                                                   (size_t)rows, stream)));
            continue;
        }
        int samples = (int)(row / 2);
        dim3 grid((unsigned)((samples + 255) / 256), grid_rows(rows));
        fill16<<<grid, 256, 0, stream>>>(dst->data[p], dst->pitch[p], samples, rows, plan.neutral);
        CF_TRY(CF_CUDA_CHECK(cudaGetLastError()));
    }
    return CF_OK;
}

} // namespace

extern "C" cf_status cf_gray_cuda(const cf_gray_plan *plan, const cf_frame *src, cf_frame *dst,
                                  cf_stream stream)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    if (!plan->from_rgb && plan->keep_format)
        return keep_luma(*plan, src, dst, stream);
    dim3 grid((unsigned)((src->width + 255) / 256), grid_rows(src->height));
    int bpp = info->pixel_bytes[0];
    if (plan->from_rgb && !plan->keep_format && src->width % 4 == 0 && (bpp == 3 || bpp == 4) &&
        aligned4(src->data[0], src->pitch[0]) && aligned4(dst->data[0], dst->pitch[0])) {
        int quads = src->width / 4;
        dim3 qgrid((unsigned)((quads + 255) / 256), grid_rows(src->height));
        if (bpp == 4)
            gray_rgb_x4<4><<<qgrid, 256, 0, stream>>>(src->data[0], src->pitch[0], info->r_offset,
                                                      info->g_offset, info->b_offset, dst->data[0],
                                                      dst->pitch[0], quads, src->height, plan->w);
        else
            gray_rgb_x4<3><<<qgrid, 256, 0, stream>>>(src->data[0], src->pitch[0], info->r_offset,
                                                      info->g_offset, info->b_offset, dst->data[0],
                                                      dst->pitch[0], quads, src->height, plan->w);
    } else if (plan->from_rgb && plan->keep_format)
        gray_rgb<true><<<grid, 256, 0, stream>>>(src->data[0], src->pitch[0], info->pixel_bytes[0],
                                                 info->r_offset, info->g_offset, info->b_offset,
                                                 dst->data[0], dst->pitch[0], src->width,
                                                 src->height, plan->w);
    else if (plan->from_rgb)
        gray_rgb<false><<<grid, 256, 0, stream>>>(src->data[0], src->pitch[0], info->pixel_bytes[0],
                                                  info->r_offset, info->g_offset, info->b_offset,
                                                  dst->data[0], dst->pitch[0], src->width,
                                                  src->height, plan->w);
    else if (info->depth <= 10 && plan->sample_bytes == 1)
        launch_luma_lut<uint8_t>(*plan, info->depth, src, dst, stream);
    else if (info->depth <= 10)
        launch_luma_lut<uint16_t>(*plan, info->depth, src, dst, stream);
    else
        gray_luma<uint16_t><<<grid, 256, 0, stream>>>(src->data[0], src->pitch[0], plan->shift,
                                                      plan->lo, plan->span, dst->data[0],
                                                      dst->pitch[0], src->width, src->height);
    return CF_CUDA_CHECK(cudaGetLastError());
}
