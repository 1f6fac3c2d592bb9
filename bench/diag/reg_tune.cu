// Session 19 tuning harness for the register blur method (kernels/
// blur_reg.cu) at radii 2, 3, 5 and 6 (8-bit sigma 0.5, 1, 1.5, 2): times
// reg_run on GRAY8, NV12 (Y, then UV at half size, one launch) and RGBA
// frames at 4K and 8K, medians of 9 samples of 10 runs, inputs rotated
// over 16 copies. REG_SRC names a copy of blur_reg.cu and its headers with
// the shapes for radii 1-6 replaced (bench/diag/s19-prepare-reg-tune.sh);
// the output lines name it. Times in microseconds. First each variant is
// checked against a naive blur (bench/diag/blur_harness.cuh), radii 1-6,
// every border, odd sizes.
#include REG_SRC
bool cf_blur_cuda::symmetric_taps(const cf_blur_kernel &k)
{
    for (int t = 0; t < k.size / 2; t++)
        if (k.w[t] != k.w[k.size - 1 - t])
            return false;
    return true;
}
#include <algorithm>
#include <cstdio>
#include <vector>

#include "blur_harness.cuh"

static cudaError_t run(const cf_blur_kernel &k, const cf_blur_plane *pl, int n)
{
    cudaError_t err = cudaSuccess;
    if (!cf_blur_cuda::reg_run(k, k, pl, n, cf_blur_cuda::shared_limit(), true, 0, &err))
        return cudaErrorInvalidValue;
    return err;
}

static float time_it(int R, int n, const int *W, const int *H, const int *C)
{
    const cf_blur_kernel k = naive_kernel(R);
    return time_planes<uint8_t>(n, W, H, C, 0, 16,
                                [&](const cf_blur_plane *pl, int m) { return run(k, pl, m); });
}

int main()
{
    long long bad = 0;
    for (int R = 1; R <= 6; R++)
        for (int border = 0; border < 4; border++) {
            const int W[2] = { 1283 - 2 * R, 641 - R }, H[2] = { 771 + R, 385 }, C[2] = { 1, 2 };
            const int W4[1] = { 997 }, H4[1] = { 301 + R }, C4[1] = { 4 };
            const cf_blur_kernel k = naive_kernel(R);
            auto go = [&](const cf_blur_plane *pl, int n) { return run(k, pl, n); };
            long long b = check_against_naive<uint8_t>(k, k, 2, W, H, C, 0, border, 11u * R + border, go);
            if (b) std::printf("BAD: %s NV12-like radius %d border %d: %lld\n", REG_SRC, R, border, b);
            bad += b != 0;
            b = check_against_naive<uint8_t>(k, k, 1, W4, H4, C4, 0, border, 13u * R + border, go);
            if (b) std::printf("BAD: %s RGBA radius %d border %d: %lld\n", REG_SRC, R, border, b);
            bad += b != 0;
        }
    std::printf("%s: check %s\n", REG_SRC, bad ? "FAILED" : "0 differing samples");
    for (int s = 0; s < 2; s++) {
        const int w = s ? 7680 : 3840, h = s ? 4320 : 2160;
        const int W[2] = { w, w / 2 }, H[2] = { h, h / 2 }, C[2] = { 1, 2 }, C4[1] = { 4 };
        std::printf("%s %dx%d:", REG_SRC, w, h);
        for (int R : { 2, 3, 5, 6 }) std::printf(" GRAY8 R%d %.1f", R, time_it(R, 1, W, H, C));
        for (int R : { 2, 3, 5, 6 }) std::printf(" NV12 R%d %.1f", R, time_it(R, 2, W, H, C));
        for (int R : { 2, 3, 5 }) std::printf(" RGBA R%d %.1f", R, time_it(R, 1, W, H, C4));
        std::printf(" (%s)\n", cudaGetErrorString(cudaGetLastError()));
    }
}
