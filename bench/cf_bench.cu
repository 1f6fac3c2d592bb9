// cudafilters kernel benchmarks: CUDA events around each launch, warm-up,
// medians over many runs, inputs rotated over a working set larger than the
// GPU's L2 so every frame comes from device memory. Prints one markdown
// table; the device-copy bandwidth and the integer multiply-add rates (IMAD,
// DP2A) measured in the same run are the ceilings each row is compared with.
//
//   cf-bench [--width W] [--height H] [--reps N] [--only TEXT] [--no-hold]
//            [--max-sigma S] [--methods]
//
// --only runs just the cases whose label contains TEXT (for a profiler).
// --no-hold starts each timed batch from an idle stream instead of queuing
// it behind a stream hold (median_ms); a profiler, which runs kernels one
// at a time, needs it.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
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
#include "hold.cuh"
#include "launch.cuh"
#include "check.cuh"
#include "same_bytes_copy.cuh"

namespace {

int g_reps = 50;
const char *g_only = nullptr; // run only cases whose label contains this

int g_matched = 0; // cases --only let through

bool wanted(const char *label)
{
    const bool yes = !g_only || std::strstr(label, g_only);
    g_matched += yes;
    return yes;
}
const size_t kWorkingSet = 512ull << 20; // bytes of inputs rotated through, >> the L2

// Medians of one case: GPU ms a run, and host microseconds to queue one
// run (the filter's own work on the CPU: argument checks, launch set-up,
// the launches).
struct Timing {
    double ms;
    double host_us;
};

// Median over `reps` samples of the time per run of fn(i) (i = run index,
// which picks the rotating input), after 5 warm-up runs. Each sample times
// kBatch runs queued back to back between two events and divides: the
// GPU's throughput on a busy stream, as in a pipeline. With `hold` (the
// default; --no-hold turns it off) the batch is queued behind a stream hold
// (hold.cuh), so neither the host's latency to launch the first run nor a
// host slower than the GPU shows in the GPU time; the host's time to queue
// the batch is measured alongside. Without it the batch starts from an idle
// stream as the host launches it. Runs that wait on the stream themselves
// (pageable transfers) pass hold = false; any other such run is a bug in
// our filters (they queue work, never wait), so a timed-out hold stops
// cf-bench. The peers (npp_peer.cu, peers.py) are timed the same way, but
// time a case whose runs wait inside the hold again from an idle stream,
// and say so in its row.
const int kBatch = 10;
bool g_hold = true;
Timing median_ms(const std::function<void(int)> &fn, bool hold = true)
{
    static bench::StreamHold stream_hold;
    hold = hold && g_hold;
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int i = 0; i < 5; i++) fn(i);
    std::vector<double> t, host;
    for (int i = 0; i < g_reps; i++) {
        if (hold)
            stream_hold.begin(nullptr);
        CHECK(cudaEventRecord(a));
        const auto t0 = std::chrono::steady_clock::now();
        for (int k = 0; k < kBatch; k++) fn(i * kBatch + k);
        const auto t1 = std::chrono::steady_clock::now();
        CHECK(cudaEventRecord(b));
        if (hold)
            stream_hold.release();
        CHECK(cudaEventSynchronize(b));
        if (hold && !stream_hold.held()) {
            std::fprintf(stderr, "cf-bench: the stream hold timed out while a batch was queued "
                                 "(a run waited on the stream); run with --no-hold\n");
            std::exit(1);
        }
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms / kBatch);
        host.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kBatch);
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    std::sort(host.begin(), host.end());
    return { t[t.size() / 2], host[host.size() / 2] };
}

size_t frame_bytes(cf_format f, int w, int h)
{
    size_t n = 0;
    for (int p = 0; p < cf_format_get_info(f)->n_planes; p++)
        n += cf_format_plane_row_bytes(f, p, w) * (size_t)cf_format_plane_height(f, p, h);
    return n;
}

// Enough device frames of random pixels to exceed the L2 working set.
std::vector<cf_frame> random_frames(cf_format f, int w, int h, cf_memory mem = CF_MEMORY_DEVICE)
{
    size_t bytes = frame_bytes(f, w, h);
    int n = (int)std::max<size_t>(4, kWorkingSet / bytes);
    std::vector<cf_frame> frames(n);
    cf_frame host;
    CF_CHECK(cf_frame_alloc(&host, f, w, h, CF_MEMORY_PINNED_HOST));
    uint64_t x = 88172645463325252ull; // xorshift64: random bytes, fast
    for (int p = 0; p < cf_format_get_info(f)->n_planes; p++)
        for (size_t j = 0; j + 8 <= host.pitch[p] * cf_format_plane_height(f, p, h); j += 8) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            std::memcpy(host.data[p] + j, &x, 8);
        }
    // Same pixels in every frame, different addresses: what matters for
    // timing is that each launch reads memory that is not in L2.
    for (int i = 0; i < n; i++) {
        CF_CHECK(cf_frame_alloc(&frames[i], f, w, h, mem));
        CF_CHECK(cf_frame_copy(&host, &frames[i], nullptr));
    }
    CHECK(cudaDeviceSynchronize());
    cf_frame_free(&host);
    return frames;
}

void free_frames(std::vector<cf_frame> &v)
{
    for (auto &f : v) cf_frame_free(&f);
}

// Peak rate of 32-bit multiply-adds: four dependent chains per thread, so
// the pipe, not latency, sets the pace. Chains a and c step with IMAD, or
// DP2A (two 16-bit x 8-bit products plus a 32-bit sum) when DpAC; chains b
// and d likewise with DpBD. IMAD and DP2A interleaved one to one run at
// their common rate if the two share a pipe, at up to twice it if not; the
// blur's floor uses that rate for its mix of the two, the lower (more
// demanding) floor either way.
template <bool DpAC, bool DpBD>
__global__ void mad_peak(uint32_t *out, uint32_t seed, int iters)
{
    uint32_t a = seed + threadIdx.x, b = a * 3 + 1, c = a ^ 0x9e3779b9u, d = b + 7;
    const uint32_t m = 0x10001u + blockIdx.x, w = 0x00030001u + blockIdx.x;
    auto step = [&](bool dp, uint32_t x, uint32_t y) { return dp ? __dp2a_lo(w, x, y) : x * m + y; };
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int k = 0; k < 16; k++) {
            a = step(DpAC, a, b);
            b = step(DpBD, b, c);
            c = step(DpAC, c, d);
            d = step(DpBD, d, a);
        }
    }
    if ((a ^ b ^ c ^ d) == 0x12345678u) out[0] = a; // keeps the work alive
}

// 64-bit multiply-adds (IMAD.WIDE.U32: a 32 x 32-bit product plus a 64-bit
// sum), four chains as mad_peak: what the vertical sums of 16-bit samples
// need (blur.h), at the rate this measures.
__global__ void mad64_peak(uint32_t *out, uint32_t seed, int iters)
{
    uint64_t a = seed + threadIdx.x, b = a * 3 + 1, c = a ^ 0x9e3779b9u, d = b + 7;
    const uint32_t m = 0x10001u + blockIdx.x;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int k = 0; k < 16; k++) {
            a += (uint64_t)(uint32_t)b * m;
            b += (uint64_t)(uint32_t)c * m;
            c += (uint64_t)(uint32_t)d * m;
            d += (uint64_t)(uint32_t)a * m;
        }
    }
    if ((a ^ b ^ c ^ d) == 0x12345678u) out[0] = (uint32_t)a; // keeps the work alive
}

// FP64 multiply-adds (DFMA), four chains as mad_peak: what the tile and
// two-pass methods' vertical sums of 10-bit planes run on where the GPU
// has full-rate FP64 (kernels/blur_f64.cuh).
__global__ void dfma_peak(uint32_t *out, uint32_t seed, int iters)
{
    double a = seed + threadIdx.x, b = a * 3 + 1, c = a * 0.5, d = b + 7;
    const double m = 1.0 + 1e-9 * blockIdx.x;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int k = 0; k < 16; k++) {
            a = fma(b, m, a);
            b = fma(c, m, b);
            c = fma(d, m, c);
            d = fma(a, m, d);
        }
    }
    if (a + b + c + d == 0.25) out[0] = 1; // keeps the work alive
}

// int8 tensor-core products (mma.sync m16n8k32, u8 x u8 into s32, 4096
// multiply-adds a warp instruction), eight independent accumulators a
// warp: what the tensor-core blur (kernels/blur_tensor.cu) runs on. Needs
// compute capability 8.0; below it the kernel does nothing.
__global__ void mma_peak(uint32_t *out, uint32_t seed, int iters)
{
#if __CUDA_ARCH__ >= 800
    const uint32_t a0 = seed + threadIdx.x, a1 = a0 * 3, a2 = a0 ^ 0x5a5a5a5au, a3 = a0 + 9;
    int acc[8][4] = {};
    for (int i = 0; i < iters; i++)
#pragma unroll
        for (int c = 0; c < 8; c++)
            asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                "{%8,%9}, {%0,%1,%2,%3};"
                : "+r"(acc[c][0]), "+r"(acc[c][1]), "+r"(acc[c][2]), "+r"(acc[c][3])
                : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"((uint32_t)i), "r"((uint32_t)c));
    int sum = 0;
    for (int c = 0; c < 8; c++) sum += acc[c][0] ^ acc[c][1] ^ acc[c][2] ^ acc[c][3];
    if (sum == 0x12345678) out[0] = (uint32_t)sum; // keeps the work alive
#endif
}

struct Ceilings {
    double copy_gbs;   // device copy, bytes read + written per second / 1e9
    double imad_gops;  // 32-bit multiply-adds per second / 1e9
    double dp2a_gops;  // DP2A instructions (2 multiply-adds each) per second / 1e9
    double mixed_gops; // IMAD and DP2A interleaved 1:1, instructions per second / 1e9
    double imad64_gops; // 64-bit multiply-adds (IMAD.WIDE) per second / 1e9
    double dfma_gops;   // FP64 multiply-adds (DFMA) per second / 1e9
    double mma_gmacs;   // int8 tensor-core multiply-adds per second / 1e9 (0: none)
};

Ceilings measure_ceilings()
{
    Ceilings c{};
    size_t bytes = 1ull << 30;
    void *a, *b;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMemset(a, 1, bytes));
    double ms =
        median_ms([&](int) { CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); }).ms;
    c.copy_gbs = 2.0 * bytes / (ms * 1e6);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    uint32_t *out;
    CHECK(cudaMalloc(&out, 4));
    const int blocks = sms * 8, threads = 512, iters = 2000;
    // Instructions per second / 1e9 of one mad_peak variant.
    auto rate = [&](void (*kernel)(uint32_t *, uint32_t, int)) {
        double t = median_ms([&](int i) { kernel<<<blocks, threads>>>(out, (uint32_t)i, iters); }).ms;
        return (double)blocks * threads * iters * 64 / (t * 1e6);
    };
    c.imad_gops = rate(mad_peak<false, false>);
    c.dp2a_gops = rate(mad_peak<true, true>);
    c.mixed_gops = rate(mad_peak<false, true>);
    c.imad64_gops = rate(mad64_peak);
    c.dfma_gops = rate(dfma_peak);
    int major = 0;
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    if (major >= 8) {
        const int warps = threads / 32, mma_iters = 500;
        double t = median_ms([&](int i) { mma_peak<<<blocks, threads>>>(out, (uint32_t)i, mma_iters); }).ms;
        c.mma_gmacs = (double)blocks * warps * mma_iters * 8 * 4096 / (t * 1e6);
    }
    CHECK(cudaFree(out));
    return c;
}

// A device copy of a case's own bytes (same_bytes_copy.cuh), timed as the
// case is.
double same_bytes_copy_ms(double bytes)
{
    return bench::same_bytes_copy_ms(bytes, kWorkingSet, [](const std::function<void(int)> &run) {
        return median_ms(run).ms;
    });
}

// op_floor: ms the method's arithmetic needs at the measured peak rates.
// "x floor" is against the larger of the two floors, bytes at the copy
// ceiling or the arithmetic; "x copy" against the larger of the arithmetic
// and a device copy of the case's own bytes (same_bytes_copy_ms), measured
// here.
void row(const char *what, Timing t, double bytes, double op_floor, const Ceilings &c)
{
    const double ms = t.ms;
    double mem_floor = bytes / (c.copy_gbs * 1e6);
    double floor = std::max(mem_floor, op_floor);
    double copy = bytes > 0 ? same_bytes_copy_ms(bytes) : 0;
    std::printf("| %-34s | %8.4f | %7.1f | %5.1f%% | %8.4f | %8.4f | %5.2fx | %8.4f | %5.2fx "
                "| %6.1f |\n",
                what, ms, bytes / (ms * 1e6), 100.0 * bytes / (ms * 1e6) / c.copy_gbs, mem_floor,
                op_floor, ms / floor, copy, ms / std::max(copy, op_floor), t.host_us);
}

// Medians of op(src, dst) over w x h device frames: inputs of format
// `in` rotated over the working set, outputs of format `out` alternating
// between two frames.
Timing time_on_frames(cf_format in, cf_format out, int w, int h,
                      const std::function<void(const cf_frame &, cf_frame &)> &op)
{
    auto src = random_frames(in, w, h);
    std::vector<cf_frame> dst(2);
    for (auto &d : dst) CF_CHECK(cf_frame_alloc(&d, out, w, h, CF_MEMORY_DEVICE));
    Timing t = median_ms([&](int i) { op(src[i % src.size()], dst[i % 2]); });
    free_frames(src);
    free_frames(dst);
    return t;
}

// Runs one filter string on rotating device frames; returns the medians.
Timing time_filter(const char *chain_text, cf_format in, cf_format out, int w, int h)
{
    cf_chain *chain = cf_chain_parse(chain_text);
    if (!chain) {
        std::fprintf(stderr, "%s\n", cf_last_error());
        std::exit(1);
    }
    cf_filter *f = cf_chain_get(chain, 0);
    Timing t = time_on_frames(in, out, w, h, [&](const cf_frame &a, cf_frame &b) {
        CF_CHECK(cf_filter_run(f, &a, &b, nullptr));
    });
    cf_chain_free(&chain);
    return t;
}

int taps(double sigma, int depth)
{
    return (int)std::lrint(sigma * (depth == 8 ? 6.0 : 8.0) + 1.0) | 1;
}

// Blur cases: (format, sigma, sigma-y).
struct BlurCase {
    cf_format f;
    double sigma, sigma_y;
};

std::vector<BlurCase> blur_cases()
{
    std::vector<BlurCase> v;
    // GRAY16: 16-bit samples of 16 bits, whose vertical sums are 64-bit
    // integers (P010's 10 go to the FP64 units on Hopper: blur_f64.cuh).
    const cf_format formats[] = { CF_FORMAT_GRAY8, CF_FORMAT_RGBA, CF_FORMAT_NV12,
                                  CF_FORMAT_P010_10LE, CF_FORMAT_GRAY16_LE };
    const double sigmas[] = { 0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64 };
    const double unequal[][2] = { { 3, 1 }, { 8, 2 }, { 2, 8 }, { 32, 8 }, { 64, 16 } };
    for (cf_format f : formats) {
        for (double s : sigmas) v.push_back({ f, s, s });
        for (const auto &u : unequal) v.push_back({ f, u[0], u[1] });
    }
    return v;
}

double g_max_sigma = 1e9; // --max-sigma: blur cases up to this sigma
bool g_methods = false;   // --methods: a row per forced method too

// blur.h's test hook (cf_blur_cuda_force, cf_blur_cuda_last_method) if the
// library has it: an older one does not, and is timed without it.
struct BlurHook {
    void (*force)(int method, bool split);
    int (*last)(void);
    // cf_blur_cuda_allow_fp64 and cf_blur_cuda_last_fp64, where the library
    // has them (both or neither).
    void (*allow_fp64)(bool allow);
    bool (*last_fp64)(void);
    // cf_blur_cuda_force_tensor16_columns and
    // cf_blur_cuda_last_tensor_columns, likewise.
    void (*tensor16_columns)(int method);
    bool (*last_tensor_columns)(void);
} g_hook;

void find_blur_hook()
{
    g_hook.force = reinterpret_cast<void (*)(int, bool)>(dlsym(RTLD_DEFAULT, "cf_blur_cuda_force"));
    g_hook.last = reinterpret_cast<int (*)(void)>(dlsym(RTLD_DEFAULT, "cf_blur_cuda_last_method"));
    g_hook.allow_fp64 =
        reinterpret_cast<void (*)(bool)>(dlsym(RTLD_DEFAULT, "cf_blur_cuda_allow_fp64"));
    g_hook.last_fp64 = reinterpret_cast<bool (*)(void)>(dlsym(RTLD_DEFAULT, "cf_blur_cuda_last_fp64"));
    if (!g_hook.allow_fp64 || !g_hook.last_fp64)
        g_hook.allow_fp64 = nullptr, g_hook.last_fp64 = nullptr;
    g_hook.tensor16_columns = reinterpret_cast<void (*)(int)>(
        dlsym(RTLD_DEFAULT, "cf_blur_cuda_force_tensor16_columns"));
    g_hook.last_tensor_columns =
        reinterpret_cast<bool (*)(void)>(dlsym(RTLD_DEFAULT, "cf_blur_cuda_last_tensor_columns"));
    if (!g_hook.tensor16_columns || !g_hook.last_tensor_columns)
        g_hook.tensor16_columns = nullptr, g_hook.last_tensor_columns = nullptr;
    if (!g_hook.force || !g_hook.last)
        g_hook = {};
}

const char *method_name(int m)
{
    return m == 1 ? "reg" : m == 2 ? "sep" : m == 3 ? "tile" : m == 4 ? "slide" : m == 5 ? "tensor" : "-";
}

// The floor of a blur's arithmetic, ms, for the method that ran, counted
// per output sample for the frame's own kernels (kx, ky taps): reg, the
// horizontal taps in pairs through DP2A (one instruction a pair, the last
// tap alone) and the vertical ones one IMAD each, the two interleaved on
// one pipe (the "IMAD and DP2A interleaved" ceiling), past radius 24 (its
// wide and huge kernels, blur_reg.cu) the vertical taps paired as sep's;
// sep, tile and slide, the symmetric taps paired, one multiply-add a pair
// plus the centre each way (their adds run on the integer pipe beside it,
// not counted): 32-bit IMADs at the IMAD ceiling, but for the vertical
// sums of 16-bit samples, which are 64 bits wide (blur.h), at the IMAD.WIDE
// ceiling, or where they ran on the FP64 units (fp64: kernels/blur_f64.cuh)
// one DFMA a pair at the DFMA ceiling, on a pipe of its own: tile's two
// passes share a kernel, so its floor is the larger of the two, sep's are
// two kernels, so the sum. tensor: every tap's products of bytes, 2 a tap horizontally
// (tap bytes by a sample), 4 vertically (tap bytes by intermediate bytes),
// at the int8 tensor-core ceiling; for 16-bit samples 4 a tap horizontally
// (tap bytes by sample bytes), then, where the columns pass ran on the
// tensor cores (tcols), 6 a tap vertically (tap bytes by the three bytes of
// an intermediate), else sep's vertical pairs as above, the sum. An older
// library (no hook): counted as
// reg. Not counted: apron rows a tile or strip computes twice, zero taps a
// padded kernel runs (for tensor, the band matrices' zeros).
double blur_op_floor(int method, int kx, int ky, double samples, int sample_bytes,
                     bool fp64, bool tcols, const Ceilings &c)
{
    if (method == 5 && c.mma_gmacs > 0 && sample_bytes == 2 && tcols)
        return (4.0 * kx + 6.0 * ky) * samples / (c.mma_gmacs * 1e6);
    if (method == 5 && c.mma_gmacs > 0 && sample_bytes == 2) {
        // 16-bit planes: the rows pass's 4 products a tap on the tensor
        // cores, then sep's columns pass (pairs: DFMAs or 64-bit IMADs).
        const double v = (ky / 2 + 1) / (fp64 && c.dfma_gops > 0 ? c.dfma_gops : c.imad64_gops);
        return (4.0 * kx / c.mma_gmacs + v) * samples / 1e6;
    }
    if (method == 5 && c.mma_gmacs > 0)
        return (2.0 * kx + 4.0 * ky) * samples / (c.mma_gmacs * 1e6);
    if (fp64 && (method == 2 || method == 3) && c.dfma_gops > 0) {
        const double h = (kx / 2 + 1) / c.imad_gops, v = (ky / 2 + 1) / c.dfma_gops;
        return (method == 3 ? std::max(h, v) : h + v) * samples / 1e6;
    }
    if (method == 2 || method == 3 || method == 4) {
        const double vertical_rate = sample_bytes == 2 ? c.imad64_gops : c.imad_gops;
        return ((kx / 2 + 1) / c.imad_gops + (ky / 2 + 1) / vertical_rate) * samples / 1e6;
    }
    const int vertical = std::max(kx, ky) / 2 > 24 ? ky / 2 + 1 : ky;
    return ((kx + 1) / 2 + vertical) * samples / (c.mixed_gops * 1e6);
}

// time_filter, but a run that fails (a forced method that does not take
// the frame; any other failure also prints a row saying so) returns false
// instead of stopping cf-bench.
bool time_filter_or_fail(const char *chain_text, cf_format in, cf_format out, int w, int h,
                         Timing *t)
{
    cf_chain *chain = cf_chain_parse(chain_text);
    if (!chain) {
        std::fprintf(stderr, "%s\n", cf_last_error());
        std::exit(1);
    }
    cf_filter *f = cf_chain_get(chain, 0);
    cf_frame a, b;
    CF_CHECK(cf_frame_alloc(&a, in, 64, 64, CF_MEMORY_DEVICE));
    CF_CHECK(cf_frame_alloc(&b, out, 64, 64, CF_MEMORY_DEVICE));
    const bool ok = cf_filter_run(f, &a, &b, nullptr) == CF_OK;
    cf_frame_free(&a);
    cf_frame_free(&b);
    CHECK(cudaDeviceSynchronize());
    bool failed = false;
    if (ok)
        *t = time_on_frames(in, out, w, h, [&](const cf_frame &x, cf_frame &y) {
            if (!failed && cf_filter_run(f, &x, &y, nullptr) != CF_OK) {
                failed = true;
                std::printf("| %s %dx%d failed: %s | | | | | | | |\n", chain_text, w, h,
                            cf_last_error());
            }
        });
    cf_chain_free(&chain);
    return ok && !failed;
}

} // namespace

int main(int argc, char **argv)
{
    int w = 3840, h = 2160;
    const char *usage =
        "usage: cf-bench [--width W] [--height H] [--reps N] [--only TEXT] [--no-hold]\n"
        "                [--max-sigma S] [--methods]\n"
        "  W x H: frame size in pixels (3840 x 2160); N: samples per case (50);\n"
        "  TEXT: run only the cases whose label contains it;\n"
        "  S: blur cases up to sigma S; --methods: blur rows per forced CUDA method too;\n"
        "  --no-hold: time each batch from an idle stream, host launch latency included\n"
        "  (for profilers, which serialise kernels)\n";
    for (int i = 1; i < argc; i += 2) {
        if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            std::fputs(usage, stdout);
            return 0;
        }
        if (!std::strcmp(argv[i], "--no-hold") || !std::strcmp(argv[i], "--methods")) {
            (argv[i][2] == 'n' ? g_hold : g_methods) = argv[i][2] != 'n';
            i--; // a flag without a value
            continue;
        }
        const char *value = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!value || std::strncmp(value, "--", 2) == 0) {
            std::fprintf(stderr, "cf-bench: %s needs a value\n%s", argv[i], usage);
            return 2;
        }
        if (!std::strcmp(argv[i], "--width")) w = std::atoi(value);
        else if (!std::strcmp(argv[i], "--height")) h = std::atoi(value);
        else if (!std::strcmp(argv[i], "--reps")) g_reps = std::atoi(value);
        else if (!std::strcmp(argv[i], "--only")) g_only = value;
        else if (!std::strcmp(argv[i], "--max-sigma")) g_max_sigma = std::atof(value);
        else {
            std::fprintf(stderr, "cf-bench: unknown option '%s'\n%s", argv[i], usage);
            return 2;
        }
    }
    if (w < 1 || h < 1 || g_reps < 1) {
        std::fprintf(stderr, "cf-bench: --width, --height and --reps must be at least 1\n");
        return 2;
    }
    int n = 0;
    CF_CHECK(cf_device_count(&n));
    if (n == 0) {
        std::fprintf(stderr, "cf-bench: no GPU (%s)\n", cf_device_unavailable_reason());
        return 77;
    }
    cf_device_info info;
    CF_CHECK(cf_device_get_info(0, &info));
    find_blur_hook();
    Ceilings c = measure_ceilings();
    int l2 = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    std::printf("%s, %d SMs, %d MiB L2; frames %dx%d; medians of %d samples of %d back-to-back runs "
                "%s; inputs rotated over %zu MiB\n",
                info.name, info.multiprocessors, l2 >> 20, w, h, g_reps, kBatch,
                g_hold ? "queued behind a stream hold (GPU time alone)"
                       : "from an idle stream (--no-hold: host launch latency included)",
                kWorkingSet >> 20);
    std::printf("ceilings measured now: device copy %.0f GB/s (read+write), 32-bit IMAD %.0f G/s, "
                "DP2A %.0f G/s (2 multiply-adds each), IMAD and DP2A interleaved %.0f G/s, "
                "64-bit IMAD.WIDE %.0f G/s, FP64 DFMA %.0f G/s, int8 tensor-core multiply-adds "
                "%.0f G/s\n",
                c.copy_gbs, c.imad_gops, c.dp2a_gops, c.mixed_gops, c.imad64_gops, c.dfma_gops,
                c.mma_gmacs);
    // Our kernels' launches, by the library's rule (kernels/launch.cuh).
    std::printf("our launches: %s\n\n",
                cf_pdl_enabled() ? "programmatic dependent launch (CUDAFILTERS_PDL=0: plain)"
                                 : "plain (programmatic dependent launch needs sm_90 code in the "
                                   "build, compute capability 9.0 and CUDAFILTERS_PDL not 0)");
    // host us: the CPU's time to queue one run (median).
    std::printf("| case | ms | GB/s | %% copy | mem floor ms | op floor ms | x floor | "
                "same-bytes copy ms | x copy | host us |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");

    // The last row is full-range NV12, whose luma is already the output
    // (the luma kernel with an identity mapping); "copy2D" rows after the
    // gray rows are cudaMemcpy2DAsync of the same luma plane, and "copy"
    // rows one cudaMemcpyAsync of its rows, for what the runtime's own
    // copy of those bytes reaches in one call (the copy ceiling above is
    // one 1 GiB copy).
    struct GrayCase {
        cf_format in, out;
        const char *text, *chain;
    } grays[] = { { CF_FORMAT_RGBA, CF_FORMAT_GRAY8, "gray RGBA->GRAY8", "gray" },
                  { CF_FORMAT_BGRX, CF_FORMAT_GRAY8, "gray BGRx->GRAY8", "gray" },
                  { CF_FORMAT_RGB, CF_FORMAT_GRAY8, "gray RGB->GRAY8", "gray" },
                  { CF_FORMAT_NV12, CF_FORMAT_GRAY8, "gray NV12->GRAY8", "gray" },
                  { CF_FORMAT_I420, CF_FORMAT_GRAY8, "gray I420->GRAY8", "gray" },
                  { CF_FORMAT_P010_10LE, CF_FORMAT_GRAY8, "gray P010->GRAY8", "gray" },
                  { CF_FORMAT_GRAY16_LE, CF_FORMAT_GRAY8, "gray GRAY16->GRAY8", "gray" },
                  { CF_FORMAT_NV12, CF_FORMAT_GRAY8, "gray NV12 full range->GRAY8", "gray=range=full" },
                  { CF_FORMAT_NV12, CF_FORMAT_NV12, "gray NV12->NV12 (luma kept)", "gray" } };
    // Gray at the frame size and at twice it each way: at 4K a luma plane
    // and its GRAY8 output (16.6 MB) fit in the L2, at 8K (66 MB) they do
    // not. Inputs rotate over the working set; the outputs alternate
    // between two frames.
    for (int scale : { 1, 2 })
        for (const GrayCase &g : grays) {
            const int gw = w * scale, gh = h * scale;
            char label[64];
            std::snprintf(label, sizeof label, "%s", g.text);
            if (scale == 2)
                std::snprintf(label, sizeof label, "%s %dx%d", g.text, gw, gh);
            if (!wanted(label))
                continue;
            const cf_format_info *fi = cf_format_get_info(g.in);
            bool rgb = fi->r_offset >= 0;
            // Read: every RGB byte, or the luma plane. Written: the output
            // frame (a YUV output: luma copied, chroma set).
            double read = rgb ? (double)frame_bytes(g.in, gw, gh)
                              : (double)cf_format_plane_row_bytes(g.in, 0, gw) * gh;
            Timing t = time_filter(g.chain, g.in, g.out, gw, gh);
            row(label, t, read + (double)frame_bytes(g.out, gw, gh),
                (rgb ? 3.0 * gw * gh : 0) / (c.imad_gops * 1e6), c);
        }
    for (int scale : { 1, 2 }) {
        const int gw = w * scale, gh = h * scale;
        char label[64];
        std::snprintf(label, sizeof label, "copy2D NV12 luma plane %dx%d", gw, gh);
        if (wanted(label)) {
            Timing t = time_on_frames(CF_FORMAT_NV12, CF_FORMAT_GRAY8, gw, gh,
                                      [&](const cf_frame &a, cf_frame &b) {
                                          CHECK(cudaMemcpy2DAsync(b.data[0], b.pitch[0], a.data[0],
                                                                  a.pitch[0], (size_t)gw, (size_t)gh,
                                                                  cudaMemcpyDeviceToDevice));
                                      });
            row(label, t, 2.0 * gw * gh, 0, c);
        }
        // The same rows as one contiguous cudaMemcpyAsync (pitch padding
        // included): the runtime's own copy at this size, the ceiling a
        // 1:1 kernel of these bytes is fairly held to.
        std::snprintf(label, sizeof label, "copy NV12 luma bytes %dx%d", gw, gh);
        if (wanted(label)) {
            size_t pitch = 0;
            Timing t = time_on_frames(CF_FORMAT_NV12, CF_FORMAT_GRAY8, gw, gh,
                                      [&](const cf_frame &a, cf_frame &b) {
                                          pitch = std::min(a.pitch[0], b.pitch[0]);
                                          CHECK(cudaMemcpyAsync(b.data[0], a.data[0], pitch * gh,
                                                                cudaMemcpyDeviceToDevice));
                                      });
            row(label, t, 2.0 * (double)pitch * gh, 0, c);
        }
    }
    // Blur: a sigma sweep and unequal sigmas on GRAY8, RGBA, NV12, P010 and GRAY16
    // at the frame size and twice it each way (blur_cases), each row
    // naming the method the dispatch table ran (blur.h's test hook, looked
    // up at run time so this binary also times an older library, whose
    // rows then say "-"); --methods adds a row per method forced.
    for (const BlurCase &b : blur_cases()) {
        if (b.sigma > g_max_sigma || b.sigma_y > g_max_sigma)
            continue;
        for (int scale : { 1, 2 }) {
            const int bw = w * scale, bh = h * scale;
            const cf_format_info *fi = cf_format_get_info(b.f);
            const int kx = taps(b.sigma, fi->depth), ky = taps(b.sigma_y, fi->depth);
            char text[96], label[96];
            std::snprintf(text, sizeof text, "blur=sigma=%g:sigma-y=%g", b.sigma, b.sigma_y);
            if (b.sigma_y == b.sigma)
                std::snprintf(label, sizeof label, "blur sigma %g %s %dx%d (%d taps)", b.sigma,
                              cf_format_name(b.f), bw, bh, kx);
            else
                std::snprintf(label, sizeof label, "blur sigma %g sigma-y %g %s %dx%d (%dx%d taps)",
                              b.sigma, b.sigma_y, cf_format_name(b.f), bw, bh, kx, ky);
            if (!wanted(label))
                continue;
            const double bytes = 2.0 * frame_bytes(b.f, bw, bh);
            const double samples = (double)frame_bytes(b.f, bw, bh) / fi->sample_bytes;
            std::vector<int> methods = { 0 };
            if (g_methods && g_hook.force)
                methods.insert(methods.end(), { 1, 2, 3, 4, 5 });
            // --methods on 16-bit frames: each method also with the FP64
            // sums turned off (a row whose method has none says "int64").
            std::vector<bool> fp64_modes = { true };
            if (g_methods && g_hook.allow_fp64 && fi->sample_bytes == 2)
                fp64_modes.push_back(false);
            // The tensor-core method forced on 16-bit frames: a row with each
            // columns pass (sep's: 2, the tensor cores': 5).
            for (bool allow : fp64_modes)
                for (int m : methods)
                    for (int cols : m == 5 && fi->sample_bytes == 2 && g_hook.tensor16_columns
                                        ? std::vector<int>{ 2, 5 }
                                        : std::vector<int>{ 0 }) {
                        if (cols == 5 && !allow)
                            continue; // no FP64 sums to turn off
                        if (g_hook.force)
                            g_hook.force(m, true);
                        if (g_hook.allow_fp64)
                            g_hook.allow_fp64(allow);
                        if (g_hook.tensor16_columns)
                            g_hook.tensor16_columns(cols);
                        Timing t;
                        if (!time_filter_or_fail(text, b.f, b.f, bw, bh, &t))
                            continue; // a forced method that does not take the frame
                        const int ran = g_hook.last ? g_hook.last() : -1;
                        const bool fp64 = g_hook.last_fp64 && g_hook.last_fp64();
                        const bool tcols = g_hook.last_tensor_columns && g_hook.last_tensor_columns();
                        char row_label[128];
                        std::snprintf(row_label, sizeof row_label, "%s [%s%s%s%s]", label,
                                      m ? "forced " : "", method_name(ran), tcols ? "+tcols" : "",
                                      fp64 ? "+fp64" : allow || tcols ? "" : " int64");
                        row(row_label, t, bytes,
                            blur_op_floor(ran, kx, ky, samples, fi->sample_bytes, fp64, tcols, c),
                            c);
                    }
            if (g_hook.force)
                g_hook.force(0, true);
            if (g_hook.allow_fp64)
                g_hook.allow_fp64(true);
            if (g_hook.tensor16_columns)
                g_hook.tensor16_columns(0);
        }
    }
    // Transfers of one RGBA frame: pinned and pageable host memory.
    for (cf_memory hm : { CF_MEMORY_PINNED_HOST, CF_MEMORY_HOST }) {
        if (!wanted("upload download"))
            continue;
        cf_frame host, dev;
        CF_CHECK(cf_frame_alloc(&host, CF_FORMAT_RGBA, w, h, hm));
        std::memset(host.data[0], 7, host.pitch[0] * h);
        CF_CHECK(cf_frame_alloc(&dev, CF_FORMAT_RGBA, w, h, CF_MEMORY_DEVICE));
        // Not held: a copy from pageable memory waits on the stream.
        double up = median_ms([&](int) { CF_CHECK(cf_frame_upload(&host, &dev, nullptr)); }, false).ms;
        double down =
            median_ms([&](int) { CF_CHECK(cf_frame_download(&dev, &host, nullptr)); }, false).ms;
        double bytes = (double)frame_bytes(CF_FORMAT_RGBA, w, h);
        const char *kind = hm == CF_MEMORY_PINNED_HOST ? "pinned" : "pageable";
        std::printf("| upload RGBA, %-8s host memory     | %8.4f | %7.1f | PCIe | | | | |\n", kind, up,
                    bytes / (up * 1e6));
        std::printf("| download RGBA, %-8s host memory   | %8.4f | %7.1f | PCIe | | | | |\n", kind,
                    down, bytes / (down * 1e6));
        cf_frame_free(&host);
        cf_frame_free(&dev);
    }
    if (g_matched == 0) {
        std::fprintf(stderr, "cf-bench: no case label contains '%s'\n", g_only);
        return 2;
    }
    return 0;
}
