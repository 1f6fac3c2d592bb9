/* cudafilters tool: a batch's share of its input list (`batch --shard`). */
#include "shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

/* Shards beyond this are surely a typo (and keep INDEX/COUNT in an int). */
#define MAX_SHARDS 1000000u

static bool parse_number(const char *s, guint64 *out)
{
    /* Digits only: GLib's parser refuses signs, spaces and trailing text. */
    return s[0] >= '0' && s[0] <= '9' &&
           g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, out, NULL);
}

static bool parse_pair(const char *spec, cli_shard *out, char **msg)
{
    const char *slash = strchr(spec, '/');
    guint64 index = 0, count = 0;
    char *left = slash ? g_strndup(spec, (gsize)(slash - spec)) : NULL;
    bool ok = left && parse_number(left, &index) && parse_number(slash + 1, &count);
    g_free(left);
    if (!ok) {
        *msg = g_strdup_printf("--shard '%s': expected INDEX/COUNT (e.g. 0/4, shards count "
                               "from 0) or auto (in a Slurm job array)", spec);
        return false;
    }
    if (count < 1 || count > MAX_SHARDS) {
        *msg = g_strdup_printf("--shard %s: COUNT must be 1 to %u", spec, MAX_SHARDS);
        return false;
    }
    if (index >= count) {
        *msg = g_strdup_printf("--shard %s: INDEX must be 0 to %" G_GUINT64_FORMAT
                               " (shards count from 0)", spec, count - 1);
        return false;
    }
    *out = (cli_shard){ (unsigned)index, (unsigned)count };
    return true;
}

bool cli_shard_parse(const char *spec, char **envp, cli_shard *out, char **msg)
{
    if (!strcmp(spec, "auto"))
        return cli_shard_from_slurm(envp, out, msg);
    return parse_pair(spec, out, msg);
}

/* One array variable as a number; false with *msg when set but not one. */
static bool slurm_var(char **envp, const char *name, bool *set, guint64 *value, char **msg)
{
    const char *s = g_environ_getenv(envp, name);
    *set = s != NULL;
    if (!s)
        return true;
    if (!parse_number(s, value)) {
        *msg = g_strdup_printf("--shard auto: %s='%s' is not a number", name, s);
        return false;
    }
    return true;
}

bool cli_shard_from_slurm(char **envp, cli_shard *out, char **msg)
{
    static const char *names[] = { "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN",
                                   "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_STEP",
                                   "SLURM_ARRAY_TASK_COUNT" };
    bool set[5];
    guint64 v[5] = { 0, 0, 0, 1, 0 };
    for (int i = 0; i < 5; i++)
        if (!slurm_var(envp, names[i], &set[i], &v[i], msg))
            return false;
    guint64 id = v[0], min = v[1], max = v[2], step = set[3] ? v[3] : 1, count = v[4];
    if (!set[0]) {
        *msg = g_strdup("--shard auto: SLURM_ARRAY_TASK_ID is not set, so this is not a task "
                        "of a Slurm job array (submit with sbatch --array=0-N); elsewhere give "
                        "--shard INDEX/COUNT, e.g. --shard $JOB_COMPLETION_INDEX/COUNT in a "
                        "Kubernetes indexed job");
        return false;
    }
    if (!set[1] || (!set[4] && !set[2])) {
        *msg = g_strdup_printf("--shard auto: SLURM_ARRAY_TASK_ID is set but %s is not, so the "
                               "array's size is unknown; give --shard INDEX/COUNT",
                               !set[1] ? "SLURM_ARRAY_TASK_MIN" : "SLURM_ARRAY_TASK_COUNT");
        return false;
    }
    if (step < 1 || id < min || (set[2] && (max < min || id > max))) {
        *msg = g_strdup_printf("--shard auto: SLURM_ARRAY_TASK_ID=%" G_GUINT64_FORMAT
                               " does not lie in the array %" G_GUINT64_FORMAT "-%"
                               G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, id, min, max, step);
        return false;
    }
    guint64 span = set[2] ? (max - min) / step + 1 : count;
    if (!set[4])
        count = span;
    if ((id - min) % step != 0 || span != count || (id - min) / step >= count ||
        count > MAX_SHARDS) {
        *msg = g_strdup_printf("--shard auto: the array's %" G_GUINT64_FORMAT " task IDs are not "
                               "the regular range %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT
                               ":%" G_GUINT64_FORMAT " (an ID list such as --array=1,5,7?); "
                               "submit --array=0-%" G_GUINT64_FORMAT " or give --shard "
                               "INDEX/COUNT", count, min, max, step, count ? count - 1 : 0);
        return false;
    }
    *out = (cli_shard){ (unsigned)((id - min) / step), (unsigned)count };
    return true;
}

typedef struct ranked {
    const char *name;
    int position; /* in the list, to tell equal names apart */
} ranked;

static int by_bytes(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->position > y->position) - (x->position < y->position);
}

void cli_shard_select(const char *const *names, int n, cli_shard shard, bool *mine)
{
    ranked *r = g_new(ranked, n > 0 ? n : 1);
    for (int i = 0; i < n; i++)
        r[i] = (ranked){ names[i], i };
    qsort(r, (size_t)n, sizeof *r, by_bytes);
    for (int rank = 0; rank < n; rank++)
        mine[r[rank].position] = (unsigned)rank % shard.count == shard.index;
    g_free(r);
}

void cli_shard_format(cli_shard shard, char *buf, unsigned long size)
{
    snprintf(buf, size, "%u/%u", shard.index, shard.count);
}
