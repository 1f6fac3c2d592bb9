/* cudafilters tool: running one job in this process (`transcode`, and each
 * file of a batch in its own child process) with progress, a watchdog and
 * the --json summary. */
#ifndef CLI_RUN_H
#define CLI_RUN_H

#include <stdbool.h>

#include <glib.h>

#include "job.h"

typedef struct cli_run_opts {
    bool progress;          /* a progress line on stderr (a TTY, not --quiet) */
    bool machine_progress;  /* "progress FRAMES TOTAL" lines on stdout, for batch */
    bool json;              /* the job's summary as one JSON line on stdout */
    bool quiet;             /* --quiet: no warning on stderr (the summary keeps it) */
} cli_run_opts;

/* Runs the job on a worker thread while this thread shows progress and
 * watches it: a job whose decoder makes no progress for --stall-timeout
 * plus a grace period (libav's I/O interrupt covers blocking reads; this
 * covers a decoder stuck in a loop) ends the process with its temporary file
 * removed, as does Ctrl-C that the job does not honour in time. A failure
 * is printed as "cudafilters: FILE: why". Returns the exit status: 0, 1
 * (failed) or 130 (interrupted). */
int cli_run_job(cli_job *job, const cli_run_opts *opts);

/* The job's summary as a JSON object on one line (g_free it). */
char *cli_job_json(const cli_job *job);

/* "0:42" or "1:02:03"; "?" for a negative or huge value. */
void cli_format_eta(char *buf, size_t n, double seconds);

#endif
