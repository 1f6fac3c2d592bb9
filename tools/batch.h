/* cudafilters tool: `batch`, each file transcoded in a child process.
 *
 * A child process per file (this same program's `transcode`) is what makes
 * the batch go on whatever one file does: a libav assertion or crash, or a
 * decoder stuck in a loop, ends that child only. The parent spreads the
 * children over the GPUs, shows one progress line from their reports,
 * relays their messages, removes what a killed child could not, and counts
 * the failures. */
#ifndef CLI_BATCH_H
#define CLI_BATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "report.h"

typedef struct cli_batch_file {
    const char *in, *out;
    char *error;                  /* failed up front (e.g. duplicate output), else NULL */
    bool skipped;                 /* its output exists (--skip-existing): not run; also
                                   * set when the child skipped it */
    _Atomic int64_t frames, total;/* from the child's progress reports */
    _Atomic int running;
    bool ok;
    char *json;                   /* the child's summary object, or NULL */
    char *last_message;           /* the child's last stderr line, for the summary */
    JsonNode *summary;            /* the file's object in --json and --report, made
                                   * when it ends */
} cli_batch_file;

typedef struct cli_batch_opts {
    const char *exe;              /* this program, to run `transcode` */
    char **child_options;         /* options every child gets (NULL-terminated) */
    int parallel;                 /* children at a time */
    const int *gpus;              /* ordinals to spread over; n_gpus == 0: CPU */
    int n_gpus;
    double stall_timeout;         /* the children's --stall-timeout */
    bool progress, json;
    bool quiet;                   /* --quiet: the children's warnings not on stderr */
    cli_report *report;           /* --report: a line per file as it ends, or NULL */
} cli_batch_opts;

/* What a batch did. */
typedef struct cli_batch_result {
    int failed;                   /* files that failed */
    int skipped;                  /* files skipped: their outputs existed */
    double seconds;               /* wall time */
} cli_batch_result;

/* Runs every file not failed or skipped up front, `parallel` at a time, each
 * on the GPU with the fewest running children (cli_devices_pick). Once a
 * stop is requested (Ctrl-C, SIGTERM) no new file starts; those left fail as
 * "interrupted before it started" (one line on stderr says how many). Other
 * failures are printed to stderr as they happen ("cudafilters: FILE: why"). Each file's summary goes to the report
 * as it ends. With json, prints {"files": [...], "total", "failed",
 * "skipped", "seconds"} on stdout. */
cli_batch_result cli_batch_run(cli_batch_file *files, int n, const cli_batch_opts *opts);

#endif
