/* cudafilters: the command-line tool. Dispatches the commands
 *   transcode IN OUT, batch FILE..., report merge, filters, devices
 * to commands.c, which turns options into jobs for run.c. */
#include <errno.h>
#include <locale.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <cudafilters/cudafilters.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>

#include "avlog.h"
#include "commands.h"
#include "info.h"
#include "util.h"

static void on_signal(int sig)
{
    (void)sig;
    cli_stop_requested = 1;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* SIGHUP: the terminal closed; the job stops and cleans up as on Ctrl-C. */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static void print_version(void)
{
    unsigned f = avformat_version(), c = avcodec_version(), s = swscale_version();
    printf("cudafilters %s\n", CLI_VERSION);
    printf("libavformat %u.%u.%u, libavcodec %u.%u.%u, libswscale %u.%u.%u\n",
           AV_VERSION_MAJOR(f), AV_VERSION_MINOR(f), AV_VERSION_MICRO(f), AV_VERSION_MAJOR(c),
           AV_VERSION_MINOR(c), AV_VERSION_MICRO(c), AV_VERSION_MAJOR(s), AV_VERSION_MINOR(s),
           AV_VERSION_MICRO(s));
    printf("filters: %s\n", cf_have_cuda() ? "CUDA kernels, optimized CPU code and CPU references"
                                           : "optimized CPU code and CPU references (built without CUDA)");
}

static void print_usage(FILE *f)
{
    fprintf(f,
            "Usage: cudafilters COMMAND [OPTION...]\n"
            "\n"
            "GPU video filters for batch transcoding (FFmpeg's libraries decode and encode).\n"
            "\n"
            "Commands:\n"
            "  transcode IN OUT --vf FILTERS   filter one video file into OUT\n"
            "  batch --out-dir DIR FILE...     filter many files (names also from @LIST or stdin)\n"
            "  report merge REPORT|DIR...      one summary of batch --report files (shards, reruns)\n"
            "  filters                         list the filters and their parameters\n"
            "  devices                         list the GPUs (or say why there is none)\n"
            "\n"
            "Options:\n"
            "  -h, --help       this help (COMMAND --help: the command's options)\n"
            "  -V, --version    versions of cudafilters and FFmpeg's libraries\n"
            "\n"
            "Example:\n"
            "  cudafilters transcode in.mp4 out.mp4 --vf \"gray,blur=sigma=2\"\n");
}

/* What a command wrote on stdout (--json, the filters table) must have
 * reached it: a full disk or a closed pipe gave a lost or cut summary with
 * exit status 0. Returns rc, or 1 for a success whose output was lost. */
static int check_stdout(int rc)
{
    /* An earlier write's error (a flush of a --json line) is kept only as
     * the stream's flag, its errno gone. */
    bool failed_before = ferror(stdout), failed = fflush(stdout) != 0;
    if (!failed && !failed_before)
        return rc;
    if (failed && !failed_before)
        fprintf(stderr, "cudafilters: cannot write to standard output: %s\n", strerror(errno));
    else
        fprintf(stderr, "cudafilters: cannot write to standard output: a write failed, "
                        "what it holds is incomplete\n");
    return rc ? rc : 1;
}

static int run_command(int argc, char **argv)
{
    const char *cmd = argv[1];
    if (!strcmp(cmd, "transcode"))
        return cli_cmd_transcode(argc - 1, argv + 1);
    if (!strcmp(cmd, "batch"))
        return cli_cmd_batch(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return cli_cmd_report(argc - 1, argv + 1);
    if (!strcmp(cmd, "filters"))
        return cli_cmd_info(argc - 1, argv + 1, cli_print_filters,
                            "List the filters and their parameters.");
    if (!strcmp(cmd, "devices"))
        return cli_cmd_info(argc - 1, argv + 1, cli_print_devices,
                            "List the GPUs, or say why there is none.");
    fprintf(stderr, "cudafilters: unknown command '%s'\n", cmd);
    print_usage(stderr);
    return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    /* Messages in the user's charset; numbers stay "2.5" whatever the locale,
     * since filter strings are parsed with strtod. */
    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C");
    if (argc < 2) {
        print_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        print_usage(stdout);
        return check_stdout(0);
    }
    if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
        print_version();
        return check_stdout(0);
    }
    install_signals();
    cli_set_self(argv[0]);
    return check_stdout(run_command(argc, argv));
}
