// The stream scheduler on the CPU backend (runs on every machine): order,
// tokens, back-pressure, drain, flush, per-frame errors, pools, and results
// equal to running the filters one by one. tests/test_scheduler_gpu.cpp
// runs the same scheduler on the GPU.
#include <atomic>
#include <chrono>
#include <thread>

#include "test_utils.h"

namespace {

using namespace std::chrono_literals;

using cftest::Chain;
using cftest::packed_pixels;

// Parameters for `c` on the CPU (C++ has no compound literals: a named struct).
cf_scheduler_params params_for(const Chain &c, int depth, cf_backend backend = CF_BACKEND_CPU)
{
    cf_scheduler_params p = {};
    p.filters = c.filters.data();
    p.n_filters = (int)c.filters.size();
    p.depth = depth;
    p.backend = backend;
    p.name = "test";
    return p;
}

struct Sched {
    Sched(const Chain &c, int depth, void (*drop)(void *, void *) = nullptr, void *user = nullptr)
    {
        cf_scheduler_params p = params_for(c, depth);
        p.drop = drop;
        p.user_data = user;
        EXPECT_EQ(cf_scheduler_create(&s, &p), CF_OK) << cf_last_error();
    }
    ~Sched() { cf_scheduler_destroy(&s); }
    cf_scheduler *s = nullptr;
};

// A host RGBA frame of random pixels.
struct Frame {
    Frame(cf_format fmt, int w, int h, std::mt19937 &rng) : g(fmt, w, h, CF_MEMORY_HOST, rng) {}
    cf_frame *f() { return g.frame(); }
    cftest::GuardedFrame g;
};

TEST(Scheduler, ResultsInOrderWithTokensEqualToTheFiltersRunInTurn)
{
    std::mt19937 rng(1);
    Chain c("gray,blur=sigma=1.5");
    Sched s(c, 3);
    ASSERT_FALSE(cf_scheduler_uses_gpu(s.s));
    std::vector<std::unique_ptr<Frame>> frames;
    std::vector<std::vector<uint8_t>> want;
    for (int i = 0; i < 10; i++) {
        frames.push_back(std::make_unique<Frame>(CF_FORMAT_RGBA, 17 + i, 9 + 2 * i, rng));
        want.push_back(c.reference(frames.back()->f()));
    }
    int next = 0;
    for (int i = 0; i < 10; i++) {
        CF_ASSERT_OK(cf_scheduler_submit(s.s, frames[i]->f(), nullptr, (void *)(intptr_t)(100 + i)));
        cf_scheduler_result r;
        // The CPU runs the chain inside submit: the frame is ready at once.
        while (cf_scheduler_receive(s.s, &r, false) == CF_OK) {
            EXPECT_EQ(r.token, (void *)(intptr_t)(100 + next));
            EXPECT_EQ(r.sequence, next);
            EXPECT_EQ(r.status, CF_OK);
            EXPECT_TRUE(r.from_pool);
            EXPECT_EQ(r.frame.format, CF_FORMAT_GRAY8);
            EXPECT_EQ(r.frame.width, 17 + next);
            EXPECT_TRUE(packed_pixels(r.frame) == want[next]) << "frame " << next;
            cf_scheduler_release(s.s, &r);
            next++;
        }
    }
    EXPECT_EQ(next, 10);
    EXPECT_EQ(cf_scheduler_in_flight(s.s), 0);
}

TEST(Scheduler, GivenOutputFramesAreWrittenAndReturned)
{
    std::mt19937 rng(2);
    Chain c("blur=sigma=2:border=replicate");
    Sched s(c, 2);
    Frame in(CF_FORMAT_NV12, 33, 21, rng), out(CF_FORMAT_NV12, 33, 21, rng);
    CF_ASSERT_OK(cf_scheduler_submit(s.s, in.f(), out.f(), nullptr));
    cf_scheduler_result r;
    CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, true));
    EXPECT_EQ(r.status, CF_OK);
    EXPECT_FALSE(r.from_pool);
    EXPECT_EQ(r.frame.data[0], out.f()->data[0]);
    EXPECT_TRUE(packed_pixels(*out.f()) == c.reference(in.f()));
    EXPECT_EQ(out.g.damaged_guard_bytes(), 0u);
    cf_scheduler_release(s.s, &r);
}

TEST(Scheduler, EmptyChainCopies)
{
    std::mt19937 rng(3);
    Chain c("");
    Sched s(c, 1);
    Frame in(CF_FORMAT_I420, 7, 5, rng);
    CF_ASSERT_OK(cf_scheduler_submit(s.s, in.f(), nullptr, nullptr));
    cf_scheduler_result r;
    CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, false));
    EXPECT_EQ(r.frame.format, CF_FORMAT_I420);
    EXPECT_TRUE(packed_pixels(r.frame) == packed_pixels(*in.f()));
    cf_scheduler_release(s.s, &r);
}

TEST(Scheduler, SubmitWaitsWhileDepthFramesAreInFlight)
{
    std::mt19937 rng(4);
    Chain c("gray");
    Sched s(c, 2);
    Frame a(CF_FORMAT_RGB, 8, 8, rng);
    CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, (void *)1));
    CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, (void *)2));
    EXPECT_EQ(cf_scheduler_in_flight(s.s), 2);
    std::atomic<bool> third_in{ false };
    std::thread t([&] {
        EXPECT_EQ(cf_scheduler_submit(s.s, a.f(), nullptr, (void *)3), CF_OK);
        third_in = true;
    });
    std::this_thread::sleep_for(100ms);
    EXPECT_FALSE(third_in) << "a third frame went in with depth 2";
    cf_scheduler_result r;
    CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, true));
    EXPECT_EQ(r.token, (void *)1);
    cf_scheduler_release(s.s, &r);
    t.join();
    EXPECT_TRUE(third_in);
    for (intptr_t want : { 2, 3 }) {
        CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, true));
        EXPECT_EQ(r.token, (void *)want);
        cf_scheduler_release(s.s, &r);
    }
}

TEST(Scheduler, DrainEndsWithEofAndTheNextSubmitStartsAgain)
{
    std::mt19937 rng(5);
    Chain c("gray");
    Sched s(c, 4);
    Frame a(CF_FORMAT_BGRA, 4, 4, rng);
    cf_scheduler_result r;
    EXPECT_EQ(cf_scheduler_receive(s.s, &r, false), CF_ERROR_AGAIN);
    CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, (void *)1));
    CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, (void *)2));
    cf_scheduler_drain(s.s);
    for (intptr_t want : { 1, 2 }) {
        CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, true));
        EXPECT_EQ(r.token, (void *)want);
        cf_scheduler_release(s.s, &r);
    }
    EXPECT_EQ(cf_scheduler_receive(s.s, &r, true), CF_ERROR_EOF);
    EXPECT_EQ(cf_scheduler_receive(s.s, &r, false), CF_ERROR_EOF);
    CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, (void *)3));
    CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, true));
    EXPECT_EQ(r.token, (void *)3);
    cf_scheduler_release(s.s, &r);
    EXPECT_EQ(cf_scheduler_receive(s.s, &r, false), CF_ERROR_AGAIN) << "not drained any more";
}

TEST(Scheduler, DrainWakesAWaitingReceive)
{
    Chain c("gray");
    Sched s(c, 4);
    std::thread t([&] {
        cf_scheduler_result r;
        EXPECT_EQ(cf_scheduler_receive(s.s, &r, true), CF_ERROR_EOF);
    });
    std::this_thread::sleep_for(50ms);
    cf_scheduler_drain(s.s);
    t.join();
}

struct Dropped {
    std::vector<void *> tokens;
    static void drop(void *token, void *user) { ((Dropped *)user)->tokens.push_back(token); }
};

TEST(Scheduler, FlushDropsEveryFrameInFlightThroughTheCallback)
{
    std::mt19937 rng(6);
    Chain c("blur=sigma=1");
    Dropped d;
    Sched s(c, 4, Dropped::drop, &d);
    Frame a(CF_FORMAT_GRAY8, 30, 30, rng);
    for (intptr_t i = 1; i <= 3; i++) CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, (void *)i));
    cf_scheduler_flush(s.s);
    EXPECT_EQ(d.tokens, (std::vector<void *>{ (void *)1, (void *)2, (void *)3 }));
    EXPECT_EQ(cf_scheduler_in_flight(s.s), 0);
    cf_scheduler_result r;
    EXPECT_EQ(cf_scheduler_receive(s.s, &r, false), CF_ERROR_AGAIN);
    // Destroy drops what is left too.
    CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, (void *)4));
    cf_scheduler_destroy(&s.s);
    EXPECT_EQ(d.tokens.back(), (void *)4);
}

TEST(Scheduler, FlushingWakesWaitersAndRefusesFrames)
{
    std::mt19937 rng(7);
    Chain c("gray");
    Sched s(c, 1);
    Frame a(CF_FORMAT_RGBA, 4, 4, rng);
    std::thread receiver([&] {
        cf_scheduler_result r;
        EXPECT_EQ(cf_scheduler_receive(s.s, &r, true), CF_ERROR_FLUSHING);
    });
    std::this_thread::sleep_for(50ms);
    cf_scheduler_set_flushing(s.s, true);
    receiver.join();
    EXPECT_EQ(cf_scheduler_submit(s.s, a.f(), nullptr, nullptr), CF_ERROR_FLUSHING);
    cf_scheduler_set_flushing(s.s, false);
    // A submit waiting for room is woken too.
    CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, (void *)1));
    std::thread submitter([&] { EXPECT_EQ(cf_scheduler_submit(s.s, a.f(), nullptr, (void *)2), CF_ERROR_FLUSHING); });
    std::this_thread::sleep_for(50ms);
    cf_scheduler_set_flushing(s.s, true);
    submitter.join();
    cf_scheduler_result r;
    EXPECT_EQ(cf_scheduler_receive(s.s, &r, false), CF_ERROR_FLUSHING);
    cf_scheduler_flush(s.s);
    cf_scheduler_set_flushing(s.s, false);
    EXPECT_EQ(cf_scheduler_in_flight(s.s), 0);
}

// The threads of a GStreamer element: a streaming thread submits and, on
// FLUSH_STOP, flushes; a task receives; FLUSH_START (set_flushing) comes from
// a third thread at random moments. Every frame is received in order or
// dropped, exactly once, and nothing stays in flight.
TEST(Scheduler, SubmitReceiveAndFlushFromThreeThreads)
{
    std::mt19937 rng(11);
    Chain c("gray,blur=sigma=1");
    constexpr int n = 3000;
    static std::atomic<int> state[n]; // 0 not submitted, 1 in flight, 2 received, 3 dropped
    for (auto &x : state) x = 0;
    struct Drop {
        static void fn(void *token, void *)
        {
            int expected = 1;
            EXPECT_TRUE(state[(intptr_t)token - 1].compare_exchange_strong(expected, 3))
                << "frame " << (intptr_t)token - 1 << " dropped in state " << expected;
        }
    };
    for (int depth : { 1, 3, CF_SCHEDULER_MAX_DEPTH }) {
        for (auto &x : state) x = 0;
        Sched s(c, depth, Drop::fn, nullptr);
        Frame a(CF_FORMAT_RGBA, 16, 8, rng);
        std::atomic<bool> submitting{ true }, flush_asked{ false };
        std::thread task([&] {
            intptr_t last = 0;
            cf_scheduler_result r;
            for (;;) {
                cf_status st = cf_scheduler_receive(s.s, &r, true);
                if (st == CF_ERROR_FLUSHING) {
                    std::this_thread::sleep_for(20us);
                    continue;
                }
                if (st == CF_ERROR_EOF) break;
                ASSERT_EQ(st, CF_OK) << cf_last_error();
                intptr_t i = (intptr_t)r.token;
                EXPECT_GT(i, last) << "out of order";
                last = i;
                int expected = 1;
                EXPECT_TRUE(state[i - 1].compare_exchange_strong(expected, 2))
                    << "frame " << i - 1 << " received in state " << expected;
                EXPECT_EQ(r.status, CF_OK);
                cf_scheduler_release(s.s, &r);
            }
        });
        std::thread flush_start([&] {
            std::mt19937 r(depth);
            while (submitting) {
                std::this_thread::sleep_for(std::chrono::microseconds(100 + r() % 1000));
                cf_scheduler_set_flushing(s.s, true);
                flush_asked = true;
                while (flush_asked && submitting) std::this_thread::sleep_for(20us);
            }
        });
        for (intptr_t i = 1; i <= n; i++) {
            state[i - 1] = 1;
            cf_status st = cf_scheduler_submit(s.s, a.f(), nullptr, (void *)i);
            if (st == CF_ERROR_FLUSHING)
                state[i - 1] = 3; // not taken
            else
                EXPECT_EQ(st, CF_OK) << cf_last_error();
            if (flush_asked) { // FLUSH_STOP, on the streaming thread
                cf_scheduler_flush(s.s);
                cf_scheduler_set_flushing(s.s, false);
                flush_asked = false;
            }
        }
        submitting = false;
        flush_start.join();
        cf_scheduler_set_flushing(s.s, false);
        cf_scheduler_drain(s.s);
        task.join();
        int received = 0;
        for (int i = 0; i < n; i++) {
            EXPECT_GE(state[i], 2) << "frame " << i << " neither received nor dropped";
            received += state[i] == 2;
        }
        EXPECT_GT(received, 0);
        EXPECT_EQ(cf_scheduler_in_flight(s.s), 0);
    }
}

TEST(Scheduler, AFailedFrameIsReportedWithItsTokenAndLaterFramesGoOn)
{
    std::mt19937 rng(8);
    Chain c("gray");
    Sched s(c, 8);
    Frame in(CF_FORMAT_RGBA, 16, 8, rng);
    Frame good(CF_FORMAT_GRAY8, 16, 8, rng), wrong_size(CF_FORMAT_GRAY8, 15, 8, rng);
    for (intptr_t i = 0; i < 5; i++)
        CF_ASSERT_OK(cf_scheduler_submit(s.s, in.f(), i == 2 ? wrong_size.f() : good.f(), (void *)i));
    for (intptr_t i = 0; i < 5; i++) {
        cf_scheduler_result r;
        CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, true));
        EXPECT_EQ(r.token, (void *)i);
        if (i == 2) {
            EXPECT_EQ(r.status, CF_ERROR_INVALID_ARGUMENT);
            std::string msg = cf_last_error();
            EXPECT_NE(msg.find("test: frame 2"), std::string::npos) << msg;
            EXPECT_NE(msg.find("16x8"), std::string::npos) << msg;
            EXPECT_EQ(r.frame.data[0], nullptr);
        } else {
            EXPECT_EQ(r.status, CF_OK) << i;
        }
        cf_scheduler_release(s.s, &r);
    }
    EXPECT_TRUE(packed_pixels(*good.f()) == c.reference(in.f()));
}

TEST(Scheduler, AFrameTheChainDoesNotTakeFailsAlone)
{
    std::mt19937 rng(9);
    Chain c("gray,gray");
    Sched s(c, 2);
    Frame ok(CF_FORMAT_RGBA, 5, 5, rng);
    cf_frame bad = *ok.f();
    bad.format = CF_FORMAT_UNKNOWN;
    EXPECT_EQ(cf_scheduler_submit(s.s, &bad, nullptr, nullptr), CF_ERROR_UNSUPPORTED_FORMAT)
        << "a frame cf_frame_validate refuses is not taken";
    EXPECT_EQ(cf_scheduler_in_flight(s.s), 0);
    CF_ASSERT_OK(cf_scheduler_submit(s.s, ok.f(), nullptr, nullptr));
    cf_scheduler_result r;
    CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, true));
    EXPECT_EQ(r.status, CF_OK);
    cf_scheduler_release(s.s, &r);
}

TEST(Scheduler, NoAllocationOnceTheShapeIsKnown)
{
    std::mt19937 rng(10);
    Chain c("gray,blur=sigma=3");
    Sched s(c, 3);
    Frame a(CF_FORMAT_NV12, 64, 36, rng), b(CF_FORMAT_NV12, 40, 20, rng);
    cf_scheduler_result r;
    auto run = [&](Frame &f, int n) {
        for (int i = 0; i < n; i++) {
            ASSERT_EQ(cf_scheduler_submit(s.s, f.f(), nullptr, nullptr), CF_OK);
            ASSERT_EQ(cf_scheduler_receive(s.s, &r, true), CF_OK);
            cf_scheduler_release(s.s, &r);
        }
    };
    run(a, 3);
    int after_warmup = cf_scheduler_frames_allocated(s.s);
    EXPECT_GT(after_warmup, 0);
    run(a, 100);
    EXPECT_EQ(cf_scheduler_frames_allocated(s.s), after_warmup);
    run(b, 3); // a new shape makes new frames once
    int after_new_shape = cf_scheduler_frames_allocated(s.s);
    run(b, 50);
    EXPECT_EQ(cf_scheduler_frames_allocated(s.s), after_new_shape);
}

TEST(Scheduler, ResultsHeldByTheCallerSurviveDestroy)
{
    std::mt19937 rng(11);
    Chain c("gray");
    cf_scheduler_result r;
    Frame a(CF_FORMAT_RGBA, 9, 9, rng);
    {
        Sched s(c, 2);
        CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, nullptr));
        CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, true));
    }
    EXPECT_TRUE(packed_pixels(r.frame) == c.reference(a.f()));
    cf_scheduler_release(nullptr, &r);
    EXPECT_EQ(r.frame.data[0], nullptr);
}

TEST(Scheduler, ParametersChangedBetweenSubmitsApplyToTheLaterFrame)
{
    std::mt19937 rng(12);
    Chain c("blur=sigma=1");
    Sched s(c, 4);
    Frame a(CF_FORMAT_GRAY8, 50, 20, rng);
    CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, nullptr));
    auto first = c.reference(a.f());
    CF_ASSERT_OK(cf_filter_set_double(c.filters[0], "sigma", 4.0));
    CF_ASSERT_OK(cf_scheduler_submit(s.s, a.f(), nullptr, nullptr));
    auto second = c.reference(a.f());
    ASSERT_FALSE(first == second);
    cf_scheduler_result r;
    for (auto *want : { &first, &second }) {
        CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, true));
        EXPECT_TRUE(packed_pixels(r.frame) == *want);
        cf_scheduler_release(s.s, &r);
    }
}

TEST(Scheduler, BadParametersAreRefused)
{
    Chain c("gray");
    cf_scheduler *s = (cf_scheduler *)1;
    cf_scheduler_params p = params_for(c, CF_SCHEDULER_MAX_DEPTH + 1);
    EXPECT_EQ(cf_scheduler_create(&s, &p), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(s, nullptr);
    cf_filter *none[] = { nullptr };
    p = params_for(c, 0);
    p.filters = none;
    EXPECT_EQ(cf_scheduler_create(&s, &p), CF_ERROR_INVALID_ARGUMENT);
    p.filters = nullptr;
    p.n_filters = 2;
    EXPECT_EQ(cf_scheduler_create(&s, &p), CF_ERROR_INVALID_ARGUMENT);
    p = params_for(c, 0);
    p.output = CF_SCHEDULER_OUTPUT_DEVICE;
    EXPECT_EQ(cf_scheduler_create(&s, &p), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cf_last_error()).find("device output needs the CUDA backend"), std::string::npos);
    EXPECT_EQ(cf_scheduler_create(&s, nullptr), CF_ERROR_INVALID_ARGUMENT);
    if (!cftest::gpu_available()) {
        p = params_for(c, 0, CF_BACKEND_CUDA);
        EXPECT_EQ(cf_scheduler_create(&s, &p), CF_ERROR_NO_DEVICE);
        EXPECT_NE(std::string(cf_last_error()).find("needs a GPU"), std::string::npos) << cf_last_error();
        // AUTO falls back to the CPU.
        p = params_for(c, 0, CF_BACKEND_AUTO);
        CF_ASSERT_OK(cf_scheduler_create(&s, &p));
        EXPECT_FALSE(cf_scheduler_uses_gpu(s));
        cf_scheduler_destroy(&s);
    }
    EXPECT_EQ(cf_scheduler_submit(nullptr, nullptr, nullptr, nullptr), CF_ERROR_INVALID_ARGUMENT);
}

TEST(Scheduler, DeviceFramesAreRefusedOnTheCpu)
{
    std::mt19937 rng(13);
    Chain c("gray");
    Sched s(c, 2);
    Frame a(CF_FORMAT_RGBA, 4, 4, rng);
    cf_frame dev = *a.f();
    dev.memory = CF_MEMORY_DEVICE; // never dereferenced: refused first
    CF_ASSERT_OK(cf_scheduler_submit(s.s, &dev, nullptr, (void *)7));
    cf_scheduler_result r;
    CF_ASSERT_OK(cf_scheduler_receive(s.s, &r, true));
    EXPECT_EQ(r.token, (void *)7);
    EXPECT_EQ(r.status, CF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cf_last_error()).find("host frames only"), std::string::npos);
}

const cf_frame_pool_params *pool_params(cf_format fmt, int w, int h, cf_memory mem, int max)
{
    static cf_frame_pool_params p;
    p = {};
    p.format = fmt;
    p.width = w;
    p.height = h;
    p.memory = mem;
    p.max_frames = max;
    return &p;
}

TEST(FramePool, ReusesFramesAndWaitsAtItsLimit)
{
    cf_frame_pool *pool = nullptr;
    CF_ASSERT_OK(cf_frame_pool_create(&pool, pool_params(CF_FORMAT_NV12, 5, 3, CF_MEMORY_HOST, 2)));
    cf_frame a, b, c;
    CF_ASSERT_OK(cf_frame_pool_acquire(pool, &a, false));
    CF_ASSERT_OK(cf_frame_pool_acquire(pool, &b, false));
    EXPECT_EQ(a.format, CF_FORMAT_NV12);
    EXPECT_EQ(b.width, 5);
    EXPECT_NE(a.data[0], b.data[0]);
    EXPECT_EQ(cf_frame_pool_acquire(pool, &c, false), CF_ERROR_AGAIN);
    uint8_t *a_data = a.data[0];
    std::thread t([&] {
        std::this_thread::sleep_for(50ms);
        cf_frame_pool_release(pool, &a);
    });
    CF_ASSERT_OK(cf_frame_pool_acquire(pool, &c, true));
    t.join();
    EXPECT_EQ(c.data[0], a_data) << "the released frame is handed out again";
    EXPECT_EQ(cf_frame_pool_count(pool), 2);
    EXPECT_EQ(cf_frame_pool_in_use(pool), 2);
    std::thread waiter([&] {
        cf_frame d;
        EXPECT_EQ(cf_frame_pool_acquire(pool, &d, true), CF_ERROR_FLUSHING);
    });
    std::this_thread::sleep_for(50ms);
    cf_frame_pool_set_flushing(pool, true);
    waiter.join();
    cf_frame_pool_set_flushing(pool, false);
    cf_frame stranger = c;
    stranger.allocation = &stranger;
    cf_frame_pool_release(pool, &stranger);
    EXPECT_EQ(cf_frame_pool_in_use(pool), 2) << "a frame that is not the pool's is left alone";
    cf_frame_pool *kept = pool;
    cf_frame_pool_destroy(&pool);
    EXPECT_EQ(pool, nullptr);
    // Frames out survive the destroy and go with their release (the last
    // one frees the pool: valgrind and ASan see no leak and no stale read).
    memset(c.data[0], 1, c.pitch[0]);
    cf_frame_pool_release(nullptr, &b); // no-op
    EXPECT_NE(b.data[0], nullptr);
    cf_frame_pool_release(kept, &b);
    EXPECT_EQ(b.data[0], nullptr);
    cf_frame_pool_release(kept, &c);
}

TEST(FramePool, BadParametersAreRefused)
{
    cf_frame_pool *pool = nullptr;
    EXPECT_EQ(cf_frame_pool_create(&pool, pool_params(CF_FORMAT_UNKNOWN, 1, 1, CF_MEMORY_HOST, 0)),
              CF_ERROR_UNSUPPORTED_FORMAT);
    EXPECT_EQ(cf_frame_pool_create(&pool, pool_params(CF_FORMAT_GRAY8, 0, 1, CF_MEMORY_HOST, 0)),
              CF_ERROR_INVALID_ARGUMENT);
    if (!cftest::gpu_available()) {
        EXPECT_EQ(cf_frame_pool_create(&pool, pool_params(CF_FORMAT_GRAY8, 1, 1, CF_MEMORY_DEVICE, 0)),
                  CF_ERROR_NO_DEVICE);
    }
    EXPECT_EQ(pool, nullptr);
}

} // namespace
