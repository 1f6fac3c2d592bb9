/* cudafilters tool: libav's log messages, kept per thread for our errors. */
#include "avlog.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <libavutil/log.h>

static int print_level = AV_LOG_QUIET;
static _Thread_local char last[512];
/* libav sends one line in several calls; a piece without '\n' continues. */
static _Thread_local int line_open;

static void strip_newline(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

static void callback(void *avcl, int level, const char *fmt, va_list vl)
{
    /* Fatal messages come right before libav aborts (a failed assertion):
     * always shown, since they are the only clue to the crash. */
    if (level <= print_level || level <= AV_LOG_FATAL) {
        va_list copy;
        va_copy(copy, vl);
        av_log_default_callback(avcl, level, fmt, copy);
        va_end(copy);
    }
    if (level > AV_LOG_WARNING)
        return;
    char piece[sizeof last];
    int prefix = 0; /* no "[h264 @ 0x...]": the file name is what users need */
    av_log_format_line2(avcl, level, fmt, vl, piece, sizeof piece, &prefix);
    size_t len = strlen(piece);
    int ends_line = len > 0 && piece[len - 1] == '\n';
    if (line_open)
        strncat(last, piece, sizeof last - strlen(last) - 1);
    else if (len > 0)
        snprintf(last, sizeof last, "%s", piece);
    strip_newline(last);
    line_open = len > 0 && !ends_line;
}

void cli_avlog_init(int verbose)
{
    print_level = verbose >= 2 ? AV_LOG_INFO : verbose == 1 ? AV_LOG_WARNING : AV_LOG_QUIET;
    av_log_set_level(verbose >= 2 ? AV_LOG_INFO : AV_LOG_WARNING);
    av_log_set_callback(callback);
}

void cli_avlog_clear(void)
{
    last[0] = '\0';
    line_open = 0;
}

const char *cli_avlog_last(void)
{
    return last;
}
