// Host emulation of what the fast convert and scale kernels use of CUDA,
// so that test_fast_kernels_emu.cpp can compile kernels/convert_fast.cu
// and kernels/scale_fast.cu as plain C++ and run them without a GPU; and
// of the double intrinsics of the blur's FP64 sums (kernels/blur_f64.cuh,
// test_blur_f64_emu.cpp).
// cf_launch (kernels/launch.cuh) runs every thread of the grid one after
// the other: right for kernels without shared memory, barriers or warp
// operations, which is what those two files promise. Include it before
// the kernel sources, and nothing else of CUDA device code.
#ifndef CUDAFILTERS_TESTS_EMU_CUDA_HOST_H
#define CUDAFILTERS_TESTS_EMU_CUDA_HOST_H

#include <cuda_runtime.h> // vector types and the runtime's host declarations

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#undef __global__
#define __global__
#undef __device__
#define __device__
#undef __host__
#define __host__

// The real launch.cuh is then skipped (its include guard).
#define CUDAFILTERS_KERNELS_LAUNCH_CUH

inline uint3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

inline void cf_pdl_begin() {}

// The double whose high and low words are hi and lo; a double's low word;
// a * b + c rounded toward zero (the test is built with -frounding-math, so
// the compiler keeps the fma inside the rounding mode it sets).
inline double __hiloint2double(int hi, int lo)
{
    const uint64_t bits = (uint64_t)(uint32_t)hi << 32 | (uint32_t)lo;
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}
inline int __double2loint(double d)
{
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return (int)(uint32_t)bits;
}
inline double __fma_rz(double a, double b, double c)
{
    const int mode = std::fegetround();
    std::fesetround(FE_TOWARDZERO);
    const double r = std::fma(a, b, c);
    std::fesetround(mode);
    return r;
}

template <typename... Params, typename... Args>
cudaError_t cf_launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t, cudaStream_t,
                      Args &&...args)
{
    gridDim = grid, blockDim = block;
    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++)
                for (unsigned tz = 0; tz < block.z; tz++)
                    for (unsigned ty = 0; ty < block.y; ty++)
                        for (unsigned tx = 0; tx < block.x; tx++) {
                            blockIdx = make_uint3(bx, by, bz);
                            threadIdx = make_uint3(tx, ty, tz);
                            kernel(args...);
                        }
    return cudaSuccess;
}

#endif
