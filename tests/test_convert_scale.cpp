// convert and scale on the CPU reference: against OpenCV 4.6 on real photos
// (tests/vectors/MANIFEST-convert-scale, made by
// make_convert_scale_vectors.cpp), against the ITU formulas for BT.709 and
// BT.2020, and the filters' parameters, sizes and errors. The GPU suite
// proves the CUDA kernels identical to this reference; the vectors also run
// on the GPU here when there is one.
#include <cmath>
#include <fstream>
#include <sstream>

#include "convert_scale_utils.h"

#ifndef CF_VECTORS_DIR
#error "CF_VECTORS_DIR must name tests/vectors"
#endif

namespace {

struct Pnm {
    int width = 0, height = 0, channels = 0;
    std::vector<uint8_t> bytes;
};

Pnm read_pnm(const std::string &name)
{
    std::ifstream f(std::string(CF_VECTORS_DIR) + "/" + name, std::ios::binary);
    if (!f) throw std::runtime_error("cannot open " + name);
    std::string magic;
    int maxval = 0;
    Pnm p;
    f >> magic >> p.width >> p.height >> maxval;
    f.get();
    if ((magic != "P5" && magic != "P6") || maxval != 255)
        throw std::runtime_error(name + ": not an 8-bit binary PGM/PPM");
    p.channels = magic == "P5" ? 1 : 3;
    p.bytes.resize((size_t)p.width * p.height * p.channels);
    f.read((char *)p.bytes.data(), (std::streamsize)p.bytes.size());
    if (!f) throw std::runtime_error(name + ": truncated");
    return p;
}

// A host frame over a picture's bytes: RGB and GRAY8 as they are, I420 and
// NV12 from OpenCV's layout (a PGM of width x height * 3 / 2).
cf_frame wrap(Pnm &p, cf_format format)
{
    cf_frame f{};
    f.format = format;
    f.width = p.width;
    f.height = p.height;
    f.memory = CF_MEMORY_HOST;
    f.device = -1;
    f.data[0] = p.bytes.data();
    f.pitch[0] = (size_t)p.width * p.channels;
    if (format == CF_FORMAT_I420 || format == CF_FORMAT_NV12) {
        int w = p.width, h = p.height * 2 / 3;
        f.height = h;
        f.data[1] = p.bytes.data() + (size_t)w * h;
        f.pitch[1] = format == CF_FORMAT_NV12 ? (size_t)w : (size_t)w / 2;
        f.data[2] = f.data[1] + (size_t)(w / 2) * (h / 2);
        f.pitch[2] = (size_t)w / 2;
    }
    return f;
}

// Runs one filter string on `src` (on the GPU when asked) and returns the
// output, every plane packed.
std::vector<uint8_t> run_one(const std::string &text, const cf_frame &src, bool on_gpu,
                             cf_format *out_format)
{
    cf_chain *chain = cf_chain_parse(text.c_str());
    if (!chain) throw std::runtime_error(cf_last_error());
    cf_filter *f = cf_chain_get(chain, 0);
    int w = 0, h = 0;
    EXPECT_EQ(cf_filter_get_output_format(f, src.format, out_format), CF_OK);
    EXPECT_EQ(cf_filter_get_output_size(f, src.width, src.height, &w, &h), CF_OK);
    cf_frame dst{};
    EXPECT_EQ(cf_frame_alloc(&dst, *out_format, w, h, CF_MEMORY_HOST), CF_OK);
    if (!on_gpu) {
        EXPECT_EQ(cf_filter_run(f, &src, &dst, nullptr), CF_OK) << cf_last_error();
    } else {
        cf_frame dsrc{}, ddst{};
        cf_stream stream = nullptr;
        EXPECT_EQ(cf_stream_create(&stream), CF_OK);
        EXPECT_EQ(cf_frame_alloc(&dsrc, src.format, src.width, src.height, CF_MEMORY_DEVICE), CF_OK);
        EXPECT_EQ(cf_frame_alloc(&ddst, dst.format, w, h, CF_MEMORY_DEVICE), CF_OK);
        EXPECT_EQ(cf_frame_upload(&src, &dsrc, stream), CF_OK);
        EXPECT_EQ(cf_filter_run(f, &dsrc, &ddst, stream), CF_OK) << cf_last_error();
        EXPECT_EQ(cf_frame_download(&ddst, &dst, stream), CF_OK);
        EXPECT_EQ(cf_stream_synchronize(stream), CF_OK) << cf_last_error();
        cf_frame_free(&dsrc);
        cf_frame_free(&ddst);
        cf_stream_destroy(&stream);
    }
    std::vector<uint8_t> out = cftest::packed_pixels(dst);
    cf_frame_free(&dst);
    cf_chain_free(&chain);
    return out;
}

void check_vectors(bool on_gpu)
{
    std::ifstream m(std::string(CF_VECTORS_DIR) + "/MANIFEST-convert-scale");
    std::string expected, input, format, chain;
    int tolerance = 0, count = 0;
    while (m >> expected >> input >> format >> tolerance >> chain) {
        SCOPED_TRACE(expected + " = " + chain + " of " + input);
        count++;
        Pnm in = read_pnm(input), want = read_pnm(expected);
        cf_frame src = wrap(in, cf_format_from_name(format.c_str()));
        cf_format out_format;
        std::vector<uint8_t> got = run_one(chain, src, on_gpu, &out_format);
        if (out_format == CF_FORMAT_RGBA) { // the vector keeps R, G, B; alpha must be 255
            std::vector<uint8_t> rgb;
            for (size_t i = 0; i < got.size(); i += 4) {
                rgb.insert(rgb.end(), &got[i], &got[i + 3]);
                EXPECT_EQ(got[i + 3], 255) << "alpha of pixel " << i / 4;
            }
            got = rgb;
        }
        ASSERT_EQ(got.size(), want.bytes.size());
        int worst = 0;
        size_t off = 0;
        for (size_t i = 0; i < got.size(); i++) {
            int d = std::abs(got[i] - want.bytes[i]);
            worst = std::max(worst, d);
            off += d != 0;
        }
        EXPECT_LE(worst, tolerance);
        std::printf("%-22s max diff %d, %6.3f%% of samples differ  (%s)\n", expected.c_str(),
                    worst, 100.0 * off / got.size(), chain.c_str());
    }
    EXPECT_GE(count, 18);
}

} // namespace

TEST(ConvertScaleVectors, CpuMatchesOpenCv) { check_vectors(false); }

TEST(ConvertScaleVectors, GpuMatchesOpenCv)
{
    CF_REQUIRE_GPU();
    check_vectors(true);
}

// ---- the ITU formulas (convert.h), in double precision ----

namespace {

struct Matrix {
    const char *name;
    double kr, kb;
};
const Matrix kMatrices[] = { { "bt601", 0.299, 0.114 }, { "bt709", 0.2126, 0.0722 },
                             { "bt2020", 0.2627, 0.0593 } };

struct Quant {
    double ylo, yspan, cmid, cspan, max;
};

Quant quant(bool full, int depth)
{
    double m = (1 << depth) - 1, k = 1 << (depth - 8);
    if (full) return { 0, m, (double)(1 << (depth - 1)), m, m };
    return { 16 * k, 219 * k, 128 * k, 224 * k, m };
}

double clampd(double v, double hi) { return v < 0 ? 0 : v > hi ? hi : v; }

// A random RGB picture with smooth areas and edges.
std::vector<uint8_t> random_rgb(int w, int h, std::mt19937 &rng)
{
    std::vector<uint8_t> rgb((size_t)w * h * 3);
    for (auto &b : rgb) b = (uint8_t)rng();
    return rgb;
}

// Reads sample i of a 16-bit or 8-bit plane of a packed buffer.
int sample(const std::vector<uint8_t> &v, size_t i, int bytes, int shift)
{
    return bytes == 1 ? v[i] : (v[2 * i] | v[2 * i + 1] << 8) >> shift;
}

} // namespace

// RGB -> 4:2:0 with nearest chroma: Y of every pixel and U, V of every
// block's top-left pixel within 1 of the formulas, for every matrix, both
// ranges, 8 and 10 bits, planar and semi-planar.
TEST(ConvertItu, RgbToYuvWithinOneOfTheFormulas)
{
    std::mt19937 rng(709);
    const int w = 37, h = 23;
    std::vector<uint8_t> rgb = random_rgb(w, h, rng);
    cf_frame src{};
    src.format = CF_FORMAT_RGB, src.width = w, src.height = h, src.memory = CF_MEMORY_HOST;
    src.data[0] = rgb.data(), src.pitch[0] = (size_t)w * 3, src.device = -1;
    const char *formats[] = { "nv12", "i420", "p010", "i420_10" };
    for (const Matrix &mx : kMatrices)
        for (bool full : { false, true })
            for (const char *fmt : formats) {
                std::string text = std::string("convert=format=") + fmt + ":matrix=" + mx.name +
                                   ":range=" + (full ? "full" : "limited") +
                                   ":chroma-filter=nearest";
                SCOPED_TRACE(text);
                cf_format out_format;
                std::vector<uint8_t> got = run_one(text, src, false, &out_format);
                const cf_format_info *info = cf_format_get_info(out_format);
                Quant q = quant(full, info->depth);
                int sb = info->sample_bytes, cw = (w + 1) / 2, ch = (h + 1) / 2;
                double kg = 1 - mx.kr - mx.kb;
                int worst = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        const uint8_t *p = &rgb[((size_t)y * w + x) * 3];
                        double ey = (mx.kr * p[0] + kg * p[1] + mx.kb * p[2]) / 255;
                        double want = clampd(q.ylo + q.yspan * ey, q.max);
                        int have = sample(got, (size_t)y * w + x, sb, info->shift);
                        worst = std::max(worst, (int)std::ceil(std::fabs(have - want) - 0.5 - 1e-9));
                        if (x % 2 || y % 2) continue;
                        double epb = (p[2] / 255.0 - ey) / (2 * (1 - mx.kb));
                        double epr = (p[0] / 255.0 - ey) / (2 * (1 - mx.kr));
                        double wu = clampd(q.cmid + q.cspan * epb, q.max);
                        double wv = clampd(q.cmid + q.cspan * epr, q.max);
                        size_t ci = (size_t)(y / 2) * cw + x / 2, base = (size_t)w * h;
                        int u, v;
                        if (info->n_planes == 2) {
                            u = sample(got, base + 2 * ci, sb, info->shift);
                            v = sample(got, base + 2 * ci + 1, sb, info->shift);
                        } else {
                            u = sample(got, base + ci, sb, info->shift);
                            v = sample(got, base + (size_t)cw * ch + ci, sb, info->shift);
                        }
                        worst = std::max(worst, (int)std::ceil(std::fabs(u - wu) - 0.5 - 1e-9));
                        worst = std::max(worst, (int)std::ceil(std::fabs(v - wv) - 0.5 - 1e-9));
                    }
                // worst: how far beyond correct rounding (0: the rounded value).
                EXPECT_LE(worst, 1);
            }
}

// 4:2:0 -> RGB with nearest chroma: every pixel within 1 of the formulas
// applied to its luma and its block's chroma.
TEST(ConvertItu, YuvToRgbWithinOneOfTheFormulas)
{
    std::mt19937 rng(2020);
    const int w = 41, h = 19, cw = (w + 1) / 2, ch = (h + 1) / 2;
    for (const Matrix &mx : kMatrices)
        for (bool full : { false, true })
            for (cf_format fmt : { CF_FORMAT_I420, CF_FORMAT_NV12, CF_FORMAT_P010_10LE,
                                   CF_FORMAT_I420_10LE }) {
                std::string text = std::string("convert=format=rgb:matrix=") + mx.name +
                                   ":range=" + (full ? "full" : "limited") + ":chroma-filter=nearest";
                SCOPED_TRACE(text + " from " + cf_format_name(fmt));
                cf_frame src{};
                CF_ASSERT_OK(cf_frame_alloc(&src, fmt, w, h, CF_MEMORY_HOST));
                const cf_format_info *info = cf_format_get_info(fmt);
                Quant q = quant(full, info->depth);
                int sb = info->sample_bytes;
                // Values inside the range (a real encoder's output).
                auto pick = [&](double lo, double span) {
                    return (int)(lo + std::uniform_int_distribution<int>(0, (int)span)(rng));
                };
                std::vector<int> Y((size_t)w * h), U((size_t)cw * ch), V((size_t)cw * ch);
                for (auto &v : Y) v = pick(q.ylo, q.yspan);
                for (auto &v : U) v = pick(q.cmid - q.cspan / 2, q.cspan);
                for (auto &v : V) v = pick(q.cmid - q.cspan / 2, q.cspan);
                auto put = [&](int plane, int x, int y, int comp, int v) {
                    uint8_t *p = src.data[plane] + (size_t)y * src.pitch[plane] +
                                 (size_t)(x * (info->pixel_bytes[plane] / sb) + comp) * sb;
                    int word = v << info->shift;
                    p[0] = (uint8_t)word;
                    if (sb == 2) p[1] = (uint8_t)(word >> 8);
                };
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) put(0, x, y, 0, Y[(size_t)y * w + x]);
                for (int j = 0; j < ch; j++)
                    for (int i = 0; i < cw; i++) {
                        int u = U[(size_t)j * cw + i], v = V[(size_t)j * cw + i];
                        if (info->n_planes == 2) {
                            put(1, i, j, 0, u);
                            put(1, i, j, 1, v);
                        } else {
                            put(1, i, j, 0, u);
                            put(2, i, j, 0, v);
                        }
                    }
                cf_format out_format;
                std::vector<uint8_t> got = run_one(text, src, false, &out_format);
                double kg = 1 - mx.kr - mx.kb;
                int worst = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        double ey = (Y[(size_t)y * w + x] - q.ylo) / q.yspan;
                        double pb = (U[(size_t)(y / 2) * cw + x / 2] - q.cmid) / q.cspan;
                        double pr = (V[(size_t)(y / 2) * cw + x / 2] - q.cmid) / q.cspan;
                        double r = ey + 2 * (1 - mx.kr) * pr, b = ey + 2 * (1 - mx.kb) * pb;
                        double g = (ey - mx.kr * r - mx.kb * b) / kg;
                        double want[3] = { r, g, b };
                        for (int c = 0; c < 3; c++) {
                            double e = clampd(255 * want[c], 255);
                            int have = got[((size_t)y * w + x) * 3 + c];
                            worst = std::max(worst, (int)std::ceil(std::fabs(have - e) - 0.5 - 1e-9));
                        }
                    }
                EXPECT_LE(worst, 1);
                cf_frame_free(&src);
            }
}

// ---- behaviour ----

namespace {

// Runs `text` from a host frame into a new host frame of its output.
cf_frame run_to(const std::string &text, const cf_frame &src)
{
    cf_chain *chain = cf_chain_parse(text.c_str());
    EXPECT_NE(chain, nullptr) << cf_last_error();
    cf_filter *f = cf_chain_get(chain, 0);
    cf_format out;
    int w = 0, h = 0;
    EXPECT_EQ(cf_filter_get_output_format(f, src.format, &out), CF_OK);
    EXPECT_EQ(cf_filter_get_output_size(f, src.width, src.height, &w, &h), CF_OK);
    cf_frame dst{};
    EXPECT_EQ(cf_frame_alloc(&dst, out, w, h, CF_MEMORY_HOST), CF_OK);
    EXPECT_EQ(cf_filter_run(f, &src, &dst, nullptr), CF_OK) << text << ": " << cf_last_error();
    cf_chain_free(&chain);
    return dst;
}

} // namespace

// Every format to every other and back to RGB on a flat colour: the colour
// survives within 2 (gray formats keep its luma), whatever the chroma
// filter, siting and range.
TEST(Convert, EveryFormatPairKeepsAFlatColour)
{
    const uint8_t colour[3] = { 200, 90, 40 };
    const int w = 9, h = 7;
    std::vector<uint8_t> rgb((size_t)w * h * 3);
    for (size_t i = 0; i < rgb.size(); i++) rgb[i] = colour[i % 3];
    cf_frame src{};
    src.format = CF_FORMAT_RGB, src.width = w, src.height = h, src.memory = CF_MEMORY_HOST;
    src.data[0] = rgb.data(), src.pitch[0] = (size_t)w * 3, src.device = -1;
    int luma = (9798 * 200 + 19235 * 90 + 3735 * 40 + (1 << 14)) >> 15;
    const char *opts[] = { "", ":range=full:chroma-site=center", ":chroma-filter=nearest" };
    for (const char *o : opts)
        for (cf_format a : kAll)
            for (cf_format b : kAll) {
                std::string to_a = std::string("convert=format=") + choice_of(a) + o;
                std::string to_b = std::string("convert=format=") + choice_of(b) + o;
                SCOPED_TRACE(to_a + " then " + to_b);
                cf_frame fa = run_to(to_a, src);
                cf_frame fb = run_to(to_b, fa);
                cf_frame back = run_to(std::string("convert=format=rgb") + o, fb);
                bool gray = !cf_format_get_info(a)->is_yuv && cf_format_get_info(a)->r_offset < 0;
                gray = gray || (!cf_format_get_info(b)->is_yuv && cf_format_get_info(b)->r_offset < 0);
                int worst = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w * 3; x++) {
                        int want = gray ? luma : colour[x % 3];
                        worst = std::max(worst, std::abs(back.data[0][y * back.pitch[0] + x] - want));
                    }
                EXPECT_LE(worst, 2);
                cf_frame_free(&fa);
                cf_frame_free(&fb);
                cf_frame_free(&back);
            }
}

TEST(Convert, AlphaKeptOrFilled)
{
    std::vector<uint8_t> px = { 1, 2, 3, 44, 5, 6, 7, 88 };
    cf_frame src{};
    src.format = CF_FORMAT_RGBA, src.width = 2, src.height = 1, src.memory = CF_MEMORY_HOST;
    src.data[0] = px.data(), src.pitch[0] = 8, src.device = -1;
    cf_frame keep = run_to("convert=format=bgra", src);
    EXPECT_EQ(std::vector<uint8_t>(keep.data[0], keep.data[0] + 8),
              (std::vector<uint8_t>{ 3, 2, 1, 44, 7, 6, 5, 88 }));
    cf_frame fill = run_to("convert=format=rgba:alpha=128", src);
    EXPECT_EQ(std::vector<uint8_t>(fill.data[0], fill.data[0] + 8),
              (std::vector<uint8_t>{ 1, 2, 3, 128, 5, 6, 7, 128 }));
    src.format = CF_FORMAT_RGBX;
    cf_frame opaque = run_to("convert=format=rgba", src);
    EXPECT_EQ(opaque.data[0][3], 255);
    EXPECT_EQ(opaque.data[0][7], 255);
    cf_frame_free(&keep);
    cf_frame_free(&fill);
    cf_frame_free(&opaque);
    cf_filter *f = cf_filter_new("convert");
    EXPECT_TRUE(cf_filter_is_identity(f, CF_FORMAT_NV12, CF_FORMAT_NV12));
    EXPECT_FALSE(cf_filter_is_identity(f, CF_FORMAT_NV12, CF_FORMAT_RGBA));
    CF_ASSERT_OK(cf_filter_set_string(f, "alpha", "7"));
    EXPECT_FALSE(cf_filter_is_identity(f, CF_FORMAT_RGBA, CF_FORMAT_RGBA));
    cf_format outs[16];
    EXPECT_EQ(cf_filter_get_output_formats(f, CF_FORMAT_NV12, outs, 16), 12);
    EXPECT_EQ(outs[0], CF_FORMAT_RGBA);
    cf_filter_free(&f);
}

TEST(Scale, OutputSizeRules)
{
    cf_filter *f = cf_filter_new("scale");
    int w = 0, h = 0;
    CF_ASSERT_OK(cf_filter_get_output_size(f, 640, 360, &w, &h));
    EXPECT_EQ(w, 640);
    EXPECT_EQ(h, 360);
    CF_ASSERT_OK(cf_filter_set_string(f, "w", "1280"));
    CF_ASSERT_OK(cf_filter_get_output_size(f, 640, 360, &w, &h));
    EXPECT_EQ(h, 720); // in proportion
    CF_ASSERT_OK(cf_filter_set_string(f, "h", "100"));
    CF_ASSERT_OK(cf_filter_get_output_size(f, 640, 360, &w, &h));
    EXPECT_EQ(w, 1280);
    EXPECT_EQ(h, 100);
    CF_ASSERT_OK(cf_filter_set_string(f, "w", "0"));
    CF_ASSERT_OK(cf_filter_set_string(f, "crop-w", "320"));
    CF_ASSERT_OK(cf_filter_get_output_size(f, 640, 360, &w, &h));
    EXPECT_EQ(w, 89); // 100 * 320 / 360
    EXPECT_EQ(cf_filter_set_string(f, "method", "cubic"), CF_ERROR_PARSE);
    EXPECT_NE(std::string(cf_last_error()).find("bicubic"), std::string::npos);
    cf_filter_free(&f);
}

TEST(Scale, CropOutsideTheInputIsRefused)
{
    std::vector<uint8_t> px(16 * 8, 7);
    cf_frame src = cftest::wrap_gray(px, 16, 8), dst{};
    CF_ASSERT_OK(cf_frame_alloc(&dst, CF_FORMAT_GRAY8, 4, 4, CF_MEMORY_HOST));
    cf_filter *f = cf_filter_new("scale");
    CF_ASSERT_OK(cf_filter_set_string(f, "crop-x", "10"));
    CF_ASSERT_OK(cf_filter_set_string(f, "crop-w", "7"));
    EXPECT_EQ(cf_filter_run(f, &src, &dst, nullptr), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cf_last_error()).find("crop 7x8 at (10, 0)"), std::string::npos)
        << cf_last_error();
    CF_ASSERT_OK(cf_filter_set_string(f, "crop-w", "6"));
    CF_ASSERT_OK(cf_filter_run(f, &src, &dst, nullptr));
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) EXPECT_EQ(dst.data[0][y * dst.pitch[0] + x], 7);
    cf_frame_free(&dst);
    cf_filter_free(&f);
}

// Every method on every format: the same size gives the input back, a flat
// picture stays flat at any size (1x1 up to odd sizes, down to 1x1), and
// every plane has its own size.
TEST(Scale, IdentityAndFlatPicturesEveryMethodEveryFormat)
{
    std::mt19937 rng(5);
    const char *methods[] = { "nearest", "bilinear", "bicubic", "area", "lanczos" };
    struct { int sw, sh, dw, dh; } sizes[] = { { 1, 1, 7, 5 }, { 13, 9, 13, 9 }, { 13, 9, 1, 1 },
                                               { 13, 9, 6, 4 }, { 7, 3, 29, 17 }, { 12, 8, 4, 4 } };
    for (cf_format fmt : kAll)
        for (const char *m : methods)
            for (auto s : sizes) {
                std::string text = std::string("scale=method=") + m + ":w=" + std::to_string(s.dw) +
                                   ":h=" + std::to_string(s.dh);
                SCOPED_TRACE(text + " " + cf_format_name(fmt) + " from " + std::to_string(s.sw) +
                             "x" + std::to_string(s.sh));
                cftest::GuardedFrame src(fmt, s.sw, s.sh, CF_MEMORY_HOST, rng);
                const cf_format_info *info = cf_format_get_info(fmt);
                bool same = s.sw == s.dw && s.sh == s.dh;
                if (same && info->sample_bytes == 2) // valid samples: 10 bits where there are 10
                    for (int p = 0; p < info->n_planes; p++)
                        for (int y = 0; y < cf_format_plane_height(fmt, p, s.sh); y++) {
                            uint16_t *row = (uint16_t *)(src.frame()->data[p] + y * src.frame()->pitch[p]);
                            size_t n = cf_format_plane_row_bytes(fmt, p, s.sw) / 2;
                            for (size_t x = 0; x < n; x++)
                                row[x] = info->depth == 16 ? row[x]
                                         : (uint16_t)((row[x] & 0x3ff) << info->shift);
                        }
                if (!same) { // flat: every sample of a plane the same valid value
                    for (int p = 0; p < info->n_planes; p++)
                        for (int y = 0; y < cf_format_plane_height(fmt, p, s.sh); y++) {
                            uint8_t *row = src.frame()->data[p] + y * src.frame()->pitch[p];
                            size_t n = cf_format_plane_row_bytes(fmt, p, s.sw);
                            for (size_t x = 0; x < n; x++)
                                row[x] = info->sample_bytes == 2 ? (x % 2 ? 0x02 : 0x40) : 0x93;
                        }
                }
                cftest::GuardedFrame dst(fmt, s.dw, s.dh, CF_MEMORY_HOST, rng);
                cf_chain *chain = cf_chain_parse(text.c_str());
                ASSERT_NE(chain, nullptr);
                CF_ASSERT_OK(cf_filter_run(cf_chain_get(chain, 0), src.frame(), dst.frame(), nullptr));
                cf_chain_free(&chain);
                for (int p = 0; p < info->n_planes; p++) {
                    auto out = dst.pixels(p);
                    if (same) {
                        EXPECT_EQ(out, src.pixels(p)) << "plane " << p;
                        continue;
                    }
                    EXPECT_EQ(out.size(), cf_format_plane_row_bytes(fmt, p, s.dw) *
                                              cf_format_plane_height(fmt, p, s.dh));
                    for (size_t i = 0; i < out.size(); i++)
                        if (out[i] != (info->sample_bytes == 2 ? (i % 2 ? 0x02 : 0x40) : 0x93)) {
                            ADD_FAILURE() << "plane " << p << " byte " << i << ": " << int(out[i]);
                            break;
                        }
                }
                EXPECT_EQ(dst.damaged_guard_bytes(), 0u);
            }
}

// The scheduler runs a chain whose scales change the size on the way (on
// the GPU where there is one) and gives what the filters one after the
// other give.
TEST(Scale, SchedulerChainChangesSize)
{
    cftest::Chain chain("scale=w=31:h=17:method=area,convert=format=gray8,scale=w=8:h=4:method=bicubic");
    std::mt19937 rng(3);
    cftest::GuardedFrame src(CF_FORMAT_NV12, 64, 36, CF_MEMORY_HOST, rng);
    // The reference, filter by filter.
    cf_frame a = run_to("scale=w=31:h=17:method=area", *src.frame());
    cf_frame b = run_to("convert=format=gray8", a);
    cf_frame c = run_to("scale=w=8:h=4:method=bicubic", b);
    std::vector<uint8_t> want = cftest::packed_pixels(c);
    cf_scheduler *s = nullptr;
    cf_scheduler_params params{};
    params.filters = chain.filters.data();
    params.n_filters = (int)chain.filters.size();
    params.output = CF_SCHEDULER_OUTPUT_HOST;
    CF_ASSERT_OK(cf_scheduler_create(&s, &params));
    for (int i = 0; i < 3; i++) {
        CF_ASSERT_OK(cf_scheduler_submit(s, src.frame(), nullptr, nullptr));
        cf_scheduler_result r{};
        CF_ASSERT_OK(cf_scheduler_receive(s, &r, true));
        CF_ASSERT_OK(r.status);
        EXPECT_EQ(r.frame.width, 8);
        EXPECT_EQ(r.frame.height, 4);
        EXPECT_EQ(r.frame.format, CF_FORMAT_GRAY8);
        EXPECT_EQ(cftest::packed_pixels(r.frame), want);
        cf_scheduler_release(s, &r);
    }
    cf_scheduler_destroy(&s);
    cf_frame_free(&a);
    cf_frame_free(&b);
    cf_frame_free(&c);
}

// Area to 1x1 from a whole-number factor is the box mean of every sample:
// 512x256 GRAY16 samples of 65535 sum past 2^32 (the sum was 32-bit and
// wrapped: 32767 came out).
TEST(Scale, AreaBoxMeanOfManySixteenBitSamplesDoesNotOverflow)
{
    const int w = 512, h = 256;
    std::vector<uint8_t> px((size_t)w * h * 2, 0xff);
    cf_frame src{};
    src.format = CF_FORMAT_GRAY16_LE, src.width = w, src.height = h, src.memory = CF_MEMORY_HOST;
    src.data[0] = px.data(), src.pitch[0] = (size_t)w * 2, src.device = -1;
    for (const char *text : { "scale=w=1:h=1:method=area", "scale=w=2:h=1:method=area" }) {
        SCOPED_TRACE(text);
        cf_frame dst = run_to(text, src);
        for (int x = 0; x < dst.width; x++)
            EXPECT_EQ(dst.data[0][2 * x] | dst.data[0][2 * x + 1] << 8, 65535);
        cf_frame_free(&dst);
    }
}

// A crop corner outside the input is named as given, not as a region of
// negative size.
TEST(Scale, CropCornerOutsideTheInputIsNamed)
{
    std::vector<uint8_t> px(16 * 8, 7);
    cf_frame src = cftest::wrap_gray(px, 16, 8), dst{};
    CF_ASSERT_OK(cf_frame_alloc(&dst, CF_FORMAT_GRAY8, 4, 4, CF_MEMORY_HOST));
    cf_filter *f = cf_filter_new("scale");
    CF_ASSERT_OK(cf_filter_set_string(f, "crop-x", "20"));
    EXPECT_EQ(cf_filter_run(f, &src, &dst, nullptr), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cf_last_error()).find("crop-x=20 is outside the 16x8 input"),
              std::string::npos)
        << cf_last_error();
    CF_ASSERT_OK(cf_filter_set_string(f, "crop-x", "0"));
    CF_ASSERT_OK(cf_filter_set_string(f, "crop-y", "8"));
    EXPECT_EQ(cf_filter_run(f, &src, &dst, nullptr), CF_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(cf_last_error()).find("crop-y=8 is outside the 16x8 input"),
              std::string::npos)
        << cf_last_error();
    cf_frame_free(&dst);
    cf_filter_free(&f);
}

// Area shrinking by large factors that are not whole numbers: each output is
// within 1 of the exact mean of the box it covers (the Q11 weights were
// rounded one by one, and the error added up along the box: 8 levels off
// for 5001 -> 3, a single sample instead of the mean past a factor of 4096).
TEST(Scale, AreaLargeFractionalFactorsStayNearTheMean)
{
    for (auto [sw, dw] : std::vector<std::pair<int, int>>{ { 5001, 3 }, { 1001, 3 }, { 9001, 2 },
                                                           { 301, 3 }, { 20000, 7 } }) {
        SCOPED_TRACE(std::to_string(sw) + " -> " + std::to_string(dw));
        std::vector<uint8_t> px(sw);
        for (int i = 0; i < sw; i++) px[i] = (uint8_t)((long)i * 255 / (sw - 1));
        cf_frame src = cftest::wrap_gray(px, sw, 1);
        cf_frame dst = run_to("scale=w=" + std::to_string(dw) + ":h=1:method=area", src);
        double scale = (double)sw / dw;
        for (int d = 0; d < dw; d++) {
            double a = d * scale, b = a + scale, sum = 0;
            for (int i = (int)a; i < sw && i < b; i++)
                sum += (std::min(b, i + 1.0) - std::max(a, (double)i)) * px[i];
            EXPECT_NEAR(dst.data[0][d], sum / scale, 1.0) << "output " << d;
        }
        cf_frame_free(&dst);
    }
}
