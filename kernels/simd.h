/* cudafilters: the vector types of the optimized CPU code (cpu_dispatch.h).
 *
 * A *_cpu_simd.c file is compiled once per level by kernels/meson.build
 * with -DCF_SIMD_LEVEL=<cf_cpu_level> -DCF_SIMD_SUFFIX=<name> and that
 * level's -m flags. Its code is written once with GCC/Clang vector
 * extensions on vectors of CF_SIMD_BYTES bytes: 16 (SSE2, NEON), 32 (AVX2),
 * 64 (AVX-512). The compiler turns the same source into each instruction
 * set, so an Arm build only needs a NEON entry in meson.build.
 * Loads and stores go through memcpy: any alignment, no aliasing issues. */
#ifndef CUDAFILTERS_KERNELS_SIMD_H
#define CUDAFILTERS_KERNELS_SIMD_H

#include <stdint.h>
#include <string.h>

#if !defined(CF_SIMD_LEVEL) || !defined(CF_SIMD_SUFFIX)
#error "a *_cpu_simd.c file is compiled by kernels/meson.build with CF_SIMD_LEVEL and CF_SIMD_SUFFIX"
#endif

#define CF_SIMD_CAT2(a, b) a##_##b
#define CF_SIMD_CAT(a, b) CF_SIMD_CAT2(a, b)
/* name_baseline (SSE2, NEON), name_avx2, name_avx512: the per-level symbol of `name`. */
#define CF_SIMD_NAME(name) CF_SIMD_CAT(name, CF_SIMD_SUFFIX)

#if CF_SIMD_LEVEL >= 3
#define CF_SIMD_BYTES 64
#elif CF_SIMD_LEVEL == 2
#define CF_SIMD_BYTES 32
#else
#define CF_SIMD_BYTES 16
#endif

/* Lanes of 32 bits in one vector. */
#define VL (CF_SIMD_BYTES / 4)
typedef uint32_t vu32 __attribute__((vector_size(CF_SIMD_BYTES)));
typedef uint16_t vu16h __attribute__((vector_size(CF_SIMD_BYTES / 2))); /* VL lanes */
typedef uint8_t vu8q __attribute__((vector_size(CF_SIMD_BYTES / 4)));   /* VL lanes */

static inline vu32 cf_simd_ld(const uint32_t *p)
{
    vu32 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void cf_simd_st(uint32_t *p, vu32 v)
{
    memcpy(p, &v, sizeof v);
}

static inline vu32 cf_simd_splat(uint32_t x)
{
    return (vu32){ 0 } + x;
}

#endif
