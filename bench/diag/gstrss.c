/* Host RSS growth over create/play/teardown cycles of several launch lines (diagnosis only). */
#include <gst/gst.h>
#include <stdio.h>
#include <unistd.h>
static long rss_kib(void) { long a = 0, b = 0; FILE *f = fopen("/proc/self/statm", "r"); if (f) { if (fscanf(f, "%ld %ld", &a, &b) != 2) b = 0; fclose(f); } return b * (sysconf(_SC_PAGESIZE) / 1024); }
static void cycle(const char *line) {
    GError *err = NULL;
    GstElement *p = gst_parse_launch(line, &err);
    if (!p) { printf("parse: %s\n", err->message); return; }
    gst_element_set_state(p, GST_STATE_PLAYING);
    GstBus *bus = gst_element_get_bus(p);
    GstMessage *m = gst_bus_timed_pop_filtered(bus, 10 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (m && GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) printf("error in %s\n", line);
    if (m) gst_message_unref(m);
    gst_object_unref(bus);
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(p);
}
int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    const char *src = "videotestsrc num-buffers=6 pattern=smpte ! video/x-raw,format=RGBA,width=320,height=240 ! ";
    const char *tails[] = { "fakesink", "cudaupload ! fakesink", "cudaupload ! cudadownload ! fakesink",
        "cudaupload ! cudagray ! cudadownload ! fakesink", "cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! fakesink",
        "cudaupload frames-in-flight=1 ! cudagray frames-in-flight=1 ! cudablur sigma=2 frames-in-flight=1 ! cudadownload frames-in-flight=1 ! fakesink",
        "queue ! cudaupload ! cudadownload ! fakesink" };
    int n = argc > 1 ? atoi(argv[1]) : 40;
    for (unsigned t = 0; t < sizeof tails / sizeof tails[0]; t++) {
        char line[1024]; snprintf(line, sizeof line, "%s%s", src, tails[t]);
        for (int i = 0; i < 10; i++) cycle(line);
        long r0 = rss_kib();
        gint64 t0 = g_get_monotonic_time();
        for (int i = 0; i < n; i++) cycle(line);
        long r1 = rss_kib();
        printf("%-100s: %+6ld KiB over %d cycles (%.0f KiB a cycle), %.0f ms a cycle\n", tails[t], r1 - r0, n, (r1 - r0) / (double)n, (g_get_monotonic_time() - t0) / 1e3 / n);
    }
    return 0;
}
