/* cudafilters convert: SIMD rows of the optimized CPU convert, written once
 * with vector extensions (simd.h) and compiled per level (meson.build).
 * Declared in convert_cpu_simd.h, which states what each function
 * computes; the scalar tails run the same integers one pixel at a time. */
#include "convert_cpu_simd.h"
#include "simd.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pixels are read as little-endian words"
#endif

/* Lane permutations: the even and odd lanes of two vectors (a then b), and
 * the zip of two vectors' lanes (lo: the first halves, hi: the second). */
#if VL == 4
#define EVEN_LANES { 0, 2, 4, 6 }
#define ODD_LANES { 1, 3, 5, 7 }
#define ZIP_LO { 0, 4, 1, 5 }
#define ZIP_HI { 2, 6, 3, 7 }
#define SHIFT1 { 3, 4, 5, 6 }
#elif VL == 8
#define EVEN_LANES { 0, 2, 4, 6, 8, 10, 12, 14 }
#define ODD_LANES { 1, 3, 5, 7, 9, 11, 13, 15 }
#define ZIP_LO { 0, 8, 1, 9, 2, 10, 3, 11 }
#define ZIP_HI { 4, 12, 5, 13, 6, 14, 7, 15 }
#define SHIFT1 { 7, 8, 9, 10, 11, 12, 13, 14 }
#else
#define EVEN_LANES { 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 }
#define ODD_LANES { 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31 }
#define ZIP_LO { 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23 }
#define ZIP_HI { 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31 }
#define SHIFT1 { 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30 }
#endif
/* SHIFT1: the last lane of a, then the lanes of b but its last (a vector
 * one lane later in memory). */

static inline vs32 clamp_v(vs32 v, int32_t hi)
{
    v &= (vs32)(v > 0);
    vs32 big = (vs32)(v > hi);
    return (v & ~big) | (big & hi);
}

static inline int32_t clamp_s(int32_t v, int32_t hi)
{
    return v < 0 ? 0 : v > hi ? hi : v;
}

/* Words 2m and 2m + 1 of the 2 VL words at p, for m in [0, VL). */
static inline void ld_pairs(const uint8_t *p, vs32 *even, vs32 *odd)
{
    vs32 a = cf_simd_ld_s32(p), b = cf_simd_ld_s32(p + CF_SIMD_BYTES);
    *even = CF_SHUFFLE2(a, b, (vs32)EVEN_LANES);
    *odd = CF_SHUFFLE2(a, b, (vs32)ODD_LANES);
}

static void chroma_mix(const uint8_t *ua, const uint8_t *va, const uint8_t *ub, const uint8_t *vb,
                       int step, int bytes, int shift, int fa, int fb, int cw, int32_t *cu,
                       int32_t *cv)
{
    if (bytes == 1 && step == 1) {
        for (int i = 0; i < cw; i++) {
            cu[i] = fa * ua[i] + fb * ub[i];
            cv[i] = fa * va[i] + fb * vb[i];
        }
    } else if (bytes == 1) {
        for (int i = 0; i < cw; i++) {
            cu[i] = fa * ua[2 * i] + fb * ub[2 * i];
            cv[i] = fa * va[2 * i] + fb * vb[2 * i];
        }
    } else {
        const uint16_t *a = (const uint16_t *)(const void *)ua, *b = (const uint16_t *)(const void *)ub;
        const uint16_t *c = (const uint16_t *)(const void *)va, *e = (const uint16_t *)(const void *)vb;
        for (int i = 0; i < cw; i++) {
            uint16_t s0, s1, s2, s3;
            memcpy(&s0, a + (size_t)i * step, 2);
            memcpy(&s1, b + (size_t)i * step, 2);
            memcpy(&s2, c + (size_t)i * step, 2);
            memcpy(&s3, e + (size_t)i * step, 2);
            cu[i] = fa * (s0 >> shift) + fb * (s1 >> shift);
            cv[i] = fa * (s2 >> shift) + fb * (s3 >> shift);
        }
    }
    cu[-1] = cu[0], cv[-1] = cv[0];
    cu[cw] = cu[cw - 1], cv[cw] = cv[cw - 1];
}

static inline uint32_t rgb_word_s(const cf_cv_to_rgb *k, int32_t yv, int32_t u16, int32_t v16)
{
    int32_t yy = k->cy16 * (yv - k->y_lo) + (1 << 17);
    int32_t u = u16 - k->c_mid16, v = v16 - k->c_mid16;
    uint32_t r = (uint32_t)clamp_s((yy + k->crv * v) >> 18, 255);
    uint32_t g = (uint32_t)clamp_s((yy + k->cgu * u + k->cgv * v) >> 18, 255);
    uint32_t b = (uint32_t)clamp_s((yy + k->cbu * u) >> 18, 255);
    return r << k->rs | g << k->gs | b << k->bs | k->fill;
}

static inline vs32 rgb_word_v(const cf_cv_to_rgb *k, vs32 yv, vs32 u16, vs32 v16)
{
    vs32 yy = (yv - k->y_lo) * k->cy16 + (1 << 17);
    vs32 u = u16 - k->c_mid16, v = v16 - k->c_mid16;
    vs32 r = clamp_v((yy + v * k->crv) >> 18, 255);
    vs32 g = clamp_v((yy + u * k->cgu + v * k->cgv) >> 18, 255);
    vs32 b = clamp_v((yy + u * k->cbu) >> 18, 255);
    return r << k->rs | g << k->gs | b << k->bs | (vs32)((vu32){ 0 } + k->fill);
}

static void yuv_to_rgb4(const cf_cv_to_rgb *k, const uint8_t *y, const int32_t *cu,
                        const int32_t *cv, int w, uint8_t *d)
{
    int c = 0; /* chroma column, pixels 2c and 2c + 1 */
    for (; 2 * (c + VL) <= w; c += VL) {
        vs32 ye, yo;
        if (k->y_bytes == 1) {
            vs32 p = (vs32)cf_simd_ld_u16((const uint16_t *)(const void *)(y + 2 * (size_t)c));
            ye = p & 0xff, yo = p >> 8;
        } else {
            vs32 p = cf_simd_ld_s32(y + 4 * (size_t)c);
            ye = (p & 0xffff) >> k->y_shift;
            yo = (vs32)((vu32)p >> 16) >> k->y_shift;
        }
        vs32 um = cf_simd_ld_s32(cu + c - 1), u0 = cf_simd_ld_s32(cu + c), up = cf_simd_ld_s32(cu + c + 1);
        vs32 vm = cf_simd_ld_s32(cv + c - 1), v0 = cf_simd_ld_s32(cv + c), vp = cf_simd_ld_s32(cv + c + 1);
        vs32 we = rgb_word_v(k, ye, um * k->e0 + u0 * k->e1, vm * k->e0 + v0 * k->e1);
        vs32 wo = rgb_word_v(k, yo, u0 * k->o1 + up * k->o2, v0 * k->o1 + vp * k->o2);
        cf_simd_st_s32(d + 8 * (size_t)c, CF_SHUFFLE2(we, wo, (vs32)ZIP_LO));
        cf_simd_st_s32(d + 8 * (size_t)c + CF_SIMD_BYTES, CF_SHUFFLE2(we, wo, (vs32)ZIP_HI));
    }
    for (int x = 2 * c; x < w; x++) {
        int i = x >> 1;
        int32_t yv;
        if (k->y_bytes == 1) {
            yv = y[x];
        } else {
            uint16_t s;
            memcpy(&s, y + 2 * (size_t)x, 2);
            yv = s >> k->y_shift;
        }
        int32_t u16 = x & 1 ? k->o1 * cu[i] + k->o2 * cu[i + 1] : k->e0 * cu[i - 1] + k->e1 * cu[i];
        int32_t v16 = x & 1 ? k->o1 * cv[i] + k->o2 * cv[i + 1] : k->e0 * cv[i - 1] + k->e1 * cv[i];
        uint32_t word = rgb_word_s(k, yv, u16, v16);
        memcpy(d + 4 * (size_t)x, &word, 4);
    }
}

/* Per 32-bit lane: lo16(a) lo16(b) + hi16(a) hi16(b), signed 16-bit halves. */
static inline vs32 madd16(vs32 a, vs32 b)
{
#if defined(__x86_64__) && CF_SIMD_LEVEL >= 3
    return (vs32)_mm512_madd_epi16((__m512i)a, (__m512i)b);
#elif defined(__x86_64__) && CF_SIMD_LEVEL == 2
    return (vs32)_mm256_madd_epi16((__m256i)a, (__m256i)b);
#elif defined(__x86_64__)
    return (vs32)_mm_madd_epi16((__m128i)a, (__m128i)b);
#else
    return ((a << 16) >> 16) * ((b << 16) >> 16) + (a >> 16) * (b >> 16);
#endif
}

/* Weights of bytes 0, 2 (pair 0) and 1, 3 (pair 1) as 16-bit pairs. */
static inline vs32 pair_w(const int32_t *w, int first)
{
    return (vs32){ 0 } + (int32_t)(((uint32_t)w[first] & 0xffff) | (uint32_t)w[first + 2] << 16);
}

static void rgb4_luma(const cf_cv_to_yuv *k, const uint8_t *s, int n, int d_bytes, int d_shift,
                      uint8_t *d)
{
    const int32_t add = (k->y_lo << 14) + (1 << 13);
    int x = 0;
    const vs32 w02 = pair_w(k->wy, 0), w13 = pair_w(k->wy, 1);
    for (; k->madd && x + VL <= n; x += VL) {
        vs32 p = cf_simd_ld_s32(s + 4 * (size_t)x);
        vs32 t = madd16(p & 0x00ff00ff, w02) + madd16((p >> 8) & 0x00ff00ff, w13) + add;
        vs32 yv = clamp_v(t >> 14, k->ymax);
        if (d_bytes == 1)
            cf_simd_st_u8(d + x, (vu32)yv, VL);
        else
            cf_simd_st_u16((uint16_t *)(void *)(d + 2 * (size_t)x), (vu32)(yv << d_shift), VL);
    }
    for (; x + VL <= n; x += VL) {
        vs32 p = cf_simd_ld_s32(s + 4 * (size_t)x);
        vs32 t = (p & 0xff) * k->wy[0] + ((p >> 8) & 0xff) * k->wy[1] +
                 ((p >> 16) & 0xff) * k->wy[2] + (vs32)((vu32)p >> 24) * k->wy[3] + add;
        vs32 yv = clamp_v(t >> 14, k->ymax);
        if (d_bytes == 1)
            cf_simd_st_u8(d + x, (vu32)yv, VL);
        else
            cf_simd_st_u16((uint16_t *)(void *)(d + 2 * (size_t)x), (vu32)(yv << d_shift), VL);
    }
    for (; x < n; x++) {
        const uint8_t *p = s + 4 * (size_t)x;
        int32_t t = p[0] * k->wy[0] + p[1] * k->wy[1] + p[2] * k->wy[2] + p[3] * k->wy[3] + add;
        int32_t yv = clamp_s(t >> 14, k->ymax);
        if (d_bytes == 1) {
            d[x] = (uint8_t)yv;
        } else {
            uint16_t o = (uint16_t)(yv << d_shift);
            memcpy(d + 2 * (size_t)x, &o, 2);
        }
    }
}

/* Sums of bytes 0 and 2 (lo) and 1 and 3 (hi) of words, in 16-bit halves. */
#define LO(w) ((w) & 0x00ff00ff)
#define HI(w) (((w) >> 8) & 0x00ff00ff)

static inline vs32 chroma_v(const int32_t *wt, vs32 lo, vs32 hi, int32_t add, int n, int32_t max,
                            int madd)
{
    if (madd)
        return clamp_v((madd16(lo, pair_w(wt, 0)) + madd16(hi, pair_w(wt, 1)) + add) >> n, max);
    vs32 t = (lo & 0xffff) * wt[0] + (hi & 0xffff) * wt[1] + (vs32)((vu32)lo >> 16) * wt[2] +
             (vs32)((vu32)hi >> 16) * wt[3] + add;
    return clamp_v(t >> n, max);
}

/* One chroma sample (i) the scalar way: the weighted byte sums, then the
 * weights. */
static void chroma_s(const cf_cv_to_yuv *k, const uint8_t *r0, const uint8_t *r1, int i,
                     int32_t *u, int32_t *v)
{
    static const int n_of[] = { 14, 16, 17 };
    int32_t s[4] = { 0, 0, 0, 0 };
    for (int b = 0; b < 4; b++) {
        if (k->mode == 0)
            s[b] = r0[8 * i + b];
        else if (k->mode == 1)
            s[b] = r0[8 * i + b] + r0[8 * i + 4 + b] + r1[8 * i + b] + r1[8 * i + 4 + b];
        else
            s[b] = r0[8 * i - 4 + b] + 2 * r0[8 * i + b] + r0[8 * i + 4 + b] + r1[8 * i - 4 + b] +
                   2 * r1[8 * i + b] + r1[8 * i + 4 + b];
    }
    int n = n_of[k->mode];
    int32_t add = (k->c_mid << n) + (1 << (n - 1));
    *u = clamp_s((s[0] * k->wu[0] + s[1] * k->wu[1] + s[2] * k->wu[2] + s[3] * k->wu[3] + add) >> n,
                 k->ymax);
    *v = clamp_s((s[0] * k->wv[0] + s[1] * k->wv[1] + s[2] * k->wv[2] + s[3] * k->wv[3] + add) >> n,
                 k->ymax);
}

static void rgb4_chroma(const cf_cv_to_yuv *k, const uint8_t *r0, const uint8_t *r1, int i0,
                        int i1, int32_t *u, int32_t *v)
{
    static const int n_of[] = { 14, 16, 17 };
    const int n = n_of[k->mode];
    const int32_t add = (k->c_mid << n) + (1 << (n - 1));
    int i = i0;
    /* Left siting's pixel 2i - 1: the odd words of the block before, one
     * lane on (the first block's from its pixel). */
    vs32 prev0 = { 0 }, prev1 = { 0 };
    if (k->mode == 2 && i0 >= 1) {
        memcpy((int32_t *)&prev0 + VL - 1, r0 + 8 * (size_t)i0 - 4, 4);
        memcpy((int32_t *)&prev1 + VL - 1, r1 + 8 * (size_t)i0 - 4, 4);
    }
    for (; i + VL <= i1; i += VL) {
        vs32 e0, o0, e1, o1, lo, hi;
        ld_pairs(r0 + 8 * (size_t)i, &e0, &o0);
        if (k->mode == 0) {
            lo = LO(e0), hi = HI(e0);
        } else {
            ld_pairs(r1 + 8 * (size_t)i, &e1, &o1);
            if (k->mode == 1) {
                lo = LO(e0) + LO(o0) + LO(e1) + LO(o1);
                hi = HI(e0) + HI(o0) + HI(e1) + HI(o1);
            } else {
                vs32 p0 = CF_SHUFFLE2(prev0, o0, (vs32)SHIFT1);
                vs32 p1 = CF_SHUFFLE2(prev1, o1, (vs32)SHIFT1);
                prev0 = o0, prev1 = o1;
                lo = LO(p0) + 2 * LO(e0) + LO(o0) + LO(p1) + 2 * LO(e1) + LO(o1);
                hi = HI(p0) + 2 * HI(e0) + HI(o0) + HI(p1) + 2 * HI(e1) + HI(o1);
            }
        }
        cf_simd_st_s32(u + i, chroma_v(k->wu, lo, hi, add, n, k->ymax, k->madd));
        cf_simd_st_s32(v + i, chroma_v(k->wv, lo, hi, add, n, k->ymax, k->madd));
    }
    for (; i < i1; i++)
        chroma_s(k, r0, r1, i, u + i, v + i);
}

static void rgb3_to_words(const uint8_t *s, int n, uint32_t *w)
{
    for (int x = 0; x < n; x++)
        w[x] = (uint32_t)s[3 * x] | (uint32_t)s[3 * x + 1] << 8 | (uint32_t)s[3 * x + 2] << 16;
}

static void words_to_rgb3(const uint32_t *w, int n, uint8_t *d)
{
    for (int x = 0; x < n; x++) {
        d[3 * x] = (uint8_t)w[x];
        d[3 * x + 1] = (uint8_t)(w[x] >> 8);
        d[3 * x + 2] = (uint8_t)(w[x] >> 16);
    }
}

static void store_chroma(const int32_t *u, const int32_t *v, int n, int semi_planar, int bytes,
                         int shift, uint8_t *d1, uint8_t *d2)
{
    if (bytes == 1 && semi_planar) {
        for (int i = 0; i < n; i++)
            d1[2 * i] = (uint8_t)u[i], d1[2 * i + 1] = (uint8_t)v[i];
    } else if (bytes == 1) {
        for (int i = 0; i < n; i++)
            d1[i] = (uint8_t)u[i], d2[i] = (uint8_t)v[i];
    } else if (semi_planar) {
        for (int i = 0; i < n; i++) {
            uint16_t a = (uint16_t)(u[i] << shift), b = (uint16_t)(v[i] << shift);
            memcpy(d1 + 4 * (size_t)i, &a, 2);
            memcpy(d1 + 4 * (size_t)i + 2, &b, 2);
        }
    } else {
        for (int i = 0; i < n; i++) {
            uint16_t a = (uint16_t)(u[i] << shift), b = (uint16_t)(v[i] << shift);
            memcpy(d1 + 2 * (size_t)i, &a, 2);
            memcpy(d2 + 2 * (size_t)i, &b, 2);
        }
    }
}

static uint32_t or_u16(const uint8_t *s, int n)
{
    uint16_t acc = 0;
    for (int i = 0; i < n; i++) {
        uint16_t v;
        memcpy(&v, s + 2 * (size_t)i, 2);
        acc |= v;
    }
    return acc;
}

const cf_convert_simd CF_SIMD_NAME(cf_convert_simd) = {
    chroma_mix,    yuv_to_rgb4,  rgb4_luma, rgb4_chroma, rgb3_to_words,
    words_to_rgb3, store_chroma, or_u16,
};
