// convertscale (kernels/convert_scale.h) on the CPU against its definition:
// the scale filter, then the convert filter, run one after the other with
// the same parameters, bit for bit. Random format pairs, sizes (1x1, odd,
// growing and shrinking), methods, crops, colour parameters, pitches and
// data, guard bytes around every plane. Both versions run the scale into
// an intermediate frame and the convert from it (the CPU version with the
// optimized code, whose level and threads vary here);
// test_convert_scale_gpu.cpp compares the CUDA version with this one.
#include "convert_scale_utils.h"

namespace {

const char *const kMethods[] = { "nearest", "bilinear", "bicubic", "area", "lanczos" };

cf_filter *only_filter(cf_chain *chain)
{
    EXPECT_NE(chain, nullptr) << cf_last_error();
    return chain ? cf_chain_get(chain, 0) : nullptr;
}

// Runs "convertscale=<scale>:<convert>" on a random sw x sh `fmt` frame
// and compares it with "scale=<scale>" then "convert=<convert>".
void compare(const std::string &scale, const std::string &convert, cf_format fmt, int sw, int sh,
             std::mt19937 &rng, int threads = 0)
{
    std::string fused_text = "convertscale=" + scale + ":" + convert;
    SCOPED_TRACE(fused_text + " on " + cf_format_name(fmt) + " " + std::to_string(sw) + "x" +
                 std::to_string(sh));
    cf_chain *fused_chain = cf_chain_parse(fused_text.c_str());
    cf_chain *scale_chain = cf_chain_parse(("scale=" + scale).c_str());
    cf_chain *convert_chain = cf_chain_parse(("convert=" + convert).c_str());
    cf_filter *fused = only_filter(fused_chain), *sc = only_filter(scale_chain),
              *cv = only_filter(convert_chain);
    ASSERT_TRUE(fused && sc && cv);
    CF_ASSERT_OK(cf_filter_set_cpu_threads(fused, threads));
    cf_format out_fmt, cv_fmt;
    int dw = 0, dh = 0, sdw = 0, sdh = 0;
    CF_ASSERT_OK(cf_filter_get_output_format(fused, fmt, &out_fmt));
    CF_ASSERT_OK(cf_filter_get_output_format(cv, fmt, &cv_fmt));
    CF_ASSERT_OK(cf_filter_get_output_size(fused, sw, sh, &dw, &dh));
    CF_ASSERT_OK(cf_filter_get_output_size(sc, sw, sh, &sdw, &sdh));
    ASSERT_EQ(out_fmt, cv_fmt);
    ASSERT_EQ(dw, sdw);
    ASSERT_EQ(dh, sdh);

    size_t align = rng() % 2 ? 16 : 1;
    cftest::GuardedFrame src(fmt, sw, sh, CF_MEMORY_HOST, rng, align);
    cftest::GuardedFrame dst(out_fmt, dw, dh, CF_MEMORY_HOST, rng, align);
    CF_ASSERT_OK(cf_filter_run(fused, src.frame(), dst.frame(), nullptr));

    cf_frame mid, ref;
    CF_ASSERT_OK(cf_frame_alloc(&mid, fmt, dw, dh, CF_MEMORY_HOST));
    CF_ASSERT_OK(cf_frame_alloc(&ref, out_fmt, dw, dh, CF_MEMORY_HOST));
    CF_ASSERT_OK(cf_filter_run(sc, src.frame(), &mid, nullptr));
    CF_ASSERT_OK(cf_filter_run(cv, &mid, &ref, nullptr));
    std::vector<uint8_t> want = cftest::packed_pixels(ref), got;
    const cf_format_info *info = cf_format_get_info(out_fmt);
    for (int p = 0; p < info->n_planes; p++) {
        auto plane = dst.pixels(p);
        got.insert(got.end(), plane.begin(), plane.end());
    }
    ASSERT_EQ(got.size(), want.size());
    size_t first = 0;
    while (first < got.size() && got[first] == want[first]) first++;
    EXPECT_EQ(first, got.size()) << "differs first at byte " << first << ": fused "
                                 << int(got[first]) << ", scale then convert "
                                 << int(want[first]);
    EXPECT_EQ(dst.damaged_guard_bytes(), 0u);
    EXPECT_EQ(src.damaged_guard_bytes(), 0u);
    cf_frame_free(&mid);
    cf_frame_free(&ref);
    cf_chain_free(&fused_chain);
    cf_chain_free(&scale_chain);
    cf_chain_free(&convert_chain);
}

// Random scale parameters for a sw x sh input: size, method, sometimes a crop.
std::string random_scale(std::mt19937 &rng, int sw, int sh)
{
    std::string s = std::string("method=") + kMethods[rng() % 5] +
                    ":w=" + std::to_string(pick(rng, 1, 90)) + ":h=" + std::to_string(pick(rng, 1, 60));
    if (rng() % 3 == 0 && sw > 2 && sh > 2) {
        int cx = pick(rng, 0, sw - 2), cy = pick(rng, 0, sh - 2);
        s += ":crop-x=" + std::to_string(cx) + ":crop-y=" + std::to_string(cy) +
             ":crop-w=" + std::to_string(pick(rng, 1, sw - cx)) +
             ":crop-h=" + std::to_string(pick(rng, 1, sh - cy));
    }
    return s;
}

std::string random_convert(std::mt19937 &rng, int to)
{
    const char *matrices[] = { "bt601", "bt709", "bt2020" }, *ranges[] = { "limited", "full" };
    return std::string("format=") + kChoice[to] + ":matrix=" + matrices[rng() % 3] +
           ":range=" + ranges[rng() % 2] + ":chroma-site=" + (rng() % 2 ? "left" : "center") +
           ":chroma-filter=" + (rng() % 2 ? "linear" : "nearest") +
           ":alpha=" + std::to_string(rng() % 2 ? -1 : pick(rng, 0, 255));
}

} // namespace

TEST(ConvertScaleFused, EveryFormatPairRandomSizesMethodsAndParameters)
{
    std::mt19937 rng(2020);
    for (int a = 0; a < 12; a++)
        for (int b = 0; b < 12; b++)
            for (int k = 0; k < 2; k++) {
                int sw = pick(rng, 1, 120), sh = pick(rng, 1, 80);
                compare(random_scale(rng, sw, sh), random_convert(rng, b), kAll[a], sw, sh, rng);
            }
}

// 1x1 up, to 1x1, odd sizes, whole-factor boxes (area's box means) and the
// video shapes the element is used for.
TEST(ConvertScaleFused, EdgeSizesAndVideoShapes)
{
    std::mt19937 rng(1);
    compare("w=7:h=5:method=bilinear", "format=rgba", CF_FORMAT_NV12, 1, 1, rng);
    compare("w=1:h=1:method=area", "format=nv12", CF_FORMAT_RGBA, 33, 17, rng);
    compare("w=3:h=3:method=lanczos", "format=i420_10", CF_FORMAT_P010_10LE, 5, 7, rng);
    compare("w=320:h=180:method=area", "format=rgba:matrix=bt709", CF_FORMAT_NV12, 640, 360, rng);
    compare("w=320:h=180:method=bilinear", "format=nv12:matrix=bt709", CF_FORMAT_RGBA, 641, 359,
            rng);
    compare("w=200:h=120:method=bicubic", "format=gray8", CF_FORMAT_I420, 160, 90, rng);
}

// The row slices on the CPU pool change nothing.
TEST(ConvertScaleFused, ThreadsChangeNothing)
{
    for (int threads : { 1, 2, 7 }) {
        std::mt19937 rng(7);
        compare("w=151:h=97:method=bilinear", "format=rgba", CF_FORMAT_NV12, 300, 200, rng,
                threads);
        compare("w=151:h=97:method=area", "format=i420", CF_FORMAT_BGRX, 300, 200, rng, threads);
    }
}

TEST(ConvertScaleFused, DescriptorIsScaleAndConvert)
{
    const cf_filter_desc *d = cf_filter_registry_find("convertscale");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->n_params, 13);
    EXPECT_TRUE(d->flags & CF_FILTER_RESIZES);
    EXPECT_EQ(cf_filter_desc_find_param(d, "w"), 0);
    EXPECT_EQ(cf_filter_desc_find_param(d, "format"), 7);
    EXPECT_EQ(d->n_formats, 12);
    // A crop outside the input is refused with scale's words.
    cf_chain *chain = cf_chain_parse("convertscale=crop-x=50:format=rgba");
    ASSERT_NE(chain, nullptr);
    cf_frame src, dst;
    CF_ASSERT_OK(cf_frame_alloc(&src, CF_FORMAT_NV12, 40, 30, CF_MEMORY_HOST));
    CF_ASSERT_OK(cf_frame_alloc(&dst, CF_FORMAT_RGBA, 40, 30, CF_MEMORY_HOST));
    EXPECT_EQ(cf_filter_run(cf_chain_get(chain, 0), &src, &dst, nullptr),
              CF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cf_last_error()).find("crop-x=50 is outside the 40x30 input"),
              std::string::npos)
        << cf_last_error();
    cf_frame_free(&src);
    cf_frame_free(&dst);
    cf_chain_free(&chain);
}
