/* CUDA blur, tensor-core method: what its 8-bit passes (blur_tensor.cu)
 * and the passes of 16-bit planes (blur_tensor16.cu, blur_tensor16_cols.cu)
 * share: the rows and columns tiles' shapes, the rows staging stride, the
 * taps split into two byte planes in shared memory, both passes' tables of
 * band-matrix fragments, the int8 product (mma.sync m16n8k32, u8 x u8 into
 * s32), the byte transpose, cp.async, the tile loop's step and the grid
 * size. Fragment layouts and the arithmetic: the header of
 * blur_tensor.cu. */
#ifndef CUDAFILTERS_KERNELS_BLUR_TENSOR_MMA_CUH
#define CUDAFILTERS_KERNELS_BLUR_TENSOR_MMA_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>

#include "blur_cuda.cuh"

// Only the tensor-core method's files include this file: what it declares
// lies in each one's unnamed namespace, as if written there.
namespace {

constexpr int kThreads = 256;          // 8 warps a rows block
constexpr int kRowPixels = 128;        // pixels of a rows tile
constexpr int kRowMatrixRows = 32;     // matrix rows of a rows tile: 32 / C image rows

__host__ __device__ constexpr int round4(int r)
{
    return (r + 3) / 4 * 4;
}

/* Steps of 32 staged columns a rows warp makes for radius R (its 32 pixels
 * reach 2R + 31 + pad columns, pad = P - R), and the table entries: offset
 * d = 8 (e - 3) - pad along the band for entry e, e = 4 step - block + 3. */
__host__ __device__ constexpr int row_steps(int R)
{
    return (2 * R + 31 + (round4(R) - R)) / 32 + 1;
}
__host__ __device__ constexpr int row_entries(int R)
{
    return 4 * row_steps(R);
}
/* Staged bytes a matrix row: 4 warps across, 32 columns a step; the row
 * stride in words is 4 modulo 32, so the 8 rows x 4 words of an A
 * fragment's load hit 32 banks. */
__host__ __device__ constexpr int row_stage_bytes(int R)
{
    return 32 * row_steps(R) + 96;
}
__host__ __device__ constexpr int row_stride(int R)
{
    return (row_stage_bytes(R) / 4 + (36 - (row_stage_bytes(R) / 4) % 32) % 32) * 4;
}
/* The taps' bytes in shared memory, two planes (low bytes, high bytes) of
 * tap_plane_bytes(R): byte kTapMargin + i of a plane is tap i's, zero
 * outside 0 .. 2R. The margins hold every index a fragment table reads,
 * from -34 (rows pass) to at most 2R + 66 with the word after it. */
constexpr int kTapMargin = 64;
__host__ __device__ constexpr int tap_plane_bytes(int R)
{
    return (kTapMargin + 2 * R + 1 + 72 + 15) / 16 * 16;
}
__host__ __device__ constexpr int taps_bytes(int R)
{
    return 2 * tap_plane_bytes(R);
}

/* The columns tile's shape (blur_tensor.cu's tensor_cols, blur_tensor16_cols.cu):
 * 32 samples by 128 rows, 8 warps stacked, 16 rows each; a staged row
 * group (4 rows) is kColWords words a plane, 32 positions and a pad that
 * puts the groups of a step's 4 lanes t 8 banks apart. */
constexpr int kColSamples = 32;
constexpr int kColWarps = 8;
constexpr int kColThreads = 32 * kColWarps;
constexpr int kColRows = 16 * kColWarps;
constexpr int kColWords = 40;

/* Steps of 32 staged rows a columns warp makes (its 16 rows reach 2R + 15
 * + pad rows), and the staged rows of a tile (8 warps, 16 rows apart),
 * from P = round4(R) rows above it. */
__host__ __device__ constexpr int col_steps(int R)
{
    return (2 * R + 15 + (round4(R) - R)) / 32 + 1;
}
__host__ __device__ constexpr int col_staged_rows(int R)
{
    return 32 * col_steps(R) + 16 * (kColWarps - 1);
}

__device__ __forceinline__ void mma_u8(int (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                       uint32_t b1)
{
#if __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    __trap(); // tensor_run refuses such devices
#endif
}

/* 16 bytes from global memory at src to shared memory at dst, both
 * 16-byte aligned, without passing through registers (cp.async, compute
 * capability 8.0 and later), cached in L2 only; complete after
 * cp_async_wait covers the group they were committed in. */
__device__ __forceinline__ void cp_async16(void *dst, const void *src)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
                 :
                 : "r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src)
                 : "memory");
#else
    __trap(); // tensor_run refuses such devices
#endif
}
__device__ __forceinline__ void cp_async_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
/* Waits until at most N of this thread's committed groups are pending. */
template <int N> __device__ __forceinline__ void cp_async_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

/* Advances a block's tile (tx, ty) of a grid-stride loop by the grid's
 * step, (dx, dy) = (grid % tiles_x, grid / tiles_x): no division a tile. */
__device__ __forceinline__ void next_tile(int &tx, int &ty, int dx, int dy, int tiles_x)
{
    tx += dx;
    ty += dy;
    if (tx >= tiles_x) {
        tx -= tiles_x;
        ty++;
    }
}

/* Writes kernel k's tap bytes into the two planes at w (taps_bytes),
 * a word at a time, the margins zero. */
template <int Threads> __device__ __forceinline__ void load_tap_bytes(uint32_t *w, const cf_blur_kernel &k)
{
    const int words = tap_plane_bytes(k.size / 2) / 4;
    for (int j = threadIdx.x; j < 2 * words; j += Threads) {
        const int h = j >= words, i0 = 4 * (j - h * words) - kTapMargin;
        uint32_t v = 0;
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int i = i0 + b;
            const uint32_t t = (unsigned)i < (unsigned)k.size ? k.w[i] : 0u;
            v |= (t >> (8 * h) & 255u) << (8 * b);
        }
        w[j] = v;
    }
}
/* Byte `hi` (0: low, 1: high) of taps i0 .. i0 + 3 packed as a fragment
 * register, byte b from tap i0 + b (taps outside 0 .. 2R count 0): one
 * unaligned word of the plane, from the two aligned words it spans. */
__device__ __forceinline__ uint32_t tap_bytes(const uint32_t *w, int R, int i0, int hi)
{
    const int at = i0 + kTapMargin;
    const uint32_t *plane = w + hi * (tap_plane_bytes(R) / 4) + (at >> 2);
    return __funnelshift_r(plane[0], plane[1], 8 * (at & 3));
}

/* The columns pass's table of A fragments (col_steps(R) steps of 32 lanes
 * x 8 words, at tab) from the tap planes at w (load_tap_bytes, which the
 * block has finished: a barrier before), the block's Threads threads
 * taking every Threads-th word. Step s, lane (g, t), word q of the low (h
 * = 0) or high bytes, at ((s 32 + lane) 2 + h) 4 + q: A[m][k] = w[32 s -
 * pad + k - m], row m = g + 8 (q & 1), columns k = 4t + 16 (q >> 1) +
 * byte. */
template <int Threads> __device__ __forceinline__ void cols_table(uint32_t *tab, const uint32_t *w, int R)
{
    const int pad = round4(R) - R;
    for (int i = threadIdx.x; i < col_steps(R) * 32 * 8; i += Threads) {
        const int q = i & 3, h = (i >> 2) & 1, l = (i >> 3) & 31, s = i >> 8;
        const int m = (l >> 2) + 8 * (q & 1), kc = 4 * (l & 3) + 16 * (q >> 1);
        tab[i] = tap_bytes(w, R, 32 * s - pad + kc - m, h);
    }
}

/* The 4 x 4 byte transpose: byte i of result j is byte j of v[i]. */
__device__ __forceinline__ uint4 transpose_bytes(const uint32_t (&v)[4])
{
    const uint32_t a = __byte_perm(v[0], v[1], 0x5140), b = __byte_perm(v[2], v[3], 0x5140);
    const uint32_t c = __byte_perm(v[0], v[1], 0x7362), d = __byte_perm(v[2], v[3], 0x7362);
    return make_uint4(__byte_perm(a, b, 0x5410), __byte_perm(a, b, 0x7632), __byte_perm(c, d, 0x5410),
                      __byte_perm(c, d, 0x7632));
}

/* Blocks of a launch of Kernel: every SM full (the blocks loop over the
 * tiles), no more than the tiles; 0 with *err set if the device cannot be
 * asked. */
template <auto Kernel> unsigned grid_for(int threads, size_t shared, int tiles, cudaError_t *err)
{
    int device = 0, sms = 0, major = 0, per_sm = 0;
    *err = cudaGetDevice(&device);
    if (*err == cudaSuccess)
        *err = cf_device_facts(device, &sms, &major);
    if (*err == cudaSuccess)
        *err = cf_occupancy<Kernel>(device, threads, shared, &per_sm);
    if (*err != cudaSuccess)
        return 0;
    return (unsigned)std::min<long long>(tiles, (long long)sms * std::max(per_sm, 1));
}

/* The rows pass's table of B fragments (row_entries(R) entries of 32 lanes
 * x 4 words, at tab) from the tap planes at w (load_tap_bytes, which the
 * block has finished: a barrier before), the block's Threads threads
 * taking every Threads-th word. Entry e, lane (g, t), word q (b0 or b1 of
 * the low or high bytes): B[k][n] = w[d + k - n], d = 8 (e - 3) - pad,
 * rows k = 4t + 16 (q & 1) + byte, pad = round4(R) - R. */
template <int Threads> __device__ __forceinline__ void rows_table(uint32_t *tab, const uint32_t *w, int R)
{
    const int pad = round4(R) - R;
    for (int i = threadIdx.x; i < row_entries(R) * 32 * 4; i += Threads) {
        const int q = i & 3, l = (i >> 2) & 31, e = i >> 7;
        const int d = 8 * (e - 3) - pad;
        tab[i] = tap_bytes(w, R, d + 16 * (q & 1) + 4 * (l & 3) - (l >> 2), q >> 1);
    }
}

/* The A fragment of step s of a rows warp from its staged byte plane: a0p
 * and a1p point at its lane's words of matrix rows g and g + 8 (a plane's
 * other rows follow at its stride). */
__device__ __forceinline__ void rows_a_fragment(const uint8_t *a0p, const uint8_t *a1p, int s,
                                                uint32_t (&a)[4])
{
    a[0] = *reinterpret_cast<const uint32_t *>(a0p + 32 * s);
    a[1] = *reinterpret_cast<const uint32_t *>(a1p + 32 * s);
    a[2] = *reinterpret_cast<const uint32_t *>(a0p + 32 * s + 16);
    a[3] = *reinterpret_cast<const uint32_t *>(a1p + 32 * s + 16);
}

/* Tiles of a rows pass over a plane of width x height pixels of C
 * channels (kRowPixels by kRowMatrixRows / C rows each): *tiles_x across,
 * *tiles in all; false where they are more than an int counts. */
template <int C> bool rows_tiles(int width, int height, int *tiles_x, int *tiles)
{
    *tiles_x = (width + kRowPixels - 1) / kRowPixels;
    const long long n = (long long)*tiles_x * ((height + kRowMatrixRows / C - 1) / (kRowMatrixRows / C));
    if (n > INT_MAX)
        return false;
    *tiles = (int)n;
    return true;
}

/* Tiles of a columns pass over a plane of `samples` samples a row and
 * `height` rows (kColSamples by kColRows each): *tiles_x across, *tiles in
 * all; false where they are more than an int counts. */
inline bool cols_tiles(int samples, int height, int *tiles_x, int *tiles)
{
    *tiles_x = (samples + kColSamples - 1) / kColSamples;
    const long long n = (long long)*tiles_x * ((height + kColRows - 1) / kColRows);
    if (n > INT_MAX)
        return false;
    *tiles = (int)n;
    return true;
}

/* Queues a pass Kernel(p, kx) of kThreads threads a block (a rows block's,
 * and kColThreads, a columns block's) and `shared` bytes of shared memory,
 * as many blocks as fill the GPU (grid_for; they loop over p.tiles). */
static_assert(kColThreads == kThreads, "one launch for both passes' blocks");
template <auto Kernel, typename Params>
cudaError_t pass_launch(const Params &p, const cf_blur_kernel &kx, size_t shared, cudaStream_t stream)
{
    cudaError_t err = cf_blur_cuda::allow_shared<Kernel>(shared);
    if (err != cudaSuccess)
        return err;
    const unsigned grid = grid_for<Kernel>(kThreads, shared, p.tiles, &err);
    if (grid == 0)
        return err;
    return cf_launch(Kernel, dim3(grid), dim3(kThreads), shared, stream, p, kx);
}

} // namespace

#endif
