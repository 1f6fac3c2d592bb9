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

static void h_line(const uint32_t *line, int n, int step, const uint32_t *w, int r, uint32_t *out)
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
        cf_simd_st(out + s, (a + 128) >> 8);
        cf_simd_st(out + s + VL, (b + 128) >> 8);
    }
    for (; s < n; s += VL)
        cf_simd_st(out + s, (h_sum(c + s, step, w, r) + 128) >> 8);
}

static inline void store8(uint8_t *dst, vu32 q, int lanes)
{
    vu8q b = __builtin_convertvector(q, vu8q);
    memcpy(dst, &b, (size_t)lanes);
}

static inline void store16(uint16_t *out, vu32 t)
{
    vu16h h = __builtin_convertvector(t, vu16h);
    memcpy(out, &h, sizeof h);
}

static void h_line16(const uint32_t *line, int n, int step, const uint32_t *w, int r,
                     uint16_t *out)
{
    const uint32_t *c = line + (size_t)r * step;
    int s = 0;
    for (; s + 2 * VL <= n; s += 2 * VL) {
        vu32 a = cf_simd_ld(c + s) * w[0], b = cf_simd_ld(c + s + VL) * w[0];
        const uint32_t *lo = c + s, *hi = c + s;
        for (int k = 1; k <= r; k++) {
            lo -= step;
            hi += step;
            a += (cf_simd_ld(lo) + cf_simd_ld(hi)) * w[k];
            b += (cf_simd_ld(lo + VL) + cf_simd_ld(hi + VL)) * w[k];
        }
        store16(out + s, (a + 128) >> 8);
        store16(out + s + VL, (b + 128) >> 8);
    }
    for (; s < n; s += VL)
        store16(out + s, (h_sum(c + s, step, w, r) + 128) >> 8);
}

static inline vu32 ld16(const uint16_t *p)
{
    vu16h h;
    memcpy(&h, p, sizeof h);
    return __builtin_convertvector(h, vu32);
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
        vu16h h = __builtin_convertvector(q, vu16h);
        memcpy(dst + 2 * (size_t)s, &h, 2 * (size_t)(n - s < VL ? n - s : VL));
    }
}

const cf_blur_simd CF_SIMD_NAME(cf_blur_simd) = { widen8, widen16, h_line, v8, v16, h_line16,
                                                     v8_16 };
