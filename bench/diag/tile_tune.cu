// Session 19 tuning harness for the tile blur method (kernels/blur_tile.cu)
// on 16-bit frames: times tile_run on P010-like frames (a 1-channel plane
// W x H and a 2-channel plane W/2 x H/2, 16-bit samples, shift 6) at 4K and
// 8K for every radius the method builds, medians of 9 samples of 10 runs,
// inputs rotated over 24 copies. TILE_SRC names a copy of blur_tile.cu
// with its shape constants replaced (bench/diag/s19-prepare-tune.sh makes
// them); the output line names it. Times in microseconds. Before timing,
// each radius's output of 4K random samples is checked against a naive
// kernel (blur.h's arithmetic, reflect101 borders, every tap of every
// sample): "BAD" and the count of differing samples where they differ.
#include TILE_SRC
bool cf_blur_cuda::symmetric_taps(const cf_blur_kernel &k)
{
    for (int t = 0; t < k.size / 2; t++)
        if (k.w[t] != k.w[k.size - 1 - t])
            return false;
    return true;
}
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "blur_harness.cuh"

// Differing samples of tile_run against naive_blur on random P010-like
// planes of W0 x H0 (odd sizes welcome), reflect101 borders.
static long long check(int R, int W0, int H0, unsigned seed)
{
    const cf_blur_kernel k = naive_kernel(R);
    const int W[2] = { W0, W0 / 2 }, H[2] = { H0, H0 / 2 }, C[2] = { 1, 2 };
    const int limit = cf_blur_cuda::shared_limit();
    return check_against_naive<uint16_t>(k, k, 2, W, H, C, 6, CF_BORDER_REFLECT101, 17u * R + seed,
                                         [&](const cf_blur_plane *pl, int n) {
                                             return cf_blur_cuda::tile_run(k, k, pl, n, limit, 0);
                                         });
}

static float time_it(int R, int W0, int H0)
{
    const cf_blur_kernel k = naive_kernel(R);
    const int W[2] = { W0, W0 / 2 }, H[2] = { H0, H0 / 2 }, C[2] = { 1, 2 };
    const int limit = cf_blur_cuda::shared_limit();
    return time_planes<uint16_t>(2, W, H, C, 6, 24, [&](const cf_blur_plane *pl, int n) {
        return cf_blur_cuda::tile_run(k, k, pl, n, limit, 0);
    });
}

int main()
{
    static const int radii[] = { 2, 4, 6, 8, 12, 16, 20, 24, 32, 40, 48 };
    long long bad = 0;
    for (int R : radii)
        for (int s = 0; s < 2; s++) {
            const long long b = check(R, s ? 3840 : 1283, s ? 2160 : 771, s);
            if (b != 0)
                std::printf("BAD: %s radius %d size %d: %lld samples differ\n", TILE_SRC, R, s, b);
            bad += b != 0;
        }
    std::printf("%s: check %s\n", TILE_SRC, bad ? "FAILED" : "0 differing samples");
    for (int s = 0; s < 2; s++) {
        const int w = s ? 7680 : 3840, h = s ? 4320 : 2160;
        std::printf("%s %dx%d:", TILE_SRC, w, h);
        for (int R : radii) std::printf(" R%d %.1f", R, time_it(R, w, h));
        std::printf(" (%s)\n", cudaGetErrorString(cudaGetLastError()));
    }
}
