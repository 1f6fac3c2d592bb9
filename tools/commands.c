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
#include "encoder.h"
#include "gpu.h"
#include "run.h"

/* Options of transcode and batch. */
static struct {
    gchar *vf, *codec, *pix_fmt, *device, *devices, *out_dir, *from, *ext;
    gint quality, max_errors, jobs, verbose;
    gdouble stall_timeout;
    gboolean json, quiet, machine_progress;
} opt = { .quality = -1, .jobs = 1, .stall_timeout = 60 };

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
      "default h264: NVENC where the GPU has it, else libx264", "NAME" },
    { "quality", 'q', 0, G_OPTION_ARG_INT, &opt.quality,
      "Constant quality, lower is better: x264/x265 crf, NVENC cq, else qscale", "N" },
    { "pix-fmt", 0, 0, G_OPTION_ARG_STRING, &opt.pix_fmt,
      "Pixel format the encoder gets, e.g. yuv420p (default: what the filters give, "
      "converted only if the encoder does not take it)", "NAME" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &opt.device,
      "GPU ordinal, cpu, or auto (default: GPU 0 if there is one)", "N|cpu|auto" },
    { "max-errors", 0, 0, G_OPTION_ARG_INT, &opt.max_errors,
      "Damaged packets or frames tolerated per file (default 0: a damaged file fails)", "N" },
    { "stall-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt.stall_timeout,
      "Give up on a file that makes no progress for this long (default 60)", "SECONDS" },
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
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &opt.jobs, "Files processed at the same time (default 1)",
      "N" },
    { "devices", 0, 0, G_OPTION_ARG_STRING, &opt.devices,
      "GPUs to spread the jobs over, e.g. 0,1 (default: as --device)", "LIST" },
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

/* Checks the options every job shares, before anything runs, so a typo
 * fails at once and names the bad token. NULL if fine, else a message. */
static char *check_common(void)
{
    if (opt.vf) {
        cf_chain *chain = cf_chain_parse(opt.vf);
        if (!chain)
            return g_strdup_printf("--vf: %s", cf_last_error());
        cf_chain_free(&chain);
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
    if (!(opt.stall_timeout > 0))
        return g_strdup_printf("--stall-timeout %g: must be more than 0", opt.stall_timeout);
    return NULL;
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
    if (!opt.codec)
        opt.codec = g_strdup("h264");
    return check_common();
}

/* ---- GPUs -------------------------------------------------------------- */

static bool parse_ordinal(const char *s, int count, int *out, char **msg)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0 || v > 1024) {
        *msg = g_strdup_printf("'%s' is not a GPU ordinal (a number, cpu or auto)", s);
        return false;
    }
    if (v >= count) {
        const char *reason = "";
        cli_gpu_count(&reason);
        *msg = count ? g_strdup_printf("GPU %ld does not exist (this machine has %d: 0..%d)", v,
                                       count, count - 1)
                     : g_strdup_printf("GPU %ld: no GPU (%s)", v, reason);
        return false;
    }
    *out = (int)v;
    return true;
}

/* Ordinals of the GPUs to use from --devices or --device into ords[]
 * (none: CPU). Says once, on stderr, when there is no GPU to use. */
static int choose_gpus(int *ords, int max, char **msg)
{
    const char *reason = "";
    int count = cli_gpu_count(&reason), n = 0;
    if (opt.devices) {
        char **parts = g_strsplit(opt.devices, ",", -1);
        for (int i = 0; parts[i] && !*msg; i++)
            if (n < max && parse_ordinal(g_strstrip(parts[i]), count, &ords[n], msg))
                n++;
        g_strfreev(parts);
        return *msg ? -1 : n;
    }
    if (opt.device && !strcmp(opt.device, "cpu"))
        return 0;
    if (!opt.device || !strcmp(opt.device, "auto")) {
        if (count > 0) {
            ords[0] = 0;
            return 1;
        }
        if (!opt.quiet)
            fprintf(stderr, "cudafilters: no GPU (%s): filters run on the CPU\n", reason);
        return 0;
    }
    return parse_ordinal(opt.device, count, &ords[0], msg) ? 1 : -1;
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
    return (cli_job_opts){ .vf = opt.vf, .codec = opt.codec, .quality = opt.quality,
                           .pix_fmt = opt.pix_fmt ? av_get_pix_fmt(opt.pix_fmt) : AV_PIX_FMT_NONE,
                           .max_errors = opt.max_errors, .stall_timeout = opt.stall_timeout };
}

static int run_transcode(const char *in, const char *out)
{
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
                        .machine_progress = opt.machine_progress, .json = opt.json };
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

/* ---- batch inputs -------------------------------------------------------- */

/* Appends every non-empty line of `f` (without its line end) to names. */
static void read_names(FILE *f, GPtrArray *names)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len > 0)
            g_ptr_array_add(names, g_strdup(line));
    }
    free(line);
}

static bool read_list(const char *path, GPtrArray *names, char **msg)
{
    if (!strcmp(path, "-")) {
        read_names(stdin, names);
        return true;
    }
    FILE *f = g_fopen(path, "r");
    if (!f) {
        *msg = g_strdup_printf("cannot read the list %s: %s", path, g_strerror(errno));
        return false;
    }
    read_names(f, names);
    fclose(f);
    return true;
}

/* Input names from the arguments (@LIST and - read lists), --from, or,
 * with neither, standard input. */
static GPtrArray *collect_inputs(int argc, char **argv, char **msg)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (int i = 1; i < argc && !*msg; i++) {
        if (argv[i][0] == '@')
            read_list(argv[i] + 1, names, msg);
        else if (!strcmp(argv[i], "-"))
            read_list("-", names, msg);
        else
            g_ptr_array_add(names, g_strdup(argv[i]));
    }
    if (!*msg && opt.from)
        read_list(opt.from, names, msg);
    if (!*msg && argc < 2 && !opt.from) {
        if (isatty(STDIN_FILENO) && !opt.quiet)
            fprintf(stderr, "cudafilters batch: reading file names from standard input "
                            "(one per line, end with Ctrl-D)\n");
        read_list("-", names, msg);
    }
    return names;
}

/* OUT-DIR/<input name with --ext, or its own extension>. */
static char *output_name(const char *in)
{
    char *base = g_path_get_basename(in);
    if (opt.ext) {
        char *dot = strrchr(base, '.');
        if (dot && dot != base)
            *dot = '\0';
        char *with = g_strdup_printf("%s.%s", base, opt.ext + (opt.ext[0] == '.'));
        g_free(base);
        base = with;
    }
    char *out = g_build_filename(opt.out_dir, base, NULL);
    g_free(base);
    return out;
}

/* Files for the inputs; a second input that would write the same output
 * fails up front instead of overwriting the first one's result. */
static cli_batch_file *make_files(GPtrArray *names)
{
    cli_batch_file *files = g_new0(cli_batch_file, names->len);
    GHashTable *outs = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint i = 0; i < names->len; i++) {
        cli_batch_file *f = &files[i];
        f->in = g_ptr_array_index(names, i);
        f->out = output_name(f->in);
        const char *first = g_hash_table_lookup(outs, f->out);
        if (first)
            f->error = g_strdup_printf("its output %s would also be the output of %s", f->out,
                                       first);
        else
            g_hash_table_insert(outs, (gpointer)f->out, (gpointer)f->in);
    }
    g_hash_table_destroy(outs);
    return files;
}

static void free_files(cli_batch_file *files, int n)
{
    for (int i = 0; i < n; i++) {
        g_free((char *)files[i].out);
        g_free(files[i].error);
        g_free(files[i].json);
        g_free(files[i].last_message);
    }
    g_free(files);
}

/* The options every child gets: the shared ones, as parsed here. */
static char **child_options(void)
{
    GPtrArray *a = g_ptr_array_new();
    g_ptr_array_add(a, g_strdup("--quiet"));
    g_ptr_array_add(a, g_strdup("--json"));
    g_ptr_array_add(a, g_strdup("--machine-progress"));
    if (opt.vf)
        g_ptr_array_add(a, g_strdup_printf("--vf=%s", opt.vf));
    g_ptr_array_add(a, g_strdup_printf("--codec=%s", opt.codec));
    if (opt.quality >= 0)
        g_ptr_array_add(a, g_strdup_printf("--quality=%d", opt.quality));
    if (opt.pix_fmt)
        g_ptr_array_add(a, g_strdup_printf("--pix-fmt=%s", opt.pix_fmt));
    g_ptr_array_add(a, g_strdup_printf("--max-errors=%d", opt.max_errors));
    char num[G_ASCII_DTOSTR_BUF_SIZE];
    g_ptr_array_add(a, g_strdup_printf("--stall-timeout=%s",
                                       g_ascii_dtostr(num, sizeof num, opt.stall_timeout)));
    for (int i = 0; i < opt.verbose; i++)
        g_ptr_array_add(a, g_strdup("--verbose"));
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

static int run_batch(GPtrArray *names)
{
    int ords[64];
    char *msg = NULL;
    int n_gpus = choose_gpus(ords, 64, &msg);
    if (n_gpus < 0) {
        int rc = usage_error(NULL, "%s", msg);
        g_free(msg);
        return rc;
    }
    if (g_mkdir_with_parents(opt.out_dir, 0777) != 0)
        fprintf(stderr, "cudafilters: cannot create %s: %s\n", opt.out_dir, g_strerror(errno));
    int n = (int)names->len;
    cli_batch_file *files = make_files(names);
    char **options = child_options();
    cli_batch_opts bo = { .exe = self_exe, .child_options = options, .parallel = opt.jobs,
                          .gpus = ords, .n_gpus = n_gpus, .stall_timeout = opt.stall_timeout,
                          .progress = !opt.quiet && isatty(STDERR_FILENO), .json = opt.json };
    int failed = cli_batch_run(files, n, &bo);
    g_strfreev(options);
    free_files(files, n);
    if (cli_stop_requested)
        return CLI_EXIT_INTERRUPTED;
    return failed > CLI_EXIT_MAX_FAILED ? CLI_EXIT_MAX_FAILED : failed;
}

int cli_cmd_batch(int argc, char **argv)
{
    GOptionContext *ctx = new_context(
        "batch", "[FILE... | @LIST | -]",
        "Filter many video files into --out-dir, --jobs at a time.",
        "Inputs: the FILE arguments, the names in LIST files (@LIST, one per line) and\n"
        "--from FILE; with none of them, the names on standard input. Each output is\n"
        "DIR/<input name> (with --ext: that extension). A file that fails (missing,\n"
        "empty, truncated, corrupt) is reported on stderr as 'cudafilters: FILE: why';\n"
        "the others go on. No partial output is left behind.\n\n"
        "Exit status: the number of files that failed (at most 125), 2 usage error\n"
        "(nothing ran), 130 interrupted.\n\n"
        "Example:\n  ls *.mp4 | cudafilters batch --vf gray --out-dir gray/ --jobs 4 --json\n");
    char *msg = parse_job_options(ctx, batch_entries, &argc, &argv);
    if (!msg && !opt.out_dir)
        msg = g_strdup("--out-dir is required");
    if (!msg && (opt.jobs < 1 || opt.jobs > 256))
        msg = g_strdup_printf("--jobs %d: must be 1 to 256", opt.jobs);
    GPtrArray *names = msg ? NULL : collect_inputs(argc, argv, &msg);
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
    int rc = run_batch(names);
    g_ptr_array_unref(names);
    return rc;
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
    GError *error = NULL;
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        int rc = usage_error(ctx, "%s", error->message);
        g_error_free(error);
        return rc;
    }
    if (argc > 1)
        return usage_error(ctx, "unexpected argument '%s'", argv[1]);
    g_option_context_free(ctx);
    return print(json);
}
