/* CUDA gray: same arithmetic as gray_cpu.c through gray.h. Grids stride
 * over rows so any height fits the 65535 grid.y limit. A memory-bound
 * kernel lives on wide, coalesced accesses and many bytes in flight: with
 * 16-byte aligned rows (our device pools' strides; GStreamer's default
 * strides only when the row bytes are a multiple of 16) each thread
 * moves one 16-byte store's worth of output from 16-byte loads, with the
 * channel order a template parameter so every byte is picked out of
 * registers; 4-byte aligned RGB rows take 4 pixels per thread; anything
 * else one pixel per thread. */
#include <cuda_runtime.h>

#include "gray.h"
#include "launch.cuh"

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
    cf_pdl_begin();
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

/* 4 pixels of BPP (3 or 4) bytes per thread, G at byte 1, R at byte R
 * and B at byte B: BPP 32-bit words in, one 32-bit word out. Needs 4-byte
 * aligned rows and a width that is a multiple of 4 (the launcher checks). */
template <int BPP, int R, int B>
__global__ void gray_rgb_x4(const uint8_t *__restrict__ src, size_t src_pitch,
                            uint8_t *__restrict__ dst, size_t dst_pitch, int quads, int height,
                            cf_gray_weights w)
{
    cf_pdl_begin();
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= quads)
        return;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        const uint32_t *s = reinterpret_cast<const uint32_t *>(src + (size_t)y * src_pitch) + (size_t)q * BPP;
        uint32_t words[BPP];
#pragma unroll
        for (int i = 0; i < BPP; i++)
            words[i] = s[i];
        reinterpret_cast<uint32_t *>(dst + (size_t)y * dst_pitch)[q] = pack_luma4<BPP, R, B, 0>(words, w);
    }
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
    cf_pdl_begin();
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
 * a row per thread (up to the grid.y limit). */
dim3 x16_grid(int groups, int height, dim3 *block)
{
    *block = dim3(64, 4);
    return dim3((unsigned)((groups + 63) / 64), grid_rows((height + 3) / 4));
}

/* Packed RGB of BPP (3 or 4) bytes, G at byte 1, R at byte R and B at byte
 * B, to GRAY8: 16 pixels per thread where both rows are 16-byte aligned
 * (x16), else 4 (4-byte aligned rows, width a multiple of 4). */
template <int BPP, int R, int B>
cudaError_t launch_packed(bool x16, const cf_frame *src, cf_frame *dst, cf_gray_weights w,
                          cudaStream_t stream)
{
    if (x16) {
        dim3 block, grid = x16_grid((src->width + 15) / 16, src->height, &block);
        return cf_launch(gray_rgb_x16<BPP, R, B>, grid, block, 0, stream, src->data[0],
                         src->pitch[0], dst->data[0], dst->pitch[0], src->width, src->height, w);
    }
    const int quads = src->width / 4;
    const dim3 grid((unsigned)((quads + 255) / 256), grid_rows(src->height));
    return cf_launch(gray_rgb_x4<BPP, R, B>, grid, dim3(256), 0, stream, src->data[0],
                     src->pitch[0], dst->data[0], dst->pitch[0], quads, src->height, w);
}

/* Luma (8-bit samples, or 16-bit ones shifted down) to GRAY8, one sample
 * per thread: rows of any alignment. */
template <typename T>
__global__ void gray_luma(const uint8_t *__restrict__ src, size_t src_pitch,
                          uint8_t *__restrict__ dst, size_t dst_pitch, int width, int height,
                          cf_gray_plan plan)
{
    cf_pdl_begin();
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width)
        return;
    for (int y = blockIdx.y; y < height; y += gridDim.y) {
        int v = reinterpret_cast<const T *>(src + (size_t)y * src_pitch)[x] >> plan.shift;
        dst[(size_t)y * dst_pitch + x] =
            cf_gray_expand_magic(v, plan.lo, plan.span, plan.magic, plan.magic_shift);
    }
}

/* The same with 16-byte loads: each thread takes kLumaVecs<T> 16-byte groups
 * of samples (16 of 8 bits or 8 of 16 bits each) a warp's width apart, so
 * every load instruction of a warp reads 512 contiguous bytes, issues all
 * its loads before using any (bytes in flight are what a streaming kernel
 * lives on), and stores as many GRAY8 bytes in 16- or 8-byte stores. No
 * table and no shared memory. Needs 16-byte aligned source rows and
 * destination rows aligned to the store; the samples past the last whole
 * group of a row are done one by one by the thread that group falls to. */
template <typename T> constexpr int kLumaVecs = sizeof(T) == 1 ? 2 : 4;

template <typename T, bool Mul24>
__global__ void gray_luma_x16(const uint8_t *__restrict__ src, size_t src_pitch,
                              uint8_t *__restrict__ dst, size_t dst_pitch, int width, int height,
                              cf_gray_plan plan)
{
    cf_pdl_begin();
    static_assert(Mul24 || sizeof(T) == 2, "8-bit spans always have the 32-bit form");
    constexpr int PER = 16 / (int)sizeof(T); // samples per 16-byte group
    // Group k of this thread: q0 + 32 k.
    const int q0 = (blockIdx.x * blockDim.x + (threadIdx.x & ~31)) * kLumaVecs<T> + (threadIdx.x & 31);
    const int whole = width / PER; // whole groups in a row
    if (q0 > whole)
        return;
    auto expand = [&](uint32_t sample) -> uint32_t {
        if (!Mul24)
            return cf_gray_expand_magic((int)(sample >> plan.shift), plan.lo, plan.span, plan.magic,
                                        plan.magic_shift);
        const int t = (int)(sample >> plan.shift) - plan.lo;
        return cf_gray_expand_mul24((uint32_t)(t < 0 ? 0 : t > plan.span ? plan.span : t), plan.mul24);
    };
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y) {
        const uint8_t *srow = src + (size_t)y * src_pitch;
        uint8_t *drow = dst + (size_t)y * dst_pitch;
        uint4 v[kLumaVecs<T>];
#pragma unroll
        for (int k = 0; k < kLumaVecs<T>; k++)
            if (q0 + 32 * k < whole)
                v[k] = __ldcs(reinterpret_cast<const uint4 *>(srow) + q0 + 32 * k);
#pragma unroll
        for (int k = 0; k < kLumaVecs<T>; k++) {
            const int q = q0 + 32 * k;
            if (q > whole)
                break;
            if (q == whole) { // the partial group at the row's end, if any
                for (int x = whole * PER; x < width; x++)
                    drow[x] = (uint8_t)expand(reinterpret_cast<const T *>(srow)[x]);
                break;
            }
            const uint32_t words[4] = { v[k].x, v[k].y, v[k].z, v[k].w };
            uint32_t out[PER / 4];
#pragma unroll
            for (int g = 0; g < PER / 4; g++) {
                out[g] = 0;
                if constexpr (sizeof(T) == 1) {
                    // 8-bit samples (lo + span <= 255): clamp v - lo to [0,
                    // span] four at a time with byte-wise SIMD.
                    const uint32_t t4 = __vminu4(__vsubus4(words[g], plan.lo * 0x01010101u),
                                                 plan.span * 0x01010101u);
#pragma unroll
                    for (int j = 0; j < 4; j++)
                        out[g] |= (uint32_t)cf_gray_expand_mul24((t4 >> (8 * j)) & 0xffu, plan.mul24)
                                  << (8 * j);
                } else {
#pragma unroll
                    for (int j = 0; j < 4; j++) {
                        const int i = 4 * g + j; // sample index
                        out[g] |= expand((words[i / 2] >> (16 * (i % 2))) & 0xffffu) << (8 * j);
                    }
                }
            }
            if (PER == 16)
                __stcs(reinterpret_cast<uint4 *>(drow) + q, make_uint4(out[0], out[1], out[2], out[3]));
            else
                __stcs(reinterpret_cast<uint2 *>(drow) + q, make_uint2(out[0], out[1 % (PER / 4)]));
        }
    }
}

/* Luma to GRAY8: the 16-byte kernel if the rows allow it, else one sample
 * per thread. */
template <typename T>
cudaError_t launch_luma(const cf_gray_plan &plan, const cf_frame *src, cf_frame *dst,
                        cudaStream_t stream)
{
    const int per = 16 / (int)sizeof(T);
    if (aligned16(src->data[0], src->pitch[0]) && ((uintptr_t)dst->data[0] | dst->pitch[0]) % per == 0 &&
        (sizeof(T) == 2 || plan.mul24 != 0)) {
        // Threads in warps of 32, each warp 32 * kLumaVecs groups (the
        // partial group included).
        int warps = (src->width / per + 32 * kLumaVecs<T>) / (32 * kLumaVecs<T>);
        dim3 block, grid = x16_grid(warps * 32, src->height, &block);
        auto kernel = plan.mul24 ? gray_luma_x16<T, true> : gray_luma_x16<T, sizeof(T) == 1>;
        return cf_launch(kernel, grid, block, 0, stream, src->data[0], src->pitch[0], dst->data[0],
                         dst->pitch[0], src->width, src->height, plan);
    }
    dim3 grid((unsigned)((src->width + 255) / 256), grid_rows(src->height));
    return cf_launch(gray_luma<T>, grid, dim3(256), 0, stream, src->data[0], src->pitch[0],
                     dst->data[0], dst->pitch[0], src->width, src->height, plan);
}

__global__ void fill16(uint8_t *dst, size_t pitch, int samples, int height, uint16_t value)
{
    cf_pdl_begin();
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= samples)
        return;
    for (int y = blockIdx.y; y < height; y += gridDim.y)
        reinterpret_cast<uint16_t *>(dst + (size_t)y * pitch)[x] = value;
}

/* YUV in, the same YUV format out: the luma plane as it is, the chroma
 * planes set to the neutral value. The luma bytes go through the 8-bit
 * luma kernel with the full-range 8-bit plan, which maps every byte to
 * itself (gray.h: cf_gray_mul24(255) = 2^24); it copies a plane at about
 * twice cudaMemcpy2DAsync's rate (cf-bench, H200). */
cf_status keep_luma(const cf_gray_plan &plan, const cf_frame *src, cf_frame *dst,
                    cudaStream_t stream)
{
    const cf_format_info *info = cf_format_get_info(src->format);
    const cf_gray_plan bytes = cf_gray_make_plan(CF_GRAY_BT601, CF_GRAY_RANGE_FULL, CF_FORMAT_NV12,
                                                 CF_FORMAT_GRAY8);
    cf_frame from = *src, to = *dst; // plane 0 as GRAY8 rows of its bytes
    from.format = to.format = CF_FORMAT_GRAY8;
    from.width = to.width = (int)cf_format_plane_row_bytes(src->format, 0, src->width);
    CF_TRY(CF_CUDA_CHECK(launch_luma<uint8_t>(bytes, &from, &to, stream)));
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
        CF_TRY(CF_CUDA_CHECK(cf_launch(fill16, grid, dim3(256), 0, stream, dst->data[p],
                                       dst->pitch[p], samples, rows, plan.neutral)));
    }
    return CF_OK;
}

} // namespace

extern "C" cf_status cf_gray_cuda(const cf_gray_plan *plan, const cf_frame *src, cf_frame *dst,
                                  cf_stream stream)
{
    if (!plan->from_rgb && plan->keep_format)
        return keep_luma(*plan, src, dst, stream);
    if (!plan->from_rgb) // full-range 8-bit luma too: each sample maps to itself
        return CF_CUDA_CHECK(plan->sample_bytes == 1 ? launch_luma<uint8_t>(*plan, src, dst, stream)
                                                     : launch_luma<uint16_t>(*plan, src, dst, stream));
    const cf_format_info *info = cf_format_get_info(src->format);
    const int bpp = info->pixel_bytes[0];
    const bool rgb_order = info->r_offset == 0 && info->g_offset == 1 && info->b_offset == 2;
    const bool bgr_order = info->r_offset == 2 && info->g_offset == 1 && info->b_offset == 0;
    // The packed kernels: GRAY8 out, 3 or 4 bytes a pixel, R-G-B or B-G-R.
    const bool packed = !plan->keep_format && (bpp == 3 || bpp == 4) && (rgb_order || bgr_order);
    const bool x16 = aligned16(src->data[0], src->pitch[0]) && aligned16(dst->data[0], dst->pitch[0]);
    const bool x4 = src->width % 4 == 0 && aligned4(src->data[0], src->pitch[0]) &&
                    aligned4(dst->data[0], dst->pitch[0]);
    if (packed && (x16 || x4)) {
        auto launch = bpp == 4 ? (rgb_order ? launch_packed<4, 0, 2> : launch_packed<4, 2, 0>)
                               : (rgb_order ? launch_packed<3, 0, 2> : launch_packed<3, 2, 0>);
        return CF_CUDA_CHECK(launch(x16, src, dst, plan->w, stream));
    }
    const dim3 grid((unsigned)((src->width + 255) / 256), grid_rows(src->height));
    return CF_CUDA_CHECK(cf_launch(plan->keep_format ? gray_rgb<true> : gray_rgb<false>, grid,
                                   dim3(256), 0, stream, src->data[0], src->pitch[0], bpp,
                                   info->r_offset, info->g_offset, info->b_offset, dst->data[0],
                                   dst->pitch[0], src->width, src->height, plan->w));
}
