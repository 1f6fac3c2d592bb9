// Helpers of the optimized-CPU-against-reference suites
// (test_cpu_exact.cpp, test_cpu_exact_convert_scale.cpp).
#ifndef CUDAFILTERS_TESTS_CPU_EXACT_UTILS_H
#define CUDAFILTERS_TESTS_CPU_EXACT_UTILS_H

#include <random>
#include <vector>

#include "test_utils.h"

namespace {

// Every format the optimized CPU filters take.
const cf_format kFormats[] = {
    CF_FORMAT_GRAY8, CF_FORMAT_RGBA,      CF_FORMAT_BGRA,      CF_FORMAT_RGBX,
    CF_FORMAT_BGRX,  CF_FORMAT_RGB,       CF_FORMAT_BGR,       CF_FORMAT_NV12,
    CF_FORMAT_I420,  CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE,
};
// The thread counts each level runs at.
const int kThreads[] = { 1, 2, 7 };

struct Size {
    int w, h;
};

// The sizes `first` (the suite's small and odd ones), then n random sizes
// up to max_w x max_h.
std::vector<Size> random_sizes(std::mt19937 &rng, std::vector<Size> first, int n, int max_w,
                               int max_h)
{
    for (int i = 0; i < n; i++)
        first.push_back({ std::uniform_int_distribution<int>(1, max_w)(rng),
                          std::uniform_int_distribution<int>(1, max_h)(rng) });
    return first;
}

// Restores the process-wide level the test found.
struct LevelGuard {
    cf_cpu_level saved = cf_cpu_get_level();
    ~LevelGuard() { cf_cpu_set_level(saved); }
};

// Every optimized level of this processor.
std::vector<cf_cpu_level> optimized_levels()
{
    std::vector<cf_cpu_level> out;
    for (int l = CF_CPU_BASELINE; l <= cf_cpu_best_level(); l++) out.push_back((cf_cpu_level)l);
    return out;
}

// Runs `f` on src at `level` with `threads` into a fresh guarded output of
// out_fmt and w x h (0: src's size; random pitches), checks which level ran
// (`ran`; -1: `level`) and the guards, returns the output's pixels, every
// plane packed.
std::vector<uint8_t> run_at(cf_filter *f, cftest::GuardedFrame &src, cf_format out_fmt,
                            cf_cpu_level level, int threads, std::mt19937 &rng, int w = 0,
                            int h = 0, int ran = -1)
{
    EXPECT_EQ(cf_cpu_set_level(level), CF_OK) << cf_last_error();
    EXPECT_EQ(cf_filter_set_cpu_threads(f, threads), CF_OK);
    cftest::GuardedFrame dst(out_fmt, w ? w : src.frame()->width, h ? h : src.frame()->height,
                             CF_MEMORY_HOST, rng);
    EXPECT_EQ(cf_filter_run(f, src.frame(), dst.frame(), nullptr), CF_OK) << cf_last_error();
    EXPECT_EQ(cf_cpu_last_level(), ran < 0 ? (int)level : ran)
        << "asked for " << cf_cpu_level_name(level);
    EXPECT_EQ(dst.damaged_guard_bytes(), 0u);
    EXPECT_EQ(src.damaged_guard_bytes(), 0u);
    std::vector<uint8_t> out;
    const cf_format_info *info = cf_format_get_info(out_fmt);
    for (int p = 0; p < info->n_planes; p++) {
        auto px = dst.pixels(p);
        out.insert(out.end(), px.begin(), px.end());
    }
    return out;
}

// Runs `f` on src into out_fmt (w x h; 0: src's size) with the reference
// once, then at every optimized level and thread count, and asserts each
// result equal to the reference's, byte for byte, naming the first
// difference; `covered`: whether the optimized code (else the reference's
// rows) is to run at those levels.
void expect_levels_equal_reference(cf_filter *f, cftest::GuardedFrame &src, cf_format out_fmt,
                                   std::mt19937 &rng, int w, int h, bool covered)
{
    auto want = run_at(f, src, out_fmt, CF_CPU_REFERENCE, 1, rng, w, h);
    for (cf_cpu_level level : optimized_levels())
        for (int threads : kThreads) {
            int ran = covered ? (int)level : (int)CF_CPU_REFERENCE;
            auto got = run_at(f, src, out_fmt, level, threads, rng, w, h, ran);
            ASSERT_EQ(got.size(), want.size());
            size_t first = 0;
            while (first < got.size() && got[first] == want[first]) first++;
            ASSERT_EQ(first, got.size())
                << cf_format_name(out_fmt) << " out, " << cf_cpu_level_name(level) << ", "
                << threads << " threads: first difference at byte " << first << ": "
                << (int)got[first] << " instead of " << (int)want[first];
        }
}

} // namespace

#endif
