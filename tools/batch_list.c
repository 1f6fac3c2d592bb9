/* cudafilters tool: a batch's list of files. */
#include "batch_list.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* Appends every non-empty line of `f` (without its line end) to names.
 * Returns 0, or the errno of a read that failed (a folder given as the
 * list: EISDIR, which read as an empty list, "no input files"). */
static int read_names(FILE *f, GPtrArray *names)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    errno = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len > 0)
            g_ptr_array_add(names, g_strdup(line));
    }
    int failed = ferror(f) ? (errno ? errno : EIO) : 0;
    free(line);
    return failed;
}

static bool read_list(const char *path, GPtrArray *names, char **msg)
{
    bool is_stdin = !strcmp(path, "-");
    FILE *f = is_stdin ? stdin : g_fopen(path, "r");
    int failed = f ? read_names(f, names) : errno;
    if (f && !is_stdin)
        fclose(f);
    if (failed)
        *msg = g_strdup_printf("cannot read the list %s: %s",
                               is_stdin ? "on standard input" : path, g_strerror(failed));
    return !failed;
}

GPtrArray *cli_batch_inputs(int argc, char **argv, const char *from, bool quiet, char **msg)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (int i = 1; i < argc && !*msg; i++) {
        if (argv[i][0] == '@')
            read_list(argv[i] + 1, names, msg);
        else if (!strcmp(argv[i], "-"))
            read_list("-", names, msg);
        else
            g_ptr_array_add(names, g_strdup(argv[i]));
    }
    if (!*msg && from)
        read_list(from, names, msg);
    if (!*msg && argc < 2 && !from) {
        if (isatty(STDIN_FILENO) && !quiet)
            fprintf(stderr, "cudafilters batch: reading file names from standard input "
                            "(one per line, end with Ctrl-D)\n");
        read_list("-", names, msg);
    }
    return names;
}

/* OUT-DIR/<input name with the plan's extension, or its own>. */
static char *output_name(const char *in, const cli_batch_plan *plan)
{
    char *base = g_path_get_basename(in);
    if (plan->ext) {
        char *dot = strrchr(base, '.');
        if (dot && dot != base)
            *dot = '\0';
        char *with = g_strdup_printf("%s.%s", base, plan->ext + (plan->ext[0] == '.'));
        g_free(base);
        base = with;
    }
    char *out = g_build_filename(plan->out_dir, base, NULL);
    g_free(base);
    return out;
}

/* The existing-output policy for one file still to run. */
static void check_existing(cli_batch_file *f, cli_existing policy, int *refused)
{
    switch (cli_output_check_path(f->in, f->out, policy)) {
    case CLI_OUTPUT_RUN:
        break;
    case CLI_OUTPUT_SKIP:
        f->skipped = true;
        break;
    case CLI_OUTPUT_REFUSE:
        f->error = cli_existing_refusal(f->out);
        (*refused)++;
        break;
    }
}

cli_batch_file *cli_batch_files(GPtrArray *names, const cli_batch_plan *plan, int *n,
                                int *refused)
{
    int all = (int)names->len;
    bool *mine = g_new(bool, all > 0 ? all : 1);
    cli_shard_select((const char *const *)names->pdata, all, plan->shard, mine);
    cli_batch_file *files = g_new0(cli_batch_file, all > 0 ? all : 1);
    GHashTable *outs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    *n = 0;
    *refused = 0;
    for (int i = 0; i < all; i++) {
        const char *in = g_ptr_array_index(names, i);
        char *out = output_name(in, plan);
        const char *first = g_hash_table_lookup(outs, out);
        if (!first)
            g_hash_table_insert(outs, g_strdup(out), (gpointer)in);
        if (!mine[i]) {
            g_free(out);
            continue;
        }
        cli_batch_file *f = &files[(*n)++];
        f->in = in;
        f->out = out;
        if (first)
            f->error = g_strdup_printf("its output %s would also be the output of %s", f->out,
                                       first);
        else
            check_existing(f, plan->policy, refused);
    }
    g_hash_table_destroy(outs);
    g_free(mine);
    return files;
}

void cli_batch_files_free(cli_batch_file *files, int n)
{
    for (int i = 0; i < n; i++) {
        g_free((char *)files[i].out);
        g_free(files[i].error);
        g_free(files[i].json);
        g_free(files[i].last_message);
        if (files[i].summary)
            json_node_unref(files[i].summary);
    }
    g_free(files);
}
