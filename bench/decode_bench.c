/* cf-decode-bench: frames/s of hardware decoding straight into our filters
 * against decoding alone, on one H.264 file (GPU host, nvcodec present):
 *
 *   decode:  filesrc ! qtdemux ! h264parse ! nvh264dec ! video/x-raw(memory:CUDAMemory) ! fakesink
 *   ours:    ... ! nvh264dec ! cudagray ! cudablur sigma=2 ! cudadownload ! fakesink
 *
 * Our cudadownload is made by GType name (nvcodec registers a factory of
 * that name too). Time runs from the 30th buffer at the sink to the last, so
 * the decoder's and the CUDA context's start-up stay out; median of --runs.
 * Prints a markdown table and the caps between nvh264dec and cudagray, which
 * must be CUDA memory (zero copy).
 *
 *   cf-decode-bench FILE.mp4 [--runs N] [--chain DESC] [--download-baseline]
 *
 * --chain replaces cudagray ! cudablur sigma=2 by another chain of ours
 * (its first element named f); --download-baseline makes the baseline
 * nvh264dec ! cudadownload ! fakesink, so the comparison is what the chain
 * adds to a decode that ends in system memory anyway.
 *
 * Exit status 0 when both ran, 77 when nvh264dec is missing, 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>

#include <gst/gst.h>

#define WARMUP 30

typedef struct
{
  guint64 count;
  gint64 start_us, stop_us;
} Timing;

static GstPadProbeReturn
on_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Timing *t = data;
  (void) pad;
  (void) info;
  if (++t->count == WARMUP)
    t->start_us = g_get_monotonic_time ();
  t->stop_us = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

/* Runs one pipeline to EOS; frames/s after the warm-up, or -1 with a
 * message on stderr. @caps_out gets the caps into the element named "f"
 * when there is one. */
static const gchar *chain = "cudagray name=f ! cudablur sigma=2";
static gboolean download_baseline = FALSE;

static gdouble
run (const gchar * file, gboolean filters, gchar ** caps_out)
{
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! h264parse ! nvh264dec ! %s%s",
      file, filters ? chain : "capsfilter caps=video/x-raw(memory:CUDAMemory)",
      " ! identity name=last");
  gboolean download = filters || download_baseline;
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &error), *last, *down = NULL, *sink;
  Timing t = { 0 };
  gdouble fps = -1;

  g_free (desc);
  if (!pipeline) {
    fprintf (stderr, "cf-decode-bench: %s\n", error ? error->message : "cannot parse");
    g_clear_error (&error);
    return -1;
  }
  last = gst_bin_get_by_name (GST_BIN (pipeline), "last");
  if (download) {
    GType type = g_type_from_name ("GstCfCudaDownload");
    down = type ? g_object_new (type, NULL) : NULL;
  }
  sink = gst_element_factory_make ("fakesink", NULL);
  g_object_set (sink, "sync", FALSE, NULL);
  if (down)
    gst_bin_add (GST_BIN (pipeline), down);
  gst_bin_add (GST_BIN (pipeline), sink);
  if ((download && (!down || !gst_element_link_many (last, down, sink, NULL)))
      || (!download && !gst_element_link (last, sink))) {
    fprintf (stderr, "cf-decode-bench: cannot link the pipeline\n");
  } else {
    GstPad *pad = gst_element_get_static_pad (sink, "sink");
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg;
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, &t, NULL);
    gst_object_unref (pad);
    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    msg = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS && t.count > WARMUP + 1) {
      fps = (t.count - WARMUP) / ((t.stop_us - t.start_us) / 1e6);
    } else if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &error, NULL);
      fprintf (stderr, "cf-decode-bench: %s\n", error->message);
      g_clear_error (&error);
    } else {
      fprintf (stderr, "cf-decode-bench: no EOS, or too few frames (%" G_GUINT64_FORMAT ")\n",
          t.count);
    }
    if (msg)
      gst_message_unref (msg);
    if (caps_out) {
      GstElement *f = gst_bin_get_by_name (GST_BIN (pipeline), "f");
      GstPad *fpad = f ? gst_element_get_static_pad (f, "sink") : NULL;
      GstCaps *caps = fpad ? gst_pad_get_current_caps (fpad) : NULL;
      *caps_out = caps ? gst_caps_to_string (caps) : g_strdup ("(none)");
      if (caps)
        gst_caps_unref (caps);
      if (fpad)
        gst_object_unref (fpad);
      if (f)
        gst_object_unref (f);
    }
    gst_object_unref (bus);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (last);
  gst_object_unref (pipeline);
  return fps;
}

static int
compare_doubles (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  gint runs = 3;
  GOptionEntry entries[] = {
    {"runs", 0, 0, G_OPTION_ARG_INT, &runs, "Runs of each pipeline; the median is shown (3)",
        "N"},
    {"chain", 0, 0, G_OPTION_ARG_STRING, &chain, "Our chain after nvh264dec, first element "
          "named f (cudagray name=f ! cudablur sigma=2)", "DESC"},
    {"download-baseline", 0, 0, G_OPTION_ARG_NONE, &download_baseline,
        "Baseline nvh264dec ! cudadownload instead of nvh264dec ! fakesink", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("FILE.mp4 - NVDEC into our filters");
  GError *error = NULL;
  gdouble fps[2][16];
  gchar *caps = NULL;
  GstElement *gray;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc != 2 || runs < 1
      || runs > 16) {
    fprintf (stderr, "usage: cf-decode-bench FILE.mp4 [--runs 1..16]%s%s\n",
        error ? ": " : "", error ? error->message : "");
    return 1;
  }
  g_option_context_free (ctx);
  if (!gst_element_factory_find ("nvh264dec")) {
    fprintf (stderr, "cf-decode-bench: no nvh264dec (nvcodec without a GPU?)\n");
    return 77;
  }
  /* Making an element of ours loads our plugin and registers its types. */
  gray = gst_element_factory_make ("cudagray", NULL);
  if (!gray) {
    fprintf (stderr, "cf-decode-bench: the cudafilters plugin is not found\n");
    return 1;
  }
  gst_object_unref (gst_object_ref_sink (gray));
  for (gint i = 0; i < runs; i++)
    for (gint f = 0; f < 2; f++)
      if ((fps[f][i] = run (argv[1], f, f && i == 0 ? &caps : NULL)) < 0)
        return 1;
  for (gint f = 0; f < 2; f++)
    qsort (fps[f], (size_t) runs, sizeof fps[f][0], compare_doubles);
  printf ("caps into f: %s\n\n", caps);
  printf ("| pipeline | frames/s (median of %d) | min | max |\n|---|---|---|---|\n", runs);
  printf ("| nvh264dec ! %s ! fakesink | %.1f | %.1f | %.1f |\n",
      download_baseline ? "cudadownload" : "video/x-raw(memory:CUDAMemory)",
      fps[0][runs / 2], fps[0][0], fps[0][runs - 1]);
  printf ("| nvh264dec ! %s ! cudadownload ! fakesink | %.1f | %.1f | %.1f |\n", chain,
      fps[1][runs / 2], fps[1][0], fps[1][runs - 1]);
  printf ("\nours / baseline: %.1f%% (target >= 90%%)\n",
      100 * fps[1][runs / 2] / fps[0][runs / 2]);
  g_free (caps);
  gst_deinit ();
  return 0;
}
