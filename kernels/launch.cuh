/* cudafilters: kernel launches with Programmatic Dependent Launch (PDL).
 *
 * Kernels queued back to back on one stream (a gray then a blur on a frame,
 * the same filter on the next frame) normally run strictly one after the
 * other: the next grid's blocks are dispatched only once the previous grid
 * has finished and its writes are flushed, and each launch pays that ramp.
 * On compute capability 9.0 and later, a launch marked "programmatic stream
 * serialization" may have its blocks dispatched while the previous kernel's
 * last blocks still run, once every block of that kernel has executed
 * griddepcontrol.launch_dependents (or exited); the new blocks then wait in
 * griddepcontrol.wait until the previous grid has completed and its memory
 * operations are visible (CUDA C++ Programming Guide, "Programmatic
 * Dependent Launch and Synchronization"; PTX ISA, "griddepcontrol").
 *
 * The contract, for every kernel launched through cf_launch: its first
 * statement is cf_pdl_begin(), before any global memory access and before
 * any early return. Then stream order holds for memory exactly as with a
 * plain launch, and what overlaps is only block dispatch and the kernel's
 * start-up. Both instructions are no-ops for a kernel launched without the
 * attribute, and are compiled out for architectures below sm_90.
 *
 * The build only enables it when the code a 9.0+ GPU runs was compiled
 * for sm_90 or later (the last -Dgpu_archs entry, whose PTX newer GPUs
 * compile, is 90 or more: CF_PDL_BUILT, meson.build); else a JIT-compiled
 * older PTX without the wait could read before the previous kernel's
 * writes are visible. The environment variable CUDAFILTERS_PDL=0 turns the
 * attribute off (plain launches), for comparison and debugging. */
#ifndef CUDAFILTERS_KERNELS_LAUNCH_CUH
#define CUDAFILTERS_KERNELS_LAUNCH_CUH

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <utility>

/* Lets the next PDL kernel on the stream be dispatched once every block of
 * this grid has got here, then waits until the previous kernel on the
 * stream has completed and its writes are visible. Call first thing, in
 * every thread. */
__device__ __forceinline__ void cf_pdl_begin()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* Devices whose facts are kept after the first lookup (cf_device_facts,
 * cf_occupancy); a device with a higher index is asked every time. */
constexpr int kCfCachedDevices = 64;

/* The number of streaming multiprocessors and the compute capability's
 * major number of CUDA device `device` (an index of cudaGetDevice). They
 * cannot change while the process runs, so each device is asked once and
 * the answer kept; later calls cost one atomic load. Thread-safe (two
 * threads asking at once may both query; they store the same answer).
 * Returns cudaSuccess, or the runtime's error of the lookup (invalid
 * device, no driver), with *sms and *major untouched. */
cudaError_t cf_device_facts(int device, int *sms, int *major);

/* The most dynamic shared memory a block of CUDA device `device` (an index
 * of cudaGetDevice) may opt in to, in bytes (cudaDevAttrMaxSharedMemoryPer
 * BlockOptin: 227 KiB on sm_90, 163 on sm_80, 99 on sm_86 and sm_89, 64 on
 * sm_75). Asked once per device and kept, as cf_device_facts; thread-safe.
 * Returns cudaSuccess, or the runtime's error of the lookup with *bytes
 * untouched. */
cudaError_t cf_device_shared_optin(int device, int *bytes);

/* Whether CUDA device `device` is a Hopper GPU (compute capability 9.0)
 * doing FP64 multiply-adds at half its FP32 rate
 * (cudaDevAttrSingleToDoublePrecisionPerfRatio at most 2): H100, H200,
 * GH200, where the blur's FP64 sums (blur_f64.cuh) were measured faster
 * than its 64-bit integer ones. Others say no: those with slow FP64 (T4,
 * the RTX cards, Orin: 1/32 to 1/64) and, unmeasured, A100 and B200. Asked
 * once per device and kept, as cf_device_facts; thread-safe. Returns
 * cudaSuccess, or the runtime's error of the lookup with *fast untouched. */
cudaError_t cf_device_fast_fp64(int device, bool *fast);

/* True when launches on the current device get the PDL attribute: built
 * with CF_PDL_BUILT, compute capability 9.0 or later and CUDAFILTERS_PDL is
 * not "0". The environment is read once per process and the device's
 * compute capability once per device (cf_device_facts). Thread-safe. If the
 * device cannot be queried, false (the launch itself then reports the
 * error). */
bool cf_pdl_enabled();

/* Blocks of Kernel that one SM of the current device runs at once with
 * `threads` threads a block and `shared` bytes of dynamic shared memory
 * (cudaOccupancyMaxActiveBlocksPerMultiprocessor, which asks the current
 * device). `device` must be the current device's index (cudaGetDevice):
 * it picks where the answer is kept, per kernel and device, for the last
 * (threads, shared) asked, so a launch that repeats its shape costs an
 * atomic load, not a runtime query (a few microseconds of host time a
 * frame). Thread-safe, as cf_device_facts. Returns cudaSuccess or the
 * runtime's error, with *blocks untouched. */
template <auto Kernel>
cudaError_t cf_occupancy(int device, int threads, size_t shared, int *blocks)
{
    // One word a device: shared << 32 | threads << 16 | (blocks + 1); 0
    // while unknown.
    static std::atomic<uint64_t> kept[kCfCachedDevices];
    const uint64_t key = (uint64_t)shared << 32 | (uint64_t)threads << 16;
    const bool cacheable = device >= 0 && device < kCfCachedDevices && shared <= 0xffffffffu &&
                           threads > 0 && threads < 0x10000;
    if (cacheable) {
        const uint64_t word = kept[device].load(std::memory_order_relaxed);
        if (word != 0 && (word & ~(uint64_t)0xffff) == key) {
            *blocks = (int)(word & 0xffff) - 1;
            return cudaSuccess;
        }
    }
    int n = 0;
    const cudaError_t err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, Kernel, threads, shared);
    if (err != cudaSuccess)
        return err;
    if (cacheable && n >= 0 && n < 0xffff)
        kept[device].store(key | (uint64_t)(n + 1), std::memory_order_relaxed);
    *blocks = n;
    return cudaSuccess;
}

/* Launches kernel(args...) on stream with grid, block and shared bytes of
 * dynamic shared memory, with the PDL attribute where cf_pdl_enabled().
 * Returns the launch's error (cudaSuccess when queued); errors of the
 * kernel's execution come later, as for <<<>>>. The kernel must start with
 * cf_pdl_begin(). */
template <typename... Params, typename... Args>
cudaError_t cf_launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared,
                      cudaStream_t stream, Args &&...args)
{
    cudaLaunchAttribute attr = {};
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    if (cf_pdl_enabled()) {
        config.attrs = &attr;
        config.numAttrs = 1;
    }
    return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

#endif
