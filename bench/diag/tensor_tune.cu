// Session 22, issue 17: harness of the tensor-core blur method
// (kernels/blur_tensor.cu, cf_blur_cuda::tensor_run): a probe of the
// mma.sync m16n8k32 u8 fragment layouts the method assumes, its output
// against a naive blur (blur_harness.cuh) on planes of 1, 2 and 4 channels,
// every border, radii 1-512 and unequal ones, sizes down to 1 x 1; the
// int8 tensor-core ceiling; then its times against the two-pass and
// register methods in the same run (4K and 8K GRAY8, 4K RGBA). The first
// version of this file (commit "bench/diag: int8 tensor-core blur
// prototype") held the prototype kernels of session 22's first GPU call.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../../kernels/blur_cuda.cuh"
#include "../../kernels/blur_f64.cuh"

bool cf_blur_cuda::symmetric_taps(const cf_blur_kernel &k)
{
    for (int t = 0; t < k.size / 2; t++)
        if (k.w[t] != k.w[k.size - 1 - t])
            return false;
    return true;
}

// The two-pass method it is timed against keeps its integer sums here (8-bit
// frames never take the FP64 ones: blur_f64.cuh).
bool cf_blur_cuda::f64_sums(int, int)
{
    return false;
}

#include "blur_harness.cuh"

namespace {

__device__ __forceinline__ void mma_u8(int (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                       uint32_t b1)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// The library's method (kernels/blur_tensor.cu) through a scratch plane
// like blur_filter.c's.
struct Tensor {
    cf_blur_kernel kx, ky;
    void *tmp = nullptr;
    size_t tmp_pitch = 0;
    Tensor(const cf_blur_kernel &x, const cf_blur_kernel &y, int max_w, int max_h) : kx(x), ky(y)
    {
        tmp_pitch = ((size_t)max_w * 4 + 255) / 256 * 256;
        CK(cudaMalloc(&tmp, tmp_pitch * (max_h + 1)));
    }
    ~Tensor() { cudaFree(tmp); }
    cudaError_t run(const cf_blur_plane &p) const
    {
        bool f64 = false;
        return cf_blur_cuda::tensor_run(kx, ky, &p, 1, tmp, tmp_pitch, 0, &f64);
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

// Useful int8 products of the method for a w x h plane (cf-bench's
// floor: 2 a horizontal tap, 4 a vertical one).
double tensor_macs(int w, int h, int rx, int ry)
{
    return (double)w * h * (2.0 * (2 * rx + 1) + 4.0 * (2 * ry + 1));
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 4 && !std::strcmp(argv[1], "profile")) {
        // tensor-tune profile R C: three runs on a 4K plane of C channels
        // at radius R both ways, for Nsight Compute.
        const int R = std::atoi(argv[2]), ch = std::atoi(argv[3]), w = 3840, h = 2160;
        const cf_blur_kernel k = naive_kernel(R);
        Tensor m(k, k, w * ch, h);
        const int W[1] = { w }, H[1] = { h }, C[1] = { ch };
        const float us = time_planes<uint8_t>(1, W, H, C, 0, 2, [&](const cf_blur_plane *pl, int) {
            return m.run(pl[0]);
        });
        std::printf("profile: radius %d, %d channels: %.1f us\n", R, ch, us);
        return 0;
    }
    std::printf("tensor_tune: shared bytes R24 %zu R192 %zu R512 %zu\n",
                cf_blur_cuda::tensor_shared(24, 24), cf_blur_cuda::tensor_shared(192, 192),
                cf_blur_cuda::tensor_shared(512, 512));
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
                const int ch = 1 << ((border + cases) % 3); // 1, 2, 4 channels in turn
                const int W[1] = { sz[0] }, H[1] = { sz[1] }, C[1] = { ch };
                Tensor m(kx, ky, sz[0] * ch, sz[1]);
                const long long b = check_against_naive<uint8_t>(
                    kx, ky, 1, W, H, C, 0, border, 11u * rr[0] + 7u * rr[1] + border + sz[0],
                    [&](const cf_blur_plane *pl, int) { return m.run(pl[0]); });
                cases++;
                if (b != 0) {
                    bad_cases++;
                    if (bad_cases < 20)
                        std::printf("BAD: radius %d/%d %dx%d, %d channels, border %d: %lld\n",
                                    rr[0], rr[1], sz[0], sz[1], ch, border, b);
                }
            }
        }
    CK(cudaGetLastError());
    std::printf("check: %lld of %lld cases differ%s\n", bad_cases, cases,
                bad_cases ? " (FAILED)" : " (0 differing samples)");
    const double peak = mma_rate();
    std::printf("int8 mma.sync m16n8k32 ceiling: %.0f G MAC/s\n", peak / 1e9);
    const int plan[][2] = { { 6, 6 },   { 12, 12 },   { 24, 24 },   { 30, 30 },   { 36, 36 },
                            { 48, 48 }, { 72, 72 },   { 96, 96 },   { 144, 144 }, { 192, 192 },
                            { 96, 24 }, { 192, 48 }, { 48, 3 },    { 18, 6 } };
    for (int sz = 0; sz < 3; sz++) {
        const int w = sz == 1 ? 7680 : 3840, h = sz == 1 ? 4320 : 2160, ch = sz == 2 ? 4 : 1;
        const int W[1] = { w }, H[1] = { h }, C[1] = { ch };
        std::printf("\n| %s %dx%d radius | tensor us | useful-products floor us | sep us | reg us | tensor/best |\n|---|---|---|---|---|---|\n", ch == 4 ? "RGBA" : "GRAY8", w, h);
        for (auto &rr : plan) {
            const cf_blur_kernel kx = naive_kernel(rr[0]), ky = naive_kernel(rr[1]);
            Tensor m(kx, ky, w * ch, h);
            const float tt = time_planes<uint8_t>(1, W, H, C, 0, 12, [&](const cf_blur_plane *pl, int) {
                return m.run(pl[0]);
            });
            void *s;
            const size_t sp = ((size_t)w * ch * 4 + 255) / 256 * 256;
            CK(cudaMalloc(&s, sp * (h + 1)));
            const float ts = time_planes<uint8_t>(1, W, H, C, 0, 12, [&](const cf_blur_plane *pl, int n) {
                bool f64;
                return cf_blur_cuda::sep_run(kx, ky, pl, n, s, sp, 0, &f64);
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
            const double fl = tensor_macs(w * ch, h, rr[0], rr[1]) / peak * 1e6;
            const float best = tr > 0 ? std::min(ts, tr) : ts;
            std::printf("| %d/%d | %.1f | %.1f | %.1f | %.1f | %.2f |\n", rr[0], rr[1], tt, fl, ts,
                        tr, tt / best);
            (void)cudaGetLastError();
        }
    }
    std::printf("done (%s)\n", cudaGetErrorString(cudaGetLastError()));
}
