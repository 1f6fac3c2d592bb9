// Outside references: OpenCV results on real photos (tests/vectors, made by
// make_vectors.py with Debian's python3-opencv). gray must match exactly,
// blur within 1 per sample. Runs the CPU reference; the GPU suite proves the
// CUDA kernels identical to it, and runs these vectors too when a GPU exists.
#include <fstream>
#include <sstream>

#include "test_utils.h"

#ifndef CF_VECTORS_DIR
#error "CF_VECTORS_DIR must name tests/vectors"
#endif

namespace {

struct Image {
    int width = 0, height = 0, channels = 0;
    std::vector<uint8_t> pixels; // packed rows
};

// Binary PGM (P5) or PPM (P6), maxval 255.
Image read_pnm(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot open " + path);
    std::string magic;
    int maxval = 0;
    Image img;
    f >> magic >> img.width >> img.height >> maxval;
    f.get();
    if ((magic != "P5" && magic != "P6") || maxval != 255)
        throw std::runtime_error(path + ": not an 8-bit binary PGM/PPM");
    img.channels = magic == "P5" ? 1 : 3;
    img.pixels.resize((size_t)img.width * img.height * img.channels);
    f.read((char *)img.pixels.data(), (std::streamsize)img.pixels.size());
    if (!f) throw std::runtime_error(path + ": truncated");
    return img;
}

cf_frame wrap(Image &img)
{
    cf_frame f{};
    f.format = img.channels == 1 ? CF_FORMAT_GRAY8 : CF_FORMAT_RGB;
    f.width = img.width;
    f.height = img.height;
    f.data[0] = img.pixels.data();
    f.pitch[0] = (size_t)img.width * img.channels;
    f.memory = CF_MEMORY_HOST;
    f.device = -1;
    return f;
}

// Runs every filter of `chain_text` on the CPU (or on the GPU when
// `on_gpu`), returns the last output, packed.
Image run_chain(const std::string &chain_text, Image input, bool on_gpu)
{
    cf_chain *chain = cf_chain_parse(chain_text.c_str());
    if (!chain) throw std::runtime_error(cf_last_error());
    Image cur = std::move(input);
    cf_stream stream = nullptr;
    if (on_gpu && cf_stream_create(&stream) != CF_OK) throw std::runtime_error(cf_last_error());
    for (int i = 0; i < cf_chain_length(chain); i++) {
        cf_frame src = wrap(cur);
        cf_format out_format;
        EXPECT_EQ(cf_filter_get_output_format(cf_chain_get(chain, i), src.format, &out_format), CF_OK);
        Image next{ cur.width, cur.height, out_format == CF_FORMAT_GRAY8 ? 1 : 3, {} };
        next.pixels.resize((size_t)next.width * next.height * next.channels);
        cf_frame dst = wrap(next);
        if (!on_gpu) {
            EXPECT_EQ(cf_filter_run(cf_chain_get(chain, i), &src, &dst, nullptr), CF_OK) << cf_last_error();
        } else {
            cf_frame dsrc, ddst;
            EXPECT_EQ(cf_frame_alloc(&dsrc, src.format, src.width, src.height, CF_MEMORY_DEVICE), CF_OK);
            EXPECT_EQ(cf_frame_alloc(&ddst, dst.format, dst.width, dst.height, CF_MEMORY_DEVICE), CF_OK);
            EXPECT_EQ(cf_frame_upload(&src, &dsrc, stream), CF_OK);
            EXPECT_EQ(cf_filter_run(cf_chain_get(chain, i), &dsrc, &ddst, stream), CF_OK) << cf_last_error();
            EXPECT_EQ(cf_frame_download(&ddst, &dst, stream), CF_OK);
            EXPECT_EQ(cf_stream_synchronize(stream), CF_OK) << cf_last_error();
            cf_frame_free(&dsrc);
            cf_frame_free(&ddst);
        }
        cur = std::move(next);
    }
    cf_stream_destroy(&stream);
    cf_chain_free(&chain);
    return cur;
}

struct Vector {
    std::string expected, input, chain;
};

std::vector<Vector> manifest()
{
    std::ifstream f(std::string(CF_VECTORS_DIR) + "/MANIFEST");
    std::vector<Vector> out;
    Vector v;
    while (f >> v.expected >> v.input >> v.chain) out.push_back(v);
    return out;
}

void check_vectors(bool on_gpu)
{
    auto vectors = manifest();
    ASSERT_GE(vectors.size(), 30u);
    for (const Vector &v : vectors) {
        SCOPED_TRACE(v.expected + " = " + v.chain + " of " + v.input);
        Image expect = read_pnm(std::string(CF_VECTORS_DIR) + "/" + v.expected);
        Image got = run_chain(v.chain, read_pnm(std::string(CF_VECTORS_DIR) + "/" + v.input), on_gpu);
        ASSERT_EQ(got.pixels.size(), expect.pixels.size());
        int worst = 0;
        size_t off_by_one = 0;
        for (size_t i = 0; i < got.pixels.size(); i++) {
            int d = std::abs(got.pixels[i] - expect.pixels[i]);
            worst = std::max(worst, d);
            off_by_one += d == 1;
        }
        bool blur = v.chain.find("blur") != std::string::npos;
        EXPECT_LE(worst, blur ? 1 : 0) << off_by_one << " samples off by one";
        std::printf("%-24s max diff %d, %5.2f%% off by one  (%s)\n", v.expected.c_str(), worst,
                    100.0 * off_by_one / got.pixels.size(), v.chain.c_str());
    }
}

} // namespace

TEST(OpenCvVectors, CpuMatchesOpenCv) { check_vectors(false); }

TEST(OpenCvVectors, GpuMatchesOpenCv)
{
    CF_REQUIRE_GPU();
    check_vectors(true);
}

// Every one of the 2^24 RGB values, R slowest: the FNV-1a 64 hash of our
// GRAY8 output equals that of OpenCV's cvtColor(RGB2GRAY) output.
TEST(OpenCvVectors, GrayOfEveryRgbValue)
{
    std::ifstream f(std::string(CF_VECTORS_DIR) + "/rgb2gray-all.fnv1a64");
    std::string expected;
    f >> expected;
    ASSERT_EQ(expected.size(), 16u);
    Image every{ 4096, 4096, 3, {} };
    every.pixels.resize(4096u * 4096u * 3u);
    for (uint32_t v = 0; v < (1u << 24); v++) {
        every.pixels[3 * v] = (uint8_t)(v >> 16);
        every.pixels[3 * v + 1] = (uint8_t)(v >> 8);
        every.pixels[3 * v + 2] = (uint8_t)v;
    }
    Image gray = run_chain("gray", std::move(every), false);
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint8_t b : gray.pixels) h = (h ^ b) * 0x100000001b3ull;
    char got[17];
    std::snprintf(got, sizeof got, "%016llx", (unsigned long long)h);
    EXPECT_EQ(std::string(got), expected);
}
