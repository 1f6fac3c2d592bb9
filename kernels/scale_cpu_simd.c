/* cudafilters scale: SIMD rows of the optimized CPU scale, written once with
 * vector extensions (simd.h) and compiled per level (meson.build); the
 * gathers are the level's own instructions. Declared in scale_cpu_simd.h. */
#include "scale_cpu_simd.h"
#include "simd.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pixels are read as little-endian words"
#endif

typedef int32_t vs32 __attribute__((vector_size(CF_SIMD_BYTES)));
typedef float vf32 __attribute__((vector_size(CF_SIMD_BYTES)));

static inline vs32 ld_s32(const void *p)
{
    vs32 v;
    memcpy(&v, p, sizeof v);
    return v;
}

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
    return ld_s32(t);
#endif
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

static void linear8(const cf_sc_row *r, int n, uint8_t *d)
{
    const int cn = r->cn;
    const int32_t b0 = r->yw[0], b1 = r->yw[1];
    for (int dx = 0; dx < n; dx += VL) {
        vs32 o0 = ld_s32(r->off + dx), o1 = ld_s32(r->off + r->stride + dx);
        vs32 a0 = ld_s32(r->xw + dx), a1 = ld_s32(r->xw + r->stride + dx);
        vs32 p00 = gather(r->rows[0], o0), p01 = gather(r->rows[0], o1);
        vs32 p10 = gather(r->rows[1], o0), p11 = gather(r->rows[1], o1);
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

static void general(const cf_sc_row *r, int n, uint8_t *d)
{
    const int cn = r->cn, sb = r->sample_bytes;
    for (int dx = 0; dx < n; dx += VL) {
        vs32 hi[4] = { { 0 } }, lo[4] = { { 0 } };
        for (int k = 0; k < r->ty; k++) {
            vs32 h[4] = { { 0 } };
            for (int i = 0; i < r->tx; i++) {
                vs32 p = gather(r->rows[k], ld_s32(r->off + (size_t)i * r->stride + dx));
                vs32 a = ld_s32(r->xw + (size_t)i * r->stride + dx);
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

static void box(const cf_sc_box_row *r, int n, uint8_t *d)
{
    const int cn = r->cn, sb = r->sample_bytes, step = cn * sb;
    vs32 iota;
    for (int l = 0; l < VL; l++)
        iota[l] = l;
    const vs32 lane_off = iota * (r->kx * step);
    const vf32 area = (vf32){ 0 } + (float)r->area;
    for (int dx = 0; dx < n; dx += VL) {
        vs32 sum[4] = { { 0 } };
        vs32 base = lane_off + (r->x0 + dx * r->kx) * step;
        for (int j = 0; j < r->ky; j++)
            for (int i = 0; i < r->kx; i++) {
                vs32 p = gather(r->rows[j], base + i * step);
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

const cf_scale_simd CF_SIMD_NAME(cf_scale_simd) = { linear8, general, box };
