// CUDA convert and scale against their CPU reference, bit for bit: random
// format pairs, sizes (odd, 1x1, growing and shrinking), parameters, crops,
// pitches and data, guard bytes around every plane. Skips visibly without a
// GPU. The fast kernels (convert_fast.cu, scale_fast.cu) are forced off
// and on, and each test says which kernel ran.
#include "convert_scale_utils.h"

#include <cstring>

extern "C" {
#include "convert.h"
#include "scale.h"
}

#ifndef CF_HAVE_CUDA
// A build without CUDA has no CUDA files, so not their test hooks either;
// every test here skips there before it would matter what these return.
extern "C" {
void cf_convert_cuda_force_generic(bool) {}
void cf_convert_cuda_force_shape(int, int) {}
void cf_scale_cuda_force_generic(bool) {}
void cf_scale_cuda_force_narrow(bool) {}
const char *cf_convert_cuda_last_kernel(void) { return ""; }
const char *cf_scale_cuda_last_kernel(void) { return ""; }
}
#endif

namespace {

// Runs the one filter of `text` from a sw x sh `fmt` frame to its output
// format and size on the CPU and on the GPU, and compares every plane and
// every guard byte. Rows 16-byte aligned or not at random.
void compare(const std::string &text, cf_format fmt, int sw, int sh, std::mt19937 &rng,
             size_t align = 0)
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
    cftest::expect_cpu_gpu_equal(f, fmt, sw, sh, out_fmt, dw, dh, rng, align);
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

// Every GPU convert and scale in its scope runs the generic kernels.
struct ScopedGeneric {
    ScopedGeneric()
    {
        cf_convert_cuda_force_generic(true);
        cf_scale_cuda_force_generic(true);
    }
    ~ScopedGeneric()
    {
        cf_convert_cuda_force_generic(false);
        cf_scale_cuda_force_generic(false);
    }
};

const cf_format kYuv8[] = { CF_FORMAT_NV12, CF_FORMAT_I420 };
const char *const kYuv8Choice[] = { "nv12", "i420" };
const cf_format kRgb34[] = { CF_FORMAT_RGBA, CF_FORMAT_BGRA, CF_FORMAT_RGBX,
                             CF_FORMAT_BGRX, CF_FORMAT_RGB,  CF_FORMAT_BGR };
const char *const kRgb34Choice[] = { "rgba", "bgra", "rgbx", "bgrx", "rgb", "bgr" };
const cf_format kScale8[] = { CF_FORMAT_GRAY8, CF_FORMAT_RGBA, CF_FORMAT_BGRX,
                              CF_FORMAT_RGB,   CF_FORMAT_NV12, CF_FORMAT_I420 };

std::string random_convert_options(std::mt19937 &rng)
{
    const char *matrices[] = { "bt601", "bt709", "bt2020" }, *ranges[] = { "limited", "full" };
    const char *sites[] = { "left", "center" }, *filters[] = { "linear", "nearest" };
    return std::string(":matrix=") + matrices[rng() % 3] + ":range=" + ranges[rng() % 2] +
           ":chroma-site=" + sites[rng() % 2] + ":chroma-filter=" + filters[rng() % 2] +
           ":alpha=" + std::to_string(rng() % 2 ? -1 : pick(rng, 0, 255));
}

bool starts_with(const char *s, const char *prefix)
{
    return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

// The fast convert kernels (or, forced, the generic ones) on rows aligned
// to 16 or 4 bytes: every 8-bit 4:2:0 <-> 3/4-byte RGB pair both ways, random
// parameters, sizes from 1x1 to whole and partial groups of 4 and 8
// columns; the fast kernels' shapes (columns, rows a thread) forced at
// random, each kernel named.
void convert_fast_pairs(bool generic, int seed)
{
    static const int shapes[][2] = { { 0, 0 }, { 4, 1 }, { 4, 2 }, { 8, 1 }, { 8, 2 } };
    std::mt19937 rng(seed);
    std::vector<Size> s = sizes(rng, 4);
    s.push_back({ 4, 2 });
    s.push_back({ 7, 5 });
    s.push_back({ 1920, 1080 });
    for (int y = 0; y < 2; y++)
        for (int r = 0; r < 6; r++)
            for (Size sz : s) {
                if (sz.w * sz.h > 100000 && rng() % 4)
                    continue;
                const int *shape = shapes[rng() % 5];
                cf_convert_cuda_force_shape(shape[0], shape[1]);
                // Rows on 16 bytes (RGBA 16 bytes at a time, 8 columns a
                // thread) or on 4 (4 columns).
                size_t align = rng() % 2 ? 16 : 4;
                compare(std::string("convert=format=") + kRgb34Choice[r] + random_convert_options(rng),
                        kYuv8[y], sz.w, sz.h, rng, align);
                const char *k = cf_convert_cuda_last_kernel();
                // (rows on 4 bytes may be on 8 by chance: either width)
                EXPECT_EQ(starts_with(k, "yuv420_to_rgb"), !generic) << k;
                if (!generic && align == 16) {
                    EXPECT_TRUE(starts_with(k, shape[0] == 4 ? "yuv420_to_rgb_c4"
                                                             : "yuv420_to_rgb_c8")) << k;
                }
                align = rng() % 2 ? 16 : 4;
                compare(std::string("convert=format=") + kYuv8Choice[y] + random_convert_options(rng),
                        kRgb34[r], sz.w, sz.h, rng, align);
                k = cf_convert_cuda_last_kernel();
                EXPECT_EQ(starts_with(k, "rgb_to_yuv420"), !generic) << k;
                if (!generic && align == 16) {
                    EXPECT_STREQ(k, shape[0] == 4 ? "rgb_to_yuv420_c4" : "rgb_to_yuv420_c8");
                }
            }
    cf_convert_cuda_force_shape(0, 0);
}

// The fast scale kernels (or, forced, the generic one) on 16-byte aligned
// rows: 8-bit formats, every method, random sizes and crops, whole-number
// area factors (box means) among them.
void scale_fast_shapes(bool generic, int seed)
{
    std::mt19937 rng(seed);
    const char *methods[] = { "nearest", "bilinear", "bicubic", "area", "lanczos" };
    for (cf_format fmt : kScale8)
        for (const char *m : methods)
            for (Size s : sizes(rng, 3)) {
                int dw = pick(rng, 1, 300), dh = pick(rng, 1, 150);
                if (rng() % 3 == 0) { // whole factors: the box kernel
                    int kx = pick(rng, 1, 4), ky = pick(rng, 1, 4);
                    s = { dw * kx, dh * ky };
                    if (s.w > 600 || s.h > 300)
                        s = { kx * (dw = pick(rng, 1, 40)), ky * (dh = pick(rng, 1, 40)) };
                }
                std::string text = std::string("scale=method=") + m + ":w=" +
                                   std::to_string(dw) + ":h=" + std::to_string(dh);
                if (rng() % 4 == 0 && s.w > 2 && s.h > 2) {
                    int cx = pick(rng, 0, s.w - 2), cy = pick(rng, 0, s.h - 2);
                    text += ":crop-x=" + std::to_string(cx) + ":crop-y=" + std::to_string(cy) +
                            ":crop-w=" + std::to_string(pick(rng, 1, s.w - cx)) +
                            ":crop-h=" + std::to_string(pick(rng, 1, s.h - cy));
                }
                bool narrow = rng() % 3 == 0;
                cf_scale_cuda_force_narrow(narrow);
                compare(text, fmt, s.w, s.h, rng, 16);
                std::string last = cf_scale_cuda_last_kernel();
                if (generic)
                    EXPECT_EQ(last, "generic") << text;
                else
                    EXPECT_TRUE(last == "taps8" || last == "box8" || (last == "box2w" && !narrow))
                        << text << ": " << last;
            }
    cf_scale_cuda_force_narrow(false);
}

} // namespace

TEST(GpuConvert, FastKernelsEveryPairRandomParameters)
{
    CF_REQUIRE_GPU();
    convert_fast_pairs(false, 420);
}

TEST(GpuConvert, GenericKernelsWhenForced)
{
    CF_REQUIRE_GPU();
    ScopedGeneric generic;
    convert_fast_pairs(true, 421);
}

TEST(GpuScale, FastKernelsEightBitRandomSizesAndCrops)
{
    CF_REQUIRE_GPU();
    scale_fast_shapes(false, 8);
}

TEST(GpuScale, GenericKernelWhenForced)
{
    CF_REQUIRE_GPU();
    ScopedGeneric generic;
    scale_fast_shapes(true, 9);
}

// The hot 4K shapes through the fast kernels, and through the generic ones.
TEST(GpuConvertScale, FourKHotShapesBothWays)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(3840);
    for (int g = 0; g < 2; g++) {
        cf_convert_cuda_force_generic(g == 1);
        cf_scale_cuda_force_generic(g == 1);
        compare("convert=format=rgba:matrix=bt709", CF_FORMAT_NV12, 3840, 2160, rng, 16);
        compare("convert=format=nv12:matrix=bt709", CF_FORMAT_RGBA, 3840, 2160, rng, 16);
        compare("scale=w=1920:h=1080:method=bilinear", CF_FORMAT_RGBA, 3840, 2160, rng, 16);
        compare("scale=w=1920:h=1080:method=area", CF_FORMAT_NV12, 3840, 2160, rng, 16);
        compare("scale=w=1920:h=1080:method=bilinear", CF_FORMAT_NV12, 3840, 2160, rng, 16);
    }
    cf_convert_cuda_force_generic(false);
    cf_scale_cuda_force_generic(false);
}

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
