/* cudafilters tool: a batch's report file, JSON lines. */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "json_text.h"
#include "util.h"

struct cli_report {
    char *path;
    int fd;
    bool failed;    /* a line could not be written (said once) */
    char *shard, *started;
};

cli_report *cli_report_open(const char *path, char **msg)
{
    char *dir = g_path_get_dirname(path);
    int made = g_mkdir_with_parents(dir, 0777);
    g_free(dir);
    int fd = made == 0 ? g_open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666) : -1;
    if (fd < 0) {
        *msg = g_strdup_printf("--report %s: cannot write it: %s", path, g_strerror(errno));
        return NULL;
    }
    cli_report *r = g_new0(cli_report, 1);
    r->path = g_strdup(path);
    r->fd = fd;
    return r;
}

char *cli_report_node_text(JsonNode *node)
{
    return cli_json_text(node);
}

/* Appends the node and a newline in one write(), so lines of a killed run
 * are whole or absent. */
static void write_line(cli_report *r, JsonNode *node)
{
    char *text = cli_report_node_text(node);
    char *line = g_strconcat(text, "\n", NULL);
    size_t len = strlen(line);
    ssize_t n;
    do
        n = write(r->fd, line, len);
    while (n < 0 && errno == EINTR);
    if ((n < 0 || (size_t)n != len) && !r->failed) {
        fprintf(stderr, "cudafilters: --report %s: cannot write: %s (the report is "
                        "incomplete)\n", r->path, n < 0 ? g_strerror(errno) : "short write");
        r->failed = true;
    }
    g_free(line);
    g_free(text);
}

static char *now_iso8601(void)
{
    GDateTime *now = g_date_time_new_now_utc();
    char *text = g_date_time_format(now, "%Y-%m-%dT%H:%M:%S.%fZ");
    g_date_time_unref(now);
    /* %f gives microseconds; milliseconds are plenty. */
    size_t len = strlen(text);
    if (len > 5)
        memmove(text + len - 4, "Z", 2);
    return text;
}

/* The members that name the run, in both of its lines. */
static void run_identity(cli_report *r, JsonBuilder *b, const char *which)
{
    cli_json_set_string(b, "run", which);
    cli_json_set_string(b, "shard", r->shard);
    cli_json_set_string(b, "host", g_get_host_name());
    json_builder_add_int_value(json_builder_set_member_name(b, "pid"), getpid());
    cli_json_set_string(b, "started", r->started);
    const char *job = g_getenv("SLURM_ARRAY_JOB_ID"), *task = g_getenv("SLURM_ARRAY_TASK_ID");
    if (job && task) {
        char *id = g_strdup_printf("%s_%s", job, task);
        cli_json_set_string(b, "slurm_job", id);
        g_free(id);
    }
}

static void write_builder(cli_report *r, JsonBuilder *b)
{
    JsonNode *root = json_builder_get_root(b);
    write_line(r, root);
    json_node_unref(root);
    g_object_unref(b);
}

void cli_report_start(cli_report *r, const char *shard, const char *const *inputs, int n)
{
    g_free(r->shard);
    g_free(r->started);
    r->shard = g_strdup(shard);
    r->started = now_iso8601();
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    run_identity(r, b, "start");
    json_builder_begin_array(json_builder_set_member_name(b, "inputs"));
    for (int i = 0; i < n; i++)
        json_builder_add_string_value(b, inputs[i]);
    json_builder_end_array(b);
    json_builder_end_object(b);
    write_builder(r, b);
}

void cli_report_file(cli_report *r, JsonNode *file)
{
    write_line(r, file);
}

void cli_report_end(cli_report *r, const cli_report_counts *c)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    run_identity(r, b, "end");
    char *finished = now_iso8601();
    cli_json_set_string(b, "finished", finished);
    g_free(finished);
    cli_json_set_number(b, "seconds", c->seconds, CLI_JSON_SECONDS);
    json_builder_add_int_value(json_builder_set_member_name(b, "files"), c->files);
    json_builder_add_int_value(json_builder_set_member_name(b, "done"), c->done);
    json_builder_add_int_value(json_builder_set_member_name(b, "skipped"), c->skipped);
    json_builder_add_int_value(json_builder_set_member_name(b, "failed"), c->failed);
    json_builder_add_boolean_value(json_builder_set_member_name(b, "interrupted"),
                                   c->interrupted);
    json_builder_end_object(b);
    write_builder(r, b);
}

bool cli_report_close(cli_report **r)
{
    if (!*r)
        return true;
    bool ok = !(*r)->failed;
    if (close((*r)->fd) != 0 && ok) {
        fprintf(stderr, "cudafilters: --report %s: %s\n", (*r)->path, g_strerror(errno));
        ok = false;
    }
    g_free((*r)->path);
    g_free((*r)->shard);
    g_free((*r)->started);
    g_free(*r);
    *r = NULL;
    return ok;
}

/* The summary of a file without one of its own: skipped (`error` NULL),
 * or failed with `error`. */
static JsonNode *unrun_node(const char *in, const char *out, const char *error)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    cli_json_set_string(b, "input", in);
    cli_json_set_string(b, "output", out);
    json_builder_add_boolean_value(json_builder_set_member_name(b, "ok"), !error);
    json_builder_add_boolean_value(json_builder_set_member_name(b, "skipped"), !error);
    cli_json_set_string(b, "error", error);
    json_builder_end_object(b);
    JsonNode *root = json_builder_get_root(b);
    g_object_unref(b);
    return root;
}

JsonNode *cli_report_skipped_node(const char *in, const char *out)
{
    return unrun_node(in, out, NULL);
}

JsonNode *cli_report_failed_node(const char *in, const char *error)
{
    return unrun_node(in, NULL, error);
}
