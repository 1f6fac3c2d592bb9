/* cudafilters tool: the commands' option parsing and set-up. */
#include "commands.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <libavutil/pixdesc.h>

#include "avlog.h"
#include "batch.h"
#include "batch_list.h"
#include "devices.h"
#include "encoder.h"
#include "existing.h"
#include "gpu.h"
#include "report.h"
#include "report_merge.h"
#include "run.h"
#include "shard.h"
#include "vfilter.h"

/* Options of transcode and batch. */
static struct {
    gchar *vf, *codec, *pix_fmt, *device, *devices, *out_dir, *from, *ext, *shard, *report;
    gint quality, max_errors, jobs, verbose, threads;
    gdouble stall_timeout;
    gboolean json, quiet, machine_progress, overwrite, skip_existing, dry_run;
} opt = { .quality = -1, .jobs = 1, .stall_timeout = 60 };
/* --codec was not given: opt.codec is the default, h264 (cli_job_opts). */
static bool codec_default;

static gboolean count_verbose(const gchar *name, const gchar *value, gpointer data, GError **error)
{
    (void)name, (void)value, (void)data, (void)error;
    opt.verbose++;
    return TRUE;
}

static GOptionEntry common_entries[] = {
    { "vf", 0, 0, G_OPTION_ARG_STRING, &opt.vf,
      "Filters, e.g. \"gray,blur=sigma=2\" (see `cudafilters filters`; default: none)", "FILTERS" },
    { "codec", 'c', 0, G_OPTION_ARG_STRING, &opt.codec,
      "Video codec (h264, hevc, mpeg4, ...) or encoder (libx264, h264_nvenc, ...); "
      "default h264 (NVENC where the GPU has it, else libx264), or the container's own codec "
      "where it cannot hold H.264 (.webm: vp9)", "NAME" },
    { "quality", 'q', 0, G_OPTION_ARG_INT, &opt.quality,
      "Constant quality, lower is better: x264/x265 crf, NVENC cq, else qscale", "N" },
    { "pix-fmt", 0, 0, G_OPTION_ARG_STRING, &opt.pix_fmt,
      "Pixel format the encoder gets, e.g. yuv420p (default: what the filters give, "
      "converted only if the encoder does not take it)", "NAME" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &opt.device,
      "GPU ordinal, gpu (GPU 0, an error without one), cpu, or auto (default: GPU 0 if there "
      "is one, else the CPU)", "N|gpu|cpu|auto" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &opt.threads,
      "CPU threads of each file's filters when they run on the CPU (default 0: all cores, "
      "shared by the files of a batch)", "N" },
    { "max-errors", 0, 0, G_OPTION_ARG_INT, &opt.max_errors,
      "Damaged packets or frames tolerated per file (default 0: a damaged file fails)", "N" },
    { "stall-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt.stall_timeout,
      "Give up on a file that makes no progress for this long (default 60)", "SECONDS" },
    { "overwrite", 'y', 0, G_OPTION_ARG_NONE, &opt.overwrite,
      "Replace an output that exists (once the new one is complete); without this or "
      "--skip-existing an existing output is refused and left alone", NULL },
    { "skip-existing", 0, 0, G_OPTION_ARG_NONE, &opt.skip_existing,
      "Skip a file whose output exists (outputs only appear complete, so it is a finished "
      "one): a rerun resumes where the last one stopped", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt.json, "Print a JSON summary on stdout", NULL },
    { "quiet", 0, 0, G_OPTION_ARG_NONE, &opt.quiet, "No progress line and no notes", NULL },
    { "verbose", 'v', G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, (gpointer)count_verbose,
      "Show libav's warnings (twice: also its information)", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
};

/* For batch's child processes: progress reports on stdout. */
static GOptionEntry transcode_entries[] = {
    { "machine-progress", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &opt.machine_progress,
      NULL, NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
};

static GOptionEntry batch_entries[] = {
    { "out-dir", 'o', 0, G_OPTION_ARG_FILENAME, &opt.out_dir,
      "Directory for the outputs (made if missing); each is named after its input", "DIR" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &opt.jobs,
      "Files processed at the same time on each GPU (on the CPU: in all; default 1)", "N" },
    { "devices", 0, 0, G_OPTION_ARG_STRING, &opt.devices,
      "GPUs to spread the files over, each file on one: all, or a list such as 0,1 "
      "(default: as --device; all on a machine without a GPU: the CPU)", "all|LIST|gpu|cpu" },
    { "shard", 0, 0, G_OPTION_ARG_STRING, &opt.shard,
      "Run only this share of the list, shards counted from 0 (see below); auto: from "
      "the Slurm job array's variables", "INDEX/COUNT|auto" },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &opt.report,
      "Append a JSON line per file as it ends, and one at the start and end of the run, "
      "to FILE (made with its folder if missing); `cudafilters report merge` sums them up",
      "FILE" },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &opt.dry_run,
      "Print what each file of this shard would do (run, skip, fail) and run nothing", NULL },
    { "from", 0, 0, G_OPTION_ARG_FILENAME, &opt.from,
      "Read input names from FILE, one per line (- for standard input)", "FILE" },
    { "ext", 0, 0, G_OPTION_ARG_STRING, &opt.ext,
      "Output container by extension, e.g. mp4 or mkv (default: the input's)", "EXT" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
};

static int usage_error(GOptionContext *ctx, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static int usage_error(GOptionContext *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s\nTry '%s --help'.\n", g_get_prgname(), msg, g_get_prgname());
    g_free(msg);
    if (ctx)
        g_option_context_free(ctx);
    return CLI_EXIT_USAGE;
}

static GOptionContext *new_context(const char *cmd, const char *args, const char *summary,
                                   const char *description)
{
    char *name = g_strdup_printf("cudafilters %s", cmd);
    g_set_prgname(name);
    g_free(name);
    GOptionContext *ctx = g_option_context_new(args);
    g_option_context_set_summary(ctx, summary);
    if (description)
        g_option_context_set_description(ctx, description);
    return ctx;
}

/* An option given an empty value (--codec=, --vf ''): named, instead of
 * being taken as a name that does not exist, or as the default. NULL if
 * none, else the message. */
static char *check_empty(const GOptionEntry *entries)
{
    for (const GOptionEntry *e = entries; e->long_name; e++) {
        if (e->arg != G_OPTION_ARG_STRING && e->arg != G_OPTION_ARG_FILENAME)
            continue;
        const gchar *value = *(gchar **)e->arg_data;
        if (value && !value[0])
            return g_strdup_printf("--%s: the value is empty (expected %s)", e->long_name,
                                   e->arg_description);
    }
    return NULL;
}

/* Checks the options every job shares, before anything runs, so a typo
 * fails at once and names the bad token. NULL if fine, else a message. */
static char *check_common(void)
{
    if (opt.vf) {
        cf_chain *chain = cf_chain_parse(opt.vf);
        if (!chain)
            return g_strdup_printf("--vf: %s", cf_last_error());
        int n = cf_chain_length(chain);
        cf_chain_free(&chain);
        /* Refused here, not by each file as it starts. */
        if (n > CLI_VF_MAX)
            return g_strdup_printf("--vf: %d filters, more than %d", n, CLI_VF_MAX);
    }
    const AVCodec *cand[CLI_MAX_ENCODERS];
    if (cli_encoder_candidates(opt.codec, true, cand) == 0)
        return g_strdup_printf("--codec %s: no such codec or encoder in this libavcodec",
                               opt.codec);
    if (opt.pix_fmt && av_get_pix_fmt(opt.pix_fmt) == AV_PIX_FMT_NONE)
        return g_strdup_printf("--pix-fmt %s: no such pixel format", opt.pix_fmt);
    if (opt.quality < -1)
        return g_strdup_printf("--quality %d: must be 0 or more", opt.quality);
    if (opt.max_errors < 0)
        return g_strdup_printf("--max-errors %d: must be 0 or more", opt.max_errors);
    if (opt.threads < 0 || opt.threads > CF_MAX_CPU_THREADS)
        return g_strdup_printf("--threads %d: must be 0 (all cores) to %d", opt.threads,
                               CF_MAX_CPU_THREADS);
    if (!(opt.stall_timeout > 0))
        return g_strdup_printf("--stall-timeout %g: must be more than 0", opt.stall_timeout);
    if (opt.overwrite && opt.skip_existing)
        return g_strdup("--overwrite and --skip-existing: give one of them, not both");
    return NULL;
}

static cli_existing existing_policy(void)
{
    return opt.overwrite       ? CLI_EXISTING_OVERWRITE
           : opt.skip_existing ? CLI_EXISTING_SKIP
                               : CLI_EXISTING_REFUSE;
}

/* GLib leaves a "--" in argv when an argument after it begins with '-'
 * (`transcode -- -clip.mp4 out.mkv`, and batch runs each file so): the
 * first one that is left is the separator, not an argument. */
static void drop_separator(int *argc, char **argv)
{
    for (int i = 1; i < *argc; i++)
        if (!strcmp(argv[i], "--")) {
            memmove(argv + i, argv + i + 1, (size_t)(*argc - i - 1) * sizeof *argv);
            argv[--*argc] = NULL;
            return;
        }
}

/* Parses argv with ctx. On a bad option prints the usage error, frees ctx,
 * sets *rc to usage_error()'s exit status and returns false. */
static bool parse_or_usage_error(GOptionContext *ctx, int *argc, char ***argv, int *rc)
{
    GError *error = NULL;
    if (g_option_context_parse(ctx, argc, argv, &error)) {
        drop_separator(argc, *argv);
        return true;
    }
    *rc = usage_error(ctx, "%s", error->message);
    g_error_free(error);
    return false;
}

/* Parses the shared options and the command's `entries` into opt, defaults
 * --codec and checks the shared options (transcode and batch). NULL if fine,
 * else the message for usage_error(). */
static char *parse_job_options(GOptionContext *ctx, const GOptionEntry *entries, int *argc,
                               char ***argv)
{
    g_option_context_add_main_entries(ctx, common_entries, NULL);
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *error = NULL;
    if (!g_option_context_parse(ctx, argc, argv, &error)) {
        char *msg = g_strdup(error->message);
        g_error_free(error);
        return msg;
    }
    drop_separator(argc, *argv);
    char *msg = check_empty(common_entries);
    if (!msg)
        msg = check_empty(entries);
    if (msg)
        return msg;
    if (!opt.codec) {
        opt.codec = g_strdup("h264");
        codec_default = true;
    }
    return check_common();
}

/* ---- GPUs -------------------------------------------------------------- */

/* Ordinals of the GPUs to use from --devices or --device into ords[]
 * (none: CPU). Says once, on stderr, when there is no GPU to use. On a bad
 * value, -1 with *msg naming the option, the value, why, and (for a word
 * it does not know) the values it takes. */
static int choose_gpus(int *ords, int max, char **msg)
{
    const char *reason = "";
    int count = cli_gpu_count(&reason), n;
    if (opt.devices)
        n = cli_devices_parse(opt.devices, count, reason,
                              "it takes all, cpu, gpu (GPU 0) or GPU ordinals such as 0,2", ords,
                              max, msg);
    else if (!opt.device || !strcmp(opt.device, "auto"))
        n = cli_devices_parse(count > 0 ? "0" : "cpu", count, reason, NULL, ords, max, msg);
    else
        n = cli_devices_parse(opt.device, count, reason,
                              "it takes a GPU ordinal (0, 1, ...), gpu (GPU 0), cpu or auto", ords,
                              1, msg);
    if (n < 0) {
        char *full = g_strdup_printf("--%s %s: %s", opt.devices ? "devices" : "device",
                                     opt.devices ? opt.devices : opt.device, *msg);
        g_free(*msg);
        *msg = full;
    }
    bool asked_cpu = (opt.devices && !strcmp(opt.devices, "cpu")) ||
                     (!opt.devices && opt.device && !strcmp(opt.device, "cpu"));
    if (n == 0 && count == 0 && !asked_cpu && !opt.quiet)
        fprintf(stderr, "cudafilters: no GPU (%s): filters run on the CPU\n", reason);
    return n;
}

/* Opens FFmpeg's CUDA device on the GPU, before the job makes its primary
 * context current (see gpu.h), and says when NVDEC is not available. */
static void open_gpu(cli_gpu *gpu, int ordinal)
{
    cli_gpu_open(gpu, ordinal);
    if (!gpu->hw_device && !opt.quiet)
        fprintf(stderr, "cudafilters: GPU %d: no NVDEC decoding (%s): decoding on the CPU, "
                        "filtering on the GPU\n", ordinal, gpu->hw_error);
}

static cli_job_opts job_opts(void)
{
    return (cli_job_opts){ .vf = opt.vf, .codec = opt.codec, .codec_default = codec_default,
                           .quality = opt.quality,
                           .pix_fmt = opt.pix_fmt ? av_get_pix_fmt(opt.pix_fmt) : AV_PIX_FMT_NONE,
                           .max_errors = opt.max_errors, .stall_timeout = opt.stall_timeout,
                           .overwrite = opt.overwrite, .threads = opt.threads };
}

/* --skip-existing with OUT there: nothing runs, the summary says skipped. */
static int skip_transcode(const char *in, const char *out)
{
    if (!opt.quiet)
        fprintf(stderr, "cudafilters: %s: skipped: its output %s exists\n", in, out);
    if (opt.json) {
        JsonNode *node = cli_report_skipped_node(in, out);
        char *text = cli_report_node_text(node);
        puts(text);
        fflush(stdout);
        g_free(text);
        json_node_unref(node);
    }
    return 0;
}

static int run_transcode(const char *in, const char *out)
{
    if (cli_output_check_path(in, out, existing_policy()) == CLI_OUTPUT_SKIP)
        return skip_transcode(in, out);
    int ords[1];
    char *msg = NULL;
    int n_gpus = choose_gpus(ords, 1, &msg);
    if (n_gpus < 0) {
        int rc = usage_error(NULL, "%s", msg);
        g_free(msg);
        return rc;
    }
    cli_avlog_init(opt.verbose);
    cli_cleanup_install(in);
    cli_gpu gpu;
    if (n_gpus)
        open_gpu(&gpu, ords[0]);
    cli_job_opts jo = job_opts();
    cli_job job = { .in_path = in, .out_path = out, .opts = &jo, .gpu = n_gpus ? &gpu : NULL };
    cli_run_opts ro = { .progress = !opt.quiet && isatty(STDERR_FILENO),
                        .machine_progress = opt.machine_progress, .json = opt.json,
                        .quiet = opt.quiet };
    int rc = cli_run_job(&job, &ro);
    if (n_gpus)
        cli_gpu_close(&gpu);
    return rc;
}

int cli_cmd_transcode(int argc, char **argv)
{
    GOptionContext *ctx = new_context(
        "transcode", "IN OUT", "Filter one video file: decode IN, run the filters, encode OUT.",
        "The container of OUT follows its extension (.mp4, .mkv, ...). Audio, subtitle and\n"
        "data streams are copied; video timestamps are kept exactly. OUT is written under\n"
        "a temporary name and appears only when everything succeeded.\n\n"
        "Exit status: 0 success, 1 the file failed, 2 usage error, 130 interrupted.\n\n"
        "Example:\n  cudafilters transcode in.mp4 out.mp4 --vf \"gray,blur=sigma=2\" --json\n");
    char *msg = parse_job_options(ctx, transcode_entries, &argc, &argv);
    if (msg || argc != 3) {
        int rc = usage_error(ctx, "%s", msg ? msg : "needs two arguments: IN OUT");
        g_free(msg);
        return rc;
    }
    g_option_context_free(ctx);
    return run_transcode(argv[1], argv[2]);
}

/* ---- batch ----------------------------------------------------------------- */

/* The options every child gets: the shared ones, as parsed here. */
static char **child_options(void)
{
    GPtrArray *a = g_ptr_array_new();
    g_ptr_array_add(a, g_strdup("--quiet"));
    g_ptr_array_add(a, g_strdup("--json"));
    g_ptr_array_add(a, g_strdup("--machine-progress"));
    if (opt.vf)
        g_ptr_array_add(a, g_strdup_printf("--vf=%s", opt.vf));
    if (!codec_default) /* else each child picks by its output's container */
        g_ptr_array_add(a, g_strdup_printf("--codec=%s", opt.codec));
    if (opt.quality >= 0)
        g_ptr_array_add(a, g_strdup_printf("--quality=%d", opt.quality));
    if (opt.pix_fmt)
        g_ptr_array_add(a, g_strdup_printf("--pix-fmt=%s", opt.pix_fmt));
    g_ptr_array_add(a, g_strdup_printf("--max-errors=%d", opt.max_errors));
    g_ptr_array_add(a, g_strdup_printf("--threads=%d", opt.threads));
    char num[G_ASCII_DTOSTR_BUF_SIZE];
    g_ptr_array_add(a, g_strdup_printf("--stall-timeout=%s",
                                       g_ascii_dtostr(num, sizeof num, opt.stall_timeout)));
    for (int i = 0; i < opt.verbose; i++)
        g_ptr_array_add(a, g_strdup("--verbose"));
    /* The parent skipped or refused the outputs it saw; the child does the
     * same with one that appears in the meantime. */
    if (opt.overwrite)
        g_ptr_array_add(a, g_strdup("--overwrite"));
    if (opt.skip_existing)
        g_ptr_array_add(a, g_strdup("--skip-existing"));
    g_ptr_array_add(a, NULL);
    return (char **)g_ptr_array_free(a, FALSE);
}

static char *self_exe;

void cli_set_self(const char *argv0)
{
    /* /proc/self/exe names the binary even when it was found through PATH. */
    self_exe = g_file_read_link("/proc/self/exe", NULL);
    if (!self_exe)
        self_exe = g_strdup(argv0);
}

/* --dry-run: what each of the shard's files would do, on stdout. */
static void print_plan(const cli_batch_file *files, int n, int all, cli_shard shard)
{
    char sh[24];
    cli_shard_format(shard, sh, sizeof sh);
    printf("shard %s: %d of %d files\n", sh, n, all);
    for (int i = 0; i < n; i++) {
        const cli_batch_file *f = &files[i];
        if (f->error)
            printf("fail  %s: %s\n", f->in, f->error);
        else
            printf("%s  %s -> %s\n", f->skipped ? "skip" : "run ", f->in, f->out);
    }
}

/* The report's counts of a finished batch. */
static cli_report_counts report_counts(int n, const cli_batch_result *r)
{
    return (cli_report_counts){ .files = n, .done = n - r->failed, .skipped = r->skipped,
                                .failed = r->failed, .seconds = r->seconds,
                                .interrupted = cli_stop_requested != 0 };
}

static int run_files(cli_batch_file *files, int n, cli_shard shard, const int *ords, int n_gpus,
                     cli_report *report)
{
    if (report) {
        const char **inputs = g_new(const char *, n > 0 ? n : 1);
        for (int i = 0; i < n; i++)
            inputs[i] = files[i].in;
        char sh[24];
        cli_shard_format(shard, sh, sizeof sh);
        cli_report_start(report, sh, inputs, n);
        g_free(inputs);
    }
    char **options = child_options();
    /* --jobs per device: every GPU runs that many files at a time. */
    cli_batch_opts bo = { .exe = self_exe, .child_options = options,
                          .parallel = opt.jobs * (n_gpus > 0 ? n_gpus : 1), .gpus = ords,
                          .n_gpus = n_gpus, .stall_timeout = opt.stall_timeout,
                          .progress = !opt.quiet && isatty(STDERR_FILENO), .json = opt.json,
                          .quiet = opt.quiet, .report = report };
    cli_batch_result r = cli_batch_run(files, n, &bo);
    g_strfreev(options);
    if (report) {
        cli_report_counts counts = report_counts(n, &r);
        cli_report_end(report, &counts);
    }
    return r.failed;
}

static int run_batch(GPtrArray *names, cli_shard shard)
{
    int ords[64];
    char *msg = NULL;
    int n_gpus = opt.dry_run ? 0 : choose_gpus(ords, 64, &msg);
    cli_report *report = n_gpus >= 0 && opt.report && !opt.dry_run
                             ? cli_report_open(opt.report, &msg) : NULL;
    if (msg) {
        int rc = usage_error(NULL, "%s", msg);
        g_free(msg);
        return rc;
    }
    /* Nothing could be written: a usage error, as a --report that cannot be. */
    if (!opt.dry_run && g_mkdir_with_parents(opt.out_dir, 0777) != 0) {
        int rc = usage_error(NULL, "--out-dir %s: cannot create it: %s", opt.out_dir,
                             g_strerror(errno));
        cli_report_close(&report);
        return rc;
    }
    cli_batch_plan plan = { .out_dir = opt.out_dir, .ext = opt.ext, .shard = shard,
                            .policy = existing_policy() };
    int n = 0, refused = 0, failed = 0;
    cli_batch_file *files = cli_batch_files(names, &plan, &n, &refused);
    if (opt.dry_run)
        print_plan(files, n, (int)names->len, shard);
    else
        failed = run_files(files, n, shard, ords, n_gpus, report);
    if (refused && !opt.quiet && !opt.dry_run)
        fprintf(stderr, "cudafilters batch: %d output%s existed already and %s left alone; "
                        "--skip-existing skips such files, --overwrite replaces them\n",
                refused, refused == 1 ? "" : "s", refused == 1 ? "was" : "were");
    cli_batch_files_free(files, n);
    if (!cli_report_close(&report) && failed == 0)
        failed = 1; /* the report is incomplete: not a clean run */
    if (cli_stop_requested)
        return CLI_EXIT_INTERRUPTED;
    return failed > CLI_EXIT_MAX_FAILED ? CLI_EXIT_MAX_FAILED : failed;
}

int cli_cmd_batch(int argc, char **argv)
{
    GOptionContext *ctx = new_context(
        "batch", "[FILE... | @LIST | -]",
        "Filter many video files into --out-dir, --jobs at a time on each GPU.",
        "Inputs: the FILE arguments, the names in LIST files (@LIST, one per line) and\n"
        "--from FILE; with none of them, the names on standard input. Each output is\n"
        "DIR/<input name> (with --ext: that extension). A file that fails (missing,\n"
        "empty, truncated, corrupt) is reported on stderr as 'cudafilters: FILE: why';\n"
        "the others go on. No partial output is left behind, and an existing output is\n"
        "never overwritten unless --overwrite is given.\n\n"
        "Several GPUs: --devices all (or a list) runs each file on one GPU, --jobs files\n"
        "at a time on each. Without a GPU everything runs on the CPU.\n\n"
        "Several machines: --shard INDEX/COUNT runs one share of the list; the COUNT\n"
        "shards of the same list (in any order) cover every file exactly once: the\n"
        "names are sorted by their bytes and the k-th belongs to shard k mod COUNT.\n"
        "--shard auto takes INDEX and COUNT from a Slurm job array (sbatch --array=0-N);\n"
        "a Kubernetes indexed job gives --shard $JOB_COMPLETION_INDEX/COUNT. With\n"
        "--skip-existing a rerun does only what is missing, and --report FILE keeps a\n"
        "JSON line per file for `cudafilters report merge` (pipelines/slurm-array.sh).\n\n"
        "Exit status: the number of files that failed (at most 125; skipped files are\n"
        "not failures), 2 usage error (nothing ran), 130 interrupted.\n\n"
        "Examples:\n"
        "  ls *.mp4 | cudafilters batch --vf gray --out-dir gray/ --jobs 4 --json\n"
        "  cudafilters batch --from list.txt --out-dir out/ --shard auto --skip-existing \\\n"
        "      --devices all --report reports/$SLURM_ARRAY_TASK_ID.jsonl\n");
    char *msg = parse_job_options(ctx, batch_entries, &argc, &argv);
    if (!msg && !opt.out_dir)
        msg = g_strdup("--out-dir is required");
    if (!msg && (opt.jobs < 1 || opt.jobs > 256))
        msg = g_strdup_printf("--jobs %d: must be 1 to 256", opt.jobs);
    /* The shard is checked before standard input is read: a wrong one says
     * so at once. */
    cli_shard shard = { 0, 1 };
    char **env = g_get_environ();
    if (!msg && opt.shard)
        cli_shard_parse(opt.shard, env, &shard, &msg);
    g_strfreev(env);
    GPtrArray *names = msg ? NULL : cli_batch_inputs(argc, argv, opt.from, opt.quiet, &msg);
    if (!msg && names->len == 0)
        msg = g_strdup("no input files");
    if (msg) {
        int rc = usage_error(ctx, "%s", msg);
        g_free(msg);
        if (names)
            g_ptr_array_unref(names);
        return rc;
    }
    g_option_context_free(ctx);
    int rc = run_batch(names, shard);
    g_ptr_array_unref(names);
    return rc;
}

/* ---- report merge ---------------------------------------------------------- */

int cli_cmd_report(int argc, char **argv)
{
    gboolean json = FALSE;
    GOptionEntry entries[] = {
        { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the summary as one JSON object", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    GOptionContext *ctx = new_context(
        "report", "merge REPORT|DIR...",
        "Merge the --report files of a batch's shards and reruns into one summary.",
        "A DIR stands for its *.jsonl files. The summary counts each input once, by its\n"
        "latest line (a file transcoded, then skipped by a rerun, is transcoded once),\n"
        "lists the failures with their messages and the inputs whose runs were killed\n"
        "before they ended, and gives frames/s: the frames transcoded over the seconds\n"
        "their transcodes took.\n\n"
        "Exit status: 0 every input done, 1 some failed or not reported, 2 usage error\n"
        "or no readable report.\n\n"
        "Example:\n  cudafilters report merge out/reports/\n");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int rc;
    if (!parse_or_usage_error(ctx, &argc, &argv, &rc))
        return rc;
    if (argc < 2 || strcmp(argv[1], "merge"))
        return usage_error(ctx, argc < 2 ? "needs a subcommand: merge REPORT|DIR..."
                                         : "unknown subcommand '%s' (there is: merge)",
                           argc < 2 ? "" : argv[1]);
    if (argc < 3)
        return usage_error(ctx, "merge needs report files or folders");
    g_option_context_free(ctx);
    return cli_report_merge(argv + 2, argc - 2, json);
}

/* ---- filters, devices ---------------------------------------------------- */

int cli_cmd_info(int argc, char **argv, int (*print)(bool json), const char *summary)
{
    gboolean json = FALSE;
    GOptionEntry entries[] = {
        { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print JSON", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    GOptionContext *ctx = new_context(argv[0], "", summary, NULL);
    g_option_context_add_main_entries(ctx, entries, NULL);
    int rc;
    if (!parse_or_usage_error(ctx, &argc, &argv, &rc))
        return rc;
    if (argc > 1)
        return usage_error(ctx, "unexpected argument '%s'", argv[1]);
    g_option_context_free(ctx);
    return print(json);
}
