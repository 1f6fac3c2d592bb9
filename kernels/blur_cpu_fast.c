/* cudafilters blur: the optimized CPU blur (blur_cpu_fast.h). The passes
 * are blur.h's, bit for bit. Usually fused (fused_rows): each thread takes
 * a slice of rows and, strip of columns by strip, keeps the horizontal
 * results of the rows its next output row needs in a ring that stays in
 * its L2 cache (16-bit results for 8-bit samples, and 16-bit multiply-adds
 * where the level has them and the taps allow). Frames too short for a
 * slice a thread several kernel radii tall go the reference's way: every
 * row's horizontal pass into 32-bit results, then the vertical pass in
 * strips of columns. Borders are resolved outside the inner loops: a row
 * is widened into a padded line with its border samples in place, and the
 * vertical pass reads row pointers (the folded row, or a row of the
 * constant border). */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "blur_cpu_fast.h"
#include "blur_cpu_simd.h"
#include "cpu_dispatch.h"
#include "parallel.h"

static const void *const levels[CF_CPU_LEVELS] = {
    NULL,
#if CF_SIMD_MAX_LEVEL >= 1
    &cf_blur_simd_baseline,
#else
    NULL,
#endif
#if CF_SIMD_MAX_LEVEL >= 2
    &cf_blur_simd_avx2,
#else
    NULL,
#endif
#if CF_SIMD_MAX_LEVEL >= 3
    &cf_blur_simd_avx512,
#else
    NULL,
#endif
};

/* Bytes of the vertical pass's working set per strip: half a typical L2. */
#define STRIP_BYTES (256 * 1024)

typedef struct blur_job {
    const cf_blur_simd *fn;
    const cf_blur_plane *pl;
    int rx, ry, samples; /* radii; samples per row (width * channels) */
    uint32_t wx[CF_BLUR_MAX_KSIZE / 2 + 1], wy[CF_BLUR_MAX_KSIZE / 2 + 1];
    uint32_t *tmp;       /* height rows of tp samples */
    size_t tp;           /* samples per tmp row (a multiple of 16, at least samples + 15) */
    const uint32_t *border_row; /* tp samples of border_value << 8 */
    uint32_t *lines;     /* one padded line per slot, line_len samples each */
    size_t line_len;
    int strip;           /* samples per strip of the vertical pass */
    bool madd;           /* fused with the 16-bit multiply-add passes */
    uint32_t wpx[CF_BLUR_MAX_KSIZE / 4 + 1], wpy[CF_BLUR_MAX_KSIZE / 2 + 1]; /* their weights */
} blur_job;

static bool symmetric(const cf_blur_kernel *k)
{
    for (int i = 0; i < k->size / 2; i++)
        if (k->w[i] != k->w[k->size - 1 - i])
            return false;
    return true;
}

/* w[0] the centre tap, w[k] the taps at distance k. */
static void half_taps(const cf_blur_kernel *k, uint32_t *w)
{
    for (int i = 0; i <= k->size / 2; i++)
        w[i] = k->w[k->size / 2 + i];
}

/* Row y of the plane widened into line, its border samples in place. */
static void pad_line(const blur_job *j, int y, uint32_t *line)
{
    const cf_blur_plane *pl = j->pl;
    const int c = pl->channels, r = j->rx, w = pl->width;
    uint32_t *mid = line + (size_t)r * c;
    const uint8_t *src = pl->src + (size_t)y * pl->src_pitch;
    if (pl->sample_bytes == 1)
        j->fn->widen8(src, j->samples, mid);
    else
        j->fn->widen16(src, j->samples, pl->shift, mid);
    for (int i = -r; i < 0; i++) {
        int s = cf_border_index(i, w, pl->border);
        for (int ch = 0; ch < c; ch++)
            mid[i * c + ch] = s < 0 ? pl->border_value : mid[s * c + ch];
    }
    for (int i = w; i < w + r; i++) {
        int s = cf_border_index(i, w, pl->border);
        for (int ch = 0; ch < c; ch++)
            mid[i * c + ch] = s < 0 ? pl->border_value : mid[s * c + ch];
    }
    memset(mid + (size_t)(w + r) * c, 0, CF_BLUR_LINE_SLACK * sizeof *line);
}

static void h_rows(void *ctx, int y0, int y1, int slot)
{
    const blur_job *j = ctx;
    uint32_t *line = j->lines + (size_t)slot * j->line_len;
    for (int y = y0; y < y1; y++) {
        pad_line(j, y, line);
        j->fn->h_line(line, j->samples, j->pl->channels, j->wx, j->rx, j->tmp + (size_t)y * j->tp);
    }
}

/* Sample k of row `src` as the horizontal pass reads it. */
static uint32_t sample(const cf_blur_plane *pl, const uint8_t *src, size_t k)
{
    if (pl->sample_bytes == 1)
        return src[k];
    return (uint32_t)(src[2 * k] | src[2 * k + 1] << 8) >> pl->shift;
}

/* The padded line of samples [x0 - rx*c, x0 + n + rx*c) of row y (c:
 * channels), borders resolved, then CF_BLUR_LINE_SLACK zeros; 16-bit
 * entries for the multiply-add passes, else 32-bit. */
static void pad_strip(const blur_job *j, int y, int x0, int n, void *line)
{
    const cf_blur_plane *pl = j->pl;
    const int c = pl->channels, w = pl->width;
    const uint8_t *src = pl->src + (size_t)y * pl->src_pitch;
    const long first = (long)x0 - (long)j->rx * c, end = (long)x0 + n + (long)j->rx * c;
    const long lo = first > 0 ? first : 0, hi = end < j->samples ? end : j->samples;
    uint16_t *l16 = line;
    uint32_t *l32 = line;
    if (j->madd)
        j->fn->widen8_16(src + lo, (int)(hi - lo), l16 + (lo - first));
    else if (pl->sample_bytes == 1)
        j->fn->widen8(src + lo, (int)(hi - lo), l32 + (lo - first));
    else
        j->fn->widen16(src + 2 * lo, (int)(hi - lo), pl->shift, l32 + (lo - first));
    for (long i = first; i < end; i++) {
        if (i == lo && hi > lo)
            i = hi; /* the samples inside the row are done */
        if (i >= end)
            break;
        long px = i >= 0 ? i / c : -((-i + c - 1) / c);
        int s = cf_border_index((int)px, w, pl->border);
        uint32_t v = s < 0 ? pl->border_value : sample(pl, src, (size_t)s * c + (size_t)(i - px * c));
        if (j->madd)
            l16[i - first] = (uint16_t)v;
        else
            l32[i - first] = v;
    }
    size_t esize = j->madd ? 2 : 4;
    memset((uint8_t *)line + (size_t)(end - first) * esize, 0, CF_BLUR_LINE_SLACK * esize);
}

/* Both passes for rows [y0, y1) in one go, in strips of columns: for each
 * strip, the horizontal results of the 2 ry + 1 rows an output row needs
 * sit in a ring of as many rows (row j in slot j % ring), sized to stay in
 * the core's L2 cache, so they are never written to memory. The rows an
 * output row reads lie within [y - ry, y + ry] clipped to the plane,
 * however often the border folds, so the ring holds them all and each
 * row is computed once per strip and slice (the ry rows above and below a
 * slice once more by its neighbours). */
static void fused_rows(void *ctx, int y0, int y1, int slot)
{
    const blur_job *j = ctx;
    const cf_blur_plane *pl = j->pl;
    const int r = j->ry, h = pl->height, ring = 2 * r + 1;
    const size_t esize = pl->sample_bytes == 1 ? 2 : 4; /* bytes of one horizontal result */
    uint32_t *line = j->lines + (size_t)slot * j->line_len;
    uint8_t *base = (uint8_t *)j->tmp + (size_t)slot * ring * j->tp * esize;
    const void *rows[CF_BLUR_MAX_KSIZE];
    for (int x0 = 0; x0 < j->samples; x0 += j->strip) {
        const int n = j->samples - x0 < j->strip ? j->samples - x0 : j->strip;
        int next = y0 - r > 0 ? y0 - r : 0; /* the next row to compute */
        for (int y = y0; y < y1; y++) {
            for (int last = y + r < h - 1 ? y + r : h - 1; next <= last; next++) {
                void *out = base + (size_t)(next % ring) * j->tp * esize;
                pad_strip(j, next, x0, n, line);
                if (j->madd)
                    j->fn->h_madd((uint16_t *)line, n, pl->channels, j->wpx, j->rx, out);
                else if (esize == 2)
                    j->fn->h_line16(line, n, pl->channels, j->wx, j->rx, out);
                else
                    j->fn->h_line(line, n, pl->channels, j->wx, j->rx, out);
            }
            for (int t = 0; t < ring; t++) {
                int s = cf_border_index(y - r + t, h, pl->border);
                rows[t] = s < 0 ? (const void *)j->border_row
                                : base + (size_t)(s % ring) * j->tp * esize;
            }
            uint8_t *dst = pl->dst + (size_t)y * pl->dst_pitch + (size_t)x0 * pl->sample_bytes;
            if (j->madd)
                j->fn->v_madd((const int16_t *const *)rows, n, j->wpy, r, dst);
            else if (esize == 2)
                j->fn->v8_16((const uint16_t *const *)rows, n, j->wy, r, dst);
            else
                j->fn->v16((const uint32_t *const *)rows, n, j->wy, r, pl->shift, dst);
        }
    }
}

static void v_rows(void *ctx, int y0, int y1, int slot)
{
    (void)slot;
    const blur_job *j = ctx;
    const cf_blur_plane *pl = j->pl;
    const int r = j->ry, h = pl->height;
    const uint32_t *rows[CF_BLUR_MAX_KSIZE];
    for (int x0 = 0; x0 < j->samples; x0 += j->strip) {
        int n = j->samples - x0 < j->strip ? j->samples - x0 : j->strip;
        for (int y = y0; y < y1; y++) {
            for (int t = 0; t <= 2 * r; t++) {
                int s = cf_border_index(y - r + t, h, pl->border);
                rows[t] = (s < 0 ? j->border_row : j->tmp + (size_t)s * j->tp) + x0;
            }
            uint8_t *dst = pl->dst + (size_t)y * pl->dst_pitch + (size_t)x0 * pl->sample_bytes;
            if (pl->sample_bytes == 1)
                j->fn->v8(rows, n, j->wy, r, dst);
            else
                j->fn->v16(rows, n, j->wy, r, pl->shift, dst);
        }
    }
}

static size_t align_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/* True if every tap is below 2^15 (the multiply-add passes' signed 16-bit
 * weights). */
static bool taps_below_2_15(const cf_blur_kernel *k)
{
    for (int i = 0; i < k->size; i++)
        if (k->w[i] >= 32768)
            return false;
    return true;
}

/* Weights two by two: w[2i] in the low half, w[2i + 1] (0 past n) in the high one. */
static void pair_weights(const uint32_t *w, int n, uint32_t *wp)
{
    for (int i = 0; i < n; i += 2)
        wp[i / 2] = w[i] | (i + 1 < n ? w[i + 1] : 0) << 16;
}

/* Bytes of ring rows a thread may keep for the fused passes: most of a
 * core's L2 cache. */
#define RING_BYTES (384 * 1024)

/* RING_BYTES, or CF_CPU_BLUR_RING_BYTES from the environment (read once):
 * a test knob, so small frames take several strips. */
static size_t ring_bytes_limit(void)
{
    static atomic_size_t cached = 0;
    size_t v = atomic_load(&cached);
    if (v == 0) {
        const char *env = getenv("CF_CPU_BLUR_RING_BYTES");
        long n = env ? strtol(env, NULL, 10) : 0;
        v = n >= 1024 ? (size_t)n : RING_BYTES;
        atomic_store(&cached, v);
    }
    return v;
}

cf_status cf_blur_plane_fast(const cf_blur_kernel *kx, const cf_blur_kernel *ky,
                             const cf_blur_plane *pl, cf_scratch *scratch, int threads)
{
    cf_cpu_level level;
    const cf_blur_simd *fn = cf_cpu_pick(levels, &level);
    if (fn && (!symmetric(kx) || !symmetric(ky))) {
        fn = NULL;
        level = CF_CPU_REFERENCE;
    }
    const size_t samples = (size_t)pl->width * (size_t)pl->channels;
    /* Rows of horizontal results a whole number of 4 KiB pages apart would
     * all fall into the same L1 cache set, which the vertical pass (2 ry + 1
     * rows at one column) thrashes: 4K RGBA rows are 15 pages. One more
     * cache line a row spreads them. */
    size_t tp = align_up(samples, 64);
    if (tp % 1024 == 0)
        tp += 16;
    const int nslots = cf_parallel_threads(threads), ry = ky->size / 2;
    const size_t line_len =
        align_up(samples + 2 * (size_t)(kx->size / 2) * pl->channels + CF_BLUR_LINE_SLACK, 16);
    /* Fused passes (in strips whose ring of rows fits RING_BYTES) where a
     * thread's slice (one a thread) is tall enough that recomputing ry
     * rows at either end of it costs little; else every row's horizontal
     * pass, then the vertical one. */
    const size_t esize = pl->sample_bytes == 1 ? 2 : 4;
    const int slice_rows = (pl->height + nslots - 1) / nslots;
    const bool fused = 4 * ry <= slice_rows;
    size_t strip = ring_bytes_limit() / ((size_t)(2 * ry + 1) * esize) / 64 * 64;
    if (strip < 64)
        strip = 64;
    if (!fused)
        strip = STRIP_BYTES / (sizeof(uint32_t) * (size_t)ky->size) / 64 * 64;
    if (strip < 64)
        strip = 64;
    if (fused && strip >= samples) {
        strip = samples;
    }
    /* The ring's rows: the strip's width (the whole row when it fits). */
    const size_t ring_tp = fused ? (strip >= samples ? tp : align_up(strip, 64) + 16) : tp;
    const size_t ring_bytes = (size_t)(2 * ry + 1) * ring_tp * esize;
    size_t bytes;
    if (!fn)
        bytes = tp * sizeof(uint32_t) * (size_t)pl->height;
    else if (fused)
        bytes = ring_bytes * (size_t)nslots + tp * sizeof(uint32_t) +
                line_len * sizeof(uint32_t) * (size_t)nslots;
    else
        bytes = tp * sizeof(uint32_t) * ((size_t)pl->height + 1) +
                line_len * sizeof(uint32_t) * (size_t)nslots;
    void *block;
    CF_TRY(cf_scratch_reserve(scratch, bytes, CF_MEMORY_HOST, &block));
    cf_cpu_note_ran(level);
    if (!fn) {
        cf_blur_plane_cpu(kx, ky, pl, block, tp * sizeof(uint32_t));
        return CF_OK;
    }
    blur_job j = {
        .fn = fn, .pl = pl, .rx = kx->size / 2, .ry = ry, .samples = (int)samples,
        .tmp = block, .tp = fused ? ring_tp : tp, .line_len = line_len, .strip = (int)strip,
    };
    half_taps(kx, j.wx);
    half_taps(ky, j.wy);
    /* The constant border's row, after the horizontal results (their
     * kind: 16-bit in the fused 8-bit case). */
    uint32_t *border_row = (uint32_t *)((uint8_t *)block + (fused ? ring_bytes * (size_t)nslots
                                                                  : tp * sizeof(uint32_t) *
                                                                        (size_t)pl->height));
    j.madd = fused && esize == 2 && fn->h_madd && taps_below_2_15(kx) && taps_below_2_15(ky);
    if (j.madd) {
        pair_weights(j.wx, j.rx + 1, j.wpx);
        pair_weights(ky->w, ky->size, j.wpy);
    }
    /* (The multiply-add passes keep their results minus 2^15.) */
    const uint32_t border_t = (pl->border_value << 8) ^ (j.madd ? 0x8000u : 0u);
    for (size_t i = 0; i < tp; i++) {
        if (fused && esize == 2)
            ((uint16_t *)border_row)[i] = (uint16_t)border_t;
        else
            border_row[i] = border_t;
    }
    j.border_row = border_row;
    j.lines = border_row + tp;
    if (fused) {
        cf_parallel_rows(pl->height, threads, slice_rows, fused_rows, &j);
        return CF_OK;
    }
    /* Rows a slice needs at least: a few kernels' worth of work. */
    int min_rows = (int)(16384 / (samples * (size_t)(kx->size + ky->size) / 2 + 1)) + 1;
    cf_parallel_rows(pl->height, threads, min_rows, h_rows, &j);
    cf_parallel_rows(pl->height, threads, min_rows, v_rows, &j);
    return CF_OK;
}
