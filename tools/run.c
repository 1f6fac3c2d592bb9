/* cudafilters tool: running one job in this process. */
#include "run.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "commands.h"
#include "util.h"

/* Seconds past --stall-timeout before the watchdog ends a stuck process:
 * libav's own interrupt (at the timeout) gets the first chance, which fails
 * the job cleanly with a message. */
#define WATCHDOG_GRACE 5.0
/* Seconds a job gets to stop by itself after Ctrl-C. */
#define STOP_GRACE 3.0

void cli_format_eta(char *buf, size_t n, double seconds)
{
    if (seconds < 0 || seconds > 359999) {
        snprintf(buf, n, "?");
        return;
    }
    int s = (int)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, n, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, n, "%d:%02d", s / 60, s % 60);
}

static void show_progress(const cli_job *j, double elapsed)
{
    int64_t frames = j->frames_done, total = j->frames_total;
    double fps = elapsed > 0 ? (double)frames / elapsed : 0;
    char eta[32];
    cli_format_eta(eta, sizeof eta, total > 0 && fps > 0 ? (double)(total - frames) / fps : -1);
    fprintf(stderr, "\r\033[K%s: %" PRId64, j->in_path, frames);
    if (total > 0)
        fprintf(stderr, "/%" PRId64 " frames (%d%%)", total,
                (int)(100.0 * (double)frames / (double)total));
    else
        fprintf(stderr, " frames");
    fprintf(stderr, ", %.1f fps, ETA %s", fps, eta);
    fflush(stderr);
}

static gpointer worker(gpointer data)
{
    cli_job_run(data);
    return NULL;
}

/* Ends the process if the job is stuck (see cli_run_job). */
static void watchdog(const cli_job *job, int64_t *beat, double *beat_time, double *stop_time)
{
    double now = cli_now();
    if (job->heartbeat != *beat) {
        *beat = job->heartbeat;
        *beat_time = now;
    }
    char msg[1200];
    /* Starts with clearing a progress line, if there is one. */
    const char *clear = isatty(STDERR_FILENO) ? "\r\033[K" : "";
    if (now - *beat_time > job->opts->stall_timeout + WATCHDOG_GRACE) {
        snprintf(msg, sizeof msg, "%scudafilters: %s: no progress for %.0f s: giving up\n", clear,
                 job->in_path, now - *beat_time);
        cli_cleanup_exit(1, msg);
    }
    if (cli_stop_requested && *stop_time == 0)
        *stop_time = now;
    if (*stop_time > 0 && now - *stop_time > STOP_GRACE) {
        snprintf(msg, sizeof msg, "%scudafilters: %s: interrupted\n", clear, job->in_path);
        cli_cleanup_exit(CLI_EXIT_INTERRUPTED, msg);
    }
}

static void print_done(const cli_job *j)
{
    if (!j->ok)
        fprintf(stderr, "cudafilters: %s: %s\n", j->in_path, j->err.msg);
}

int cli_run_job(cli_job *job, const cli_run_opts *opts)
{
    double t0 = cli_now(), beat_time = t0, stop_time = 0;
    int64_t beat = -1;
    job->running = 1; /* before the thread starts, so the loop below waits for it */
    GThread *thread = g_thread_new("job", worker, job);
    while (job->running) {
        g_usleep(G_USEC_PER_SEC / 4);
        watchdog(job, &beat, &beat_time, &stop_time);
        if (opts->progress && job->running)
            show_progress(job, cli_now() - t0);
        if (opts->machine_progress) {
            printf("progress %" PRId64 " %" PRId64 "\n", (int64_t)job->frames_done,
                   (int64_t)job->frames_total);
            fflush(stdout);
        }
    }
    g_thread_join(thread);
    if (opts->progress)
        fputs("\r\033[K", stderr);
    print_done(job);
    if (job->ok && job->warning[0] && !opts->quiet)
        fprintf(stderr, "cudafilters: %s: %s\n", job->in_path, job->warning);
    if (opts->progress && job->ok)
        fprintf(stderr,
                "%s -> %s: %" PRId64 " frames in %.1f s (%s decode, filters on %s, %s%s%s)\n",
                job->in_path, job->out_path, job->frames_out, job->seconds,
                job->hw_decode ? "NVDEC" : "CPU", job->gpu_filters ? "the GPU" : "the CPU",
                job->conversions[0] ? job->conversions : "", job->conversions[0] ? ", " : "",
                job->encoder);
    if (opts->json) {
        char *text = cli_job_json(job);
        puts(text);
        fflush(stdout);
        g_free(text);
    }
    if (cli_stop_requested)
        return CLI_EXIT_INTERRUPTED;
    return job->ok ? 0 : 1;
}

char *cli_job_json(const cli_job *j)
{
    char dev[32];
    snprintf(dev, sizeof dev, "cuda:%d", j->gpu ? j->gpu->index : -1);
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    cli_json_set_string(b, "input", j->in_path);
    cli_json_set_string(b, "output", j->ok ? j->out_path : NULL);
    json_builder_add_boolean_value(json_builder_set_member_name(b, "ok"), j->ok);
    cli_json_set_string(b, "error", j->ok ? NULL : j->err.msg);
    json_builder_add_int_value(json_builder_set_member_name(b, "frames_in"), j->frames_in);
    json_builder_add_int_value(json_builder_set_member_name(b, "frames_out"), j->frames_out);
    cli_json_set_number(b, "seconds", j->seconds, CLI_JSON_SECONDS);
    cli_json_set_number(b, "fps", j->seconds > 0 ? (double)j->frames_out / j->seconds : 0,
                        CLI_JSON_FPS);
    cli_json_set_string(b, "decoder", j->decoder[0] ? j->decoder : NULL);
    json_builder_add_boolean_value(json_builder_set_member_name(b, "hw_decode"), j->hw_decode);
    cli_json_set_string(b, "filters", j->opts->vf ? j->opts->vf : "");
    cli_json_set_string(b, "filter_device", j->gpu_filters ? dev : "cpu");
    cli_json_set_string(b, "formats", j->formats);
    cli_json_set_string(b, "conversions", j->conversions);
    json_builder_begin_object(json_builder_set_member_name(b, "converters"));
    cli_json_set_string(b, "decoder_output",
                        j->decoder_converter ? j->decoder_converter : CLI_CONVERTER_NONE);
    cli_json_set_string(b, "encoder_input",
                        j->encoder_converter ? j->encoder_converter : CLI_CONVERTER_NONE);
    json_builder_end_object(b);
    cli_json_set_string(b, "encoder", j->encoder[0] ? j->encoder : NULL);
    json_builder_add_int_value(json_builder_set_member_name(b, "streams_copied"),
                               j->streams_copied);
    cli_json_set_string(b, "streams_dropped", j->dropped);
    json_builder_add_int_value(json_builder_set_member_name(b, "damaged"), j->damaged);
    json_builder_add_int_value(json_builder_set_member_name(b, "timestamps_fixed"),
                               j->timestamps_fixed);
    cli_json_set_string(b, "warning", j->ok && j->warning[0] ? j->warning : NULL);
    json_builder_end_object(b);
    return cli_json_finish(b);
}
