/* cudafilters tool: error messages and small helpers shared by the modules. */
#ifndef CLI_UTIL_H
#define CLI_UTIL_H

#include <signal.h>
#include <stddef.h>

#include <json-glib/json-glib.h>

/* A per-job error message ("cannot open input: No such file or directory").
 * The file name is prefixed by whoever prints it. */
typedef struct cli_err {
    char msg[1024];
} cli_err;

/* Formats the message into err (first failure wins: a message already set is
 * kept, since it names the cause) and returns `code`, so failures read
 * `return cli_fail(err, AVERROR(EINVAL), "...")`. */
int cli_fail(cli_err *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* cli_fail() for a failed libav call: "what: <av_err2str(code)>", plus libav's
 * own last log line where it says more ("moov atom not found"). */
int cli_fail_av(cli_err *err, int code, const char *what);

/* cli_fail() for a failed cudafilters call: "what: <cf_last_error()>". Returns
 * AVERROR_EXTERNAL so callers deal in one kind of error code. */
int cli_fail_cf(cli_err *err, const char *what);

/* --json, with json-glib: sets member `key` of the builder's current object
 * to a string (NULL: null), or to a number rounded to `decimals` places
 * after the point (0 to 9; written as an integer when it is one, null when
 * it is not finite). Seconds and frames/s take 3 (CLI_JSON_SECONDS,
 * CLI_JSON_FPS). */
void cli_json_set_string(JsonBuilder *b, const char *key, const char *value);
void cli_json_set_number(JsonBuilder *b, const char *key, double value, int decimals);
#define CLI_JSON_SECONDS 3
#define CLI_JSON_FPS 3

/* The builder's document as one line of JSON (g_free it; cli_json_text():
 * the same in every locale, doubles in their shortest digits); unrefs the
 * builder. */
char *cli_json_finish(JsonBuilder *b);

/* Monotonic time in seconds. */
double cli_now(void);

/* Set by the SIGINT/SIGTERM/SIGHUP handler: jobs stop at their next libav
 * I/O call or frame, clean up their temporary files and fail with
 * "interrupted". */
extern volatile sig_atomic_t cli_stop_requested;

/* The one temporary output file of this process, removed if the process
 * dies from a crash signal (SIGSEGV, SIGABRT from a libav assertion, ...) or
 * is ended by the watchdog, so no partial file survives even then. One job
 * per process: batch runs each file in a process of its own. */
/* `input` names the file in the crash message. */
void cli_cleanup_install(const char *input);
void cli_cleanup_set(const char *path);
void cli_cleanup_clear(void);
/* Removes the registered file, prints `message` (a full line) and ends the
 * process with `status`, from any thread. */
void cli_cleanup_exit(int status, const char *message) __attribute__((noreturn));

#endif
