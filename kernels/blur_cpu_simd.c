/* cudafilters blur: SIMD passes of the optimized CPU blur, written once
 * with vector extensions (simd.h) and compiled per level (meson.build).
 * Declared in blur_cpu_simd.h, which states what each function computes. */
#include "blur_cpu_simd.h"
#include "simd.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the 16-bit stores write the host's byte order: little-endian samples need a little-endian host"
#endif

static void widen8(const uint8_t *src, int n, uint32_t *line)
{
    for (int i = 0; i < n; i++)
        line[i] = src[i];
}

static void widen16(const uint8_t *src, int n, int shift, uint32_t *line)
{
    for (int i = 0; i < n; i++)
        line[i] = (uint32_t)(src[2 * i] | src[2 * i + 1] << 8) >> shift;
}

/* One vector of horizontal sums at line + s (line already offset by r*step). */
static inline vu32 h_sum(const uint32_t *c, int step, const uint32_t *w, int r)
{
    vu32 acc = cf_simd_ld(c) * w[0];
    const uint32_t *lo = c, *hi = c;
    for (int k = 1; k <= r; k++) {
        lo -= step;
        hi += step;
        acc += (cf_simd_ld(lo) + cf_simd_ld(hi)) * w[k];
    }
    return acc;
}

static inline void store16(uint16_t *out, vu32 t)
{
    cf_simd_st_u16(out, t, VL);
}

/* The rounded horizontal sums of n samples into out32, or, when out16 is
 * not NULL, into 16-bit out16 (8-bit samples: they fit). Inlined into both
 * callers with out16 known, so each keeps its own store. */
static inline __attribute__((always_inline)) void
h_line_into(const uint32_t *line, int n, int step, const uint32_t *w, int r, uint32_t *out32,
            uint16_t *out16)
{
    const uint32_t *c = line + (size_t)r * step;
    int s = 0;
    for (; s + 2 * VL <= n; s += 2 * VL) {
        /* Two vectors at a time: independent sums for the multipliers. */
        vu32 a = cf_simd_ld(c + s) * w[0], b = cf_simd_ld(c + s + VL) * w[0];
        const uint32_t *lo = c + s, *hi = c + s;
        for (int k = 1; k <= r; k++) {
            lo -= step;
            hi += step;
            a += (cf_simd_ld(lo) + cf_simd_ld(hi)) * w[k];
            b += (cf_simd_ld(lo + VL) + cf_simd_ld(hi + VL)) * w[k];
        }
        if (out16) {
            store16(out16 + s, (a + 128) >> 8);
            store16(out16 + s + VL, (b + 128) >> 8);
        } else {
            cf_simd_st(out32 + s, (a + 128) >> 8);
            cf_simd_st(out32 + s + VL, (b + 128) >> 8);
        }
    }
    for (; s < n; s += VL) {
        vu32 t = (h_sum(c + s, step, w, r) + 128) >> 8;
        if (out16)
            store16(out16 + s, t);
        else
            cf_simd_st(out32 + s, t);
    }
}

static void h_line(const uint32_t *line, int n, int step, const uint32_t *w, int r, uint32_t *out)
{
    h_line_into(line, n, step, w, r, out, NULL);
}

static inline void store8(uint8_t *dst, vu32 q, int lanes)
{
    cf_simd_st_u8(dst, q, lanes);
}

static void h_line16(const uint32_t *line, int n, int step, const uint32_t *w, int r,
                     uint16_t *out)
{
    h_line_into(line, n, step, w, r, NULL, out);
}

static inline vu32 ld16(const uint16_t *p)
{
    return cf_simd_ld_u16(p);
}

static void v8_16(const uint16_t *const *rows, int n, const uint32_t *w, int r, uint8_t *dst)
{
    int s = 0;
    for (; s + 2 * VL <= n; s += 2 * VL) {
        vu32 a = ld16(rows[r] + s) * w[0], b = ld16(rows[r] + s + VL) * w[0];
        for (int k = 1; k <= r; k++) {
            const uint16_t *p = rows[r + k] + s, *m = rows[r - k] + s;
            a += (ld16(p) + ld16(m)) * w[k];
            b += (ld16(p + VL) + ld16(m + VL)) * w[k];
        }
        store8(dst + s, (a + (1u << 23)) >> 24, VL);
        store8(dst + s + VL, (b + (1u << 23)) >> 24, VL);
    }
    for (; s < n; s += VL) {
        vu32 a = ld16(rows[r] + s) * w[0];
        for (int k = 1; k <= r; k++)
            a += (ld16(rows[r + k] + s) + ld16(rows[r - k] + s)) * w[k];
        store8(dst + s, (a + (1u << 23)) >> 24, n - s < VL ? n - s : VL);
    }
}

/* Sum over the column pairs for 8-bit results: below 2^32 (blur.h). */
static inline vu32 v_sum(const uint32_t *const *rows, int s, const uint32_t *w, int r)
{
    vu32 acc = cf_simd_ld(rows[r] + s) * w[0];
    for (int k = 1; k <= r; k++)
        acc += (cf_simd_ld(rows[r + k] + s) + cf_simd_ld(rows[r - k] + s)) * w[k];
    return acc;
}

static void v8(const uint32_t *const *rows, int n, const uint32_t *w, int r, uint8_t *dst)
{
    int s = 0;
    for (; s + 2 * VL <= n; s += 2 * VL) {
        vu32 a = cf_simd_ld(rows[r] + s) * w[0], b = cf_simd_ld(rows[r] + s + VL) * w[0];
        for (int k = 1; k <= r; k++) {
            const uint32_t *p = rows[r + k] + s, *m = rows[r - k] + s;
            a += (cf_simd_ld(p) + cf_simd_ld(m)) * w[k];
            b += (cf_simd_ld(p + VL) + cf_simd_ld(m + VL)) * w[k];
        }
        store8(dst + s, (a + (1u << 23)) >> 24, VL);
        store8(dst + s + VL, (b + (1u << 23)) >> 24, VL);
    }
    for (; s < n; s += VL)
        store8(dst + s, (v_sum(rows, s, w, r) + (1u << 23)) >> 24, n - s < VL ? n - s : VL);
}

/* 16-bit samples: t = h * 2^16 + l with h < 2^8, so sum w t = 2^16 A + B
 * with A = sum w h < 2^24 and B = sum w l < 2^32, and
 * (2^16 A + B + 2^23) >> 24 = (A + (B >> 16) + 128) >> 8 exactly
 * (the low 16 bits of B plus 2^23 carry nothing past bit 23). */
static void v16(const uint32_t *const *rows, int n, const uint32_t *w, int r, int shift,
                uint8_t *dst)
{
    for (int s = 0; s < n; s += VL) {
        vu32 t = cf_simd_ld(rows[r] + s);
        vu32 a = (t >> 16) * w[0], b = (t & 0xffff) * w[0];
        for (int k = 1; k <= r; k++) {
            vu32 p = cf_simd_ld(rows[r + k] + s), m = cf_simd_ld(rows[r - k] + s);
            a += ((p >> 16) + (m >> 16)) * w[k];
            b += ((p & 0xffff) + (m & 0xffff)) * w[k];
        }
        vu32 q = ((a + (b >> 16) + 128) >> 8) << shift;
        uint16_t h[VL];
        cf_simd_st_u16(h, q, VL);
        memcpy(dst + 2 * (size_t)s, h, 2 * (size_t)(n - s < VL ? n - s : VL));
    }
}

static void widen8_16(const uint8_t *src, int n, uint16_t *line)
{
    for (int i = 0; i < n; i++)
        line[i] = src[i];
}

#if CF_SIMD_LEVEL >= 2 && defined(__x86_64__)

/* Integer vectors of the level, and the few operations the multiply-add
 * passes need (AVX2: 256 bits, AVX-512BW: 512). The unpacks and packs work
 * within 128-bit lanes: unpacking two vectors, multiplying and packing
 * back gives the samples in their own order. */
#if CF_SIMD_LEVEL >= 3
typedef __m512i vi;
#define LDI(p) _mm512_loadu_si512((const void *)(p))
#define STI(p, v) _mm512_storeu_si512((void *)(p), v)
#define ADD16 _mm512_add_epi16
#define ADD32 _mm512_add_epi32
#define UNPLO16 _mm512_unpacklo_epi16
#define UNPHI16 _mm512_unpackhi_epi16
#define MADD _mm512_madd_epi16
#define SET1_32 _mm512_set1_epi32
#define SET1_16 _mm512_set1_epi16
#define SRLI32 _mm512_srli_epi32
#define PACKUS32 _mm512_packus_epi32
#define XORI _mm512_xor_si512
#define ZEROI _mm512_setzero_si512
/* 32 16-bit values (below 256) to 32 bytes in order. */
static inline void st_bytes(uint8_t *d, vi v, int n)
{
    __m256i b = _mm512_cvtepi16_epi8(v);
    if (n >= 32)
        _mm256_storeu_si256((__m256i *)d, b);
    else {
        uint8_t t[32];
        _mm256_storeu_si256((__m256i *)t, b);
        memcpy(d, t, (size_t)n);
    }
}
#else
typedef __m256i vi;
#define LDI(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STI(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define ADD16 _mm256_add_epi16
#define ADD32 _mm256_add_epi32
#define UNPLO16 _mm256_unpacklo_epi16
#define UNPHI16 _mm256_unpackhi_epi16
#define MADD _mm256_madd_epi16
#define SET1_32 _mm256_set1_epi32
#define SET1_16 _mm256_set1_epi16
#define SRLI32 _mm256_srli_epi32
#define PACKUS32 _mm256_packus_epi32
#define XORI _mm256_xor_si256
#define ZEROI _mm256_setzero_si256
static inline void st_bytes(uint8_t *d, vi v, int n)
{
    __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi16(v, v), 0xd8);
    __m128i b = _mm256_castsi256_si128(p);
    if (n >= 16)
        _mm_storeu_si128((__m128i *)d, b);
    else {
        uint8_t t[16];
        _mm_storeu_si128((__m128i *)t, b);
        memcpy(d, t, (size_t)n);
    }
}
#endif
#define N16 ((int)(sizeof(vi) / 2)) /* 16-bit lanes */

static void h_madd(const uint16_t *line, int n, int step, const uint32_t *wp, int r, uint16_t *out)
{
    const uint16_t *c = line + (size_t)r * step;
    const vi round = SET1_32(128), bias = SET1_16((short)0x8000);
    for (int s = 0; s < n; s += N16) {
        vi lo = ZEROI(), hi = ZEROI();
        for (int k = 0; k <= r; k += 2) {
            vi a = k == 0 ? LDI(c + s) : ADD16(LDI(c + s - k * step), LDI(c + s + k * step));
            vi b = k + 1 <= r ? ADD16(LDI(c + s - (k + 1) * step), LDI(c + s + (k + 1) * step))
                              : ZEROI();
            vi w = SET1_32((int)wp[k / 2]);
            lo = ADD32(lo, MADD(UNPLO16(a, b), w));
            hi = ADD32(hi, MADD(UNPHI16(a, b), w));
        }
        /* Results are at most 255 * 256: packus keeps them as they are. */
        vi t = PACKUS32(SRLI32(ADD32(lo, round), 8), SRLI32(ADD32(hi, round), 8));
        STI(out + s, XORI(t, bias));
    }
}

static void v_madd(const int16_t *const *rows, int n, const uint32_t *wp, int r, uint8_t *dst)
{
    /* sum w t = sum w (t - 2^15) + 2^15 * 65536 = that + 2^31 (mod 2^32). */
    const vi round = SET1_32((int)(0x80000000u + (1u << 23)));
    const int taps = 2 * r + 1;
    for (int s = 0; s < n; s += N16) {
        vi lo = ZEROI(), hi = ZEROI();
        for (int t = 0; t < taps; t += 2) {
            vi a = LDI(rows[t] + s), b = t + 1 < taps ? LDI(rows[t + 1] + s) : ZEROI();
            vi w = SET1_32((int)wp[t / 2]);
            lo = ADD32(lo, MADD(UNPLO16(a, b), w));
            hi = ADD32(hi, MADD(UNPHI16(a, b), w));
        }
        vi q = PACKUS32(SRLI32(ADD32(lo, round), 24), SRLI32(ADD32(hi, round), 24));
        st_bytes(dst + s, q, n - s);
    }
}
#define H_MADD h_madd
#define V_MADD v_madd
#else
#define H_MADD NULL
#define V_MADD NULL
#endif

const cf_blur_simd CF_SIMD_NAME(cf_blur_simd) = {
    widen8, widen16, h_line, v8, v16, h_line16, v8_16, widen8_16, H_MADD, V_MADD,
};
