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

#include <stdint.h>

/* One sample at p: a byte (bytes 1), or a little-endian 16-bit word
 * shifted right by `shift` (P010's 10 bits sit in the high bits: 6). */
CF_HOSTDEV int cf_sample_load(const uint8_t *p, int bytes, int shift)
{
    return bytes == 1 ? p[0] : (p[0] | p[1] << 8) >> shift;
}

/* Stores v (already in range) as cf_sample_load reads it. */
CF_HOSTDEV void cf_sample_store(uint8_t *p, int bytes, int shift, int v)
{
    if (bytes == 1) {
        p[0] = (uint8_t)v;
    } else {
        int w = v << shift;
        p[0] = (uint8_t)(w & 0xff);
        p[1] = (uint8_t)(w >> 8);
    }
}

#endif
