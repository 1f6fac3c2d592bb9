// CUDA convert and scale against their CPU reference, bit for bit: random
// format pairs, sizes (odd, 1x1, growing and shrinking), parameters, crops,
// pitches and data, guard bytes around every plane. Skips visibly without a
// GPU.
#include "test_utils.h"

namespace {

const cf_format kAll[] = { CF_FORMAT_GRAY8,     CF_FORMAT_RGBA,      CF_FORMAT_BGRA,
                           CF_FORMAT_RGBX,      CF_FORMAT_BGRX,      CF_FORMAT_RGB,
                           CF_FORMAT_BGR,       CF_FORMAT_NV12,      CF_FORMAT_I420,
                           CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE };
const char *const kChoice[] = { "gray8", "rgba", "bgra", "rgbx", "bgrx", "rgb",
                                "bgr",   "nv12", "i420", "gray16", "p010", "i420_10" };

int pick(std::mt19937 &rng, int lo, int hi)
{
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

// Runs the one filter of `text` from a sw x sh `fmt` frame to its output
// format and size on the CPU and on the GPU, and compares every plane and
// every guard byte. Rows 16-byte aligned or not at random.
void compare(const std::string &text, cf_format fmt, int sw, int sh, std::mt19937 &rng)
{
    cf_chain *chain = cf_chain_parse(text.c_str());
    ASSERT_NE(chain, nullptr) << cf_last_error();
    cf_filter *f = cf_chain_get(chain, 0);
    cf_format out_fmt;
    int dw = 0, dh = 0;
    CF_ASSERT_OK(cf_filter_get_output_format(f, fmt, &out_fmt));
    CF_ASSERT_OK(cf_filter_get_output_size(f, sw, sh, &dw, &dh));
    SCOPED_TRACE(text + " " + cf_format_name(fmt) + " " + std::to_string(sw) + "x" +
                 std::to_string(sh) + " -> " + cf_format_name(out_fmt) + " " +
                 std::to_string(dw) + "x" + std::to_string(dh));
    cftest::expect_cpu_gpu_equal(f, fmt, sw, sh, out_fmt, dw, dh, rng);
    cf_chain_free(&chain);
}

struct Size {
    int w, h;
};

std::vector<Size> sizes(std::mt19937 &rng, int n)
{
    std::vector<Size> s = { { 1, 1 }, { 2, 2 }, { 3, 1 }, { 1, 3 }, { 5, 7 }, { 64, 2 } };
    for (int i = 0; i < n; i++) s.push_back({ pick(rng, 1, 400), pick(rng, 1, 200) });
    return s;
}

} // namespace

TEST(GpuConvert, EveryFormatPairRandomParameters)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(20);
    const char *matrices[] = { "bt601", "bt709", "bt2020" }, *ranges[] = { "limited", "full" };
    const char *sites[] = { "left", "center" }, *filters[] = { "linear", "nearest" };
    for (int a = 0; a < 12; a++)
        for (int b = 0; b < 12; b++)
            for (Size s : sizes(rng, 1)) {
                std::string text = std::string("convert=format=") + kChoice[b] +
                                   ":matrix=" + matrices[rng() % 3] + ":range=" + ranges[rng() % 2] +
                                   ":chroma-site=" + sites[rng() % 2] +
                                   ":chroma-filter=" + filters[rng() % 2] +
                                   ":alpha=" + std::to_string(rng() % 2 ? -1 : pick(rng, 0, 255));
                compare(text, kAll[a], s.w, s.h, rng);
            }
}

// The hot paths at sizes with whole blocks and aligned rows.
TEST(GpuConvert, Nv12AndRgbaAtVideoSizes)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(1080);
    for (const char *site : { "left", "center" })
        for (Size s : { Size{ 1920, 1080 }, Size{ 1280, 720 }, Size{ 642, 362 } }) {
            compare(std::string("convert=format=rgba:matrix=bt709:chroma-site=") + site,
                    CF_FORMAT_NV12, s.w, s.h, rng);
            compare(std::string("convert=format=nv12:matrix=bt709:chroma-site=") + site,
                    CF_FORMAT_RGBA, s.w, s.h, rng);
        }
}

TEST(GpuScale, EveryFormatEveryMethodRandomSizesAndCrops)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(2160);
    const char *methods[] = { "nearest", "bilinear", "bicubic", "area", "lanczos" };
    for (cf_format fmt : kAll)
        for (const char *m : methods)
            for (Size s : sizes(rng, 3)) {
                std::string text = std::string("scale=method=") + m +
                                   ":w=" + std::to_string(pick(rng, 1, 300)) +
                                   ":h=" + std::to_string(pick(rng, 1, 150));
                if (rng() % 3 == 0 && s.w > 2 && s.h > 2) {
                    int cx = pick(rng, 0, s.w - 2), cy = pick(rng, 0, s.h - 2);
                    text += ":crop-x=" + std::to_string(cx) + ":crop-y=" + std::to_string(cy) +
                            ":crop-w=" + std::to_string(pick(rng, 1, s.w - cx)) +
                            ":crop-h=" + std::to_string(pick(rng, 1, s.h - cy));
                }
                compare(text, fmt, s.w, s.h, rng);
            }
}

// Whole factors (box means), 4K to 1080p and back, and a plan change
// between frames of one instance (the tables are uploaded again).
TEST(GpuScale, VideoSizesAndPlanChanges)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(4);
    for (const char *m : { "bilinear", "area", "nearest", "bicubic", "lanczos" }) {
        compare(std::string("scale=w=1920:h=1080:method=") + m, CF_FORMAT_NV12, 3840, 2160, rng);
        compare(std::string("scale=w=1920:h=1080:method=") + m, CF_FORMAT_RGBA, 3840, 2160, rng);
        compare(std::string("scale=w=3840:h=2160:method=") + m, CF_FORMAT_I420, 1280, 720, rng);
    }
    compare("scale=w=640:h=360:method=area", CF_FORMAT_RGB, 1920, 1080, rng); // 3x
    compare("scale=w=1:h=1:method=area", CF_FORMAT_GRAY8, 3000, 7, rng);      // 3000 taps
}

// Every convert pair and every scale format and method once, small, plus
// the hot shapes once: a short sweep for compute-sanitizer (memcheck).
TEST(GpuConvertScale, CompactSweepForSanitizers)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(90);
    for (int a = 0; a < 12; a++)
        for (int b = 0; b < 12; b++)
            compare(std::string("convert=format=") + kChoice[b] +
                        (rng() % 2 ? ":chroma-site=center" : "") +
                        (rng() % 2 ? ":chroma-filter=nearest" : ""),
                    kAll[a], pick(rng, 1, 23), pick(rng, 1, 9), rng);
    for (cf_format fmt : kAll)
        for (const char *m : { "nearest", "bilinear", "bicubic", "area", "lanczos" })
            compare(std::string("scale=method=") + m + ":w=" + std::to_string(pick(rng, 1, 40)) +
                        ":h=" + std::to_string(pick(rng, 1, 20)),
                    fmt, pick(rng, 1, 50), pick(rng, 1, 20), rng);
    compare("convert=format=rgba:matrix=bt709", CF_FORMAT_NV12, 1920, 1080, rng);
    compare("convert=format=nv12:matrix=bt709", CF_FORMAT_RGBA, 1920, 1080, rng);
    compare("scale=w=960:h=540:method=area", CF_FORMAT_NV12, 1920, 1080, rng);
}

// convertscale's one-pass kernels against its CPU version, which runs the
// same arithmetic and equals scale then convert (test_convert_scale_fused.cpp).
TEST(GpuConvertScaleFused, EveryFormatPairRandomSizesMethodsAndParameters)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(2021);
    const char *methods[] = { "nearest", "bilinear", "bicubic", "area", "lanczos" };
    for (int a = 0; a < 12; a++)
        for (int b = 0; b < 12; b++) {
            Size s = { pick(rng, 1, 200), pick(rng, 1, 100) };
            std::string text = std::string("convertscale=format=") + kChoice[b] +
                               ":method=" + methods[rng() % 5] +
                               ":w=" + std::to_string(pick(rng, 1, 150)) +
                               ":h=" + std::to_string(pick(rng, 1, 80)) +
                               (rng() % 2 ? ":chroma-site=center" : "") +
                               (rng() % 2 ? ":range=full" : "") +
                               (rng() % 3 == 0 && s.w > 2 && s.h > 2 ? ":crop-x=1:crop-y=1" : "");
            compare(text, kAll[a], s.w, s.h, rng);
        }
}

// The element's hot shapes: 4K NV12 to 1080p RGBA and back, 1x1 and odd.
TEST(GpuConvertScaleFused, VideoShapes)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(3840);
    for (const char *m : { "bilinear", "area" }) {
        compare(std::string("convertscale=w=1920:h=1080:format=rgba:matrix=bt709:method=") + m,
                CF_FORMAT_NV12, 3840, 2160, rng);
        compare(std::string("convertscale=w=1280:h=720:format=nv12:matrix=bt709:method=") + m,
                CF_FORMAT_RGBA, 1920, 1080, rng);
    }
    compare("convertscale=w=5:h=3:format=i420", CF_FORMAT_RGB, 1, 1, rng);
    compare("convertscale=w=1:h=1:format=rgba:method=area", CF_FORMAT_P010_10LE, 31, 17, rng);
}
