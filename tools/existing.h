/* cudafilters tool: what happens to an output file that exists already
 * (`transcode` and `batch`: --overwrite, --skip-existing).
 *
 * Outputs only ever appear complete (written under OUT.part-PID, renamed at
 * the end), so an existing output is a finished one: a rerun with
 * --skip-existing resumes where the last run stopped. Without either
 * option an existing output is refused, never overwritten silently, and the
 * rename at the end does not replace one that appeared while the file ran. */
#ifndef CLI_EXISTING_H
#define CLI_EXISTING_H

#include <stdbool.h>

#include <glib/gstdio.h>

typedef enum cli_existing {
    CLI_EXISTING_REFUSE,    /* default: the file fails, the output is left alone */
    CLI_EXISTING_SKIP,      /* --skip-existing: the file is skipped, counted as done */
    CLI_EXISTING_OVERWRITE, /* --overwrite: replaced once the new output is complete */
} cli_existing;

/* What to do with the file IN -> OUT before it runs. */
typedef enum cli_output_check {
    CLI_OUTPUT_RUN,     /* no output yet, or --overwrite, or OUT is IN itself or a
                         * directory (the job refuses those with its own message) */
    CLI_OUTPUT_SKIP,    /* it exists and --skip-existing was given */
    CLI_OUTPUT_REFUSE,  /* it exists and neither option was given */
} cli_output_check;

/* Whether two stat results are of one file (device and inode). */
bool cli_same_file(const GStatBuf *a, const GStatBuf *b);

/* Looks at OUT (anything at that name counts, a dangling link too). */
cli_output_check cli_output_check_path(const char *in, const char *out, cli_existing policy);

/* The refusal, for "cudafilters: IN: <this>" (g_free it). */
char *cli_existing_refusal(const char *out);

/* Renames `from` to `to` unless `to` exists: atomically where the file
 * system can (renameat2 RENAME_NOREPLACE, else a hard link), else after a
 * check. Returns 0, or -1 with errno set (EEXIST: `to` exists, `from` is
 * kept). */
int cli_rename_noreplace(const char *from, const char *to);

#endif
