// Session 27, issue 17: harness of the tensor-core rows pass of 16-bit
// planes (kernels/blur_tensor16.cu, cf_blur_cuda::tensor16_rows_run): its
// 32-bit intermediates against a naive horizontal pass (blur.h: t = (sum w
// p + 2^7) >> 8, borders folded) on planes of 1 and 2 channels, 16-bit
// samples of every value and P010's shifted ones, every border, radii
// 1-512, sizes down to 1 x 1, rows 2-byte aligned and not 4-byte aligned;
// then its time on P010-like frames (the Y plane, then the UV plane at
// half size) at 4K and 8K for the radii of 16-bit sigma 2-64. The
// executable's name says which build of the kernel it is
// (bench/diag/s27-prepare.sh builds variants with kRows16MinBlocks
// replaced). Times in microseconds, medians of 9 samples of 10 runs
// (blur_harness.cuh's time_planes).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "../../kernels/blur_cuda.cuh"

#include "blur_harness.cuh"

namespace {

// Differing intermediates of the rows pass against the naive one on a
// plane of w x h pixels of C 16-bit samples, `shift`, border, kernel k,
// source rows `pitch` bytes apart starting `offset` bytes into the buffer.
long long check_rows(const cf_blur_kernel &k, int w, int h, int C, int shift, int border,
                     uint32_t border_value, size_t pitch, size_t offset, std::mt19937 &rng)
{
    std::vector<uint8_t> host(offset + pitch * h);
    for (auto &b : host) b = (uint8_t)rng();
    if (shift) // P010: 10-bit samples in the top bits, the low 6 random too (ignored)
        for (int y = 0; y < h; y++)
            for (int s = 0; s < w * C; s++) {
                uint16_t *v = reinterpret_cast<uint16_t *>(host.data() + offset + y * pitch) + s;
                *v = (uint16_t)(*v | (rng() % 8 == 0 ? 0xffc0 : 0));
            }
    const size_t tmp_pitch = ((size_t)w * C * 4 + 255) / 256 * 256;
    uint8_t *src = nullptr;
    uint32_t *tmp = nullptr;
    CK(cudaMalloc(&src, host.size()));
    CK(cudaMemcpy(src, host.data(), host.size(), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&tmp, tmp_pitch * (h + 1)));
    CK(cudaMemset(tmp, 0xab, tmp_pitch * (h + 1)));
    cf_blur_plane pl{};
    pl.src = src + offset;
    pl.src_pitch = pitch;
    pl.width = w;
    pl.height = h;
    pl.channels = C;
    pl.sample_bytes = 2;
    pl.shift = shift;
    pl.border = border;
    pl.border_value = border_value;
    CK(cf_blur_cuda::tensor16_rows_run(k, pl, tmp, tmp_pitch, 0));
    CK(cudaDeviceSynchronize());
    std::vector<uint32_t> got(tmp_pitch / 4 * (h + 1));
    CK(cudaMemcpy(got.data(), tmp, tmp_pitch * (h + 1), cudaMemcpyDeviceToHost));
    cudaFree(src);
    cudaFree(tmp);
    long long bad = 0;
    const int R = k.size / 2;
    for (int y = 0; y < h; y++) {
        const uint16_t *row = reinterpret_cast<const uint16_t *>(host.data() + offset + y * pitch);
        for (int x = 0; x < w; x++)
            for (int c = 0; c < C; c++) {
                uint32_t sum = 1u << 7;
                for (int t = 0; t < k.size; t++) {
                    const int sx = cf_border_index(x - R + t, w, border);
                    const uint32_t p = sx < 0 ? border_value : (uint32_t)row[sx * C + c] >> shift;
                    sum += k.w[t] * p;
                }
                const uint32_t want = sum >> 8, have = got[y * tmp_pitch / 4 + x * C + c];
                if (want != have && bad++ < 3)
                    std::printf("  R %d %dx%d C %d shift %d border %d: (%d, %d, %d) %u, want %u\n", R,
                                w, h, C, shift, border, x, y, c, have, want);
            }
    }
    if (border == CF_BORDER_CONSTANT)
        for (int s = 0; s < w * C; s++)
            bad += got[h * tmp_pitch / 4 + s] != border_value << 8;
    return bad;
}

} // namespace

int main(int argc, char **argv)
{
    const char *name = argc > 0 ? argv[0] : "tensor16-tune";
    std::mt19937 rng(27);
    long long bad = 0;
    int cases = 0;
    const int radii[] = { 1, 2, 3, 7, 8, 16, 24, 31, 32, 48, 64, 96, 100, 128, 192, 256, 300, 512 };
    for (int R : radii)
        for (int C = 1; C <= 2; C++) {
            const int border = (R + C) % 4, shift = R % 3 == 0 ? 6 : 0;
            const uint32_t bv = shift ? 1023 : 65535 - R;
            const int w = std::uniform_int_distribution<int>(1, 2 * R + 300)(rng);
            const int h = std::uniform_int_distribution<int>(1, 70)(rng);
            const size_t tight = (size_t)w * C * 2;
            // Rows 16-byte aligned, 4-byte aligned, 2-byte aligned only.
            const size_t pitch = R % 3 == 0   ? (tight + 15) / 16 * 16
                                : R % 3 == 1 ? (tight + 3) / 4 * 4
                                             : (tight + 3) / 4 * 4 + 2;
            const size_t offset = R % 3 == 2 ? 2 : 0;
            const long long b = check_rows(naive_kernel(R), w, h, C, shift, border, bv, pitch, offset, rng);
            cases++;
            if (b) {
                std::printf("BAD: radius %d C %d %dx%d pitch %zu offset %zu: %lld\n", R, C, w, h, pitch,
                            offset, b);
                bad++;
            }
        }
    // Tiny planes and every border.
    for (int border = 0; border < 4; border++)
        for (int w : { 1, 2, 3, 5 })
            for (int h : { 1, 2, 33 }) {
                bad += check_rows(naive_kernel(5), w, h, 1 + (w + h) % 2, 6, border, 1000, (size_t)w * 4 + 16, 0, rng) != 0;
                cases++;
            }
    std::printf("%s: check %s (%d cases)\n", name, bad ? "FAILED" : "0 differing samples", cases);
    for (int s = 0; s < 2; s++) {
        const int w = s ? 7680 : 3840, h = s ? 4320 : 2160;
        const int W[2] = { w, w / 2 }, H[2] = { h, h / 2 }, C[2] = { 1, 2 };
        const size_t tmp_pitch = ((size_t)w * 4 + 255) / 256 * 256;
        void *tmp = nullptr;
        CK(cudaMalloc(&tmp, tmp_pitch * (h + 1)));
        std::printf("%s P010 %dx%d rows pass us:", name, w, h);
        for (int R : { 8, 16, 24, 32, 48, 64, 96, 128, 192, 256 }) {
            const cf_blur_kernel k = naive_kernel(R);
            const float us = time_planes<uint16_t>(2, W, H, C, 6, 8, [&](const cf_blur_plane *pl, int n) {
                cudaError_t e = cudaSuccess;
                for (int i = 0; i < n && e == cudaSuccess; i++)
                    e = cf_blur_cuda::tensor16_rows_run(k, pl[i], tmp, tmp_pitch, 0);
                return e;
            });
            std::printf(" R%d %.1f", R, us);
        }
        std::printf("\n");
        cudaFree(tmp);
    }
    return bad ? 1 : 0;
}
