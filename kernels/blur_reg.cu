/* CUDA blur, register-window method (blur_cuda.cuh): 8-bit planes of 1, 2
 * or 4 channels, both passes of a tile in shared memory, for the radii it
 * is built for (1-12, 16, 20, 24, 32, 36, 40, 48; and 56, 64, 72, 80, 88, 96
 * for planes of 1-2 channels); kernels of other radii up to 96 (48 for 4
 * channels) run on the next built radius with their taps centred among
 * zero weights (a zero tap adds 0: the same sums). Unequal radii run on
 * the larger one both ways, but up to radius 24 a smaller radius of at
 * most a half or a quarter of it runs on that (reg_reduced_radius).
 * Arithmetic of blur.h. */
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>

#include "blur_cuda.cuh"
#include "blur_reg_shape.cuh" // tile shapes, launch parameters; the method's design
#include "blur_reg_sums.cuh"  // vertical sums
#include "blur_reg_tile.cuh"  // one tile

namespace {

/* The register-window kernel over every tile of every plane of a launch:
 * planes of C0 channels (wide == 0) and of C1 channels (wide == 1);
 * built radius R, horizontal radius RH and vertical RV (reg_tile). */
template <int R, int RH, int RV, int C0, int C1>
__global__ void __launch_bounds__(reg_threads(R),
                                  std::min(RegShape<C0, R>::MinBlocks, RegShape<C1, R>::MinBlocks))
blur8_reg(const __grid_constant__ RegLaunch l, const __grid_constant__ RegTaps taps)
{
    cf_pdl_begin();
    extern __shared__ __align__(16) uint8_t smem[];
    for (unsigned t = blockIdx.y; t < (unsigned)l.rows; t += gridDim.y) {
        int i = 0;
        while (i + 1 < l.n_planes && t >= (unsigned)l.plane[i + 1].first_row)
            i++;
        const RegPlane &p = l.plane[i];
        // The tile of plane p's tile row t - first_row in column
        // blockIdx.x, with the shape of its channel count.
        auto tile = [&](auto channels) {
            constexpr int C = decltype(channels)::value;
            constexpr int W = RegShape<C, R>::W, H = RegShape<C, R>::H;
            const int x0 = blockIdx.x * W;
            int tile_h;
            const int y0 = cf_blur_reg_tile_y0((int)t - p.first_row, p.full_rows, H, &tile_h);
            if (x0 < p.width)
                reg_tile<R, RH, RV, C>(p, x0, y0, tile_h, l.border, l.border_value, taps, smem);
        };
        if (C0 == C1 || !p.wide)
            tile(std::integral_constant<int, C0>());
        else
            tile(std::integral_constant<int, C1>());
    }
}

/* One launch for every plane; false if the frame has too many tiles, else
 * true with the launch's error in *err. split: whether the last wave's
 * tile rows may be split (cf_blur_reg_rows). */
template <int R, int RH, int RV, int C0, int C1>
bool launch_reg(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
                int n_planes, bool split, cudaStream_t stream, cudaError_t *err)
{
    static_assert(R <= kRegMaxR, "taps sized for kRegMaxR");
    RegTaps taps = {};
    for (int m = 0; m <= RH; m++)
        taps.pairs[m] = cf_blur_cuda::centred_tap(kx, RH, 2 * m) |
                        (m < RH ? cf_blur_cuda::centred_tap(kx, RH, 2 * m + 1) << 16 : 0);
    for (int t = 0; t < 2 * RV + 1; t++)
        taps.v[t] = cf_blur_cuda::centred_tap(ky, RV, t);
    RegLaunch l = {};
    l.n_planes = n_planes;
    l.border = planes[0].border;
    l.border_value = planes[0].border_value;
    int shared = 0, strips = 0, tile_h[CF_MAX_PLANES], height[CF_MAX_PLANES], cols[CF_MAX_PLANES];
    for (int i = 0; i < n_planes; i++) {
        const cf_blur_plane &p = planes[i];
        const bool wide = p.channels != C0;
        const int tile_w = wide ? RegShape<C1, R>::W : RegShape<C0, R>::W;
        tile_h[i] = wide ? RegShape<C1, R>::H : RegShape<C0, R>::H;
        height[i] = p.height;
        cols[i] = (p.width + tile_w - 1) / tile_w;
        l.plane[i] = { p.src, p.src_pitch, p.dst, p.dst_pitch, p.width, p.height, wide, 0, 0 };
        strips = std::max(strips, cols[i]);
        shared = std::max(shared, reg_shared_bytes(p.channels, R, tile_w, tile_h[i]));
    }
    *err = cudaSuccess;
    if (strips == 0) // an empty frame
        return true;
    // The last wave's tile rows split in two where it would leave most of
    // the GPU idle (cf_blur_reg_rows), unless the caller keeps every tile
    // whole (the test hook, blur.h).
    // The SM count and occupancy are asked once per device and kept
    // (launch.cuh), not queried every frame.
    int device = 0, sms = 0, major = 0, per_sm = 0;
    *err = cf_blur_cuda::allow_shared<blur8_reg<R, RH, RV, C0, C1>>((size_t)shared);
    if (*err == cudaSuccess)
        *err = cudaGetDevice(&device);
    if (*err == cudaSuccess)
        *err = cf_device_facts(device, &sms, &major);
    if (*err == cudaSuccess)
        *err = cf_occupancy<blur8_reg<R, RH, RV, C0, C1>>(device, reg_threads(R),
                                                            (size_t)shared, &per_sm);
    if (*err != cudaSuccess)
        return true;
    const long long slots = split ? (long long)sms * per_sm : 0;
    int full_rows[CF_MAX_PLANES], first_row[CF_MAX_PLANES];
    const long long rows =
        cf_blur_reg_rows(n_planes, height, tile_h, cols, slots, full_rows, first_row);
    if (rows > INT_MAX)
        return false;
    for (int i = 0; i < n_planes; i++) {
        l.plane[i].full_rows = full_rows[i];
        l.plane[i].first_row = first_row[i];
    }
    l.rows = (int)rows;
    if (l.rows == 0)
        return true;
    const dim3 grid((unsigned)strips, (unsigned)std::min(l.rows, 65535));
    *err = cf_launch(blur8_reg<R, RH, RV, C0, C1>, grid, dim3(reg_threads(R)), (size_t)shared,
                     stream, l, taps);
    return true;
}

/* launch_reg for built radius R, horizontal radius RH and vertical RV:
 * both R, or for the narrow radii one of them reg_quarter(R) or
 * reg_half(R). */
template <int R, int C0, int C1>
bool launch_reg_reduced(int RH, int RV, const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                        const cf_blur_plane *planes, int n_planes, bool split,
                        cudaStream_t stream, cudaError_t *err)
{
    if constexpr (!reg_wide(R)) {
        constexpr int Q = reg_quarter(R), F = reg_half(R);
        if (RH == R && RV == Q && Q < R)
            return launch_reg<R, R, Q, C0, C1>(kx, ky, planes, n_planes, split, stream, err);
        if (RH == R && RV == F && F < R)
            return launch_reg<R, R, F, C0, C1>(kx, ky, planes, n_planes, split, stream, err);
        if (RV == R && RH == Q && Q < R)
            return launch_reg<R, Q, R, C0, C1>(kx, ky, planes, n_planes, split, stream, err);
        if (RV == R && RH == F && F < R)
            return launch_reg<R, F, R, C0, C1>(kx, ky, planes, n_planes, split, stream, err);
    }
    return launch_reg<R, R, R, C0, C1>(kx, ky, planes, n_planes, split, stream, err);
}

template <int C0, int C1>
bool launch_reg_radius(int R, int RH, int RV, const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                       const cf_blur_plane *planes, int n_planes, bool split, cudaStream_t stream,
                       cudaError_t *err)
{
    switch (R) {
#define CF_REG_CASE(r)                                                                          \
    case r:                                                                                     \
        return launch_reg_reduced<r, C0, C1>(RH, RV, kx, ky, planes, n_planes, split, stream,   \
                                             err);
        CF_REG_CASE(1) CF_REG_CASE(2) CF_REG_CASE(3) CF_REG_CASE(4) CF_REG_CASE(5) CF_REG_CASE(6)
        CF_REG_CASE(7) CF_REG_CASE(8) CF_REG_CASE(9) CF_REG_CASE(10) CF_REG_CASE(11)
        CF_REG_CASE(12) CF_REG_CASE(16) CF_REG_CASE(20) CF_REG_CASE(24) CF_REG_CASE(32)
        CF_REG_CASE(36) CF_REG_CASE(40) CF_REG_CASE(48)
    }
    // The huge radii: planes of 1-2 channels only (reg_takes).
    if constexpr (C0 != 4) {
        switch (R) {
            CF_REG_CASE(56) CF_REG_CASE(64) CF_REG_CASE(72) CF_REG_CASE(80) CF_REG_CASE(88)
            CF_REG_CASE(96)
        }
    }
#undef CF_REG_CASE
    return false;
}

} // namespace

namespace cf_blur_cuda {

int reg_radius(int r, bool four_channels)
{
    if (r <= 12)
        return r < 1 ? 1 : r;
    if (r <= 24)
        return (r + 3) / 4 * 4; // 16, 20, 24
    if (r > 32 && r <= 36)
        return 36; // 8-bit sigma 12 (73 taps), which would run 81 on 40
    if (r <= kRegWideMaxR || (!four_channels && r <= kRegMaxR))
        return (r + 7) / 8 * 8; // 32, 40, 48; 56, 64, ... 96
    return 0;
}

/* Shared memory of the register method's tile of C channels at built
 * radius R (the shapes of blur_reg_shape.cuh, evaluated at run time). */
static int reg_tile_bytes(int C, int R)
{
    const int W = reg_tile_w(C, R);
    return reg_shared_bytes(C, R, W, reg_rows_v(C, R) * reg_vcols(C, R) * reg_threads(R) / W);
}

bool reg_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
               int n_planes, int shared_limit)
{
    if (n_planes < 1 || n_planes > CF_MAX_PLANES)
        return false;
    const int R = reg_radius(std::max(kx.size, ky.size) / 2, planes[0].channels == 4);
    // The wide radii pair the vertical taps (vertical_sums_paired).
    if (R == 0 || (reg_wide(R) && !symmetric_taps(ky)))
        return false;
    for (int t = 0; t < kx.size; t++)
        if (kx.w[t] > 0xffffu) // a one-tap kernel: no 16-bit weight pairs
            return false;
    bool small = true, four = true; // every plane of 1-2 channels; of 4
    for (int i = 0; i < n_planes; i++) {
        const cf_blur_plane &p = planes[i];
        if (p.sample_bytes != 1 || p.border != planes[0].border ||
            p.border_value != planes[0].border_value)
            return false;
        small = small && (p.channels == 1 || p.channels == 2);
        four = four && p.channels == 4;
        if ((p.channels == 1 || p.channels == 2 || p.channels == 4) &&
            reg_tile_bytes(p.channels, R) > shared_limit)
            return false;
    }
    return small || four;
}

bool reg_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
             int n_planes, int shared_limit, bool split, cudaStream_t stream, cudaError_t *err)
{
    if (!reg_takes(kx, ky, planes, n_planes, shared_limit))
        return false;
    const int R = reg_radius(std::max(kx.size, ky.size) / 2, planes[0].channels == 4);
    // The larger radius's direction runs on R, the other on its reduced
    // radius if it has one.
    const int RH = kx.size >= ky.size ? R : reg_reduced_radius(R, kx.size / 2);
    const int RV = ky.size >= kx.size ? R : reg_reduced_radius(R, ky.size / 2);
    if (planes[0].channels == 4)
        return launch_reg_radius<4, 4>(R, RH, RV, kx, ky, planes, n_planes, split, stream, err);
    return launch_reg_radius<1, 2>(R, RH, RV, kx, ky, planes, n_planes, split, stream, err);
}

} // namespace cf_blur_cuda
