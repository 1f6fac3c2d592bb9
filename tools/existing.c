/* cudafilters tool: what happens to an output file that exists already. */
#include "existing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <sys/stat.h>

#include <glib.h>
#include <glib/gstdio.h>

bool cli_same_file(const GStatBuf *a, const GStatBuf *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

cli_output_check cli_output_check_path(const char *in, const char *out, cli_existing policy)
{
    GStatBuf out_st, in_st;
    if (policy == CLI_EXISTING_OVERWRITE || g_lstat(out, &out_st) != 0)
        return CLI_OUTPUT_RUN;
    /* A directory, or OUT being IN: never a finished output to skip or
     * keep; the job refuses either with its own message, before any work. */
    if (g_stat(out, &out_st) == 0 &&
        (S_ISDIR(out_st.st_mode) || (g_stat(in, &in_st) == 0 && cli_same_file(&in_st, &out_st))))
        return CLI_OUTPUT_RUN;
    return policy == CLI_EXISTING_SKIP ? CLI_OUTPUT_SKIP : CLI_OUTPUT_REFUSE;
}

char *cli_existing_refusal(const char *out)
{
    return g_strdup_printf("the output %s exists already: left alone (--skip-existing skips "
                           "such files, --overwrite replaces them)", out);
}

int cli_rename_noreplace(const char *from, const char *to)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return -1;
    /* No RENAME_NOREPLACE here (NFS, some FUSE): link() fails atomically
     * when `to` exists. */
    if (link(from, to) == 0)
        return g_unlink(from); /* the output is in place; the temporary name goes */
    if (errno == EEXIST)
        return -1;
    /* No hard links either (FAT, ...): check, then rename. */
    GStatBuf st;
    if (g_lstat(to, &st) == 0) {
        errno = EEXIST;
        return -1;
    }
    return g_rename(from, to);
}
