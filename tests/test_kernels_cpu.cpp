// CPU references: known values, invariants and agreement with a plain
// double-precision Gaussian (the reference the fixed-point code stands for).
#include <cmath>

#include "test_utils.h"

extern "C" {
#include "blur.h"
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
    // OpenCV cvtColor(RGB2GRAY): Y = (4899 R + 9617 G + 1868 B + 8192) >> 14.
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
    // 12,200,99: (58788 + 1923400 + 184932 + 8192) >> 14 = 132
}

TEST(GrayCpu, MatricesDiffer)
{
    std::vector<uint8_t> buf;
    cf_frame f = packed_frame(buf, CF_FORMAT_RGB, 1, 1);
    buf = { 0, 255, 0 };
    EXPECT_EQ(run_host("gray=matrix=bt601", &f)[0], 150);
    EXPECT_EQ(run_host("gray=matrix=bt709", &f)[0], 182);  // (255*11718 + 8192) >> 14
    EXPECT_EQ(run_host("gray=matrix=bt2020", &f)[0], 173); // (255*11108 + 8192) >> 14
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

TEST(GrayCpu, YuvTakesTheLumaPlane)
{
    std::mt19937 rng(3);
    for (cf_format fmt : { CF_FORMAT_NV12, CF_FORMAT_I420, CF_FORMAT_GRAY8 }) {
        cftest::GuardedFrame src(fmt, 9, 7, CF_MEMORY_HOST, rng);
        EXPECT_EQ(run_host("gray", src.frame()), src.pixels(0)) << cf_format_name(fmt);
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
    // Far outside: folds again and again, stays inside.
    const int seq101[] = { 1, 2, 1, 0, 1, 2, 1 }; // i = -7 .. -1 on 3 samples
    for (int i = -7; i < 0; i++) EXPECT_EQ(cf_border_index(i, 3, CF_BORDER_REFLECT101), seq101[i + 7]);
    for (int b = 0; b < 3; b++)
        for (int i = -1000; i < 1000; i++) {
            int n = 1 + (i & 7);
            int j = cf_border_index(i, n, b);
            ASSERT_TRUE(j >= 0 && j < n) << i << " " << n << " " << b;
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
