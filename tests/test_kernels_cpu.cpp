// CPU references: known values, invariants and agreement with a plain
// double-precision Gaussian (the reference the fixed-point code stands for).
#include <cmath>

#include "test_utils.h"

extern "C" {
#include "blur.h"
#include "gray.h"
}

namespace {

struct Rgb {
    uint8_t r, g, b;
};

// Runs a filter string on one host frame, returns the output frame's pixels.
std::vector<uint8_t> run_host(const char *chain_text, cf_frame *src, int plane = 0)
{
    cf_chain *chain = cf_chain_parse(chain_text);
    EXPECT_NE(chain, nullptr) << cf_last_error();
    cf_filter *f = cf_chain_get(chain, 0);
    cf_format out_format;
    EXPECT_EQ(cf_filter_get_output_format(f, src->format, &out_format), CF_OK);
    cf_frame dst;
    EXPECT_EQ(cf_frame_alloc(&dst, out_format, src->width, src->height, CF_MEMORY_HOST), CF_OK);
    EXPECT_EQ(cf_filter_run(f, src, &dst, nullptr), CF_OK) << cf_last_error();
    size_t row = cf_format_plane_row_bytes(out_format, plane, src->width);
    int rows = cf_format_plane_height(out_format, plane, src->height);
    std::vector<uint8_t> out;
    for (int y = 0; y < rows; y++)
        out.insert(out.end(), dst.data[plane] + y * dst.pitch[plane],
                   dst.data[plane] + y * dst.pitch[plane] + row);
    cf_frame_free(&dst);
    cf_chain_free(&chain);
    return out;
}

cf_frame packed_frame(std::vector<uint8_t> &buf, cf_format format, int w, int h)
{
    cf_frame f{};
    f.format = format;
    f.width = w;
    f.height = h;
    f.memory = CF_MEMORY_HOST;
    f.device = -1;
    const cf_format_info *info = cf_format_get_info(format);
    size_t total = 0;
    for (int p = 0; p < info->n_planes; p++)
        total += cf_format_plane_row_bytes(format, p, w) * cf_format_plane_height(format, p, h);
    buf.resize(total);
    uint8_t *d = buf.data();
    for (int p = 0; p < info->n_planes; p++) {
        f.data[p] = d;
        f.pitch[p] = cf_format_plane_row_bytes(format, p, w);
        d += f.pitch[p] * cf_format_plane_height(format, p, h);
    }
    return f;
}

} // namespace

TEST(GrayCpu, Bt601MatchesOpenCvConstants)
{
    // OpenCV 4 cvtColor(RGB2GRAY): Y = (9798 R + 19235 G + 3735 B + 2^14) >> 15.
    const Rgb in[] = { { 255, 255, 255 }, { 0, 0, 0 }, { 255, 0, 0 }, { 0, 255, 0 },
                       { 0, 0, 255 },     { 12, 200, 99 } };
    const uint8_t expect[] = { 255, 0, 76, 150, 29, 132 };
    std::vector<uint8_t> buf;
    cf_frame f = packed_frame(buf, CF_FORMAT_RGB, 6, 1);
    for (int i = 0; i < 6; i++) {
        buf[3 * i] = in[i].r;
        buf[3 * i + 1] = in[i].g;
        buf[3 * i + 2] = in[i].b;
    }
    auto out = run_host("gray", &f);
    EXPECT_EQ(out, std::vector<uint8_t>(expect, expect + 6));
    // 12,200,99: (117576 + 3847000 + 369765 + 16384) >> 15 = 132
    // 147,81,0 is 91.4996 in exact arithmetic: OpenCV's weights give 92.
    buf[0] = 147, buf[1] = 81, buf[2] = 0;
    EXPECT_EQ(run_host("gray", &f)[0], 92);
}

TEST(GrayCpu, MatricesDiffer)
{
    std::vector<uint8_t> buf;
    cf_frame f = packed_frame(buf, CF_FORMAT_RGB, 1, 1);
    buf = { 0, 255, 0 };
    EXPECT_EQ(run_host("gray=matrix=bt601", &f)[0], 150);
    EXPECT_EQ(run_host("gray=matrix=bt709", &f)[0], 182);  // (255*23436 + 2^14) >> 15
    EXPECT_EQ(run_host("gray=matrix=bt2020", &f)[0], 173); // (255*22217 + 2^14) >> 15
}

TEST(GrayCpu, ComponentOrderFollowsFormat)
{
    std::mt19937 rng(7);
    const int w = 13, h = 5;
    std::vector<uint8_t> rgb_buf;
    cf_frame rgb = packed_frame(rgb_buf, CF_FORMAT_RGB, w, h);
    for (auto &b : rgb_buf) b = (uint8_t)rng();
    auto expect = run_host("gray", &rgb);
    for (cf_format fmt : { CF_FORMAT_RGBA, CF_FORMAT_BGRA, CF_FORMAT_RGBX, CF_FORMAT_BGRX,
                           CF_FORMAT_BGR }) {
        std::vector<uint8_t> buf;
        cf_frame f = packed_frame(buf, fmt, w, h);
        const cf_format_info *info = cf_format_get_info(fmt);
        int bpp = info->pixel_bytes[0];
        for (auto &b : buf) b = (uint8_t)rng(); // alpha/padding: must not matter
        for (int i = 0; i < w * h; i++) {
            buf[bpp * i + info->r_offset] = rgb_buf[3 * i];
            buf[bpp * i + info->g_offset] = rgb_buf[3 * i + 1];
            buf[bpp * i + info->b_offset] = rgb_buf[3 * i + 2];
        }
        EXPECT_EQ(run_host("gray", &f), expect) << cf_format_name(fmt);
    }
}

TEST(GrayCpu, FullRangeYuvTakesTheLumaPlane)
{
    std::mt19937 rng(3);
    for (cf_format fmt : { CF_FORMAT_NV12, CF_FORMAT_I420, CF_FORMAT_GRAY8 }) {
        cftest::GuardedFrame src(fmt, 9, 7, CF_MEMORY_HOST, rng);
        EXPECT_EQ(run_host("gray=range=full", src.frame()), src.pixels(0)) << cf_format_name(fmt);
    }
}

// Writes 16-bit little-endian samples.
static void put16(std::vector<uint8_t> &buf, size_t i, int v)
{
    buf[2 * i] = (uint8_t)(v & 0xff);
    buf[2 * i + 1] = (uint8_t)(v >> 8);
}

TEST(GrayCpu, LimitedRangeIsExpandedToFull)
{
    // 8-bit: round((Y - 16) * 255 / 219), clamped; 10-bit: round((Y - 64) * 255 / 876).
    std::vector<uint8_t> buf;
    cf_frame f = packed_frame(buf, CF_FORMAT_I420, 6, 2);
    const uint8_t y8[] = { 0, 16, 17, 126, 235, 255 };
    for (int i = 0; i < 6; i++) buf[i] = buf[6 + i] = y8[i];
    auto out = run_host("gray", &f);
    EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.begin() + 6),
              (std::vector<uint8_t>{ 0, 0, 1, 128, 255, 255 }));
    cf_frame p = packed_frame(buf, CF_FORMAT_P010_10LE, 6, 2);
    const int y10[] = { 0, 64, 502, 940, 1023, 65 };
    for (int i = 0; i < 12; i++) put16(buf, i, y10[i % 6] << 6);
    out = run_host("gray", &p);
    EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.begin() + 6),
              (std::vector<uint8_t>{ 0, 0, 128, 255, 255, 0 }));
    out = run_host("gray=range=full", &p); // round(Y * 255 / 1023)
    EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.begin() + 6),
              (std::vector<uint8_t>{ 0, 16, 125, 234, 255, 16 }));
    cf_frame i10 = packed_frame(buf, CF_FORMAT_I420_10LE, 6, 2);
    for (int i = 0; i < 12; i++) put16(buf, i, y10[i % 6]);
    out = run_host("gray", &i10);
    EXPECT_EQ(std::vector<uint8_t>(out.begin(), out.begin() + 6),
              (std::vector<uint8_t>{ 0, 0, 128, 255, 255, 0 }));
    cf_frame g16 = packed_frame(buf, CF_FORMAT_GRAY16_LE, 4, 1);
    const int v16[] = { 0, 32767, 32768, 65535 }; // round(v * 255 / 65535)
    for (int i = 0; i < 4; i++) put16(buf, i, v16[i]);
    EXPECT_EQ(run_host("gray", &g16), (std::vector<uint8_t>{ 0, 127, 128, 255 }));
}

TEST(GrayCpu, DivisionByMultiplyIsExact)
{
    // The GPU's range expansion divides by 2 * span with a multiply and a
    // shift: equal to the CPU's division for every sample, on every 8- and
    // 10-bit span, the 16-bit ones in use and a spread of others.
    std::vector<int> spans;
    for (int span = 1; span < 1024; span++) spans.push_back(span);
    for (int span = 1024; span <= 65535; span += 61) spans.push_back(span);
    spans.insert(spans.end(), { 219 << 8, 65534, 65535 });
    const int lo = 16;
    for (int span : spans) {
        uint32_t magic;
        int shift;
        cf_gray_division_magic(span, &magic, &shift);
        ASSERT_LE(magic, 1u << 31) << "span " << span;
        ASSERT_GE(shift, 32) << "span " << span;
        for (int v = 0; v <= lo + span + 1; v++)
            ASSERT_EQ(cf_gray_expand_magic(v, lo, span, magic, shift), cf_gray_expand(v, lo, span))
                << "span " << span << " v " << v;
    }
    // The 32-bit form for 8- and 10-bit spans: every span it takes, every
    // clamped sample.
    for (int span = 1; span < 2896; span++) {
        uint32_t mul24 = cf_gray_mul24(span);
        ASSERT_NE(mul24, 0u);
        for (int t = 0; t <= span; t++)
            ASSERT_EQ(cf_gray_expand_mul24((uint32_t)t, mul24), cf_gray_expand(t + lo, lo, span))
                << "span " << span << " t " << t;
    }
    EXPECT_EQ(cf_gray_mul24(2896), 0u);
}

// Runs gray into the input's own format, returns every plane packed.
static std::vector<std::vector<uint8_t>> gray_keep(const char *text, cf_frame *src)
{
    cf_chain *chain = cf_chain_parse(text);
    cf_frame dst;
    EXPECT_EQ(cf_frame_alloc(&dst, src->format, src->width, src->height, CF_MEMORY_HOST), CF_OK);
    EXPECT_EQ(cf_filter_run(cf_chain_get(chain, 0), src, &dst, nullptr), CF_OK) << cf_last_error();
    std::vector<std::vector<uint8_t>> planes;
    for (int p = 0; p < cf_format_get_info(src->format)->n_planes; p++) {
        size_t row = cf_format_plane_row_bytes(src->format, p, src->width);
        planes.emplace_back();
        for (int y = 0; y < cf_format_plane_height(src->format, p, src->height); y++)
            planes.back().insert(planes.back().end(), dst.data[p] + y * dst.pitch[p],
                                 dst.data[p] + y * dst.pitch[p] + row);
    }
    cf_frame_free(&dst);
    cf_chain_free(&chain);
    return planes;
}

TEST(GrayCpu, KeepsTheInputFormatWhenAsked)
{
    cf_filter *gray = cf_filter_new("gray");
    cf_format outs[4];
    ASSERT_EQ(cf_filter_get_output_formats(gray, CF_FORMAT_RGBA, outs, 4), 2);
    EXPECT_EQ(outs[0], CF_FORMAT_GRAY8);
    EXPECT_EQ(outs[1], CF_FORMAT_RGBA);
    EXPECT_EQ(cf_filter_get_output_formats(gray, CF_FORMAT_GRAY8, outs, 4), 1);
    EXPECT_EQ(cf_filter_get_output_formats(gray, CF_FORMAT_UNKNOWN, outs, 4), 0);
    cf_filter_free(&gray);

    std::vector<uint8_t> buf = { 255, 0, 0, 77, 0, 255, 0, 99 }; // two RGBA pixels
    cf_frame rgba = packed_frame(buf, CF_FORMAT_RGBA, 2, 1);
    buf = { 255, 0, 0, 77, 0, 255, 0, 99 };
    EXPECT_EQ(gray_keep("gray", &rgba)[0], (std::vector<uint8_t>{ 76, 76, 76, 77, 150, 150, 150, 99 }));

    std::mt19937 rng(9);
    for (cf_format fmt : { CF_FORMAT_NV12, CF_FORMAT_I420, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE }) {
        cftest::GuardedFrame src(fmt, 5, 3, CF_MEMORY_HOST, rng);
        auto planes = gray_keep("gray", src.frame());
        EXPECT_EQ(planes[0], src.pixels(0)) << cf_format_name(fmt); // Y kept as it is
        const cf_format_info *info = cf_format_get_info(fmt);
        uint16_t neutral = (uint16_t)((1 << (info->depth - 1)) << info->shift);
        for (size_t p = 1; p < planes.size(); p++)
            for (size_t i = 0; i < planes[p].size(); i++)
                ASSERT_EQ(planes[p][i], info->sample_bytes == 1 ? neutral : (uint8_t)(neutral >> (8 * (i % 2))))
                    << cf_format_name(fmt) << " plane " << p;
    }
}

TEST(BorderIndex, FoldsLikeOpenCv)
{
    // reflect101 on 5 samples: ...2 1 | 0 1 2 3 4 | 3 2...
    EXPECT_EQ(cf_border_index(-1, 5, CF_BORDER_REFLECT101), 1);
    EXPECT_EQ(cf_border_index(-2, 5, CF_BORDER_REFLECT101), 2);
    EXPECT_EQ(cf_border_index(5, 5, CF_BORDER_REFLECT101), 3);
    EXPECT_EQ(cf_border_index(-1, 5, CF_BORDER_REFLECT), 0);
    EXPECT_EQ(cf_border_index(6, 5, CF_BORDER_REFLECT), 3);
    EXPECT_EQ(cf_border_index(-3, 5, CF_BORDER_REPLICATE), 0);
    EXPECT_EQ(cf_border_index(9, 5, CF_BORDER_REPLICATE), 4);
    EXPECT_EQ(cf_border_index(-1, 5, CF_BORDER_CONSTANT), -1);
    EXPECT_EQ(cf_border_index(5, 5, CF_BORDER_CONSTANT), -1);
    EXPECT_EQ(cf_border_index(4, 5, CF_BORDER_CONSTANT), 4);
    // Far outside: folds again and again, stays inside.
    const int seq101[] = { 1, 2, 1, 0, 1, 2, 1 }; // i = -7 .. -1 on 3 samples
    for (int i = -7; i < 0; i++) EXPECT_EQ(cf_border_index(i, 3, CF_BORDER_REFLECT101), seq101[i + 7]);
    for (int b = 0; b < 3; b++) // constant is -1 outside, checked above
        for (int i = -1000; i < 1000; i++) {
            int n = 1 + (i & 7);
            int j = cf_border_index(i, n, b);
            ASSERT_TRUE(j >= 0 && j < n) << i << " " << n << " " << b;
        }
}

TEST(BlurRegRows, SplitsTheLastWaveOfAnH200)
{
    int full[CF_MAX_PLANES], first[CF_MAX_PLANES];
    // 4K GRAY8 in tiles of 80 rows: 27 rows of 60 tiles on 660 slots
    // (132 SMs x 5 blocks): 1620 % 660 = 300 tiles in the last wave, its 5
    // tile rows split into 10.
    const int h1[] = { 2160 }, t1[] = { 80 }, c1[] = { 60 };
    EXPECT_EQ(cf_blur_reg_rows(1, h1, t1, c1, 660, full, first), 32);
    EXPECT_EQ(full[0], 22);
    EXPECT_EQ(first[0], 0);
    // 4K NV12: Y 27 x 60 tiles, UV 14 x 30 (its last row 40 high): 2040 %
    // 660 = 60, two UV rows; the UV rows past 12 full ones: 120 pixel rows,
    // three of 40.
    const int h2[] = { 2160, 1080 }, t2[] = { 80, 80 }, c2[] = { 60, 30 };
    EXPECT_EQ(cf_blur_reg_rows(2, h2, t2, c2, 660, full, first), 27 + 12 + 3);
    EXPECT_EQ(full[0], 27);
    EXPECT_EQ(full[1], 12);
    EXPECT_EQ(first[1], 27);
    // No slots (split off), and a last wave over half the slots: whole tiles.
    EXPECT_EQ(cf_blur_reg_rows(2, h2, t2, c2, 0, full, first), 27 + 14);
    EXPECT_EQ(full[1], 14);
    EXPECT_EQ(cf_blur_reg_rows(1, h1, t1, c1, 1000, full, first), 27); // 620 > 500
    EXPECT_EQ(full[0], 27);
}

TEST(BlurRegRows, EveryPixelRowOnceInAnyLaunch)
{
    // The kernel's mapping (cf_blur_reg_tile_y0, as blur8_reg uses it) of
    // launch tile rows to pixel rows, over random planes and GPU sizes:
    // every pixel row of every plane exactly once, tiles inside their
    // plane, and the split tiles at most the slots.
    std::mt19937 rng(8);
    const int heights[] = { 32, 48, 64, 80, 88, 112 };
    for (int trial = 0; trial < 20000; trial++) {
        const int n = 1 + (int)(rng() % 3);
        int h[CF_MAX_PLANES], t[CF_MAX_PLANES], c[CF_MAX_PLANES];
        int full[CF_MAX_PLANES], first[CF_MAX_PLANES];
        long long tiles = 0;
        for (int i = 0; i < n; i++) {
            h[i] = (int)(rng() % (trial % 2 ? 3000 : 300));
            t[i] = heights[rng() % 6];
            c[i] = (int)(rng() % 80);
            tiles += (long long)((h[i] + t[i] - 1) / t[i]) * c[i];
        }
        const long long slots = rng() % 4 ? (long long)(rng() % 1000) : 0;
        const long long rows = cf_blur_reg_rows(n, h, t, c, slots, full, first);
        SCOPED_TRACE("trial " + std::to_string(trial));
        long long split_tiles = 0, moved = 0;
        for (int i = 0; i < n; i++) {
            const int end = i + 1 < n ? first[i + 1] : (int)rows;
            std::vector<int> seen(h[i], 0);
            for (int r = first[i]; r < end; r++) {
                const int ty = r - first[i];
                int th;
                const int y0 = cf_blur_reg_tile_y0(ty, full[i], t[i], &th);
                ASSERT_LT(y0, h[i]);
                for (int y = y0; y < std::min(h[i], y0 + th); y++) seen[y]++;
                split_tiles += ty < full[i] ? 0 : c[i];
            }
            for (int y = 0; y < h[i]; y++) ASSERT_EQ(seen[y], 1) << "plane " << i << " row " << y;
            moved += (long long)((h[i] + t[i] - 1) / t[i] - full[i]) * c[i];
        }
        if (moved > 0) {
            ASSERT_GT(slots, 0);
            ASSERT_LE(moved, tiles % slots);
            ASSERT_LE(split_tiles, slots);
        }
    }
}

TEST(BlurCpu, FlatStaysFlatAndTinySigmaIsIdentity)
{
    std::mt19937 rng(5);
    for (cf_format fmt : { CF_FORMAT_GRAY8, CF_FORMAT_RGBA, CF_FORMAT_NV12, CF_FORMAT_I420 }) {
        std::vector<uint8_t> buf;
        cf_frame f = packed_frame(buf, fmt, 11, 9);
        std::fill(buf.begin(), buf.end(), 173);
        for (const char *s : { "blur=sigma=3", "blur=sigma=2:border=replicate",
                               "blur=sigma=9:border=reflect" })
            EXPECT_EQ(run_host(s, &f), std::vector<uint8_t>(11 * 9 * cf_format_get_info(fmt)->pixel_bytes[0], 173))
                << s << " " << cf_format_name(fmt);
        for (auto &b : buf) b = (uint8_t)rng();
        std::vector<uint8_t> in0(buf.begin(), buf.begin() + 11 * 9 * cf_format_get_info(fmt)->pixel_bytes[0]);
        EXPECT_EQ(run_host("blur=sigma=0.1", &f), in0) << cf_format_name(fmt);
    }
}

// Straightforward double-precision separable Gaussian, OpenCV's kernel.
static std::vector<uint8_t> reference_blur(const std::vector<uint8_t> &in, int w, int h,
                                           double sigma, int border)
{
    int n = (int)std::lrint(sigma * 6 + 1) | 1, r = n / 2;
    std::vector<double> k(n);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += k[i] = std::exp(-(i - r) * (i - r) / (2 * sigma * sigma));
    for (auto &v : k) v /= sum;
    std::vector<double> tmp(w * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double a = 0;
            for (int t = 0; t < n; t++) a += k[t] * in[y * w + cf_border_index(x - r + t, w, border)];
            tmp[y * w + x] = a;
        }
    std::vector<uint8_t> out(w * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double a = 0;
            for (int t = 0; t < n; t++) a += k[t] * tmp[cf_border_index(y - r + t, h, border) * w + x];
            out[y * w + x] = (uint8_t)std::lrint(a);
        }
    return out;
}

TEST(BlurCpu, WithinOneLsbOfDoublePrecision)
{
    std::mt19937 rng(11);
    const char *borders[] = { "reflect101", "replicate", "reflect" };
    for (double sigma : { 0.8, 1.7, 2.0, 4.5 })
        for (int b = 0; b < 3; b++) {
            int w = 37, h = 23;
            std::vector<uint8_t> buf(w * h);
            for (auto &v : buf) v = (uint8_t)rng();
            cf_frame f = cftest::wrap_gray(buf, w, h);
            char text[96];
            snprintf(text, sizeof text, "blur=sigma=%g:border=%s", sigma, borders[b]);
            auto got = run_host(text, &f);
            auto expect = reference_blur(buf, w, h, sigma, b);
            int worst = 0;
            for (size_t i = 0; i < got.size(); i++) worst = std::max(worst, std::abs(got[i] - expect[i]));
            EXPECT_LE(worst, 1) << text;
        }
}

TEST(BlurCpu, KernelWiderThanImageStaysInside)
{
    std::vector<uint8_t> buf = { 10, 200, 30, 90, 250, 0 };
    cf_frame f = cftest::wrap_gray(buf, 3, 2);
    for (const char *s : { "blur=sigma=20", "blur=sigma=20:border=reflect",
                           "blur=sigma=20:border=replicate", "blur=sigma=1:kernel-size=1023" }) {
        auto out = run_host(s, &f);
        ASSERT_EQ(out.size(), 6u);
        for (uint8_t v : out) EXPECT_TRUE(v >= 0 && v <= 250) << s;
    }
    std::vector<uint8_t> one = { 77 };
    cf_frame f1 = cftest::wrap_gray(one, 1, 1);
    EXPECT_EQ(run_host("blur=sigma=5", &f1)[0], 77);
}

TEST(BlurCpu, ConstantBorderUsesTheBorderValue)
{
    // A flat image whose border value equals its pixels stays flat.
    std::vector<uint8_t> buf(9 * 7, 90);
    cf_frame f = cftest::wrap_gray(buf, 9, 7);
    EXPECT_EQ(run_host("blur=sigma=3:border=constant:border-value=90", &f), buf);
    // With border 0 the corners darken most and the centre least.
    auto out = run_host("blur=sigma=3:border=constant", &f);
    EXPECT_LT(out[0], out[4 + 3 * 9]);
    EXPECT_LT(out[0], 90);
    // Same math as the double reference with zeros outside.
    std::vector<uint8_t> one = { 200 };
    cf_frame f1 = cftest::wrap_gray(one, 1, 1);
    // 1x1, 3 taps, sigma 1: the centre weight squared, rounded.
    double w = 1.0 / (1.0 + 2.0 * std::exp(-0.5));
    EXPECT_NEAR(run_host("blur=sigma=1:kernel-size=3:border=constant", &f1)[0], 200 * w * w, 1.0);
    // border-value above the format's maximum is clamped to it.
    EXPECT_EQ(run_host("blur=sigma=1:border=constant:border-value=9999", &f1)[0],
              run_host("blur=sigma=1:border=constant:border-value=255", &f1)[0]);
}

TEST(BlurCpu, SigmaYBlursRowsAndColumnsDifferently)
{
    std::mt19937 rng(21);
    const int w = 31, h = 9;
    std::vector<uint8_t> buf(w * h);
    for (auto &v : buf) v = (uint8_t)rng();
    cf_frame f = cftest::wrap_gray(buf, w, h);
    // A tiny vertical sigma leaves rows independent: each row equals the
    // blur of that row alone.
    auto both = run_host("blur=sigma=2:sigma-y=0.01", &f);
    for (int y = 0; y < h; y++) {
        std::vector<uint8_t> row(buf.begin() + y * w, buf.begin() + (y + 1) * w);
        cf_frame r = cftest::wrap_gray(row, w, 1);
        EXPECT_EQ(run_host("blur=sigma=2", &r), std::vector<uint8_t>(both.begin() + y * w, both.begin() + (y + 1) * w)) << y;
    }
    EXPECT_NE(run_host("blur=sigma=2:sigma-y=5", &f), run_host("blur=sigma=2", &f));
}

TEST(BlurCpu, SixteenAndTenBitSamples)
{
    std::mt19937 rng(4);
    const int w = 23, h = 11;
    // GRAY16: flat stays flat; within 1 of the double reference scaled.
    std::vector<uint8_t> buf;
    cf_frame g = packed_frame(buf, CF_FORMAT_GRAY16_LE, w, h);
    for (int i = 0; i < w * h; i++) put16(buf, i, 40000);
    auto out = run_host("blur=sigma=2.5", &g);
    for (int i = 0; i < w * h; i++) ASSERT_EQ(out[2 * i] | out[2 * i + 1] << 8, 40000);
    // P010: results stay 10-bit values in the high bits (low 6 bits zero).
    cf_frame p = packed_frame(buf, CF_FORMAT_P010_10LE, w, h);
    for (size_t i = 0; i < buf.size() / 2; i++) put16(buf, i, (int)(rng() % 1024) << 6);
    for (int plane = 0; plane < 2; plane++) {
        out = run_host("blur=sigma=1.5", &p, plane);
        for (size_t i = 0; i < out.size() / 2; i++) ASSERT_EQ(out[2 * i] & 0x3f, 0) << plane;
    }
    // I420_10LE: values stay within 10 bits.
    cf_frame i10 = packed_frame(buf, CF_FORMAT_I420_10LE, w, h);
    for (size_t i = 0; i < buf.size() / 2; i++) put16(buf, i, (int)(rng() % 1024));
    out = run_host("blur=sigma=3", &i10);
    for (size_t i = 0; i < out.size() / 2; i++) ASSERT_LT(out[2 * i] | out[2 * i + 1] << 8, 1024);
}

TEST(BlurCpu, OpenCvKernelSizeRuleDependsOnDepth)
{
    // sigma 1: 8-bit rule round(6+1)|1 = 7 taps, 16-bit rule round(8+1)|1 = 9:
    // an impulse spreads 3 vs 4 samples each way.
    std::vector<uint8_t> buf(21, 0);
    buf[10] = 255;
    cf_frame f8 = cftest::wrap_gray(buf, 21, 1);
    auto out8 = run_host("blur=sigma=1", &f8);
    std::vector<uint8_t> buf16;
    cf_frame f16 = packed_frame(buf16, CF_FORMAT_GRAY16_LE, 21, 1);
    put16(buf16, 10, 65535);
    auto out16 = run_host("blur=sigma=1", &f16);
    EXPECT_EQ(out8[6], 0);
    EXPECT_GT(out8[7], 0);
    EXPECT_EQ(out16[2 * 5] | out16[2 * 5 + 1] << 8, 0);
    EXPECT_GT(out16[2 * 6] | out16[2 * 6 + 1] << 8, 0);
}
