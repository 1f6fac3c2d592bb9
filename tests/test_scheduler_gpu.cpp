// The stream scheduler on the GPU: for depths 1 to 8, random chains,
// formats and sizes, every mix of host, pinned and device input and output
// (given frames with guard bytes, or the scheduler's pool), the results are
// bit-identical to the CPU reference. Frames are submitted in bursts so
// several are in flight at once. Skips visibly without a GPU.
#include <memory>

#include "test_utils.h"

namespace {

const cf_format kFormats[] = { CF_FORMAT_GRAY8, CF_FORMAT_RGBA,      CF_FORMAT_BGRX,
                               CF_FORMAT_RGB,   CF_FORMAT_NV12,      CF_FORMAT_I420,
                               CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE };

const char *const kChains[] = { "", "gray", "blur=sigma=2", "gray,blur=sigma=1.5",
                                "blur=sigma=3:border=constant:border-value=7,blur=sigma=1" };

using cftest::Chain;
using cftest::packed_pixels;

// One frame's input and, when given, its output.
struct Job {
    std::unique_ptr<cftest::GuardedFrame> src, dst;
    cf_frame pinned_src{};
    const cf_frame *input = nullptr;
    std::vector<uint8_t> want;
};

TEST(SchedulerGpu, EveryDepthGivesTheCpuResult)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(20261201);
    const cf_memory kMemories[] = { CF_MEMORY_HOST, CF_MEMORY_PINNED_HOST, CF_MEMORY_DEVICE };
    int frames = 0;
    for (int depth = 1; depth <= 8; depth++) {
        for (const char *text : kChains) {
            Chain c(text);
            // Chains' CPU twins (host filters) compute the reference; the
            // scheduler's filters run on the GPU. A second instance keeps
            // the two from sharing plans or scratch.
            Chain gpu_chain(text);
            cf_scheduler_output output = (cf_scheduler_output)(rng() % 3);
            cf_scheduler_params p = {};
            p.filters = gpu_chain.filters.data();
            p.n_filters = (int)gpu_chain.filters.size();
            p.depth = depth;
            p.backend = CF_BACKEND_CUDA;
            p.output = output;
            p.name = "gpu-test";
            cf_scheduler *s = nullptr;
            CF_ASSERT_OK(cf_scheduler_create(&s, &p));
            ASSERT_TRUE(cf_scheduler_uses_gpu(s));
            // One shape per chain and depth, several frames of it.
            cf_format fmt = kFormats[rng() % (sizeof kFormats / sizeof kFormats[0])];
            int w = std::uniform_int_distribution<int>(1, 400)(rng);
            int h = std::uniform_int_distribution<int>(1, 200)(rng);
            SCOPED_TRACE(std::string("chain '") + text + "' depth " + std::to_string(depth) + " " +
                         cf_format_name(fmt) + " " + std::to_string(w) + "x" + std::to_string(h) +
                         " output " + std::to_string((int)output));
            std::vector<Job> jobs(12);
            for (auto &j : jobs) {
                cf_memory in_mem = kMemories[rng() % 3];
                j.src = std::make_unique<cftest::GuardedFrame>(fmt, w, h, in_mem == CF_MEMORY_DEVICE ? CF_MEMORY_DEVICE : CF_MEMORY_HOST, rng);
                j.src->sync_to_host();
                j.input = j.src->frame();
                if (in_mem == CF_MEMORY_PINNED_HOST) {
                    CF_ASSERT_OK(cf_frame_alloc(&j.pinned_src, fmt, w, h, CF_MEMORY_PINNED_HOST));
                    CF_ASSERT_OK(cf_frame_copy(j.src->frame(), &j.pinned_src, nullptr));
                    j.input = &j.pinned_src;
                }
                cf_frame host_view = *j.src->frame();
                if (in_mem == CF_MEMORY_DEVICE) {
                    // The reference reads the same pixels from a host copy.
                    cf_frame hc;
                    CF_ASSERT_OK(cf_frame_alloc(&hc, fmt, w, h, CF_MEMORY_HOST));
                    CF_ASSERT_OK(cf_frame_copy(j.src->frame(), &hc, nullptr));
                    CF_ASSERT_OK(cf_stream_synchronize(nullptr));
                    j.want = c.reference(&hc);
                    cf_frame_free(&hc);
                } else {
                    j.want = c.reference(&host_view);
                }
                if (rng() % 2) {
                    bool dev_out = rng() % 2;
                    j.dst = std::make_unique<cftest::GuardedFrame>(c.output(fmt), w, h,
                                                                   dev_out ? CF_MEMORY_DEVICE : CF_MEMORY_HOST, rng);
                }
            }
            size_t next_out = 0;
            auto take = [&](bool wait) {
                cf_scheduler_result r;
                cf_status st = cf_scheduler_receive(s, &r, wait);
                if (st != CF_OK)
                    return false;
                Job &j = jobs[next_out];
                EXPECT_EQ(r.token, &j);
                EXPECT_EQ(r.status, CF_OK) << cf_last_error();
                if (j.dst) {
                    EXPECT_FALSE(r.from_pool);
                    j.dst->sync_to_host();
                    EXPECT_EQ(j.dst->damaged_guard_bytes(), 0u) << "frame " << next_out;
                }
                EXPECT_TRUE(packed_pixels(r.frame) == j.want) << "frame " << next_out;
                cf_scheduler_release(s, &r);
                next_out++;
                frames++;
                return true;
            };
            for (auto &j : jobs) {
                // One thread submits and receives: room first, when full.
                if (cf_scheduler_in_flight(s) == cf_scheduler_depth(s)) {
                    ASSERT_TRUE(take(true));
                }
                CF_ASSERT_OK(cf_scheduler_submit(s, j.input, j.dst ? j.dst->frame() : nullptr, &j));
                EXPECT_LE(cf_scheduler_in_flight(s), depth);
                if (rng() % 3 == 0)
                    while (take(false)) {}
            }
            cf_scheduler_drain(s);
            while (take(true)) {}
            EXPECT_EQ(next_out, jobs.size());
            cf_scheduler_destroy(&s);
            for (auto &j : jobs) cf_frame_free(&j.pinned_src);
        }
    }
    EXPECT_EQ(frames, 8 * (int)(sizeof kChains / sizeof kChains[0]) * 12);
}

TEST(SchedulerGpu, SteadyStreamAllocatesNothingAndKeepsGpuMemoryFlat)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(5);
    Chain c("gray,blur=sigma=2");
    cf_scheduler_params p = {};
    p.filters = c.filters.data();
    p.n_filters = 2;
    p.backend = CF_BACKEND_CUDA;
    p.output = CF_SCHEDULER_OUTPUT_HOST;
    cf_scheduler *s = nullptr;
    CF_ASSERT_OK(cf_scheduler_create(&s, &p));
    cftest::GuardedFrame src(CF_FORMAT_RGBA, 1280, 720, CF_MEMORY_HOST, rng);
    cf_frame pinned;
    CF_ASSERT_OK(cf_frame_alloc(&pinned, CF_FORMAT_RGBA, 1280, 720, CF_MEMORY_PINNED_HOST));
    CF_ASSERT_OK(cf_frame_copy(src.frame(), &pinned, nullptr));
    auto run = [&](int n) {
        cf_scheduler_result r;
        for (int i = 0; i < n; i++) {
            // What is done, and the oldest when full (one thread does both).
            while (cf_scheduler_receive(s, &r, cf_scheduler_in_flight(s) == cf_scheduler_depth(s)) == CF_OK)
                cf_scheduler_release(s, &r);
            ASSERT_EQ(cf_scheduler_submit(s, &pinned, nullptr, nullptr), CF_OK);
        }
        cf_scheduler_drain(s);
        while (cf_scheduler_receive(s, &r, true) == CF_OK) cf_scheduler_release(s, &r);
    };
    run(20);
    int frames = cf_scheduler_frames_allocated(s);
    size_t free0 = 0, free1 = 0, total = 0;
    CF_ASSERT_OK(cf_device_get_memory(&free0, &total));
    run(600);
    CF_ASSERT_OK(cf_device_get_memory(&free1, &total));
    EXPECT_EQ(cf_scheduler_frames_allocated(s), frames);
    EXPECT_EQ(free0, free1) << "GPU memory changed over 600 frames";
    cf_scheduler_destroy(&s);
    cf_frame_free(&pinned);
}

} // namespace
