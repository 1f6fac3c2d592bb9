/* cudafilters blur: the optimized CPU blur (blur_cpu_fast.h). The passes
 * are blur.h's, in the reference's order: every row's horizontal pass into
 * 32-bit results (slices of rows on the pool), then the vertical pass
 * (slices of rows again, each in strips of columns narrow enough that the
 * kernel's rows of a strip stay in the core's L2 cache). Borders are
 * resolved outside the inner loops: a row is widened into a padded line
 * with its border samples in place, and the vertical pass reads row
 * pointers (the folded row, or a row of the constant border). */
#include <stdbool.h>
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
    size_t tp;           /* samples per tmp row (a multiple of 64) */
    const uint32_t *border_row; /* tp samples of border_value << 8 */
    uint32_t *lines;     /* one padded line per slot, line_len samples each */
    size_t line_len;
    int strip;           /* samples per strip of the vertical pass */
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

static void h_rows(void *ctx, int y0, int y1, int slot)
{
    const blur_job *j = ctx;
    const cf_blur_plane *pl = j->pl;
    const int c = pl->channels, r = j->rx, w = pl->width;
    uint32_t *line = j->lines + (size_t)slot * j->line_len;
    uint32_t *mid = line + (size_t)r * c;
    for (int y = y0; y < y1; y++) {
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
        j->fn->h_line(line, j->samples, c, j->wx, r, j->tmp + (size_t)y * j->tp);
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
    const size_t tp = align_up(samples, 64);
    const int nslots = cf_parallel_threads(threads);
    const size_t line_len =
        align_up(samples + 2 * (size_t)(kx->size / 2) * pl->channels + CF_BLUR_LINE_SLACK, 16);
    size_t bytes = tp * sizeof(uint32_t) * ((size_t)pl->height + (fn ? 1 : 0));
    if (fn)
        bytes += line_len * sizeof(uint32_t) * (size_t)nslots;
    void *block;
    CF_TRY(cf_scratch_reserve(scratch, bytes, CF_MEMORY_HOST, &block));
    cf_cpu_note_ran(level);
    if (!fn) {
        cf_blur_plane_cpu(kx, ky, pl, block, tp * sizeof(uint32_t));
        return CF_OK;
    }
    blur_job j = {
        .fn = fn, .pl = pl, .rx = kx->size / 2, .ry = ky->size / 2, .samples = (int)samples,
        .tmp = block, .tp = tp, .line_len = line_len,
    };
    half_taps(kx, j.wx);
    half_taps(ky, j.wy);
    uint32_t *border_row = j.tmp + (size_t)pl->height * tp;
    for (size_t i = 0; i < tp; i++)
        border_row[i] = pl->border_value << 8;
    j.border_row = border_row;
    j.lines = border_row + tp;
    size_t strip = STRIP_BYTES / (sizeof(uint32_t) * (size_t)ky->size);
    j.strip = strip < 64 ? 64 : (int)(strip / 64 * 64);
    /* Rows a slice needs at least: a few kernels' worth of work. */
    int min_rows = (int)(16384 / (samples * (size_t)(kx->size + ky->size) / 2 + 1)) + 1;
    cf_parallel_rows(pl->height, threads, min_rows, h_rows, &j);
    cf_parallel_rows(pl->height, threads, min_rows, v_rows, &j);
    return CF_OK;
}
