// Core library: format table, frames, devices, registry and filter strings.
#include "test_utils.h"

TEST(Format, TableMatchesGStreamerLayouts)
{
    const cf_format_info *rgbx = cf_format_get_info(CF_FORMAT_RGBX);
    ASSERT_NE(rgbx, nullptr);
    EXPECT_STREQ(rgbx->name, "RGBx");
    EXPECT_EQ(rgbx->pixel_bytes[0], 4);
    EXPECT_EQ(rgbx->a_offset, -1);
    const cf_format_info *bgra = cf_format_get_info(CF_FORMAT_BGRA);
    EXPECT_EQ(bgra->r_offset, 2);
    EXPECT_EQ(bgra->b_offset, 0);
    EXPECT_EQ(bgra->a_offset, 3);
    const cf_format_info *nv12 = cf_format_get_info(CF_FORMAT_NV12);
    EXPECT_EQ(nv12->n_planes, 2);
    EXPECT_EQ(nv12->pixel_bytes[1], 2);
    EXPECT_TRUE(nv12->is_yuv);
    EXPECT_EQ(cf_format_get_info(CF_FORMAT_I420)->n_planes, 3);
    EXPECT_EQ(cf_format_get_info(CF_FORMAT_UNKNOWN), nullptr);
    EXPECT_EQ(cf_format_get_info(CF_FORMAT_COUNT), nullptr);
}

TEST(Format, NamesRoundTrip)
{
    for (int f = CF_FORMAT_UNKNOWN + 1; f < CF_FORMAT_COUNT; f++)
        EXPECT_EQ(cf_format_from_name(cf_format_name((cf_format)f)), f);
    EXPECT_EQ(cf_format_from_name("YUY2"), CF_FORMAT_UNKNOWN);
    EXPECT_EQ(cf_format_from_name("rgba"), CF_FORMAT_UNKNOWN); // case-sensitive, like GStreamer
    EXPECT_EQ(cf_format_from_name(nullptr), CF_FORMAT_UNKNOWN);
}

TEST(Format, OddSizesRoundChromaUp)
{
    EXPECT_EQ(cf_format_plane_width(CF_FORMAT_NV12, 1, 5), 3);
    EXPECT_EQ(cf_format_plane_height(CF_FORMAT_NV12, 1, 3), 2);
    EXPECT_EQ(cf_format_plane_row_bytes(CF_FORMAT_NV12, 1, 5), 6u);
    EXPECT_EQ(cf_format_plane_width(CF_FORMAT_I420, 2, 1), 1);
    EXPECT_EQ(cf_format_plane_row_bytes(CF_FORMAT_RGB, 0, 7), 21u);
    EXPECT_EQ(cf_format_plane_width(CF_FORMAT_GRAY8, 1, 8), 0); // no such plane
}

TEST(Frame, AllocHostPitchesAlignedAndValid)
{
    cf_frame f;
    CF_ASSERT_OK(cf_frame_alloc(&f, CF_FORMAT_I420, 33, 17, CF_MEMORY_HOST));
    EXPECT_EQ(f.pitch[0] % 64, 0u);
    EXPECT_GE(f.pitch[1], 17u);
    EXPECT_EQ(cf_frame_validate(&f), CF_OK);
    EXPECT_NE(f.data[1], nullptr);
    EXPECT_NE(f.data[2], nullptr);
    cf_frame_free(&f);
    EXPECT_EQ(f.data[0], nullptr);
}

TEST(Frame, ValidateRejectsShortPitchAndBadSize)
{
    std::vector<uint8_t> buf(100);
    cf_frame f = cftest::wrap_gray(buf, 10, 10);
    EXPECT_EQ(cf_frame_validate(&f), CF_OK);
    f.pitch[0] = 9;
    EXPECT_EQ(cf_frame_validate(&f), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cf_last_error()).find("pitch 9"), std::string::npos) << cf_last_error();
    f.pitch[0] = 10;
    f.width = 0;
    EXPECT_EQ(cf_frame_validate(&f), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(cf_frame_alloc(&f, CF_FORMAT_UNKNOWN, 4, 4, CF_MEMORY_HOST),
              CF_ERROR_UNSUPPORTED_FORMAT);
}

TEST(Frame, HostCopyHonoursPitches)
{
    std::mt19937 rng(1);
    cftest::GuardedFrame a(CF_FORMAT_NV12, 7, 5, CF_MEMORY_HOST, rng);
    cftest::GuardedFrame b(CF_FORMAT_NV12, 7, 5, CF_MEMORY_HOST, rng);
    CF_ASSERT_OK(cf_frame_copy(a.frame(), b.frame(), nullptr));
    EXPECT_EQ(a.pixels(0), b.pixels(0));
    EXPECT_EQ(a.pixels(1), b.pixels(1));
    EXPECT_EQ(b.damaged_guard_bytes(), 0u);
}

TEST(Frame, UploadDirectionIsChecked)
{
    cf_frame h1, h2;
    CF_ASSERT_OK(cf_frame_alloc(&h1, CF_FORMAT_GRAY8, 4, 4, CF_MEMORY_HOST));
    CF_ASSERT_OK(cf_frame_alloc(&h2, CF_FORMAT_GRAY8, 4, 4, CF_MEMORY_HOST));
    EXPECT_EQ(cf_frame_upload(&h1, &h2, nullptr), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(cf_frame_download(&h1, &h2, nullptr), CF_ERROR_INVALID_ARGUMENT);
    cf_frame_free(&h1);
    cf_frame_free(&h2);
}

TEST(Device, NoDeviceIsANormalState)
{
    int n = -1;
    CF_ASSERT_OK(cf_device_count(&n));
    EXPECT_GE(n, 0);
    if (n == 0) {
        EXPECT_STRNE(cf_device_unavailable_reason(), "");
        cf_device_info info;
        EXPECT_EQ(cf_device_get_info(0, &info), CF_ERROR_NO_DEVICE);
        void *p = (void *)1;
        EXPECT_NE(cf_device_alloc(&p, 16), CF_OK);
        EXPECT_EQ(p, nullptr);
        cf_event e = (cf_event)1;
        EXPECT_NE(cf_event_create(&e), CF_OK);
        EXPECT_EQ(e, nullptr);
        cf_event_destroy(&e);
    } else {
        cf_device_info info;
        CF_ASSERT_OK(cf_device_get_info(0, &info));
        EXPECT_GT(info.total_memory, 0u);
        EXPECT_GE(info.compute_major, 7);
        EXPECT_EQ(cf_device_get_info(n, &info), CF_ERROR_INVALID_ARGUMENT);
        EXPECT_NE(std::string(cf_last_error()).find("does not exist"), std::string::npos);
    }
}

// Without a driver every device call says what the rest of the project says
// (cf_device_unavailable_reason, the CLI, the elements), as CF_ERROR_NO_DEVICE.
TEST(Device, NoDriverIsOneMessage)
{
    int n = -1;
    CF_ASSERT_OK(cf_device_count(&n));
    if (n > 0)
        GTEST_SKIP() << "this machine has a CUDA device";
    std::string reason = cf_device_unavailable_reason();
    cf_frame f;
    for (cf_memory mem : { CF_MEMORY_DEVICE, CF_MEMORY_PINNED_HOST }) {
        EXPECT_EQ(cf_frame_alloc(&f, CF_FORMAT_RGBA, 64, 32, mem), CF_ERROR_NO_DEVICE);
        std::string m = cf_last_error();
        EXPECT_NE(m.find(reason), std::string::npos) << m;
        EXPECT_EQ(m.find("cudaError"), std::string::npos) << m;
        EXPECT_EQ(f.allocation, nullptr);
    }
    cf_stream s = (cf_stream)1;
    EXPECT_EQ(cf_stream_create(&s), CF_ERROR_NO_DEVICE);
    EXPECT_NE(std::string(cf_last_error()).find(reason), std::string::npos) << cf_last_error();
}

TEST(Device, MemoryWithoutAContext)
{
    size_t free_bytes = 0, total = 0;
    EXPECT_EQ(cf_device_query_memory(0, nullptr, &total), CF_ERROR_INVALID_ARGUMENT);
    if (!cftest::gpu_available()) {
        EXPECT_EQ(cf_device_query_memory(0, &free_bytes, &total), CF_ERROR_NO_DEVICE);
        return;
    }
    CF_ASSERT_OK(cf_device_query_memory(0, &free_bytes, &total));
    EXPECT_GT(total, (size_t)1 << 30);
    EXPECT_LE(free_bytes, total);
    EXPECT_EQ(cf_device_query_memory(999, &free_bytes, &total), CF_ERROR_NO_DEVICE);
}

TEST(Device, OutOfMemorySaysHowMuch)
{
    CF_REQUIRE_GPU();
    size_t free_bytes = 0, total = 0;
    CF_ASSERT_OK(cf_device_get_memory(&free_bytes, &total));
    void *p = nullptr;
    EXPECT_EQ(cf_device_alloc(&p, total + ((size_t)1 << 30)), CF_ERROR_OUT_OF_MEMORY);
    EXPECT_EQ(p, nullptr);
    std::string msg = cf_last_error();
    EXPECT_NE(msg.find("GPU out of memory"), std::string::npos) << msg;
    EXPECT_NE(msg.find("MiB free of"), std::string::npos) << msg;
    // The device is still usable afterwards.
    CF_ASSERT_OK(cf_device_alloc(&p, 1 << 20));
    cf_device_free(p);
}

TEST(Registry, ListsGrayAndBlurWithParameters)
{
    EXPECT_GE(cf_filter_registry_count(), 2);
    const cf_filter_desc *blur = cf_filter_registry_find("blur");
    ASSERT_NE(blur, nullptr);
    int sigma = cf_filter_desc_find_param(blur, "sigma");
    ASSERT_GE(sigma, 0);
    EXPECT_EQ(blur->params[sigma].default_value, 1.0);
    EXPECT_GE(blur->params[sigma].max, 64.0);
    EXPECT_GE(cf_filter_desc_find_param(blur, "kernel-size"), 0);
    EXPECT_GE(cf_filter_desc_find_param(blur, "border"), 0);
    const cf_filter_desc *gray = cf_filter_registry_find("gray");
    ASSERT_NE(gray, nullptr);
    EXPECT_TRUE(cf_filter_desc_accepts(gray, CF_FORMAT_NV12));
    EXPECT_FALSE(cf_filter_desc_accepts(gray, CF_FORMAT_UNKNOWN));
    EXPECT_EQ(cf_filter_registry_find("sharpen"), nullptr);
}

TEST(Filter, ParametersAreRangeChecked)
{
    cf_filter *f = cf_filter_new("blur");
    ASSERT_NE(f, nullptr);
    CF_ASSERT_OK(cf_filter_set_double(f, "sigma", 2.5));
    EXPECT_EQ(cf_filter_set_double(f, "sigma", 0.0), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(cf_filter_set_double(f, "sigma", -1.0), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(cf_filter_set_double(f, "sigma", 1e6), CF_ERROR_INVALID_ARGUMENT);
    double v = 0;
    CF_ASSERT_OK(cf_filter_get_double(f, "sigma", &v));
    EXPECT_EQ(v, 2.5); // a refused value leaves the old one
    EXPECT_EQ(cf_filter_set_int(f, "kernel-size", 4), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cf_last_error()).find("odd"), std::string::npos);
    CF_ASSERT_OK(cf_filter_set_int(f, "kernel-size", 5));
    EXPECT_EQ(cf_filter_set_string(f, "border", "wrap"), CF_ERROR_PARSE);
    EXPECT_NE(std::string(cf_last_error()).find("reflect101, replicate, reflect"),
              std::string::npos)
        << cf_last_error();
    CF_ASSERT_OK(cf_filter_set_string(f, "border", "replicate"));
    CF_ASSERT_OK(cf_filter_get_double(f, "border", &v));
    EXPECT_EQ(v, 1.0);
    EXPECT_EQ(cf_filter_set_double(f, "radius", 1.0), CF_ERROR_NOT_FOUND);
    cf_filter_free(&f);
    EXPECT_EQ(f, nullptr);
    EXPECT_EQ(cf_filter_new("nope"), nullptr);
    EXPECT_NE(std::string(cf_last_error()).find("unknown filter 'nope'"), std::string::npos);
}

TEST(Filter, OutputFormats)
{
    cf_filter *gray = cf_filter_new("gray");
    cf_filter *blur = cf_filter_new("blur");
    cf_format out;
    CF_ASSERT_OK(cf_filter_get_output_format(gray, CF_FORMAT_BGRX, &out));
    EXPECT_EQ(out, CF_FORMAT_GRAY8);
    CF_ASSERT_OK(cf_filter_get_output_format(blur, CF_FORMAT_NV12, &out));
    EXPECT_EQ(out, CF_FORMAT_NV12);
    EXPECT_EQ(cf_filter_get_output_format(gray, CF_FORMAT_UNKNOWN, &out),
              CF_ERROR_UNSUPPORTED_FORMAT);
    cf_filter_free(&gray);
    cf_filter_free(&blur);
}

TEST(FilterString, ParsesChainsWithNamedAndPositionalOptions)
{
    cf_chain *c = cf_chain_parse(" gray , blur=sigma=2:border=replicate ,blur=3:0:5");
    ASSERT_NE(c, nullptr) << cf_last_error();
    ASSERT_EQ(cf_chain_length(c), 3);
    EXPECT_STREQ(cf_filter_get_desc(cf_chain_get(c, 0))->name, "gray");
    double v;
    CF_ASSERT_OK(cf_filter_get_double(cf_chain_get(c, 1), "sigma", &v));
    EXPECT_EQ(v, 2.0);
    CF_ASSERT_OK(cf_filter_get_double(cf_chain_get(c, 1), "border", &v));
    EXPECT_EQ(v, 1.0);
    CF_ASSERT_OK(cf_filter_get_double(cf_chain_get(c, 2), "sigma", &v));
    EXPECT_EQ(v, 3.0);
    CF_ASSERT_OK(cf_filter_get_double(cf_chain_get(c, 2), "kernel-size", &v));
    EXPECT_EQ(v, 5.0);
    EXPECT_EQ(cf_chain_get(c, 3), nullptr);
    cf_chain_free(&c);
    EXPECT_EQ(c, nullptr);
}

struct BadString {
    const char *text;
    const char *message_part;
};

class FilterStringErrors : public ::testing::TestWithParam<BadString> {};

TEST_P(FilterStringErrors, NameTheBadToken)
{
    cf_chain *c = cf_chain_parse(GetParam().text);
    EXPECT_EQ(c, nullptr);
    EXPECT_NE(std::string(cf_last_error()).find(GetParam().message_part), std::string::npos)
        << "message was: " << cf_last_error();
    cf_chain_free(&c);
}

INSTANTIATE_TEST_SUITE_P(
    All, FilterStringErrors,
    ::testing::Values(BadString{ "gray,blurr=sigma=2", "unknown filter 'blurr' at character 6" },
                      BadString{ "blur=sigma=0", "sigma=0 is out of range [0.01, 128]" },
                      BadString{ "blur=sigma=500", "out of range" },
                      BadString{ "blur=sigma=abc", "'abc' is not a number" },
                      BadString{ "blur=radius=2", "unknown option 'radius' at character 6" },
                      BadString{ "blur=border=wrap", "not one of: reflect101" },
                      BadString{ "blur=kernel-size=4", "must be odd" },
                      BadString{ "gray,,blur", "missing filter name at character 6" },
                      BadString{ "blur=", "empty option value" },
                      BadString{ "blur=1:0:3:reflect:7:9", "unexpected value '9'" },
                      BadString{ "blur=kernel-size=1027", "out of range [0, 1025]" },
                      BadString{ "gray=range=tv", "not one of: limited, full" },
                      BadString{ "", "empty filter string" }));

TEST(Filter, IdentityIsReported)
{
    cf_filter *gray = cf_filter_new("gray"), *blur = cf_filter_new("blur");
    EXPECT_TRUE(cf_filter_is_identity(gray, CF_FORMAT_GRAY8, CF_FORMAT_GRAY8));
    EXPECT_FALSE(cf_filter_is_identity(gray, CF_FORMAT_RGBA, CF_FORMAT_GRAY8));
    EXPECT_FALSE(cf_filter_is_identity(blur, CF_FORMAT_RGBA, CF_FORMAT_RGBA));
    CF_ASSERT_OK(cf_filter_set_double(blur, "sigma", 0.05));
    EXPECT_TRUE(cf_filter_is_identity(blur, CF_FORMAT_RGBA, CF_FORMAT_RGBA));
    EXPECT_FALSE(cf_filter_is_identity(blur, CF_FORMAT_RGBA, CF_FORMAT_GRAY8));
    CF_ASSERT_OK(cf_filter_set_double(blur, "sigma-y", 3));
    EXPECT_FALSE(cf_filter_is_identity(blur, CF_FORMAT_RGBA, CF_FORMAT_RGBA));
    EXPECT_EQ(cf_filter_registry_find("blur")->flags & CF_FILTER_SPATIAL, (unsigned)CF_FILTER_SPATIAL);
    EXPECT_EQ(cf_filter_registry_find("gray")->flags & CF_FILTER_SPATIAL, 0u);
    cf_filter_free(&gray);
    cf_filter_free(&blur);
}

TEST(Filter, KnowsWhichParametersWereSet)
{
    cf_chain *c = cf_chain_parse("gray=range=full,gray,blur=2");
    ASSERT_NE(c, nullptr);
    EXPECT_TRUE(cf_filter_param_is_set(cf_chain_get(c, 0), "range"));
    EXPECT_FALSE(cf_filter_param_is_set(cf_chain_get(c, 1), "range"));
    EXPECT_TRUE(cf_filter_param_is_set(cf_chain_get(c, 2), "sigma"));
    EXPECT_FALSE(cf_filter_param_is_set(cf_chain_get(c, 2), "border"));
    EXPECT_FALSE(cf_filter_param_is_set(cf_chain_get(c, 2), "nope"));
    EXPECT_EQ(cf_filter_set_double(cf_chain_get(c, 2), "sigma", -1), CF_ERROR_INVALID_ARGUMENT);
    cf_chain_free(&c);
}
