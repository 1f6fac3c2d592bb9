// cf-convert-scale-bench: 4K convert and scale kernels through the public
// API (cf_filter_run on device frames), against the device-to-device copy
// rate measured in the same run. Inputs rotate over a working set larger
// than the L2 (every frame comes from device memory); each sample times 10
// runs queued back to back between two events; median of --reps samples
// after 5 warm-up runs. Rates count the bytes read and written once: the
// input frame plus the output frame. convertscale (one pass) is timed
// beside scale then convert through an intermediate frame (two passes).
//
//   cf-convert-scale-bench [--reps N] [--only TEXT]   (TEXT: cases whose label has it)
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

namespace {

int g_reps = 30;
const char *g_only = nullptr; // --only: run the cases whose label contains it
const size_t kWorkingSet = 512ull << 20;

size_t frame_bytes(cf_format f, int w, int h)
{
    size_t n = 0;
    for (int p = 0; p < cf_format_get_info(f)->n_planes; p++)
        n += cf_format_plane_row_bytes(f, p, w) * (size_t)cf_format_plane_height(f, p, h);
    return n;
}

// Device frames of random pixels (YUV samples in range), enough to exceed
// the L2.
std::vector<cf_frame> random_frames(cf_format f, int w, int h)
{
    int n = (int)std::max<size_t>(4, kWorkingSet / frame_bytes(f, w, h));
    std::vector<cf_frame> frames(n);
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

double g_copy_gbs = 0;

void row(const std::string &label, double ms, size_t bytes)
{
    double gbs = bytes / (ms * 1e-3) / 1e9;
    std::printf("| %s | %.4f | %.0f | %.0f%% |\n", label.c_str(), ms, gbs,
                g_copy_gbs > 0 ? 100 * gbs / g_copy_gbs : 100.0);
    std::fflush(stdout);
}

// Times `chain` from w x h `in` frames to its output (format `out`, size
// from the filter).
void filter_case(const std::string &label, const char *chain_text, cf_format in, int w, int h)
{
    if (g_only && label.find(g_only) == std::string::npos)
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
    cf_frame dst[2];
    for (auto &d : dst) CF_CHECK(cf_frame_alloc(&d, out, ow, oh, CF_MEMORY_DEVICE));
    double ms = median_ms([&](int i) {
        CF_CHECK(cf_filter_run(f, &src[i % src.size()], &dst[i % 2], nullptr));
    });
    CHECK(cudaDeviceSynchronize());
    row(label, ms, frame_bytes(in, w, h) + frame_bytes(out, ow, oh));
    for (auto &s : src) cf_frame_free(&s);
    for (auto &d : dst) cf_frame_free(&d);
    cf_filter_release_scratch(f);
    cf_chain_free(&chain);
}

// Times `scale` (w x h `in` to its size) then `convert` through an
// intermediate device frame: what convertscale saves a trip through memory
// against. Bytes counted as for one pass (input plus final output).
void two_pass_case(const std::string &label, const char *scale_text, const char *convert_text,
                   cf_format in, int w, int h)
{
    if (g_only && label.find(g_only) == std::string::npos)
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
    cf_frame mid[2], dst[2];
    for (auto &m : mid) CF_CHECK(cf_frame_alloc(&m, in, ow, oh, CF_MEMORY_DEVICE));
    for (auto &d : dst) CF_CHECK(cf_frame_alloc(&d, out, ow, oh, CF_MEMORY_DEVICE));
    double ms = median_ms([&](int i) {
        CF_CHECK(cf_filter_run(cf_chain_get(sc, 0), &src[i % src.size()], &mid[i % 2], nullptr));
        CF_CHECK(cf_filter_run(cf_chain_get(cv, 0), &mid[i % 2], &dst[i % 2], nullptr));
    });
    CHECK(cudaDeviceSynchronize());
    row(label, ms, frame_bytes(in, w, h) + frame_bytes(out, ow, oh));
    for (auto &s : src) cf_frame_free(&s);
    for (int i = 0; i < 2; i++) {
        cf_frame_free(&mid[i]);
        cf_frame_free(&dst[i]);
    }
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
        } else {
            std::fprintf(stderr, "usage: cf-convert-scale-bench [--reps N] [--only TEXT]\n");
            return 2;
        }
    }
    const int w = 3840, h = 2160;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("%s, %d SMs; 4K = %dx%d; median of %d samples of 10 runs\n\n", prop.name,
                prop.multiProcessorCount, w, h, g_reps);
    std::printf("| case | ms | GB/s (read + write) | of copy rate |\n|---|---|---|---|\n");
    {
        std::vector<cf_frame> src = random_frames(CF_FORMAT_RGBA, w, h);
        cf_frame dst;
        CF_CHECK(cf_frame_alloc(&dst, CF_FORMAT_RGBA, w, h, CF_MEMORY_DEVICE));
        double ms = median_ms([&](int i) {
            const cf_frame &s = src[i % src.size()];
            CHECK(cudaMemcpy2DAsync(dst.data[0], dst.pitch[0], s.data[0], s.pitch[0],
                                    (size_t)w * 4, h, cudaMemcpyDeviceToDevice, 0));
        });
        size_t bytes = 2 * frame_bytes(CF_FORMAT_RGBA, w, h);
        g_copy_gbs = bytes / (ms * 1e-3) / 1e9;
        row("device copy, 4K RGBA (cudaMemcpy2DAsync)", ms, bytes);
        for (auto &s : src) cf_frame_free(&s);
        cf_frame_free(&dst);
    }
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
        filter_case(std::string("convertscale ") + c.what + " " + c.method + " (one pass)",
                    ("convertscale=" + scale + ":" + convert).c_str(), c.in, w, h);
        two_pass_case(std::string("convertscale ") + c.what + " " + c.method +
                          " as scale, convert (two passes)",
                      ("scale=" + scale).c_str(), ("convert=" + convert).c_str(), c.in, w, h);
    }
    return 0;
}
