// Session 19 diagnosis harnesses (tile_tune.cu, sep_tune.cu, reg_tune.cu):
// a naive blur of one plane (blur.h's arithmetic, every tap of every
// sample), a check of a method's output against it on random planes, and
// the timing of a method on frames of given planes; CK, which stops a
// harness at a failed CUDA call.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);  \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

// One output sample of plane p (samples of type T) from every input it
// depends on.
template <typename T>
__global__ void naive_blur(cf_blur_plane p, const __grid_constant__ cf_blur_kernel kx,
                           const __grid_constant__ cf_blur_kernel ky)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= p.width * p.channels || y >= p.height)
        return;
    const int c = x % p.channels, px = x / p.channels, RX = kx.size / 2, RY = ky.size / 2;
    uint64_t v = 1u << 23;
    for (int dy = -RY; dy <= RY; dy++) {
        const int sy = cf_border_index(y + dy, p.height, p.border);
        const T *row = reinterpret_cast<const T *>(p.src + (size_t)(sy < 0 ? 0 : sy) * p.src_pitch);
        uint32_t h = 1u << 7;
        for (int dx = -RX; dx <= RX; dx++) {
            const int sx = cf_border_index(px + dx, p.width, p.border);
            const uint32_t s = sy < 0 || sx < 0 ? p.border_value
                                                : (uint32_t)row[(size_t)sx * p.channels + c] >> p.shift;
            h += kx.w[dx + RX] * s;
        }
        v += (uint64_t)ky.w[dy + RY] * (h >> 8);
    }
    reinterpret_cast<T *>(p.dst + (size_t)y * p.dst_pitch)[x] = (T)((v >> 24) << p.shift);
}

// A Gaussian-like symmetric kernel of radius R in Q16 (taps summing to
// 65536, the rounding on the centre).
inline cf_blur_kernel naive_kernel(int R)
{
    cf_blur_kernel k{};
    k.size = 2 * R + 1;
    double g[CF_BLUR_MAX_KSIZE], s = 0, sg = R / 3.0 + 0.5;
    for (int t = 0; t < k.size; t++) s += g[t] = std::exp(-(t - R) * (t - R) / (2.0 * sg * sg));
    uint32_t sum = 0;
    for (int t = 0; t < R; t++) k.w[t] = k.w[k.size - 1 - t] = (uint32_t)(g[t] / s * 65536);
    for (int t = 0; t < k.size; t++) sum += t == R ? 0 : k.w[t];
    k.w[R] = 65536 - sum;
    return k;
}

// Differing samples of run(planes) against naive_blur on n planes of T
// samples (width[i] x height[i], channels[i], shift, border), random data.
template <typename T, typename Run>
long long check_against_naive(const cf_blur_kernel &kx, const cf_blur_kernel &ky, int n,
                              const int *width, const int *height, const int *channels, int shift,
                              int border, unsigned seed, Run run)
{
    cf_blur_plane pl[4]{}, ref[4]{};
    std::vector<void *> bufs;
    for (int i = 0; i < n; i++) {
        const size_t pitch = ((size_t)width[i] * channels[i] * sizeof(T) + 255) / 256 * 256;
        std::vector<T> h(pitch / sizeof(T) * height[i]);
        unsigned x = seed + 977u * i;
        for (auto &v : h) {
            x = x * 1664525u + 1013904223u;
            v = (T)(x >> 16);
        }
        void *a, *b, *c;
        cudaMalloc(&a, pitch * height[i]);
        cudaMalloc(&b, pitch * height[i]);
        cudaMalloc(&c, pitch * height[i]);
        cudaMemcpy(a, h.data(), pitch * height[i], cudaMemcpyHostToDevice);
        cudaMemset(b, 0xAB, pitch * height[i]);
        cudaMemset(c, 0xCD, pitch * height[i]);
        bufs.insert(bufs.end(), { a, b, c });
        pl[i].src = (const uint8_t *)a;
        pl[i].src_pitch = pl[i].dst_pitch = pitch;
        pl[i].dst = (uint8_t *)b;
        pl[i].width = width[i];
        pl[i].height = height[i];
        pl[i].channels = channels[i];
        pl[i].sample_bytes = sizeof(T);
        pl[i].shift = shift;
        pl[i].border = border;
        pl[i].border_value = sizeof(T) == 1 ? 77 : 301;
        ref[i] = pl[i];
        ref[i].dst = (uint8_t *)c;
    }
    if (run(pl, n) != cudaSuccess)
        return -1;
    for (int i = 0; i < n; i++)
        naive_blur<T><<<dim3((width[i] * channels[i] + 127) / 128, height[i]), 128>>>(ref[i], kx, ky);
    cudaDeviceSynchronize();
    long long bad = 0;
    for (int i = 0; i < n; i++) {
        const size_t tp = pl[i].dst_pitch / sizeof(T);
        std::vector<T> a(tp * height[i]), b(a.size());
        cudaMemcpy(a.data(), pl[i].dst, a.size() * sizeof(T), cudaMemcpyDeviceToHost);
        cudaMemcpy(b.data(), ref[i].dst, b.size() * sizeof(T), cudaMemcpyDeviceToHost);
        for (int y = 0; y < height[i]; y++)
            for (int x = 0; x < width[i] * channels[i]; x++)
                bad += a[y * tp + x] != b[y * tp + x];
    }
    for (auto p : bufs) cudaFree(p);
    return bad;
}

// Microseconds a run(planes, n) takes on n planes of T samples (width[i] x
// height[i], channels[i], shift), the median of 9 samples of 10 runs back
// to back after one of warm-up, the sources rotated over `copies` copies
// of each plane so they do not stay in the L2; -1 if a run fails.
template <typename T, typename Run>
float time_planes(int n, const int *width, const int *height, const int *channels, int shift,
                  int copies, Run run)
{
    cf_blur_plane pl[4]{};
    std::vector<uint8_t *> src((size_t)copies * n, nullptr), dst(n, nullptr);
    for (int i = 0; i < n; i++) {
        const size_t pitch = (size_t)width[i] * channels[i] * sizeof(T);
        for (int c = 0; c < copies; c++) {
            cudaMalloc(&src[(size_t)c * n + i], pitch * height[i]);
            cudaMemset(src[(size_t)c * n + i], c * 7 + 1, pitch * height[i]);
        }
        cudaMalloc(&dst[i], pitch * height[i]);
        pl[i].src_pitch = pl[i].dst_pitch = pitch;
        pl[i].dst = dst[i];
        pl[i].width = width[i];
        pl[i].height = height[i];
        pl[i].channels = channels[i];
        pl[i].sample_bytes = sizeof(T);
        pl[i].shift = shift;
    }
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> us;
    bool ok = true;
    for (int rep = 0; rep < 10 && ok; rep++) {
        cudaEventRecord(a);
        for (int r = 0; r < 10 && ok; r++) {
            for (int i = 0; i < n; i++) pl[i].src = src[(size_t)((rep * 10 + r) % copies) * n + i];
            ok = run(pl, n) == cudaSuccess;
        }
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float t;
        cudaEventElapsedTime(&t, a, b);
        if (rep > 0)
            us.push_back(t * 100);
    }
    for (auto p : src) cudaFree(p);
    for (auto p : dst) cudaFree(p);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    if (!ok)
        return -1;
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
}
