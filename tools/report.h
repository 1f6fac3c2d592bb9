/* cudafilters tool: a batch's report file (`batch --report FILE`), JSON
 * lines that `cudafilters report merge` sums up across shards and reruns.
 *
 * A run appends, each line written whole with one write() as it happens, so
 * a run that is killed leaves every line it finished:
 *   {"run": "start", "shard": "1/3", "host": H, "pid": P, "started": T,
 *    "slurm_job": "12_1" (in a Slurm array task), "inputs": [the shard's inputs]}
 *   one line per file as it ends: the object `--json` lists for it
 *    ("input", "output", "ok", "skipped", "error", "frames_out", "seconds", ...)
 *   {"run": "end", "shard", "host", "pid", "started" (as in its start line),
 *    "finished": T, "seconds", "files", "done", "skipped", "failed", "interrupted"}
 * Times are UTC, ISO 8601 with milliseconds. A file line belongs to the run
 * whose start line precedes it, so one report file must not be appended to
 * by two runs at the same time (each shard has its own). */
#ifndef CLI_REPORT_H
#define CLI_REPORT_H

#include <stdbool.h>

#include <json-glib/json-glib.h>

typedef struct cli_report cli_report;

/* Opens `path` for appending, creating it and its folder if missing.
 * Returns NULL with *msg (g_free it) saying why it cannot be written. */
cli_report *cli_report_open(const char *path, char **msg);

/* The run's start line: `shard` as "INDEX/COUNT", the n inputs it holds. */
void cli_report_start(cli_report *r, const char *shard, const char *const *inputs, int n);

/* One file's line: `file` is its summary object (not taken). */
void cli_report_file(cli_report *r, JsonNode *file);

typedef struct cli_report_counts {
    int files, done, skipped, failed; /* done includes skipped */
    double seconds;                   /* the run's wall time */
    bool interrupted;                 /* stopped by a signal (Ctrl-C, scancel) */
} cli_report_counts;

/* The run's end line. */
void cli_report_end(cli_report *r, const cli_report_counts *counts);

/* Closes the file; false if any line could not be written (said once on
 * stderr when it happened). Sets *r to NULL; NULL is fine. */
bool cli_report_close(cli_report **r);

/* The summary object of a file skipped because its output exists
 * (json_node_unref it): input, output, ok true, skipped true, error null. */
JsonNode *cli_report_skipped_node(const char *in, const char *out);

/* The summary object of a file that failed without a summary of its own (up
 * front, crashed, not started; json_node_unref it): input, output null, ok
 * false, skipped false, error `error`. */
JsonNode *cli_report_failed_node(const char *in, const char *error);

/* A node as one line of JSON (g_free it). */
char *cli_report_node_text(JsonNode *node);

#endif
