// NPP peers of cf-convert-scale-bench, built on the GPU host (NPP exists
// only there): the same 4K frames, inputs and outputs each rotating over
// 512 MiB (larger than the 60 MB L2, as in cf-convert-scale-bench), 5
// warm-up runs and the median of 30 samples of 10 runs. One case per build
// (-DCASE=1..8), so a function this NPP lacks costs only its row (a
// function missing from its headers prints "not in this NPP"):
//   nvcc -O2 -std=c++17 -DCASE=N npp_convert_scale_peer.cu -lnppig -lnppicc -lnppc
#include <cuda_runtime.h>
#include <nppi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "check.cuh"

// Stand-ins that unqualified lookup finds beside NPP's own declaration,
// for where NPP's headers lack the function (NPP 13 dropped some AC4
// variants): an ellipsis is the worst match, so NPP's function wins
// overload resolution whenever it is declared.
namespace fallback {
inline NppStatus nppiRGBToYUV420_8u_AC4P3R_Ctx(...)
{
    return NPP_NOT_IMPLEMENTED_ERROR;
}
} // namespace fallback
using namespace fallback;

// Frames of `bytes` each that make up 512 MiB (at least 4).
static int frames_for(double bytes)
{
    return std::max(4, (int)((512.0 * 1024 * 1024) / bytes));
}

static double median_ms(const std::function<void(int)> &fn)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int i = 0; i < 5; i++) fn(i);
    std::vector<float> t;
    for (int i = 0; i < 30; i++) {
        CHECK(cudaEventRecord(a));
        for (int k = 0; k < 10; k++) fn(i * 10 + k);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms / 10);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// n device images of `rows` rows of `row` bytes, random bytes.
static std::vector<Npp8u *> images(int n, size_t row, int rows, size_t *pitch)
{
    std::vector<Npp8u *> v(n);
    std::vector<unsigned char> host(row * rows);
    for (size_t i = 0; i < host.size(); i++) host[i] = (unsigned char)(16 + (i * 2654435761u >> 13) % 220);
    for (auto &p : v) {
        CHECK(cudaMallocPitch((void **)&p, pitch, row, rows));
        CHECK(cudaMemcpy2D(p, *pitch, host.data(), row, row, rows, cudaMemcpyHostToDevice));
    }
    return v;
}

static void row_out(const char *label, double ms, double bytes)
{
    std::printf("| NPP %s | %.4f | %.0f | |\n", label, ms, bytes / (ms * 1e-3) / 1e9);
}

int main()
{
    const int w = 3840, h = 2160;
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
    NppiSize size = { w, h };
    size_t p1, p4, p3, pd;
#if CASE == 1 || CASE == 2
    // NV12 (one block: Y rows then UV rows) to packed RGB.
    const int n = frames_for(w * h * 1.5), nd = frames_for(w * h * 3.0);
    auto nv12 = images(n, w, h * 3 / 2, &p1);
    auto rgbs = images(nd, (size_t)w * 3, h, &p3);
    double ms = median_ms([&](int i) {
        const Npp8u *src[2] = { nv12[i % n], nv12[i % n] + p1 * h };
        Npp8u *rgb = rgbs[i % nd];
#if CASE == 1
        NPP(nppiNV12ToRGB_8u_P2C3R_Ctx(src, (int)p1, rgb, (int)p3, size, ctx));
#else
        NPP(nppiNV12ToRGB_709HDTV_8u_P2C3R_Ctx(src, (int)p1, rgb, (int)p3, size, ctx));
#endif
    });
    row_out(CASE == 1 ? "nppiNV12ToRGB_8u_P2C3R (4K NV12 -> RGB)"
                      : "nppiNV12ToRGB_709HDTV_8u_P2C3R (4K NV12 -> RGB)",
            ms, w * h * 1.5 + w * h * 3.0);
#elif CASE == 3 || CASE == 4
    // Packed RGB(A) to planar I420.
    const int cn = CASE == 3 ? 3 : 4;
    const int n = frames_for((double)w * h * cn), nd = frames_for(w * h * 1.5);
    auto rgb = images(n, (size_t)w * cn, h, &p3);
    size_t pc;
    auto ys = images(nd, w, h, &pd), us = images(nd, w / 2, h / 2, &pc),
         vs = images(nd, w / 2, h / 2, &pc);
    int steps[3] = { (int)pd, (int)pc, (int)pc };
#if CASE == 4
    {
        Npp8u *dst[3] = { ys[0], us[0], vs[0] };
        if (nppiRGBToYUV420_8u_AC4P3R_Ctx(rgb[0], (int)p3, dst, steps, size, ctx) ==
            NPP_NOT_IMPLEMENTED_ERROR) {
            std::printf("| NPP nppiRGBToYUV420_8u_AC4P3R: not in this NPP | | | |\n");
            return 0;
        }
    }
#endif
    double ms = median_ms([&](int i) {
        int o = i % nd;
        Npp8u *dst[3] = { ys[o], us[o], vs[o] };
#if CASE == 3
        NPP(nppiRGBToYUV420_8u_C3P3R_Ctx(rgb[i % n], (int)p3, dst, steps, size, ctx));
#else
        NPP(nppiRGBToYUV420_8u_AC4P3R_Ctx(rgb[i % n], (int)p3, dst, steps, size, ctx));
#endif
    });
    row_out(CASE == 3 ? "nppiRGBToYUV420_8u_C3P3R (4K RGB -> I420)"
                      : "nppiRGBToYUV420_8u_AC4P3R (4K RGBA -> I420)",
            ms, w * h * (double)cn + w * h * 1.5);
#elif CASE >= 5 && CASE <= 8
    // Resize 4K -> 1080p: RGBA (5, 6) or one 8-bit plane (7, 8); linear or
    // super-sampling (area).
    const int cn = CASE <= 6 ? 4 : 1;
    const NppiInterpolationMode inter = CASE % 2 ? NPPI_INTER_LINEAR : NPPI_INTER_SUPER;
    const int n = frames_for((double)w * h * cn), nd = frames_for(1920.0 * 1080 * cn);
    auto src = images(n, (size_t)w * cn, h, &p4);
    auto dsts = images(nd, (size_t)1920 * cn, 1080, &pd);
    NppiSize dsize = { 1920, 1080 };
    NppiRect sroi = { 0, 0, w, h }, droi = { 0, 0, 1920, 1080 };
    double ms = median_ms([&](int i) {
        Npp8u *dst = dsts[i % nd];
        if (cn == 4)
            NPP(nppiResize_8u_C4R_Ctx(src[i % n], (int)p4, size, sroi, dst, (int)pd, dsize, droi,
                                      inter, ctx));
        else
            NPP(nppiResize_8u_C1R_Ctx(src[i % n], (int)p4, size, sroi, dst, (int)pd, dsize, droi,
                                      inter, ctx));
    });
    static const char *labels[] = { "nppiResize_8u_C4R linear (4K -> 1080p RGBA)",
                                    "nppiResize_8u_C4R super (4K -> 1080p RGBA)",
                                    "nppiResize_8u_C1R linear (4K -> 1080p GRAY8)",
                                    "nppiResize_8u_C1R super (4K -> 1080p GRAY8)" };
    row_out(labels[CASE - 5], ms, (w * h + 1920.0 * 1080) * cn);
#endif
    (void)p1, (void)p3, (void)p4, (void)pd;
    return 0;
}
