// Helpers of the optimized-CPU-against-reference suites
// (test_cpu_exact.cpp, test_cpu_exact_convert_scale.cpp).
#ifndef CUDAFILTERS_TESTS_CPU_EXACT_UTILS_H
#define CUDAFILTERS_TESTS_CPU_EXACT_UTILS_H

#include <vector>

#include "test_utils.h"

namespace {

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

} // namespace

#endif
