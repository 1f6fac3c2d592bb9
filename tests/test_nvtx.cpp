// The scheduler's profiler ranges (NVTX): run with NVTX_INJECTION64_PATH
// naming tests/nvtx_recorder.c's library, as Nsight Systems would name its
// own, every step of every frame is one range in the "cudafilters" domain,
// named after the scheduler, the frame and the step, and every range is
// closed. Runs on the CPU path, so it needs no GPU (the NVTX calls are the
// same on both paths).
#include <dlfcn.h>

#include <string>
#include <vector>

#include "test_utils.h"

namespace {

template <typename F> F recorder_symbol(const char *name)
{
    const char *path = getenv("NVTX_INJECTION64_PATH");
    void *lib = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    return lib ? (F)dlsym(lib, name) : nullptr;
}

TEST(Nvtx, EveryStepOfEveryFrameIsARange)
{
    if (!cf_have_cuda())
        GTEST_SKIP() << "built without CUDA: no NVTX (the toolkit's header-only nvtx3)";
    ASSERT_NE(getenv("NVTX_INJECTION64_PATH"), nullptr) << "run through meson test";
    cf_chain *chain = cf_chain_parse("gray,blur=sigma=2");
    cf_filter *filters[2] = { cf_chain_get(chain, 0), cf_chain_get(chain, 1) };
    cf_scheduler_params p = {};
    p.filters = filters;
    p.n_filters = 2;
    p.backend = CF_BACKEND_CPU;
    p.name = "nvtx-test";
    cf_scheduler *s = nullptr;
    CF_ASSERT_OK(cf_scheduler_create(&s, &p));
    std::mt19937 rng(3);
    cftest::GuardedFrame in(CF_FORMAT_RGBA, 64, 32, CF_MEMORY_HOST, rng);
    for (int i = 0; i < 3; i++) {
        CF_ASSERT_OK(cf_scheduler_submit(s, in.frame(), nullptr, nullptr));
        cf_scheduler_result r;
        CF_ASSERT_OK(cf_scheduler_receive(s, &r, true));
        cf_scheduler_release(s, &r);
    }
    cf_scheduler_destroy(&s);
    cf_chain_free(&chain);

    // The NVTX runtime loaded the recorder itself (an independent dlopen).
    auto domain = recorder_symbol<const char *(*)()>("nvtx_recorder_domain");
    auto ranges = recorder_symbol<int (*)(const char **, int)>("nvtx_recorder_ranges");
    auto open = recorder_symbol<int (*)()>("nvtx_recorder_open");
    ASSERT_TRUE(domain && ranges && open) << "the recorder was not loaded by NVTX: " << dlerror();
    EXPECT_STREQ(domain(), "cudafilters");
    std::vector<const char *> names(64);
    int n = ranges(names.data(), (int)names.size());
    std::vector<std::string> got(names.begin(), names.begin() + std::min(n, 64));
    std::vector<std::string> want;
    for (int i = 0; i < 3; i++)
        for (const char *step : { "gray", "blur" })
            want.push_back("nvtx-test #" + std::to_string(i) + " " + step);
    EXPECT_EQ(got, want);
    EXPECT_EQ(open(), 0) << "every range is closed";
}

} // namespace
