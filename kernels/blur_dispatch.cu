/* CUDA blur: the table that picks a method per frame (blur_cuda.cuh), and
 * the test hook that forces one (blur.h). */
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>

#include "blur_cuda.cuh"
#include "blur_f64.cuh"

namespace {

/* The dispatch table, first row that takes the frame wins:
 * - the register method for 8-bit frames whose larger radius is at most
 *   48 (up to radius 24 it is 2.2x to 10x faster than the two-pass
 *   method: cf-bench --methods, H200, bench/results/2026-12-01-h200-s15-17-*;
 *   radii 25-48, its wide kernels, 1.3-1.7x:
 *   bench/results/2026-12-01-h200-s17-17c-blur.md), and up to 96 (not for
 *   planes of 4 channels: reg_takes) where the smaller radius is at least
 *   two thirds of the larger: the huge kernels run both directions on the
 *   larger radius, the two-pass method each on its own, so it wins where
 *   they differ much (4K GRAY8 sigma 32: reg 0.219 ms against 0.252; sigma
 *   32 sigma-y 8: 0.219 against 0.186, same file; by its costs, about
 *   0.0011 ms a unit of the horizontal radius and 0.0009 of the vertical
 *   one, they meet near 0.63). Since the two-pass method's rows pass
 *   went to DP2A (session 19) it is the faster one at 4K GRAY8 sigma 24
 *   and 32 (0.159 and 0.196 ms against 0.165 and 0.220) and RGBA sigma
 *   16 (0.523 against 0.534), the slower at 8K (GRAY8 sigma 32 0.742
 *   against 0.676): bench/results/2026-12-01-h200-s19-17-blur.md; the
 *   rows stay as they were. The sliding-window method takes these
 *   frames up to radius 6 too, but is slower here at every radius (4K
 *   GRAY8 sigma 0.5 0.0174 ms against 0.0167, sigma 1 0.0259 against
 *   0.0181; RGBA and NV12 likewise: bench/results/2026-12-01-h200-s18-17-slide.md);
 * - the sliding-window method for 16-bit frames up to radius 4 whose rows
 *   are 4-byte aligned (its interior loads words; a frame of unaligned rows
 *   would be all edge samples, each from its (2R + 1)^2 inputs): 4K P010
 *   sigma 0.5 (radius 2) in 0.0337 ms against the tile method's 0.0616,
 *   sigma 1 (radius 4) 0.0585 against 0.0725, 8K 0.197 against 0.210; from
 *   radius 6 (sigma 1.5) the tile method is faster, 0.090 against 0.108
 *   (same file);
 * - the tile method for 16-bit frames of 1-2 channels a plane up to radius
 *   24 (no intermediate plane in device memory: 4K P010 sigma 1.5 in 0.090
 *   ms against the two-pass method's 0.151, H200, session 16's final call,
 *   bench/results/2026-12-01-h200-s16-final.md; since its blocks of 512 and
 *   1024 threads, sigma 6, radius 24, in 0.205 ms against 0.212, 8K 0.680
 *   against 0.793; from radius 32, sigma 8, the two-pass method is faster
 *   at 4K, 0.245 against 0.257: bench/results/2026-12-01-h200-s19-17-blur.md;
 *   it also takes 8-bit frames and radii up to 48, slower there than reg
 *   or sep);
 * - the tile method for those frames up to radius 40 where the smaller
 *   radius is at least two thirds of the larger: since its staging went to
 *   cp.async and folding tables (session 21), 4K P010-like frames at
 *   radius 32 take 209 us against the two-pass method's 248, 8K 734
 *   against 928; at radius 40, 255 against about 280 (the two-pass
 *   method's radius 32 and 48, 248 and 314: tile_tune.cu and sep_tune.cu,
 *   bench/results/2026-12-02-h200-s21-17-tile.md). Past radius 24 it runs
 *   unequal radii both ways on the larger (no reduced vertical radius), so
 *   where they differ much (P010 sigma 8 sigma-y 2: 32 and 8) the two-pass
 *   method, each direction on its own radius, stays the faster;
 * - else the two-pass method, which takes every frame the element accepts.
 * Before all of them, the tensor-core method for 8-bit frames (1, 2 or 4
 * channels a plane): its two passes of int8 tensor-core products beat the
 * register and two-pass methods' multiply-adds from a radius that falls
 * with the channels, the more the larger the radius. Since its staging
 * went to wider loads and its fragment tables to tap-byte planes (session
 * 23, bench/results/2026-12-03-h200-s23-17-tensor.md, 4K unless said):
 * - 4-channel frames from radius 17, where the smaller radius is at least
 *   two thirds of the larger: RGBA sigma 6 (radius 18, on the register
 *   method's 20) 0.187 ms against 0.200, sigma 8 0.187 against 0.264;
 *   sigma 5 (radius 15, on its 16) stays there, 0.167 against 0.183, as
 *   do unequal radii the register method runs each on its own (sigma 8
 *   sigma-y 2: 0.128 against 0.181);
 * - 1-channel frames from radius 24 where the smaller radius is at least
 *   two thirds of the larger: GRAY8 sigma 8 (radius 24) 0.0554 against
 *   0.0601, 8K 0.1973 against 0.1983 (session 24, the scratch plane in
 *   the columns pass's layout: bench/results/2026-12-03-h200-s24-17-
 *   tensor.md; in session 23 8K was 0.202 against 0.198); sigma 8
 *   sigma-y 2 stays, 0.034 against 0.053. (The row also takes I420, three
 *   1-channel planes, which no sweep has measured at this radius);
 * - 1- and 4-channel frames from radius 25, any smaller radius (the
 *   register method runs radii past 24 both ways on one of 32, 36, 40,
 *   48): GRAY8 radius 30 59 us against 63, radius 48 and 3 55 against 95;
 * - every 8-bit frame from radius 33: NV12 sigma 12 (luma and chroma at
 *   radius 36) 0.098 against 0.111; NV12 sigma 8 stays, 0.081 against
 *   0.090. Further up: GRAY8 sigma 16 0.062 against 0.096, sigma 32 0.085
 *   against 0.219, sigma 64 0.126 against the two-pass method's 0.344;
 *   RGBA sigma 16 0.208 against 0.533, NV12 sigma 16 0.101 against 0.147.
 * And for 16-bit frames of 1-2 channels a plane from radius 24 where the
 * smaller radius is at least two thirds of the larger, from 25 whatever
 * it is: the rows pass on the tensor cores, the columns pass sep's (session
 * 27, cf-bench --methods, H200: bench/results/2026-12-04-h200-s27-17-
 * tensor16.md; 4K P010, FP64 vertical sums): sigma 6 (radius 24) 0.142 ms
 * against the tile method's 0.156 (8K 0.521 against 0.542), sigma 8 0.158
 * against 0.197, sigma 12 0.189 against the two-pass method's 0.276, sigma
 * 64 0.664 against 1.011, sigma 8 sigma-y 2 0.115 against 0.179, sigma 2
 * sigma-y 8 0.154 against 0.188; with 64-bit integer sums (GRAY16,
 * I420_10LE, GPUs but Hopper) the same crossing (sigma 6 0.158 against
 * 0.167). Sigma 5 (radius 20) stays on the tile method, 0.133 against
 * 0.142, as does sigma 3 sigma-y 1, 0.072 against 0.110: the rows pass
 * costs about 74 us at 4K whatever the radius up to 64.
 * Within the tensor-core method, a 16-bit plane's columns pass runs on the
 * tensor cores too from vertical radius 24 (kTensor16ColsMinRadius), else
 * it is sep's (session 28, H200: bench/diag/tensor16_cols_tune.cu and
 * cf-bench --methods, bench/results/2026-12-04-h200-s28-17-tensor16-cols.md;
 * rows pass and columns pass, 4K P010 with FP64 sums in sep's): radius 24
 * 134 us against 142, radius 16 130 against 125, radius 8 122 against 110;
 * 8K radius 16 457 against 466; a 4K GRAY16 plane (sep's sums 64-bit
 * integers) radius 16 90 against 93. Sigma 64 then takes 0.36 ms against
 * 0.66, 8K 1.25 against 2.49; sigma 5 (radius 20) stays on the tile
 * method, 0.132 against the tensor cores' 0.141 (2 blocks an SM). */
struct Row {
    cf_blur_method method;
    int min_radius; // of the larger radius
    int max_radius;
    int sample_bytes; // of every plane; 0: any
    int min_thirds;   // the smaller radius at least min_thirds / 3 of the larger
    bool word_rows;   // every plane's source rows 4-byte aligned
    int channels;     // of every plane; 0: any
};
constexpr Row kTable[] = {
    { CF_BLUR_METHOD_TENSOR, 17, CF_BLUR_MAX_KSIZE / 2, 1, 2, false, 4 },
    { CF_BLUR_METHOD_TENSOR, 24, CF_BLUR_MAX_KSIZE / 2, 1, 2, false, 1 },
    { CF_BLUR_METHOD_TENSOR, 25, CF_BLUR_MAX_KSIZE / 2, 1, 0, false, 4 },
    { CF_BLUR_METHOD_TENSOR, 25, CF_BLUR_MAX_KSIZE / 2, 1, 0, false, 1 },
    { CF_BLUR_METHOD_TENSOR, 33, CF_BLUR_MAX_KSIZE / 2, 1, 0, false, 0 },
    { CF_BLUR_METHOD_TENSOR, 24, CF_BLUR_MAX_KSIZE / 2, 2, 2, false, 0 },
    { CF_BLUR_METHOD_TENSOR, 25, CF_BLUR_MAX_KSIZE / 2, 2, 0, false, 0 },
    { CF_BLUR_METHOD_REG, 0, 48, 1, 0, false, 0 },
    { CF_BLUR_METHOD_REG, 0, 96, 1, 2, false, 0 },
    { CF_BLUR_METHOD_SLIDE, 0, 4, 2, 0, true, 0 },
    { CF_BLUR_METHOD_TILE, 0, 24, 2, 0, false, 0 },
    { CF_BLUR_METHOD_TILE, 0, 40, 2, 2, false, 0 },
    { CF_BLUR_METHOD_SEP, 0, CF_BLUR_MAX_KSIZE / 2, 0, 0, false, 0 },
};

bool row_fits(const Row &row, int rx, int ry, const cf_blur_plane *planes, int n_planes)
{
    const int r = std::max(rx, ry);
    if (r < row.min_radius || r > row.max_radius || 3 * std::min(rx, ry) < row.min_thirds * r)
        return false;
    for (int i = 0; i < n_planes; i++) {
        if (row.sample_bytes != 0 && planes[i].sample_bytes != row.sample_bytes)
            return false;
        if (row.word_rows && ((uintptr_t)planes[i].src | planes[i].src_pitch) % 4 != 0)
            return false;
        if (row.channels != 0 && planes[i].channels != row.channels)
            return false;
    }
    return true;
}

std::atomic<int> g_forced{ CF_BLUR_METHOD_AUTO };
std::atomic<bool> g_split{ true };
thread_local cf_blur_method t_last = CF_BLUR_METHOD_AUTO;
std::atomic<bool> g_allow_fp64{ true };
thread_local bool t_last_fp64 = false;
std::atomic<int> g_tensor16_columns{ CF_BLUR_METHOD_AUTO };
thread_local bool t_last_tensor_columns = false;

/* Records a successful launch of method m, whether it did a plane's
 * vertical sums on the FP64 units (as the tile and two-pass methods
 * report) and whether on the tensor cores for a 16-bit plane (the
 * tensor-core method). */
void ran(cf_blur_method m, bool f64_used = false, bool tensor_columns = false)
{
    t_last = m;
    t_last_fp64 = f64_used;
    t_last_tensor_columns = tensor_columns;
}

/* Whether method m takes the frame on a GPU whose blocks may have
 * shared_limit bytes of shared memory (the sliding-window method uses
 * none; the two-pass method fits every GPU built for). */
bool takes(cf_blur_method m, const cf_blur_kernel &kx, const cf_blur_kernel &ky,
           const cf_blur_plane *planes, int n_planes, int shared_limit)
{
    switch (m) {
    case CF_BLUR_METHOD_REG: return cf_blur_cuda::reg_takes(kx, ky, planes, n_planes, shared_limit);
    case CF_BLUR_METHOD_SEP: return cf_blur_cuda::sep_takes(kx, ky, planes, n_planes);
    case CF_BLUR_METHOD_TILE:
        return cf_blur_cuda::tile_takes(kx, ky, planes, n_planes, shared_limit);
    case CF_BLUR_METHOD_SLIDE: return cf_blur_cuda::slide_takes(kx, ky, planes, n_planes);
    case CF_BLUR_METHOD_TENSOR:
        return cf_blur_cuda::tensor_takes(kx, ky, planes, n_planes, shared_limit);
    default: return false;
    }
}

} // namespace

bool cf_blur_cuda::symmetric_taps(const cf_blur_kernel &k)
{
    for (int t = 0; t < k.size / 2; t++)
        if (k.w[t] != k.w[k.size - 1 - t])
            return false;
    return true;
}

bool cf_blur_cuda::f64_sums(int sample_bytes, int shift)
{
    if (sample_bytes != 2 || 16 - shift > kF64MaxDepth ||
        !g_allow_fp64.load(std::memory_order_relaxed))
        return false;
    int device = 0;
    bool fast = false;
    // A device that cannot be asked gets the integer sums; its launch
    // reports the error.
    return cudaGetDevice(&device) == cudaSuccess &&
           cf_device_fast_fp64(device, &fast) == cudaSuccess && fast;
}

bool cf_blur_cuda::tensor16_cols_picked(int ry, int shared_limit)
{
    const int forced = g_tensor16_columns.load(std::memory_order_relaxed);
    if (forced == CF_BLUR_METHOD_SEP || tensor16_cols_shared(ry) > (size_t)shared_limit)
        return false;
    return forced == CF_BLUR_METHOD_TENSOR || ry >= kTensor16ColsMinRadius;
}

extern "C" const char *cf_blur_method_name(cf_blur_method method)
{
    switch (method) {
    case CF_BLUR_METHOD_AUTO: return "auto";
    case CF_BLUR_METHOD_REG: return "reg";
    case CF_BLUR_METHOD_SEP: return "sep";
    case CF_BLUR_METHOD_TILE: return "tile";
    case CF_BLUR_METHOD_SLIDE: return "slide";
    case CF_BLUR_METHOD_TENSOR: return "tensor";
    }
    return "?";
}

extern "C" void cf_blur_cuda_force(cf_blur_method method, bool split)
{
    g_forced.store(method, std::memory_order_relaxed);
    g_split.store(split, std::memory_order_relaxed);
}

extern "C" cf_blur_method cf_blur_cuda_last_method(void)
{
    return t_last;
}

extern "C" void cf_blur_cuda_allow_fp64(bool allow)
{
    g_allow_fp64.store(allow, std::memory_order_relaxed);
}

extern "C" bool cf_blur_cuda_last_fp64(void)
{
    return t_last_fp64;
}

extern "C" void cf_blur_cuda_force_tensor16_columns(cf_blur_method method)
{
    g_tensor16_columns.store(method == CF_BLUR_METHOD_TENSOR || method == CF_BLUR_METHOD_SEP
                                 ? method
                                 : CF_BLUR_METHOD_AUTO,
                             std::memory_order_relaxed);
}

extern "C" bool cf_blur_cuda_last_tensor_columns(void)
{
    return t_last_tensor_columns;
}

extern "C" cf_blur_method cf_blur_cuda_pick_for(const cf_blur_kernel *kx,
                                                const cf_blur_kernel *ky,
                                                const cf_blur_plane *planes, int n_planes,
                                                int shared_limit)
{
    for (const Row &row : kTable)
        if (row_fits(row, kx->size / 2, ky->size / 2, planes, n_planes) &&
            takes(row.method, *kx, *ky, planes, n_planes, shared_limit))
            return row.method;
    return CF_BLUR_METHOD_AUTO;
}

extern "C" cf_blur_method cf_blur_cuda_pick(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                                            const cf_blur_plane *planes, int n_planes)
{
    return cf_blur_cuda_pick_for(kx, ky, planes, n_planes, cf_blur_cuda::shared_limit());
}

extern "C" cf_status cf_blur_planes_cuda(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                                         const cf_blur_plane *planes, int n_planes, void *tmp,
                                         size_t tmp_pitch, cf_stream stream)
{
    if (n_planes < 1 || n_planes > CF_MAX_PLANES)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "blur: %d planes (1 to %d)", n_planes,
                            CF_MAX_PLANES);
    for (int i = 0; i < n_planes; i++)
        if (planes[i].channels < 1 || planes[i].channels > 4)
            return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT, "blur: %d channels",
                                planes[i].channels);
    const cf_blur_method forced = (cf_blur_method)g_forced.load(std::memory_order_relaxed);
    const int limit = cf_blur_cuda::shared_limit();
    cf_blur_method m = forced;
    if (m == CF_BLUR_METHOD_AUTO)
        m = cf_blur_cuda_pick_for(kx, ky, planes, n_planes, limit);
    if (m == CF_BLUR_METHOD_AUTO || !takes(m, *kx, *ky, planes, n_planes, limit)) {
        // A method that would take the frame but for the device's shared
        // memory says so.
        const bool shared = m != CF_BLUR_METHOD_AUTO && takes(m, *kx, *ky, planes, n_planes, INT_MAX);
        return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT,
                            "blur: the CUDA method %s does not take %d planes of %d channels, "
                            "%d-byte samples, %d x %d taps%s",
                            cf_blur_method_name(m), n_planes, planes[0].channels,
                            planes[0].sample_bytes, kx->size, ky->size,
                            shared ? " (its tiles need more shared memory than this GPU allows "
                                     "a block)"
                                   : "");
    }
    cudaStream_t s = (cudaStream_t)stream;
    cudaError_t err = cudaSuccess;
    if (m == CF_BLUR_METHOD_REG &&
        cf_blur_cuda::reg_run(*kx, *ky, planes, n_planes, limit,
                              g_split.load(std::memory_order_relaxed), s, &err)) {
        if (err == cudaSuccess)
            ran(m);
        return CF_CUDA_CHECK(err);
    }
    bool f64 = false;
    if (m == CF_BLUR_METHOD_TILE || m == CF_BLUR_METHOD_SLIDE) {
        const cf_status st = CF_CUDA_CHECK(
            m == CF_BLUR_METHOD_TILE
                ? cf_blur_cuda::tile_run(*kx, *ky, planes, n_planes, limit, s, &f64)
                : cf_blur_cuda::slide_run(*kx, *ky, planes, n_planes, s));
        if (st == CF_OK)
            ran(m, f64);
        return st;
    }
    if (m == CF_BLUR_METHOD_TENSOR) {
        bool tensor_columns = false;
        const cf_status st = CF_CUDA_CHECK(cf_blur_cuda::tensor_run(
            *kx, *ky, planes, n_planes, tmp, tmp_pitch, s, &f64, &tensor_columns));
        if (st == CF_OK)
            ran(m, f64, tensor_columns);
        return st;
    }
    if (m == CF_BLUR_METHOD_REG && forced == CF_BLUR_METHOD_REG)
        return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT,
                            "blur: the CUDA method reg cannot count this frame's tile rows");
    // The two-pass method: picked, or where the register method could not
    // count a frame's tiles.
    if (!cf_blur_cuda::sep_takes(*kx, *ky, planes, n_planes))
        return cf_set_error(CF_ERROR_UNSUPPORTED_FORMAT, "blur: asymmetric taps");
    const cf_status st =
        CF_CUDA_CHECK(cf_blur_cuda::sep_run(*kx, *ky, planes, n_planes, tmp, tmp_pitch, s, &f64));
    if (st == CF_OK)
        ran(CF_BLUR_METHOD_SEP, f64);
    return st;
}
