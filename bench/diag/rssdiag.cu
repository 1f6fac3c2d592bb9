// Host RSS across cycles of CUDA host-side resources (diagnosis only).
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>
static long rss_kib() { long a = 0, b = 0; FILE *f = fopen("/proc/self/statm", "r"); if (f) { if (fscanf(f, "%ld %ld", &a, &b) != 2) b = 0; fclose(f); } return b * 4; }
#define CK(x) do { cudaError_t err_ = (x); if (err_) { printf("%s: %s\n", #x, cudaGetErrorString(err_)); return 1; } } while (0)
int main() {
    CK(cudaFree(0));
    for (int mode = 0; mode < 5; mode++) {
        const char *names[] = { "cudaMallocHost/FreeHost 10 x 307 KB", "events 20 (blocking sync)", "streams 3", "cudaMalloc/Free 10 x 307 KB", "cuCtxCreate/cuCtxDestroy" };
        for (int warm = 0; warm < 2; warm++) {
            long r0 = rss_kib();
            for (int c = 0; c < (mode == 4 ? (warm ? 30 : 5) : (warm ? 100 : 30)); c++) {
                std::vector<void *> p(10); std::vector<cudaEvent_t> ev(20); std::vector<cudaStream_t> st(3);
                if (mode == 0) { for (auto &x : p) CK(cudaMallocHost(&x, 320 * 240 * 4)); for (auto x : p) CK(cudaFreeHost(x)); }
                if (mode == 1) { for (auto &e : ev) CK(cudaEventCreateWithFlags(&e, cudaEventBlockingSync | cudaEventDisableTiming)); for (auto e : ev) { CK(cudaEventRecord(e, 0)); CK(cudaEventSynchronize(e)); CK(cudaEventDestroy(e)); } }
                if (mode == 2) { for (auto &s : st) CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); for (auto s : st) CK(cudaStreamDestroy(s)); }
                if (mode == 4) { CUcontext ctx; CUdevice dev; cuDeviceGet(&dev, 0); if (cuCtxCreate(&ctx, nullptr, 0, dev) != CUDA_SUCCESS) { printf("cuCtxCreate failed\n"); return 1; } cuCtxDestroy(ctx); }
                if (mode == 3) { for (auto &x : p) CK(cudaMalloc(&x, 320 * 240 * 4)); for (auto x : p) CK(cudaFree(x)); }
            }
            if (warm) printf("%-40s: RSS %ld -> %ld KiB over the cycles (100; contexts 30)\n", names[mode], r0, rss_kib());
        }
    }
    return 0;
}
