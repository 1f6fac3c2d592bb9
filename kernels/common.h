/* cudafilters: glue for per-pixel math shared by C reference code and CUDA
 * kernels. Functions marked CF_HOSTDEV compile as plain static inline C in
 * the CPU twin and as __host__ __device__ functions under nvcc, so both
 * sides run the very same integer arithmetic. */
#ifndef CUDAFILTERS_KERNELS_COMMON_H
#define CUDAFILTERS_KERNELS_COMMON_H

#ifdef __CUDACC__
#define CF_HOSTDEV __host__ __device__ __forceinline__
#else
#define CF_HOSTDEV static inline
#endif

#endif
