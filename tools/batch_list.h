/* cudafilters tool: a batch's list of files: the input names (arguments,
 * @LIST files, --from, standard input), each one's output, this shard's
 * share (shard.h) and what happens to outputs that exist (existing.h). */
#ifndef CLI_BATCH_LIST_H
#define CLI_BATCH_LIST_H

#include <stdbool.h>

#include <glib.h>

#include "batch.h"
#include "existing.h"
#include "shard.h"

/* The input names, in order: the arguments after argv[0] (an argument
 * @LIST reads the names in LIST, one per line; "-" reads standard input),
 * then those in `from` (a list file, "-": standard input); with neither,
 * standard input (saying so on a terminal unless `quiet`). Empty lines are
 * left out. Returns the names (g_ptr_array_unref it); on an unreadable list
 * *msg (g_free it) says which. */
GPtrArray *cli_batch_inputs(int argc, char **argv, const char *from, bool quiet, char **msg);

/* How the list becomes this shard's files. */
typedef struct cli_batch_plan {
    const char *out_dir;  /* outputs are OUT_DIR/<input's base name> */
    const char *ext;      /* that name's extension instead, or NULL */
    cli_shard shard;      /* {0, 1}: the whole list */
    cli_existing policy;  /* an output that exists: refused, skipped or replaced */
} cli_batch_plan;

/* This shard's files of `names` (which must outlive them), in list order,
 * into *n. Over the whole list, a second input that would write the same
 * output fails up front (error set) instead of overwriting the first one's
 * result, wherever each one's shard is. An existing output is skipped
 * (skipped set) or refused (error set; counted in *refused) per `policy`.
 * Free with cli_batch_files_free(). */
cli_batch_file *cli_batch_files(GPtrArray *names, const cli_batch_plan *plan, int *n,
                                int *refused);
void cli_batch_files_free(cli_batch_file *files, int n);

#endif
