// Session 19 tuning harness for the two-pass blur method (kernels/
// blur_sep.cu): times sep_run on P010-like frames (a 1-channel plane W x H
// and a 2-channel plane W/2 x H/2, 16-bit samples, shift 6) and on GRAY8
// planes, 4K and 8K, at the radii of the sigmas the two-pass method gets
// (P010 sigma 8-32: radius 32-128; GRAY8 sigma 24-64: 72-192), medians of
// 9 samples of 10 runs, inputs rotated over 12 copies. SEP_SRC names a
// copy of blur_sep.cu with the columns pass's constants replaced
// (bench/diag/s19-prepare-sep-tune.sh); the output lines name it. Times in
// microseconds. First each variant is checked against a naive blur
// (bench/diag/blur_harness.cuh) on odd-sized planes, every border.
#include SEP_SRC
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

struct Scratch {
    void *p = nullptr;
    size_t pitch = 0;
    Scratch(int max_samples, int max_height)
    {
        pitch = ((size_t)max_samples * 4 + 255) / 256 * 256;
        cudaMalloc(&p, pitch * (max_height + 1));
    }
    ~Scratch() { cudaFree(p); }
};

template <typename T>
static long long check(int R, int n, const int *W, const int *H, const int *C, int border,
                       unsigned seed)
{
    const cf_blur_kernel kx = naive_kernel(R), ky = naive_kernel(R / 3 + 1);
    Scratch s(W[0] * C[0], H[0]);
    return check_against_naive<T>(kx, ky, n, W, H, C, sizeof(T) == 2 ? 6 : 0, border, seed,
                                  [&](const cf_blur_plane *pl, int m) {
                                      return cf_blur_cuda::sep_run(kx, ky, pl, m, s.p, s.pitch, 0);
                                  });
}

template <typename T>
static float time_it(int R, int n, const int *W, const int *H, const int *C)
{
    const cf_blur_kernel k = naive_kernel(R);
    Scratch s(W[0] * C[0], H[0]);
    return time_planes<T>(n, W, H, C, sizeof(T) == 2 ? 6 : 0, 12,
                          [&](const cf_blur_plane *pl, int m) {
                              return cf_blur_cuda::sep_run(k, k, pl, m, s.p, s.pitch, 0);
                          });
}

int main()
{
    long long bad = 0;
    {
        const int W[2] = { 1283, 641 }, H[2] = { 771, 385 }, C[2] = { 1, 2 };
        const int W8[1] = { 1283 }, H8[1] = { 771 }, C4[1] = { 4 };
        for (int border = 0; border < 4; border++) {
            for (int R : { 32, 96 }) {
                const long long b = check<uint16_t>(R, 2, W, H, C, border, 5u * R + border);
                bad += b != 0;
                if (b) std::printf("BAD: %s P010-like radius %d border %d: %lld\n", SEP_SRC, R, border, b);
            }
            for (int R : { 7, 96, 192 }) {
                const long long b = check<uint8_t>(R, 1, W8, H8, border % 2 ? C4 : C, border, 3u * R + border);
                bad += b != 0;
                if (b) std::printf("BAD: %s 8-bit radius %d border %d: %lld\n", SEP_SRC, R, border, b);
            }
        }
    }
    std::printf("%s: check %s\n", SEP_SRC, bad ? "FAILED" : "0 differing samples");
    for (int s = 0; s < 2; s++) {
        const int w = s ? 7680 : 3840, h = s ? 4320 : 2160;
        const int W[2] = { w, w / 2 }, H[2] = { h, h / 2 }, C[2] = { 1, 2 };
        std::printf("%s %dx%d P010-like:", SEP_SRC, w, h);
        for (int R : { 32, 48, 64, 96, 128 }) std::printf(" R%d %.1f", R, time_it<uint16_t>(R, 2, W, H, C));
        std::printf(" | GRAY8:");
        for (int R : { 72, 96, 144, 192 }) std::printf(" R%d %.1f", R, time_it<uint8_t>(R, 1, W, H, C));
        std::printf(" (%s)\n", cudaGetErrorString(cudaGetLastError()));
    }
}
