// CUDA kernels against their CPU twins, bit for bit, checkasm style: random
// formats, sizes (odd and tiny ones included), pitches, parameters and
// data, guard bytes around every plane. Skips visibly without a GPU.
#include "test_utils.h"

#include <cmath>

#ifdef CF_HAVE_CUDA
#include "blur.h"
#include "launch_probe.h"
#endif

namespace {

const cf_format kFormats[] = { CF_FORMAT_GRAY8,     CF_FORMAT_RGBA,      CF_FORMAT_BGRA,
                               CF_FORMAT_RGBX,      CF_FORMAT_BGRX,      CF_FORMAT_RGB,
                               CF_FORMAT_BGR,       CF_FORMAT_NV12,      CF_FORMAT_I420,
                               CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE };

struct Size {
    int w, h;
};

std::vector<Size> test_sizes(std::mt19937 &rng)
{
    std::vector<Size> sizes = { { 1, 1 }, { 2, 1 }, { 1, 2 }, { 3, 3 }, { 5, 7 }, { 127, 1 },
                                { 1, 131 }, { 4, 1 }, { 640, 3 }, { 1284, 5 } };
    for (int i = 0; i < 6; i++)
        sizes.push_back({ std::uniform_int_distribution<int>(1, 700)(rng),
                          std::uniform_int_distribution<int>(1, 300)(rng) });
    return sizes;
}

// Runs `chain_text` (one filter) on the CPU and on the GPU over the same
// random input and compares every output plane and every guard byte. The
// output format is one the filter offers, picked at random. Rows are
// 16-byte aligned or not at random unless `align` (bytes) says.
void compare_cpu_gpu(const std::string &chain_text, cf_format fmt, Size s, std::mt19937 &rng,
                     size_t align = 0)
{
    cf_chain *chain = cf_chain_parse(chain_text.c_str());
    ASSERT_NE(chain, nullptr) << cf_last_error();
    cf_filter *f = cf_chain_get(chain, 0);
    cf_format outs[4];
    int n_outs = cf_filter_get_output_formats(f, fmt, outs, 4);
    ASSERT_GT(n_outs, 0);
    cf_format out_fmt = outs[rng() % n_outs];
    SCOPED_TRACE(chain_text + " " + cf_format_name(fmt) + " -> " + cf_format_name(out_fmt) + " " +
                 std::to_string(s.w) + "x" + std::to_string(s.h));

    cftest::expect_cpu_gpu_equal(f, fmt, s.w, s.h, out_fmt, s.w, s.h, rng, align);
    cf_chain_free(&chain);
}

} // namespace

TEST(GpuExact, GrayAllFormatsAndMatrices)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(2024);
    const char *matrices[] = { "bt601", "bt709", "bt2020" };
    const char *ranges[] = { "limited", "full" };
    for (cf_format fmt : kFormats)
        for (Size s : test_sizes(rng))
            compare_cpu_gpu(std::string("gray=matrix=") + matrices[rng() % 3] +
                                ":range=" + ranges[rng() % 2],
                            fmt, s, rng);
}

TEST(GpuExact, BlurAllFormatsRandomParameters)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(99);
    const char *borders[] = { "reflect101", "replicate", "reflect", "constant" };
    for (cf_format fmt : kFormats)
        for (Size s : test_sizes(rng)) {
            double sigma = std::uniform_real_distribution<double>(0.05, 12.0)(rng);
            std::string text = "blur=sigma=" + std::to_string(sigma) +
                               ":border=" + borders[rng() % 4] +
                               ":border-value=" + std::to_string(rng() % 1100);
            if (rng() % 3 == 0)
                text += ":sigma-y=" + std::to_string(std::uniform_real_distribution<double>(0.05, 12.0)(rng));
            if (rng() % 4 == 0)
                text += ":kernel-size=" + std::to_string(1 + 2 * (int)(rng() % 40));
            compare_cpu_gpu(text, fmt, s, rng);
        }
}

namespace {

// Radii of every register kernel: 1..12, 16, 20, 24, the wide 32, 36, 40,
// 48 and the huge 56 .. 96, which take planes of 1-2 channels only.
const int kRegRadii[] = { 1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 16,
                          20, 24, 32, 36, 40, 48, 56, 64, 72, 80, 88, 96 };

// Each register kernel, every border, random sizes (tiny, odd, wider than
// a tile or not), GRAY8, the Y plane of NV12, RGBA and BGRx (past radius
// 48: GRAY8, NV12, I420).
void every_register_radius(std::mt19937 &rng)
{
    const char *borders[] = { "reflect101", "replicate", "reflect", "constant" };
    for (int r : kRegRadii)
        for (int b = 0; b < 4; b++) {
            Size s = { std::uniform_int_distribution<int>(1, 300)(rng),
                       std::uniform_int_distribution<int>(1, 150)(rng) };
            std::string text = "blur=sigma=" + std::to_string(0.4 + r / 3.0) +
                               ":kernel-size=" + std::to_string(2 * r + 1) + ":border=" + borders[b] +
                               ":border-value=" + std::to_string(rng() % 256);
            const cf_format formats[] = { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_RGBA, CF_FORMAT_BGRX };
            const cf_format huge[] = { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_I420 };
            compare_cpu_gpu(text, r > 48 ? huge[(r + b) % 3] : formats[(r + b) % 4], s, rng);
        }
}

// Frames of several tiles each way with 16-byte aligned rows, so most
// staged chunks are whole 16-byte copies and those at the left and right
// edges go byte by byte (tiles are up to 64 pixels wide and 256 rows
// tall); NV12's UV plane is the 2-channel kernel. Odd sizes so the last
// tiles are partial. (No RGBA past radius 48.)
void interior_tiles(std::mt19937 &rng)
{
    const char *borders[] = { "reflect101", "replicate", "reflect", "constant" };
    for (int r : kRegRadii)
        for (cf_format fmt : { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_RGBA }) {
            if (r > 48 && fmt == CF_FORMAT_RGBA)
                continue;
            Size s = { 2 * (4 * 64 + 2 * r) + 2 * std::uniform_int_distribution<int>(0, 40)(rng) + 1,
                       2 * (3 * 128 + 2 * r) + std::uniform_int_distribution<int>(0, 40)(rng) };
            std::string text = "blur=sigma=" + std::to_string(0.4 + r / 3.0) +
                               ":kernel-size=" + std::to_string(2 * r + 1) + ":border=" +
                               borders[rng() % 4] + ":border-value=" + std::to_string(rng() % 256);
            compare_cpu_gpu(text, fmt, s, rng, 16);
        }
}

#ifdef CF_HAVE_CUDA
// Forces the CUDA blur's method (and whether the register method splits
// its last wave) for its lifetime: the test hook of blur.h.
struct ScopedMethod {
    ScopedMethod(cf_blur_method m, bool split = true) { cf_blur_cuda_force(m, split); }
    ~ScopedMethod() { cf_blur_cuda_force(CF_BLUR_METHOD_AUTO, true); }
};
#endif

} // namespace

TEST(GpuExact, BlurEveryRegisterKernelRadius)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(2024);
    every_register_radius(rng);
}

TEST(GpuExact, BlurRegisterKernelInteriorTiles)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(77);
    interior_tiles(rng);
}

TEST(GpuExact, BlurRegisterKernelFullHeightTiles)
{
    // A frame of at most half a wave of tiles has every tile row split in
    // two (launch_reg), which is all of the two sweeps above on a large
    // GPU: the same sweeps with the split turned off run the full-height
    // tiles at every radius.
    CF_REQUIRE_GPU();
#ifdef CF_HAVE_CUDA
    ScopedMethod no_split(CF_BLUR_METHOD_REG, false);
    std::mt19937 rng(2025);
    every_register_radius(rng);
    interior_tiles(rng);
    EXPECT_EQ(cf_blur_cuda_last_method(), CF_BLUR_METHOD_REG);
#endif
}

TEST(GpuExact, BlurRegisterKernelSplitLastWave)
{
    // Frames of more than two waves of tiles on a large GPU, whose last
    // partial wave the launcher splits into tiles of half height, so one
    // launch has full tiles, split tiles and a partial last tile; and one
    // frame under half a wave, all of whose tiles are split.
    CF_REQUIRE_GPU();
    std::mt19937 rng(12);
    const Size sizes[] = { { 3840, 2160 }, { 3001, 1999 }, { 2048, 1080 }, { 333, 97 } };
    for (Size s : sizes)
        for (cf_format fmt : { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_RGBA })
            for (const char *text : { "blur=sigma=2", "blur=sigma=8:border=constant:border-value=9" })
                compare_cpu_gpu(text, fmt, s, rng, 16);
}

TEST(GpuExact, BlurLargeSigmaAndHugeKernels)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(5);
    compare_cpu_gpu("blur=sigma=64", CF_FORMAT_GRAY8, { 300, 200 }, rng);
    compare_cpu_gpu("blur=sigma=30:border=reflect", CF_FORMAT_RGBA, { 97, 45 }, rng);
    compare_cpu_gpu("blur=sigma=2:kernel-size=1025", CF_FORMAT_NV12, { 33, 17 }, rng);
    compare_cpu_gpu("blur=sigma=128", CF_FORMAT_GRAY16_LE, { 40, 1100 }, rng);
    compare_cpu_gpu("blur=sigma=40:border=constant:border-value=700", CF_FORMAT_P010_10LE,
                    { 61, 45 }, rng);
}

#ifdef CF_HAVE_CUDA
namespace {

const char *const kBorders[] = { "reflect101", "replicate", "reflect", "constant" };

// A blur of random sigmas (unequal ones half the time) or kernel size,
// border and border value, whose larger radius is at most max_r, for a
// format of `depth` bits, sigmas at least min_sigma. (The register method
// takes no kernel with a tap of 65536, which any sigma below about 0.21
// makes: its callers ask for 0.3.)
std::string random_blur(std::mt19937 &rng, int max_r, int depth, double min_sigma = 0.05)
{
    // Taps per direction: round(6 sigma + 1) | 1 (8-bit), round(8 sigma +
    // 1) | 1 (16-bit): radius about 3 sigma or 4 sigma.
    const double per_r = depth == 8 ? 3.0 : 4.0;
    // (The element's sigma stops at 128: larger radii by kernel-size.)
    auto sigma_for = [&](int r) {
        return std::min(128.0, std::max(min_sigma, (r - 0.4) / per_r));
    };
    const int r = std::uniform_int_distribution<int>(1, max_r)(rng);
    std::string text = "blur=border=" + std::string(kBorders[rng() % 4]) +
                       ":border-value=" + std::to_string(rng() % 1100);
    if (rng() % 4 == 0 || r > 128 * per_r)
        return text + ":sigma=" + std::to_string(sigma_for(r)) +
               ":kernel-size=" + std::to_string(2 * r + 1);
    text += ":sigma=" + std::to_string(sigma_for(r));
    if (rng() % 2)
        text += ":sigma-y=" +
                std::to_string(sigma_for(std::uniform_int_distribution<int>(1, max_r)(rng)));
    return text;
}

// Whether device 0 has the int8 tensor-core products the tensor-core
// method needs (compute capability 8.0 or later).
bool tensor_cores()
{
    cf_device_info info;
    return cf_device_get_info(0, &info) == CF_OK && info.compute_major >= 8;
}

// Runs compare_cpu_gpu with the CUDA method forced and checks it ran.
void compare_with_method(cf_blur_method m, const std::string &text, cf_format fmt, Size s,
                         std::mt19937 &rng, size_t align = 0)
{
    ScopedMethod forced(m, rng() % 2 == 0);
    compare_cpu_gpu(text, fmt, s, rng, align);
    EXPECT_EQ(cf_blur_cuda_last_method(), m) << text << " " << cf_format_name(fmt);
}

// Sizes for a kernel of radius up to max_r: tiny ones, ones narrower or
// shorter than the kernel, and ones of several blocks of each pass (rows:
// 2048 pixels, columns: 64 rows), keeping the CPU reference quick.
Size random_size(std::mt19937 &rng, int max_r)
{
    switch (rng() % 4) {
    case 0: return { std::uniform_int_distribution<int>(1, 9)(rng),
                     std::uniform_int_distribution<int>(1, 9)(rng) };
    case 1: return { std::uniform_int_distribution<int>(1, 2 * max_r + 3)(rng),
                     std::uniform_int_distribution<int>(1, 70)(rng) };
    case 2: return { std::uniform_int_distribution<int>(2040, 2300)(rng),
                     std::uniform_int_distribution<int>(1, max_r < 64 ? 140 : 20)(rng) };
    default: return { std::uniform_int_distribution<int>(1, 300)(rng),
                      std::uniform_int_distribution<int>(60, max_r < 64 ? 300 : 150)(rng) };
    }
}

} // namespace

TEST(GpuExact, BlurTwoPassMethodEveryFormatRandomRadii)
{
    // The two-pass method forced on every format, radii 1..512 (kernels up
    // to 1025 taps), unequal radii, every border, guard bytes.
    CF_REQUIRE_GPU();
    std::mt19937 rng(1717);
    for (int round = 0; round < 3; round++)
        for (cf_format fmt : kFormats) {
            const int depth = cf_format_get_info(fmt)->depth;
            const int max_r = round == 0 ? 24 : round == 1 ? 128 : 512;
            compare_with_method(CF_BLUR_METHOD_SEP, random_blur(rng, max_r, depth), fmt,
                                random_size(rng, max_r), rng);
        }
    // Kernels of 1025 taps both ways, the largest the element accepts.
    compare_with_method(CF_BLUR_METHOD_SEP, "blur=sigma=128", CF_FORMAT_GRAY16_LE, { 70, 1030 },
                        rng);
    compare_with_method(CF_BLUR_METHOD_SEP, "blur=sigma=3:kernel-size=1025:border=constant",
                        CF_FORMAT_RGBA, { 1100, 9 }, rng);
    compare_with_method(CF_BLUR_METHOD_SEP, "blur=sigma=128:border=reflect", CF_FORMAT_RGB,
                        { 2100, 40 }, rng);
    // 8-bit rows whose kernel puts all of its weight on the centre tap
    // (65536, which DP2A's 16-bit taps cannot carry): the rows pass of
    // pairs of taps an IMAD instead of sep_rows8.
    for (cf_format fmt : { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_RGB, CF_FORMAT_RGBA })
        compare_with_method(CF_BLUR_METHOD_SEP, "blur=sigma=0.01:sigma-y=2:kernel-size=9", fmt,
                            { 333, 41 }, rng);
}

TEST(GpuExact, BlurRegisterMethodUnequalAndPaddedRadii)
{
    // The register method forced with unequal radii and radii between the
    // built ones (run on the next built radius among zero taps): up to 96
    // for planes of 1-2 channels, 48 for 4.
    CF_REQUIRE_GPU();
    std::mt19937 rng(1718);
    const cf_format formats[] = { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_I420, CF_FORMAT_RGBA,
                                  CF_FORMAT_BGRX };
    for (int i = 0; i < 60; i++) {
        const cf_format fmt = formats[i % 5];
        const int max_r = i % 5 < 3 ? 96 : 48;
        compare_with_method(CF_BLUR_METHOD_REG, random_blur(rng, max_r, 8, 0.3), fmt,
                            random_size(rng, max_r), rng, i % 3 == 0 ? 16 : 0);
    }
}

TEST(GpuExact, BlurTensorMethodEveryFormatRandomRadii)
{
    // The tensor-core method forced on every 8-bit format of 1, 2 or 4
    // channels a plane: radii 1..512 (kernels up to 1025 taps), unequal
    // radii, every border, guard bytes, frames of many tiles each way
    // (rows pass: 128 pixels by 32 / channels rows; columns pass: 32
    // samples by 128 rows).
    CF_REQUIRE_GPU();
    if (!tensor_cores())
        GTEST_SKIP() << "no int8 tensor-core products below compute capability 8.0";
    std::mt19937 rng(1722);
    const cf_format formats[] = { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_I420, CF_FORMAT_RGBA,
                                  CF_FORMAT_BGRX };
    for (int round = 0; round < 3; round++)
        for (cf_format fmt : formats) {
            const int max_r = round == 0 ? 24 : round == 1 ? 128 : 512;
            compare_with_method(CF_BLUR_METHOD_TENSOR, random_blur(rng, max_r, 8, 0.3), fmt,
                                random_size(rng, max_r), rng, round == 1 ? 16 : 0);
        }
    // Kernels of 1025 taps, one way or both.
    compare_with_method(CF_BLUR_METHOD_TENSOR, "blur=sigma=128", CF_FORMAT_GRAY8, { 70, 1030 },
                        rng);
    compare_with_method(CF_BLUR_METHOD_TENSOR,
                        "blur=sigma=3:kernel-size=1025:border=constant:border-value=201",
                        CF_FORMAT_RGBA, { 1100, 9 }, rng);
    compare_with_method(CF_BLUR_METHOD_TENSOR, "blur=sigma=40:sigma-y=0.5:border=reflect",
                        CF_FORMAT_NV12, { 2100, 300 }, rng);
    // Every border at one radius on frames of many tiles both ways.
    for (int b = 0; b < 4; b++)
        compare_with_method(CF_BLUR_METHOD_TENSOR,
                            std::string("blur=sigma=20:border=") + kBorders[b] + ":border-value=200",
                            b % 2 ? CF_FORMAT_RGBA : CF_FORMAT_GRAY8, { 1500, 400 }, rng, 16);
}

TEST(GpuExact, BlurTensorMethod16BitRandomRadii)
{
    // The tensor-core method forced on 16-bit planes (GRAY16, P010,
    // I420_10LE: its rows pass on the tensor cores, four byte products a
    // tap; the columns pass forced to each of its two forms, the tensor
    // cores' with six byte products a tap and the two-pass method's):
    // radii 1..512, unequal radii, every border, guard bytes, frames of
    // many rows tiles (128 pixels by 32 / channels rows) and columns tiles
    // (32 samples by 128 rows); the two-pass method's vertical sums on the
    // FP64 units where the device has them for P010 (blur_f64.cuh) and as
    // integers; then, with each columns pass, the extremes: 1025 taps both
    // ways, a reach all border at the largest samples, every border on
    // frames of many tiles, 16-bit samples whose high bytes are 255
    // (GRAY16's random ones).
    CF_REQUIRE_GPU();
    if (!tensor_cores())
        GTEST_SKIP() << "no int8 tensor-core products below compute capability 8.0";
    bool hopper = false;
    ASSERT_EQ(probe_device_fast_fp64(0, &hopper), cudaSuccess);
    // Below Hopper's 227 KiB a block (A100 163, sm_86/89 99) the tensor
    // cores' columns pass of the largest radii does not fit and sep's runs.
    int optin = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
    const bool every_radius_fits = optin >= 227 * 1024;
    std::mt19937 rng(1724);
    const cf_format formats[] = { CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE };
    struct Hooks {
        Hooks(bool allow, cf_blur_method columns)
        {
            cf_blur_cuda_allow_fp64(allow);
            cf_blur_cuda_force_tensor16_columns(columns);
        }
        ~Hooks()
        {
            cf_blur_cuda_allow_fp64(true);
            cf_blur_cuda_force_tensor16_columns(CF_BLUR_METHOD_AUTO);
        }
    };
    const struct {
        bool allow;
        cf_blur_method columns;
    } modes[] = { { true, CF_BLUR_METHOD_SEP }, { false, CF_BLUR_METHOD_SEP }, { true, CF_BLUR_METHOD_TENSOR } };
    for (const auto &mode : modes) {
        Hooks scoped(mode.allow, mode.columns);
        const bool tcols = mode.columns == CF_BLUR_METHOD_TENSOR;
        SCOPED_TRACE(tcols ? "tensor-core columns" : mode.allow ? "FP64 sums allowed" : "integer sums");
        auto check = [&](const std::string &text, cf_format fmt, Size s, size_t align) {
            compare_with_method(CF_BLUR_METHOD_TENSOR, text, fmt, s, rng, align);
            const bool ran_tcols = cf_blur_cuda_last_tensor_columns();
            if (!tcols || every_radius_fits) {
                EXPECT_EQ(ran_tcols, tcols) << text << " " << cf_format_name(fmt);
            }
            EXPECT_EQ(cf_blur_cuda_last_fp64(),
                      !ran_tcols && mode.allow && hopper && fmt == CF_FORMAT_P010_10LE)
                << text << " " << cf_format_name(fmt);
        };
        for (int round = 0; round < (mode.allow ? 3 : 1); round++)
            for (cf_format fmt : formats) {
                const int max_r = round == 0 ? 24 : round == 1 ? 128 : 512;
                check(random_blur(rng, max_r, 16, 0.3), fmt, random_size(rng, max_r),
                      round == 1 ? 16 : 0);
            }
        check("blur=sigma=10:border=constant:border-value=1023", CF_FORMAT_P010_10LE, { 1, 1 }, 0);
        check("blur=sigma=10:sigma-y=3:border=constant:border-value=65535", CF_FORMAT_GRAY16_LE,
              { 3, 2 }, 0);
        if (!mode.allow)
            continue;
        // Kernels of 1025 taps, one way or both.
        check("blur=sigma=128", CF_FORMAT_GRAY16_LE, { 70, 1030 }, 0);
        check("blur=sigma=3:kernel-size=1025:border=constant:border-value=1000",
              CF_FORMAT_P010_10LE, { 1100, 9 }, 0);
        check("blur=sigma=40:sigma-y=0.5:border=reflect", CF_FORMAT_I420_10LE, { 2100, 300 }, 0);
        // Every border at one radius on frames of many tiles both ways.
        for (int b = 0; b < 4; b++)
            check(std::string("blur=sigma=20:border=") + kBorders[b] + ":border-value=900",
                  b % 2 ? CF_FORMAT_P010_10LE : CF_FORMAT_GRAY16_LE, { 1500, 400 }, 16);
    }
    // The default: the tensor cores' columns pass from vertical radius 24
    // (kTensor16ColsMinRadius), sep's below it.
    for (int taps : { 47, 49 }) {
        const std::string text = "blur=sigma=6:kernel-size=" + std::to_string(taps);
        compare_with_method(CF_BLUR_METHOD_TENSOR, text, CF_FORMAT_P010_10LE, { 300, 200 }, rng);
        EXPECT_EQ(cf_blur_cuda_last_tensor_columns(), taps == 49) << text;
    }
}

TEST(GpuExact, BlurReducedRadius)
{
    // A radius one way of at most a half or a quarter of the other's runs
    // the kernels built for it: the register method's vertical or
    // horizontal radius R / 4 or R / 2 (rounded up) beside the other's R,
    // the tile method's vertical radius the built one next above those.
    // Every such pair, the larger radius a built one or between two, the
    // smaller at, under and just over each reduced one (a one-tap kernel
    // among them); at each reduced radius every channel count (NV12: 1 and
    // 2; RGBA and BGRx: 4), split and whole tiles, 16-byte aligned rows
    // and not; every border, frames of several tiles each way, odd sizes.
    CF_REQUIRE_GPU();
#ifdef CF_HAVE_CUDA
    std::mt19937 rng(1723);
    // sigma giving radius r: 8-bit round(6 sigma + 1) | 1 taps, 16-bit
    // round(8 sigma + 1) | 1; radius 0 (one tap) from the smallest sigma,
    // radius 1 from 0.3 (below about 0.21 the side taps round to 0 and the
    // centre holds 65536, a kernel the register method does not take
    // horizontally).
    int i = 0;
    auto text = [&](int rx, int ry, int per_r) {
        auto sigma = [&](int r) { return r == 0 ? 0.05 : std::max(0.3, (r - 0.4) / per_r); };
        return "blur=sigma=" + std::to_string(sigma(rx)) + ":sigma-y=" +
               std::to_string(sigma(ry)) + ":border=" + kBorders[i++ % 4] +
               ":border-value=" + std::to_string(rng() % 1100);
    };
    auto size = [&](int r) {
        // Tiles are 16-64 pixels wide and 64-256 rows high.
        return Size{ 3 * 64 + 2 * r + 2 * std::uniform_int_distribution<int>(0, 40)(rng) + 1,
                     2 * 128 + 2 * r + std::uniform_int_distribution<int>(0, 40)(rng) };
    };
    // Runs `text` with method m forced, tiles split or not, rows aligned
    // to `align` bytes (0: at random).
    auto run = [&](cf_blur_method m, const std::string &text, cf_format fmt, int r, bool split,
                   size_t align) {
        ScopedMethod forced(m, split);
        compare_cpu_gpu(text, fmt, size(r), rng, align);
        EXPECT_EQ(cf_blur_cuda_last_method(), m) << text << " " << cf_format_name(fmt);
    };
    struct Shape {
        cf_format fmt;
        bool split;
        size_t align;
    };
    const Shape eight[] = { { CF_FORMAT_GRAY8, true, 16 }, { CF_FORMAT_NV12, false, 0 },
                            { CF_FORMAT_RGBA, true, 0 }, { CF_FORMAT_BGRX, false, 16 } };
    // Radii up to 12 are built; 14, 18 and 22 run on 16, 20 and 24.
    for (int r_big : { 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 22, 24 }) {
        const int R = r_big <= 12 ? r_big : (r_big + 3) / 4 * 4;
        const int quarter = (R + 3) / 4, half = (R + 1) / 2;
        for (int r : { quarter - 1, quarter, quarter + 1, half, half + 1 }) {
            if (r < 0 || r >= r_big || (r == quarter + 1 && r == half))
                continue;
            const bool exact = r == quarter || r == half;
            for (int k = 0; k < (exact ? 4 : 1); k++) {
                const Shape &a = eight[exact ? k : i % 4], &b = eight[exact ? 3 - k : (i + 1) % 4];
                run(CF_BLUR_METHOD_REG, text(r_big, r, 3), a.fmt, r_big, a.split, a.align);
                // Across: no one-tap kernel, which the register method does
                // not take horizontally (its weight, 65536, fills no 16-bit
                // tap).
                if (r >= 1)
                    run(CF_BLUR_METHOD_REG, text(r, r_big, 3), b.fmt, r_big, b.split, b.align);
            }
        }
    }
    const Shape tile[] = { { CF_FORMAT_P010_10LE, true, 16 }, { CF_FORMAT_I420_10LE, true, 0 },
                           { CF_FORMAT_NV12, true, 16 }, { CF_FORMAT_GRAY16_LE, true, 0 } };
    // The built radii next above a quarter and a half of R.
    auto built = [](int r) { return r <= 8 ? (r + 1) / 2 * 2 : (r + 3) / 4 * 4; };
    for (int r_big : { 4, 6, 8, 10, 12, 14, 16, 20, 22, 24 }) {
        const int R = built(r_big);
        const int quarter = built((R + 3) / 4), half = built((R + 1) / 2);
        for (int ry : { 0, quarter - 1, quarter, quarter + 1, half, half + 1 }) {
            if (ry >= r_big || (ry == quarter + 1 && ry == half))
                continue;
            const bool exact = ry == quarter || ry == half;
            for (int k = 0; k < (exact ? 3 : 1); k++) {
                const Shape &a = tile[exact ? k : i % 4];
                const int per_r = cf_format_get_info(a.fmt)->depth == 8 ? 3 : 4;
                run(CF_BLUR_METHOD_TILE, text(r_big, ry, per_r), a.fmt, r_big, a.split, a.align);
            }
        }
    }
#endif
}

TEST(GpuExact, BlurTileMethodEveryRadiusAndFormat)
{
    // The tile method forced on each format of 1-2 channels a plane (16-
    // and 8-bit), at every built radius (2..48) and radii between them (run
    // among zero taps), every border, frames of several tiles each way (64
    // samples by 64 rows; 128 rows from radius 24) with odd sizes so the
    // last tiles are partial, 16-byte aligned rows or not.
    CF_REQUIRE_GPU();
    std::mt19937 rng(1720);
    const cf_format formats[] = { CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE,
                                  CF_FORMAT_GRAY8,     CF_FORMAT_NV12,      CF_FORMAT_I420 };
    // About 3 x 2 tiles of radius r, odd width, random height.
    auto tiles_size = [&](int r) {
        const int w = 2 * (3 * 64 + 2 * r) + 2 * std::uniform_int_distribution<int>(0, 40)(rng) + 1;
        return Size{ w, 2 * (2 * 64 + 2 * r) + std::uniform_int_distribution<int>(0, 40)(rng) };
    };
    int i = 0;
    for (int r : { 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 19, 20, 23, 24, 29, 32, 36, 40, 44, 48 }) {
        const Size s = tiles_size(r);
        std::string text = "blur=sigma=" + std::to_string(0.3 + r / 4.0) +
                           ":kernel-size=" + std::to_string(2 * r + 1) + ":border=" +
                           kBorders[i % 4] + ":border-value=" + std::to_string(rng() % 1100);
        compare_with_method(CF_BLUR_METHOD_TILE, text, formats[i % 6], s, rng, i % 4 < 2 ? 16 : 0);
        i++;
    }
    // 16-bit planes at radius 32 (P010 sigma 8, which the dispatch table
    // gives this method), which the loop above gives 8-bit formats: each
    // border, aligned rows and not.
    for (int k = 0; k < 4; k++) {
        const Size s = tiles_size(32);
        std::string text = "blur=sigma=8:border=" + std::string(kBorders[k]) +
                           ":border-value=" + std::to_string(rng() % 1100);
        compare_with_method(CF_BLUR_METHOD_TILE, text,
                            k % 2 ? CF_FORMAT_GRAY16_LE : CF_FORMAT_P010_10LE, s, rng,
                            k < 2 ? 16 : 0);
    }
    // Random sigmas (unequal half the time), sizes (tiny, narrower or
    // shorter than the kernel, several tiles), borders: radii up to 48.
    for (int k = 0; k < 36; k++) {
        const cf_format fmt = formats[k % 6];
        compare_with_method(CF_BLUR_METHOD_TILE,
                            random_blur(rng, 48, cf_format_get_info(fmt)->depth), fmt,
                            random_size(rng, 48), rng, k % 3 == 0 ? 16 : 0);
    }
}

TEST(GpuExact, BlurSlideMethodEveryRadiusAndFormat)
{
    // The sliding-window method forced on every format it takes (8-bit:
    // 1-4 channels a plane; 16-bit: 1-2), at every radius it runs (8-bit
    // 1..6, 16-bit 1..8: the odd ones among zero taps on the next even
    // one), every border, frames of several blocks each way (128 bytes of
    // a row by 4 strips of 16-32 rows) with odd sizes, so strips, words
    // and warps end partway, 16-byte aligned rows or not (a plane of
    // unaligned rows is all edge samples, each from its (2R + 1)^2 inputs).
    CF_REQUIRE_GPU();
    std::mt19937 rng(1721);
    const cf_format eight[] = { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_I420,
                                CF_FORMAT_RGBA,  CF_FORMAT_BGRX, CF_FORMAT_RGB, CF_FORMAT_BGR };
    const cf_format sixteen[] = { CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE };
    int i = 0;
    for (int depth : { 8, 16 })
        for (int r = 1; r <= (depth == 8 ? 6 : 8); r++)
            for (int k = 0; k < 3; k++, i++) {
                const cf_format fmt = depth == 8 ? eight[i % 7] : sixteen[i % 3];
                Size s = { 2 * std::uniform_int_distribution<int>(20, 400)(rng) + 1,
                           std::uniform_int_distribution<int>(1, 330)(rng) };
                std::string text = "blur=sigma=" + std::to_string(0.3 + r / 4.0) +
                                   ":kernel-size=" + std::to_string(2 * r + 1) + ":border=" +
                                   kBorders[i % 4] +
                                   ":border-value=" + std::to_string(rng() % 1100);
                compare_with_method(CF_BLUR_METHOD_SLIDE, text, fmt, s, rng, k < 2 ? 16 : 0);
            }
    // Random sigmas (unequal half the time), sizes (tiny, narrower or
    // shorter than the kernel, several blocks), borders.
    for (int k = 0; k < 40; k++) {
        const bool deep = k % 3 == 0;
        const cf_format fmt = deep ? sixteen[k % 3] : eight[k % 7];
        compare_with_method(CF_BLUR_METHOD_SLIDE,
                            random_blur(rng, deep ? 8 : 6, cf_format_get_info(fmt)->depth), fmt,
                            random_size(rng, 8), rng, k % 2 == 0 ? 16 : 0);
    }
}

TEST(GpuExact, BlurMethodsSmallFrames)
{
    // A few small frames per method (the sanitizer run: compute-sanitizer
    // memcheck and racecheck with --gtest_filter=*BlurMethodsSmallFrames*).
    CF_REQUIRE_GPU();
    std::mt19937 rng(1719);
    for (int i = 0; i < 6; i++) {
        const cf_format reg_formats[] = { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_RGBA };
        compare_with_method(CF_BLUR_METHOD_REG, random_blur(rng, i % 3 < 2 ? 96 : 48, 8, 0.3),
                            reg_formats[i % 3], { 1 + (int)(rng() % 150), 1 + (int)(rng() % 90) },
                            rng);
        const cf_format fmt = kFormats[rng() % 12];
        compare_with_method(CF_BLUR_METHOD_SEP,
                            random_blur(rng, i < 3 ? 24 : 200, cf_format_get_info(fmt)->depth),
                            fmt, { 1 + (int)(rng() % 150), 1 + (int)(rng() % 90) }, rng);
        const cf_format tile_formats[] = { CF_FORMAT_GRAY16_LE, CF_FORMAT_P010_10LE,
                                           CF_FORMAT_NV12 };
        compare_with_method(CF_BLUR_METHOD_TILE,
                            random_blur(rng, 48, cf_format_get_info(tile_formats[i % 3])->depth),
                            tile_formats[i % 3], { 1 + (int)(rng() % 150), 1 + (int)(rng() % 90) },
                            rng);
        const cf_format tensor_formats[] = { CF_FORMAT_GRAY8, CF_FORMAT_NV12, CF_FORMAT_RGBA };
        if (tensor_cores())
            compare_with_method(CF_BLUR_METHOD_TENSOR, random_blur(rng, i < 3 ? 40 : 200, 8, 0.3),
                                tensor_formats[i % 3],
                                { 1 + (int)(rng() % 300), 1 + (int)(rng() % 200) }, rng);
        const cf_format slide_formats[] = { CF_FORMAT_GRAY8, CF_FORMAT_RGB, CF_FORMAT_P010_10LE };
        compare_with_method(CF_BLUR_METHOD_SLIDE,
                            random_blur(rng, i % 3 < 2 ? 6 : 8,
                                        cf_format_get_info(slide_formats[i % 3])->depth),
                            slide_formats[i % 3], { 1 + (int)(rng() % 300), 1 + (int)(rng() % 90) },
                            rng);
    }
}

TEST(GpuExact, BlurFp64VerticalSumsAndIntegerOnes)
{
    // The tile and two-pass methods' vertical sums of P010's 10-bit samples
    // on the FP64 units (blur_f64.cuh, the default on Hopper) and as 64-bit
    // integers (the test hook off; everywhere else), each against the
    // CPU reference: random radii (tile up to 48, two-pass up to 512),
    // unequal ones, every border, random sizes; then the sums' extremes (a
    // kernel's reach all border at 1023, the largest sample; the one-tap
    // identity, whose centre weighs 65536). I420_10LE, whose 10 bits sit
    // low in 16 (no shift: any 16-bit value is blurred as it is), and
    // GRAY16 never take them.
    CF_REQUIRE_GPU();
    // The FP64 sums run where cf_device_fast_fp64 says (Hopper at full FP64
    // rate: GpuLaunch.FastFp64IsHoppersAndKept checks that on its own).
    bool hopper = false;
    ASSERT_EQ(probe_device_fast_fp64(0, &hopper), cudaSuccess);
    std::mt19937 rng(1723);
    const cf_format ten[] = { CF_FORMAT_P010_10LE, CF_FORMAT_I420_10LE };
    struct Fp64 {
        explicit Fp64(bool allow) { cf_blur_cuda_allow_fp64(allow); }
        ~Fp64() { cf_blur_cuda_allow_fp64(true); }
    };
    for (bool allow : { true, false }) {
        Fp64 scoped(allow);
        SCOPED_TRACE(allow ? "FP64 sums allowed" : "integer sums");
        auto check = [&](cf_blur_method m, const std::string &text, cf_format fmt, Size s) {
            compare_with_method(m, text, fmt, s, rng, rng() % 2 ? 16 : 0);
            if (!allow || fmt != CF_FORMAT_P010_10LE) {
                EXPECT_FALSE(cf_blur_cuda_last_fp64()) << text;
            } else {
                EXPECT_EQ(cf_blur_cuda_last_fp64(), hopper) << text;
            }
        };
        for (int k = 0; k < 12; k++) {
            const cf_format fmt = ten[k % 2];
            check(CF_BLUR_METHOD_TILE, random_blur(rng, 48, 10), fmt, random_size(rng, 48));
            check(CF_BLUR_METHOD_SEP, random_blur(rng, k < 8 ? 64 : 512, 10), fmt,
                  random_size(rng, k < 8 ? 64 : 512));
        }
        for (cf_blur_method m : { CF_BLUR_METHOD_TILE, CF_BLUR_METHOD_SEP })
            for (cf_format fmt : ten) {
                check(m, "blur=sigma=10:border=constant:border-value=1023", fmt, { 1, 1 });
                check(m, "blur=sigma=10:sigma-y=3:border=constant:border-value=1023", fmt,
                      { 3, 2 });
                check(m, "blur=sigma=0.01", fmt, { 37, 29 });
            }
        compare_with_method(CF_BLUR_METHOD_TILE, "blur=sigma=5", CF_FORMAT_GRAY16_LE, { 130, 70 },
                            rng);
        EXPECT_FALSE(cf_blur_cuda_last_fp64());
    }
}

TEST(GpuExact, BlurForcedMethodThatDoesNotTakeTheFrameFails)
{
    CF_REQUIRE_GPU();
    ScopedMethod forced(CF_BLUR_METHOD_REG);
    cf_frame src, dst;
    CF_ASSERT_OK(cf_frame_alloc(&src, CF_FORMAT_GRAY16_LE, 32, 16, CF_MEMORY_DEVICE));
    CF_ASSERT_OK(cf_frame_alloc(&dst, CF_FORMAT_GRAY16_LE, 32, 16, CF_MEMORY_DEVICE));
    cf_filter *f = cf_filter_new("blur");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(cf_filter_run(f, &src, &dst, nullptr), CF_ERROR_UNSUPPORTED_FORMAT);
    EXPECT_NE(std::string(cf_last_error()).find("reg"), std::string::npos) << cf_last_error();
    cf_filter_free(&f);
    cf_frame_free(&src);
    cf_frame_free(&dst);
    // The tile method takes no plane of more than 2 channels.
    cf_blur_cuda_force(CF_BLUR_METHOD_TILE, true);
    CF_ASSERT_OK(cf_frame_alloc(&src, CF_FORMAT_RGBA, 32, 16, CF_MEMORY_DEVICE));
    CF_ASSERT_OK(cf_frame_alloc(&dst, CF_FORMAT_RGBA, 32, 16, CF_MEMORY_DEVICE));
    f = cf_filter_new("blur");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(cf_filter_run(f, &src, &dst, nullptr), CF_ERROR_UNSUPPORTED_FORMAT);
    EXPECT_NE(std::string(cf_last_error()).find("tile"), std::string::npos) << cf_last_error();
    cf_filter_free(&f);
    // The sliding-window method takes no 8-bit kernel past radius 6 (sigma
    // 2.5: 17 taps).
    cf_blur_cuda_force(CF_BLUR_METHOD_SLIDE, true);
    f = cf_filter_new("blur");
    ASSERT_NE(f, nullptr);
    CF_ASSERT_OK(cf_filter_set_double(f, "sigma", 2.5));
    EXPECT_EQ(cf_filter_run(f, &src, &dst, nullptr), CF_ERROR_UNSUPPORTED_FORMAT);
    EXPECT_NE(std::string(cf_last_error()).find("slide"), std::string::npos) << cf_last_error();
    cf_filter_free(&f);
    // The tensor-core method takes no plane of 3 channels.
    cf_blur_cuda_force(CF_BLUR_METHOD_TENSOR, true);
    cf_frame_free(&src);
    cf_frame_free(&dst);
    CF_ASSERT_OK(cf_frame_alloc(&src, CF_FORMAT_RGB, 32, 16, CF_MEMORY_DEVICE));
    CF_ASSERT_OK(cf_frame_alloc(&dst, CF_FORMAT_RGB, 32, 16, CF_MEMORY_DEVICE));
    f = cf_filter_new("blur");
    ASSERT_NE(f, nullptr);
    CF_ASSERT_OK(cf_filter_set_double(f, "sigma", 20));
    EXPECT_EQ(cf_filter_run(f, &src, &dst, nullptr), CF_ERROR_UNSUPPORTED_FORMAT);
    EXPECT_NE(std::string(cf_last_error()).find("tensor"), std::string::npos) << cf_last_error();
    cf_filter_free(&f);
    cf_frame_free(&src);
    cf_frame_free(&dst);
}
#endif

// An H200's shared memory a block (cudaDevAttrMaxSharedMemoryPerBlockOptin).
constexpr int kH200Shared = 227 * 1024;

// The dispatch table's picks (pure host arithmetic, no GPU needed).
TEST(BlurDispatch, TablePicksAMethodPerShape)
{
#ifndef CF_HAVE_CUDA
    GTEST_SKIP() << "built without CUDA";
#else
    struct Case {
        double sigma, sigma_y;
        int channels, sample_bytes, n_planes;
        cf_blur_method want;
    } cases[] = {
        { 2, 2, 1, 1, 1, CF_BLUR_METHOD_REG },    // GRAY8
        { 8, 8, 4, 1, 1, CF_BLUR_METHOD_TENSOR }, // RGBA, 49 taps: radius 24
        { 3, 1, 1, 1, 2, CF_BLUR_METHOD_REG },    // radii 9 and 3: vertical on 3
        { 5, 5, 2, 1, 2, CF_BLUR_METHOD_REG },    // radius 15: on 16
        // 8-bit: the tensor-core method from radius 17 for 4 channels and
        // 24 for 1 where the smaller radius is at least 2/3 of the larger,
        // from 25 for 1 or 4 channels and from 33 for any, whatever the
        // smaller radius.
        { 16.0 / 3, 16.0 / 3, 4, 1, 1, CF_BLUR_METHOD_REG }, // RGBA radius 16
        { 17.0 / 3, 17.0 / 3, 4, 1, 1, CF_BLUR_METHOD_TENSOR }, // RGBA radius 17
        { 7, 7, 4, 1, 1, CF_BLUR_METHOD_TENSOR },       // RGBA radius 21
        { 8, 2, 4, 1, 1, CF_BLUR_METHOD_REG },          // RGBA 24 and 6: under 2/3
        { 8, 6, 4, 1, 1, CF_BLUR_METHOD_TENSOR },       // RGBA 24 and 18
        { 9, 1, 4, 1, 1, CF_BLUR_METHOD_TENSOR },       // RGBA 27 and 3
        { 23.0 / 3, 23.0 / 3, 1, 1, 1, CF_BLUR_METHOD_REG }, // GRAY8 radius 23
        { 8, 8, 1, 1, 1, CF_BLUR_METHOD_TENSOR },       // GRAY8 radius 24
        { 8, 16.0 / 3, 1, 1, 1, CF_BLUR_METHOD_TENSOR }, // GRAY8 24 and 16: 2/3
        { 8, 5, 1, 1, 1, CF_BLUR_METHOD_REG },          // GRAY8 24 and 15: under
        { 8, 2, 1, 1, 1, CF_BLUR_METHOD_REG },          // GRAY8 24 and 6: under 2/3
        { 25.0 / 3, 25.0 / 3, 1, 1, 1, CF_BLUR_METHOD_TENSOR }, // GRAY8 radius 25
        { 8.5, 1, 1, 1, 1, CF_BLUR_METHOD_TENSOR },     // GRAY8 26 and 3
        { 12, 4, 1, 1, 1, CF_BLUR_METHOD_TENSOR },      // GRAY8 36 and 12
        { 12, 12, 1, 1, 1, CF_BLUR_METHOD_TENSOR },     // GRAY8 radius 36
        { 32.0 / 3, 32.0 / 3, 2, 1, 1, CF_BLUR_METHOD_REG }, // 2 channels, radius 32
        { 11, 11, 2, 1, 1, CF_BLUR_METHOD_TENSOR },     // 2 channels, radius 33
        { 13.5, 13.5, 2, 1, 1, CF_BLUR_METHOD_TENSOR }, // 2 channels, radius 41
        { 12, 12, 4, 1, 1, CF_BLUR_METHOD_TENSOR },     // RGBA radius 36
        { 16, 16, 1, 1, 1, CF_BLUR_METHOD_TENSOR },   // radius 48
        { 16, 16, 4, 1, 1, CF_BLUR_METHOD_TENSOR },   // RGBA, radius 48
        { 8, 16, 4, 1, 1, CF_BLUR_METHOD_TENSOR },
        { 16.5, 16.5, 1, 1, 1, CF_BLUR_METHOD_TENSOR }, // radius 50
        { 16.5, 16.5, 4, 1, 1, CF_BLUR_METHOD_TENSOR }, // RGBA
        { 32, 32, 1, 1, 1, CF_BLUR_METHOD_TENSOR },   // radius 96
        { 32, 21, 1, 1, 1, CF_BLUR_METHOD_TENSOR },   // 96 and 63
        { 8, 32, 1, 1, 2, CF_BLUR_METHOD_TENSOR },    // 24 and 96, NV12
        { 16, 1, 1, 1, 1, CF_BLUR_METHOD_TENSOR },    // 48 and 3
        { 32.5, 32.5, 1, 1, 1, CF_BLUR_METHOD_TENSOR }, // radius 98
        { 128, 128, 4, 1, 1, CF_BLUR_METHOD_TENSOR }, // radius 384, RGBA
        { 16, 16, 3, 1, 1, CF_BLUR_METHOD_SEP },      // RGB: 3 channels, no tensor
        { 3, 1, 4, 1, 1, CF_BLUR_METHOD_REG },    // unequal radii, RGBA
        { 64, 64, 1, 1, 2, CF_BLUR_METHOD_TENSOR },
        { 2, 2, 1, 2, 2, CF_BLUR_METHOD_TILE },   // P010: 16-bit samples
        { 5, 5, 1, 2, 1, CF_BLUR_METHOD_TILE },   // GRAY16, 41 taps: radius 20
        { 5, 1, 1, 2, 2, CF_BLUR_METHOD_TILE },   // radii 20 and 4: vertical on 6
        { 6, 6, 1, 2, 2, CF_BLUR_METHOD_TENSOR }, // P010, 49 taps: radius 24
        { 6, 1, 1, 2, 2, CF_BLUR_METHOD_TILE },   // radii 24 and 4: under 2/3
        { 5.5, 5.5, 1, 2, 2, CF_BLUR_METHOD_TILE }, // radius 22
        { 6.5, 6.5, 1, 2, 1, CF_BLUR_METHOD_TENSOR }, // GRAY16, 53 taps: radius 26
        { 8, 8, 1, 2, 1, CF_BLUR_METHOD_TENSOR }, // GRAY16, 65 taps: radius 32
        { 8, 8, 1, 2, 2, CF_BLUR_METHOD_TENSOR }, // P010, radius 32
        { 10, 10, 1, 2, 2, CF_BLUR_METHOD_TENSOR }, // P010, radius 40
        { 10.5, 10.5, 1, 2, 2, CF_BLUR_METHOD_TENSOR }, // radius 42
        { 8, 6, 1, 2, 2, CF_BLUR_METHOD_TENSOR }, // radii 32 and 24
        { 8, 5, 1, 2, 2, CF_BLUR_METHOD_TENSOR }, // radii 32 and 20: any ratio past 24
        { 8, 1, 1, 2, 2, CF_BLUR_METHOD_TENSOR }, // radii 32 and 4
        { 0.01, 0.01, 1, 2, 1, CF_BLUR_METHOD_SLIDE }, // 16-bit, one tap of 65536
        { 0.5, 0.5, 1, 2, 2, CF_BLUR_METHOD_SLIDE }, // P010, radius 2
        { 1, 1, 1, 2, 2, CF_BLUR_METHOD_SLIDE },  // P010, radius 4
        { 1, 0.5, 1, 2, 1, CF_BLUR_METHOD_SLIDE }, // GRAY16, unequal: padded to 4
        { 1.5, 1.5, 1, 2, 2, CF_BLUR_METHOD_TILE }, // P010, radius 6
        { 1.5, 0.5, 1, 2, 2, CF_BLUR_METHOD_TILE }, // the larger radius, 6, decides
        { 0.5, 0.5, 1, 1, 1, CF_BLUR_METHOD_REG }, // 8-bit: reg, not slide
        { 12, 12, 1, 2, 2, CF_BLUR_METHOD_TENSOR }, // P010, radius 48
        { 128, 128, 1, 2, 1, CF_BLUR_METHOD_TENSOR }, // GRAY16, radius 512
        { 2, 12, 1, 2, 1, CF_BLUR_METHOD_TENSOR }, // the larger radius decides
        { 12, 12, 1, 1, 2, CF_BLUR_METHOD_TENSOR }, // NV12, radius 36
        { 8, 8, 1, 1, 2, CF_BLUR_METHOD_REG },    // NV12, radius 24
        { 14, 14, 1, 1, 2, CF_BLUR_METHOD_TENSOR }, // NV12, radius 42
        { 2, 16, 1, 1, 2, CF_BLUR_METHOD_TENSOR },  // NV12, unequal, radius 48
        { 32, 2, 1, 1, 2, CF_BLUR_METHOD_TENSOR },  // NV12, unequal, radius 96
        { 2, 2, 3, 1, 1, CF_BLUR_METHOD_SEP },    // RGB: 3 channels
        { 0.01, 0.01, 1, 1, 1, CF_BLUR_METHOD_SEP }, // one tap of 65536
    };
    for (const Case &c : cases) {
        // Kernels of the sizes the element derives (symmetric, summing to
        // 65536 like cf_blur_make_kernel's; only sizes and the centre's
        // weight matter here).
        const double per_sigma = c.sample_bytes == 1 ? 6.0 : 8.0;
        auto make = [&](double sigma, cf_blur_kernel &k) {
            k.size = (int)std::lrint(sigma * per_sigma + 1.0) | 1;
            for (int t = 0; t < k.size; t++) k.w[t] = 1;
            k.w[k.size / 2] = 65536u - (uint32_t)(k.size - 1);
        };
        cf_blur_kernel kx, ky;
        make(c.sigma, kx);
        make(c.sigma_y, ky);
        cf_blur_plane planes[2] = {};
        for (int i = 0; i < c.n_planes; i++) {
            planes[i].width = 64, planes[i].height = 64;
            planes[i].channels = i == 0 || c.channels != 1 ? c.channels : 2; // NV12's UV
            planes[i].sample_bytes = c.sample_bytes;
        }
        EXPECT_EQ(cf_blur_cuda_pick_for(&kx, &ky, planes, c.n_planes, kH200Shared), c.want)
            << "sigma " << c.sigma << "/" << c.sigma_y << ", " << c.channels << " channels";
    }
    // GPUs of less shared memory a block: the methods whose tiles do not
    // fit are passed over (sm_80 163 KiB, sm_86/sm_89 99 KiB, sm_75 64).
    struct Small {
        int limit;
        double sigma;
        int channels, sample_bytes, n_planes;
        cf_blur_method want;
    } small[] = {
        { 166912, 24, 1, 1, 1, CF_BLUR_METHOD_TENSOR }, // GRAY8 radius 72: 34 KiB
        { 166912, 12, 1, 1, 2, CF_BLUR_METHOD_TENSOR }, // NV12 radius 36
        { 166912, 8, 1, 1, 2, CF_BLUR_METHOD_REG },   // NV12 radius 24
        { 101376, 16, 1, 1, 2, CF_BLUR_METHOD_TENSOR }, // NV12 radius 48
        { 101376, 14, 4, 1, 1, CF_BLUR_METHOD_TENSOR }, // RGBA radius 42
        { 101376, 12, 4, 1, 1, CF_BLUR_METHOD_TENSOR }, // RGBA radius 36 (the register tile: 95 KiB)
        { 101376, 100, 1, 1, 1, CF_BLUR_METHOD_TENSOR }, // radius 300: 81 KiB
        { 101376, 170, 1, 1, 1, CF_BLUR_METHOD_SEP },  // radius 510: 102 KiB, no tensor
        { 166912, 170, 1, 1, 1, CF_BLUR_METHOD_TENSOR }, // the same at 163 KiB
        { 98304, 24, 1, 1, 1, CF_BLUR_METHOD_SEP },   // 96 KiB: no tensor cores (sm_7x)
        { 101376, 6, 1, 2, 2, CF_BLUR_METHOD_TENSOR }, // P010 radius 24: 41 KiB
        { 101376, 5, 1, 2, 2, CF_BLUR_METHOD_TILE },  // P010 radius 20
        { 101376, 128, 1, 2, 1, CF_BLUR_METHOD_SEP }, // GRAY16 radius 512: 159 KiB
        { 166912, 128, 1, 2, 1, CF_BLUR_METHOD_TENSOR }, // fits 163 KiB
        { 101376, 6, 1, 2, 1, CF_BLUR_METHOD_TENSOR }, // GRAY16 radius 24
        { 101376, 5, 1, 2, 1, CF_BLUR_METHOD_TILE },  // GRAY16 radius 20
        { 65536, 16, 1, 1, 1, CF_BLUR_METHOD_REG },   // GRAY8 radius 48: 63.7 KiB
        { 65536, 16, 1, 1, 2, CF_BLUR_METHOD_SEP },   // NV12's UV tiles at 48: 85 KiB
        { 65536, 12, 4, 1, 1, CF_BLUR_METHOD_SEP },   // RGBA radius 36
        { 65536, 8, 4, 1, 1, CF_BLUR_METHOD_REG },    // RGBA radius 24: 46 KiB
        { 65536, 5, 1, 2, 2, CF_BLUR_METHOD_TILE },   // P010 radius 20: 56 KiB
        { 65536, 6, 1, 2, 1, CF_BLUR_METHOD_SEP },    // GRAY16 radius 24
    };
    for (const Small &c : small) {
        const double per_sigma = c.sample_bytes == 1 ? 6.0 : 8.0;
        cf_blur_kernel k = {};
        k.size = (int)std::lrint(c.sigma * per_sigma + 1.0) | 1;
        for (int t = 0; t < k.size; t++) k.w[t] = 1;
        k.w[k.size / 2] = 65536u - (uint32_t)(k.size - 1);
        cf_blur_plane planes[2] = {};
        for (int i = 0; i < c.n_planes; i++) {
            planes[i].width = 64, planes[i].height = 64;
            planes[i].channels = i == 0 || c.channels != 1 ? c.channels : 2;
            planes[i].sample_bytes = c.sample_bytes;
        }
        EXPECT_EQ(cf_blur_cuda_pick_for(&k, &k, planes, c.n_planes, c.limit), c.want)
            << "sigma " << c.sigma << ", " << c.channels << " channels, " << c.n_planes
            << " planes, " << c.limit << " bytes";
    }
    // 16-bit rows that are not 4-byte aligned: not the sliding-window
    // method (its interior loads words), the tile method.
    cf_blur_kernel k5 = {};
    k5.size = 5;
    k5.w[0] = k5.w[4] = 1, k5.w[1] = k5.w[3] = 1, k5.w[2] = 65532;
    cf_blur_plane odd = {};
    odd.width = 64, odd.height = 64, odd.channels = 1, odd.sample_bytes = 2, odd.src_pitch = 130;
    EXPECT_EQ(cf_blur_cuda_pick_for(&k5, &k5, &odd, 1, kH200Shared), CF_BLUR_METHOD_TILE);
    odd.src_pitch = 128;
    EXPECT_EQ(cf_blur_cuda_pick_for(&k5, &k5, &odd, 1, kH200Shared), CF_BLUR_METHOD_SLIDE);
    // A plane too tall for the method's int row numbers: the next row.
    odd.height = INT_MAX;
    EXPECT_EQ(cf_blur_cuda_pick_for(&k5, &k5, &odd, 1, kH200Shared), CF_BLUR_METHOD_TILE);
    // On this machine's GPU (or none: no limit) the table's picks for a
    // frame whose every method fits are the same.
    EXPECT_EQ(cf_blur_cuda_pick(&k5, &k5, &odd, 1), CF_BLUR_METHOD_TILE);
#endif
}

TEST(GpuExact, TallFrameBeyondGridLimit)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(8);
    compare_cpu_gpu("gray", CF_FORMAT_RGBA, { 16, 70000 }, rng);
    compare_cpu_gpu("blur=sigma=1.5", CF_FORMAT_GRAY8, { 16, 70000 }, rng);
    // More tile rows than grid.y holds for the register kernel (5 taps: 60
    // rows a tile), so its blocks loop over tiles.
    compare_cpu_gpu("blur=sigma=0.5:border=reflect", CF_FORMAT_GRAY8, { 16, 4000000 }, rng, 16);
    // The same for the tile method (16-bit: 64 rows a tile, 65535 x 64 =
    // 4194240 rows in one grid).
    compare_cpu_gpu("blur=sigma=0.5:border=replicate", CF_FORMAT_GRAY16_LE, { 8, 4300000 }, rng);
}

// 16384 x 16384 frames (1 GiB of RGBA, 2^28 pixels): byte offsets beyond
// what 16-bit grids or int pixel products would reach, row counts beyond the
// 65535 grid.y limit. Plain frames without guards, to keep host memory sane.
TEST(GpuExact, HugeFrames)
{
    CF_REQUIRE_GPU();
    struct Case {
        const char *chain;
        cf_format format;
        int w, h;
    } cases[] = { { "gray", CF_FORMAT_RGBA, 16384, 16384 },
                  { "blur=sigma=0.6", CF_FORMAT_GRAY8, 16384, 16384 },
                  { "blur=sigma=0.6", CF_FORMAT_GRAY16_LE, 16384, 16384 } };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.chain + std::string(" ") + cf_format_name(c.format));
        cf_chain *chain = cf_chain_parse(c.chain);
        cf_filter *f = cf_chain_get(chain, 0);
        cf_format out_fmt;
        CF_ASSERT_OK(cf_filter_get_output_format(f, c.format, &out_fmt));
        cf_frame src, cpu, gpu_back, dsrc, ddst;
        CF_ASSERT_OK(cf_frame_alloc(&src, c.format, c.w, c.h, CF_MEMORY_HOST));
        CF_ASSERT_OK(cf_frame_alloc(&cpu, out_fmt, c.w, c.h, CF_MEMORY_HOST));
        CF_ASSERT_OK(cf_frame_alloc(&gpu_back, out_fmt, c.w, c.h, CF_MEMORY_HOST));
        CF_ASSERT_OK(cf_frame_alloc(&dsrc, c.format, c.w, c.h, CF_MEMORY_DEVICE));
        CF_ASSERT_OK(cf_frame_alloc(&ddst, out_fmt, c.w, c.h, CF_MEMORY_DEVICE));
        uint64_t x = 88172645463325252ull; // xorshift64
        size_t bytes = src.pitch[0] * (size_t)c.h;
        for (size_t i = 0; i < bytes; i += 8) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            std::memcpy(src.data[0] + i, &x, std::min<size_t>(8, bytes - i));
        }
        CF_ASSERT_OK(cf_filter_run(f, &src, &cpu, nullptr));
        CF_ASSERT_OK(cf_frame_upload(&src, &dsrc, nullptr));
        CF_ASSERT_OK(cf_filter_run(f, &dsrc, &ddst, nullptr));
        CF_ASSERT_OK(cf_frame_download(&ddst, &gpu_back, nullptr));
        CF_ASSERT_OK(cf_stream_synchronize(nullptr));
        size_t row = cf_format_plane_row_bytes(out_fmt, 0, c.w);
        int bad_rows = 0;
        for (int y = 0; y < c.h; y++)
            bad_rows += std::memcmp(cpu.data[0] + y * cpu.pitch[0],
                                    gpu_back.data[0] + y * gpu_back.pitch[0], row) != 0;
        EXPECT_EQ(bad_rows, 0);
        for (cf_frame *fr : { &src, &cpu, &gpu_back, &dsrc, &ddst }) cf_frame_free(fr);
        cf_chain_free(&chain);
    }
}

TEST(GpuTransfer, UploadDownloadRoundTripKeepsGuards)
{
    CF_REQUIRE_GPU();
    std::mt19937 rng(17);
    for (cf_format fmt : kFormats) {
        Size s = { std::uniform_int_distribution<int>(1, 500)(rng),
                   std::uniform_int_distribution<int>(1, 300)(rng) };
        cftest::GuardedFrame src(fmt, s.w, s.h, CF_MEMORY_HOST, rng);
        cftest::GuardedFrame dev(fmt, s.w, s.h, CF_MEMORY_DEVICE, rng);
        cftest::GuardedFrame back(fmt, s.w, s.h, CF_MEMORY_HOST, rng);
        cf_frame pinned;
        CF_ASSERT_OK(cf_frame_alloc(&pinned, fmt, s.w, s.h, CF_MEMORY_PINNED_HOST));
        cf_stream stream = nullptr;
        CF_ASSERT_OK(cf_stream_create(&stream));
        CF_ASSERT_OK(cf_frame_upload(src.frame(), dev.frame(), stream));
        CF_ASSERT_OK(cf_frame_download(dev.frame(), &pinned, stream));
        CF_ASSERT_OK(cf_stream_synchronize(stream));
        CF_ASSERT_OK(cf_frame_copy(&pinned, back.frame(), nullptr));
        cf_stream_destroy(&stream);
        cf_frame_free(&pinned);
        dev.sync_to_host();
        const cf_format_info *info = cf_format_get_info(fmt);
        for (int p = 0; p < info->n_planes; p++) EXPECT_EQ(src.pixels(p), back.pixels(p));
        EXPECT_EQ(dev.damaged_guard_bytes(), 0u) << cf_format_name(fmt);
        EXPECT_EQ(back.damaged_guard_bytes(), 0u) << cf_format_name(fmt);
    }
}

TEST(GpuTransfer, EventsTrackFramesInFlight)
{
    // Four pinned frames uploaded, filtered and downloaded on one stream
    // with an event after each: waiting on frame i's event alone must give
    // frame i's finished result, whatever is still queued behind it.
    CF_REQUIRE_GPU();
    const int w = 1000, h = 600, n = 4;
    std::mt19937 rng(5);
    cf_stream stream = nullptr;
    CF_ASSERT_OK(cf_stream_create(&stream));
    cf_filter *gray = cf_filter_new("gray");
    ASSERT_NE(gray, nullptr);
    std::vector<cf_frame> in(n), dev_in(n), dev_out(n), out(n), ref(n);
    std::vector<cf_event> done(n, nullptr);
    for (int i = 0; i < n; i++) {
        CF_ASSERT_OK(cf_frame_alloc(&in[i], CF_FORMAT_RGBA, w, h, CF_MEMORY_PINNED_HOST));
        CF_ASSERT_OK(cf_frame_alloc(&dev_in[i], CF_FORMAT_RGBA, w, h, CF_MEMORY_DEVICE));
        CF_ASSERT_OK(cf_frame_alloc(&dev_out[i], CF_FORMAT_GRAY8, w, h, CF_MEMORY_DEVICE));
        CF_ASSERT_OK(cf_frame_alloc(&out[i], CF_FORMAT_GRAY8, w, h, CF_MEMORY_PINNED_HOST));
        CF_ASSERT_OK(cf_frame_alloc(&ref[i], CF_FORMAT_GRAY8, w, h, CF_MEMORY_HOST));
        for (size_t j = 0; j < in[i].pitch[0] * h; j++) in[i].data[0][j] = (uint8_t)rng();
        std::memset(out[i].data[0], 0xA5, out[i].pitch[0] * h);
        CF_ASSERT_OK(cf_filter_run(gray, &in[i], &ref[i], nullptr));
        CF_ASSERT_OK(cf_event_create(&done[i]));
    }
    for (int i = 0; i < n; i++) {
        CF_ASSERT_OK(cf_frame_upload(&in[i], &dev_in[i], stream));
        CF_ASSERT_OK(cf_filter_run(gray, &dev_in[i], &dev_out[i], stream));
        CF_ASSERT_OK(cf_frame_download(&dev_out[i], &out[i], stream));
        CF_ASSERT_OK(cf_event_record(done[i], stream));
    }
    for (int i = 0; i < n; i++) {
        CF_ASSERT_OK(cf_event_synchronize(done[i]));
        for (int y = 0; y < h; y++)
            ASSERT_EQ(std::memcmp(out[i].data[0] + y * out[i].pitch[0], ref[i].data[0] + y * ref[i].pitch[0], w), 0)
                << "frame " << i << " row " << y;
    }
    CF_ASSERT_OK(cf_stream_synchronize(stream));
    for (int i = 0; i < n; i++) {
        cf_event_destroy(&done[i]);
        EXPECT_EQ(done[i], nullptr);
        for (cf_frame *f : { &in[i], &dev_in[i], &dev_out[i], &out[i], &ref[i] }) cf_frame_free(f);
    }
    cf_event_destroy(nullptr);
    cf_filter_free(&gray);
    cf_stream_destroy(&stream);
}

TEST(GpuExact, BackToBackKernelsKeepStreamOrder)
{
    // Kernels queued with no synchronisation between them, each reading
    // what the one before wrote and overwriting what the one before read
    // (frames A and B take turns), 1080p frames (about one wave of blur
    // blocks on an H200): with programmatic dependent launch (launch.cuh)
    // a kernel's blocks start while the previous kernel's last ones run,
    // and only its grid-dependency wait keeps the order. The result must
    // equal the CPU running the same steps.
    CF_REQUIRE_GPU();
    const int w = 1920, h = 1080, steps = 12;
    const char *chain_text[] = { "blur=sigma=2", "gray", "blur=sigma=1.2:border=replicate" };
    cf_chain *chains[3];
    cf_filter *filters[3];
    for (int i = 0; i < 3; i++) {
        chains[i] = cf_chain_parse(chain_text[i]);
        ASSERT_NE(chains[i], nullptr) << cf_last_error();
        filters[i] = cf_chain_get(chains[i], 0);
    }
    // NV12 throughout: blur keeps it, gray (NV12 -> NV12) rewrites the luma
    // and sets the chroma neutral.
    const cf_format fmt = CF_FORMAT_NV12;
    cf_frame host[2], dev[2], back;
    for (int i = 0; i < 2; i++) {
        CF_ASSERT_OK(cf_frame_alloc(&host[i], fmt, w, h, CF_MEMORY_HOST));
        CF_ASSERT_OK(cf_frame_alloc(&dev[i], fmt, w, h, CF_MEMORY_DEVICE));
    }
    CF_ASSERT_OK(cf_frame_alloc(&back, fmt, w, h, CF_MEMORY_HOST));
    std::mt19937 rng(31);
    for (int p = 0; p < 2; p++)
        for (size_t j = 0; j < host[0].pitch[p] * (size_t)cf_format_plane_height(fmt, p, h); j++)
            host[0].data[p][j] = (uint8_t)rng();
    cf_stream stream = nullptr;
    CF_ASSERT_OK(cf_stream_create(&stream));
    // Every GPU step queued before the stream can catch up (the CPU steps
    // after), so kernels really follow each other on the GPU.
    CF_ASSERT_OK(cf_frame_upload(&host[0], &dev[0], stream));
    for (int s = 0; s < steps; s++)
        CF_ASSERT_OK(cf_filter_run(filters[s % 3], &dev[s % 2], &dev[(s + 1) % 2], stream));
    CF_ASSERT_OK(cf_frame_download(&dev[steps % 2], &back, stream));
    for (int s = 0; s < steps; s++)
        CF_ASSERT_OK(cf_filter_run(filters[s % 3], &host[s % 2], &host[(s + 1) % 2], nullptr));
    CF_ASSERT_OK(cf_stream_synchronize(stream));
    const cf_frame &want = host[steps % 2];
    for (int p = 0; p < 2; p++) {
        const size_t row = cf_format_plane_row_bytes(fmt, p, w);
        int bad_rows = 0;
        for (int y = 0; y < cf_format_plane_height(fmt, p, h); y++)
            bad_rows += std::memcmp(back.data[p] + y * back.pitch[p], want.data[p] + y * want.pitch[p],
                                    row) != 0;
        EXPECT_EQ(bad_rows, 0) << "plane " << p;
    }
    // Not a flat picture: the steps left detail for a wrong order to show.
    EXPECT_NE(std::memcmp(want.data[0], want.data[0] + want.pitch[0] * (h / 2), w), 0);
    cf_stream_destroy(&stream);
    for (int i = 0; i < 2; i++) {
        cf_frame_free(&host[i]);
        cf_frame_free(&dev[i]);
    }
    cf_frame_free(&back);
    for (cf_chain *&c : chains) cf_chain_free(&c);
}

TEST(GpuFilter, HostAndDeviceFramesMustNotBeMixed)
{
    CF_REQUIRE_GPU();
    cf_filter *f = cf_filter_new("gray");
    cf_frame h, d;
    CF_ASSERT_OK(cf_frame_alloc(&h, CF_FORMAT_RGBA, 8, 8, CF_MEMORY_HOST));
    CF_ASSERT_OK(cf_frame_alloc(&d, CF_FORMAT_GRAY8, 8, 8, CF_MEMORY_DEVICE));
    EXPECT_EQ(cf_filter_run(f, &h, &d, nullptr), CF_ERROR_INVALID_ARGUMENT);
    cf_frame_free(&h);
    cf_frame_free(&d);
    cf_filter_free(&f);
}
