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

/* Lane i of the result: lane mask[i] mod 2n of a followed by b (n lanes
 * each), GCC's __builtin_shuffle. Clang has no two-vector permute with a
 * mask known only at run time (its __builtin_shufflevector takes constant
 * indices), so there the same lanes come from a loop over them: the same
 * result, for clang's sanitizer and fuzzing builds. */
#if defined(__clang__)
#define CF_SHUFFLE2(a, b, mask)                                                                 \
    __extension__({                                                                             \
        __typeof__(a) cf_a_ = (a), cf_b_ = (b), cf_r_;                                          \
        __typeof__(mask) cf_m_ = (mask);                                                        \
        const int cf_n_ = (int)(sizeof cf_a_ / sizeof cf_a_[0]);                                \
        for (int cf_i_ = 0; cf_i_ < cf_n_; cf_i_++) {                                           \
            int cf_j_ = (int)cf_m_[cf_i_] & (2 * cf_n_ - 1);                                   \
            cf_r_[cf_i_] = cf_j_ < cf_n_ ? cf_a_[cf_j_] : cf_b_[cf_j_ - cf_n_];                \
        }                                                                                       \
        cf_r_;                                                                                  \
    })
#else
#define CF_SHUFFLE2(a, b, mask) __builtin_shuffle(a, b, mask)
#endif

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

/* Signed 32-bit lanes (sums that may go negative), and their loads and
 * stores at any alignment. */
typedef int32_t vs32 __attribute__((vector_size(CF_SIMD_BYTES)));

static inline vs32 cf_simd_ld_s32(const void *p)
{
    vs32 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void cf_simd_st_s32(void *p, vs32 v)
{
    memcpy(p, &v, sizeof v);
}

static inline vu32 cf_simd_splat(uint32_t x)
{
    return (vu32){ 0 } + x;
}

/* Widening loads and narrowing stores: GCC turns __builtin_convertvector
 * between vectors of different widths into scalar code on x86, so there
 * the level's own instructions do it; elsewhere the generic conversion. */
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* VL bytes, each into a 32-bit lane. */
static inline vu32 cf_simd_ld_u8(const uint8_t *p)
{
#if defined(__x86_64__) && CF_SIMD_LEVEL >= 3
    return (vu32)_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
#elif defined(__x86_64__) && CF_SIMD_LEVEL == 2
    return (vu32)_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
#elif defined(__x86_64__)
    int32_t w;
    memcpy(&w, p, 4);
    __m128i z = _mm_setzero_si128(), b = _mm_cvtsi32_si128(w);
    return (vu32)_mm_unpacklo_epi16(_mm_unpacklo_epi8(b, z), z);
#else
    vu8q b;
    memcpy(&b, p, sizeof b);
    return __builtin_convertvector(b, vu32);
#endif
}

/* VL 16-bit values, each into a 32-bit lane; p may be unaligned (the x86
 * loads are unaligned ones, the generic one a memcpy). */
static inline vu32 cf_simd_ld_u16(const uint16_t *p)
{
#if defined(__x86_64__) && CF_SIMD_LEVEL >= 3
    return (vu32)_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p));
#elif defined(__x86_64__) && CF_SIMD_LEVEL == 2
    return (vu32)_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
#elif defined(__x86_64__)
    return (vu32)_mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(const void *)p),
                                    _mm_setzero_si128());
#else
    vu16h h;
    memcpy(&h, p, sizeof h);
    return __builtin_convertvector(h, vu32);
#endif
}

/* The lanes of v (each at most 255) as n <= VL bytes at d. */
static inline void cf_simd_st_u8(uint8_t *d, vu32 v, int n)
{
    uint8_t t[VL];
#if defined(__x86_64__) && CF_SIMD_LEVEL >= 3
    _mm_storeu_si128((__m128i *)(void *)t, _mm512_cvtepi32_epi8((__m512i)v));
#elif defined(__x86_64__) && CF_SIMD_LEVEL == 2
    __m256i x = _mm256_packus_epi32((__m256i)v, (__m256i)v);
    x = _mm256_packus_epi16(x, x); /* bytes 0-3 of each 128-bit half */
    x = _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
    _mm_storel_epi64((__m128i *)(void *)t, _mm256_castsi256_si128(x));
#elif defined(__x86_64__)
    __m128i x = _mm_packs_epi32((__m128i)v, (__m128i)v);
    int32_t w = _mm_cvtsi128_si32(_mm_packus_epi16(x, x));
    memcpy(t, &w, 4);
#else
    vu8q b = __builtin_convertvector(v, vu8q);
    memcpy(t, &b, sizeof b);
#endif
    if (n >= VL)
        memcpy(d, t, VL);
    else
        memcpy(d, t, (size_t)n);
}

/* The lanes of v (each below 2^16) as n <= VL 16-bit values at d. */
static inline void cf_simd_st_u16(uint16_t *d, vu32 v, int n)
{
    uint16_t t[VL];
#if defined(__x86_64__) && CF_SIMD_LEVEL >= 3
    _mm256_storeu_si256((__m256i *)(void *)t, _mm512_cvtepi32_epi16((__m512i)v));
#elif defined(__x86_64__) && CF_SIMD_LEVEL == 2
    __m256i x = _mm256_permute4x64_epi64(_mm256_packus_epi32((__m256i)v, (__m256i)v), 0xd8);
    _mm_storeu_si128((__m128i *)(void *)t, _mm256_castsi256_si128(x));
#elif defined(__x86_64__)
    /* SSE2 has no unsigned 32-to-16 pack: bias into the signed range. */
    __m128i b = _mm_sub_epi32((__m128i)v, _mm_set1_epi32(32768));
    __m128i x = _mm_add_epi16(_mm_packs_epi32(b, b), _mm_set1_epi16(-32768));
    _mm_storel_epi64((__m128i *)(void *)t, x);
#else
    vu16h h = __builtin_convertvector(v, vu16h);
    memcpy(t, &h, sizeof h);
#endif
    memcpy(d, t, 2 * (size_t)(n < VL ? n : VL));
}

#endif
