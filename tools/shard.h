/* cudafilters tool: a batch's share of its input list (`batch --shard`).
 *
 * The shards of one list cover every name exactly once, and a name's shard
 * depends only on the set of names: the names are ranked by their bytes
 * (strcmp, no locale) and the name of rank r belongs to shard r mod COUNT.
 * So every machine that expands the same list, in whatever order its shell
 * globbed it, computes the same shares, and the shares differ in size by at
 * most one file. */
#ifndef CLI_SHARD_H
#define CLI_SHARD_H

#include <stdbool.h>

typedef struct cli_shard {
    unsigned index, count; /* 0 <= index < count; {0, 1}: the whole list */
} cli_shard;

/* Parses "INDEX/COUNT" (decimal, INDEX from 0 to COUNT-1) or "auto" (from
 * the Slurm job array variables in `envp`, see cli_shard_from_slurm) into
 * *out. On failure returns false with *msg (g_free it) saying what is wrong
 * and what to give instead; *out is untouched. */
bool cli_shard_parse(const char *spec, char **envp, cli_shard *out, char **msg);

/* The shard of this Slurm array task: index = (SLURM_ARRAY_TASK_ID -
 * SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP, count =
 * SLURM_ARRAY_TASK_COUNT (or from MIN, MAX and STEP where COUNT is not set).
 * `envp`: NULL-terminated "NAME=value" strings (g_get_environ()). Fails,
 * saying which variable is missing or why the array's task IDs do not map
 * onto 0..COUNT-1 (a list such as --array=1,5,7), when this is not a task of
 * an array with regular IDs. */
bool cli_shard_from_slurm(char **envp, cli_shard *out, char **msg);

/* Marks mine[i] true for every names[i] (n of them) in `shard`, false for
 * the others. Names that occur twice get distinct ranks, so each
 * occurrence still lands in exactly one shard. Pure: no I/O, no locale. */
void cli_shard_select(const char *const *names, int n, cli_shard shard, bool *mine);

/* "2/8" into buf (at least 24 bytes). */
void cli_shard_format(cli_shard shard, char *buf, unsigned long size);

#endif
