/* cudafilters blur on CUDA: the methods, and what blur_dispatch.cu, which
 * picks one per frame (its table), needs to know of each.
 *
 *   reg (blur_reg.cu): 8-bit planes, all of 1-2 channels or all of 4, one
 *     border for all, kernels of radius up to 96 either way (48 for 4
 *     channels), every horizontal tap below 65536, past radius 24
 *     symmetric vertical taps. Both passes of a tile in shared memory,
 *     outputs from windows of registers, every plane in one launch; the
 *     fastest for small kernels (no intermediate plane in device memory).
 *   slide (blur_slide.cu): planes of 8-bit samples of 1-4 channels up to
 *     radius 6, of 16-bit samples of 1-2 channels up to radius 8,
 *     symmetric taps. Each column of a plane streamed through registers
 *     (a ring of 2R + 1 rows of horizontal sums), no shared memory, no
 *     barrier, no intermediate plane; the few samples at a plane's left
 *     and right edges (all of a plane whose rows are not 4-byte aligned)
 *     one a thread from their (2R + 1)^2 inputs.
 *   tile (blur_tile.cu): planes of 1 or 2 channels, 8- or 16-bit
 *     (GRAY16, P010, I420_10LE; GRAY8, NV12, I420), kernels of radius up
 *     to 48 either way, symmetric taps.
 *     Both passes of a tile in shared memory, the symmetric taps paired,
 *     windows of registers, one launch a plane: no intermediate plane in
 *     device memory (the 16-bit fast path; reg's DP2A pairs need 8-bit
 *     samples).
 *   sep (blur_sep.cu): everything the element takes (1-4 channels, 8 and
 *     16 bits, kernels up to 1025 taps each way, unequal radii), in at
 *     most 56 KiB of shared memory a block, which every GPU we build for
 *     (sm_75 and later: 64 KiB or more) allows. Two
 *     passes through the scratch plane, each from shared memory or L1 with
 *     the symmetric taps paired: one multiply-add per pair of taps, so its
 *     cost grows linearly in the taps at half the multiply-adds of a plain
 *     convolution. Needs symmetric kernels (cf_blur_make_kernel's are).
 *   tensor (blur_tensor.cu, blur_tensor16.cu, blur_tensor16_cols.cu):
 *     8-bit planes of 1, 2 or 4 channels and 16-bit planes of 1 or 2,
 *     kernels up to 1025 taps each way (every tap below 65536), compute
 *     capability 8.0 and later. The taps and samples split into bytes,
 *     every product an int8 tensor-core one: both passes for 8-bit
 *     planes; for 16-bit ones the rows pass, and from a vertical radius
 *     on (tensor16_cols_picked) the columns pass, below it the two-pass
 *     method's.
 *
 * All have the arithmetic of blur.h and are compared with the CPU
 * reference bit for bit (tests/test_kernels_gpu.cpp). On Hopper the tile
 * and two-pass methods do P010's vertical sums (samples of at most 11 bits
 * shifted up to the top of 16) on the FP64 units (blur_f64.cuh: exact, and
 * on a pipe of their own); elsewhere, and for GRAY16 and I420_10LE, whose
 * samples may use all 16 bits, as 64-bit integer multiply-adds. */
#ifndef CUDAFILTERS_KERNELS_BLUR_CUDA_CUH
#define CUDAFILTERS_KERNELS_BLUR_CUDA_CUH

#include <cuda_runtime.h>

#include <atomic>
#include <climits>
#include <mutex>

#include "blur.h"
#include "launch.cuh"

namespace cf_blur_cuda {

/* Tap t of kernel k centred in 2R + 1 taps (R at least its radius, t in
 * 0 .. 2R): its own weights in the middle, zeros around them (a zero tap
 * adds 0: the sums of the kernel itself). Host code, for the methods that
 * run a kernel on a larger built radius. */
inline uint32_t centred_tap(const cf_blur_kernel &k, int R, int t)
{
    const int i = t - (R - k.size / 2);
    return i >= 0 && i < k.size ? k.w[i] : 0u;
}

/* The radius the register method runs a kernel of radius r on (the
 * smallest built one at least r), or 0 past 96 (past 48 for planes of 4
 * channels). */
int reg_radius(int r, bool four_channels);

/* Whether the register method takes these planes and kernels on a GPU
 * whose blocks may have shared_limit bytes of shared memory (its tiles
 * take up to 100 KiB, 220 for the huge radii). Pure host arithmetic. */
bool reg_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
               int n_planes, int shared_limit);

/* Queues the register method on stream: false when it does not take the
 * frame (reg_takes with shared_limit, the current device's: shared_limit(),
 * or more tile rows than an int counts), else true with the launch's error
 * in *err. split: whether a last wave that would leave most of the GPU
 * idle is split into tiles of half height. */
bool reg_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
             int n_planes, int shared_limit, bool split, cudaStream_t stream, cudaError_t *err);

/* The radius the tile method runs a kernel of radius r on (the smallest
 * built one at least r), or 0 past 48. */
int tile_radius(int r);

/* Whether the tile method takes these planes and kernels on a GPU whose
 * blocks may have shared_limit bytes of shared memory (a tile takes 86-103
 * KiB from radius 24, up to 170 at radius 48). Pure host arithmetic. */
bool tile_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
                int n_planes, int shared_limit);

/* Queues the tile method on stream, one launch a plane. Returns the first
 * launch error; cudaErrorInvalidValue when it does not take the frame
 * (tile_takes with shared_limit, the current device's: shared_limit()).
 * *f64_used: whether a plane's launch did its vertical sums on the FP64
 * units (f64_sums, blur_f64.cuh). */
cudaError_t tile_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                     const cf_blur_plane *planes, int n_planes, int shared_limit,
                     cudaStream_t stream, bool *f64_used);

/* The radius the sliding-window method runs a kernel of radius r on for
 * samples of sample_bytes bytes (the smallest built one at least r), or 0
 * past 6 (8-bit) or 8 (16-bit). */
int slide_radius(int r, int sample_bytes);

/* Whether the sliding-window method takes these planes and kernels: all
 * planes of 8-bit samples and 1-2, all 3 or all 4 channels, or of 16-bit
 * samples and 1-2 channels; symmetric taps; the larger radius built
 * (slide_radius). Pure host arithmetic. */
bool slide_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
                 int n_planes);

/* Queues the sliding-window method on stream, every plane in one launch.
 * Returns the launch error; cudaErrorInvalidValue when it does not take
 * the frame. */
cudaError_t slide_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                      const cf_blur_plane *planes, int n_planes, cudaStream_t stream);

/* Whether kernel k's taps are symmetric (w[t] == w[size - 1 - t]), which
 * the methods that pair taps need (cf_blur_make_kernel's always are). */
bool symmetric_taps(const cf_blur_kernel &k);

/* Whether the two-pass method takes these planes and kernels: 1-4
 * channels, 1- or 2-byte samples, symmetric taps. */
bool sep_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
               int n_planes);

/* Queues the two-pass method on stream, plane by plane, through tmp:
 * device memory of tmp_pitch bytes a row (at least 4 bytes a sample of the
 * widest plane, a multiple of 16) and one row more than the tallest plane
 * (blur_filter.c's scratch). Returns the first launch error. *f64_used:
 * whether a plane's columns pass did its sums on the FP64 units
 * (f64_sums, blur_f64.cuh). */
cudaError_t sep_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                    const cf_blur_plane *planes, int n_planes, void *tmp, size_t tmp_pitch,
                    cudaStream_t stream, bool *f64_used);

/* The columns pass of the two-pass method alone, for one plane of 16-bit
 * samples whose rows pass has left its 32-bit intermediates in tmp (rows
 * of tmp_pitch bytes, a multiple of 16; a constant border's row of
 * border_value << 8 below the plane): the vertical sums on the FP64 units
 * where f64_sums says (*f64_used then true), else as 64-bit integers.
 * Returns cudaErrorInvalidValue for a plane of 8-bit samples or
 * asymmetric taps, else the launch's error. */
cudaError_t sep_cols_run(const cf_blur_kernel &ky, const cf_blur_plane &p, const void *tmp,
                         size_t tmp_pitch, cudaStream_t stream, bool *f64_used);

/* Shared memory a block of the tensor-core method needs for horizontal
 * radius rx and vertical radius ry (the larger of its two passes'), bytes,
 * for 8-bit planes. */
size_t tensor_shared(int rx, int ry);

/* The same for the rows pass of a 16-bit plane of `channels` (1 or 2)
 * channels (blur_tensor16.cu; sep's columns pass takes under 10 KiB, the
 * tensor cores' tensor16_cols_shared). */
size_t tensor16_rows_shared(int rx, int channels);

/* The columns pass of one 16-bit plane on the tensor cores
 * (blur_tensor16_cols.cu), from the 32-bit intermediates a rows pass left
 * in tmp in the two-pass method's layout (as tensor16_rows_run's and
 * sep_cols_run's), into pl.dst (shifted up by pl.shift). Any odd kernel up
 * to CF_BLUR_MAX_KSIZE taps, each below 65536. Shared memory a block:
 * tensor16_cols_shared(ry) bytes (18.2 KiB up to radius 8, 95.2 KiB at
 * 256, 172.2 KiB at 512: past radius 264 more than sm_86's 99 KiB, past
 * 488 more than sm_80's 163). Returns cudaErrorInvalidValue for a plane,
 * scratch or tap that does not fit, else the launch's error. */
size_t tensor16_cols_shared(int ry);
cudaError_t tensor16_cols_run(const cf_blur_kernel &ky, const cf_blur_plane &pl, const void *tmp,
                              size_t tmp_pitch, cudaStream_t stream);
/* Which columns pass the tensor-core method runs on a 16-bit plane of
 * vertical radius ry on a GPU whose blocks may have shared_limit bytes of
 * shared memory: true for the tensor cores' (tensor16_cols_run), false for
 * the two-pass method's (sep_cols_run). The test hook
 * cf_blur_cuda_force_tensor16_columns decides, or by default the radius
 * (from kTensor16ColsMinRadius); the tensor cores' only where their
 * blocks fit. Host code (blur_dispatch.cu); thread-safe. */
bool tensor16_cols_picked(int ry, int shared_limit);
/* The vertical radius from which tensor16_cols_picked takes the tensor
 * cores' columns pass by default (the measurements: blur_dispatch.cu). */
constexpr int kTensor16ColsMinRadius = 24;
/* Whether the tensor-core method takes these planes and kernels on a GPU
 * whose blocks may have shared_limit bytes of shared memory: all planes
 * 8-bit (no shift) of 1, 2 or 4 channels, or all 16-bit of 1 or 2 channels
 * with symmetric vertical taps (sep's columns pass pairs them); odd kernels
 * up to CF_BLUR_MAX_KSIZE taps whose every tap is below 65536 (not the
 * one-tap identity); a limit of at least 99 KiB (compute capability 8.0
 * and later; sm_75 has 64) that holds tensor_shared or
 * tensor16_rows_shared. Pure host arithmetic. */
bool tensor_takes(const cf_blur_kernel &kx, const cf_blur_kernel &ky, const cf_blur_plane *planes,
                  int n_planes, int shared_limit);

/* Queues the rows pass of one 16-bit plane of 1 or 2 channels on the
 * tensor cores (blur_tensor16.cu) into tmp in the two-pass method's layout
 * (sample s of row y a 32-bit intermediate at byte y * tmp_pitch + 4 s;
 * for a constant border, the row below the plane border_value << 8):
 * tmp_pitch a multiple of 16 and at least 4 bytes a sample, tmp 16-byte
 * aligned, one row more than the plane. Returns cudaErrorInvalidValue for
 * a plane or scratch that does not fit, else the launch's error. */
cudaError_t tensor16_rows_run(const cf_blur_kernel &kx, const cf_blur_plane &pl, void *tmp,
                              size_t tmp_pitch, cudaStream_t stream);

/* Queues the tensor-core method on stream, plane by plane (two launches
 * each), through tmp: device memory of tmp_pitch bytes a row, 16-byte
 * aligned, a multiple of 16 and at least 4 bytes a sample of the widest
 * plane rounded up to 32 samples, and one row more than the tallest plane
 * (blur_filter.c's scratch holds that; for 8-bit planes the passes keep
 * ceil(height / 4) groups of 8 bytes a rounded sample in it, which for a
 * plane 1 row high is 2 rows; for 16-bit ones the rows pass on the tensor
 * cores, the columns pass on the tensor cores or sep's as
 * tensor16_cols_picked says: tensor16_rows_run, then tensor16_cols_run or
 * sep_cols_run). *f64_used: whether a 16-bit plane's vertical sums ran on
 * the FP64 units; *tensor_cols_used: whether one's ran on the tensor cores.
 * Returns cudaErrorNotSupported on a device of compute capability below
 * 8.0, cudaErrorInvalidValue for a pitch that does not fit, else the first
 * launch error. */
cudaError_t tensor_run(const cf_blur_kernel &kx, const cf_blur_kernel &ky,
                       const cf_blur_plane *planes, int n_planes, void *tmp, size_t tmp_pitch,
                       cudaStream_t stream, bool *f64_used, bool *tensor_cols_used);

/* The shared memory a block of the current device may opt in to
 * (cf_device_shared_optin), or INT_MAX where the device cannot be asked
 * (no GPU: the launch then reports that). */
inline int shared_limit()
{
    int device = 0, bytes = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cf_device_shared_optin(device, &bytes) != cudaSuccess) {
        (void)cudaGetLastError(); // no device: not an error of the next launch
        return INT_MAX;
    }
    return bytes;
}

/* Raises Kernel's dynamic shared memory limit on the current device to
 * `bytes` the first time a launch there needs more than the default 48 KiB
 * (and again only for more). The limit is an attribute of the function on
 * each device, so each device (up to 64; past that every call sets it)
 * keeps its own; a mutex keeps the attribute and what is kept of it the
 * same when threads raise it at once. Thread-safe. */
template <auto Kernel>
cudaError_t allow_shared(size_t bytes)
{
    constexpr int kDevices = 64;
    static std::atomic<size_t> allowed[kDevices];
    static std::mutex mutex;
    if (bytes <= 48 * 1024)
        return cudaSuccess;
    int device = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err != cudaSuccess)
        return err;
    std::atomic<size_t> *kept = device >= 0 && device < kDevices ? &allowed[device] : nullptr;
    if (kept && bytes <= kept->load(std::memory_order_acquire))
        return cudaSuccess;
    std::lock_guard<std::mutex> lock(mutex);
    if (kept && bytes <= kept->load(std::memory_order_relaxed))
        return cudaSuccess;
    err = cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (err == cudaSuccess && kept)
        kept->store(bytes, std::memory_order_release);
    return err;
}

} // namespace cf_blur_cuda

#endif
