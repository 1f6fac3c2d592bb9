// The cfconvert, cfscale and cfconvertscale elements through GstHarness:
// factory names next to nvcodec's, pixels against the core's CPU reference,
// sizes from the properties and from the downstream caps, colorimetry from
// the caps, format and size changed at once. Runs on the GPU when there is
// one (the kernels are bit-identical to the reference), on the CPU
// otherwise; the CUDA-memory cases skip, saying so, without a GPU.
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include "test_utils.h"

namespace {

class ConvertScaleElements : public ::testing::Test {
protected:
    static void SetUpTestSuite() { gst_init(nullptr, nullptr); }
};

uint8_t pattern(int p, int x, int y)
{
    return (uint8_t)(x * 37 + y * 101 + p * 53 + ((x * y) % 7) * 11);
}

// A frame of `format` filled with the pattern, as a GstBuffer in
// GStreamer's default layout and as a core host frame (same pixels).
struct Picture {
    GstVideoInfo info;
    GstBuffer *buffer = nullptr;
    cf_frame frame{};
    Picture(const char *format, int w, int h, const char *colorimetry = nullptr)
    {
        gst_video_info_set_format(&info, gst_video_format_from_string(format), w, h);
        if (colorimetry) gst_video_colorimetry_from_string(&info.colorimetry, colorimetry);
        buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
        cf_format fmt = cf_format_from_name(format);
        EXPECT_EQ(cf_frame_alloc(&frame, fmt, w, h, CF_MEMORY_HOST), CF_OK);
        GstVideoFrame vf;
        EXPECT_TRUE(gst_video_frame_map(&vf, &info, buffer, GST_MAP_WRITE));
        for (int p = 0; p < cf_format_get_info(fmt)->n_planes; p++)
            for (int y = 0; y < cf_format_plane_height(fmt, p, h); y++)
                for (size_t x = 0; x < cf_format_plane_row_bytes(fmt, p, w); x++) {
                    uint8_t v = pattern(p, (int)x, y);
                    ((uint8_t *)GST_VIDEO_FRAME_PLANE_DATA(&vf, p))[y * GST_VIDEO_FRAME_PLANE_STRIDE(&vf, p) + x] = v;
                    frame.data[p][y * frame.pitch[p] + x] = v;
                }
        gst_video_frame_unmap(&vf);
        GST_BUFFER_PTS(buffer) = 0;
        GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
    }
    ~Picture() { cf_frame_free(&frame); }
};

// Pushes the picture through `launch` with `sink_caps` downstream; returns
// the output's caps and every plane, rows packed.
std::vector<uint8_t> run(const char *launch, Picture &pic, const char *sink_caps, GstVideoInfo *out)
{
    GstHarness *h = gst_harness_new_parse(launch);
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&pic.info));
    gst_harness_set_sink_caps_str(h, sink_caps);
    EXPECT_EQ(gst_harness_push(h, gst_buffer_ref(pic.buffer)), GST_FLOW_OK);
    GstBuffer *buf = gst_harness_pull(h);
    std::vector<uint8_t> bytes;
    if (buf) {
        GstCaps *caps = gst_pad_get_current_caps(h->sinkpad);
        EXPECT_TRUE(gst_video_info_from_caps(out, caps));
        gst_caps_unref(caps);
        GstVideoFrame vf;
        EXPECT_TRUE(gst_video_frame_map(&vf, out, buf, GST_MAP_READ));
        cf_format fmt = cf_format_from_name(gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(out)));
        for (int p = 0; p < cf_format_get_info(fmt)->n_planes; p++) {
            auto *d = (const uint8_t *)GST_VIDEO_FRAME_PLANE_DATA(&vf, p);
            size_t row = cf_format_plane_row_bytes(fmt, p, GST_VIDEO_INFO_WIDTH(out));
            for (int y = 0; y < cf_format_plane_height(fmt, p, GST_VIDEO_INFO_HEIGHT(out)); y++)
                bytes.insert(bytes.end(), d + y * GST_VIDEO_FRAME_PLANE_STRIDE(&vf, p),
                             d + y * GST_VIDEO_FRAME_PLANE_STRIDE(&vf, p) + row);
        }
        gst_video_frame_unmap(&vf);
        gst_buffer_unref(buf);
    }
    gst_harness_teardown(h);
    return bytes;
}

// The core's CPU reference of `chain` on the picture, to `format` at w x h.
std::vector<uint8_t> reference(const char *chain_text, Picture &pic, cf_format format, int w, int h)
{
    cf_chain *chain = cf_chain_parse(chain_text);
    EXPECT_NE(chain, nullptr) << cf_last_error();
    cf_frame dst{};
    EXPECT_EQ(cf_frame_alloc(&dst, format, w, h, CF_MEMORY_HOST), CF_OK);
    EXPECT_EQ(cf_filter_run(cf_chain_get(chain, 0), &pic.frame, &dst, nullptr), CF_OK)
        << cf_last_error();
    std::vector<uint8_t> out = cftest::packed_pixels(dst);
    cf_frame_free(&dst);
    cf_chain_free(&chain);
    return out;
}

// scale then convert on the CPU (convertscale's definition): `scale` to
// w x h in the picture's format, then `convert` to `format`.
std::vector<uint8_t> reference_scale_convert(const char *scale, const char *convert, Picture &pic,
                                             cf_format format, int w, int h)
{
    cf_chain *sc = cf_chain_parse(scale), *cv = cf_chain_parse(convert);
    EXPECT_TRUE(sc && cv) << cf_last_error();
    cf_frame mid{}, dst{};
    EXPECT_EQ(cf_frame_alloc(&mid, pic.frame.format, w, h, CF_MEMORY_HOST), CF_OK);
    EXPECT_EQ(cf_frame_alloc(&dst, format, w, h, CF_MEMORY_HOST), CF_OK);
    EXPECT_EQ(cf_filter_run(cf_chain_get(sc, 0), &pic.frame, &mid, nullptr), CF_OK)
        << cf_last_error();
    EXPECT_EQ(cf_filter_run(cf_chain_get(cv, 0), &mid, &dst, nullptr), CF_OK) << cf_last_error();
    std::vector<uint8_t> out = cftest::packed_pixels(dst);
    cf_frame_free(&mid);
    cf_frame_free(&dst);
    cf_chain_free(&sc);
    cf_chain_free(&cv);
    return out;
}

} // namespace

// nvcodec registers cudaconvert, cudascale and cudaconvertscale where its
// kernels compile: ours are cfconvert, cfscale and cfconvertscale, so both
// stay reachable.
TEST_F(ConvertScaleElements, FactoryNamesLeaveNvcodecsAlone)
{
    for (const char *name : { "cfconvert", "cfscale", "cfconvertscale" }) {
        GstElementFactory *f = gst_element_factory_find(name);
        ASSERT_NE(f, nullptr) << name;
        EXPECT_STREQ(gst_plugin_feature_get_plugin_name(GST_PLUGIN_FEATURE(f)), "cudafilters");
        gst_object_unref(f);
    }
    for (const char *name : { "cudaconvert", "cudascale", "cudaconvertscale" }) {
        GstElementFactory *f = gst_element_factory_find(name);
        if (!f) continue;
        EXPECT_STRNE(gst_plugin_feature_get_plugin_name(GST_PLUGIN_FEATURE(f)), "cudafilters") << name;
        gst_object_unref(f);
    }
}

TEST_F(ConvertScaleElements, ConvertNv12ToRgbaFollowsTheCaps)
{
    // Odd size: GStreamer pads rows, chroma planes round up.
    Picture pic("NV12", 37, 21, "1:3:5:1"); // full range, BT.709
    GstVideoInfo out;
    auto got = run("cfconvert", pic, "video/x-raw,format=RGBA", &out);
    EXPECT_EQ(GST_VIDEO_INFO_FORMAT(&out), GST_VIDEO_FORMAT_RGBA);
    // gst_video_info_set_format's 4:2:0 siting is "jpeg": centred.
    EXPECT_EQ(got, reference("convert=format=rgba:matrix=bt709:range=full:chroma-site=center", pic,
                             CF_FORMAT_RGBA, 37, 21));
    // Without a colorimetry the caps default (BT.601 limited for SD).
    Picture sd("I420", 16, 8);
    auto got2 = run("cfconvert", sd, "video/x-raw,format=BGRx", &out);
    EXPECT_EQ(got2, reference("convert=format=bgrx:matrix=bt601:range=limited:chroma-site=center", sd,
                              CF_FORMAT_BGRX, 16, 8));
}

TEST_F(ConvertScaleElements, ConvertRgbaToNv12UsesTheOutputColorimetry)
{
    Picture pic("RGBA", 20, 10);
    GstVideoInfo out;
    auto got = run("cfconvert", pic, "video/x-raw,format=NV12,colorimetry=bt709,chroma-site=mpeg2", &out);
    EXPECT_EQ(GST_VIDEO_INFO_FORMAT(&out), GST_VIDEO_FORMAT_NV12);
    EXPECT_EQ(got, reference("convert=format=nv12:matrix=bt709:range=limited", pic,
                             CF_FORMAT_NV12, 20, 10));
}

TEST_F(ConvertScaleElements, ScaleTakesItsSizeFromPropertiesOrDownstream)
{
    Picture pic("RGBA", 64, 36);
    GstVideoInfo out;
    auto got = run("cfscale w=20 h=10 method=bicubic", pic, "video/x-raw", &out);
    EXPECT_EQ(GST_VIDEO_INFO_WIDTH(&out), 20);
    EXPECT_EQ(GST_VIDEO_INFO_HEIGHT(&out), 10);
    EXPECT_EQ(got, reference("scale=method=bicubic", pic, CF_FORMAT_RGBA, 20, 10));
    auto down = run("cfscale method=area", pic, "video/x-raw,width=32,height=18", &out);
    EXPECT_EQ(GST_VIDEO_INFO_WIDTH(&out), 32);
    EXPECT_EQ(down, reference("scale=method=area", pic, CF_FORMAT_RGBA, 32, 18));
    auto same = run("cfscale", pic, "video/x-raw", &out);
    EXPECT_EQ(GST_VIDEO_INFO_WIDTH(&out), 64);
    EXPECT_EQ(GST_VIDEO_INFO_HEIGHT(&out), 36);
    EXPECT_EQ(same, reference("scale", pic, CF_FORMAT_RGBA, 64, 36));
}

TEST_F(ConvertScaleElements, ScaleNv12EveryPlaneAtItsSize)
{
    Picture pic("NV12", 33, 17);
    GstVideoInfo out;
    auto got = run("cfscale", pic, "video/x-raw,width=15,height=9", &out);
    EXPECT_EQ(GST_VIDEO_INFO_FORMAT(&out), GST_VIDEO_FORMAT_NV12);
    EXPECT_EQ(got, reference("scale", pic, CF_FORMAT_NV12, 15, 9));
}

// The input size and format change mid-stream under fixed downstream caps
// (1x1 among them, both ways): each buffer comes out at the downstream size,
// equal to the reference of its own input.
TEST_F(ConvertScaleElements, ScaleRenegotiatesMidStream)
{
    GstHarness *h = gst_harness_new_parse("cfscale method=area");
    gst_harness_set_sink_caps_str(h, "video/x-raw,width=5,height=3");
    struct Step {
        const char *format;
        int w, h;
    } steps[] = { { "GRAY8", 64, 48 }, { "GRAY8", 1, 1 }, { "NV12", 33, 17 },
                  { "GRAY16_LE", 7, 5 }, { "I420_10LE", 1, 1 }, { "GRAY8", 64, 48 } };
    for (Step s : steps) {
        SCOPED_TRACE(std::string(s.format) + " " + std::to_string(s.w) + "x" + std::to_string(s.h));
        Picture pic(s.format, s.w, s.h);
        gst_harness_set_src_caps(h, gst_video_info_to_caps(&pic.info));
        ASSERT_EQ(gst_harness_push(h, gst_buffer_ref(pic.buffer)), GST_FLOW_OK);
        GstBuffer *buf = gst_harness_pull(h);
        ASSERT_NE(buf, nullptr);
        GstCaps *caps = gst_pad_get_current_caps(h->sinkpad);
        GstVideoInfo out;
        ASSERT_TRUE(gst_video_info_from_caps(&out, caps));
        gst_caps_unref(caps);
        EXPECT_EQ(GST_VIDEO_INFO_WIDTH(&out), 5);
        EXPECT_EQ(GST_VIDEO_INFO_HEIGHT(&out), 3);
        EXPECT_STREQ(gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(&out)), s.format);
        GstVideoFrame vf;
        ASSERT_TRUE(gst_video_frame_map(&vf, &out, buf, GST_MAP_READ));
        cf_format fmt = cf_format_from_name(s.format);
        std::vector<uint8_t> got;
        for (int p = 0; p < cf_format_get_info(fmt)->n_planes; p++) {
            auto *d = (const uint8_t *)GST_VIDEO_FRAME_PLANE_DATA(&vf, p);
            size_t row = cf_format_plane_row_bytes(fmt, p, 5);
            for (int y = 0; y < cf_format_plane_height(fmt, p, 3); y++)
                got.insert(got.end(), d + y * GST_VIDEO_FRAME_PLANE_STRIDE(&vf, p),
                           d + y * GST_VIDEO_FRAME_PLANE_STRIDE(&vf, p) + row);
        }
        gst_video_frame_unmap(&vf);
        gst_buffer_unref(buf);
        EXPECT_EQ(got, reference("scale=method=area", pic, fmt, 5, 3));
    }
    gst_harness_teardown(h);
}

// w and h set: that is the output size; a downstream that only takes
// another one fails to negotiate (it got 5x5 silently, against w=3 h=3).
// Where only one is set, the other follows downstream.
TEST_F(ConvertScaleElements, ScalePropertiesWinOverDownstream)
{
    Picture pic("GRAY8", 8, 8);
    GstHarness *h = gst_harness_new_parse("cfscale w=3 h=3");
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&pic.info));
    gst_harness_set_sink_caps_str(h, "video/x-raw,width=5,height=5");
    EXPECT_EQ(gst_harness_push(h, gst_buffer_ref(pic.buffer)), GST_FLOW_NOT_NEGOTIATED);
    gst_harness_teardown(h);
    GstVideoInfo out;
    auto got = run("cfscale w=3", pic, "video/x-raw,height=[4,6]", &out);
    EXPECT_EQ(GST_VIDEO_INFO_WIDTH(&out), 3);
    EXPECT_EQ(GST_VIDEO_INFO_HEIGHT(&out), 4);
    EXPECT_EQ(got, reference("scale", pic, CF_FORMAT_GRAY8, 3, 4));
    auto both = run("cfscale w=3 h=2", pic, "video/x-raw", &out);
    EXPECT_EQ(GST_VIDEO_INFO_WIDTH(&out), 3);
    EXPECT_EQ(GST_VIDEO_INFO_HEIGHT(&out), 2);
    EXPECT_EQ(both, reference("scale", pic, CF_FORMAT_GRAY8, 3, 2));
}

// The output keeps the picture's display aspect ratio through the pixel
// aspect ratio, as videoscale does: same proportions keep the input's, a
// squashed size or a crop changes it (out PAR = in PAR x region w/h x
// out h/w).
TEST_F(ConvertScaleElements, ScaleKeepsTheDisplayAspectRatio)
{
    struct Case {
        const char *launch, *sink_caps;
        int par_n, par_d;
    } cases[] = {
        { "cfscale w=320 h=240", "video/x-raw", 16, 15 },
        { "cfscale", "video/x-raw,width=320,height=100", 4, 9 },
        { "cfscale w=320 h=240 crop-w=320", "video/x-raw", 8, 15 },
    };
    Picture pic("I420", 640, 480);
    pic.info.par_n = 16;
    pic.info.par_d = 15;
    for (const Case &c : cases) {
        SCOPED_TRACE(c.launch);
        GstVideoInfo out;
        EXPECT_FALSE(run(c.launch, pic, c.sink_caps, &out).empty()) << "no output";
        EXPECT_EQ(GST_VIDEO_INFO_PAR_N(&out), c.par_n);
        EXPECT_EQ(GST_VIDEO_INFO_PAR_D(&out), c.par_d);
    }
}

// cfconvertscale: NV12 to RGBA and 64x36 to 32x18 in one element, the
// size from downstream, the colour from the input's caps; equal to scale
// then convert on the CPU.
TEST_F(ConvertScaleElements, ConvertScaleChangesFormatAndSizeAtOnce)
{
    Picture pic("NV12", 64, 36, "1:3:5:1"); // full range, BT.709
    GstVideoInfo out;
    auto got = run("cfconvertscale method=area", pic, "video/x-raw,format=RGBA,width=32,height=18",
                   &out);
    EXPECT_EQ(GST_VIDEO_INFO_FORMAT(&out), GST_VIDEO_FORMAT_RGBA);
    EXPECT_EQ(GST_VIDEO_INFO_WIDTH(&out), 32);
    EXPECT_EQ(GST_VIDEO_INFO_HEIGHT(&out), 18);
    EXPECT_EQ(got, reference_scale_convert(
                       "scale=method=area",
                       "convert=format=rgba:matrix=bt709:range=full:chroma-site=center", pic,
                       CF_FORMAT_RGBA, 32, 18));
}

// Size and format from the properties (format= is the preferred output),
// the YUV side's colour from the output caps.
TEST_F(ConvertScaleElements, ConvertScalePropertiesGiveSizeAndFormat)
{
    Picture pic("RGBA", 41, 23);
    GstVideoInfo out;
    auto got = run("cfconvertscale w=20 h=11 format=nv12 method=bicubic", pic,
                   "video/x-raw,colorimetry=bt709,chroma-site=mpeg2", &out);
    EXPECT_EQ(GST_VIDEO_INFO_FORMAT(&out), GST_VIDEO_FORMAT_NV12);
    EXPECT_EQ(GST_VIDEO_INFO_WIDTH(&out), 20);
    EXPECT_EQ(GST_VIDEO_INFO_HEIGHT(&out), 11);
    EXPECT_EQ(got, reference_scale_convert("scale=method=bicubic",
                                           "convert=format=nv12:matrix=bt709:range=limited", pic,
                                           CF_FORMAT_NV12, 20, 11));
    // A downstream that takes neither the size nor the format fails to link.
    GstHarness *h = gst_harness_new_parse("cfconvertscale w=20 h=11");
    gst_harness_set_src_caps(h, gst_video_info_to_caps(&pic.info));
    gst_harness_set_sink_caps_str(h, "video/x-raw,width=5,height=5");
    EXPECT_EQ(gst_harness_push(h, gst_buffer_ref(pic.buffer)), GST_FLOW_NOT_NEGOTIATED);
    gst_harness_teardown(h);
}

// The display aspect ratio stays, as with cfscale, while the format changes.
TEST_F(ConvertScaleElements, ConvertScaleKeepsTheDisplayAspectRatio)
{
    Picture pic("I420", 640, 480);
    pic.info.par_n = 16;
    pic.info.par_d = 15;
    GstVideoInfo out;
    EXPECT_FALSE(run("cfconvertscale w=320 h=100", pic, "video/x-raw,format=BGRx", &out).empty());
    EXPECT_EQ(GST_VIDEO_INFO_FORMAT(&out), GST_VIDEO_FORMAT_BGRx);
    EXPECT_EQ(GST_VIDEO_INFO_PAR_N(&out), 4);
    EXPECT_EQ(GST_VIDEO_INFO_PAR_D(&out), 9);
}

// CUDA memory in and out (cudaupload ! cfconvertscale ! cudadownload),
// the scale and convert kernels on the GPU: equal to scale then convert on the CPU.
TEST_F(ConvertScaleElements, ConvertScaleOnCudaMemory)
{
    CF_REQUIRE_GPU();
    struct Case {
        const char *in, *caps, *scale, *convert;
        cf_format out;
        int w, h;
    } cases[] = {
        { "NV12", "format=RGBA,width=96,height=54", "scale=method=bilinear",
          "convert=format=rgba:matrix=bt601:range=limited:chroma-site=center", CF_FORMAT_RGBA,
          96, 54 },
        { "RGBA", "format=NV12,width=50,height=27,colorimetry=bt709,chroma-site=mpeg2",
          "scale=method=area", "convert=format=nv12:matrix=bt709:range=limited", CF_FORMAT_NV12,
          50, 27 },
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(std::string(c.in) + " -> " + c.caps);
        Picture pic(c.in, 192, 108);
        std::string method = std::string(c.scale).substr(std::string("scale=").size());
        std::string launch = "cudaupload ! cfconvertscale " + method +
                             " ! video/x-raw(memory:CUDAMemory)," + c.caps + " ! cudadownload";
        GstVideoInfo out;
        auto got = run(launch.c_str(), pic, "video/x-raw", &out);
        EXPECT_EQ(GST_VIDEO_INFO_WIDTH(&out), c.w);
        EXPECT_EQ(got, reference_scale_convert(c.scale, c.convert, pic, c.out, c.w, c.h));
    }
}
