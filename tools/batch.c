/* cudafilters tool: `batch`, each file transcoded in a child process. */
#include "batch.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "devices.h"
#include "output.h"
#include "report.h"
#include "run.h"
#include "util.h"

/* A child that reports nothing (its own watchdog ends it after
 * --stall-timeout + 5 s) for this much longer is killed. */
#define CHILD_GRACE 30.0
#define MAX_STDERR (64 * 1024)

typedef struct batch {
    cli_batch_file *files;
    int n;
    const cli_batch_opts *opts;
    GMutex lock;        /* guards the fields below and stderr */
    GCond changed;
    int finished, failed, skipped;
    int not_started;    /* left when a stop was requested */
    int *gpu_load;      /* running children per GPU */
    bool line_shown;    /* a progress line is on the terminal */
} batch;

/* One running child. */
typedef struct child {
    GPid pid;
    int out_fd, err_fd;
    GString *out, *err;   /* unread stdout line, all stderr */
    double last_report;
    bool killed, forwarded_stop;
} child;

static void clear_line(batch *b)
{
    if (b->line_shown) {
        fputs("\r\033[K", stderr);
        b->line_shown = false;
    }
}

static int take_gpu(batch *b)
{
    if (b->opts->n_gpus == 0)
        return -1;
    g_mutex_lock(&b->lock);
    int best = cli_devices_pick(b->gpu_load, b->opts->n_gpus);
    b->gpu_load[best]++;
    g_mutex_unlock(&b->lock);
    return best;
}

/* ---- one child ------------------------------------------------------------ */

static bool spawn(batch *b, cli_batch_file *f, int gpu, child *c, GError **error)
{
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(argv, g_strdup(b->opts->exe));
    g_ptr_array_add(argv, g_strdup("transcode"));
    for (char **o = b->opts->child_options; *o; o++)
        g_ptr_array_add(argv, g_strdup(*o));
    g_ptr_array_add(argv, g_strdup("--device"));
    g_ptr_array_add(argv, gpu < 0 ? g_strdup("cpu") : g_strdup_printf("%d", b->opts->gpus[gpu]));
    g_ptr_array_add(argv, g_strdup("--"));
    g_ptr_array_add(argv, g_strdup(f->in));
    g_ptr_array_add(argv, g_strdup(f->out));
    g_ptr_array_add(argv, NULL);
    gboolean ok = g_spawn_async_with_pipes(NULL, (char **)argv->pdata, NULL,
                                           G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &c->pid, NULL,
                                           &c->out_fd, &c->err_fd, error);
    g_ptr_array_unref(argv);
    return ok;
}

/* Handles the complete lines of the child's stdout: progress reports and
 * its final JSON summary. */
static void take_lines(cli_batch_file *f, child *c)
{
    char *nl;
    while ((nl = strchr(c->out->str, '\n'))) {
        *nl = '\0';
        int64_t done = 0, total = 0;
        if (sscanf(c->out->str, "progress %" SCNd64 " %" SCNd64, &done, &total) == 2) {
            f->frames = done;
            f->total = total;
        } else if (c->out->str[0] == '{') {
            g_free(f->json);
            f->json = g_strdup(c->out->str);
        }
        g_string_erase(c->out, 0, nl - c->out->str + 1);
    }
}

/* Reads what is there; false at end of file. */
static bool drain(int fd, GString *into, size_t cap)
{
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    if (n <= 0)
        return false;
    if (into->len < cap)
        g_string_append_len(into, buf, n);
    return true;
}

/* Relays the child's output until it closes both pipes; kills it when it
 * stops reporting, forwards a stop request. */
static void supervise(batch *b, cli_batch_file *f, child *c)
{
    c->out = g_string_new(NULL);
    c->err = g_string_new(NULL);
    c->last_report = cli_now();
    struct pollfd fds[2] = { { c->out_fd, POLLIN, 0 }, { c->err_fd, POLLIN, 0 } };
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        if (poll(fds, 2, 1000) > 0) {
            for (int i = 0; i < 2; i++) {
                if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                if (!drain(fds[i].fd, i ? c->err : c->out, i ? MAX_STDERR : SIZE_MAX)) {
                    close(fds[i].fd);
                    fds[i].fd = -1;
                }
                c->last_report = cli_now();
            }
            take_lines(f, c);
        }
        if (cli_stop_requested && !c->forwarded_stop) {
            kill(c->pid, SIGTERM);
            c->forwarded_stop = true;
        }
        if (!c->killed && cli_now() - c->last_report > b->opts->stall_timeout + CHILD_GRACE) {
            kill(c->pid, SIGKILL);
            c->killed = true;
        }
    }
}

/* The child's last message without its "cudafilters: FILE: " prefix. */
static char *last_line(const cli_batch_file *f, const GString *s)
{
    char *copy = g_strstrip(g_strdup(s->str));
    char *nl = strrchr(copy, '\n');
    const char *line = nl ? nl + 1 : copy;
    char *prefix = g_strdup_printf("cudafilters: %s: ", f->in);
    if (g_str_has_prefix(line, prefix))
        line += strlen(prefix);
    char *result = g_strdup(line);
    g_free(prefix);
    g_free(copy);
    return result;
}

/* Waits for the child and decides the file's fate; removes the temporary
 * file a killed or crashed child left. */
static void reap(batch *b, cli_batch_file *f, child *c)
{
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
        ;
    g_spawn_close_pid(c->pid);
    f->ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    f->last_message = last_line(f, c->err);
    if (!WIFEXITED(status)) {
        char *tmp = cli_output_tmp_name(f->out, (int)c->pid);
        g_unlink(tmp);
        g_free(tmp);
        int sig = WTERMSIG(status);
        if (c->killed)
            g_string_append_printf(c->err, "cudafilters: %s: no report for %.0f s: killed\n",
                                   f->in, b->opts->stall_timeout + CHILD_GRACE);
        else if (!strstr(c->err->str, "crashed"))
            g_string_append_printf(c->err, "cudafilters: %s: crashed (%s)\n", f->in,
                                   g_strsignal(sig));
        g_free(f->last_message);
        f->last_message = last_line(f, c->err);
    } else if (!f->ok && c->err->len == 0) {
        g_string_append_printf(c->err, "cudafilters: %s: failed (exit status %d)\n", f->in,
                               WEXITSTATUS(status));
    }
}

static JsonNode *file_node(const cli_batch_file *f);

/* A file has ended (run, failed or skipped up front): counts it, writes its
 * report line, prints its messages. */
static void finish(batch *b, cli_batch_file *f, int gpu, const GString *messages)
{
    f->summary = file_node(f);
    JsonObject *o = json_node_get_object(f->summary);
    f->skipped = f->ok && json_object_get_boolean_member_with_default(o, "skipped", FALSE);
    json_object_set_boolean_member(o, "skipped", f->skipped);
    g_mutex_lock(&b->lock);
    if (gpu >= 0)
        b->gpu_load[gpu]--;
    b->finished++;
    if (!f->ok)
        b->failed++;
    if (f->skipped)
        b->skipped++;
    if (b->opts->report)
        cli_report_file(b->opts->report, f->summary);
    if (messages && messages->len) {
        clear_line(b);
        fputs(messages->str, stderr);
        if (messages->str[messages->len - 1] != '\n')
            fputc('\n', stderr);
    }
    /* The children run --quiet: their warnings come in their summaries. */
    const char *warning = json_object_get_string_member_with_default(o, "warning", NULL);
    if (f->ok && warning && !b->opts->quiet) {
        clear_line(b);
        fprintf(stderr, "cudafilters: %s: %s\n", f->in, warning);
    }
    g_cond_signal(&b->changed);
    g_mutex_unlock(&b->lock);
}

static void run_file(batch *b, cli_batch_file *f)
{
    if (cli_stop_requested) {
        /* One line for all of them at the end; each has its report line. */
        f->last_message = g_strdup("interrupted before it started");
        finish(b, f, -1, NULL);
        g_mutex_lock(&b->lock);
        b->not_started++;
        g_mutex_unlock(&b->lock);
        return;
    }
    int gpu = take_gpu(b);
    child c = { 0 };
    GError *error = NULL;
    f->running = 1;
    if (!spawn(b, f, gpu, &c, &error)) {
        GString *msg = g_string_new(NULL);
        g_string_printf(msg, "cudafilters: %s: cannot start a process: %s\n", f->in,
                        error->message);
        f->last_message = g_strdup(msg->str);
        g_error_free(error);
        f->running = 0;
        finish(b, f, gpu, msg);
        g_string_free(msg, TRUE);
        return;
    }
    supervise(b, f, &c);
    reap(b, f, &c);
    f->running = 0;
    finish(b, f, gpu, c.err);
    g_string_free(c.out, TRUE);
    g_string_free(c.err, TRUE);
}

static void worker(gpointer data, gpointer user)
{
    run_file(user, data);
}

/* ---- progress and summary ------------------------------------------------ */

static void show_progress(batch *b, double elapsed)
{
    int64_t frames = 0;
    int running = 0;
    double done = b->finished;
    for (int i = 0; i < b->n; i++) {
        cli_batch_file *f = &b->files[i];
        int64_t fr = f->frames, t = f->total;
        frames += fr;
        if (f->running) {
            running++;
            if (t > 0)
                done += fr < t ? (double)fr / (double)t : 1.0;
        }
    }
    double frac = done / b->n, fps = elapsed > 0 ? (double)frames / elapsed : 0;
    char eta[32];
    cli_format_eta(eta, sizeof eta, frac > 0 ? elapsed * (1 - frac) / frac : -1);
    fprintf(stderr, "\r\033[K%d/%d files done (%d failed), %d running: %" PRId64
            " frames, %.1f fps, ETA %s", b->finished, b->n, b->failed, running, frames, fps, eta);
    fflush(stderr);
    b->line_shown = true;
}

static void wait_all(batch *b, double t0)
{
    g_mutex_lock(&b->lock);
    while (b->finished < b->n) {
        gint64 deadline = g_get_monotonic_time() + G_TIME_SPAN_SECOND / 4;
        g_cond_wait_until(&b->changed, &b->lock, deadline);
        if (b->opts->progress && b->finished < b->n)
            show_progress(b, cli_now() - t0);
    }
    clear_line(b);
    g_mutex_unlock(&b->lock);
}

/* The child's own summary, or one made here for a file that has none
 * (skipped or failed up front, crashed, not started). */
static JsonNode *file_node(const cli_batch_file *f)
{
    if (f->skipped)
        return cli_report_skipped_node(f->in, f->out);
    if (f->json) {
        JsonParser *parser = json_parser_new();
        JsonNode *root = json_parser_load_from_data(parser, f->json, -1, NULL)
                             ? json_parser_steal_root(parser)
                             : NULL;
        g_object_unref(parser);
        if (root && JSON_NODE_HOLDS_OBJECT(root))
            return root;
        if (root)
            json_node_unref(root);
    }
    const char *why = f->error ? f->error : f->last_message ? f->last_message : "failed";
    return cli_report_failed_node(f->in, why);
}

static void print_json(const batch *b, double seconds)
{
    JsonBuilder *out = json_builder_new();
    json_builder_begin_object(out);
    json_builder_begin_array(json_builder_set_member_name(out, "files"));
    for (int i = 0; i < b->n; i++)
        json_builder_add_value(out, json_node_copy(b->files[i].summary));
    json_builder_end_array(out);
    json_builder_add_int_value(json_builder_set_member_name(out, "total"), b->n);
    json_builder_add_int_value(json_builder_set_member_name(out, "failed"), b->failed);
    json_builder_add_int_value(json_builder_set_member_name(out, "skipped"), b->skipped);
    cli_json_set_number(out, "seconds", seconds, CLI_JSON_SECONDS);
    json_builder_end_object(out);
    char *text = cli_json_finish(out);
    puts(text);
    fflush(stdout);
    g_free(text);
}

cli_batch_result cli_batch_run(cli_batch_file *files, int n, const cli_batch_opts *opts)
{
    batch b = { .files = files, .n = n, .opts = opts };
    g_mutex_init(&b.lock);
    g_cond_init(&b.changed);
    b.gpu_load = g_new0(int, opts->n_gpus + 1);
    double t0 = cli_now();
    GThreadPool *pool = g_thread_pool_new(worker, &b, opts->parallel, TRUE, NULL);
    for (int i = 0; i < n; i++) {
        if (files[i].skipped) {
            files[i].ok = true;
            finish(&b, &files[i], -1, NULL);
            continue;
        }
        if (!files[i].error) {
            g_thread_pool_push(pool, &files[i], NULL);
            continue;
        }
        GString *msg = g_string_new(NULL);
        g_string_printf(msg, "cudafilters: %s: %s\n", files[i].in, files[i].error);
        finish(&b, &files[i], -1, msg);
        g_string_free(msg, TRUE);
    }
    wait_all(&b, t0); /* every file ends in finish(), run or failed up front */
    g_thread_pool_free(pool, FALSE, TRUE);
    double seconds = cli_now() - t0;
    if (b.not_started)
        fprintf(stderr, "cudafilters batch: interrupted: %d file%s not started\n", b.not_started,
                b.not_started == 1 ? "" : "s");
    if (opts->progress)
        fprintf(stderr, "%d of %d files done (%d skipped: their outputs exist), %d failed, in "
                        "%.1f s\n", n - b.failed, n, b.skipped, b.failed, seconds);
    if (opts->json)
        print_json(&b, seconds);
    g_free(b.gpu_load);
    g_cond_clear(&b.changed);
    g_mutex_clear(&b.lock);
    return (cli_batch_result){ .failed = b.failed, .skipped = b.skipped, .seconds = seconds };
}
