/* cudafilters tool: libav's log messages, kept per thread for our errors.
 *
 * libav reports the cause of a failure (e.g. "moov atom not found") only
 * through its log; the error code says just "Invalid data". We keep the last
 * warning or error of each thread so a per-file message can quote it, and
 * print libav's log itself only with --verbose. */
#ifndef CLI_AVLOG_H
#define CLI_AVLOG_H

/* Installs the log callback. verbose: 0 prints nothing from libav, 1 its
 * warnings and errors, 2 also its informational messages. Call once, before
 * any thread uses libav. */
void cli_avlog_init(int verbose);

/* Forgets the calling thread's last message. */
void cli_avlog_clear(void);

/* The calling thread's last libav warning or error since cli_avlog_clear(),
 * without the trailing newline; "" if none. Valid until the thread's next
 * libav call. */
const char *cli_avlog_last(void);

#endif
