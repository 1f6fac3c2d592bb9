/* Embedding example: the cudafilters C API on an application's own buffers.
 *
 * Makes 640x360 RGBA test frames and runs "gray,blur=sigma=2" on them two
 * ways: one frame at a time with cf_filter_run() on the CPU (the simple
 * form, and the reference), and as a stream through a cf_scheduler, which
 * keeps several frames in flight (on the GPU when there is one: the upload
 * of one frame, the kernels of the one before and the download of the one
 * before that overlap). Checks that both give the same bytes; prints one
 * line and exits 0 on success.
 *
 *   cc core_api.c $(pkg-config --cflags --libs cudafilters-1.0) -o core_api */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudafilters/cudafilters.h>

#define W 640
#define H 360
#define FRAMES 8

static int fail(const char *what)
{
    fprintf(stderr, "core_api: %s: %s\n", what, cf_last_error());
    return 1;
}

/* Test frame n: a gradient that moves with n. */
static void fill(cf_frame *rgba, int n)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            unsigned char *p = rgba->data[0] + (size_t)y * rgba->pitch[0] + 4 * (size_t)x;
            p[0] = (unsigned char)((x + 8 * n) * 255 / (W + 8 * FRAMES));
            p[1] = (unsigned char)(y * 255 / H);
            p[2] = (unsigned char)((x ^ y ^ n) & 0xff);
            p[3] = 255;
        }
}

/* The GRAY8 rows of `f`, packed, into out. */
static void pack(const cf_frame *f, unsigned char *out)
{
    for (int y = 0; y < H; y++)
        memcpy(out + (size_t)y * W, f->data[0] + (size_t)y * f->pitch[0], W);
}

/* The simple form: the filters one after the other, on host frames (the
 * CPU code; device frames would run the kernels on a stream). */
static int run_one(cf_chain *chain, const cf_frame *rgba, unsigned char *out)
{
    cf_frame mid, dst;
    if (cf_frame_alloc(&mid, CF_FORMAT_GRAY8, W, H, CF_MEMORY_HOST) != CF_OK ||
        cf_frame_alloc(&dst, CF_FORMAT_GRAY8, W, H, CF_MEMORY_HOST) != CF_OK)
        return fail("alloc");
    if (cf_filter_run(cf_chain_get(chain, 0), rgba, &mid, NULL) != CF_OK ||
        cf_filter_run(cf_chain_get(chain, 1), &mid, &dst, NULL) != CF_OK)
        return fail("run");
    pack(&dst, out);
    cf_frame_free(&mid);
    cf_frame_free(&dst);
    return 0;
}

/* How many results take_results() waits for. */
typedef enum {
    TAKE_FINISHED, /* none: only frames already done */
    TAKE_OLDEST,   /* the oldest in flight, then those already done */
    TAKE_ALL,      /* every one (after cf_scheduler_drain) */
} take_mode;

/* Takes results as `mode` says, checks each against the reference and gives
 * it back. */
static int take_results(cf_scheduler *s, take_mode mode, unsigned char (*reference)[W * H],
                        int *done)
{
    static unsigned char got[W * H];
    cf_scheduler_result r;
    cf_status st;
    bool wait = mode != TAKE_FINISHED;
    while ((st = cf_scheduler_receive(s, &r, wait)) == CF_OK) {
        if (mode == TAKE_OLDEST)
            wait = false;
        int n = (int)(intptr_t)r.token; /* the token: our frame number */
        if (r.status != CF_OK)
            return fail("frame");
        pack(&r.frame, got); /* a pinned host frame of the scheduler's pool */
        cf_scheduler_release(s, &r);
        if (memcmp(got, reference[n], sizeof got) != 0) {
            fprintf(stderr, "core_api: frame %d differs from the reference\n", n);
            return 1;
        }
        (*done)++;
    }
    if (st != CF_ERROR_AGAIN && st != CF_ERROR_EOF)
        return fail("receive");
    return 0;
}

int main(void)
{
    cf_chain *chain = cf_chain_parse("gray,blur=sigma=2");
    if (!chain)
        return fail("filter string");
    static unsigned char reference[FRAMES][W * H];
    cf_frame rgba[FRAMES];
    for (int n = 0; n < FRAMES; n++) {
        if (cf_frame_alloc(&rgba[n], CF_FORMAT_RGBA, W, H, CF_MEMORY_HOST) != CF_OK)
            return fail("alloc");
        fill(&rgba[n], n);
        if (run_one(chain, &rgba[n], reference[n]))
            return 1;
    }

    /* The stream form. A second chain: the scheduler runs its filters
     * inside cf_scheduler_submit(), so they must not be used meanwhile. */
    cf_chain *stream_chain = cf_chain_parse("gray,blur=sigma=2");
    cf_filter *filters[2] = { cf_chain_get(stream_chain, 0), cf_chain_get(stream_chain, 1) };
    cf_scheduler *s = NULL;
    if (cf_scheduler_create(&s, cf_scheduler_params(.filters = filters, .n_filters = 2,
                                                    .output = CF_SCHEDULER_OUTPUT_HOST,
                                                    .name = "core_api")) != CF_OK)
        return fail("scheduler");
    int done = 0;
    for (int n = 0; n < FRAMES; n++) {
        /* What is finished; and with the scheduler full, the oldest frame,
         * since a submit would wait for a receive that only this thread can
         * make. */
        bool full = cf_scheduler_in_flight(s) == cf_scheduler_depth(s);
        if (take_results(s, full ? TAKE_OLDEST : TAKE_FINISHED, reference, &done))
            return 1;
        /* The frame must stay untouched until its result comes back. */
        if (cf_scheduler_submit(s, &rgba[n], NULL, (void *)(intptr_t)n) != CF_OK)
            return fail("submit");
    }
    cf_scheduler_drain(s); /* no more frames: receive ends with CF_ERROR_EOF */
    if (take_results(s, TAKE_ALL, reference, &done))
        return 1;
    if (done != FRAMES) {
        fprintf(stderr, "core_api: %d results for %d frames\n", done, FRAMES);
        return 1;
    }
    int gpu = cf_scheduler_uses_gpu(s);
    cf_scheduler_destroy(&s);
    if (gpu)
        printf("core_api: gray,blur on %d %dx%d RGBA frames: the GPU stream equals the CPU "
               "reference\n", FRAMES, W, H);
    else
        printf("core_api: gray,blur on %d %dx%d RGBA frames on the CPU (no GPU: %s), through "
               "the scheduler and one by one alike\n", FRAMES, W, H,
               cf_device_unavailable_reason());
    for (int n = 0; n < FRAMES; n++)
        cf_frame_free(&rgba[n]);
    cf_chain_free(&stream_chain);
    cf_chain_free(&chain);
    return 0;
}
