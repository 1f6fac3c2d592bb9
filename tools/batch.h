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

typedef struct cli_batch_file {
    const char *in, *out;
    char *error;                  /* failed up front (e.g. duplicate output), else NULL */
    _Atomic int64_t frames, total;/* from the child's progress reports */
    _Atomic int running;
    bool ok;
    char *json;                   /* the child's summary object, or NULL */
    char *last_message;           /* the child's last stderr line, for the summary */
} cli_batch_file;

typedef struct cli_batch_opts {
    const char *exe;              /* this program, to run `transcode` */
    char **child_options;         /* options every child gets (NULL-terminated) */
    int parallel;                 /* children at a time */
    const int *gpus;              /* ordinals to spread over; n_gpus == 0: CPU */
    int n_gpus;
    double stall_timeout;         /* the children's --stall-timeout */
    bool progress, json;
} cli_batch_opts;

/* Runs every file not failed up front, `parallel` at a time, each on the GPU
 * with the fewest running children. Failures are printed to stderr as they
 * happen ("cudafilters: FILE: why"). With json, prints {"files": [...],
 * "total", "failed", "seconds"} on stdout. Returns the number of failed files. */
int cli_batch_run(cli_batch_file *files, int n, const cli_batch_opts *opts);

#endif
