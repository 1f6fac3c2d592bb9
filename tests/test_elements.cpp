// GStreamer elements through GstHarness: output pixels of every element,
// negotiation failures, properties. Runs on the GPU when there is one
// (CUDA memory between the elements) and on the CPU references otherwise.
#include <algorithm>
#include <climits>
#include <functional>

#include <thread>

#include <unistd.h>

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include "test_utils.h"

namespace {

class Elements : public ::testing::Test {
protected:
    static void SetUpTestSuite() { gst_init(nullptr, nullptr); }
};

GstCaps *raw_caps(const char *format, int w, int h)
{
    return gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, format, "width", G_TYPE_INT,
                               w, "height", G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, 30, 1,
                               nullptr);
}

// A buffer in GStreamer's default layout (rows padded to 4 bytes) filled by
// `fill(plane, x_byte, y)`.
template <typename Fill>
GstBuffer *make_buffer(const char *format, int w, int h, Fill fill)
{
    GstVideoInfo info;
    gst_video_info_set_format(&info, gst_video_format_from_string(format), w, h);
    GstBuffer *buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
    GstVideoFrame frame;
    EXPECT_TRUE(gst_video_frame_map(&frame, &info, buf, GST_MAP_WRITE));
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&frame); p++) {
        auto *d = (uint8_t *)GST_VIDEO_FRAME_PLANE_DATA(&frame, p);
        int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
        int rows = GST_VIDEO_FRAME_COMP_HEIGHT(&frame, p);
        int row_bytes = GST_VIDEO_FRAME_COMP_WIDTH(&frame, p) * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, p);
        if (GST_VIDEO_INFO_FORMAT(&info) == GST_VIDEO_FORMAT_NV12 && p == 1)
            row_bytes = GST_VIDEO_FRAME_COMP_WIDTH(&frame, 1) * 2;
        for (int y = 0; y < rows; y++)
            for (int x = 0; x < row_bytes; x++) d[y * stride + x] = fill(p, x, y);
    }
    gst_video_frame_unmap(&frame);
    GST_BUFFER_PTS(buf) = 0;
    GST_BUFFER_DURATION(buf) = GST_SECOND / 30;
    return buf;
}

// Plane `p` of a pulled buffer, rows packed, using the negotiated caps.
std::vector<uint8_t> plane_bytes(GstHarness *h, GstBuffer *buf, int p)
{
    GstCaps *caps = gst_pad_get_current_caps(h->sinkpad);
    GstVideoInfo info;
    EXPECT_TRUE(gst_video_info_from_caps(&info, caps));
    gst_caps_unref(caps);
    GstVideoFrame frame;
    EXPECT_TRUE(gst_video_frame_map(&frame, &info, buf, GST_MAP_READ));
    auto *d = (const uint8_t *)GST_VIDEO_FRAME_PLANE_DATA(&frame, p);
    int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
    int rows = GST_VIDEO_FRAME_COMP_HEIGHT(&frame, p);
    int row_bytes = GST_VIDEO_FRAME_COMP_WIDTH(&frame, p) * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, p);
    std::vector<uint8_t> out;
    for (int y = 0; y < rows; y++) out.insert(out.end(), d + y * stride, d + y * stride + row_bytes);
    gst_video_frame_unmap(&frame);
    return out;
}

// The expected result, from the core library's CPU reference.
std::vector<uint8_t> reference(const char *chain_text, const char *in_format, int w, int h,
                               std::function<uint8_t(int, int, int)> fill)
{
    cf_format fmt = cf_format_from_name(in_format);
    cf_frame src, dst;
    EXPECT_EQ(cf_frame_alloc(&src, fmt, w, h, CF_MEMORY_HOST), CF_OK);
    const cf_format_info *info = cf_format_get_info(fmt);
    for (int p = 0; p < info->n_planes; p++)
        for (int y = 0; y < cf_format_plane_height(fmt, p, h); y++)
            for (size_t x = 0; x < cf_format_plane_row_bytes(fmt, p, w); x++)
                src.data[p][y * src.pitch[p] + x] = fill(p, (int)x, y);
    cf_chain *chain = cf_chain_parse(chain_text);
    cf_filter *f = cf_chain_get(chain, 0);
    cf_format out_fmt;
    EXPECT_EQ(cf_filter_get_output_format(f, fmt, &out_fmt), CF_OK);
    EXPECT_EQ(cf_frame_alloc(&dst, out_fmt, w, h, CF_MEMORY_HOST), CF_OK);
    EXPECT_EQ(cf_filter_run(f, &src, &dst, nullptr), CF_OK) << cf_last_error();
    std::vector<uint8_t> out;
    size_t row = cf_format_plane_row_bytes(out_fmt, 0, w);
    for (int y = 0; y < h; y++) out.insert(out.end(), dst.data[0] + y * dst.pitch[0], dst.data[0] + y * dst.pitch[0] + row);
    cf_chain_free(&chain);
    cf_frame_free(&src);
    cf_frame_free(&dst);
    return out;
}

uint8_t pattern(int p, int x, int y)
{
    return (uint8_t)(x * 37 + y * 101 + p * 53 + ((x * y) % 7) * 11);
}

// Runs a launch line `desc` (an element or a bin) on one buffer; returns
// plane `plane` of the output. `colorimetry` (e.g. "bt601" or "1:4:0:0")
// goes into the input caps when given.
std::vector<uint8_t> run_one(const char *desc, const char *in_format, const char *out_format,
                             int w, int h, std::string *out_caps = nullptr, int plane = 0,
                             const char *colorimetry = nullptr)
{
    GstHarness *harness = gst_harness_new_parse(desc);
    GstCaps *in_caps = raw_caps(in_format, w, h);
    if (colorimetry)
        gst_caps_set_simple(in_caps, "colorimetry", G_TYPE_STRING, colorimetry, nullptr);
    gst_harness_set_src_caps(harness, in_caps);
    GstCaps *sink = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, out_format, nullptr);
    gst_harness_set_sink_caps(harness, sink);
    EXPECT_EQ(gst_harness_push(harness, make_buffer(in_format, w, h, pattern)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(harness);
    std::vector<uint8_t> bytes;
    if (out) {
        bytes = plane_bytes(harness, out, plane);
        gst_buffer_unref(out);
    }
    if (out_caps) {
        // Caps between the inner elements tell GPU memory from system memory.
        GstElement *gray = gst_bin_get_by_name(GST_BIN(harness->element), "f");
        if (gray) {
            GstPad *pad = gst_element_get_static_pad(gray, "src");
            GstCaps *caps = gst_pad_get_current_caps(pad);
            gchar *s = caps ? gst_caps_to_string(caps) : g_strdup("");
            *out_caps = s;
            g_free(s);
            if (caps) gst_caps_unref(caps);
            gst_object_unref(pad);
            gst_object_unref(gray);
        }
    }
    gst_harness_teardown(harness);
    return bytes;
}

} // namespace

TEST_F(Elements, AllFactoriesExist)
{
    for (const char *name : { "cudaupload", "cudadownload", "cudagray", "cudablur" }) {
        GstElementFactory *f = gst_element_factory_find(name);
        ASSERT_NE(f, nullptr) << name << " not found (GST_PLUGIN_PATH?)";
        // On GPU machines gst-plugins-bad's nvcodec registers its own
        // cudaupload/cudadownload; the registry keeps whichever loaded last.
        std::string plugin = gst_plugin_feature_get_plugin_name(GST_PLUGIN_FEATURE(f));
        if (g_str_has_prefix(name, "cudaupload") || g_str_has_prefix(name, "cudadownload"))
            EXPECT_TRUE(plugin == "cudafilters" || plugin == "nvcodec") << name << ": " << plugin;
        else
            EXPECT_EQ(plugin, "cudafilters") << name;
        std::printf("%s is from plugin %s\n", name, plugin.c_str());
        gst_object_unref(f);
    }
    // The cf names always give ours, whatever nvcodec registered.
    for (const char *name : { "cfcudaupload", "cfcudadownload" }) {
        GstElementFactory *f = gst_element_factory_find(name);
        ASSERT_NE(f, nullptr) << name;
        EXPECT_STREQ(gst_plugin_feature_get_plugin_name(GST_PLUGIN_FEATURE(f)), "cudafilters") << name;
        GstElement *e = gst_element_factory_create(f, nullptr);
        ASSERT_NE(e, nullptr) << name;
        EXPECT_STREQ(G_OBJECT_TYPE_NAME(e), g_str_has_suffix(name, "upload") ? "GstCfCudaUpload"
                                                                            : "GstCfCudaDownload");
        gst_object_unref(e);
        gst_object_unref(f);
    }
}

TEST_F(Elements, GrayStridedRgbaMatchesReference)
{
    // Width 5: GStreamer pads GRAY8 rows to 8 bytes, so strides differ from widths.
    auto got = run_one("cudagray", "RGBA", "GRAY8", 5, 3);
    EXPECT_EQ(got, reference("gray", "RGBA", 5, 3, pattern));
}

TEST_F(Elements, GrayOnEveryInputFormat)
{
    for (const char *fmt : { "RGBA", "BGRA", "RGBx", "BGRx", "RGB", "BGR", "NV12", "I420", "GRAY8" }) {
        auto got = run_one("cudagray", fmt, "GRAY8", 7, 5);
        EXPECT_EQ(got, reference("gray", fmt, 7, 5, pattern)) << fmt;
    }
}

TEST_F(Elements, BlurPropertiesReachTheKernel)
{
    auto got = run_one("cudablur sigma=1.7 border=replicate", "GRAY8", "GRAY8", 21, 9);
    EXPECT_EQ(got, reference("blur=sigma=1.7:border=replicate", "GRAY8", 21, 9, pattern));
    auto rgba = run_one("cudablur sigma=3 kernel-size=7", "RGBA", "RGBA", 13, 6);
    EXPECT_EQ(rgba, reference("blur=sigma=3:kernel-size=7", "RGBA", 13, 6, pattern));
}

// cpu-threads sets the CPU path's threads (the GPU path ignores it): the
// same pixels at 1 and 3 threads, and those of the forced CPU reference.
TEST_F(Elements, CpuThreadsPropertyKeepsTheResult)
{
    GstElement *blur = gst_element_factory_make("cudablur", nullptr);
    ASSERT_NE(blur, nullptr);
    guint threads = 99;
    g_object_get(blur, "cpu-threads", &threads, nullptr);
    EXPECT_EQ(threads, 0u);
    g_object_set(blur, "cpu-threads", 3u, nullptr);
    g_object_get(blur, "cpu-threads", &threads, nullptr);
    EXPECT_EQ(threads, 3u);
    gst_object_unref(blur);
    auto one = run_one("cudablur sigma=2.5 cpu-threads=1", "RGBA", "RGBA", 101, 37);
    auto three = run_one("cudablur sigma=2.5 cpu-threads=3", "RGBA", "RGBA", 101, 37);
    cf_cpu_level level = cf_cpu_get_level();
    ASSERT_EQ(cf_cpu_set_level(CF_CPU_REFERENCE), CF_OK);
    auto want = reference("blur=sigma=2.5", "RGBA", 101, 37, pattern);
    ASSERT_EQ(cf_cpu_set_level(level), CF_OK);
    EXPECT_EQ(one, want);
    EXPECT_EQ(three, want);
}

TEST_F(Elements, UploadFilterDownloadChain)
{
    std::string caps;
    // With nvcodec installed, "cudaupload" names nvcodec's element until our
    // plugin is loaded in the process; load it first so the chain is ours.
    gst_object_unref(gst_element_factory_make("cudagray", nullptr));
    auto got = run_one("cudaupload ! cudagray name=f ! cudablur sigma=2 ! cudadownload", "BGRx",
                       "GRAY8", 33, 17, &caps);
    auto gray = reference("gray", "BGRx", 33, 17, pattern);
    // Expected: blur of the gray reference.
    cf_frame g{};
    g.format = CF_FORMAT_GRAY8;
    std::vector<uint8_t> gbuf = gray;
    g = cftest::wrap_gray(gbuf, 33, 17);
    cf_filter *blur = cf_filter_new("blur");
    ASSERT_EQ(cf_filter_set_double(blur, "sigma", 2.0), CF_OK);
    std::vector<uint8_t> expect(33 * 17);
    cf_frame e = cftest::wrap_gray(expect, 33, 17);
    ASSERT_EQ(cf_filter_run(blur, &g, &e, nullptr), CF_OK);
    cf_filter_free(&blur);
    EXPECT_EQ(got, expect);
    if (cftest::gpu_available())
        EXPECT_NE(caps.find("memory:CUDAMemory"), std::string::npos) << caps;
    else
        EXPECT_EQ(caps.find("memory:CUDAMemory"), std::string::npos) << caps;
    std::printf("cudagray src caps: %s\n", caps.c_str());
}

TEST_F(Elements, UnsupportedFormatIsRefusedAtNegotiation)
{
    GstHarness *h = gst_harness_new("cudagray");
    gst_harness_set_src_caps(h, raw_caps("YUY2", 8, 8));
    GstFlowReturn ret = gst_harness_push(h, make_buffer("YUY2", 8, 8, pattern));
    EXPECT_EQ(ret, GST_FLOW_NOT_NEGOTIATED);
    gst_harness_teardown(h);

    GstHarness *b = gst_harness_new("cudablur");
    gst_harness_set_src_caps(b, raw_caps("RGBA", 8, 8));
    gst_harness_set_sink_caps(b, gst_caps_from_string("video/x-raw,format=GRAY8")); // blur keeps format
    EXPECT_EQ(gst_harness_push(b, make_buffer("RGBA", 8, 8, pattern)), GST_FLOW_NOT_NEGOTIATED);
    gst_harness_teardown(b);
}

TEST_F(Elements, PropertiesHaveDescriptorRangesAndDefaults)
{
    GstElement *blur = gst_element_factory_make("cudablur", nullptr);
    ASSERT_NE(blur, nullptr);
    GParamSpec *sigma = g_object_class_find_property(G_OBJECT_GET_CLASS(blur), "sigma");
    ASSERT_NE(sigma, nullptr);
    EXPECT_EQ(G_PARAM_SPEC_DOUBLE(sigma)->default_value, 1.0);
    EXPECT_GE(G_PARAM_SPEC_DOUBLE(sigma)->maximum, 64.0);
    ASSERT_NE(g_object_class_find_property(G_OBJECT_GET_CLASS(blur), "kernel-size"), nullptr);
    ASSERT_NE(g_object_class_find_property(G_OBJECT_GET_CLASS(blur), "cuda-device-id"), nullptr);
    gst_util_set_object_arg(G_OBJECT(blur), "border", "reflect");
    gint border = -1;
    g_object_get(blur, "border", &border, nullptr);
    EXPECT_EQ(border, 2);
    gdouble s = 0;
    g_object_set(blur, "sigma", 4.0, nullptr);
    g_object_get(blur, "sigma", &s, nullptr);
    EXPECT_EQ(s, 4.0);
    gst_object_unref(blur);
    GstElement *gray = gst_element_factory_make("cudagray", nullptr);
    ASSERT_NE(g_object_class_find_property(G_OBJECT_GET_CLASS(gray), "matrix"), nullptr);
    gint dev = 0;
    g_object_get(gray, "cuda-device-id", &dev, nullptr);
    EXPECT_EQ(dev, -1);
    gst_object_unref(gray);
}

TEST_F(Elements, GrayKeepsTheFormatWhenDownstreamNeedsIt)
{
    // NV12 consumer: Y as it was, chroma neutral.
    auto y = run_one("cudagray", "NV12", "NV12", 9, 5);
    std::vector<uint8_t> expect_y;
    for (int r = 0; r < 5; r++)
        for (int x = 0; x < 9; x++) expect_y.push_back(pattern(0, x, r));
    EXPECT_EQ(y, expect_y);
    auto uv = run_one("cudagray", "NV12", "NV12", 9, 5, nullptr, 1);
    EXPECT_EQ(uv, std::vector<uint8_t>(uv.size(), 128));
    EXPECT_EQ(uv.size(), 5u * 2 * 3); // 5x3 chroma pairs of a 9x5 frame
    // RGBA consumer: R=G=B=luma, alpha kept.
    auto rgba = run_one("cudagray", "RGBA", "RGBA", 4, 2);
    auto luma = reference("gray", "RGBA", 4, 2, pattern);
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(rgba[4 * i], luma[i]);
        EXPECT_EQ(rgba[4 * i + 1], luma[i]);
        EXPECT_EQ(rgba[4 * i + 2], luma[i]);
        EXPECT_EQ(rgba[4 * i + 3], pattern(0, 4 * (i % 4) + 3, i / 4));
    }
}

TEST_F(Elements, GrayFollowsTheCapsRange)
{
    // Limited range (bt601 caps): Y expanded; full range (1:4:0:0 = 0-255,
    // BT.601 matrix): Y as it is.
    auto limited = run_one("cudagray", "I420", "GRAY8", 8, 4, nullptr, 0, "bt601");
    EXPECT_EQ(limited, reference("gray=range=limited", "I420", 8, 4, pattern));
    auto full = run_one("cudagray", "I420", "GRAY8", 8, 4, nullptr, 0, "1:4:0:0");
    EXPECT_EQ(full, reference("gray=range=full", "I420", 8, 4, pattern));
    EXPECT_NE(limited, full);
    GstElement *gray = gst_element_factory_make("cudagray", nullptr);
    EXPECT_EQ(g_object_class_find_property(G_OBJECT_GET_CLASS(gray), "range"), nullptr)
        << "range comes from the caps, it is no property";
    gst_object_unref(gray);
}

TEST_F(Elements, TenAndSixteenBitFormats)
{
    for (const char *fmt : { "GRAY16_LE", "P010_10LE", "I420_10LE" }) {
        auto blurred = run_one("cudablur sigma=1.5 border=constant border-value=300", fmt, fmt, 11, 6);
        EXPECT_EQ(blurred, reference("blur=sigma=1.5:border=constant:border-value=300", fmt, 11, 6,
                                     [&](int p, int x, int y) {
                                         // P010 keeps samples in the high bits of each word.
                                         uint8_t v = pattern(p, x, y);
                                         return std::string(fmt) == "P010_10LE" && x % 2 == 0 ? (uint8_t)(v & 0xc0) : v;
                                     }))
            << fmt;
        auto gray = run_one("cudagray", fmt, "GRAY8", 11, 6);
        EXPECT_EQ(gray.size(), 66u) << fmt;
    }
}

TEST_F(Elements, GrayPrefersGray8WhateverOrderDownstreamLists)
{
    GstHarness *h = gst_harness_new("cudagray");
    gst_harness_set_src_caps(h, raw_caps("I420", 8, 4));
    gst_harness_set_sink_caps_str(h, "video/x-raw,format={ I420, GRAY8 }");
    ASSERT_EQ(gst_harness_push(h, make_buffer("I420", 8, 4, pattern)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(h);
    ASSERT_NE(out, nullptr);
    GstCaps *caps = gst_pad_get_current_caps(h->sinkpad);
    EXPECT_STREQ(gst_structure_get_string(gst_caps_get_structure(caps, 0), "format"), "GRAY8");
    gst_caps_unref(caps);
    gst_buffer_unref(out);
    gst_harness_teardown(h);
}

TEST_F(Elements, RenegotiatesMidStream)
{
    // Size changes mid-stream: pools are replaced, output matches each size.
    GstHarness *h = gst_harness_new_parse("cudaupload ! cudagray ! cudablur sigma=1.5 ! cudadownload");
    gst_harness_set_sink_caps_str(h, "video/x-raw,format=GRAY8");
    struct Size {
        int w, h;
    } sizes[] = { { 640, 360 }, { 1921, 1081 }, { 320, 240 }, { 640, 360 } };
    for (Size s : sizes) {
        SCOPED_TRACE(std::to_string(s.w) + "x" + std::to_string(s.h));
        gst_harness_set_src_caps(h, raw_caps("RGBA", s.w, s.h));
        for (int i = 0; i < 2; i++) {
            ASSERT_EQ(gst_harness_push(h, make_buffer("RGBA", s.w, s.h, pattern)), GST_FLOW_OK);
            GstBuffer *out = gst_harness_pull(h);
            ASSERT_NE(out, nullptr);
            auto got = plane_bytes(h, out, 0);
            gst_buffer_unref(out);
            ASSERT_EQ(got.size(), (size_t)s.w * s.h);
            if (i == 0) {
                auto gray = reference("gray", "RGBA", s.w, s.h, pattern);
                std::vector<uint8_t> expect(gray.size());
                cf_frame g = cftest::wrap_gray(gray, s.w, s.h), e = cftest::wrap_gray(expect, s.w, s.h);
                cf_filter *blur = cf_filter_new("blur");
                ASSERT_EQ(cf_filter_set_double(blur, "sigma", 1.5), CF_OK);
                ASSERT_EQ(cf_filter_run(blur, &g, &e, nullptr), CF_OK);
                cf_filter_free(&blur);
                EXPECT_EQ(got, expect);
            }
        }
    }
    gst_harness_teardown(h);
}

TEST_F(Elements, PassthroughWhenNothingWouldChange)
{
    // gray on GRAY8 and blur with one-tap kernels hand the very buffer on;
    // raising sigma while playing switches the blur back on.
    GstHarness *h = gst_harness_new_parse("cudablur name=f sigma=0.01");
    gst_harness_set_src_caps(h, raw_caps("GRAY8", 16, 8));
    GstBuffer *in = make_buffer("GRAY8", 16, 8, pattern);
    gst_buffer_ref(in);
    ASSERT_EQ(gst_harness_push(h, in), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(h);
    EXPECT_EQ(out, in) << "expected passthrough";
    gst_buffer_unref(out);
    gst_buffer_unref(in);
    GstElement *blur = gst_bin_get_by_name(GST_BIN(h->element), "f");
    g_object_set(blur, "sigma", 2.0, nullptr);
    gst_object_unref(blur);
    in = make_buffer("GRAY8", 16, 8, pattern);
    gst_buffer_ref(in);
    ASSERT_EQ(gst_harness_push(h, in), GST_FLOW_OK);
    out = gst_harness_pull(h);
    EXPECT_NE(out, in);
    EXPECT_EQ(plane_bytes(h, out, 0), reference("blur=sigma=2", "GRAY8", 16, 8, pattern));
    gst_buffer_unref(out);
    gst_buffer_unref(in);
    gst_harness_teardown(h);

    GstHarness *g = gst_harness_new("cudagray");
    gst_harness_set_src_caps(g, raw_caps("GRAY8", 16, 8));
    in = make_buffer("GRAY8", 16, 8, pattern);
    gst_buffer_ref(in);
    ASSERT_EQ(gst_harness_push(g, in), GST_FLOW_OK);
    out = gst_harness_pull(g);
    EXPECT_EQ(out, in);
    gst_buffer_unref(out);
    gst_buffer_unref(in);
    gst_harness_teardown(g);
}

TEST_F(Elements, InterlacedAndVariableRateCaps)
{
    // blur mixes neighbouring rows, so interlaced input is refused at
    // negotiation; gray works per pixel and takes it. framerate=0/1 is fine.
    GstHarness *b = gst_harness_new("cudablur");
    GstBus *bus = gst_bus_new(); // the harness gives the element none
    gst_element_set_bus(b->element, bus);
    GstCaps *caps = raw_caps("GRAY8", 16, 8);
    gst_caps_set_simple(caps, "interlace-mode", G_TYPE_STRING, "interleaved", nullptr);
    gst_harness_set_src_caps(b, gst_caps_copy(caps));
    EXPECT_EQ(gst_harness_push(b, make_buffer("GRAY8", 16, 8, pattern)), GST_FLOW_NOT_NEGOTIATED);
    // GstBaseTransform tries the caps again at the next buffer: the
    // application hears of the refusal once.
    EXPECT_EQ(gst_harness_push(b, make_buffer("GRAY8", 16, 8, pattern)), GST_FLOW_NOT_NEGOTIATED);
    int refusals = 0;
    for (GstMessage *m; (m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)); gst_message_unref(m)) {
        GError *e = nullptr;
        gst_message_parse_error(m, &e, nullptr);
        refusals += e && strstr(e->message, "cannot filter interlaced video") != nullptr;
        g_clear_error(&e);
    }
    gst_object_unref(bus);
    EXPECT_EQ(refusals, 1);
    gst_harness_teardown(b);
    GstHarness *g = gst_harness_new("cudagray");
    gst_caps_set_simple(caps, "format", G_TYPE_STRING, "RGBA", nullptr);
    gst_harness_set_src_caps(g, caps);
    EXPECT_EQ(gst_harness_push(g, make_buffer("RGBA", 16, 8, pattern)), GST_FLOW_OK);
    gst_harness_teardown(g);
    GstHarness *v = gst_harness_new("cudablur");
    gst_harness_set_src_caps_str(v, "video/x-raw,format=GRAY8,width=16,height=8,framerate=0/1");
    EXPECT_EQ(gst_harness_push(v, make_buffer("GRAY8", 16, 8, pattern)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(v);
    EXPECT_NE(out, nullptr);
    if (out) gst_buffer_unref(out);
    gst_harness_teardown(v);
}

namespace {

// Plays `p` until EOS or an error, for at most `timeout`, then sets it to
// NULL (the caller still owns it). Returns "" at EOS, else the error's
// message or "timeout".
std::string play_until_done(GstElement *p, GstClockTime timeout = 30 * GST_SECOND)
{
    gst_element_set_state(p, GST_STATE_PLAYING);
    GstBus *bus = gst_element_get_bus(p);
    GstMessage *m = gst_bus_timed_pop_filtered(bus, timeout, (GstMessageType)(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    std::string result = m ? "" : "timeout";
    if (m && GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
        GError *e = nullptr;
        gst_message_parse_error(m, &e, nullptr);
        result = e->message;
        g_error_free(e);
    }
    if (m) gst_message_unref(m);
    gst_object_unref(bus);
    gst_element_set_state(p, GST_STATE_NULL);
    return result;
}

// Parses `description` and plays it as play_until_done() does, then frees
// it. Returns "" at EOS, else the error's message, "timeout", or why the
// description did not parse.
std::string play_launch(const std::string &description, GstClockTime timeout = 30 * GST_SECOND)
{
    GError *error = nullptr;
    GstElement *p = gst_parse_launch(description.c_str(), &error);
    std::string result = p ? play_until_done(p, timeout)
                           : std::string("cannot parse: ") + (error ? error->message : "?");
    g_clear_error(&error);
    if (p) gst_object_unref(p);
    return result;
}

// Plays pipeline `p` (its appsink named "sink") to EOS and returns every
// buffer's bytes, or with `packed`, plane 0 of every frame, rows packed,
// read through the negotiated caps (so strides and padding do not count).
// Frees the pipeline.
std::vector<uint8_t> run_to_eos(GstElement *p, bool packed = false)
{
    if (!p) return {};
    GstElement *sink = gst_bin_get_by_name(GST_BIN(p), "sink");
    g_object_set(sink, "sync", FALSE, nullptr);
    gst_element_set_state(p, GST_STATE_PLAYING);
    std::vector<uint8_t> bytes;
    GstSample *s;
    while ((s = gst_app_sink_pull_sample(GST_APP_SINK(sink)))) {
        GstBuffer *b = gst_sample_get_buffer(s);
        if (packed) {
            GstVideoInfo info;
            GstVideoFrame frame;
            EXPECT_TRUE(gst_video_info_from_caps(&info, gst_sample_get_caps(s)));
            EXPECT_TRUE(gst_video_frame_map(&frame, &info, b, GST_MAP_READ));
            auto *d = (const uint8_t *)GST_VIDEO_FRAME_PLANE_DATA(&frame, 0);
            int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
            int row = GST_VIDEO_FRAME_COMP_WIDTH(&frame, 0) * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, 0);
            for (int y = 0; y < GST_VIDEO_FRAME_HEIGHT(&frame); y++)
                bytes.insert(bytes.end(), d + y * stride, d + y * stride + row);
            gst_video_frame_unmap(&frame);
        } else {
            GstMapInfo map;
            gst_buffer_map(b, &map, GST_MAP_READ);
            bytes.insert(bytes.end(), map.data, map.data + map.size);
            gst_buffer_unmap(b, &map);
        }
        gst_sample_unref(s);
    }
    GstBus *bus = gst_element_get_bus(p);
    GstMessage *err = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    EXPECT_EQ(err, nullptr) << "pipeline error";
    if (err) gst_message_unref(err);
    gst_object_unref(bus);
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(sink);
    gst_object_unref(p);
    return bytes;
}

// One of our elements by GType name: with nvcodec installed, the factory
// names cudaupload/cudadownload may resolve to nvcodec's elements.
GstElement *ours(const char *type_name)
{
    gst_object_unref(gst_element_factory_make("cudagray", nullptr)); // loads our plugin
    GType type = g_type_from_name(type_name);
    EXPECT_NE(type, (GType)0) << type_name;
    return GST_ELEMENT(g_object_new(type, nullptr));
}

// videotestsrc ! RGBA 320x240 ! `upload` (default: ours) ! cudagray name=g
// ! cudablur sigma=2 ! our cudadownload ! appsink, 6 frames. `probe`, if
// given, is added to cudagray's sink pad.
std::vector<uint8_t> run_our_chain(GstElement *upload = nullptr, GstPadProbeCallback probe = nullptr)
{
    GstElement *p = gst_pipeline_new(nullptr);
    GstElement *src = gst_element_factory_make("videotestsrc", nullptr);
    g_object_set(src, "num-buffers", 6, nullptr);
    gst_util_set_object_arg(G_OBJECT(src), "pattern", "smpte");
    GstElement *caps = gst_element_factory_make("capsfilter", nullptr);
    GstCaps *c = gst_caps_from_string("video/x-raw,format=RGBA,width=320,height=240");
    g_object_set(caps, "caps", c, nullptr);
    gst_caps_unref(c);
    GstElement *blur = gst_element_factory_make("cudablur", nullptr);
    g_object_set(blur, "sigma", 2.0, nullptr);
    GstElement *gray = gst_element_factory_make("cudagray", "g");
    if (probe) {
        GstPad *pad = gst_element_get_static_pad(gray, "sink");
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, probe, nullptr, nullptr);
        gst_object_unref(pad);
    }
    GstElement *chain[] = { src, caps, upload ? upload : ours("GstCfCudaUpload"), gray,
                            blur, ours("GstCfCudaDownload"), gst_element_factory_make("appsink", "sink") };
    for (GstElement *e : chain) gst_bin_add(GST_BIN(p), e);
    for (size_t i = 0; i + 1 < sizeof chain / sizeof chain[0]; i++)
        EXPECT_TRUE(gst_element_link(chain[i], chain[i + 1]));
    return run_to_eos(p);
}

} // namespace

TEST_F(Elements, EightPipelinesInParallelMatchOne)
{
    auto alone = run_our_chain();
    ASSERT_EQ(alone.size(), 6u * 320 * 240);
    std::vector<std::vector<uint8_t>> results(8);
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; i++)
        threads.emplace_back([&, i] { results[i] = run_our_chain(); });
    for (auto &t : threads) t.join();
    for (int i = 0; i < 8; i++) EXPECT_EQ(results[i], alone) << "pipeline " << i;
}

TEST_F(Elements, HundredCreateTeardownCyclesLeakNothing)
{
    // Warm up (plugin loading, GStreamer's caches, and the malloc arenas of
    // the streaming and element task threads, which settle only after a few
    // dozen cycles when earlier tests ran many pipelines in parallel), then
    // measure host RSS over four batches of 40 cycles and, with a GPU, free
    // device memory across all 160. Under load the arenas can still grow
    // by a few MiB in one batch; a leak grows every batch: of 26 KiB a
    // cycle or more, by 1 MiB at least. So the quietest batch must grow by
    // less than 1 MiB.
    for (int i = 0; i < 30; i++) run_our_chain();
    size_t free0 = 0, free1 = 0, total = 0;
    bool gpu = cftest::gpu_available() && cf_device_get_memory(&free0, &total) == CF_OK;
    long least = LONG_MAX;
    std::string batches;
    for (int b = 0; b < 4; b++) {
        long rss0 = cftest::rss_kib();
        for (int i = 0; i < 40; i++) run_our_chain();
        long grew = cftest::rss_kib() - rss0;
        least = std::min(least, grew);
        batches += (b ? ", " : "") + std::to_string(grew);
    }
    std::printf("host RSS growth by batch of 40 cycles: %s KiB\n", batches.c_str());
    EXPECT_LT(least, 1024) << "host memory grew in every batch of 40 cycles: " << batches
                           << " KiB";
    if (gpu) {
        ASSERT_EQ(cf_device_get_memory(&free1, &total), CF_OK);
        std::printf("device free %zu -> %zu bytes over 160 cycles\n", free0, free1);
        EXPECT_GE(free1 + (4u << 20), free0) << "device memory shrank by " << (free0 - free1);
    }
}

TEST_F(Elements, BadCudaDeviceIdFailsClearly)
{
    // With a GPU an id that does not exist stops the element at start with
    // an error; without one the id is moot and the CPU path runs.
    std::string error_message =
        play_launch("videotestsrc num-buffers=2 ! video/x-raw,format=RGBA,width=64,height=48 ! "
                    "cudaupload ! cudagray cuda-device-id=99 ! cudadownload ! fakesink",
                    10 * GST_SECOND);
    if (cftest::gpu_available()) {
        EXPECT_NE(error_message.find("cuda-device-id 99"), std::string::npos) << error_message;
        std::printf("error: %s\n", error_message.c_str());
    } else {
        EXPECT_EQ(error_message, "");
    }
}

TEST_F(Elements, GpuOutOfMemoryMidStreamIsACleanError)
{
    // Frames flow at 64x64; then all but about 200 MiB of the GPU is taken
    // and the caps grow to 4096x4096 RGBA, whose pools (10 frames of 64 MiB)
    // cannot fit: the push fails with an error saying the GPU is out of
    // memory, without a crash or a hang, and the element lets go cleanly.
    CF_REQUIRE_GPU();
    GstHarness *h = gst_harness_new_parse("cudaupload ! cudablur sigma=2 ! cudadownload");
    GstBus *bus = gst_bus_new();
    gst_element_set_bus(h->element, bus);
    gst_harness_set_src_caps(h, raw_caps("RGBA", 64, 64));
    ASSERT_EQ(gst_harness_push(h, make_buffer("RGBA", 64, 64, pattern)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(h);
    ASSERT_NE(out, nullptr);
    gst_buffer_unref(out);

    std::vector<void *> hog;
    size_t free_bytes = 0, total = 0;
    const size_t keep = (size_t)200 << 20;
    while (cf_device_get_memory(&free_bytes, &total) == CF_OK && free_bytes > keep + (16u << 20)) {
        void *p = nullptr;
        size_t chunk = std::min(free_bytes - keep, (size_t)4 << 30);
        if (cf_device_alloc(&p, chunk) != CF_OK)
            break;
        hog.push_back(p);
    }
    ASSERT_EQ(cf_device_get_memory(&free_bytes, &total), CF_OK);
    std::printf("GPU memory taken: %.0f MiB free of %.0f MiB\n", free_bytes / 1048576.0,
                total / 1048576.0);
    gst_harness_set_src_caps(h, raw_caps("RGBA", 4096, 4096));
    GstFlowReturn ret = gst_harness_push(h, make_buffer("RGBA", 4096, 4096, pattern));
    for (void *p : hog) cf_device_free(p);
    EXPECT_NE(ret, GST_FLOW_OK);
    GstMessage *msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    ASSERT_NE(msg, nullptr) << "no error posted";
    GError *err = nullptr;
    gst_message_parse_error(msg, &err, nullptr);
    std::printf("error: %s\n", err->message);
    EXPECT_NE(std::string(err->message).find("out of memory"), std::string::npos) << err->message;
    g_error_free(err);
    gst_message_unref(msg);
    gst_element_set_bus(h->element, nullptr);
    gst_object_unref(bus);
    gst_harness_teardown(h);
}

TEST_F(Elements, FlushingSeekShowsNothingFromBeforeIt)
{
    GError *error = nullptr;
    GstElement *p = gst_parse_launch(
        "videotestsrc num-buffers=300 pattern=ball ! video/x-raw,format=RGBA,width=160,height=120,"
        "framerate=30/1 ! cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! "
        "appsink name=sink sync=false max-buffers=4",
        &error);
    ASSERT_NE(p, nullptr);
    GstElement *sink = gst_bin_get_by_name(GST_BIN(p), "sink");
    gst_element_set_state(p, GST_STATE_PLAYING);
    for (int i = 0; i < 10; i++) {
        GstSample *s = gst_app_sink_pull_sample(GST_APP_SINK(sink));
        ASSERT_NE(s, nullptr);
        gst_sample_unref(s);
    }
    ASSERT_TRUE(gst_element_seek_simple(p, GST_FORMAT_TIME,
                                        (GstSeekFlags)(GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE),
                                        5 * GST_SECOND));
    int after = 0;
    GstClockTime first = GST_CLOCK_TIME_NONE;
    GstSample *s;
    while ((s = gst_app_sink_pull_sample(GST_APP_SINK(sink)))) {
        GstClockTime pts = GST_BUFFER_PTS(gst_sample_get_buffer(s));
        ASSERT_GE(pts, 5 * GST_SECOND) << "a pre-seek frame came out after the seek";
        if (after++ == 0) first = pts;
        gst_sample_unref(s);
    }
    EXPECT_GT(after, 0);
    EXPECT_EQ(first, 5 * GST_SECOND); // the accurate seek's target frame comes first
    // Latency queries are answered through the elements.
    GstQuery *q = gst_query_new_latency();
    EXPECT_TRUE(gst_element_query(p, q));
    gst_query_unref(q);
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(sink);
    gst_object_unref(p);
}

TEST_F(Elements, NvDecoderFramesStayInCudaMemory)
{
    // gst-plugins-bad's nvh264dec straight into our filters: every buffer
    // our cudagray receives is GstCudaMemory, and the filters run on it.
    GstElementFactory *dec = gst_element_factory_find("nvh264dec");
    if (!cftest::gpu_available() || !dec)
        GTEST_SKIP() << "needs a GPU and gst-plugins-bad's nvh264dec";
    gst_object_unref(dec);
    char path[] = "/tmp/cf-test-XXXXXX.mp4";
    int fd = mkstemps(path, 4);
    ASSERT_GE(fd, 0);
    close(fd);
    std::string encode = std::string("videotestsrc num-buffers=30 pattern=ball ! "
                                     "video/x-raw,format=I420,width=320,height=240 ! "
                                     "openh264enc ! h264parse ! mp4mux ! filesink location=") + path;
    ASSERT_EQ(play_launch(encode), "");

    std::string decode = std::string("filesrc location=") + path +
                         " ! qtdemux ! h264parse ! nvh264dec ! cudagray name=g ! cudablur sigma=2 ! "
                         "cudadownload ! appsink name=sink";
    GError *error = nullptr;
    GstElement *p = gst_parse_launch(decode.c_str(), &error);
    ASSERT_NE(p, nullptr);
    GstElement *g = gst_bin_get_by_name(GST_BIN(p), "g");
    GstPad *pad = gst_element_get_static_pad(g, "sink");
    static int cuda_buffers, other_buffers;
    cuda_buffers = other_buffers = 0;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER,
                      [](GstPad *, GstPadProbeInfo *info, gpointer) -> GstPadProbeReturn {
                          GstBuffer *b = GST_PAD_PROBE_INFO_BUFFER(info);
                          GstMemory *m = gst_buffer_peek_memory(b, 0);
                          bool cuda = m && m->allocator &&
                                      g_strcmp0(m->allocator->mem_type, "gst.cuda.memory") == 0;
                          (cuda ? cuda_buffers : other_buffers)++;
                          return GST_PAD_PROBE_OK;
                      },
                      nullptr, nullptr);
    GstElement *sink = gst_bin_get_by_name(GST_BIN(p), "sink");
    g_object_set(sink, "sync", FALSE, nullptr);
    gst_element_set_state(p, GST_STATE_PLAYING);
    int frames = 0;
    GstSample *s;
    while ((s = gst_app_sink_pull_sample(GST_APP_SINK(sink)))) {
        frames++;
        gst_sample_unref(s);
    }
    GstCaps *caps = gst_pad_get_current_caps(pad);
    gchar *str = caps ? gst_caps_to_string(caps) : g_strdup("(none)");
    EXPECT_NE(std::string(str).find("memory:CUDAMemory"), std::string::npos) << str;
    std::printf("cudagray sink caps: %s\n", str);
    g_free(str);
    if (caps) gst_caps_unref(caps);
    EXPECT_EQ(frames, 30);
    EXPECT_EQ(cuda_buffers, 30);
    EXPECT_EQ(other_buffers, 0);
    // One CUDA context, shared through "gst.cuda.context": the decoder's and
    // our filter's are the same object.
    GstElement *decoder = nullptr;
    GstIterator *it = gst_bin_iterate_elements(GST_BIN(p));
    GValue item = G_VALUE_INIT;
    while (gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
        GstElement *e = GST_ELEMENT(g_value_get_object(&item));
        if (g_str_has_prefix(GST_OBJECT_NAME(e), "nvh264dec")) decoder = GST_ELEMENT(gst_object_ref(e));
        g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(it);
    ASSERT_NE(decoder, nullptr);
    GstContext *ours_ctx = gst_element_get_context(g, "gst.cuda.context");
    GstContext *dec_ctx = gst_element_get_context(decoder, "gst.cuda.context");
    ASSERT_NE(ours_ctx, nullptr);
    ASSERT_NE(dec_ctx, nullptr);
    // The GstContext holds the GstCudaContext in a field of that type.
    auto cuda_context_of = [](GstContext *c) -> gpointer {
        gpointer found = nullptr;
        gst_structure_foreach(gst_context_get_structure(c),
                              [](GQuark, const GValue *v, gpointer out) -> gboolean {
                                  if (G_VALUE_HOLDS(v, g_type_from_name("GstCudaContext")))
                                      *(gpointer *)out = g_value_get_object(v);
                                  return TRUE;
                              },
                              &found);
        return found;
    };
    gpointer a = cuda_context_of(ours_ctx), b = cuda_context_of(dec_ctx);
    EXPECT_NE(a, nullptr);
    EXPECT_EQ(a, b) << "the decoder and cudagray use different CUDA contexts";
    gst_context_unref(ours_ctx);
    gst_context_unref(dec_ctx);
    gst_object_unref(decoder);
    gst_object_unref(pad);
    gst_object_unref(g);
    gst_object_unref(sink);
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(p);
    unlink(path);
}

TEST_F(Elements, FiltersTakeCudaMemoryAfterNvcodecUpload)
{
    // gst-plugins-bad's cudaupload prefers passthrough: unless our filters
    // ask for CUDA memory only, it hands them system memory. Every buffer
    // cudagray receives must be GstCudaMemory, and the result must equal
    // the all-ours chain's.
    if (!cftest::gpu_available() || !gst_plugin_load_by_name("nvcodec"))
        GTEST_SKIP() << "needs a GPU and gst-plugins-bad's nvcodec plugin";
    GType type = g_type_from_name("GstCudaUpload");
    if (!type) GTEST_SKIP() << "nvcodec has no cudaupload here";
    auto expected = run_our_chain();
    static int cuda_buffers, other_buffers;
    cuda_buffers = other_buffers = 0;
    auto got = run_our_chain(GST_ELEMENT(g_object_new(type, nullptr)),
                             [](GstPad *, GstPadProbeInfo *info, gpointer) -> GstPadProbeReturn {
                                 GstMemory *m = gst_buffer_peek_memory(GST_PAD_PROBE_INFO_BUFFER(info), 0);
                                 bool cuda = m && m->allocator &&
                                             g_strcmp0(m->allocator->mem_type, "gst.cuda.memory") == 0;
                                 (cuda ? cuda_buffers : other_buffers)++;
                                 return GST_PAD_PROBE_OK;
                             });
    EXPECT_EQ(cuda_buffers, 6);
    EXPECT_EQ(other_buffers, 0);
    ASSERT_EQ(got.size(), 6u * 320 * 240);
    EXPECT_TRUE(got == expected);
}

TEST_F(Elements, FramesInFlightKeepTheirOrderAndContent)
{
    // Our cudaupload and cudadownload with frames-in-flight=3 keep several
    // frames in flight when upstream is not live, and none when it is:
    // either way every frame comes out, in order, equal to what went in, and
    // EOS waits for them.
    for (bool live : { false, true }) {
        auto chain = [&](bool through_gpu) {
            GstElement *p = gst_pipeline_new(nullptr);
            GstElement *src = gst_element_factory_make("videotestsrc", nullptr);
            g_object_set(src, "num-buffers", 40, "is-live", live, nullptr);
            gst_util_set_object_arg(G_OBJECT(src), "pattern", "ball");
            GstElement *caps = gst_element_factory_make("capsfilter", nullptr);
            GstCaps *c = gst_caps_from_string("video/x-raw,format=RGBA,width=352,height=288,framerate=300/1");
            g_object_set(caps, "caps", c, nullptr);
            gst_caps_unref(c);
            std::vector<GstElement *> chain = { src, caps };
            if (through_gpu) {
                for (const char *type : { "GstCfCudaUpload", "GstCfCudaDownload" }) {
                    GstElement *e = ours(type);
                    EXPECT_NE(g_object_class_find_property(G_OBJECT_GET_CLASS(e), "frames-in-flight"), nullptr);
                    g_object_set(e, "frames-in-flight", 3u, nullptr);
                    chain.push_back(e);
                }
            }
            chain.push_back(gst_element_factory_make("appsink", "sink"));
            for (GstElement *e : chain) gst_bin_add(GST_BIN(p), e);
            for (size_t i = 0; i + 1 < chain.size(); i++) EXPECT_TRUE(gst_element_link(chain[i], chain[i + 1]));
            return run_to_eos(p);
        };
        auto direct = chain(false), round_trip = chain(true);
        ASSERT_EQ(direct.size(), 40u * 352 * 288 * 4) << "live " << live;
        EXPECT_TRUE(round_trip == direct) << "live " << live;
    }
}

TEST_F(Elements, EachFrameComesOutBeforeTheNextGoesIn)
{
    // An application that pushes a frame and waits for its result before
    // pushing the next (appsrc is not live) gets every result at once with
    // the default frames-in-flight.
    GstElement *p = gst_pipeline_new(nullptr);
    GstElement *src = gst_element_factory_make("appsrc", nullptr);
    GstCaps *caps = raw_caps("RGBA", 64, 48);
    g_object_set(src, "caps", caps, "format", GST_FORMAT_TIME, nullptr);
    gst_caps_unref(caps);
    GstElement *sink = gst_element_factory_make("appsink", nullptr);
    g_object_set(sink, "sync", FALSE, nullptr);
    GstElement *chain[] = { src, ours("GstCfCudaUpload"), gst_element_factory_make("cudagray", nullptr),
                            ours("GstCfCudaDownload"), sink };
    for (GstElement *e : chain) gst_bin_add(GST_BIN(p), e);
    for (size_t i = 0; i + 1 < sizeof chain / sizeof chain[0]; i++) ASSERT_TRUE(gst_element_link(chain[i], chain[i + 1]));
    gst_element_set_state(p, GST_STATE_PLAYING);
    for (int i = 0; i < 3; i++) {
        GstBuffer *b = make_buffer("RGBA", 64, 48, pattern);
        GST_BUFFER_PTS(b) = i * GST_SECOND / 30;
        ASSERT_EQ(gst_app_src_push_buffer(GST_APP_SRC(src), b), GST_FLOW_OK);
        GstSample *s = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 10 * GST_SECOND);
        ASSERT_NE(s, nullptr) << "frame " << i << " did not come out before the next went in";
        EXPECT_EQ(GST_BUFFER_PTS(gst_sample_get_buffer(s)), (GstClockTime)(i * GST_SECOND / 30));
        gst_sample_unref(s);
    }
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(p);
}

TEST_F(Elements, TeeWithASystemMemoryBranchNegotiates)
{
    // A filter asks for CUDA memory only when its peer is a transform that
    // would pick passthrough; behind a tee, whose answer intersects every
    // branch's, that would fail a branch that needs system memory.
    EXPECT_EQ(play_launch("videotestsrc num-buffers=5 ! video/x-raw,format=RGBA,width=64,height=48 ! "
                          "cudaupload ! tee name=t ! queue ! cudagray ! fakesink t. ! queue ! "
                          "video/x-raw ! fakesink"),
              "");
}

TEST_F(Elements, CudaDeviceIdPicksTheGpu)
{
    int n = 0;
    cf_device_count(&n);
    if (n < 2)
        GTEST_SKIP() << "needs two GPUs (this machine has " << n << ")";
    for (int dev = 0; dev < 2; dev++) {
        std::string launch = "videotestsrc num-buffers=3 ! video/x-raw,format=RGBA,width=64,height=48 ! "
                             "cfcudaupload cuda-device-id=" + std::to_string(dev) +
                             " ! cudagray cuda-device-id=" + std::to_string(dev) +
                             " ! cfcudadownload cuda-device-id=" + std::to_string(dev) + " ! fakesink";
        GError *error = nullptr;
        GstElement *p = gst_parse_launch(launch.c_str(), &error);
        ASSERT_NE(p, nullptr);
        gst_element_set_state(p, GST_STATE_PLAYING);
        GstBus *bus = gst_element_get_bus(p);
        std::string info;
        GstMessage *m;
        while ((m = gst_bus_timed_pop_filtered(bus, 10 * GST_SECOND,
                                               (GstMessageType)(GST_MESSAGE_INFO | GST_MESSAGE_EOS | GST_MESSAGE_ERROR)))) {
            GstMessageType type = GST_MESSAGE_TYPE(m);
            if (type == GST_MESSAGE_INFO) {
                GError *err = nullptr;
                gchar *dbg = nullptr;
                gst_message_parse_info(m, &err, &dbg);
                if (dbg) info += dbg;
                g_clear_error(&err);
                g_free(dbg);
            }
            gst_message_unref(m);
            if (type != GST_MESSAGE_INFO) {
                EXPECT_EQ(type, GST_MESSAGE_EOS);
                break;
            }
        }
        EXPECT_NE(info.find("CUDA device " + std::to_string(dev)), std::string::npos) << info;
        gst_object_unref(bus);
        gst_element_set_state(p, GST_STATE_NULL);
        gst_object_unref(p);
    }
}

namespace {

// Pushes a frame, reports 1 s of lateness upstream, pushes a frame due
// before that; returns whether that late frame came out.
bool late_frame_comes_out(bool qos)
{
    GstHarness *h = gst_harness_new("cudablur");
    g_object_set(h->element, "qos", qos, nullptr);
    gst_harness_set_src_caps(h, raw_caps("GRAY8", 16, 8));
    EXPECT_EQ(gst_harness_push(h, make_buffer("GRAY8", 16, 8, pattern)), GST_FLOW_OK);
    gst_buffer_unref(gst_harness_pull(h));
    EXPECT_TRUE(gst_harness_push_upstream_event(
        h, gst_event_new_qos(GST_QOS_TYPE_UNDERFLOW, 2.0, GST_SECOND, 0)));
    GstBuffer *late = make_buffer("GRAY8", 16, 8, pattern);
    GST_BUFFER_PTS(late) = GST_SECOND / 2;
    EXPECT_EQ(gst_harness_push(h, late), GST_FLOW_OK);
    // Frames leave from the element's own task; EOS waits for them, so
    // after it whatever was processed is in the harness.
    EXPECT_TRUE(gst_harness_push_event(h, gst_event_new_eos()));
    GstBuffer *out = gst_harness_try_pull(h);
    if (out) gst_buffer_unref(out);
    gst_harness_teardown(h);
    return out != nullptr;
}

} // namespace

TEST_F(Elements, QosDropsFramesThatWouldBeLate)
{
    // QoS is on by default, as for GStreamer's video filters: a frame due
    // before the lateness downstream reported is not processed.
    GstElement *blur = gst_element_factory_make("cudablur", nullptr);
    gboolean qos = FALSE;
    g_object_get(blur, "qos", &qos, nullptr);
    EXPECT_TRUE(qos);
    gst_object_unref(blur);
    EXPECT_FALSE(late_frame_comes_out(true));
    EXPECT_TRUE(late_frame_comes_out(false)) << "without QoS the frame is processed";
}

namespace {

// Counts buffers carrying our pending-work meta at a pad.
struct MetaCount {
    int with = 0, without = 0;
    static GstPadProbeReturn probe(GstPad *, GstPadProbeInfo *info, gpointer data)
    {
        auto *c = (MetaCount *)data;
        GType api = g_type_from_name("GstCfPendingMetaAPI");
        bool has = api && gst_buffer_get_meta(GST_PAD_PROBE_INFO_BUFFER(info), api);
        (has ? c->with : c->without)++;
        return GST_PAD_PROBE_OK;
    }
};

// 12 frames of videotestsrc (RGBA 320x240) through `chain` into an appsink:
// each entry a GType name of ours ("GstCfCudaUpload", since nvcodec may
// own the factory name), a factory with properties ("cudablur sigma=2"), or
// caps ("video/x-raw(memory:CUDAMemory)"). counts[i] counts pending metas
// leaving chain[i]. Returns plane 0 of every output, rows packed, read
// through the negotiated caps (so strides and padding do not matter).
std::vector<uint8_t> run_counting(const std::vector<std::string> &chain, std::vector<MetaCount> &counts)
{
    GstElement *p = gst_pipeline_new(nullptr);
    GstElement *prev = gst_parse_bin_from_description(
        "videotestsrc num-buffers=12 pattern=ball ! video/x-raw,format=RGBA,width=320,height=240", TRUE, nullptr);
    gst_bin_add(GST_BIN(p), prev);
    counts.assign(chain.size(), MetaCount());
    for (size_t i = 0; i < chain.size(); i++) {
        const std::string &c = chain[i];
        GstElement *e;
        if (c.rfind("Gst", 0) == 0) {
            e = ours(c.c_str());
        } else if (c.rfind("video/", 0) == 0) {
            e = gst_element_factory_make("capsfilter", nullptr);
            GstCaps *caps = gst_caps_from_string(c.c_str());
            g_object_set(e, "caps", caps, nullptr);
            gst_caps_unref(caps);
        } else {
            e = gst_parse_launch(c.c_str(), nullptr);
        }
        EXPECT_NE(e, nullptr) << c;
        gst_bin_add(GST_BIN(p), e);
        EXPECT_TRUE(gst_element_link(prev, e)) << c;
        GstPad *pad = gst_element_get_static_pad(e, "src");
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, MetaCount::probe, &counts[i], nullptr);
        gst_object_unref(pad);
        prev = e;
    }
    GstElement *sink = gst_element_factory_make("appsink", "sink");
    gst_bin_add(GST_BIN(p), sink);
    EXPECT_TRUE(gst_element_link(prev, sink));
    return run_to_eos(p, true);
}

} // namespace

TEST_F(Elements, BuffersLeaveEarlyOnlyTowardsOurElements)
{
    // Between our elements a frame goes on as soon as its GPU work is
    // queued, carrying the event of that work; towards anything else
    // (cudadownload's system memory, appsink) it leaves finished. The
    // results are the same either way.
    const size_t frame = 320 * 240;
    std::vector<MetaCount> counts;
    auto direct = run_counting({ "cudagray", "cudablur sigma=2", "video/x-raw" }, counts);
    ASSERT_EQ(direct.size(), 12 * frame);
    auto chain = run_counting({ "GstCfCudaUpload", "cudagray", "cudablur sigma=2", "GstCfCudaDownload" }, counts);
    EXPECT_TRUE(chain == direct);
    if (!cftest::gpu_available()) {
        for (auto &c : counts) EXPECT_EQ(c.with, 0) << "no GPU: nothing is pending";
        return;
    }
    EXPECT_EQ(counts[0].with, 0) << "cudaupload pushes from its task, once its copy is done";
    // Between filters the hand-off depends on the ALLOCATION answer each got
    // (on the H200, 2026-12-01, cudagray -> cudablur did not take it while
    // cudablur -> cudadownload did): the results above are the same either
    // way; the last filter before the download must hand off early.
    EXPECT_EQ(counts[2].with, 12) << "cudablur -> cudadownload";
    EXPECT_EQ(counts[3].with, 0) << "cudadownload -> appsink: finished system memory";
    // CUDA memory into a foreign element: finished, no meta.
    auto gray = run_counting({ "cudagray", "video/x-raw" }, counts);
    auto cuda_out = run_counting({ "GstCfCudaUpload", "cudagray", "video/x-raw(memory:CUDAMemory)" }, counts);
    ASSERT_EQ(gray.size(), 12 * frame);
    EXPECT_TRUE(cuda_out == gray);
    EXPECT_EQ(counts[1].with, 0) << "cudagray -> appsink";
    EXPECT_EQ(counts[2].with, 0) << "capsfilter -> appsink";
    // A filter that is an identity (sigma=0.01) passes its input through;
    // towards a foreign element it waits for the work still pending on it.
    auto through = run_counting({ "GstCfCudaUpload", "cudagray", "cudablur sigma=0.01",
                                  "video/x-raw(memory:CUDAMemory)" }, counts);
    EXPECT_TRUE(through == cuda_out);
    EXPECT_EQ(counts[3].with, 0) << "capsfilter -> appsink";
}

// The first ERROR or EOS message of `p` within `seconds`, as text ("EOS",
// the error's debug string, or "timeout").
static std::string end_of(GstElement *p, int seconds)
{
    GstBus *bus = gst_element_get_bus(p);
    GstMessage *m = gst_bus_timed_pop_filtered(bus, seconds * GST_SECOND,
                                               (GstMessageType)(GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
    gst_object_unref(bus);
    if (!m) return "timeout";
    std::string what = "EOS";
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
        GError *e = nullptr;
        gchar *debug = nullptr;
        gst_message_parse_error(m, &e, &debug);
        what = std::string("error: ") + e->message + " " + (debug ? debug : "");
        g_error_free(e);
        g_free(debug);
    }
    gst_message_unref(m);
    return what;
}

TEST_F(Elements, AnUnlinkedBranchOfATeeIsNoError)
{
    // As with any transform: tee takes NOT_LINKED from one branch while
    // another one runs, so the stream goes on to EOS.
    for (const char *element : { "cudagray", "cudablur sigma=2" }) {
        std::string desc = std::string("videotestsrc num-buffers=60 ! video/x-raw,format=RGBA,width=64,height=48 ! "
                                       "tee name=t  t. ! queue ! fakesink sync=false  t. ! ") + element;
        GError *error = nullptr;
        GstElement *p = gst_parse_launch(desc.c_str(), &error);
        ASSERT_NE(p, nullptr) << error->message;
        gst_element_set_state(p, GST_STATE_PLAYING);
        EXPECT_EQ(end_of(p, 10), "EOS") << element;
        gst_element_set_state(p, GST_STATE_NULL);
        gst_object_unref(p);
    }
}

TEST_F(Elements, PushingGoesOnWhenTheOutputIsLinkedAgain)
{
    // NOT_LINKED lasts until the pad is linked again (RECONFIGURE), as for
    // a queue: the frames after it reach the new peer.
    GError *error = nullptr;
    GstElement *p = gst_parse_launch(
        "videotestsrc is-live=true ! video/x-raw,format=RGBA,width=64,height=48,framerate=100/1 ! "
        "tee allow-not-linked=true ! cudablur name=e ! fakesink name=s sync=false",
        &error);
    ASSERT_NE(p, nullptr) << error->message;
    GstElement *e = gst_bin_get_by_name(GST_BIN(p), "e"), *s = gst_bin_get_by_name(GST_BIN(p), "s");
    GstPad *src = gst_element_get_static_pad(e, "src"), *sink = gst_element_get_static_pad(s, "sink");
    std::atomic<int> arrived{ 0 };
    gst_pad_add_probe(
        sink, GST_PAD_PROBE_TYPE_BUFFER,
        [](GstPad *, GstPadProbeInfo *, gpointer n) {
            (*(std::atomic<int> *)n)++;
            return GST_PAD_PROBE_OK;
        },
        &arrived, nullptr);
    gst_element_set_state(p, GST_STATE_PLAYING);
    for (int i = 0; i < 100 && arrived < 5; i++) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_GE(arrived, 5);
    ASSERT_TRUE(gst_pad_unlink(src, sink));
    std::this_thread::sleep_for(std::chrono::milliseconds(200)); // frames meet NOT_LINKED
    int before = arrived;
    ASSERT_EQ(gst_pad_link(src, sink), GST_PAD_LINK_OK);
    for (int i = 0; i < 100 && arrived < before + 5; i++) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_GE(arrived, before + 5) << "nothing reached the sink after the link was made again";
    GstBus *bus = gst_element_get_bus(p);
    GstMessage *m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    EXPECT_EQ(m, nullptr) << "an error was posted for NOT_LINKED";
    if (m) gst_message_unref(m);
    gst_object_unref(bus);
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(src);
    gst_object_unref(sink);
    gst_object_unref(e);
    gst_object_unref(s);
    gst_object_unref(p);
}

TEST_F(Elements, ASourceRendersIntoThePinnedPoolWeOffer)
{
    // GstBaseSrc's default decide_allocation gives the offered pool the
    // answer's first allocation param as its allocator (the default system
    // memory when there is none): the answer must name the pinned allocator,
    // or the upload stages every pageable frame on the host.
    if (!cftest::gpu_available()) GTEST_SKIP() << "needs a GPU (the pinned pool needs a CUDA context)";
    GError *error = nullptr;
    GstElement *p = gst_parse_launch(
        "videotestsrc num-buffers=20 ! video/x-raw,format=RGBA,width=320,height=240 ! "
        "cfcudaupload name=up ! fakesink sync=false", // ours, whichever "cudaupload" is
        &error);
    ASSERT_NE(p, nullptr) << error->message;
    GstElement *up = gst_bin_get_by_name(GST_BIN(p), "up");
    GstPad *sink = gst_element_get_static_pad(up, "sink");
    static std::atomic<int> pinned, other;
    pinned = other = 0;
    gst_pad_add_probe(
        sink, GST_PAD_PROBE_TYPE_BUFFER,
        [](GstPad *, GstPadProbeInfo *info, gpointer) {
            GstMemory *mem = gst_buffer_peek_memory(GST_PAD_PROBE_INFO_BUFFER(info), 0);
            (gst_memory_is_type(mem, "cudafilters.PinnedMemory") ? pinned : other)++;
            return GST_PAD_PROBE_OK;
        },
        nullptr, nullptr);
    gst_element_set_state(p, GST_STATE_PLAYING);
    EXPECT_EQ(end_of(p, 20), "EOS");
    EXPECT_EQ(pinned, 20);
    EXPECT_EQ(other, 0) << "videotestsrc rendered into pageable memory";
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(sink);
    gst_object_unref(up);
    gst_object_unref(p);
}

TEST_F(Elements, PositionFollowsTheFramesPushed)
{
    // A POSITION query on one of our elements says where its output got to
    // (frames leave from the element's task, where GstBaseTransform does not
    // see them).
    GstHarness *h = gst_harness_new("cudablur");
    gst_harness_set_src_caps(h, raw_caps("GRAY8", 16, 8));
    for (int i = 0; i < 3; i++) {
        GstBuffer *b = make_buffer("GRAY8", 16, 8, pattern);
        GST_BUFFER_PTS(b) = i * GST_SECOND / 30;
        ASSERT_EQ(gst_harness_push(h, b), GST_FLOW_OK);
        gst_buffer_unref(gst_harness_pull(h));
    }
    gint64 pos = -1;
    ASSERT_TRUE(gst_element_query_position(h->element, GST_FORMAT_TIME, &pos));
    EXPECT_EQ(pos, (gint64)(2 * GST_SECOND / 30 + GST_SECOND / 30));
    gst_harness_teardown(h);
}
