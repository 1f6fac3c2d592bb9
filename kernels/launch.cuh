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

/* True when launches on the current device get the PDL attribute: built
 * with CF_PDL_BUILT, compute capability 9.0 or later and CUDAFILTERS_PDL is
 * not "0". The environment is read once per process. Thread-safe. If the
 * device cannot be queried, false (the launch itself then reports the
 * error). */
bool cf_pdl_enabled();

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
