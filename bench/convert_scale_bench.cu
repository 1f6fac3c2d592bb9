// cf-convert-scale-bench: 4K convert and scale kernels through the public
// API (cf_filter_run on device frames), against the device-to-device copy
// rate measured in the same run. Inputs and outputs both rotate over
// working sets larger than the L2 (512 MiB each: every frame is read from
// and written back to device memory, not kept in the 60 MB L2); each sample
// times 10 runs queued back to back between two events; median of --reps
// samples after 5 warm-up runs. Rates count the bytes read and written
// once: the input frame plus the output frame. The copy rate is the best of
// three copies of 4K RGBA frames (cudaMemcpy2DAsync, cudaMemcpyAsync of the
// whole pitched block, a plain 16-byte-a-thread copy kernel); the table
// gives each case against it and against cudaMemcpy2DAsync alone, with the
// kernel the library ran (fast or generic; --generic forces the generic
// kernels). convertscale (the filter) is timed beside the scale and
// convert filters run one after the other through an intermediate frame.
//
// Each row also gives the time of a plain cudaMemcpyAsync of the case's
// own bytes (half read, half written) and the case against that.
// --convert-shape and --narrow force the fast kernels' shapes
// (cf_convert_cuda_force_shape, cf_scale_cuda_force_narrow).
//
//   cf-convert-scale-bench [--reps N] [--only TEXT] [--generic] [--convert-shape COLUMNS ROWS]
//                          [--narrow]   (TEXT: cases whose label has one of its '|'-separated parts)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "cudafilters/cudafilters.h"
}
#include "check.cuh"
#include "same_bytes_copy.cuh"
extern "C" {
#include "convert.h"
#include "scale.h"
}

namespace {

int g_reps = 30;
const char *g_only = nullptr; // --only: run the cases whose label contains one of its '|'-separated parts

bool skipped(const std::string &label)
{
    if (!g_only)
        return false;
    std::string only = g_only;
    for (size_t a = 0, b; a <= only.size(); a = b + 1) {
        b = only.find('|', a);
        if (b == std::string::npos)
            b = only.size();
        if (b > a && label.find(only.substr(a, b - a)) != std::string::npos)
            return false;
    }
    return true;
}
const size_t kWorkingSet = 512ull << 20;

size_t frame_bytes(cf_format f, int w, int h)
{
    size_t n = 0;
    for (int p = 0; p < cf_format_get_info(f)->n_planes; p++)
        n += cf_format_plane_row_bytes(f, p, w) * (size_t)cf_format_plane_height(f, p, h);
    return n;
}

// Enough frames of w x h to exceed the L2 several times.
int frames_for(cf_format f, int w, int h)
{
    return (int)std::max<size_t>(4, kWorkingSet / frame_bytes(f, w, h));
}

std::vector<cf_frame> device_frames(cf_format f, int w, int h)
{
    std::vector<cf_frame> frames(frames_for(f, w, h));
    for (auto &fr : frames) CF_CHECK(cf_frame_alloc(&fr, f, w, h, CF_MEMORY_DEVICE));
    return frames;
}

// Device frames of random pixels (YUV samples in range), enough to exceed
// the L2.
std::vector<cf_frame> random_frames(cf_format f, int w, int h)
{
    std::vector<cf_frame> frames(frames_for(f, w, h));
    cf_frame host;
    CF_CHECK(cf_frame_alloc(&host, f, w, h, CF_MEMORY_PINNED_HOST));
    std::mt19937 rng(7);
    const cf_format_info *info = cf_format_get_info(f);
    for (int p = 0; p < info->n_planes; p++)
        for (int y = 0; y < cf_format_plane_height(f, p, h); y++)
            for (size_t x = 0; x < cf_format_plane_row_bytes(f, p, w); x++)
                host.data[p][y * host.pitch[p] + x] =
                    (uint8_t)(info->is_yuv ? 16 + rng() % 220 : rng());
    for (auto &fr : frames) {
        CF_CHECK(cf_frame_alloc(&fr, f, w, h, CF_MEMORY_DEVICE));
        CF_CHECK(cf_frame_upload(&host, &fr, nullptr));
    }
    CHECK(cudaDeviceSynchronize());
    cf_frame_free(&host);
    return frames;
}

double median_ms(const std::function<void(int)> &fn)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int i = 0; i < 5; i++) fn(i);
    std::vector<float> t;
    const int batch = 10;
    for (int i = 0; i < g_reps; i++) {
        CHECK(cudaEventRecord(a));
        for (int k = 0; k < batch; k++) fn(i * batch + k);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms / batch);
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

double g_copy_gbs = 0, g_copy2d_gbs = 0;
// A device copy of a case's own bytes (same_bytes_copy.cuh), timed as the
// case is.
double same_bytes_copy_ms(size_t bytes)
{
    return bench::same_bytes_copy_ms((double)bytes, kWorkingSet, median_ms);
}

void row(const std::string &label, double ms, size_t bytes, const char *kernel)
{
    double gbs = bytes / (ms * 1e-3) / 1e9;
    double same = same_bytes_copy_ms(bytes);
    std::printf("| %s | %s | %.4f | %.0f | %.0f%% | %.4f | %.0f%% | %.0f%% |\n", label.c_str(),
                kernel, ms, gbs, g_copy_gbs > 0 ? 100 * gbs / g_copy_gbs : 100.0, same,
                100 * same / ms, g_copy2d_gbs > 0 ? 100 * gbs / g_copy2d_gbs : 100.0);
    std::fflush(stdout);
}

__global__ void copy16(const uint4 *__restrict__ src, uint4 *__restrict__ dst, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

// The three copies of 4K RGBA frames; sets the reference rates.
void copy_cases(int w, int h)
{
    std::vector<cf_frame> src = random_frames(CF_FORMAT_RGBA, w, h);
    std::vector<cf_frame> dst = device_frames(CF_FORMAT_RGBA, w, h);
    size_t bytes = 2 * frame_bytes(CF_FORMAT_RGBA, w, h);
    size_t block = src[0].pitch[0] * (size_t)h; // one allocation per frame
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    for (int k = 0; k < 3; k++) {
        double ms = median_ms([&](int i) {
            const cf_frame &s = src[i % src.size()];
            const cf_frame &d = dst[i % dst.size()];
            if (k == 0) {
                CHECK(cudaMemcpy2DAsync(d.data[0], d.pitch[0], s.data[0], s.pitch[0],
                                        (size_t)w * 4, h, cudaMemcpyDeviceToDevice, 0));
            } else if (k == 1) {
                CHECK(cudaMemcpyAsync(d.data[0], s.data[0], block, cudaMemcpyDeviceToDevice, 0));
            } else {
                copy16<<<sms * 8, 256>>>((const uint4 *)s.data[0], (uint4 *)d.data[0], block / 16);
                CHECK(cudaGetLastError());
            }
        });
        double gbs = bytes / (ms * 1e-3) / 1e9;
        if (k == 0)
            g_copy2d_gbs = gbs;
        g_copy_gbs = std::max(g_copy_gbs, gbs);
        static const char *labels[] = { "device copy, 4K RGBA (cudaMemcpy2DAsync)",
                                        "device copy, 4K RGBA (cudaMemcpyAsync, pitched block)",
                                        "device copy, 4K RGBA (copy kernel, 16 B a thread)" };
        std::printf("| %s | | %.4f | %.0f | | | | |\n", labels[k], ms, gbs);
    }
    std::printf("| (copy rate used below: the best, %.0f GB/s; cudaMemcpy2DAsync %.0f GB/s) | | | | | | | |\n",
                g_copy_gbs, g_copy2d_gbs);
    std::fflush(stdout);
    for (auto &s : src) cf_frame_free(&s);
    for (auto &d : dst) cf_frame_free(&d);
}

// Times `chain` from w x h `in` frames to its output (format `out`, size
// from the filter).
void filter_case(const std::string &label, const char *chain_text, cf_format in, int w, int h)
{
    if (skipped(label))
        return;
    cf_chain *chain = cf_chain_parse(chain_text);
    if (!chain) {
        std::fprintf(stderr, "%s: %s\n", chain_text, cf_last_error());
        std::exit(1);
    }
    cf_filter *f = cf_chain_get(chain, 0);
    cf_format out;
    int ow = 0, oh = 0;
    CF_CHECK(cf_filter_get_output_format(f, in, &out));
    CF_CHECK(cf_filter_get_output_size(f, w, h, &ow, &oh));
    std::vector<cf_frame> src = random_frames(in, w, h);
    std::vector<cf_frame> dst = device_frames(out, ow, oh);
    double ms = median_ms([&](int i) {
        CF_CHECK(cf_filter_run(f, &src[i % src.size()], &dst[i % dst.size()], nullptr));
    });
    CHECK(cudaDeviceSynchronize());
    const char *kernel = !std::strncmp(chain_text, "convertscale", 12) ? "convertscale"
                         : !std::strncmp(chain_text, "convert", 7)     ? cf_convert_cuda_last_kernel()
                                                                       : cf_scale_cuda_last_kernel();
    row(label, ms, frame_bytes(in, w, h) + frame_bytes(out, ow, oh), kernel);
    for (auto &s : src) cf_frame_free(&s);
    for (auto &d : dst) cf_frame_free(&d);
    cf_filter_release_scratch(f);
    cf_chain_free(&chain);
}

// Times `scale` (w x h `in` to its size) then `convert` through an
// intermediate device frame, as two filters (convertscale's definition).
// Bytes counted as for one pass (input plus final output).
void two_pass_case(const std::string &label, const char *scale_text, const char *convert_text,
                   cf_format in, int w, int h)
{
    if (skipped(label))
        return;
    cf_chain *sc = cf_chain_parse(scale_text), *cv = cf_chain_parse(convert_text);
    if (!sc || !cv) {
        std::fprintf(stderr, "%s / %s: %s\n", scale_text, convert_text, cf_last_error());
        std::exit(1);
    }
    cf_format out;
    int ow = 0, oh = 0;
    CF_CHECK(cf_filter_get_output_format(cf_chain_get(cv, 0), in, &out));
    CF_CHECK(cf_filter_get_output_size(cf_chain_get(sc, 0), w, h, &ow, &oh));
    std::vector<cf_frame> src = random_frames(in, w, h);
    cf_frame mid[2];
    for (auto &m : mid) CF_CHECK(cf_frame_alloc(&m, in, ow, oh, CF_MEMORY_DEVICE));
    std::vector<cf_frame> dst = device_frames(out, ow, oh);
    double ms = median_ms([&](int i) {
        CF_CHECK(cf_filter_run(cf_chain_get(sc, 0), &src[i % src.size()], &mid[i % 2], nullptr));
        CF_CHECK(cf_filter_run(cf_chain_get(cv, 0), &mid[i % 2], &dst[i % dst.size()], nullptr));
    });
    CHECK(cudaDeviceSynchronize());
    row(label, ms, frame_bytes(in, w, h) + frame_bytes(out, ow, oh), "two passes");
    for (auto &s : src) cf_frame_free(&s);
    for (auto &d : dst) cf_frame_free(&d);
    for (auto &m : mid) cf_frame_free(&m);
    cf_chain_free(&sc);
    cf_chain_free(&cv);
}

} // namespace

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
            g_reps = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
            g_only = argv[++i];
        } else if (!std::strcmp(argv[i], "--generic")) {
            cf_convert_cuda_force_generic(true);
            cf_scale_cuda_force_generic(true);
        } else if (!std::strcmp(argv[i], "--convert-shape") && i + 2 < argc) {
            int cols = std::atoi(argv[++i]);
            cf_convert_cuda_force_shape(cols, std::atoi(argv[++i]));
        } else if (!std::strcmp(argv[i], "--narrow")) {
            cf_scale_cuda_force_narrow(true);
        } else {
            std::fprintf(stderr, "usage: cf-convert-scale-bench [--reps N] [--only TEXT] [--generic] "
                                 "[--convert-shape COLUMNS ROWS] [--narrow]\n");
            return 2;
        }
    }
    const int w = 3840, h = 2160;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("%s, %d SMs; 4K = %dx%d; median of %d samples of 10 runs\n\n", prop.name,
                prop.multiProcessorCount, w, h, g_reps);
    std::printf("| case | kernel | ms | GB/s (read + write) | of copy rate | same-bytes copy ms | "
                "of same-bytes copy rate | of cudaMemcpy2D rate |\n"
                "|---|---|---|---|---|---|---|---|\n");
    copy_cases(w, h);
    filter_case("convert NV12 -> RGBA (bt709, left, linear)", "convert=format=rgba:matrix=bt709",
                CF_FORMAT_NV12, w, h);
    filter_case("convert NV12 -> RGBA (nearest chroma)",
                "convert=format=rgba:matrix=bt709:chroma-filter=nearest", CF_FORMAT_NV12, w, h);
    filter_case("convert NV12 -> RGB (bt601, nearest, as nppiNV12ToRGB)",
                "convert=format=rgb:chroma-filter=nearest", CF_FORMAT_NV12, w, h);
    filter_case("convert RGBA -> NV12 (bt709, left, linear)", "convert=format=nv12:matrix=bt709",
                CF_FORMAT_RGBA, w, h);
    filter_case("convert RGBA -> NV12 (nearest chroma)",
                "convert=format=nv12:matrix=bt709:chroma-filter=nearest", CF_FORMAT_RGBA, w, h);
    filter_case("convert RGBA -> I420 (center, linear)",
                "convert=format=i420:chroma-site=center", CF_FORMAT_RGBA, w, h);
    filter_case("convert RGB -> I420 (center, linear, as nppiRGBToYUV420)",
                "convert=format=i420:chroma-site=center", CF_FORMAT_RGB, w, h);
    filter_case("scale RGBA 4K -> 1080p bilinear", "scale=w=1920:h=1080:method=bilinear",
                CF_FORMAT_RGBA, w, h);
    filter_case("scale RGBA 4K -> 1080p area", "scale=w=1920:h=1080:method=area", CF_FORMAT_RGBA,
                w, h);
    filter_case("scale NV12 4K -> 1080p bilinear", "scale=w=1920:h=1080:method=bilinear",
                CF_FORMAT_NV12, w, h);
    filter_case("scale NV12 4K -> 1080p area", "scale=w=1920:h=1080:method=area", CF_FORMAT_NV12,
                w, h);
    filter_case("scale GRAY8 4K -> 1080p bilinear", "scale=w=1920:h=1080:method=bilinear",
                CF_FORMAT_GRAY8, w, h);
    filter_case("scale GRAY8 4K -> 1080p area", "scale=w=1920:h=1080:method=area",
                CF_FORMAT_GRAY8, w, h);
    filter_case("scale RGBA 4K -> 2560x1440 bilinear (2:3, taps)",
                "scale=w=2560:h=1440:method=bilinear", CF_FORMAT_RGBA, w, h);
    filter_case("scale RGBA 4K -> 1280x720 bilinear (1:3)", "scale=w=1280:h=720:method=bilinear",
                CF_FORMAT_RGBA, w, h);
    filter_case("scale RGBA 4K -> 1080p bicubic", "scale=w=1920:h=1080:method=bicubic",
                CF_FORMAT_RGBA, w, h);
    filter_case("scale RGBA 4K -> 1080p lanczos", "scale=w=1920:h=1080:method=lanczos",
                CF_FORMAT_RGBA, w, h);
    filter_case("scale RGBA 1080p -> 4K bilinear", "scale=w=3840:h=2160:method=bilinear",
                CF_FORMAT_RGBA, 1920, 1080);
    struct Fused {
        const char *what, *method;
        cf_format in;
        const char *format;
    } fused[] = { { "NV12 4K -> RGBA 1080p", "bilinear", CF_FORMAT_NV12, "rgba" },
                  { "NV12 4K -> RGBA 1080p", "area", CF_FORMAT_NV12, "rgba" },
                  { "RGBA 4K -> NV12 1080p", "area", CF_FORMAT_RGBA, "nv12" } };
    for (const Fused &c : fused) {
        std::string scale = std::string("w=1920:h=1080:method=") + c.method;
        std::string convert = std::string("format=") + c.format + ":matrix=bt709";
        filter_case(std::string("convertscale ") + c.what + " " + c.method + " (the filter)",
                    ("convertscale=" + scale + ":" + convert).c_str(), c.in, w, h);
        two_pass_case(std::string("convertscale ") + c.what + " " + c.method +
                          " as the scale and convert filters",
                      ("scale=" + scale).c_str(), ("convert=" + convert).c_str(), c.in, w, h);
    }
    return 0;
}
