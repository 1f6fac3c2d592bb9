// NPP peer for bench/run-bench.sh, built on the GPU host (NPP's headers and
// libraries exist only there): the same 4K frames, rotation, warm-up,
// stream hold and medians as cf-bench, so its rows sit beside ours in one
// table. `npp-peer --no-hold` times from an idle stream, as
// `cf-bench --no-hold`.
#include <cuda_runtime.h>
#include <nppi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "hold.cuh"

#define CHECK(call)                                                                             \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));                    \
            std::exit(1);                                                                       \
        }                                                                                       \
    } while (0)
#define NPP(call)                                                                               \
    do {                                                                                        \
        NppStatus s_ = (call);                                                                  \
        if (s_ != NPP_SUCCESS) {                                                                \
            std::fprintf(stderr, "%s: NPP status %d\n", #call, (int)s_);                        \
            std::exit(1);                                                                       \
        }                                                                                       \
    } while (0)

static bench::StreamHold *g_hold; // null: --no-hold

// As cf-bench's median_ms: 5 warm-up runs, then the median of 50 samples of
// 10 runs queued back to back behind a stream hold (hold.cuh). Should a run
// wait on the stream inside NPP, the hold times out: that case is timed again
// from an idle stream and its row says so.
static double median_ms(const std::function<void(int)> &fn, const char **how)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int i = 0; i < 5; i++) fn(i);
    std::vector<float> t;
    const int batch = 10; // runs back to back per sample, as cf-bench times
    bool hold = g_hold != nullptr;
    *how = "";
    for (int i = 0; i < 50; i++) {
        if (hold)
            g_hold->begin(nullptr);
        CHECK(cudaEventRecord(a));
        for (int k = 0; k < batch; k++) fn(i * batch + k);
        CHECK(cudaEventRecord(b));
        if (hold)
            g_hold->release();
        CHECK(cudaEventSynchronize(b));
        if (hold && !g_hold->held()) {
            hold = false;
            *how = " (from an idle stream: it waited inside the hold)";
            t.clear();
            i = -1;
            continue;
        }
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms / batch);
    }
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(int argc, char **argv)
{
    const bool no_hold = argc == 2 && std::strcmp(argv[1], "--no-hold") == 0;
    if (argc > 2 || (argc == 2 && !no_hold)) {
        std::fprintf(stderr, "usage: npp-peer [--no-hold]\n");
        return 2;
    }
    bench::StreamHold hold;
    g_hold = no_hold ? nullptr : &hold;
    const int w = 3840, h = 2160, n = 16;
    NppStreamContext ctx = {};
    ctx.hStream = 0;
    CHECK(cudaGetDevice(&ctx.nCudaDeviceId));
    int dev = ctx.nCudaDeviceId, v = 0;
    CHECK(cudaDeviceGetAttribute(&ctx.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaDeviceGetAttribute(&ctx.nMaxThreadsPerMultiProcessor,
                                 cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    CHECK(cudaDeviceGetAttribute(&ctx.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, dev));
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, dev));
    ctx.nSharedMemPerBlock = (size_t)v;
    CHECK(cudaDeviceGetAttribute(&ctx.nCudaDevAttrComputeCapabilityMajor,
                                 cudaDevAttrComputeCapabilityMajor, dev));
    CHECK(cudaDeviceGetAttribute(&ctx.nCudaDevAttrComputeCapabilityMinor,
                                 cudaDevAttrComputeCapabilityMinor, dev));

    std::vector<Npp8u *> rgba(n), gray(n);
    size_t rgba_pitch, gray_pitch;
    for (int i = 0; i < n; i++) {
        CHECK(cudaMallocPitch((void **)&rgba[i], &rgba_pitch, (size_t)w * 4, h));
        CHECK(cudaMallocPitch((void **)&gray[i], &gray_pitch, (size_t)w, h));
        CHECK(cudaMemset2D(rgba[i], rgba_pitch, 37 * i + 11, (size_t)w * 4, h));
        CHECK(cudaMemset2D(gray[i], gray_pitch, 91 * i + 3, (size_t)w, h));
    }
    Npp8u *out4, *out1;
    size_t out4_pitch, out1_pitch;
    CHECK(cudaMallocPitch((void **)&out4, &out4_pitch, (size_t)w * 4, h));
    CHECK(cudaMallocPitch((void **)&out1, &out1_pitch, (size_t)w, h));
    NppiSize size = { w, h };
    NppiPoint origin = { 0, 0 };

    const char *how = "";
    double ms = median_ms([&](int i) {
        NPP(nppiRGBToGray_8u_AC4C1R_Ctx(rgba[i % n], (int)rgba_pitch, out1, (int)out1_pitch, size, ctx));
    }, &how);
    std::printf("| NPP nppiRGBToGray AC4C1R%s | %8.4f |\n", how, ms);
    ms = median_ms([&](int i) {
        NPP(nppiFilterGaussBorder_8u_C1R_Ctx(gray[i % n], (int)gray_pitch, size, origin, out1,
                                             (int)out1_pitch, size, NPP_MASK_SIZE_13_X_13,
                                             NPP_BORDER_REPLICATE, ctx));
    }, &how);
    std::printf("| NPP FilterGaussBorder 13x13 GRAY8%s | %8.4f |\n", how, ms);
    ms = median_ms([&](int i) {
        NPP(nppiFilterGaussBorder_8u_C4R_Ctx(rgba[i % n], (int)rgba_pitch, size, origin, out4,
                                             (int)out4_pitch, size, NPP_MASK_SIZE_13_X_13,
                                             NPP_BORDER_REPLICATE, ctx));
    }, &how);
    std::printf("| NPP FilterGaussBorder 13x13 RGBA%s | %8.4f |\n", how, ms);
    for (double sigma : { 2.0, 8.0 }) {
        int taps = (int)std::lrint(sigma * 6 + 1) | 1, r = taps / 2;
        std::vector<float> k(taps);
        double sum = 0;
        for (int i = 0; i < taps; i++) sum += k[i] = (float)std::exp(-(i - r) * (i - r) / (2 * sigma * sigma));
        for (auto &x : k) x = (float)(x / sum);
        float *dk;
        CHECK(cudaMalloc(&dk, taps * sizeof(float)));
        CHECK(cudaMemcpy(dk, k.data(), taps * sizeof(float), cudaMemcpyHostToDevice));
        ms = median_ms([&](int i) {
            NPP(nppiFilterGaussAdvancedBorder_8u_C1R_Ctx(gray[i % n], (int)gray_pitch, size, origin,
                                                         out1, (int)out1_pitch, size, taps, dk,
                                                         NPP_BORDER_REPLICATE, ctx));
        }, &how);
        std::printf("| NPP FilterGaussAdvancedBorder sigma %g GRAY8 (%d taps)%s | %8.4f |\n", sigma,
                    taps, how, ms);
        ms = median_ms([&](int i) {
            NPP(nppiFilterGaussAdvancedBorder_8u_C4R_Ctx(rgba[i % n], (int)rgba_pitch, size, origin,
                                                         out4, (int)out4_pitch, size, taps, dk,
                                                         NPP_BORDER_REPLICATE, ctx));
        }, &how);
        std::printf("| NPP FilterGaussAdvancedBorder sigma %g RGBA (%d taps)%s | %8.4f |\n", sigma,
                    taps, how, ms);
        CHECK(cudaFree(dk));
    }
    return 0;
}
