// The blur's FP64 vertical sums (kernels/blur_f64.cuh: f64_start,
// vsum_mac, vsum_result, as the tile and two-pass kernels run them on
// Hopper) compiled as host C++ (emu/cuda_host.h's double intrinsics) and
// checked against blur.h's 64-bit integer sums, bit for bit: random
// symmetric Q16 kernels of radius 0 to 512 padded with zero taps as the
// kernels' built radii are, intermediates at random, all at the largest
// value the sums take (2^19 - 1, above P010's 261888), alternating 0 and
// it, and the one-tap identity; then f64_result at every boundary of the
// results. No GPU needed: the arithmetic, its bounds and its rounding are
// checked wherever the tests run.
#include "emu/cuda_host.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "../kernels/blur_f64.cuh"
#include "blur.h"

namespace {

// Taps 0..r of a symmetric Q16 Gaussian of radius r (tap r the centre),
// summing to 65536 both sides counted: blur.h's rule (rounded, the centre
// taking the rest).
std::vector<uint32_t> gaussian_half(double sigma, int r)
{
    std::vector<double> g(r + 1);
    double sum = 0;
    for (int i = 0; i <= r; i++) {
        g[i] = std::exp(-(double)(i - r) * (i - r) / (2 * sigma * sigma));
        sum += i < r ? 2 * g[i] : g[i];
    }
    std::vector<uint32_t> w(r + 1);
    uint32_t pairs = 0;
    for (int i = 0; i < r; i++) {
        w[i] = (uint32_t)std::lround(g[i] / sum * 65536);
        pairs += 2 * w[i];
    }
    w[r] = 65536 - pairs; // the pairs never round above 65536 for these sigmas
    return w;
}

} // namespace

TEST(BlurF64Emu, SumsEqualTheIntegerSums)
{
    std::mt19937 rng(2026);
    constexpr uint32_t kTop = (1u << 19) - 1; // largest intermediate of 11-bit samples
    long checked = 0;
    for (int k = 0; k < 20000; k++) {
        const int r = k % 97 == 0 ? 0 : std::uniform_int_distribution<int>(1, 512)(rng);
        const double per_r = std::uniform_real_distribution<double>(2.5, 4.5)(rng);
        const double sigma = std::max(0.3, r / per_r);
        const std::vector<uint32_t> half =
            r == 0 ? std::vector<uint32_t>{ 65536 } : gaussian_half(sigma, r);
        ASSERT_LE(half[r], 65536u);
        // Built radius R >= r: zero taps first, as centred_tap pads.
        const int pad = (int)(rng() % 9), R = r + pad;
        std::vector<uint32_t> w(R, 0);
        for (int t = 0; t < r; t++) w[pad + t] = half[t];
        const uint32_t centre = half[r];
        std::vector<uint32_t> mid(2 * R + 1);
        const int mode = (int)(rng() % 4);
        for (int i = 0; i <= 2 * R; i++)
            mid[i] = mode == 0   ? kTop
                     : mode == 1 ? (i % 2 ? kTop : 0)
                     : mode == 2 ? 261888 - (uint32_t)(rng() % 3) // P010's largest
                                 : (uint32_t)(rng() % (kTop + 1));
        uint64_t want = 1u << 23;
        uint32_t weights = centre;
        for (int t = 0; t < R; t++) weights += w[t];
        double acc = cf_blur_cuda::f64_start(weights);
        for (int t = 0; t < R; t++) {
            const uint32_t s = mid[t] + mid[2 * R - t];
            want += (uint64_t)w[t] * s;
            acc = cf_blur_cuda::vsum_mac(acc, (double)w[t], s);
        }
        want += (uint64_t)centre * mid[R];
        acc = cf_blur_cuda::vsum_mac(acc, (double)centre, mid[R]);
        ASSERT_EQ(cf_blur_cuda::vsum_result(acc), (uint32_t)(want >> 24))
            << "radius " << r << " built " << R << " sigma " << sigma << " mode " << mode;
        // And as the integer kernels do it.
        ASSERT_EQ(cf_blur_cuda::vsum_result(want), cf_blur_round_v(want - (1u << 23)));
        checked++;
    }
    EXPECT_EQ(checked, 20000);
}

TEST(BlurF64Emu, ResultIsTheFloorAtEveryBoundary)
{
    // Sums 2^24 q - 1, 2^24 q and 2^24 q + 1 for every result q of a
    // 16-bit sample (and a few past it): the rounding toward zero of
    // f64_result lands on q - 1, q, q.
    for (uint32_t q = 1; q < (1u << 17); q++)
        for (int d : { -1, 0, 1 }) {
            const double sum = (double)((uint64_t)q << 24) + d;
            ASSERT_EQ(cf_blur_cuda::f64_result(sum), d < 0 ? q - 1 : q) << q << " " << d;
        }
    EXPECT_EQ(cf_blur_cuda::f64_result(0.0), 0u);
}
