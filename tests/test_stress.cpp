// GStreamer stress: the elements used for a while as an application uses
// them, through factory names and properties only: NULL/PLAYING cycles,
// properties changed from another thread while playing, caps changing every
// few frames, several pipelines in threads. Every pulled frame is checked
// against the core library's CPU reference where its settings are known;
// host RSS (and, with a GPU, free device memory) growth is reported and
// bounded. Runs on the GPU when there is one, else on the CPU references.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include "test_utils.h"

namespace {

class Stress : public ::testing::Test {
protected:
    static void SetUpTestSuite() { gst_init(nullptr, nullptr); }
};

constexpr GstClockTime kWait = 20 * GST_SECOND; // longest wait for any one thing

// AddressSanitizer's allocator keeps per-thread caches and size-class free
// lists even with its quarantine off, so RSS under it settles higher.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kRssSlack = 3;
#else
constexpr long kRssSlack = 1;
#endif

// Host RSS and, with a GPU, free device memory, before and after a stretch.
struct Memory {
    long rss = cftest::rss_kib();
    size_t free = 0, total = 0;
    bool gpu = cftest::gpu_available() && cf_device_get_memory(&free, &total) == CF_OK;

    // Prints the growth and checks it against `max_kib` of host memory.
    void report(const char *what, long max_kib) const
    {
        long rss1 = cftest::rss_kib();
        std::printf("stress: %s: host RSS %ld -> %ld KiB (%+ld)\n", what, rss, rss1, rss1 - rss);
        EXPECT_LT(rss1 - rss, max_kib * kRssSlack) << what << ": host memory grew";
        size_t free1 = 0, total1 = 0;
        if (gpu && cf_device_get_memory(&free1, &total1) == CF_OK) {
            std::printf("stress: %s: free device memory %zu -> %zu MiB\n", what, free >> 20,
                        free1 >> 20);
            EXPECT_GE(free1 + (16u << 20), free) << what << ": device memory shrank";
        }
    }
};

GstElement *launch(const std::string &desc)
{
    GError *error = nullptr;
    GstElement *p = gst_parse_launch_full(desc.c_str(), nullptr, GST_PARSE_FLAG_FATAL_ERRORS,
                                          &error);
    EXPECT_TRUE(p && !error) << desc << ": " << (error ? error->message : "");
    g_clear_error(&error);
    return p;
}

// The first error on the bus since the last call ("" if none).
std::string bus_error(GstElement *p)
{
    GstBus *bus = gst_element_get_bus(p);
    std::string text;
    while (GstMessage *m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) {
        GError *e = nullptr;
        gst_message_parse_error(m, &e, nullptr);
        if (text.empty())
            text = std::string(GST_OBJECT_NAME(GST_MESSAGE_SRC(m))) + ": " + e->message;
        g_error_free(e);
        gst_message_unref(m);
    }
    gst_object_unref(bus);
    return text;
}

// Waits for EOS or an error; "" on EOS, else what happened.
std::string wait_eos(GstElement *p)
{
    GstBus *bus = gst_element_get_bus(p);
    GstMessage *m = gst_bus_timed_pop_filtered(
        bus, kWait, (GstMessageType)(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    gst_object_unref(bus);
    if (!m)
        return "no EOS within the wait";
    std::string text;
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
        GError *e = nullptr;
        gst_message_parse_error(m, &e, nullptr);
        text = e->message;
        g_error_free(e);
    }
    gst_message_unref(m);
    return text;
}

// Changes state; with `wait`, until the change completed (a pipeline fed by
// appsrc cannot preroll before it is fed, so that one does not wait).
bool set_state(GstElement *p, GstState state, bool wait = true)
{
    GstStateChangeReturn r = gst_element_set_state(p, state);
    if (r == GST_STATE_CHANGE_FAILURE)
        return false;
    return !wait || gst_element_get_state(p, nullptr, nullptr, kWait) == GST_STATE_CHANGE_SUCCESS ||
           r == GST_STATE_CHANGE_NO_PREROLL;
}

// An input frame: format, size, content seed; caps say limited-range BT.601
// for YUV, so the reference knows what gray's range parameter becomes.
struct Shape {
    const char *format;
    int w, h;
};

uint8_t fill(int seed, int p, int x, int y)
{
    return (uint8_t)(x * 37 + y * 101 + p * 53 + seed * 29 + ((x * y) % 7) * 11);
}

bool is_yuv(const char *format)
{
    return cf_format_get_info(cf_format_from_name(format))->is_yuv;
}

GstCaps *caps_of(const Shape &s)
{
    GstCaps *caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, s.format, "width",
                                        G_TYPE_INT, s.w, "height", G_TYPE_INT, s.h, "framerate",
                                        GST_TYPE_FRACTION, 30, 1, nullptr);
    if (is_yuv(s.format))
        gst_caps_set_simple(caps, "colorimetry", G_TYPE_STRING, "bt601", nullptr);
    return caps;
}

// A buffer in GStreamer's default layout (rows padded to 4 bytes).
GstBuffer *make_buffer(const Shape &s, int seed, int n)
{
    GstVideoInfo info;
    gst_video_info_set_format(&info, gst_video_format_from_string(s.format), s.w, s.h);
    GstBuffer *buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
    GstVideoFrame frame;
    EXPECT_TRUE(gst_video_frame_map(&frame, &info, buf, GST_MAP_WRITE));
    cf_format fmt = cf_format_from_name(s.format);
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&frame); p++) {
        auto *d = (uint8_t *)GST_VIDEO_FRAME_PLANE_DATA(&frame, p);
        int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
        for (int y = 0; y < cf_format_plane_height(fmt, (int)p, s.h); y++)
            for (size_t x = 0; x < cf_format_plane_row_bytes(fmt, (int)p, s.w); x++)
                d[y * stride + x] = fill(seed, (int)p, (int)x, y);
    }
    gst_video_frame_unmap(&frame);
    GST_BUFFER_PTS(buf) = gst_util_uint64_scale(n, GST_SECOND, 30);
    GST_BUFFER_DURATION(buf) = GST_SECOND / 30;
    return buf;
}

// The expected output: `chain` (gray first) run by the core's CPU reference,
// each filter into its preferred format, plane 0 rows packed.
std::vector<uint8_t> reference(const std::string &chain_text, const Shape &s, int seed)
{
    std::string text = chain_text;
    if (is_yuv(s.format))
        text.replace(0, 4, "gray=range=limited");
    cf_chain *chain = cf_chain_parse(text.c_str());
    EXPECT_NE(chain, nullptr) << cf_last_error();
    cf_format fmt = cf_format_from_name(s.format);
    cf_frame cur;
    EXPECT_EQ(cf_frame_alloc(&cur, fmt, s.w, s.h, CF_MEMORY_HOST), CF_OK);
    for (int p = 0; p < cf_format_get_info(fmt)->n_planes; p++)
        for (int y = 0; y < cf_format_plane_height(fmt, p, s.h); y++)
            for (size_t x = 0; x < cf_format_plane_row_bytes(fmt, p, s.w); x++)
                cur.data[p][y * cur.pitch[p] + x] = fill(seed, p, (int)x, y);
    for (int i = 0; i < cf_chain_length(chain); i++) {
        cf_filter *f = cf_chain_get(chain, i);
        cf_format out_fmt;
        cf_frame next;
        EXPECT_EQ(cf_filter_get_output_format(f, cur.format, &out_fmt), CF_OK);
        EXPECT_EQ(cf_frame_alloc(&next, out_fmt, s.w, s.h, CF_MEMORY_HOST), CF_OK);
        EXPECT_EQ(cf_filter_run(f, &cur, &next, nullptr), CF_OK) << cf_last_error();
        cf_frame_free(&cur);
        cur = next;
    }
    std::vector<uint8_t> out;
    size_t row = cf_format_plane_row_bytes(cur.format, 0, s.w);
    for (int y = 0; y < s.h; y++)
        out.insert(out.end(), cur.data[0] + y * cur.pitch[0], cur.data[0] + y * cur.pitch[0] + row);
    cf_frame_free(&cur);
    cf_chain_free(&chain);
    return out;
}

// Plane 0 of a pulled sample, rows packed; its size from the sample's caps.
std::vector<uint8_t> plane0(GstSample *sample, int *w = nullptr, int *h = nullptr)
{
    GstVideoInfo info;
    EXPECT_TRUE(gst_video_info_from_caps(&info, gst_sample_get_caps(sample)));
    GstVideoFrame frame;
    std::vector<uint8_t> out;
    if (!gst_video_frame_map(&frame, &info, gst_sample_get_buffer(sample), GST_MAP_READ)) {
        ADD_FAILURE() << "cannot map a pulled buffer";
        return out;
    }
    auto *d = (const uint8_t *)GST_VIDEO_FRAME_PLANE_DATA(&frame, 0);
    int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
    int row = GST_VIDEO_FRAME_COMP_WIDTH(&frame, 0) * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, 0);
    for (int y = 0; y < GST_VIDEO_FRAME_HEIGHT(&frame); y++)
        out.insert(out.end(), d + y * stride, d + y * stride + row);
    if (w)
        *w = GST_VIDEO_FRAME_WIDTH(&frame);
    if (h)
        *h = GST_VIDEO_FRAME_HEIGHT(&frame);
    gst_video_frame_unmap(&frame);
    return out;
}

// appsrc ! FILTERS ! appsink, the source and sink by name.
struct AppPipeline {
    GstElement *pipe = nullptr, *src = nullptr, *sink = nullptr;

    explicit AppPipeline(const std::string &filters)
    {
        pipe = launch("appsrc name=src format=time block=true max-bytes=400000 ! " + filters +
                      " ! appsink name=sink sync=false max-buffers=4");
        if (!pipe)
            return;
        src = gst_bin_get_by_name(GST_BIN(pipe), "src");
        sink = gst_bin_get_by_name(GST_BIN(pipe), "sink");
    }
    ~AppPipeline()
    {
        if (!pipe)
            return;
        gst_element_set_state(pipe, GST_STATE_NULL);
        gst_object_unref(src);
        gst_object_unref(sink);
        gst_object_unref(pipe);
    }
    bool push(const Shape &s, int seed, int n)
    {
        GstCaps *caps = caps_of(s);
        GstBuffer *buf = make_buffer(s, seed, n);
        GstSample *sample = gst_sample_new(buf, caps, nullptr, nullptr);
        GstFlowReturn r = gst_app_src_push_sample(GST_APP_SRC(src), sample);
        gst_sample_unref(sample);
        gst_buffer_unref(buf);
        gst_caps_unref(caps);
        return r == GST_FLOW_OK;
    }
    GstSample *pull() { return gst_app_sink_try_pull_sample(GST_APP_SINK(sink), kWait); }
};

const char *const kFilters = "cudaupload ! cudagray ! cudablur sigma=1.5 ! cudadownload";

// One short run of a fresh appsrc pipeline: `frames` frames of `s`, each
// compared with the reference. Returns the number that matched.
int run_app_once(const Shape &s, int frames, int seed)
{
    AppPipeline a(kFilters);
    if (!a.pipe || !set_state(a.pipe, GST_STATE_PLAYING, false))
        return -1;
    auto want = reference("gray,blur=sigma=1.5", s, seed);
    std::thread pusher([&] {
        for (int n = 0; n < frames; n++)
            if (!a.push(s, seed, n))
                break;
        gst_app_src_end_of_stream(GST_APP_SRC(a.src));
    });
    int good = 0;
    for (int n = 0; n < frames; n++) {
        GstSample *sample = a.pull();
        if (!sample)
            break;
        good += plane0(sample) == want;
        gst_sample_unref(sample);
    }
    pusher.join();
    EXPECT_EQ(bus_error(a.pipe), "");
    return good;
}

} // namespace

TEST_F(Stress, NullPlayingCycles)
{
    // To the end of a stream and back, and stopped while frames flow.
    GstElement *finite = launch("videotestsrc num-buffers=3 ! video/x-raw,format=NV12,width=176,"
                                "height=144 ! " + std::string(kFilters) + " ! fakesink");
    GstElement *flowing = launch("videotestsrc is-live=true ! video/x-raw,format=RGBA,width=160,"
                                 "height=120,framerate=200/1 ! " + std::string(kFilters) +
                                 " ! fakesink sync=false");
    ASSERT_TRUE(finite && flowing);
    auto cycle = [&](int i) {
        ASSERT_TRUE(set_state(finite, GST_STATE_PLAYING)) << "cycle " << i;
        ASSERT_EQ(wait_eos(finite), "") << "cycle " << i;
        ASSERT_TRUE(set_state(finite, GST_STATE_NULL));
        ASSERT_TRUE(set_state(flowing, GST_STATE_PLAYING)) << "cycle " << i;
        std::this_thread::sleep_for(std::chrono::milliseconds(i % 7));
        ASSERT_TRUE(set_state(flowing, GST_STATE_NULL));
        ASSERT_EQ(bus_error(flowing), "") << "cycle " << i;
    };
    for (int i = 0; i < 10; i++) cycle(i); // warm-up: plugin loading, caches
    Memory before;
    const int cycles = 300;
    for (int i = 0; i < cycles; i++) {
        cycle(i);
        if (HasFatalFailure())
            break;
    }
    before.report("300 NULL/PLAYING cycles of two pipelines", 8192);
    gst_object_unref(finite);
    gst_object_unref(flowing);
}

TEST_F(Stress, PropertiesChangedFromAnotherThreadWhilePlaying)
{
    // Every property the elements let change while playing, from a thread of
    // its own, as a user interface would.
    AppPipeline a("cudaupload ! cudagray name=gray ! cudablur name=blur ! cudadownload");
    ASSERT_NE(a.pipe, nullptr);
    GstElement *gray = gst_bin_get_by_name(GST_BIN(a.pipe), "gray");
    GstElement *blur = gst_bin_get_by_name(GST_BIN(a.pipe), "blur");
    const Shape s{ "RGBA", 160, 120 };
    ASSERT_TRUE(set_state(a.pipe, GST_STATE_PLAYING, false));
    std::atomic<bool> stop_push{ false }, stop_change{ false };
    std::atomic<int> changes{ 0 };
    std::thread pusher([&] {
        for (int n = 0; !stop_push && a.push(s, 1, n); n++) {}
    });
    std::thread changer([&] {
        std::mt19937 rng(15);
        const char *borders[] = { "reflect101", "replicate", "reflect", "constant" };
        const char *matrices[] = { "bt601", "bt709", "bt2020" };
        while (!stop_change) {
            std::uniform_real_distribution<double> sigma(0.01, 6.0);
            int ksize = (int)(rng() % 4) ? 0 : (int)(rng() % 20) * 2 + 1;
            g_object_set(blur, "sigma", sigma(rng), "sigma-y", rng() % 3 ? 0.0 : sigma(rng),
                         "kernel-size", ksize, "border-value", (int)(rng() % 256), nullptr);
            gst_util_set_object_arg(G_OBJECT(blur), "border", borders[rng() % 4]);
            gst_util_set_object_arg(G_OBJECT(gray), "matrix", matrices[rng() % 3]);
            changes++;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    });
    // Frames keep coming, whole and of the right size, while settings change.
    Memory before;
    int frames = 0;
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(4);
    while (std::chrono::steady_clock::now() < end) {
        GstSample *sample = a.pull();
        ASSERT_NE(sample, nullptr) << "no frame while properties change: " << bus_error(a.pipe);
        int w = 0, h = 0;
        EXPECT_EQ(plane0(sample, &w, &h).size(), (size_t)(s.w * s.h));
        EXPECT_EQ(w * 1000 + h, s.w * 1000 + s.h);
        gst_sample_unref(sample);
        frames++;
    }
    stop_change = true;
    changer.join();
    // Once the settings stay put, every frame is exactly their result.
    g_object_set(blur, "sigma", 2.0, "sigma-y", 0.0, "kernel-size", 0, nullptr);
    gst_util_set_object_arg(G_OBJECT(blur), "border", "replicate");
    gst_util_set_object_arg(G_OBJECT(gray), "matrix", "bt601");
    // Frames already in flight then (each element holds up to its
    // frames-in-flight, and applies new settings to the frames it takes in
    // after them) come out with the old settings of some element, and one
    // may match by chance (an old matrix that was bt601 too): the output
    // must settle, within what the elements hold, into frames that all have
    // exactly the final settings.
    auto want = reference("gray,blur=sigma=2:border=replicate", s, 1);
    int in_a_row = 0, n = 0;
    for (; n < 60 && in_a_row < 10; n++) {
        GstSample *sample = a.pull();
        ASSERT_NE(sample, nullptr);
        bool same = plane0(sample) == want;
        gst_sample_unref(sample);
        in_a_row = same ? in_a_row + 1 : 0;
    }
    EXPECT_EQ(in_a_row, 10) << "the output never settled into the final settings";
    EXPECT_LE(n - 10, 4 * 4 + 8) << "frames with old settings beyond what the elements hold";
    std::printf("stress: %d property changes from another thread, %d frames meanwhile\n",
                changes.load(), frames);
    EXPECT_GT(changes.load(), 100);
    EXPECT_GT(frames, 10);
    stop_push = true;
    gst_app_src_end_of_stream(GST_APP_SRC(a.src));
    while (GstSample *sample = gst_app_sink_try_pull_sample(GST_APP_SINK(a.sink), GST_SECOND))
        gst_sample_unref(sample); // unblock the pusher
    pusher.join();
    EXPECT_EQ(bus_error(a.pipe), "");
    before.report("properties changed while playing", 16384);
    gst_object_unref(gray);
    gst_object_unref(blur);
}

TEST_F(Stress, CapsChangeEveryFewFrames)
{
    const Shape shapes[] = { { "RGBA", 64, 48 }, { "BGRx", 97, 31 }, { "NV12", 64, 48 },
                             { "RGB", 33, 65 },  { "I420", 95, 33 }, { "GRAY8", 40, 30 },
                             { "BGR", 1, 1 },    { "RGBA", 320, 240 }, { "NV12", 3, 5 } };
    const int n_shapes = sizeof shapes / sizeof shapes[0], per_shape = 3, rounds = 12;
    const int total = n_shapes * per_shape * rounds;
    std::vector<std::vector<uint8_t>> want;
    for (const Shape &s : shapes) want.push_back(reference("gray,blur=sigma=1.5", s, 2));
    AppPipeline a(kFilters);
    ASSERT_NE(a.pipe, nullptr);
    ASSERT_TRUE(set_state(a.pipe, GST_STATE_PLAYING, false));
    Memory before;
    std::thread pusher([&] {
        for (int n = 0; n < total; n++)
            if (!a.push(shapes[n / per_shape % n_shapes], 2, n))
                break;
        gst_app_src_end_of_stream(GST_APP_SRC(a.src));
    });
    int good = 0, n = 0;
    for (; n < total; n++) {
        GstSample *sample = a.pull();
        if (!sample)
            break;
        int k = n / per_shape % n_shapes, w = 0, h = 0;
        auto got = plane0(sample, &w, &h);
        gst_sample_unref(sample);
        EXPECT_EQ(w * 1000 + h, shapes[k].w * 1000 + shapes[k].h) << "frame " << n;
        if (got == want[k]) {
            good++;
        } else {
            ADD_FAILURE() << "frame " << n << " (" << shapes[k].format << " " << shapes[k].w
                          << "x" << shapes[k].h << ") differs from the reference";
        }
    }
    pusher.join();
    EXPECT_EQ(n, total) << bus_error(a.pipe);
    EXPECT_EQ(good, total);
    EXPECT_EQ(bus_error(a.pipe), "");
    std::printf("stress: %d caps changes over %d frames, %d exact\n", total / per_shape - 1, total,
                good);
    before.report("caps changing every 3 frames", 16384);
}

TEST_F(Stress, PipelinesInThreads)
{
    const Shape shapes[] = { { "RGBA", 160, 120 }, { "NV12", 176, 144 }, { "BGRx", 97, 61 },
                             { "I420", 64, 48 } };
    const int threads = 4, frames = 5;
    std::atomic<int> good{ 0 };
    auto round = [&](int cycles) {
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; t++)
            pool.emplace_back([&, t] {
                for (int c = 0; c < cycles; c++)
                    good += run_app_once(shapes[(t + c) % 4], frames, 3);
            });
        for (auto &t : pool) t.join();
    };
    // Warm-up at the same concurrency: the C library's per-thread arenas.
    round(4);
    EXPECT_EQ(good.load(), threads * 4 * frames);
    good = 0;
    Memory before;
    const int cycles = 20;
    round(cycles);
    EXPECT_EQ(good.load(), threads * cycles * frames);
    std::printf("stress: %d pipelines in %d threads, %d of %d frames exact\n", threads * cycles,
                threads, good.load(), threads * cycles * frames);
    before.report("pipelines in threads", 8192);
}
