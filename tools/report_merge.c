/* cudafilters tool: `cudafilters report merge`. */
#include "report_merge.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "util.h"

typedef enum file_state {
    NOT_REPORTED, /* listed by a run's start line only */
    FAILED,
    SKIPPED,      /* its output existed before every run that reported it */
    TRANSCODED,
} file_state;

typedef struct file_rec {
    char *input, *error;
    file_state state;
    bool made;        /* a line says it was transcoded: */
    int64_t frames;   /*   frames_out of the latest such line */
    double seconds;   /*   and its seconds */
    char *listed_by;  /* the run that listed it: for NOT_REPORTED */
} file_rec;

typedef struct run_rec {
    char *shard, *host, *started, *finished, *slurm_job;
    bool ended, interrupted;
} run_rec;

/* A file's line, kept until every report is read. */
typedef struct file_line {
    const char *started; /* of the run it belongs to (its report's last start line) */
    guint seq;           /* reading order */
    JsonNode *node;
} file_line;

typedef struct merge {
    GHashTable *files;  /* input -> file_rec */
    GPtrArray *order;   /* file_rec, first seen first */
    GHashTable *runs;   /* host/pid/started -> run_rec */
    GPtrArray *run_order;
    GArray *lines_kept; /* file_line */
    const char *started;/* the start time of the run being read ("" before any) */
    int reports, lines, bad_lines;
} merge;

static void free_file(gpointer p)
{
    file_rec *f = p;
    g_free(f->input);
    g_free(f->error);
    g_free(f->listed_by);
    g_free(f);
}

static void free_run(gpointer p)
{
    run_rec *r = p;
    g_free(r->shard);
    g_free(r->host);
    g_free(r->started);
    g_free(r->finished);
    g_free(r->slurm_job);
    g_free(r);
}

/* Members of a line, or the default where a line (written by hand, or by
 * another version) lacks one or holds another kind of value there. */
static JsonNode *value_member(JsonObject *o, const char *name)
{
    JsonNode *n = json_object_get_member(o, name);
    return n && JSON_NODE_HOLDS_VALUE(n) ? n : NULL;
}

static const char *str_member(JsonObject *o, const char *name)
{
    JsonNode *n = value_member(o, name);
    return n && json_node_get_value_type(n) == G_TYPE_STRING ? json_node_get_string(n) : NULL;
}

static bool bool_member(JsonObject *o, const char *name)
{
    JsonNode *n = value_member(o, name);
    return n && json_node_get_value_type(n) == G_TYPE_BOOLEAN && json_node_get_boolean(n);
}

static double num_member(JsonObject *o, const char *name)
{
    JsonNode *n = value_member(o, name);
    return n && json_node_get_value_type(n) != G_TYPE_STRING ? json_node_get_double(n) : 0;
}

/* A count or a time of a file's line: a finite number from 0 to 2^53, else
 * 0 (a hand-edited 1e400 reads as infinity, and made -2^63 frames). */
static double amount_member(JsonObject *o, const char *name)
{
    double v = num_member(o, name);
    return isfinite(v) && v >= 0 && v <= 9007199254740992.0 ? v : 0;
}

static file_rec *file_of(merge *m, const char *input)
{
    file_rec *f = g_hash_table_lookup(m->files, input);
    if (!f) {
        f = g_new0(file_rec, 1);
        f->input = g_strdup(input);
        g_hash_table_insert(m->files, f->input, f);
        g_ptr_array_add(m->order, f);
    }
    return f;
}

/* A file's line: the latest one counts, except that a skip after a
 * transcode (even with failed attempts between) counts as that transcode:
 * the skip found its output. */
static void take_file(merge *m, JsonObject *o, const char *input)
{
    file_rec *f = file_of(m, input);
    bool ok = bool_member(o, "ok"), skipped = bool_member(o, "skipped");
    if (ok && skipped) {
        f->state = f->made ? TRANSCODED : SKIPPED;
    } else if (ok) {
        f->state = TRANSCODED;
        f->made = true;
        f->frames = (int64_t)amount_member(o, "frames_out");
        f->seconds = amount_member(o, "seconds");
    } else {
        const char *why = str_member(o, "error");
        g_free(f->error);
        f->error = g_strdup(why ? why : "failed");
        f->state = FAILED;
    }
}

static run_rec *run_of(merge *m, JsonObject *o)
{
    const char *host = str_member(o, "host"), *started = str_member(o, "started");
    char *key = g_strdup_printf("%s/%.0f/%s", host ? host : "", num_member(o, "pid"),
                                started ? started : "");
    run_rec *r = g_hash_table_lookup(m->runs, key);
    if (!r) {
        r = g_new0(run_rec, 1);
        r->shard = g_strdup(str_member(o, "shard"));
        r->host = g_strdup(str_member(o, "host"));
        r->started = g_strdup(str_member(o, "started"));
        r->slurm_job = g_strdup(str_member(o, "slurm_job"));
        g_hash_table_insert(m->runs, key, r);
        g_ptr_array_add(m->run_order, r);
    } else {
        g_free(key);
    }
    return r;
}

/* "shard 1/3 on node7 (Slurm job 12_1), started T" (g_free it). */
static char *describe_run(const run_rec *r)
{
    return g_strdup_printf("shard %s on %s%s%s%s, started %s", r->shard ? r->shard : "?",
                           r->host ? r->host : "?", r->slurm_job ? " (Slurm job " : "",
                           r->slurm_job ? r->slurm_job : "", r->slurm_job ? ")" : "",
                           r->started ? r->started : "?");
}

static void take_run(merge *m, JsonObject *o, const char *which)
{
    run_rec *r = run_of(m, o);
    if (!strcmp(which, "start")) {
        m->started = r->started ? r->started : "";
        JsonNode *list = json_object_get_member(o, "inputs");
        JsonArray *inputs = list && JSON_NODE_HOLDS_ARRAY(list) ? json_node_get_array(list) : NULL;
        char *who = describe_run(r);
        for (guint i = 0; inputs && i < json_array_get_length(inputs); i++) {
            JsonNode *e = json_array_get_element(inputs, i);
            const char *in = JSON_NODE_HOLDS_VALUE(e) && json_node_get_value_type(e) == G_TYPE_STRING
                                 ? json_node_get_string(e) : NULL;
            file_rec *f = in ? file_of(m, in) : NULL;
            if (f && f->state == NOT_REPORTED) {
                g_free(f->listed_by);
                f->listed_by = g_strdup(who);
            }
        }
        g_free(who);
    } else {
        r->ended = true;
        r->interrupted = bool_member(o, "interrupted");
        g_free(r->finished);
        r->finished = g_strdup(str_member(o, "finished"));
    }
}

/* One line; false if it is not a report line. */
static bool take_line(merge *m, const char *line)
{
    JsonParser *parser = json_parser_new();
    bool ok = json_parser_load_from_data(parser, line, -1, NULL);
    JsonNode *root = ok ? json_parser_get_root(parser) : NULL;
    JsonObject *o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
    const char *run = o ? str_member(o, "run") : NULL, *input = o ? str_member(o, "input") : NULL;
    ok = o && ((run && (!strcmp(run, "start") || !strcmp(run, "end"))) || input);
    if (ok && run) {
        take_run(m, o, run);
    } else if (ok) {
        file_of(m, input); /* in order of first appearance */
        file_line fl = { m->started, m->lines_kept->len, json_node_copy(root) };
        g_array_append_val(m->lines_kept, fl);
    }
    g_object_unref(parser);
    return ok;
}

/* Earlier runs first (ISO 8601 UTC sorts as text), reading order within. */
static gint by_run_time(gconstpointer a, gconstpointer b)
{
    const file_line *x = a, *y = b;
    int c = strcmp(x->started, y->started);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Applies the file lines in the order their runs started, so the latest
 * line counts whatever order the reports were named in. */
static void take_files(merge *m)
{
    g_array_sort(m->lines_kept, by_run_time);
    for (guint i = 0; i < m->lines_kept->len; i++) {
        file_line *fl = &g_array_index(m->lines_kept, file_line, i);
        JsonObject *o = json_node_get_object(fl->node);
        take_file(m, o, str_member(o, "input"));
        json_node_unref(fl->node);
    }
    g_array_set_size(m->lines_kept, 0);
}

static bool read_report(merge *m, const char *path)
{
    char *text = NULL;
    GError *error = NULL;
    if (!g_file_get_contents(path, &text, NULL, &error)) {
        fprintf(stderr, "cudafilters report: %s\n", error->message);
        g_error_free(error);
        return false;
    }
    m->reports++;
    m->started = ""; /* lines before a start line belong to no known run */
    char **lines = g_strsplit(text, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        if (!*g_strstrip(lines[i]))
            continue;
        if (take_line(m, lines[i])) {
            m->lines++;
        } else {
            m->bad_lines++;
            fprintf(stderr, "cudafilters report: %s:%d: not a report line (left out)\n", path,
                    i + 1);
        }
    }
    g_strfreev(lines);
    g_free(text);
    return true;
}

static gint by_name(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder: its *.jsonl files by name; else the file itself. */
static bool read_path(merge *m, const char *path)
{
    if (!g_file_test(path, G_FILE_TEST_IS_DIR))
        return read_report(m, path);
    GError *error = NULL;
    GDir *dir = g_dir_open(path, 0, &error);
    if (!dir) {
        fprintf(stderr, "cudafilters report: %s\n", error->message);
        g_error_free(error);
        return false;
    }
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while ((name = g_dir_read_name(dir)))
        if (g_str_has_suffix(name, ".jsonl"))
            g_ptr_array_add(names, g_build_filename(path, name, NULL));
    g_dir_close(dir);
    g_ptr_array_sort(names, by_name);
    bool ok = names->len > 0;
    if (!ok)
        fprintf(stderr, "cudafilters report: %s holds no report (*.jsonl)\n", path);
    for (guint i = 0; i < names->len; i++)
        ok = read_report(m, g_ptr_array_index(names, i)) && ok;
    g_ptr_array_unref(names);
    return ok;
}

/* ---- the summary --------------------------------------------------------- */

typedef struct totals {
    int files, transcoded, skipped, failed, not_reported;
    int runs, interrupted, unfinished;
    int64_t frames;
    double seconds;
    char *first, *last; /* earliest start, latest end (ISO 8601 sorts as text) */
} totals;

static totals count(const merge *m)
{
    totals t = { 0 };
    for (guint i = 0; i < m->order->len; i++) {
        const file_rec *f = g_ptr_array_index(m->order, i);
        t.files++;
        t.transcoded += f->state == TRANSCODED;
        t.skipped += f->state == SKIPPED;
        t.failed += f->state == FAILED;
        t.not_reported += f->state == NOT_REPORTED;
        if (f->state == TRANSCODED) {
            t.frames += f->frames;
            t.seconds += f->seconds;
        }
    }
    for (guint i = 0; i < m->run_order->len; i++) {
        const run_rec *r = g_ptr_array_index(m->run_order, i);
        t.runs++;
        t.interrupted += r->ended && r->interrupted;
        t.unfinished += !r->ended;
        if (r->started && (!t.first || strcmp(r->started, t.first) < 0))
            t.first = r->started;
        if (r->finished && (!t.last || strcmp(r->finished, t.last) > 0))
            t.last = r->finished;
    }
    return t;
}

/* Seconds from one ISO 8601 time to another; -1 if either is missing. */
static double span(const char *from, const char *to)
{
    GDateTime *a = from ? g_date_time_new_from_iso8601(from, NULL) : NULL;
    GDateTime *b = to ? g_date_time_new_from_iso8601(to, NULL) : NULL;
    double s = a && b ? (double)g_date_time_difference(b, a) / G_TIME_SPAN_SECOND : -1;
    if (a)
        g_date_time_unref(a);
    if (b)
        g_date_time_unref(b);
    return s;
}

static void print_text(const merge *m, const totals *t)
{
    printf("%d report file%s, %d run%s (%d interrupted, %d did not finish)\n", m->reports,
           m->reports == 1 ? "" : "s", t->runs, t->runs == 1 ? "" : "s", t->interrupted,
           t->unfinished);
    printf("%d file%s: %d done (%d transcoded, %d skipped: their outputs existed), %d failed, "
           "%d not reported\n", t->files, t->files == 1 ? "" : "s", t->transcoded + t->skipped,
           t->transcoded, t->skipped, t->failed, t->not_reported);
    printf("%" PRId64 " frames transcoded in %.1f s of file time: %.1f frames/s\n", t->frames,
           t->seconds, t->seconds > 0 ? (double)t->frames / t->seconds : 0);
    double wall = span(t->first, t->last);
    if (wall >= 0)
        printf("runs from %s to %s (%.1f s)\n", t->first, t->last, wall);
    for (int pass = 0; pass < 2; pass++) {
        file_state want = pass ? NOT_REPORTED : FAILED;
        int shown = 0;
        for (guint i = 0; i < m->order->len; i++) {
            const file_rec *f = g_ptr_array_index(m->order, i);
            if (f->state != want)
                continue;
            if (!shown++)
                printf(pass ? "not reported (their runs did not end):\n" : "failed:\n");
            if (pass)
                printf("  %s (%s)\n", f->input, f->listed_by ? f->listed_by : "?");
            else
                printf("  %s: %s\n", f->input, f->error);
        }
    }
    for (guint i = 0; i < m->run_order->len; i++) {
        const run_rec *r = g_ptr_array_index(m->run_order, i);
        if (!r->ended) {
            char *who = describe_run(r);
            printf("run that did not end: %s\n", who);
            g_free(who);
        }
    }
}

static void print_json(const merge *m, const totals *t)
{
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_add_int_value(json_builder_set_member_name(b, "reports"), m->reports);
    json_builder_add_int_value(json_builder_set_member_name(b, "runs"), t->runs);
    json_builder_add_int_value(json_builder_set_member_name(b, "runs_interrupted"),
                               t->interrupted);
    json_builder_add_int_value(json_builder_set_member_name(b, "runs_unfinished"), t->unfinished);
    json_builder_add_int_value(json_builder_set_member_name(b, "files"), t->files);
    json_builder_add_int_value(json_builder_set_member_name(b, "done"),
                               t->transcoded + t->skipped);
    json_builder_add_int_value(json_builder_set_member_name(b, "transcoded"), t->transcoded);
    json_builder_add_int_value(json_builder_set_member_name(b, "skipped"), t->skipped);
    json_builder_add_int_value(json_builder_set_member_name(b, "failed"), t->failed);
    json_builder_add_int_value(json_builder_set_member_name(b, "not_reported"),
                               t->not_reported);
    json_builder_begin_array(json_builder_set_member_name(b, "failures"));
    for (guint i = 0; i < m->order->len; i++) {
        const file_rec *f = g_ptr_array_index(m->order, i);
        if (f->state != FAILED && f->state != NOT_REPORTED)
            continue;
        json_builder_begin_object(b);
        cli_json_set_string(b, "input", f->input);
        cli_json_set_string(b, "error", f->state == FAILED ? f->error : "not reported: its run "
                                                                        "did not end");
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_add_int_value(json_builder_set_member_name(b, "frames"), t->frames);
    cli_json_set_number(b, "seconds", t->seconds, CLI_JSON_SECONDS);
    cli_json_set_number(b, "fps", t->seconds > 0 ? (double)t->frames / t->seconds : 0,
                        CLI_JSON_FPS);
    cli_json_set_string(b, "started", t->first);
    cli_json_set_string(b, "finished", t->last);
    json_builder_add_int_value(json_builder_set_member_name(b, "unreadable_lines"),
                               m->bad_lines);
    json_builder_end_object(b);
    char *text = cli_json_finish(b);
    puts(text);
    g_free(text);
}

int cli_report_merge(char **paths, int n, bool json)
{
    merge m = { .files = g_hash_table_new(g_str_hash, g_str_equal),
                .order = g_ptr_array_new_with_free_func(free_file),
                .runs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
                .run_order = g_ptr_array_new_with_free_func(free_run),
                .lines_kept = g_array_new(FALSE, FALSE, sizeof(file_line)), .started = "" };
    bool readable = true;
    for (int i = 0; i < n; i++)
        readable = read_path(&m, paths[i]) && readable;
    take_files(&m);
    int rc = 2;
    if (readable && m.lines > 0) {
        totals t = count(&m);
        if (json)
            print_json(&m, &t);
        else
            print_text(&m, &t);
        rc = t.failed || t.not_reported ? 1 : 0;
    } else if (readable) {
        fprintf(stderr, "cudafilters report: no report line found\n");
    }
    fflush(stdout);
    g_hash_table_destroy(m.files);
    g_ptr_array_unref(m.order);
    g_hash_table_destroy(m.runs);
    g_ptr_array_unref(m.run_order);
    g_array_unref(m.lines_kept);
    return rc;
}
