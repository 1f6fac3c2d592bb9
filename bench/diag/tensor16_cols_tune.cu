// Session 28, issue 17: harness of the tensor-core columns pass of 16-bit
// planes (kernels/blur_tensor16_cols.cu, cf_blur_cuda::tensor16_cols_run).
// First the whole tensor-core blur of a 16-bit plane (the rows pass of
// blur_tensor16.cu, then this columns pass) against a naive blur
// (blur_harness.cuh) on planes of 1 and 2 channels, P010's shifted samples
// and GRAY16's full ones, every border, radii 1-512 each way, sizes down
// to 1 x 1 and frames of several columns tiles (32 samples by 128 rows)
// each way; then the time of a 4K and an 8K P010-like frame (the Y plane,
// then the UV plane at half size) through the rows pass and either columns
// pass (the two-pass method's, FP64 sums for shift 6 on Hopper; this one),
// and of a 4K GRAY16-like plane (shift 0: 64-bit integer sums in the
// two-pass method's). The executable's name says which build of the
// kernel it is (bench/diag/s28-prepare.sh). Times in microseconds, medians
// of 9 samples of 10 runs (blur_harness.cuh's time_planes).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "../../kernels/blur_cuda.cuh"
#include "../../kernels/blur_f64.cuh"

#include "blur_harness.cuh"

// The two-pass method's questions of blur_dispatch.cu, which the harness
// does not link, answered as the library does on a GPU of Hopper's FP64
// (the GPU host's H200): FP64 sums for samples of at most 11 bits.
bool cf_blur_cuda::f64_sums(int sample_bytes, int shift)
{
    return sample_bytes == 2 && 16 - shift <= kF64MaxDepth;
}
bool cf_blur_cuda::symmetric_taps(const cf_blur_kernel &k)
{
    for (int t = 0; t < k.size / 2; t++)
        if (k.w[t] != k.w[k.size - 1 - t])
            return false;
    return true;
}

namespace {

// The rows pass, then the columns pass (tensor cores' if tc, else the
// two-pass method's) of every plane, through tmp.
cudaError_t run_planes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *pl,
                       int n, void *tmp, size_t tmp_pitch, bool tc)
{
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < n && e == cudaSuccess; i++) {
        bool f64 = false;
        e = cf_blur_cuda::tensor16_rows_run(kx, pl[i], tmp, tmp_pitch, 0);
        if (e == cudaSuccess)
            e = tc ? cf_blur_cuda::tensor16_cols_run(ky, pl[i], tmp, tmp_pitch, 0)
                   : cf_blur_cuda::sep_cols_run(ky, pl[i], tmp, tmp_pitch, 0, &f64);
    }
    return e;
}

} // namespace

int main(int argc, char **argv)
{
    const char *name = argc > 0 ? argv[0] : "tensor16-cols-tune";
    std::mt19937 rng(28);
    long long bad = 0;
    int cases = 0;
    const int radii[] = { 1, 2, 3, 7, 8, 16, 24, 31, 32, 48, 64, 96, 100, 128, 192, 256, 300, 512 };
    auto check = [&](int rx, int ry, int w, int h, int C, int shift, int border) {
        const size_t tmp_pitch = ((size_t)w * C * 4 + 255) / 256 * 256;
        void *tmp = nullptr;
        CK(cudaMalloc(&tmp, tmp_pitch * (h + 1)));
        const long long b = check_against_naive<uint16_t>(
            naive_kernel(rx), naive_kernel(ry), 1, &w, &h, &C, shift, border, (unsigned)rng(),
            [&](const cf_blur_plane *pl, int n) {
                return run_planes(naive_kernel(rx), naive_kernel(ry), pl, n, tmp, tmp_pitch, true);
            });
        CK(cudaGetLastError());
        cudaFree(tmp);
        cases++;
        if (b) {
            std::printf("BAD: radii %d/%d C %d shift %d border %d %dx%d: %lld\n", rx, ry, C, shift,
                        border, w, h, b);
            bad++;
        }
    };
    for (int R : radii)
        for (int C = 1; C <= 2; C++) {
            const int ry = R % 2 ? R : radii[rng() % 18];
            const int w = std::uniform_int_distribution<int>(1, 200)(rng);
            const int h = std::uniform_int_distribution<int>(1, 2 * ry + 300)(rng);
            check(R, ry, w, h, C, (R + C) % 2 ? 6 : 0, (R + C) % 4);
        }
    for (int border = 0; border < 4; border++) {
        for (int w : { 1, 2, 33 })
            for (int h : { 1, 3, 129 }) check(5, 7, w, h, 1 + (w + h) % 2, 6, border);
        check(20, 40, 130, 700, 1, 0, border);
        check(9, 300, 70, 1030, 2, 6, border);
    }
    // Kernels whose taps sum past 65536 (no sigma makes one; the library's
    // internal API takes them): results past 16 bits, of which blur.h keeps
    // the low 16. 49 taps of 2000 each way, both shifts.
    {
        cf_blur_kernel k{};
        k.size = 49;
        for (int i = 0; i < k.size; i++) k.w[i] = 2000;
        for (int shift : { 0, 6 }) {
            int w = 301, h = 260, C = 1;
            const size_t tmp_pitch = ((size_t)w * 4 + 255) / 256 * 256;
            void *tmp = nullptr;
            CK(cudaMalloc(&tmp, tmp_pitch * (h + 1)));
            const long long b = check_against_naive<uint16_t>(
                k, k, 1, &w, &h, &C, shift, CF_BORDER_REPLICATE, 5u + shift,
                [&](const cf_blur_plane *pl, int n) { return run_planes(k, k, pl, n, tmp, tmp_pitch, true); });
            cudaFree(tmp);
            cases++;
            if (b) {
                std::printf("BAD: taps summing to 98000, shift %d: %lld\n", shift, b);
                bad++;
            }
        }
    }
    std::printf("%s: check %s (%d cases)\n", name, bad ? "FAILED" : "0 differing samples", cases);
    for (int s = 0; s < 3; s++) {
        const bool big = s == 1, gray = s == 2;
        const int w = big ? 7680 : 3840, h = big ? 4320 : 2160;
        const int W[2] = { w, w / 2 }, H[2] = { h, h / 2 }, C[2] = { 1, 2 };
        const size_t tmp_pitch = ((size_t)w * 4 + 255) / 256 * 256;
        void *tmp = nullptr;
        CK(cudaMalloc(&tmp, tmp_pitch * (h + 1)));
        for (int tc = 0; tc < 2; tc++) {
            std::printf("%s %s %dx%d rows + %s columns us:", name, gray ? "GRAY16" : "P010", w, h,
                        tc ? "tensor" : "sep");
            for (int R : { 8, 16, 24, 32, 48, 64, 96, 128, 192, 256 }) {
                const cf_blur_kernel k = naive_kernel(R);
                const float us = time_planes<uint16_t>(gray ? 1 : 2, W, H, C, gray ? 0 : 6, 8,
                                                       [&](const cf_blur_plane *pl, int n) {
                                                           return run_planes(k, k, pl, n, tmp, tmp_pitch,
                                                                             tc == 1);
                                                       });
                std::printf(" R%d %.1f", R, us);
            }
            std::printf("\n");
        }
        cudaFree(tmp);
    }
    return bad ? 1 : 0;
}
