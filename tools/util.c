/* cudafilters tool: error messages and small helpers shared by the modules. */
#include "util.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cudafilters/cudafilters.h>
#include <glib.h>
#include <libavutil/error.h>

#include "avlog.h"
#include "json_text.h"

int cli_fail(cli_err *err, int code, const char *fmt, ...)
{
    if (err && !err->msg[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

int cli_fail_av(cli_err *err, int code, const char *what)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = "";
    av_strerror(code, text, sizeof text);
    const char *log = cli_avlog_last();
    if (log[0] && !strstr(text, log))
        return cli_fail(err, code, "%s: %s (%s)", what, text, log);
    return cli_fail(err, code, "%s: %s", what, text);
}

int cli_fail_cf(cli_err *err, const char *what)
{
    return cli_fail(err, AVERROR_EXTERNAL, "%s: %s", what, cf_last_error());
}

void cli_json_set_string(JsonBuilder *b, const char *key, const char *value)
{
    json_builder_set_member_name(b, key);
    if (value)
        json_builder_add_string_value(b, value);
    else
        json_builder_add_null_value(b);
}

void cli_json_set_number(JsonBuilder *b, const char *key, double value, int decimals)
{
    double v = value;
    if (v > -1e15 && v < 1e15) {
        char buf[64], fmt[8];
        g_snprintf(fmt, sizeof fmt, "%%.%df", decimals < 0 ? 0 : decimals > 9 ? 9 : decimals);
        v = g_ascii_strtod(g_ascii_formatd(buf, sizeof buf, fmt, value), NULL);
    }
    json_builder_set_member_name(b, key);
    if (v > -1e15 && v < 1e15 && v == (double)(gint64)v)
        json_builder_add_int_value(b, (gint64)v);
    else
        json_builder_add_double_value(b, v); /* NaN, infinities: null (json_text.h) */
}

char *cli_json_finish(JsonBuilder *b)
{
    JsonNode *root = json_builder_get_root(b);
    char *text = cli_json_text(root);
    json_node_unref(root);
    g_object_unref(b);
    return text;
}

double cli_now(void)
{
    return (double)g_get_monotonic_time() / 1e6;
}

volatile sig_atomic_t cli_stop_requested;

/* Plain buffers: the signal handler may only read memory and call unlink,
 * write and raise. */
static char cleanup_path[4096];
static char cleanup_message[4096];
static volatile sig_atomic_t cleanup_armed;

static void remove_file(void)
{
    if (cleanup_armed) {
        cleanup_armed = 0;
        unlink(cleanup_path);
    }
}

static void say(const char *message)
{
    ssize_t ignored = write(STDERR_FILENO, message, strlen(message));
    (void)ignored;
}

static void on_crash(int sig)
{
    remove_file();
    /* snprintf is not async-signal-safe: the number is written by hand. */
    char num[4] = { (char)('0' + sig / 10 % 10), (char)('0' + sig % 10), ')', '\0' };
    say(cleanup_message);
    say(sig >= 10 ? num : num + 1);
    say(" in libav or a filter\n");
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_cleanup_install(const char *input)
{
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
    snprintf(cleanup_message, sizeof cleanup_message, "cudafilters: %s: crashed (signal ", input);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_crash);
}

void cli_cleanup_set(const char *path)
{
    cleanup_armed = 0;
    snprintf(cleanup_path, sizeof cleanup_path, "%s", path);
    cleanup_armed = 1;
}

void cli_cleanup_clear(void)
{
    cleanup_armed = 0;
}

void cli_cleanup_exit(int status, const char *message)
{
    remove_file();
    say(message);
    _exit(status);
}
