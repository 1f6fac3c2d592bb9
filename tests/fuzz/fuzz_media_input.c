/* libFuzzer target: the command line's input path on one mutated file.
 *
 * Each input is written to a file and transcoded as `cudafilters transcode`
 * does it (cli_job_run: demux, decode, the filters gray and blur on the CPU,
 * the damage and completeness checks, the other streams copied), encoded to
 * raw video in NUT, the cheapest encoder and a muxer that holds any stream,
 * so the time goes into our code and the decoders. The input's size picks
 * the settings, so each seed keeps its own: odd sizes run with --max-errors
 * 3 (concealment), even ones with 0 (exploding errors); sizes with bit 1 set
 * run `gray` alone (interlaced input gets filtered too), others gray,blur.
 * Whatever the file, the job must end with a result and leave no temporary
 * output. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "avlog.h"
#include "job.h"

static char *dir, *in_path, *out_path;

static void remove_dir(void)
{
    g_unlink(in_path);
    g_unlink(out_path);
    g_rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    cli_avlog_init(0);
    dir = g_dir_make_tmp("cf-fuzz-media-XXXXXX", NULL);
    if (!dir)
        abort();
    in_path = g_build_filename(dir, "input", NULL);
    out_path = g_build_filename(dir, "output.nut", NULL);
    atexit(remove_dir);
    return 0;
}

/* No temporary output of the job may be left in the directory. */
static void check_leftovers(void)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        abort();
    const char *name;
    while ((name = g_dir_read_name(d)))
        if (strstr(name, ".part-")) {
            fprintf(stderr, "fuzz_media_input: %s left behind\n", name);
            abort();
        }
    g_dir_close(d);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (!g_file_set_contents(in_path, (const char *)data, (gssize)size, NULL))
        abort();
    cli_job_opts opts = { .vf = size & 2 ? "gray" : "gray,blur=sigma=1", .codec = "rawvideo",
                          .quality = -1,
                          .pix_fmt = AV_PIX_FMT_NONE, .max_errors = size % 2 ? 3 : 0,
                          .stall_timeout = 10 };
    cli_job job = { .in_path = in_path, .out_path = out_path, .opts = &opts };
    cli_job_run(&job);
    if (getenv("CF_FUZZ_VERBOSE")) /* what each seed exercises */
        fprintf(stderr, "%zu bytes: %s, %" PRId64 " frames (%s)\n", size,
                job.ok ? "ok" : job.err.msg, job.frames_out, job.formats);
    if (!job.ok && !job.err.msg[0]) {
        fprintf(stderr, "fuzz_media_input: the job failed without a message\n");
        abort();
    }
    check_leftovers();
    g_unlink(out_path);
    return 0;
}
