// The optimized CPU filters against the CPU reference, bit for bit
// (checkasm's way): every SIMD level this processor has, forced one at a
// time, at 1, 2 and many threads, on random sizes (1x1 up, odd), random
// pitches and data, random parameters, every border and radii 1..512
// (sampled), with guard bytes around every plane of source and output.
#include <memory>
#include <string>
#include <thread>

#include "cpu_exact_utils.h"

namespace {

// Small rings for the fused blur passes (blur_cpu_fast.c reads this once),
// so frames of a few hundred samples already take several strips.
const bool kSmallRing = setenv("CF_CPU_BLUR_RING_BYTES", "24576", 1) == 0;

const char *const kBorders[] = { "reflect101", "replicate", "reflect", "constant" };

// One case: the filter string on a random frame of `fmt` and size s, each
// output format it offers, every level and thread count against the
// reference.
void compare(const std::string &text, cf_format fmt, Size s, std::mt19937 &rng)
{
    SCOPED_TRACE(text + " on " + cf_format_name(fmt) + " " + std::to_string(s.w) + "x" +
                 std::to_string(s.h));
    cftest::Chain chain(text.c_str());
    ASSERT_EQ(chain.filters.size(), 1u);
    cf_filter *f = chain.filters[0];
    cf_format outs[4];
    int n_out = cf_filter_get_output_formats(f, fmt, outs, 4);
    ASSERT_GT(n_out, 0) << cf_last_error();
    cftest::GuardedFrame src(fmt, s.w, s.h, CF_MEMORY_HOST, rng);
    LevelGuard keep;
    for (int o = 0; o < n_out; o++)
        ASSERT_NO_FATAL_FAILURE(expect_levels_equal_reference(f, src, outs[o], rng, 0, 0, true));
}

// The small and odd sizes every case of this file starts from.
const std::vector<Size> kFirstSizes = { { 1, 1 }, { 1, 7 }, { 9, 1 } };

} // namespace

TEST(CpuLevels, BestLevelIsSelectableAndNamed)
{
    EXPECT_TRUE(kSmallRing);
    LevelGuard keep;
    for (int l = 0; l <= cf_cpu_best_level(); l++) {
        CF_ASSERT_OK(cf_cpu_set_level((cf_cpu_level)l));
        EXPECT_EQ(cf_cpu_get_level(), l);
        cf_cpu_level back;
        CF_ASSERT_OK(cf_cpu_parse_level(cf_cpu_level_name((cf_cpu_level)l), &back));
        EXPECT_EQ(back, l);
    }
    cf_cpu_level back;
    CF_ASSERT_OK(cf_cpu_parse_level("baseline", &back));
    EXPECT_EQ(back, CF_CPU_BASELINE);
    EXPECT_EQ(cf_cpu_parse_level("avx3", &back), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cf_last_error()).find("avx3"), std::string::npos);
    EXPECT_EQ(cf_cpu_set_level((cf_cpu_level)7), CF_ERROR_INVALID_ARGUMENT);
    if (cf_cpu_best_level() < CF_CPU_AVX512) {
        EXPECT_EQ(cf_cpu_set_level(CF_CPU_AVX512), CF_ERROR_UNSUPPORTED_FORMAT);
    }
    EXPECT_EQ(cf_cpu_level_name((cf_cpu_level)-1), nullptr);
#if defined(__x86_64__)
    // Every machine CI runs on has AVX2 (and this is where a build that
    // lost its SIMD levels would show).
    EXPECT_GE(cf_cpu_best_level(), CF_CPU_AVX2);
#endif
}

TEST(CpuLevels, ThreadCountIsChecked)
{
    cf_filter *f = cf_filter_new("blur");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(cf_filter_get_cpu_threads(f), 0);
    CF_ASSERT_OK(cf_filter_set_cpu_threads(f, 3));
    EXPECT_EQ(cf_filter_get_cpu_threads(f), 3);
    EXPECT_EQ(cf_filter_set_cpu_threads(f, -1), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cf_last_error()).find("-1"), std::string::npos);
    EXPECT_EQ(cf_filter_set_cpu_threads(f, CF_MAX_CPU_THREADS + 1), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(cf_filter_set_cpu_threads(nullptr, 1), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(cf_filter_get_cpu_threads(f), 3);
    cf_filter_free(&f);
    EXPECT_GE(cf_cpu_count(), 1);
}

TEST(CpuExact, GrayEveryFormatMatrixAndRange)
{
    std::mt19937 rng(16);
    const char *matrices[] = { "bt601", "bt709", "bt2020" };
    const char *ranges[] = { "limited", "full" };
    for (cf_format fmt : kFormats)
        for (Size s : random_sizes(rng, kFirstSizes, 3, 150, 40))
            compare(std::string("gray=matrix=") + matrices[rng() % 3] + ":range=" + ranges[rng() % 2],
                    fmt, s, rng);
}

TEST(CpuExact, BlurEveryFormatRandomParameters)
{
    std::mt19937 rng(1616);
    for (cf_format fmt : kFormats)
        for (Size s : random_sizes(rng, kFirstSizes, 4, 120, 60)) {
            double sigma = std::uniform_real_distribution<double>(0.05, 5.0)(rng);
            std::string text = "blur=sigma=" + std::to_string(sigma) + ":border=" +
                               kBorders[rng() % 4] + ":border-value=" + std::to_string(rng() % 65536);
            if (rng() % 3 == 0)
                text += ":sigma-y=" +
                        std::to_string(std::uniform_real_distribution<double>(0.05, 5.0)(rng));
            if (rng() % 4 == 0)
                text += ":kernel-size=" + std::to_string(1 + 2 * (int)(rng() % 20));
            compare(text, fmt, s, rng);
        }
}

// Radii 1..512, sampled: the small ones all, then powers of two and their
// neighbours, with every border; images small (a few radii wide at most,
// narrower than the kernel too), so the borders fold several times.
TEST(CpuExact, BlurRadiiUpTo512EveryBorder)
{
    std::mt19937 rng(512);
    const int radii[] = { 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 15, 16, 17, 24, 31, 32, 33, 63, 64,
                          65, 100, 127, 128, 129, 200, 255, 256, 257, 383, 511, 512 };
    const cf_format formats[] = { CF_FORMAT_GRAY8, CF_FORMAT_RGBA, CF_FORMAT_NV12,
                                  CF_FORMAT_RGB,   CF_FORMAT_P010_10LE, CF_FORMAT_GRAY16_LE };
    int i = 0;
    for (int r : radii)
        for (int b = 0; b < 4; b++, i++) {
            int max_side = r < 16 ? 90 : r < 128 ? 40 : 14;
            Size s = { std::uniform_int_distribution<int>(1, max_side)(rng),
                       std::uniform_int_distribution<int>(1, max_side)(rng) };
            if (i % 5 == 0) s.w = std::min(2 * r + 3, 300); // a row a little wider than the kernel
            std::string text = "blur=sigma=" + std::to_string(std::min(128.0, 0.3 + r / 3.0)) +
                               ":border=" + kBorders[b] + ":border-value=" + std::to_string(rng() % 1024);
            if (i % 3 == 0) // different radii each way (OpenCV's size rule)
                text += ":sigma-y=" + std::to_string(0.3 + (rng() % 64) / 3.0);
            else
                text += ":kernel-size=" + std::to_string(2 * r + 1);
            compare(text, formats[i % 6], s, rng);
        }
}

// A frame much taller than one slice a thread, so many slices run at
// once (and more slices than threads).
TEST(CpuExact, BlurManySlicesAndStrips)
{
    std::mt19937 rng(17);
    compare("blur=sigma=2", CF_FORMAT_RGBA, { 333, 257 }, rng);
    compare("blur=sigma=20:border=constant:border-value=200", CF_FORMAT_GRAY8, { 1301, 97 }, rng);
    compare("gray", CF_FORMAT_BGRX, { 517, 301 }, rng);
}

// Frames tall enough for the fused passes (the horizontal results of a
// slice kept in a ring of rows) at every thread count, on every border and
// radii where the 16-bit multiply-add passes apply (every tap below 2^15)
// and where they do not (sigma 0.5: a centre tap above it).
TEST(CpuExact, BlurFusedPassesEveryBorder)
{
    std::mt19937 rng(18);
    for (double sigma : { 0.5, 1.0, 2.0, 4.5 })
        for (const char *border : kBorders)
            for (cf_format fmt : { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_RGBA, CF_FORMAT_P010_10LE }) {
                Size s = { std::uniform_int_distribution<int>(1, 150)(rng),
                           std::uniform_int_distribution<int>(150, 320)(rng) };
                compare("blur=sigma=" + std::to_string(sigma) + ":border=" + border +
                            ":border-value=" + std::to_string(rng() % 1024),
                        fmt, s, rng);
            }
}

// GRAY16 to GRAY8 on every one of the 2^16 sample values (its optimized
// path checks a 32-bit multiply against the division once, exhaustively).
TEST(CpuExact, Gray16EveryValue)
{
    std::vector<uint8_t> px(65536 * 2);
    for (int v = 0; v < 65536; v++) {
        px[2 * v] = (uint8_t)(v & 0xff);
        px[2 * v + 1] = (uint8_t)(v >> 8);
    }
    cf_frame src{};
    src.format = CF_FORMAT_GRAY16_LE;
    src.width = 256;
    src.height = 256;
    src.data[0] = px.data();
    src.pitch[0] = 512;
    src.memory = CF_MEMORY_HOST;
    src.device = -1;
    cftest::Chain chain("gray");
    LevelGuard keep;
    std::vector<uint8_t> want;
    for (int l = 0; l <= cf_cpu_best_level(); l++) {
        CF_ASSERT_OK(cf_cpu_set_level((cf_cpu_level)l));
        auto got = chain.reference(&src);
        EXPECT_EQ(cf_cpu_last_level(), l);
        if (l == 0)
            want = got;
        else
            EXPECT_EQ(got, want) << cf_cpu_level_name((cf_cpu_level)l);
    }
}

// Several callers at once (pipelines of one process) share the one pool:
// four threads, each its own blur at all cores on its own frame, give the
// reference's pixels.
TEST(CpuExact, ConcurrentCallersShareThePool)
{
    std::mt19937 rng(20);
    LevelGuard keep;
    const int n = 4;
    std::vector<std::unique_ptr<cftest::GuardedFrame>> src, dst;
    std::vector<std::vector<uint8_t>> want(n);
    std::vector<std::unique_ptr<cftest::Chain>> chains;
    for (int i = 0; i < n; i++) {
        src.push_back(std::make_unique<cftest::GuardedFrame>(CF_FORMAT_RGBA, 173 + i, 211, CF_MEMORY_HOST, rng));
        dst.push_back(std::make_unique<cftest::GuardedFrame>(CF_FORMAT_RGBA, 173 + i, 211, CF_MEMORY_HOST, rng));
        chains.push_back(std::make_unique<cftest::Chain>("blur=sigma=1.5"));
        CF_ASSERT_OK(cf_cpu_set_level(CF_CPU_REFERENCE));
        want[i] = chains[i]->reference(src[i]->frame());
    }
    CF_ASSERT_OK(cf_cpu_set_level(cf_cpu_best_level()));
    std::vector<std::thread> threads;
    std::vector<int> failures(n, 0);
    for (int i = 0; i < n; i++)
        threads.emplace_back([&, i] {
            for (int rep = 0; rep < 20; rep++)
                if (cf_filter_run(chains[i]->filters[0], src[i]->frame(), dst[i]->frame(), nullptr) != CF_OK)
                    failures[i]++;
        });
    for (auto &t : threads) t.join();
    for (int i = 0; i < n; i++) {
        EXPECT_EQ(failures[i], 0);
        EXPECT_EQ(cftest::packed_pixels(*dst[i]->frame()), want[i]) << "caller " << i;
        EXPECT_EQ(dst[i]->damaged_guard_bytes(), 0u);
    }
}
