/* cudafilters scale: SIMD rows of the optimized CPU scale, written once with
 * vector extensions (simd.h) and compiled per level (meson.build); the
 * gathers are the level's own instructions. Declared in scale_cpu_simd.h. */
#include <stdbool.h>

#include "scale_cpu_simd.h"
#include "simd.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pixels are read as little-endian words"
#endif

typedef float vf32 __attribute__((vector_size(CF_SIMD_BYTES)));

static inline vs32 clamp_v(vs32 v, int32_t hi)
{
    v &= (vs32)(v > 0);
    vs32 big = (vs32)(v > hi);
    return (v & ~big) | (big & hi);
}

/* The 32-bit words at base + off[lane]. */
static inline vs32 gather(const uint8_t *base, vs32 off)
{
#if defined(__x86_64__) && CF_SIMD_LEVEL >= 3
    return (vs32)_mm512_i32gather_epi32((__m512i)off, (const void *)base, 1);
#elif defined(__x86_64__) && CF_SIMD_LEVEL == 2
    return (vs32)_mm256_i32gather_epi32((const int *)(const void *)base, (__m256i)off, 1);
#else
    int32_t o[VL];
    uint32_t t[VL];
    memcpy(o, &off, sizeof o);
    for (int l = 0; l < VL; l++)
        memcpy(&t[l], base + o[l], 4);
    return cf_simd_ld_s32(t);
#endif
}

/* A block's words when every tap it reads lies within 2 VL words of the
 * first (4-byte pixels): two loads and a permutation instead of a gather.
 * *near is the base (first byte offset), or -1 where the block is wider or
 * the loads would pass row_bytes; off_lo, off_hi: the smallest and largest
 * byte offset the block reads. */
static inline int32_t near_base(int step, int32_t off_lo, int32_t off_hi, int row_bytes)
{
#if CF_SIMD_LEVEL >= 2
    if (step == 4 && off_hi - off_lo < 2 * CF_SIMD_BYTES &&
        off_lo + 2 * CF_SIMD_BYTES <= row_bytes)
        return off_lo;
#else
    (void)step, (void)off_lo, (void)off_hi, (void)row_bytes;
#endif
    return -1;
}

/* The words at byte offsets off of row: permuted from two loads at base
 * (near_base >= 0) or gathered. */
static inline vs32 words_at(const uint8_t *row, vs32 off, int32_t base)
{
    if (base >= 0) {
        vs32 a = cf_simd_ld_s32(row + base), b = cf_simd_ld_s32(row + base + CF_SIMD_BYTES);
        return CF_SHUFFLE2(a, b, (off - base) >> 2);
    }
    return gather(row, off);
}

/* Component c of gathered words. */
static inline vs32 comp(vs32 w, int c, int sample_bytes, int shift)
{
    if (sample_bytes == 1)
        return (vs32)((vu32)w >> (8 * c)) & 0xff;
    return ((vs32)((vu32)w >> (16 * c)) & 0xffff) >> shift;
}

/* VL output pixels of cn components (v[c], in range) at d. */
static inline void store_px(uint8_t *d, const vs32 *v, int cn, int sample_bytes, int shift)
{
    if (sample_bytes == 1) {
        if (cn == 1) {
            cf_simd_st_u8(d, (vu32)v[0], VL);
        } else if (cn == 2) {
            cf_simd_st_u16((uint16_t *)(void *)d, (vu32)(v[0] | v[1] << 8), VL);
        } else if (cn == 4) {
            vs32 w = v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24;
            memcpy(d, &w, sizeof w);
        } else {
            uint32_t t[VL];
            vs32 w = v[0] | v[1] << 8 | v[2] << 16;
            memcpy(t, &w, sizeof w);
            for (int l = 0; l < VL; l++)
                d[3 * l] = (uint8_t)t[l], d[3 * l + 1] = (uint8_t)(t[l] >> 8),
                d[3 * l + 2] = (uint8_t)(t[l] >> 16);
        }
    } else if (cn == 1) {
        cf_simd_st_u16((uint16_t *)(void *)d, (vu32)(v[0] << shift), VL);
    } else {
        vs32 w = v[0] << shift | v[1] << (16 + shift);
        memcpy(d, &w, sizeof w);
    }
}

/* The source words of outputs dx .. dx + VL - 1 of a two-tap plan (of cn
 * bytes a pixel): p00, p01 at the two taps of rows[0], p10, p11 of
 * rows[1]; loaded as one span where the taps lie close (near_base). */
static inline __attribute__((always_inline)) void two_tap_words(const cf_sc_row *r, int dx,
                                                                int cn, vs32 *p00, vs32 *p01,
                                                                vs32 *p10, vs32 *p11)
{
    vs32 o0 = cf_simd_ld_s32(r->off + dx), o1 = cf_simd_ld_s32(r->off + r->stride + dx);
    int32_t lo = r->off[dx] < r->off[r->stride + dx] ? r->off[dx] : r->off[r->stride + dx];
    int32_t hi = r->off[dx + VL - 1] > r->off[r->stride + dx + VL - 1]
                     ? r->off[dx + VL - 1] : r->off[r->stride + dx + VL - 1];
    int32_t base = near_base(cn, lo, hi, r->row_bytes);
    *p00 = words_at(r->rows[0], o0, base), *p01 = words_at(r->rows[0], o1, base);
    *p10 = words_at(r->rows[1], o0, base), *p11 = words_at(r->rows[1], o1, base);
}

/* The bodies below are inlined with constant channel counts (and box
 * factors) where the frame has them, so the compiler keeps every channel
 * in registers. */
#define INLINE static inline __attribute__((always_inline))

INLINE void linear8_body(const cf_sc_row *r, int n, uint8_t *d, const int cn)
{
    const int32_t b0 = r->yw[0], b1 = r->yw[1];
    for (int dx = 0; dx < n; dx += VL) {
        vs32 a0 = cf_simd_ld_s32(r->xw + dx), a1 = cf_simd_ld_s32(r->xw + r->stride + dx);
        vs32 p00, p01, p10, p11;
        two_tap_words(r, dx, cn, &p00, &p01, &p10, &p11);
        vs32 out[4];
        for (int c = 0; c < cn; c++) {
            vs32 h0 = comp(p00, c, 1, 0) * a0 + comp(p01, c, 1, 0) * a1;
            vs32 h1 = comp(p10, c, 1, 0) * a0 + comp(p11, c, 1, 0) * a1;
            vs32 v = ((((h0 >> 4) * b0) >> 16) + (((h1 >> 4) * b1) >> 16) + 2) >> 2;
            out[c] = clamp_v(v, 255);
        }
        store_px(d + (size_t)dx * cn, out, cn, 1, 0);
    }
}

static void linear8(const cf_sc_row *r, int n, uint8_t *d)
{
    switch (r->cn) {
    case 1: linear8_body(r, n, d, 1); break;
    case 2: linear8_body(r, n, d, 2); break;
    case 3: linear8_body(r, n, d, 3); break;
    default: linear8_body(r, n, d, 4); break;
    }
}

typedef uint16_t vu16 __attribute__((vector_size(CF_SIMD_BYTES)));

/* (a * b) >> 16 in unsigned 16-bit lanes. */
static inline vu16 mulhi_u16(vu16 a, vu16 b)
{
#if defined(__x86_64__) && CF_SIMD_LEVEL >= 3
    return (vu16)_mm512_mulhi_epu16((__m512i)a, (__m512i)b);
#elif defined(__x86_64__) && CF_SIMD_LEVEL == 2
    return (vu16)_mm256_mulhi_epu16((__m256i)a, (__m256i)b);
#elif defined(__x86_64__)
    return (vu16)_mm_mulhi_epu16((__m128i)a, (__m128i)b);
#else
    vu16 out;
    for (int l = 0; l < (int)(sizeof a / 2); l++)
        out[l] = (uint16_t)(((uint32_t)a[l] * b[l]) >> 16);
    return out;
#endif
}

/* h >> 4 of one source row for bytes 0 and 2 (m = lo) or 1 and 3 (hi) of
 * each word, in 16-bit halves: with a = 16 ah + al, h >> 4 = p0 ah0 +
 * p1 ah1 + ((p0 al0 + p1 al1) >> 4) exactly, every term below 2^16 while
 * the two weights are >= 0 and sum to at most 2049 (scale_cpu_fast.c
 * checks). */
static inline vu16 h16(vu16 p0, vu16 p1, vu16 ah0, vu16 ah1, vu16 al0, vu16 al1)
{
    return p0 * ah0 + p1 * ah1 + ((p0 * al0 + p1 * al1) >> 4);
}

/* linear8 in 16-bit lanes: every byte of the gathered words at once (the
 * bytes beyond cn belong to neighbouring pixels and are never stored). */
static void linear8_16(const cf_sc_row *r, int n, uint8_t *d)
{
    const int cn = r->cn;
    const vu16 b0 = (vu16){ 0 } + (uint16_t)r->yw[0], b1 = (vu16){ 0 } + (uint16_t)r->yw[1];
    for (int dx = 0; dx < n; dx += VL) {
        vs32 a0 = cf_simd_ld_s32(r->xw + dx), a1 = cf_simd_ld_s32(r->xw + r->stride + dx);
        vu16 ah0 = (vu16)((a0 >> 4) * 0x10001), ah1 = (vu16)((a1 >> 4) * 0x10001);
        vu16 al0 = (vu16)((a0 & 15) * 0x10001), al1 = (vu16)((a1 & 15) * 0x10001);
        vs32 p00, p01, p10, p11;
        two_tap_words(r, dx, cn, &p00, &p01, &p10, &p11);
        vs32 out = { 0 };
        for (int half = 0; half < 2; half++) {
            const int sh = 8 * half;
            vu16 q00 = (vu16)((p00 >> sh) & 0x00ff00ff), q01 = (vu16)((p01 >> sh) & 0x00ff00ff);
            vu16 q10 = (vu16)((p10 >> sh) & 0x00ff00ff), q11 = (vu16)((p11 >> sh) & 0x00ff00ff);
            vu16 h0 = h16(q00, q01, ah0, ah1, al0, al1), h1 = h16(q10, q11, ah0, ah1, al0, al1);
            vu16 v = (mulhi_u16(h0, b0) + mulhi_u16(h1, b1) + 2) >> 2;
            vu16 big = (vu16)(v > 255);
            v = (v & ~big) | (big & 255);
            out |= (vs32)v << sh;
        }
        vs32 c[4] = { out & 0xff, (out >> 8) & 0xff, (out >> 16) & 0xff, (vs32)((vu32)out >> 24) };
        if (cn == 4)
            memcpy(d + (size_t)dx * 4, &out, sizeof out);
        else
            store_px(d + (size_t)dx * cn, c, cn, 1, 0);
    }
}

static void general(const cf_sc_row *r, int n, uint8_t *d)
{
    const int cn = r->cn, sb = r->sample_bytes;
    for (int dx = 0; dx < n; dx += VL) {
        vs32 hi[4] = { { 0 } }, lo[4] = { { 0 } };
        int32_t first = r->off[dx], last = r->off[dx + VL - 1];
        for (int i = 1; i < r->tx; i++) {
            int32_t a = r->off[(size_t)i * r->stride + dx], b = r->off[(size_t)i * r->stride + dx + VL - 1];
            first = a < first ? a : first;
            last = b > last ? b : last;
        }
        int32_t near = near_base(cn * sb, first, last, r->row_bytes);
        for (int k = 0; k < r->ty; k++) {
            vs32 h[4] = { { 0 } };
            for (int i = 0; i < r->tx; i++) {
                vs32 p = words_at(r->rows[k], cf_simd_ld_s32(r->off + (size_t)i * r->stride + dx), near);
                vs32 a = cf_simd_ld_s32(r->xw + (size_t)i * r->stride + dx);
                for (int c = 0; c < cn; c++)
                    h[c] += comp(p, c, sb, r->shift) * a;
            }
            const int32_t b = r->yw[k];
            for (int c = 0; c < cn; c++) {
                hi[c] += (h[c] >> 11) * b;
                lo[c] += (h[c] & 2047) * b;
            }
        }
        vs32 out[4];
        for (int c = 0; c < cn; c++)
            out[c] = clamp_v((hi[c] + ((lo[c] + (1 << 21)) >> 11)) >> 11, r->maxval);
        store_px(d + (size_t)dx * cn * sb, out, cn, sb, r->shift);
    }
}

INLINE void box_body(const cf_sc_box_row *r, int n, uint8_t *d, const int cn, const int sb,
                     const int kx, const int ky)
{
    const int step = cn * sb;
    vs32 iota;
    for (int l = 0; l < VL; l++)
        iota[l] = l;
    const vs32 lane_off = iota * (kx * step);
    const vf32 area = (vf32){ 0 } + (float)r->area;
    for (int dx = 0; dx < n; dx += VL) {
        vs32 sum[4] = { { 0 } };
        int32_t first = (r->x0 + dx * kx) * step;
        vs32 base = lane_off + first;
        int32_t near = near_base(step, first, first + (VL * kx - 1) * step, r->row_bytes);
        for (int j = 0; j < ky; j++)
            for (int i = 0; i < kx; i++) {
                vs32 p = words_at(r->rows[j], base + i * step, near);
                for (int c = 0; c < cn; c++)
                    sum[c] += comp(p, c, sb, r->shift);
            }
        vs32 out[4];
        for (int c = 0; c < cn; c++) {
            vs32 t = sum[c] + r->area / 2;
            if (r->log2_area >= 0)
                out[c] = (vs32)((vu32)t >> r->log2_area);
            else
                out[c] = __builtin_convertvector(__builtin_convertvector(t, vf32) / area, vs32);
        }
        store_px(d + (size_t)dx * step, out, cn, sb, r->shift);
    }
}

/* 8-bit box means of at most 256 samples, a power of two: every byte of
 * the words at once, bytes 0 and 2 (then 1 and 3) summed in 16-bit halves
 * (at most 256 x 255 + 128 < 2^16). */
INLINE void box8_halves(const cf_sc_box_row *r, int n, uint8_t *d, const int cn, const int kx,
                        const int ky)
{
    vs32 iota;
    for (int l = 0; l < VL; l++)
        iota[l] = l;
    const vs32 lane_off = iota * (kx * cn);
    const vu16 half = (vu16){ 0 } + (uint16_t)(r->area / 2);
    for (int dx = 0; dx < n; dx += VL) {
        int32_t first = (r->x0 + dx * kx) * cn;
        vs32 base = lane_off + first;
        int32_t near = near_base(cn, first, first + (VL * kx - 1) * cn, r->row_bytes);
        vu16 lo = half, hi = half;
        for (int j = 0; j < ky; j++)
            for (int i = 0; i < kx; i++) {
                vs32 p = words_at(r->rows[j], base + i * cn, near);
                lo += (vu16)(p & 0x00ff00ff);
                hi += (vu16)((p >> 8) & 0x00ff00ff);
            }
        vs32 out = (vs32)(lo >> r->log2_area) | (vs32)(hi >> r->log2_area) << 8;
        if (cn == 4) {
            memcpy(d + (size_t)dx * 4, &out, sizeof out);
        } else {
            vs32 c[3] = { out & 0xff, (out >> 8) & 0xff, (out >> 16) & 0xff };
            store_px(d + (size_t)dx * cn, c, cn, 1, 0);
        }
    }
}

static void box(const cf_sc_box_row *r, int n, uint8_t *d)
{
    bool halves = r->sample_bytes == 1 && r->log2_area >= 0 && r->area <= 256;
    if (halves && r->cn == 4 && r->kx == 2 && r->ky == 2)
        box8_halves(r, n, d, 4, 2, 2);
    else if (halves && r->cn == 4)
        box8_halves(r, n, d, 4, r->kx, r->ky);
    else if (halves)
        box8_halves(r, n, d, r->cn, r->kx, r->ky);
    else if (r->sample_bytes == 1 && r->cn == 4 && r->kx == 2 && r->ky == 2)
        box_body(r, n, d, 4, 1, 2, 2);
    else if (r->sample_bytes == 1 && r->cn == 1 && r->kx == 2 && r->ky == 2)
        box_body(r, n, d, 1, 1, 2, 2);
    else if (r->sample_bytes == 1 && r->cn == 2 && r->kx == 2 && r->ky == 2)
        box_body(r, n, d, 2, 1, 2, 2);
    else if (r->sample_bytes == 1 && r->cn == 4)
        box_body(r, n, d, 4, 1, r->kx, r->ky);
    else
        box_body(r, n, d, r->cn, r->sample_bytes, r->kx, r->ky);
}

const cf_scale_simd CF_SIMD_NAME(cf_scale_simd) = { linear8, linear8_16, general, box };
