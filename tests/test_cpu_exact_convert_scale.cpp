// The optimized CPU convert and scale against their CPU reference, bit for
// bit (test_cpu_exact.cpp's way): every SIMD level of this processor forced
// one at a time, at 1, 2 and 7 threads, random sizes (1x1 up, odd), random
// pitches, data and parameters (matrices, ranges, sitings, chroma filters,
// alpha; every method, crops, growing and shrinking), guard bytes around
// every plane of source and output. Each case also asserts which path ran:
// the level asked for where the optimized code covers the case, the
// reference's rows elsewhere.
#include <functional>
#include <string>

#include "cpu_exact_utils.h"

namespace {

// Whether the optimized code (not the reference's rows) runs `in` -> `out`.
using Covered = std::function<bool(cf_format in, cf_format out)>;

// convert_cpu_fast.h: every pair of the table.
bool convert_covered(cf_format, cf_format)
{
    return true;
}

// Random 16-bit samples of a 10-bit format without a shift (I420_10) lie
// beyond 1023 almost everywhere, which the optimized code hands to the
// reference row by row: masked to 10 bits, the SIMD rows run.
void keep_in_range(cf_frame *f)
{
    const cf_format_info *info = cf_format_get_info(f->format);
    if (info->sample_bytes != 2 || info->shift || info->depth == 16) return;
    for (int p = 0; p < info->n_planes; p++)
        for (int y = 0; y < cf_format_plane_height(f->format, p, f->height); y++)
            for (size_t x = 1; x < cf_format_plane_row_bytes(f->format, p, f->width); x += 2)
                f->data[p][(size_t)y * f->pitch[p] + x] &= 3;
}

// The filter string on a random frame of `fmt` and size s, each output
// format it offers, every level and thread count against the reference.
void compare(const std::string &text, cf_format fmt, Size s, std::mt19937 &rng,
             const Covered &covered, bool in_range = false)
{
    SCOPED_TRACE(text + " on " + cf_format_name(fmt) + " " + std::to_string(s.w) + "x" +
                 std::to_string(s.h));
    cftest::Chain chain(text.c_str());
    ASSERT_EQ(chain.filters.size(), 1u);
    cf_filter *f = chain.filters[0];
    cf_format outs[16];
    int n_out = cf_filter_get_output_formats(f, fmt, outs, 16);
    ASSERT_GT(n_out, 0) << cf_last_error();
    int w = 0, h = 0;
    ASSERT_EQ(cf_filter_get_output_size(f, s.w, s.h, &w, &h), CF_OK) << cf_last_error();
    cftest::GuardedFrame src(fmt, s.w, s.h, CF_MEMORY_HOST, rng);
    if (in_range) keep_in_range(src.frame());
    LevelGuard keep;
    for (int o = 0; o < n_out; o++)
        ASSERT_NO_FATAL_FAILURE(expect_levels_equal_reference(f, src, outs[o], rng, w, h, covered(fmt, outs[o])));
}

// The small and odd sizes every case of this file starts from (2 x 2 and
// 9 x 3: whole and split 4:2:0 blocks).
const std::vector<Size> kFirstSizes = { { 1, 1 }, { 2, 2 }, { 3, 1 }, { 1, 7 }, { 9, 3 } };

std::string convert_params(std::mt19937 &rng)
{
    const char *matrices[] = { "bt601", "bt709", "bt2020" };
    const char *ranges[] = { "limited", "full" };
    const char *sites[] = { "left", "center" };
    const char *filters[] = { "linear", "nearest" };
    std::string t = std::string("convert=matrix=") + matrices[rng() % 3] + ":range=" +
                    ranges[rng() % 2] + ":chroma-site=" + sites[rng() % 2] +
                    ":chroma-filter=" + filters[rng() % 2];
    if (rng() % 2) t += ":alpha=" + std::to_string(rng() % 256);
    return t;
}

} // namespace

// Every input format to every output format convert offers.
TEST(CpuExactConvert, EveryFormatPairRandomParameters)
{
    std::mt19937 rng(2020);
    for (cf_format fmt : kFormats)
        for (Size s : random_sizes(rng, kFirstSizes, 3, 140, 30))
            compare(convert_params(rng), fmt, s, rng, convert_covered);
}

// Every matrix x range x siting x filter on the SIMD pairs, with rows wide
// enough for several vectors of the widest level and an odd width.
TEST(CpuExactConvert, SimdPairsEveryParameter)
{
    std::mt19937 rng(2022);
    const cf_format formats[] = { CF_FORMAT_NV12, CF_FORMAT_I420, CF_FORMAT_P010_10LE,
                                  CF_FORMAT_I420_10LE, CF_FORMAT_RGBA, CF_FORMAT_BGRX,
                                  CF_FORMAT_RGB };
    for (const char *m : { "bt601", "bt709", "bt2020" })
        for (const char *r : { "limited", "full" })
            for (const char *site : { "left", "center" })
                for (const char *filt : { "linear", "nearest" }) {
                    std::string t = std::string("convert=matrix=") + m + ":range=" + r +
                                    ":chroma-site=" + site + ":chroma-filter=" + filt;
                    cf_format fmt = formats[rng() % 7];
                    Size s = { std::uniform_int_distribution<int>(60, 211)(rng),
                               std::uniform_int_distribution<int>(1, 9)(rng) };
                    compare(t, fmt, s, rng, convert_covered, rng() % 2 == 0);
                }
}

namespace {

bool scale_covered(cf_format, cf_format)
{
    return true; // scale_cpu_fast.h: every format and method
}

const char *const kMethods[] = { "nearest", "bilinear", "bicubic", "area", "lanczos" };

std::string scale_text(int w, int h, const char *method)
{
    return "scale=w=" + std::to_string(w) + ":h=" + std::to_string(h) + ":method=" + method;
}

} // namespace

// Every format and method, random sizes in and out (growing, shrinking,
// mixed), 1x1 included.
TEST(CpuExactScale, EveryFormatAndMethodRandomSizes)
{
    std::mt19937 rng(2021);
    for (cf_format fmt : kFormats)
        for (const char *m : kMethods)
            for (int i = 0; i < 3; i++) {
                Size s = { std::uniform_int_distribution<int>(1, 160)(rng),
                           std::uniform_int_distribution<int>(1, 40)(rng) };
                int w = i == 0 ? 1 : std::uniform_int_distribution<int>(1, 180)(rng);
                int h = i == 0 ? 1 : std::uniform_int_distribution<int>(1, 40)(rng);
                compare(scale_text(w, h, m), fmt, s, rng, scale_covered, rng() % 2 == 0);
            }
}

// Whole-number factors (area's box means: powers of two and not, 1 wide
// too; bilinear halving), crops, and the benchmark's shape at a small size (2:1 RGBA).
TEST(CpuExactScale, BoxFactorsAndCrops)
{
    std::mt19937 rng(2023);
    const cf_format formats[] = { CF_FORMAT_RGBA, CF_FORMAT_NV12, CF_FORMAT_I420, CF_FORMAT_RGB,
                                  CF_FORMAT_P010_10LE, CF_FORMAT_GRAY16_LE, CF_FORMAT_GRAY8 };
    for (cf_format fmt : formats)
        for (int kx : { 1, 2, 3, 4, 5 })
            for (int ky : { 1, 2, 3 }) {
                int w = std::uniform_int_distribution<int>(1, 50)(rng);
                int h = std::uniform_int_distribution<int>(1, 8)(rng);
                compare(scale_text(w, h, "area"), fmt, { 2 * w * kx, 2 * h * ky }, rng, scale_covered);
                if (kx == 2 && ky == 2) // bilinear's exact halving: box rows
                    compare(scale_text(w, h, "bilinear"), fmt, { 2 * w, 2 * h }, rng, scale_covered);
            }
    for (cf_format fmt : formats)
        for (const char *m : kMethods) {
            Size s = { std::uniform_int_distribution<int>(20, 200)(rng),
                       std::uniform_int_distribution<int>(4, 30)(rng) };
            int cx = std::uniform_int_distribution<int>(0, s.w / 2)(rng);
            int cy = std::uniform_int_distribution<int>(0, s.h / 2)(rng);
            int cw = std::uniform_int_distribution<int>(1, s.w - cx)(rng);
            int ch = std::uniform_int_distribution<int>(1, s.h - cy)(rng);
            std::string t = scale_text(std::uniform_int_distribution<int>(1, 150)(rng),
                                       std::uniform_int_distribution<int>(1, 30)(rng), m) +
                            ":crop-x=" + std::to_string(cx) + ":crop-y=" + std::to_string(cy) +
                            ":crop-w=" + std::to_string(cw) + ":crop-h=" + std::to_string(ch);
            compare(t, fmt, s, rng, scale_covered);
        }
    compare(scale_text(96, 27, "bilinear"), CF_FORMAT_RGBA, { 192, 54 }, rng, scale_covered);
    compare(scale_text(96, 27, "area"), CF_FORMAT_RGBA, { 192, 54 }, rng, scale_covered);
}

// Frames tall enough for many slices of rows a thread (a slice is at least
// about 64 KiB of output), so 2 and 7 threads really split them.
TEST(CpuExactConvertScale, ManySlices)
{
    std::mt19937 rng(2024);
    compare("convert=matrix=bt709:chroma-filter=linear", CF_FORMAT_NV12, { 1283, 301 }, rng,
            convert_covered);
    compare("convert=matrix=bt601:chroma-site=center", CF_FORMAT_RGBA, { 1001, 263 }, rng,
            convert_covered);
    compare(scale_text(701, 257, "bilinear"), CF_FORMAT_RGBA, { 1500, 300 }, rng, scale_covered);
    compare(scale_text(640, 180, "area"), CF_FORMAT_BGRX, { 1280, 360 }, rng, scale_covered);
    compare(scale_text(900, 333, "lanczos"), CF_FORMAT_NV12, { 777, 200 }, rng, scale_covered);
}
