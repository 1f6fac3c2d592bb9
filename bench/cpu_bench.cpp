// cf-cpu-bench: the CPU backend (optimized, at the level in effect) against
// OpenCV in the same process, same frames, same thread count: gray from
// every format (cvtColor, or OpenCV's nearest peer for YUV and 16-bit
// input) and blur (GaussianBlur, same sigma, kernel size and border:
// reflect101) on GRAY8, RGBA and NV12 (OpenCV blurs the Y and the UV plane
// as two images), convert (cvtColor's YUV 4:2:0 <-> RGBA, see
// convert_cases), at 1080p and 4K, and scale (resize INTER_LINEAR and
// INTER_AREA on RGBA, 4K -> 1080p and 1080p -> 720p, whatever --sizes
// says), each at the thread counts asked for.
//
//   cf-cpu-bench [--threads 1,2,0] [--sizes 1080p,4k] [--sigmas 1,2,8,32]
//                [--min-time 0.3] [--what gray,blur,convert,scale]
//
// Each case: one warm-up run of each, then ours and OpenCV's in turn
// until 2 x --min-time seconds and at least 5 runs each; the medians. Frames rotate through 3 sources and 3
// outputs (a 4K RGBA frame set is 200 MB, past every cache), random data.
// Prints one Markdown table row a case. 0 threads: all cores.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <utility>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

extern "C" {
#include "cudafilters/cudafilters.h"
}

namespace {

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Median milliseconds of a(i) and of b(i) (i: the run's index, for
// rotating frames), run in pairs (a b, b a, a b, ...) so that what else
// the machine does at the time weighs on both alike.
std::pair<double, double> time_pair(const std::function<void(int)> &a,
                                    const std::function<void(int)> &b, double min_time)
{
    a(0);
    b(0);
    std::vector<double> ta, tb;
    double start = now();
    for (int i = 1; (int)ta.size() < 5 || now() - start < 2 * min_time; i++) {
        // Every other run the other goes first: the second of a pair
        // finds the source the first read still partly in the caches.
        const auto &first = i % 2 ? a : b, &second = i % 2 ? b : a;
        double t0 = now();
        first(i);
        double t1 = now();
        second(i);
        double t2 = now();
        ta.push_back((i % 2 ? t1 - t0 : t2 - t1) * 1e3);
        tb.push_back((i % 2 ? t2 - t1 : t1 - t0) * 1e3);
        if (ta.size() >= 200) break;
    }
    std::sort(ta.begin(), ta.end());
    std::sort(tb.begin(), tb.end());
    return { ta[ta.size() / 2], tb[tb.size() / 2] };
}

std::vector<std::string> split(const std::string &s)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(item);
    return out;
}

struct Frames {
    std::vector<cf_frame> src, dst;
    Frames(cf_format in, cf_format out, int w, int h, std::mt19937 &rng, int dw = 0, int dh = 0)
    {
        for (int i = 0; i < 3; i++) {
            cf_frame s, d;
            if (cf_frame_alloc(&s, in, w, h, CF_MEMORY_HOST) != CF_OK ||
                cf_frame_alloc(&d, out, dw ? dw : w, dh ? dh : h, CF_MEMORY_HOST) != CF_OK) {
                fprintf(stderr, "cf-cpu-bench: %s\n", cf_last_error());
                exit(1);
            }
            const cf_format_info *info = cf_format_get_info(in);
            for (int p = 0; p < info->n_planes; p++)
                for (int y = 0; y < cf_format_plane_height(in, p, h); y++) {
                    uint8_t *row = s.data[p] + (size_t)y * s.pitch[p];
                    for (size_t x = 0; x < cf_format_plane_row_bytes(in, p, w); x++)
                        row[x] = (uint8_t)rng();
                }
            src.push_back(s);
            dst.push_back(d);
        }
    }
    ~Frames()
    {
        for (auto &f : src) cf_frame_free(&f);
        for (auto &f : dst) cf_frame_free(&f);
    }
    // Plane p of frame i as an OpenCV image (no copy) of `type`.
    static cv::Mat mat(const cf_frame &f, int p, int type)
    {
        int w = cf_format_plane_width(f.format, p, f.width);
        int h = cf_format_plane_height(f.format, p, f.height);
        return cv::Mat(h, w, type, f.data[p], f.pitch[p]);
    }
};

struct Options {
    std::vector<int> threads = { 1, 2, 0 };
    std::vector<std::string> sizes = { "1080p", "4k" }, what = { "gray", "blur" };
    std::vector<double> sigmas = { 1, 2, 8, 32 };
    double min_time = 0.3;
};

void row(const std::string &name, const char *size, int threads, double ours, double cv)
{
    int cores = cf_cpu_count();
    printf("| %s | %s | %d%s | %.3f | %.3f | %.2f | %s |\n", name.c_str(), size,
           threads ? threads : cores, threads ? "" : " (all)", ours, cv, ours / cv,
           ours <= cv ? "yes" : "no");
    fflush(stdout);
}

cf_filter *filter(const char *name)
{
    cf_filter *f = cf_filter_new(name);
    if (!f) {
        fprintf(stderr, "cf-cpu-bench: %s\n", cf_last_error());
        exit(1);
    }
    return f;
}

void run_ours(cf_filter *f, Frames &fr, int i)
{
    if (cf_filter_run(f, &fr.src[i % 3], &fr.dst[i % 3], nullptr) != CF_OK) {
        fprintf(stderr, "cf-cpu-bench: %s\n", cf_last_error());
        exit(1);
    }
}

void gray_cases(const Options &o, const char *size, int w, int h, std::mt19937 &rng)
{
    struct Case {
        cf_format fmt;
        int cv_type;
        int code;           // cvtColor code, or -1: convertTo with alpha, beta
        double alpha, beta; // (limited-range 10-bit, 16-bit full range)
        const char *peer;
        bool full_range = false; // ours with range=full
    };
    const Case cases[] = {
        { CF_FORMAT_RGBA, CV_8UC4, cv::COLOR_RGBA2GRAY, 0, 0, "cvtColor RGBA2GRAY" },
        { CF_FORMAT_BGRA, CV_8UC4, cv::COLOR_BGRA2GRAY, 0, 0, "cvtColor BGRA2GRAY" },
        { CF_FORMAT_RGBX, CV_8UC4, cv::COLOR_RGBA2GRAY, 0, 0, "cvtColor RGBA2GRAY" },
        { CF_FORMAT_BGRX, CV_8UC4, cv::COLOR_BGRA2GRAY, 0, 0, "cvtColor BGRA2GRAY" },
        { CF_FORMAT_RGB, CV_8UC3, cv::COLOR_RGB2GRAY, 0, 0, "cvtColor RGB2GRAY" },
        { CF_FORMAT_BGR, CV_8UC3, cv::COLOR_BGR2GRAY, 0, 0, "cvtColor BGR2GRAY" },
        // OpenCV's YUV2GRAY copies Y (full range): ours with range=full
        // does the same; limited range (our default for video) expands
        // 16-235 to 0-255, which OpenCV has no cvtColor for (shown against
        // the same copy).
        { CF_FORMAT_NV12, CV_8UC1, cv::COLOR_YUV2GRAY_NV12, 0, 0, "cvtColor YUV2GRAY_NV12 (Y copy), range=full", true },
        { CF_FORMAT_I420, CV_8UC1, cv::COLOR_YUV2GRAY_I420, 0, 0, "cvtColor YUV2GRAY_I420 (Y copy), range=full", true },
        { CF_FORMAT_NV12, CV_8UC1, cv::COLOR_YUV2GRAY_NV12, 0, 0, "cvtColor YUV2GRAY_NV12 (Y copy), ours limited range (expands)" },
        { CF_FORMAT_I420, CV_8UC1, cv::COLOR_YUV2GRAY_I420, 0, 0, "cvtColor YUV2GRAY_I420 (Y copy), ours limited range (expands)" },
        { CF_FORMAT_GRAY16_LE, CV_16UC1, -1, 255.0 / 65535.0, 0, "convertTo 8U (x 255/65535)" },
        { CF_FORMAT_P010_10LE, CV_16UC1, -1, 255.0 / (876.0 * 64), -64.0 * 255 / 876,
          "convertTo 8U (limited 10-bit in the high bits)" },
        { CF_FORMAT_I420_10LE, CV_16UC1, -1, 255.0 / 876.0, -64.0 * 255 / 876,
          "convertTo 8U (limited 10-bit)" },
    };
    for (const Case &c : cases) {
        Frames fr(c.fmt, CF_FORMAT_GRAY8, w, h, rng);
        cf_filter *f = filter("gray");
        if (c.full_range) cf_filter_set_string(f, "range", "full");
        for (int threads : o.threads) {
            cf_filter_set_cpu_threads(f, threads);
            cv::setNumThreads(threads ? threads : cf_cpu_count());
            auto [ours, cv] = time_pair(
                [&](int i) { run_ours(f, fr, i); },
                [&](int i) {
                    const cf_frame &s = fr.src[i % 3];
                    cv::Mat out = Frames::mat(fr.dst[i % 3], 0, CV_8UC1);
                    if (c.code >= 0 && c.cv_type == CV_8UC1) {
                        // NV12/I420 as OpenCV takes them: one image of 3h/2 rows.
                        cv::Mat yuv(h * 3 / 2, w, CV_8UC1, s.data[0], s.pitch[0]);
                        cv::cvtColor(yuv, out, c.code);
                    } else if (c.code >= 0) {
                        cv::cvtColor(Frames::mat(s, 0, c.cv_type), out, c.code);
                    } else {
                        Frames::mat(s, 0, c.cv_type).convertTo(out, CV_8U, c.alpha, c.beta);
                    }
                },
                o.min_time);
            row(std::string("gray ") + cf_format_name(c.fmt) + " vs " + c.peer, size, threads,
                ours, cv);
        }
        cf_filter_free(&f);
    }
}

void blur_cases(const Options &o, const char *size, int w, int h, std::mt19937 &rng)
{
    const cf_format formats[] = { CF_FORMAT_GRAY8, CF_FORMAT_RGBA, CF_FORMAT_NV12 };
    for (cf_format fmt : formats) {
        Frames fr(fmt, fmt, w, h, rng);
        for (double sigma : o.sigmas) {
            cf_filter *f = filter("blur");
            cf_filter_set_double(f, "sigma", sigma);
            int k = (int)lrint(sigma * 6 + 1) | 1; // OpenCV's rule for 8-bit images
            for (int threads : o.threads) {
                cf_filter_set_cpu_threads(f, threads);
                cv::setNumThreads(threads ? threads : cf_cpu_count());
                auto [ours, cv] = time_pair(
                    [&](int i) { run_ours(f, fr, i); },
                    [&](int i) {
                        const cf_frame &s = fr.src[i % 3], &d = fr.dst[i % 3];
                        const cf_format_info *info = cf_format_get_info(fmt);
                        for (int p = 0; p < info->n_planes; p++) {
                            int type = CV_MAKETYPE(CV_8U, info->pixel_bytes[p]);
                            cv::Mat out = Frames::mat(d, p, type);
                            cv::GaussianBlur(Frames::mat(s, p, type), out, cv::Size(k, k), sigma,
                                             sigma, cv::BORDER_REFLECT_101);
                        }
                    },
                    o.min_time);
                char name[96];
                snprintf(name, sizeof name, "blur sigma %g (%d taps) %s", sigma, k,
                         cf_format_name(fmt));
                row(name, size, threads, ours, cv);
            }
            cf_filter_free(&f);
        }
    }
}

// 3 OpenCV images of rows x cols of `type`, random.
std::vector<cv::Mat> cv_images(int rows, int cols, int type, std::mt19937 &rng)
{
    std::vector<cv::Mat> out;
    for (int i = 0; i < 3; i++) {
        cv::Mat m(rows, cols, type);
        for (int y = 0; y < rows; y++)
            for (size_t x = 0; x < m.cols * m.elemSize(); x++) m.ptr<uint8_t>(y)[x] = (uint8_t)rng();
        out.push_back(m);
    }
    return out;
}

// convert against cvtColor. OpenCV's 4:2:0 conversions are BT.601 limited
// range with nearest chroma (each pixel takes its 2x2 block's sample, RGB to
// 4:2:0 takes the top-left pixel): ours with chroma-filter=nearest is the
// like-for-like row; ours with the default linear chroma (left siting,
// interpolated) is shown against the same call. OpenCV takes 4:2:0 as one
// image of 3h/2 rows (its own buffers here; ours are the library's frames).
void convert_cases(const Options &o, const char *size, int w, int h, std::mt19937 &rng)
{
    struct Case {
        cf_format in, out;
        const char *params; // ours, beyond matrix=bt601:range=limited
        int code;
        bool to_yuv;
        const char *name;
    };
    const Case cases[] = {
        { CF_FORMAT_NV12, CF_FORMAT_RGBA, "chroma-filter=nearest", cv::COLOR_YUV2RGBA_NV12, false,
          "convert NV12->RGBA nearest vs cvtColor YUV2RGBA_NV12" },
        { CF_FORMAT_NV12, CF_FORMAT_RGBA, "chroma-filter=linear", cv::COLOR_YUV2RGBA_NV12, false,
          "convert NV12->RGBA linear (left) vs cvtColor YUV2RGBA_NV12 (nearest)" },
        { CF_FORMAT_I420, CF_FORMAT_RGBA, "chroma-filter=nearest", cv::COLOR_YUV2RGBA_I420, false,
          "convert I420->RGBA nearest vs cvtColor YUV2RGBA_I420" },
        { CF_FORMAT_NV12, CF_FORMAT_BGRX, "chroma-filter=nearest", cv::COLOR_YUV2BGRA_NV12, false,
          "convert NV12->BGRx nearest vs cvtColor YUV2BGRA_NV12" },
        { CF_FORMAT_RGBA, CF_FORMAT_I420, "chroma-filter=nearest", cv::COLOR_RGBA2YUV_I420, true,
          "convert RGBA->I420 nearest vs cvtColor RGBA2YUV_I420" },
        { CF_FORMAT_RGBA, CF_FORMAT_I420, "chroma-filter=linear", cv::COLOR_RGBA2YUV_I420, true,
          "convert RGBA->I420 linear (left) vs cvtColor RGBA2YUV_I420 (nearest)" },
        { CF_FORMAT_RGBA, CF_FORMAT_NV12, "chroma-filter=nearest", cv::COLOR_RGBA2YUV_I420, true,
          "convert RGBA->NV12 nearest vs cvtColor RGBA2YUV_I420 (no NV12 output in 4.6)" },
    };
    for (const Case &c : cases) {
        Frames fr(c.in, c.out, w, h, rng);
        std::string text = std::string("convert=matrix=bt601:range=limited:") + c.params;
        cf_chain *chain = cf_chain_parse(text.c_str());
        if (!chain) {
            fprintf(stderr, "cf-cpu-bench: %s\n", cf_last_error());
            exit(1);
        }
        cf_filter *f = cf_chain_get(chain, 0);
        auto cv_src = c.to_yuv ? cv_images(h, w, CV_8UC4, rng) : cv_images(h * 3 / 2, w, CV_8UC1, rng);
        auto cv_dst = c.to_yuv ? cv_images(h * 3 / 2, w, CV_8UC1, rng) : cv_images(h, w, CV_8UC4, rng);
        for (int threads : o.threads) {
            cf_filter_set_cpu_threads(f, threads);
            cv::setNumThreads(threads ? threads : cf_cpu_count());
            auto [ours, cv] = time_pair([&](int i) { run_ours(f, fr, i); },
                                        [&](int i) { cv::cvtColor(cv_src[i % 3], cv_dst[i % 3], c.code); },
                                        o.min_time);
            row(c.name, size, threads, ours, cv);
        }
        cf_chain_free(&chain);
    }
}

// scale against resize on RGBA: 4K -> 1080p (2:1, area a box mean) and
// 1080p -> 720p (3:2, area fractional boxes), INTER_LINEAR and INTER_AREA.
void scale_cases(const Options &o, std::mt19937 &rng)
{
    struct Case {
        int sw, sh, dw, dh;
        const char *method;
        int interp;
        const char *size;
    };
    const Case cases[] = {
        { 3840, 2160, 1920, 1080, "bilinear", cv::INTER_LINEAR, "4k->1080p" },
        { 3840, 2160, 1920, 1080, "area", cv::INTER_AREA, "4k->1080p" },
        { 1920, 1080, 1280, 720, "bilinear", cv::INTER_LINEAR, "1080p->720p" },
        { 1920, 1080, 1280, 720, "area", cv::INTER_AREA, "1080p->720p" },
    };
    for (const Case &c : cases) {
        Frames fr(CF_FORMAT_RGBA, CF_FORMAT_RGBA, c.sw, c.sh, rng, c.dw, c.dh);
        std::string text = "scale=w=" + std::to_string(c.dw) + ":h=" + std::to_string(c.dh) +
                           ":method=" + c.method;
        cf_chain *chain = cf_chain_parse(text.c_str());
        if (!chain) {
            fprintf(stderr, "cf-cpu-bench: %s\n", cf_last_error());
            exit(1);
        }
        cf_filter *f = cf_chain_get(chain, 0);
        for (int threads : o.threads) {
            cf_filter_set_cpu_threads(f, threads);
            cv::setNumThreads(threads ? threads : cf_cpu_count());
            auto [ours, cv] = time_pair(
                [&](int i) { run_ours(f, fr, i); },
                [&](int i) {
                    cv::Mat out = Frames::mat(fr.dst[i % 3], 0, CV_8UC4);
                    cv::resize(Frames::mat(fr.src[i % 3], 0, CV_8UC4), out,
                               cv::Size(c.dw, c.dh), 0, 0, c.interp);
                },
                o.min_time);
            row(std::string("scale RGBA ") + c.method + " vs resize " +
                    (c.interp == cv::INTER_LINEAR ? "INTER_LINEAR" : "INTER_AREA"),
                c.size, threads, ours, cv);
        }
        cf_chain_free(&chain);
    }
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    const char *usage = "usage: cf-cpu-bench [--threads 1,2,0] [--sizes 1080p,4k] "
                        "[--sigmas 1,2,8,32] [--what gray,blur,convert,scale] [--min-time S]\n";
    for (int i = 1; i < argc; i += 2) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            fputs(usage, stdout);
            return 0;
        }
        if (i + 1 == argc) {
            fprintf(stderr, "cf-cpu-bench: %s needs a value\n%s", argv[i], usage);
            return 2;
        }
        std::string v = argv[i + 1];
        if (a == "--threads") {
            o.threads.clear();
            for (auto &t : split(v)) o.threads.push_back(atoi(t.c_str()));
        } else if (a == "--sizes") {
            o.sizes = split(v);
        } else if (a == "--what") {
            o.what = split(v);
        } else if (a == "--sigmas") {
            o.sigmas.clear();
            for (auto &t : split(v)) o.sigmas.push_back(atof(t.c_str()));
        } else if (a == "--min-time") {
            o.min_time = atof(v.c_str());
        } else {
            fprintf(stderr, "cf-cpu-bench: unknown option %s\n%s", argv[i], usage);
            return 2;
        }
    }
    printf("cf-cpu-bench: %d processors, CPU level %s (best %s), OpenCV %s (%s)\n\n",
           cf_cpu_count(), cf_cpu_level_name(cf_cpu_get_level()),
           cf_cpu_level_name(cf_cpu_best_level()), CV_VERSION,
           cv::getCPUFeaturesLine().c_str());
    printf("| case | size | threads | ours ms | OpenCV ms | ours/OpenCV | ours <= OpenCV |\n");
    printf("|---|---|---|---|---|---|---|\n");
    std::mt19937 rng(42);
    for (auto &s : o.sizes) {
        int w = s == "4k" ? 3840 : 1920, h = s == "4k" ? 2160 : 1080;
        for (auto &what : o.what) {
            if (what == "gray") gray_cases(o, s.c_str(), w, h, rng);
            if (what == "blur") blur_cases(o, s.c_str(), w, h, rng);
            if (what == "convert") convert_cases(o, s.c_str(), w, h, rng);
        }
    }
    for (auto &what : o.what)
        if (what == "scale") scale_cases(o, rng);
    return 0;
}
