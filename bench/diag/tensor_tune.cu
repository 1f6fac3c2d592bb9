// Session 22 prototype for issue 17: the exact blur of 8-bit planes of one
// channel on the int8 tensor cores (mma.sync m16n8k32, u8 x u8 -> s32),
// checked against a naive blur (blur_harness.cuh) and timed against the
// two-pass and register methods in the same run. Not part of the library.
//
// Arithmetic of blur.h, split into bytes so every product is u8 x u8:
// - rows: H = sum w p with w = 256 wh + wl (taps below 65536), so H = 256
//   sum wh p + sum wl p, each sum a matrix product of the staged samples
//   (16 rows x 32 columns a step) by a banded (Toeplitz) matrix of tap
//   bytes; t = (H + 2^7) >> 8 below 2^16.
// - columns: V = sum w t with t = 256 th + tl: V = sum wl tl + 256 (sum wh
//   tl + sum wl th) + 65536 sum wh th, the banded matrix of tap bytes (16
//   output rows x 32 input rows a step) times the staged intermediates'
//   bytes; q = (V + 2^23) >> 24.
// Bounds: a tap byte and a sample byte are at most 255, the taps at most
// 1025, so each s32 sum stays below 2^27 (2^28 for the middle one); H <
// 2^24 and V < 2^32 (blur.h), so the wrapped unsigned combinations are
// the exact sums.
//
// Fragment layouts (PTX ISA, mma.m16n8k32 with .u8): lane = 4 g + t; A
// (16 x 32, row): a0 row g cols 4t..4t+3, a1 row g+8 the same cols, a2 and
// a3 the same rows at cols 16+4t..; B (32 x 8, col): b0 rows 4t..4t+3 col g,
// b1 rows 16+4t..; C/D (16 x 8): c0, c1 row g cols 2t, 2t+1; c2, c3 row g+8.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "../../kernels/blur_cuda.cuh"

bool cf_blur_cuda::symmetric_taps(const cf_blur_kernel &k)
{
    for (int t = 0; t < k.size / 2; t++)
        if (k.w[t] != k.w[k.size - 1 - t])
            return false;
    return true;
}

#include "blur_harness.cuh"

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);  \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

namespace {

__device__ __forceinline__ void mma_u8(int (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                       uint32_t b1)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__host__ __device__ constexpr int round4(int r)
{
    return (r + 3) / 4 * 4;
}

// ---- rows pass ----------------------------------------------------------
// A block: 8 warps, 4 across (32 outputs each) by 2 down (16 rows each):
// 128 outputs x 32 rows. Staged: 32 rows of kRowStage(S) bytes from image
// column x0 - P (P = R rounded up to a multiple of 4, pad = P - R).
constexpr int kRowBW = 128, kRowBH = 32;

__host__ __device__ constexpr int row_steps(int R)
{
    return (2 * R + 31 + (round4(R) - R)) / 32 + 1;
}
__host__ __device__ constexpr int row_stage_w(int S)
{
    return 32 * S + 96;
}
__host__ __device__ constexpr int row_stride(int S) // bytes; words = 4 mod 32
{
    return (row_stage_w(S) / 4 + (4 - (row_stage_w(S) / 4) % 32 + 32) % 32) * 4;
}
// Table of B fragments: entry e (d = 8 (e - 3) - pad), lane l: {b0, b1} of
// the low tap bytes, {b0, b1} of the high ones, B[k][n] = w[d + k - n].
__host__ __device__ constexpr int row_entries(int S)
{
    return 4 * S;
}
size_t row_shared(int R)
{
    const int S = row_steps(R);
    return (size_t)row_entries(S) * 32 * 16 + (size_t)kRowBH * row_stride(S);
}

std::vector<uint4> row_table(const cf_blur_kernel &k)
{
    const int R = k.size / 2, pad = round4(R) - R, S = row_steps(R);
    std::vector<uint4> tab((size_t)row_entries(S) * 32);
    auto tap = [&](int i) -> uint32_t { return i >= 0 && i <= 2 * R ? k.w[i] : 0u; };
    for (int e = 0; e < row_entries(S); e++) {
        const int d = 8 * (e - 3) - pad;
        for (int lane = 0; lane < 32; lane++) {
            const int g = lane >> 2, t = lane & 3;
            uint32_t v[4] = {};
            for (int half = 0; half < 2; half++)
                for (int i = 0; i < 4; i++) {
                    const uint32_t w = tap(d + 16 * half + 4 * t + i - g);
                    v[half] |= (w & 255u) << (8 * i);
                    v[2 + half] |= (w >> 8) << (8 * i);
                }
            tab[(size_t)e * 32 + lane] = make_uint4(v[0], v[1], v[2], v[3]);
        }
    }
    return tab;
}

__global__ void __launch_bounds__(256)
tensor_rows(const uint8_t *__restrict__ src, size_t src_pitch, uint16_t *__restrict__ tmp,
            size_t tmp_pitch, int width, int height, int border, uint32_t border_value, int R,
            const uint4 *__restrict__ gtab)
{
    extern __shared__ __align__(16) uint8_t smem[];
    const int S = row_steps(R), pad = round4(R) - R, P = R + pad;
    const int stage_w = row_stage_w(S), stride = row_stride(S);
    uint4 *tab = reinterpret_cast<uint4 *>(smem);
    uint8_t *tile = smem + (size_t)row_entries(S) * 32 * 16;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    for (int i = tid; i < row_entries(S) * 32; i += 256) tab[i] = gtab[i];
    const int x0 = blockIdx.x * kRowBW, y0 = blockIdx.y * kRowBH;
    // Stage: word c/4 of row r holds image columns x0 - P + c .. + 3.
    const int words = stage_w / 4;
    for (int i = tid; i < kRowBH * words; i += 256) {
        const int r = i / words, c = 4 * (i - r * words);
        const int y = min(y0 + r, height - 1);
        const uint8_t *row = src + (size_t)y * src_pitch;
        const int x = x0 - P + c;
        uint32_t v;
        if (x >= 0 && x + 3 < width) {
            v = *reinterpret_cast<const uint32_t *>(row + x);
        } else {
            v = 0;
            for (int b = 0; b < 4; b++) {
                const int sx = cf_border_index(x + b, width, border);
                v |= (sx < 0 ? border_value : (uint32_t)row[sx]) << (8 * b);
            }
        }
        *reinterpret_cast<uint32_t *>(tile + r * stride + c) = v;
    }
    __syncthreads();
    const int wx = warp & 3, wy = warp >> 2, g = lane >> 2, t = lane & 3;
    const uint8_t *a0p = tile + (16 * wy + g) * stride + 32 * wx + 4 * t;
    const uint8_t *a1p = a0p + 8 * stride;
    int accL[4][4] = {}, accH[4][4] = {};
    for (int s = 0; s < S; s++) {
        uint32_t a[4];
        a[0] = *reinterpret_cast<const uint32_t *>(a0p + 32 * s);
        a[1] = *reinterpret_cast<const uint32_t *>(a1p + 32 * s);
        a[2] = *reinterpret_cast<const uint32_t *>(a0p + 32 * s + 16);
        a[3] = *reinterpret_cast<const uint32_t *>(a1p + 32 * s + 16);
#pragma unroll
        for (int j = 0; j < 4; j++) {
            // Staged columns (from the warp's) that n-block j's taps reach.
            if (32 * s + 31 < 8 * j + pad || 32 * s > 8 * j + 7 + pad + 2 * R)
                continue;
            const uint4 b = tab[(4 * s - j + 3) * 32 + lane];
            mma_u8(accL[j], a, b.x, b.y);
            mma_u8(accH[j], a, b.z, b.w);
        }
    }
    const size_t tp = tmp_pitch / 2;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const int x = x0 + 32 * wx + 8 * j + 2 * t;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int y = y0 + 16 * wy + g + 8 * h;
            if (y >= height || x >= width)
                continue;
            const uint32_t v0 = ((uint32_t)accH[j][2 * h] * 256u + (uint32_t)accL[j][2 * h] + 128u) >> 8;
            const uint32_t v1 =
                ((uint32_t)accH[j][2 * h + 1] * 256u + (uint32_t)accL[j][2 * h + 1] + 128u) >> 8;
            uint16_t *o = tmp + (size_t)y * tp + x;
            if (x + 1 < width)
                *reinterpret_cast<uint32_t *>(o) = v0 | v1 << 16;
            else
                o[0] = (uint16_t)v0;
        }
    }
}

// ---- columns pass -------------------------------------------------------
// A block: 8 warps stacked, each 16 output rows x 32 columns: 32 x 128.
// Staged: kColRows(S) intermediate rows from image row y0 - P, as two
// planes of words (low bytes, high bytes), word [r/4][x] holding the
// bytes of rows r .. r+3 of column x (40 words a group of rows).
constexpr int kColBW = 32, kColBH = 128, kColSW = 40;

__host__ __device__ constexpr int col_steps(int R)
{
    return (2 * R + 15 + (round4(R) - R)) / 32 + 1;
}
__host__ __device__ constexpr int col_rows(int S)
{
    return 32 * S + 112;
}
size_t col_shared(int R)
{
    const int S = col_steps(R);
    return (size_t)S * 32 * 32 + 2 * (size_t)(col_rows(S) / 4) * kColSW * 4;
}
// Table of A fragments: step s (d = 32 s - pad), lane l: a0..a3 of the low
// tap bytes, then of the high ones, A[m][k] = w[d + k - m].
std::vector<uint4> col_table(const cf_blur_kernel &k)
{
    const int R = k.size / 2, pad = round4(R) - R, S = col_steps(R);
    std::vector<uint4> tab((size_t)S * 64);
    auto tap = [&](int i) -> uint32_t { return i >= 0 && i <= 2 * R ? k.w[i] : 0u; };
    for (int s = 0; s < S; s++) {
        const int d = 32 * s - pad;
        for (int lane = 0; lane < 32; lane++) {
            const int g = lane >> 2, t = lane & 3;
            uint32_t lo[4] = {}, hi[4] = {};
            for (int r = 0; r < 4; r++) {
                const int m = g + 8 * (r & 1), kc = 4 * t + 16 * (r >> 1);
                for (int i = 0; i < 4; i++) {
                    const uint32_t w = tap(d + kc + i - m);
                    lo[r] |= (w & 255u) << (8 * i);
                    hi[r] |= (w >> 8) << (8 * i);
                }
            }
            tab[((size_t)s * 32 + lane) * 2] = make_uint4(lo[0], lo[1], lo[2], lo[3]);
            tab[((size_t)s * 32 + lane) * 2 + 1] = make_uint4(hi[0], hi[1], hi[2], hi[3]);
        }
    }
    return tab;
}

__global__ void __launch_bounds__(256)
tensor_cols(const uint16_t *__restrict__ tmp, size_t tmp_pitch, uint8_t *__restrict__ dst,
            size_t dst_pitch, int width, int height, int border, uint32_t border_value, int R,
            const uint4 *__restrict__ gtab)
{
    extern __shared__ __align__(16) uint8_t smem[];
    const int S = col_steps(R), pad = round4(R) - R, P = R + pad, rows = col_rows(S);
    uint4 *tab = reinterpret_cast<uint4 *>(smem);
    uint32_t *lo = reinterpret_cast<uint32_t *>(smem + (size_t)S * 32 * 32);
    uint32_t *hi = lo + (rows / 4) * kColSW;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    for (int i = tid; i < S * 64; i += 256) tab[i] = gtab[i];
    const int x0 = blockIdx.x * kColBW, y0 = blockIdx.y * kColBH;
    const size_t tp = tmp_pitch / 2;
    const uint32_t flat = (border_value << 8) | (border_value << 24); // t of a constant row, twice
    // Stage: unit (row group r4, column pair cp): 4 rows x 2 columns.
    for (int i = tid; i < (rows / 4) * 16; i += 256) {
        const int r4 = i >> 4, cp = i & 15;
        uint32_t q[4];
#pragma unroll
        for (int r = 0; r < 4; r++) {
            const int sy = cf_border_index(y0 - P + 4 * r4 + r, height, border);
            q[r] = sy < 0 ? flat
                          : *reinterpret_cast<const uint32_t *>(tmp + (size_t)sy * tp + x0 + 2 * cp);
        }
        const uint32_t u = __byte_perm(q[0], q[1], 0x6240), v = __byte_perm(q[2], q[3], 0x6240);
        const uint32_t uh = __byte_perm(q[0], q[1], 0x7351), vh = __byte_perm(q[2], q[3], 0x7351);
        *reinterpret_cast<uint2 *>(lo + r4 * kColSW + 2 * cp) =
            make_uint2(__byte_perm(u, v, 0x5410), __byte_perm(u, v, 0x7632));
        *reinterpret_cast<uint2 *>(hi + r4 * kColSW + 2 * cp) =
            make_uint2(__byte_perm(uh, vh, 0x5410), __byte_perm(uh, vh, 0x7632));
    }
    __syncthreads();
    const int g = lane >> 2, t = lane & 3;
    int acc0[4][4] = {}, acc1[4][4] = {}, acc2[4][4] = {};
    for (int s = 0; s < S; s++) {
        const uint4 al4 = tab[(s * 32 + lane) * 2], ah4 = tab[(s * 32 + lane) * 2 + 1];
        const uint32_t al[4] = { al4.x, al4.y, al4.z, al4.w };
        const uint32_t ah[4] = { ah4.x, ah4.y, ah4.z, ah4.w };
        const int r4 = 4 * warp + 8 * s + t; // staged row 16 warp + 32 s + 4 t
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const int c = 8 * j + g;
            const uint32_t bl0 = lo[r4 * kColSW + c], bl1 = lo[(r4 + 4) * kColSW + c];
            const uint32_t bh0 = hi[r4 * kColSW + c], bh1 = hi[(r4 + 4) * kColSW + c];
            mma_u8(acc0[j], al, bl0, bl1);
            mma_u8(acc1[j], ah, bl0, bl1);
            mma_u8(acc1[j], al, bh0, bh1);
            mma_u8(acc2[j], ah, bh0, bh1);
        }
    }
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const int x = x0 + 8 * j + 2 * t;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int y = y0 + 16 * warp + g + 8 * h;
            if (y >= height || x >= width)
                continue;
            uint32_t q[2];
#pragma unroll
            for (int e = 0; e < 2; e++) {
                const int i = 2 * h + e;
                const uint32_t V = (uint32_t)acc0[j][i] + ((uint32_t)acc1[j][i] << 8) +
                                   ((uint32_t)acc2[j][i] << 16);
                q[e] = (V + (1u << 23)) >> 24;
            }
            uint8_t *o = dst + (size_t)y * dst_pitch + x;
            if (x + 1 < width)
                *reinterpret_cast<uint16_t *>(o) = (uint16_t)(q[0] | q[1] << 8);
            else
                o[0] = (uint8_t)q[0];
        }
    }
}

// ---- the method ---------------------------------------------------------
struct Tensor {
    uint4 *rtab = nullptr, *ctab = nullptr;
    int rx = 0, ry = 0;
    void *tmp = nullptr;
    size_t tmp_pitch = 0;
    Tensor(const cf_blur_kernel &kx, const cf_blur_kernel &ky, int max_w, int max_h)
    {
        rx = kx.size / 2;
        ry = ky.size / 2;
        const auto a = row_table(kx), b = col_table(ky);
        CK(cudaMalloc(&rtab, a.size() * sizeof(uint4)));
        CK(cudaMalloc(&ctab, b.size() * sizeof(uint4)));
        CK(cudaMemcpy(rtab, a.data(), a.size() * sizeof(uint4), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(ctab, b.data(), b.size() * sizeof(uint4), cudaMemcpyHostToDevice));
        tmp_pitch = ((size_t)max_w * 2 + 255) / 256 * 256;
        CK(cudaMalloc(&tmp, tmp_pitch * max_h));
        CK(cudaFuncSetAttribute(tensor_rows, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                227 * 1024));
        CK(cudaFuncSetAttribute(tensor_cols, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                227 * 1024));
    }
    ~Tensor()
    {
        cudaFree(rtab);
        cudaFree(ctab);
        cudaFree(tmp);
    }
    cudaError_t run(const cf_blur_plane &p) const
    {
        const dim3 gr((p.width + kRowBW - 1) / kRowBW, (p.height + kRowBH - 1) / kRowBH);
        tensor_rows<<<gr, 256, row_shared(rx)>>>(p.src, p.src_pitch, (uint16_t *)tmp, tmp_pitch,
                                                 p.width, p.height, p.border, p.border_value, rx,
                                                 rtab);
        const dim3 gc((p.width + kColBW - 1) / kColBW, (p.height + kColBH - 1) / kColBH);
        tensor_cols<<<gc, 256, col_shared(ry)>>>((const uint16_t *)tmp, tmp_pitch, p.dst,
                                                 p.dst_pitch, p.width, p.height, p.border,
                                                 p.border_value, ry, ctab);
        return cudaGetLastError();
    }
};


// One mma on known matrices, laid out as the header says: 0 if D is A B.
__global__ void layout_probe(int *bad)
{
    const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    auto A = [](int m, int k) { return (uint32_t)((m * 37 + k * 11) % 251); };
    auto B = [](int k, int n) { return (uint32_t)((k * 13 + n * 29 + 5) % 253); };
    uint32_t a[4] = {}, b0 = 0, b1 = 0;
    for (int i = 0; i < 4; i++) {
        a[0] |= A(g, 4 * t + i) << (8 * i);
        a[1] |= A(g + 8, 4 * t + i) << (8 * i);
        a[2] |= A(g, 16 + 4 * t + i) << (8 * i);
        a[3] |= A(g + 8, 16 + 4 * t + i) << (8 * i);
        b0 |= B(4 * t + i, g) << (8 * i);
        b1 |= B(16 + 4 * t + i, g) << (8 * i);
    }
    int d[4] = {};
    mma_u8(d, a, b0, b1);
    for (int i = 0; i < 4; i++) {
        const int m = g + 8 * (i >> 1), n = 2 * t + (i & 1);
        int want = 0;
        for (int k = 0; k < 32; k++) want += (int)(A(m, k) * B(k, n));
        if (d[i] != want)
            atomicAdd(bad, 1);
    }
}

// The int8 tensor-core ceiling: back-to-back independent mmas, MACs/s.
__global__ void mma_peak(int *out, int iters)
{
    uint32_t a[4] = { threadIdx.x, threadIdx.x * 3u, 7u, 9u };
    int acc[8][4] = {};
    for (int i = 0; i < iters; i++)
#pragma unroll
        for (int c = 0; c < 8; c++) mma_u8(acc[c], a, (uint32_t)i, (uint32_t)c);
    int s = 0;
    for (int c = 0; c < 8; c++) s += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
    if (s == 123456789)
        out[0] = s;
}

double mma_rate()
{
    int *out;
    CK(cudaMalloc(&out, 4));
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int iters = 4096, blocks = sms * 4, threads = 256;
    mma_peak<<<blocks, threads>>>(out, 16);
    CK(cudaDeviceSynchronize());
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    float best = 1e30f;
    for (int r = 0; r < 5; r++) {
        cudaEventRecord(a);
        mma_peak<<<blocks, threads>>>(out, iters);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        best = std::min(best, ms);
    }
    CK(cudaGetLastError());
    cudaFree(out);
    const double macs = (double)blocks * (threads / 32) * iters * 8 * 4096.0;
    return macs / (best * 1e-3);
}

// int8 MACs the method issues for a w x h plane (for its floor at the
// measured ceiling).
double tensor_macs(int w, int h, int rx, int ry)
{
    long long rows_mma = 0;
    const int S = row_steps(rx), pad = round4(rx) - rx;
    for (int s = 0; s < S; s++)
        for (int j = 0; j < 4; j++)
            if (!(32 * s + 31 < 8 * j + pad || 32 * s > 8 * j + 7 + pad + 2 * rx))
                rows_mma += 2;
    const double row_warps = (double)((w + kRowBW - 1) / kRowBW) * ((h + kRowBH - 1) / kRowBH) * 8;
    const double col_warps = (double)((w + kColBW - 1) / kColBW) * ((h + kColBH - 1) / kColBH) * 8;
    return 4096.0 * (row_warps * rows_mma + col_warps * col_steps(ry) * 16.0);
}

} // namespace

int main()
{
    std::printf("tensor_tune: shared bytes rows/cols R24 %zu/%zu R192 %zu/%zu R512 %zu/%zu\n",
                row_shared(24), col_shared(24), row_shared(192), col_shared(192), row_shared(512),
                col_shared(512));
    {
        int *bad;
        CK(cudaMalloc(&bad, 4));
        CK(cudaMemset(bad, 0, 4));
        layout_probe<<<1, 32>>>(bad);
        int h = -1;
        CK(cudaMemcpy(&h, bad, 4, cudaMemcpyDeviceToHost));
        std::printf("layout probe: %d of 128 results differ from A B\n", h);
        cudaFree(bad);
    }
    // Check against the naive blur: radii, unequal radii, every border,
    // sizes down to narrower and shorter than the kernel.
    long long bad_cases = 0, cases = 0;
    const int sizes[][2] = { { 1283, 771 }, { 37, 29 }, { 5, 3 }, { 1, 1 }, { 130, 2 }, { 259, 300 }, { 700, 45 } };
    const int radii[][2] = { { 1, 1 }, { 2, 2 }, { 7, 7 }, { 24, 24 }, { 96, 96 }, { 192, 192 },
                             { 96, 24 }, { 3, 150 }, { 512, 512 }, { 13, 1 } };
    for (auto &rr : radii)
        for (auto &sz : sizes) {
            // The naive blur costs (2 rx + 1)(2 ry + 1) a sample: big radii
            // on the smaller planes only.
            const int rmax = std::max(rr[0], rr[1]);
            if ((rmax >= 96 && sz[0] == 1283) || (rmax >= 512 && sz[0] == 259))
                continue;
            for (int border = 0; border < 4; border++) {
                const cf_blur_kernel kx = naive_kernel(rr[0]), ky = naive_kernel(rr[1]);
                const int W[1] = { sz[0] }, H[1] = { sz[1] }, C[1] = { 1 };
                Tensor m(kx, ky, sz[0], sz[1]);
                const long long b = check_against_naive<uint8_t>(
                    kx, ky, 1, W, H, C, 0, border, 11u * rr[0] + 7u * rr[1] + border + sz[0],
                    [&](const cf_blur_plane *pl, int) { return m.run(pl[0]); });
                cases++;
                if (b != 0) {
                    bad_cases++;
                    if (bad_cases < 20)
                        std::printf("BAD: radius %d/%d %dx%d border %d: %lld\n", rr[0], rr[1],
                                    sz[0], sz[1], border, b);
                }
            }
        }
    CK(cudaGetLastError());
    std::printf("check: %lld of %lld cases differ%s\n", bad_cases, cases,
                bad_cases ? " (FAILED)" : " (0 differing samples)");
    const double peak = mma_rate();
    std::printf("int8 mma.sync m16n8k32 ceiling: %.0f G MAC/s\n", peak / 1e9);
    const int plan[][2] = { { 6, 6 },   { 12, 12 },  { 24, 24 }, { 48, 48 },
                            { 72, 72 }, { 96, 96 },  { 144, 144 }, { 192, 192 },
                            { 96, 24 }, { 192, 48 }, { 18, 6 } };
    for (int sz = 0; sz < 2; sz++) {
        const int w = sz ? 7680 : 3840, h = sz ? 4320 : 2160;
        const int W[1] = { w }, H[1] = { h }, C[1] = { 1 };
        std::printf("\n| GRAY8 %dx%d radius | tensor us | tensor op floor us | sep us | reg us | tensor/best |\n|---|---|---|---|---|---|\n", w, h);
        for (auto &rr : plan) {
            const cf_blur_kernel kx = naive_kernel(rr[0]), ky = naive_kernel(rr[1]);
            Tensor m(kx, ky, w, h);
            const float tt = time_planes<uint8_t>(1, W, H, C, 0, 12, [&](const cf_blur_plane *pl, int) {
                return m.run(pl[0]);
            });
            void *s;
            const size_t sp = ((size_t)w * 4 + 255) / 256 * 256;
            CK(cudaMalloc(&s, sp * (h + 1)));
            const float ts = time_planes<uint8_t>(1, W, H, C, 0, 12, [&](const cf_blur_plane *pl, int n) {
                return cf_blur_cuda::sep_run(kx, ky, pl, n, s, sp, 0);
            });
            cudaFree(s);
            float tr = -1;
            {
                tr = time_planes<uint8_t>(1, W, H, C, 0, 12, [&](const cf_blur_plane *pl, int n) {
                    cudaError_t err = cudaSuccess;
                    if (!cf_blur_cuda::reg_run(kx, ky, pl, n, 227 * 1024, true, 0, &err))
                        return cudaErrorNotSupported;
                    return err;
                });
            }
            const double fl = tensor_macs(w, h, rr[0], rr[1]) / peak * 1e6;
            const float best = tr > 0 ? std::min(ts, tr) : ts;
            std::printf("| %d/%d | %.1f | %.1f | %.1f | %.1f | %.2f |\n", rr[0], rr[1], tt, fl, ts,
                        tr, tt / best);
            (void)cudaGetLastError();
        }
    }
    std::printf("done (%s)\n", cudaGetErrorString(cudaGetLastError()));
}
