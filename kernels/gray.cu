/* CUDA gray: same arithmetic as gray_cpu.c through gray.h. Grids stride
 * over rows so any height fits the 65535 grid.y limit. A memory-bound
 * kernel lives on wide, coalesced accesses and many bytes in flight: with
 * 16-byte aligned rows (our device pools' strides; GStreamer's default
 * strides only when the row bytes are a multiple of 16) each thread
 * moves one 16-byte store's worth of output from 16-byte loads, with the
 * channel order a template parameter so every byte is picked out of
 * registers; 4-byte aligned rows take 4 pixels per thread; anything else
 * one pixel per thread. */
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


/* A byte of a little-endian array of 32-bit words, at a compile-time index
 * (the words stay in registers). */
template <int I>
__device__ __forceinline__ uint32_t byte_at(const uint32_t *words)
{
    return (words[I / 4] >> (8 * (I % 4))) & 0xffu;
}

template <int BPP, int R, int B, int P>
__device__ __forceinline__ uint32_t luma_of_pixel(const uint32_t *words, cf_gray_weights w)
{
    return cf_gray_luma((int32_t)byte_at<P * BPP + R>(words), (int32_t)byte_at<P * BPP + 1>(words),
                        (int32_t)byte_at<P * BPP + B>(words), w);
}

/* Pixels P0..P0+3 to four GRAY8 bytes, packed little-endian. */
template <int BPP, int R, int B, int P0>
__device__ __forceinline__ uint32_t pack_luma4(const uint32_t *words, cf_gray_weights w)
{
    return luma_of_pixel<BPP, R, B, P0>(words, w) | luma_of_pixel<BPP, R, B, P0 + 1>(words, w) << 8 |
           luma_of_pixel<BPP, R, B, P0 + 2>(words, w) << 16 | luma_of_pixel<BPP, R, B, P0 + 3>(words, w) << 24;
}

/* 16 pixels of BPP (3 or 4) bytes per thread, G at byte 1, R at byte R
 * and B at byte B of each pixel: BPP 16-byte loads, one 16-byte store.
 * Needs 16-byte aligned source and destination rows; the last width % 16
 * pixels of a row are done one by one by the row's last thread. */
template <int BPP, int R, int B>
__global__ void gray_rgb_x16(const uint8_t *__restrict__ src, size_t src_pitch,
                             uint8_t *__restrict__ dst, size_t dst_pitch, int width, int height,
                             cf_gray_weights w)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q * 16 >= width)
        return;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y) {
        const uint8_t *srow = src + (size_t)y * src_pitch;
        uint8_t *drow = dst + (size_t)y * dst_pitch;
        if ((q + 1) * 16 <= width) {
            uint32_t words[4 * BPP];
            const uint4 *s = reinterpret_cast<const uint4 *>(srow) + (size_t)q * BPP;
#pragma unroll
            for (int i = 0; i < BPP; i++) {
                uint4 v = __ldcs(s + i); // read once: do not keep it in cache
                words[4 * i] = v.x, words[4 * i + 1] = v.y, words[4 * i + 2] = v.z, words[4 * i + 3] = v.w;
            }
            uint4 out;
            out.x = pack_luma4<BPP, R, B, 0>(words, w);
            out.y = pack_luma4<BPP, R, B, 4>(words, w);
            out.z = pack_luma4<BPP, R, B, 8>(words, w);
            out.w = pack_luma4<BPP, R, B, 12>(words, w);
            __stcs(reinterpret_cast<uint4 *>(drow) + q, out);
        } else {
            for (int x = q * 16; x < width; x++) {
                const uint8_t *p = srow + (size_t)x * BPP;
                drow[x] = cf_gray_luma(p[R], p[1], p[B], w);
            }
        }
    }
}

bool aligned16(const void *p, size_t pitch)
{
    return ((uintptr_t)p | pitch) % 16 == 0;
}

/* Grid of the 16-byte kernels: blocks of 64 threads across and 4 rows,
 * each block covering about @rows_per_block rows (more rows per block
 * share the cost of loading a lookup table). */
dim3 x16_grid(int groups, int height, int rows_per_block, dim3 *block)
{
    *block = dim3(64, 4);
    return dim3((unsigned)((groups + 63) / 64),
                grid_rows((height + rows_per_block - 1) / rows_per_block));
}

template <int BPP, int R, int B>
void launch_rgb_x16(const cf_frame *src, cf_frame *dst, cf_gray_weights w, cudaStream_t stream)
{
    dim3 block, grid = x16_grid((src->width + 15) / 16, src->height, 4, &block);
    gray_rgb_x16<BPP, R, B><<<grid, block, 0, stream>>>(src->data[0], src->pitch[0], dst->data[0],
                                                        dst->pitch[0], src->width, src->height, w);
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

/* One 16-byte load of samples per thread (16 of 8 bits or 8 of 16 bits)
 * and one store of as many GRAY8 bytes. Lut: the expansion through the
 * shared-memory table (8- and 10-bit samples), else computed per sample
 * (16-bit). Needs 16-byte aligned source rows and destination rows
 * aligned to the store; the last width % PER samples of a row are done one
 * by one by the row's last thread. */
template <typename T, bool Lut>
__global__ void gray_luma_x16(const uint8_t *__restrict__ src, size_t src_pitch, int shift,
                              int entries, int lo, int span, uint8_t *__restrict__ dst,
                              size_t dst_pitch, int width, int height, GrayLut lut)
{
    constexpr int PER = 16 / (int)sizeof(T);
    __shared__ uint8_t table[Lut ? 1024 : 1];
    if (Lut) {
        for (int i = threadIdx.y * blockDim.x + threadIdx.x; i < entries; i += blockDim.x * blockDim.y)
            table[i] = lut.v[i];
        __syncthreads();
    }
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q * PER >= width)
        return;
    const int last = entries - 1;
    auto expand = [&](uint32_t sample) -> uint32_t {
        int v = (int)(sample >> shift);
        return Lut ? table[min(v, last)] : cf_gray_expand(v, lo, span);
    };
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y) {
        const uint8_t *srow = src + (size_t)y * src_pitch;
        uint8_t *drow = dst + (size_t)y * dst_pitch;
        if ((q + 1) * PER <= width) {
            uint4 v = __ldcs(reinterpret_cast<const uint4 *>(srow) + q);
            const uint32_t words[4] = { v.x, v.y, v.z, v.w };
            uint32_t out[PER / 4];
#pragma unroll
            for (int k = 0; k < PER / 4; k++) {
                out[k] = 0;
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int i = 4 * k + j; // sample index
                    uint32_t sample = sizeof(T) == 1 ? (words[i / 4] >> (8 * (i % 4))) & 0xffu
                                                     : (words[i / 2] >> (16 * (i % 2))) & 0xffffu;
                    out[k] |= expand(sample) << (8 * j);
                }
            }
            if (PER == 16)
                __stcs(reinterpret_cast<uint4 *>(drow) + q, make_uint4(out[0], out[1], out[2], out[3]));
            else
                __stcs(reinterpret_cast<uint2 *>(drow) + q, make_uint2(out[0], out[1 % (PER / 4)]));
        } else {
            for (int x = q * PER; x < width; x++)
                drow[x] = (uint8_t)expand(reinterpret_cast<const T *>(srow)[x]);
        }
    }
}

/* Luma to GRAY8 with the 16-byte kernel, if the rows allow it. */
template <typename T, bool Lut>
bool launch_luma_x16(const cf_gray_plan &plan, int entries, const GrayLut &lut,
                     const cf_frame *src, cf_frame *dst, cudaStream_t stream)
{
    const int per = 16 / (int)sizeof(T);
    if (!aligned16(src->data[0], src->pitch[0]) || ((uintptr_t)dst->data[0] | dst->pitch[0]) % per)
        return false;
    // A table is loaded per block: let more rows share it.
    dim3 block, grid = x16_grid((src->width + per - 1) / per, src->height, Lut ? 16 : 4, &block);
    gray_luma_x16<T, Lut><<<grid, block, 0, stream>>>(src->data[0], src->pitch[0], plan.shift, entries,
                                                      plan.lo, plan.span, dst->data[0], dst->pitch[0],
                                                      src->width, src->height, lut);
    return true;
}

template <typename T>
void launch_luma_lut(const cf_gray_plan &plan, int depth, const cf_frame *src, cf_frame *dst,
                     cudaStream_t stream)
{
    GrayLut lut = make_lut(plan, depth);
    if (launch_luma_x16<T, true>(plan, 1 << depth, lut, src, dst, stream))
        return;
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
    bool rgb_order = info->r_offset == 0 && info->g_offset == 1 && info->b_offset == 2;
    bool bgr_order = info->r_offset == 2 && info->g_offset == 1 && info->b_offset == 0;
    if (plan->from_rgb && !plan->keep_format && (bpp == 3 || bpp == 4) && (rgb_order || bgr_order) &&
        aligned16(src->data[0], src->pitch[0]) && aligned16(dst->data[0], dst->pitch[0])) {
        if (bpp == 4 && rgb_order)
            launch_rgb_x16<4, 0, 2>(src, dst, plan->w, stream);
        else if (bpp == 4)
            launch_rgb_x16<4, 2, 0>(src, dst, plan->w, stream);
        else if (rgb_order)
            launch_rgb_x16<3, 0, 2>(src, dst, plan->w, stream);
        else
            launch_rgb_x16<3, 2, 0>(src, dst, plan->w, stream);
    } else if (plan->from_rgb && !plan->keep_format && src->width % 4 == 0 && (bpp == 3 || bpp == 4) &&
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
    else if (!launch_luma_x16<uint16_t, false>(*plan, 0, GrayLut{}, src, dst, stream))
        gray_luma<uint16_t><<<grid, 256, 0, stream>>>(src->data[0], src->pitch[0], plan->shift,
                                                      plan->lo, plan->span, dst->data[0],
                                                      dst->pitch[0], src->width, src->height);
    return CF_CUDA_CHECK(cudaGetLastError());
}
