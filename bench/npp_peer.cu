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
#include "check.cuh"

static bench::StreamHold *g_hold; // null: --no-hold

// As cf-bench's median_ms: warm-up runs, then the median of samples of
// runs queued back to back behind a stream hold (hold.cuh): 50 samples of
// 10 runs, fewer for slow runs (one run timed first: batches of about 20
// ms, about 0.5 s a case, at least 3 samples of 1 run). Should a run wait
// on the stream inside NPP, the hold times out: that case is timed again
// from an idle stream and its row says so.
static double median_ms(const std::function<void(int)> &fn, const char **how)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    fn(0);
    CHECK(cudaEventRecord(a));
    fn(1);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float one = 0;
    CHECK(cudaEventElapsedTime(&one, a, b));
    const int batch = std::clamp((int)(20.0 / std::max(one, 1e-3f)), 1, 10);
    const int samples = std::clamp((int)(500.0 / (std::max(one, 1e-3f) * batch)), 3, 50);
    for (int i = 0; i < (one > 50 ? 0 : std::min(5, batch * 2)); i++) fn(i);
    std::vector<float> t;
    bool hold = g_hold != nullptr;
    *how = "";
    for (int i = 0; i < samples; i++) {
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
    // GaussAdvanced over cf-bench's blur sweep: GRAY8 at 4K; RGBA at 4K,
    // GRAY8 at 8K and the luma of P010 (16-bit, 8 sigma + 1 taps) at 4K up
    // to sigma 16 (past it a run takes seconds); the taps of OpenCV's rule, replicate border. A status other than
    // success is printed in the row, and the sweep goes on.
    const double sigmas[] = { 0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64 };
    const int w8 = 2 * w, h8 = 2 * h;
    Npp8u *gray8k, *gray8k_out;
    Npp16u *y16, *y16_out;
    size_t gray8k_pitch, gray8k_out_pitch, y16_pitch, y16_out_pitch;
    CHECK(cudaMallocPitch((void **)&gray8k, &gray8k_pitch, (size_t)w8, h8));
    CHECK(cudaMallocPitch((void **)&gray8k_out, &gray8k_out_pitch, (size_t)w8, h8));
    CHECK(cudaMallocPitch((void **)&y16, &y16_pitch, (size_t)w * 2, h));
    CHECK(cudaMallocPitch((void **)&y16_out, &y16_out_pitch, (size_t)w * 2, h));
    CHECK(cudaMemset2D(gray8k, gray8k_pitch, 77, (size_t)w8, h8));
    CHECK(cudaMemset2D(y16, y16_pitch, 0x41, (size_t)w * 2, h));
    NppiSize size8 = { w8, h8 };
    for (double sigma : sigmas)
        for (int depth : { 8, 16 }) {
            int taps = (int)std::lrint(sigma * (depth == 8 ? 6 : 8) + 1) | 1, r = taps / 2;
            std::vector<float> k(taps);
            double sum = 0;
            for (int i = 0; i < taps; i++) sum += k[i] = (float)std::exp(-(i - r) * (i - r) / (2 * sigma * sigma));
            for (auto &x : k) x = (float)(x / sum);
            float *dk;
            CHECK(cudaMalloc(&dk, taps * sizeof(float)));
            CHECK(cudaMemcpy(dk, k.data(), taps * sizeof(float), cudaMemcpyHostToDevice));
            auto run = [&](const char *what, const std::function<NppStatus(int)> &op) {
                NppStatus st = op(0);
                CHECK(cudaDeviceSynchronize());
                if (st != NPP_SUCCESS) {
                    std::printf("| NPP FilterGaussAdvancedBorder sigma %g %s (%d taps): status %d | |\n",
                                sigma, what, taps, (int)st);
                    return;
                }
                double ms = median_ms([&](int i) { (void)op(i); }, &how);
                std::printf("| NPP FilterGaussAdvancedBorder sigma %g %s (%d taps)%s | %8.4f |\n",
                            sigma, what, taps, how, ms);
                std::fflush(stdout);
            };
            if (depth == 16 && sigma <= 16) {
                run("P010 luma 3840x2160", [&](int) {
                    return nppiFilterGaussAdvancedBorder_16u_C1R_Ctx(
                        y16, (int)y16_pitch, size, origin, y16_out, (int)y16_out_pitch, size, taps, dk,
                        NPP_BORDER_REPLICATE, ctx);
                });
            } else if (depth == 8) {
                run("GRAY8 3840x2160", [&](int i) {
                    return nppiFilterGaussAdvancedBorder_8u_C1R_Ctx(
                        gray[i % n], (int)gray_pitch, size, origin, out1, (int)out1_pitch, size, taps, dk,
                        NPP_BORDER_REPLICATE, ctx);
                });
                if (sigma <= 16)
                    run("RGBA 3840x2160", [&](int i) {
                    return nppiFilterGaussAdvancedBorder_8u_C4R_Ctx(
                        rgba[i % n], (int)rgba_pitch, size, origin, out4, (int)out4_pitch, size, taps, dk,
                        NPP_BORDER_REPLICATE, ctx);
                });
                if (sigma <= 16)
                    run("GRAY8 7680x4320", [&](int) {
                        return nppiFilterGaussAdvancedBorder_8u_C1R_Ctx(
                            gray8k, (int)gray8k_pitch, size8, origin, gray8k_out, (int)gray8k_out_pitch,
                            size8, taps, dk, NPP_BORDER_REPLICATE, ctx);
                    });
            }
            CHECK(cudaFree(dk));
        }
    return 0;
}
