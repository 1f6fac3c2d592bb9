/* cudafilters convert: the sample-moving rows of the optimized CPU convert
 * (convert_cpu_copy_simd.h), plain loops over constant strides that the
 * compiler vectorizes for each level (meson.build compiles this file once
 * per level, like the other *_cpu_simd.c). */
#include "convert_cpu_copy_simd.h"
#include "simd.h"

/* The body for constant pixel sizes, so the loop vectorizes. */
static inline __attribute__((always_inline)) void rgb_body(const uint8_t *s, cf_cv_bytes in,
                                                            int n, uint8_t *d, cf_cv_bytes out,
                                                            int fill, const int ib, const int ob)
{
    const int pad = out.a >= 0 ? out.a : 6 - out.r - out.g - out.b;
    for (int x = 0; x < n; x++) {
        const uint8_t *p = s + (size_t)x * ib;
        uint8_t *q = d + (size_t)x * ob;
        uint8_t r = p[in.r], g = p[in.g], b = p[in.b];
        uint8_t a = fill >= 0 ? (uint8_t)fill : in.a >= 0 ? p[in.a] : 255;
        q[out.r] = r, q[out.g] = g, q[out.b] = b;
        if (ob == 4)
            q[pad] = a;
    }
}

static void rgb_to_rgb(const uint8_t *s, cf_cv_bytes in, int n, uint8_t *d, cf_cv_bytes out,
                       int fill)
{
    if (in.bpp == 4 && out.bpp == 4)
        rgb_body(s, in, n, d, out, fill, 4, 4);
    else if (in.bpp == 4)
        rgb_body(s, in, n, d, out, fill, 4, 3);
    else if (out.bpp == 4)
        rgb_body(s, in, n, d, out, fill, 3, 4);
    else
        rgb_body(s, in, n, d, out, fill, 3, 3);
}

static void samples16(const uint8_t *s, int n, int s_shift, int d_shift, uint8_t *d)
{
    for (int x = 0; x < n; x++) {
        uint16_t v;
        memcpy(&v, s + 2 * (size_t)x, 2);
        v = (uint16_t)((v >> s_shift) << d_shift);
        memcpy(d + 2 * (size_t)x, &v, 2);
    }
}

static inline __attribute__((always_inline)) void chroma8(const uint8_t *u, const uint8_t *v,
                                                           const int ss, int n, uint8_t *du,
                                                           uint8_t *dv, const int ds)
{
    for (int i = 0; i < n; i++) {
        uint8_t a = u[(size_t)i * ss], b = v[(size_t)i * ss];
        du[(size_t)i * ds] = a, dv[(size_t)i * ds] = b;
    }
}

static void chroma(const uint8_t *u, const uint8_t *v, int s_step, int n, int bytes, int s_shift,
                   int d_shift, uint8_t *du, uint8_t *dv, int d_step)
{
    if (bytes == 1) {
        if (s_step == 2 && d_step == 1)
            chroma8(u, v, 2, n, du, dv, 1);
        else if (s_step == 1 && d_step == 2)
            chroma8(u, v, 1, n, du, dv, 2);
        else
            chroma8(u, v, s_step, n, du, dv, d_step);
        return;
    }
    for (int i = 0; i < n; i++) {
        uint16_t a, b;
        memcpy(&a, u + 2 * (size_t)i * s_step, 2);
        memcpy(&b, v + 2 * (size_t)i * s_step, 2);
        a = (uint16_t)((a >> s_shift) << d_shift);
        b = (uint16_t)((b >> s_shift) << d_shift);
        memcpy(du + 2 * (size_t)i * d_step, &a, 2);
        memcpy(dv + 2 * (size_t)i * d_step, &b, 2);
    }
}

static void lut16(const uint8_t *s, int n, int s_bytes, int s_shift, const uint16_t *lut,
                  int d_bytes, uint8_t *d)
{
    for (int x = 0; x < n; x++) {
        uint16_t v = s[(size_t)x * s_bytes];
        if (s_bytes == 2) {
            memcpy(&v, s + 2 * (size_t)x, 2);
            v = (uint16_t)(v >> s_shift);
        }
        if (d_bytes == 1)
            d[x] = (uint8_t)lut[v];
        else
            memcpy(d + 2 * (size_t)x, &lut[v], 2);
    }
}

static void lut32(const uint8_t *s, int n, int s_bytes, int s_shift, const uint32_t *lut,
                  int d_bpp, uint8_t *d)
{
    for (int x = 0; x < n; x++) {
        uint16_t v = s[(size_t)x * s_bytes];
        if (s_bytes == 2) {
            memcpy(&v, s + 2 * (size_t)x, 2);
            v = (uint16_t)(v >> s_shift);
        }
        memcpy(d + (size_t)x * d_bpp, &lut[v], (size_t)d_bpp);
    }
}

static inline __attribute__((always_inline)) void gray_body(const uint8_t *s, cf_cv_bytes in,
                                                             int n, int32_t lr, int32_t lg,
                                                             int32_t lb, int d16, uint8_t *d,
                                                             const int ib)
{
    for (int x = 0; x < n; x++) {
        const uint8_t *p = s + (size_t)x * ib;
        uint32_t t = (uint32_t)(p[in.r] * lr + p[in.g] * lg + p[in.b] * lb);
        if (d16) {
            uint16_t v = (uint16_t)((t * 257u + (1u << 14)) >> 15);
            memcpy(d + 2 * (size_t)x, &v, 2);
        } else {
            d[x] = (uint8_t)((t + (1u << 14)) >> 15);
        }
    }
}

static void rgb_gray(const uint8_t *s, cf_cv_bytes in, int n, int32_t lr, int32_t lg, int32_t lb,
                     int d16, uint8_t *d)
{
    if (in.bpp == 4)
        gray_body(s, in, n, lr, lg, lb, d16, d, 4);
    else
        gray_body(s, in, n, lr, lg, lb, d16, d, 3);
}

const cf_convert_copy_simd CF_SIMD_NAME(cf_convert_copy_simd) = {
    rgb_to_rgb, samples16, chroma, lut16, lut32, rgb_gray,
};
