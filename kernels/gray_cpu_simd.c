/* cudafilters gray: SIMD rows of the optimized CPU gray, written once with
 * vector extensions (simd.h) and compiled per level (meson.build).
 * Declared in gray_cpu_simd.h, which states what each function computes. */
#include "gray.h"
#include "gray_cpu_simd.h"
#include "simd.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pixels are read as little-endian words"
#endif

static inline vu32 luma4(vu32 px, int32_t w0, int32_t w1, int32_t w2)
{
    /* Below 255 * 2^15 + 2^14: no sign or overflow trouble in 32 bits. */
    vu32 y = (px & 0xff) * (uint32_t)w0 + ((px >> 8) & 0xff) * (uint32_t)w1 +
             ((px >> 16) & 0xff) * (uint32_t)w2;
    return (y + (1u << (CF_GRAY_SHIFT - 1))) >> CF_GRAY_SHIFT;
}

#if defined(__x86_64__) && CF_SIMD_LEVEL >= 2
/* VL packed 3-byte pixels at p as 32-bit lanes (bytes 0-2, then 0): a
 * byte shuffle within each 128-bit lane, 4 pixels a lane, the lanes loaded
 * 12 bytes apart. Reads 4 bytes beyond the pixels. */
static inline __m256i ld_rgb24_avx2(const uint8_t *p)
{
    const __m256i pick = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                          0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    __m256i v = _mm256_loadu2_m128i((const __m128i *)(const void *)(p + 12),
                                    (const __m128i *)(const void *)p);
    return _mm256_shuffle_epi8(v, pick);
}

static inline vu32 ld_rgb24(const uint8_t *p)
{
#if CF_SIMD_LEVEL >= 3
    return (vu32)_mm512_inserti64x4(_mm512_castsi256_si512(ld_rgb24_avx2(p)),
                                    ld_rgb24_avx2(p + 24), 1);
#else
    return (vu32)ld_rgb24_avx2(p);
#endif
}
#define HAVE_RGB24 1
#endif

static void rgb(const uint8_t *s, int n, int bpp, int32_t w0, int32_t w1, int32_t w2, uint8_t *d)
{
    int x = 0;
#ifdef HAVE_RGB24
    if (bpp == 3)
        for (; x + VL + 2 <= n; x += VL)
            cf_simd_st_u8(d + x, luma4(ld_rgb24(s + 3 * (size_t)x), w0, w1, w2), VL);
#endif
    if (bpp == 4)
        for (; x + VL <= n; x += VL) {
            vu32 px;
            memcpy(&px, s + 4 * (size_t)x, sizeof px);
            cf_simd_st_u8(d + x, luma4(px, w0, w1, w2), VL);
        }
    cf_gray_weights w = { w0, w1, w2 };
    if (bpp == 3) /* a constant stride the compiler vectorizes */
        for (; x < n; x++)
            d[x] = cf_gray_luma(s[3 * (size_t)x], s[3 * (size_t)x + 1], s[3 * (size_t)x + 2], w);
    for (; x < n; x++) {
        const uint8_t *p = s + (size_t)x * bpp;
        d[x] = cf_gray_luma(p[0], p[1], p[2], w);
    }
}

static void rgb_keep(const uint8_t *s, int n, int bpp, int32_t w0, int32_t w1, int32_t w2,
                     uint8_t *d)
{
    int x = 0;
    if (bpp == 4)
        for (; x + VL <= n; x += VL) {
            vu32 px;
            memcpy(&px, s + 4 * (size_t)x, sizeof px);
            vu32 out = (px & 0xff000000u) | luma4(px, w0, w1, w2) * 0x010101u;
            memcpy(d + 4 * (size_t)x, &out, sizeof out);
        }
    cf_gray_weights w = { w0, w1, w2 };
    for (; x < n; x++) {
        const uint8_t *p = s + (size_t)x * bpp;
        uint8_t *q = d + (size_t)x * bpp;
        uint8_t v = cf_gray_luma(p[0], p[1], p[2], w);
        if (bpp == 4)
            q[3] = p[3];
        q[0] = q[1] = q[2] = v;
    }
}

/* clamp(v - lo, 0, span) * mul24 rounded: cf_gray_expand_mul24. */
static inline vu32 expand24(vs32 v, int lo, int span, uint32_t mul24)
{
    vs32 t = v - lo;
    t &= (vs32)(t > 0);                         /* max(t, 0) */
    vs32 big = (vs32)(t > span);
    t = (t & ~big) | (big & span);              /* min(t, span) */
    return ((vu32)t * mul24 + (1u << 23)) >> 24;
}

static void luma8(const uint8_t *s, int n, int lo, int span, uint32_t mul24, uint8_t *d)
{
    int x = 0;
    for (; x + VL <= n; x += VL)
        cf_simd_st_u8(d + x, expand24((vs32)cf_simd_ld_u8(s + x), lo, span, mul24), VL);
    for (; x < n; x++) {
        int t = s[x] - lo;
        t = t < 0 ? 0 : t > span ? span : t;
        d[x] = cf_gray_expand_mul24((uint32_t)t, mul24);
    }
}

static void luma16(const uint8_t *s, int n, int shift, int lo, int span, uint32_t mul24,
                   uint32_t magic, int magic_shift, uint8_t *d)
{
    int x = 0;
    if (mul24)
        for (; x + VL <= n; x += VL) {
            vs32 v = (vs32)(cf_simd_ld_u16((const uint16_t *)(const void *)(s + 2 * (size_t)x)) >>
                            shift);
            cf_simd_st_u8(d + x, expand24(v, lo, span, mul24), VL);
        }
    for (; x < n; x++) {
        int v = (s[2 * x] | s[2 * x + 1] << 8) >> shift;
        if (mul24) {
            int t = v - lo;
            t = t < 0 ? 0 : t > span ? span : t;
            d[x] = cf_gray_expand_mul24((uint32_t)t, mul24);
        } else {
            d[x] = cf_gray_expand_magic(v, lo, span, magic, magic_shift);
        }
    }
}

#if defined(__x86_64__) && CF_SIMD_LEVEL >= 2
static void luma_mulhi(const uint8_t *s, int n, int sample_bytes, int shift, int lo, int span,
                       int k, int m, uint16_t a, uint16_t c, uint8_t *d)
{
    int x = 0;
#if CF_SIMD_LEVEL >= 3
    const __m512i vlo = _mm512_set1_epi16((short)lo), vspan = _mm512_set1_epi16((short)span),
                  vc = _mm512_set1_epi16((short)c), va = _mm512_set1_epi16((short)a);
    const __m128i sh = _mm_cvtsi32_si128(shift), sk = _mm_cvtsi32_si128(k),
                  sm = _mm_cvtsi32_si128(m);
    for (; x + 32 <= n; x += 32) {
        __m512i v = sample_bytes == 1
                        ? _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(s + x)))
                        : _mm512_srl_epi16(_mm512_loadu_si512((const void *)(s + 2 * (size_t)x)), sh);
        __m512i t = _mm512_min_epu16(_mm512_subs_epu16(v, vlo), vspan);
        __m512i y = _mm512_srl_epi16(_mm512_mulhi_epu16(_mm512_adds_epu16(_mm512_sll_epi16(t, sk), vc), va), sm);
        _mm256_storeu_si256((__m256i *)(void *)(d + x), _mm512_cvtepi16_epi8(y));
    }
#else
    const __m256i vlo = _mm256_set1_epi16((short)lo), vspan = _mm256_set1_epi16((short)span),
                  vc = _mm256_set1_epi16((short)c), va = _mm256_set1_epi16((short)a);
    const __m128i sh = _mm_cvtsi32_si128(shift), sk = _mm_cvtsi32_si128(k),
                  sm = _mm_cvtsi32_si128(m);
    for (; x + 16 <= n; x += 16) {
        __m256i v = sample_bytes == 1
                        ? _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(s + x)))
                        : _mm256_srl_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(s + 2 * (size_t)x)), sh);
        __m256i t = _mm256_min_epu16(_mm256_subs_epu16(v, vlo), vspan);
        __m256i y = _mm256_srl_epi16(_mm256_mulhi_epu16(_mm256_adds_epu16(_mm256_sll_epi16(t, sk), vc), va), sm);
        __m256i b = _mm256_permute4x64_epi64(_mm256_packus_epi16(y, y), 0xd8);
        _mm_storeu_si128((__m128i *)(void *)(d + x), _mm256_castsi256_si128(b));
    }
#endif
    for (; x < n; x++) {
        int v = sample_bytes == 1 ? s[x] : (s[2 * x] | s[2 * x + 1] << 8) >> shift;
        d[x] = cf_gray_expand(v, lo, span);
    }
}
#define LUMA_MULHI luma_mulhi
#else
#define LUMA_MULHI NULL
#endif

const cf_gray_simd CF_SIMD_NAME(cf_gray_simd) = { rgb, rgb_keep, luma8, luma16, LUMA_MULHI };
