/* cf-pipeline-bench: GStreamer pipeline throughput for RGBA video from an
 * application source that writes into the buffer pool downstream offers
 * (as a capture device DMAs into the buffers it is given), or into a
 * system-memory pool of its own (as most decoders and parsers do), for our
 * cudaupload/cudadownload with 0, 1, 2 or 4 filters between them, with
 * default properties, and gst-plugins-bad's (nvcodec), into fakesink
 * sync=false. The same run measures the two ceilings: back-to-back uploads
 * of the frame from pinned and from pageable memory. Prints one markdown
 * table. Pipelines are built by GType name, not gst_parse_launch: nvcodec
 * registers factories named cudaupload and cudadownload too.
 *
 *   cf-pipeline-bench [--width W] [--height H] [--frames N] [--warmup N]
 *                     [--pool-buffers N] [--sweep] [--thread-cpu]
 *
 * Exit status: 0 when every available pipeline ran, 1 otherwise. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include "cudafilters/cudafilters.h"

/* Timestamps as if 1000 frames/s; caps say 0/1 (variable rate) and the sink
 * does not sync, so nothing paces the source. */
#define FRAME_DURATION GST_MSECOND

static gboolean have_gpu;       /* set once before the first pipeline */
static gboolean opt_allow_cpu;
static gboolean skipped_no_gpu; /* no GPU and no --allow-cpu: exit 77 */

static gint opt_width = 3840, opt_height = 2160, opt_frames = 600, opt_warmup = 60,
    opt_pool_buffers = 8;
/* Cases in main()'s table, and the most runs of each (--repeat). */
#define N_CASES 8
#define MAX_REPEAT 9
static gint opt_repeat = 1;
static gchar *opt_only;
static gboolean opt_sweep, opt_thread_cpu;

static GOptionEntry entries[] = {
  {"width", 0, 0, G_OPTION_ARG_INT, &opt_width, "Frame width in pixels (3840)", "W"},
  {"height", 0, 0, G_OPTION_ARG_INT, &opt_height, "Frame height in pixels (2160)", "H"},
  {"frames", 0, 0, G_OPTION_ARG_INT, &opt_frames, "Timed frames (600)", "N"},
  {"warmup", 0, 0, G_OPTION_ARG_INT, &opt_warmup, "Frames before the clock starts (60)", "N"},
  {"pool-buffers", 0, 0, G_OPTION_ARG_INT, &opt_pool_buffers,
      "Buffers in the source pool, which bounds frames in flight (8)", "N"},
  {"only", 0, 0, G_OPTION_ARG_STRING, &opt_only,
      "Run only these cases, by the tag their row starts with: a1,a2,a4,p2,b,a2-3,c,d", "TAGS"},
  {"repeat", 0, 0, G_OPTION_ARG_INT, &opt_repeat,
      "Run the cases this many times in turn and print the medians too (1)", "N"},
  {"sweep", 0, 0, G_OPTION_ARG_NONE, &opt_sweep,
      "Also run (a2) and (p2) with frames-in-flight 1, 2, 3, 4, 6 and 8 on every element", NULL},
  {"thread-cpu", 0, 0, G_OPTION_ARG_NONE, &opt_thread_cpu,
      "Also list each case's host CPU by thread (cores, from /proc/self/task/*/schedstat)", NULL},
  {"allow-cpu", 0, 0, G_OPTION_ARG_NONE, &opt_allow_cpu,
      "Run without a GPU, on the filters' CPU reference (a smoke test: the numbers mean nothing)",
      NULL},
  {NULL}
};

/* One pipeline: upload and download by GType name, filters or not. */
typedef struct
{
  const gchar *label;
  const gchar *upload, *download;
  gint filters;                 /* 0; 1: cudagray; 2: + cudablur sigma=2; 4: + two blurs */
  guint frames_in_flight;       /* set on every element of ours; 0: the default */
  gboolean own_pool;            /* the source fills a pool of its own, not downstream's */
} BenchCase;

/* What one run measured, or why it did not run. */
typedef struct
{
  gchar *memory;                /* mem_type of the source pool's memory, and whose pool */
  gchar *error;                 /* NULL if it ran */
  gboolean unavailable;         /* elements missing: not an error */
  gdouble seconds, cpu_seconds; /* over the timed frames */
  gdouble rss_growth_mib;       /* host resident memory, last frame minus first timed */
  gdouble gpu_growth_mib;       /* device memory in use, the same; NAN without a GPU */
  gchar *threads;               /* --thread-cpu: "name cores, ..." busiest first, or NULL */
} BenchResult;

/* Shared with the streaming threads (probe and bus sync handler). */
typedef struct
{
  GMutex lock;
  GstBufferPool *pool;          /* the source pool, flushed on error */
  gchar *error;                 /* first ERROR message posted */
  guint64 count, warmup, total; /* buffers at the sink; written by the streaming thread */
  gint64 start_us, stop_us;
  struct rusage start_ru, stop_ru;
  glong start_rss_kib, stop_rss_kib;
  gint64 start_gpu_free, stop_gpu_free; /* bytes; -1 without a GPU */
  GHashTable *start_threads, *stop_threads; /* --thread-cpu: thread id -> ThreadCpu */
} RunState;

/* One thread's name and CPU time so far. */
typedef struct
{
  gchar name[32];
  guint64 ns;                   /* on-CPU time, nanoseconds */
} ThreadCpu;

/* Every thread of this process: thread id -> ThreadCpu (schedstat's first
 * field is the on-CPU time in ns; comm is the name GStreamer gives its
 * tasks, "element:pad"). NULL when /proc cannot be read. */
static GHashTable *
thread_cpu_snapshot (void)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  GHashTable *t;
  const gchar *tid;

  if (!dir)
    return NULL;
  t = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  while ((tid = g_dir_read_name (dir))) {
    gchar *path = g_strdup_printf ("/proc/self/task/%s/schedstat", tid), *text = NULL;
    ThreadCpu *c = g_new0 (ThreadCpu, 1);
    if (g_file_get_contents (path, &text, NULL, NULL))
      c->ns = g_ascii_strtoull (text, NULL, 10);
    g_free (text);
    g_free (path);
    path = g_strdup_printf ("/proc/self/task/%s/comm", tid);
    if (g_file_get_contents (path, &text, NULL, NULL)) {
      g_strlcpy (c->name, g_strstrip (text), sizeof c->name);
      g_free (text);
    }
    g_free (path);
    g_hash_table_insert (t, GINT_TO_POINTER (atoi (tid)), c);
  }
  g_dir_close (dir);
  return t;
}

static gint
by_cores_desc (gconstpointer a, gconstpointer b)
{
  const ThreadCpu *x = a, *y = b;
  return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

/* "name cores, ..." for the threads that ran between the two snapshots,
 * busiest first, over @seconds of wall clock; NULL without both. */
static gchar *
thread_cpu_summary (GHashTable * start, GHashTable * stop, gdouble seconds)
{
  GHashTableIter it;
  gpointer key, value;
  GArray *rows;
  GString *out;

  if (!start || !stop || !(seconds > 0))
    return NULL;
  rows = g_array_new (FALSE, TRUE, sizeof (ThreadCpu));
  g_hash_table_iter_init (&it, stop);
  while (g_hash_table_iter_next (&it, &key, &value)) {
    ThreadCpu row = *(ThreadCpu *) value;
    const ThreadCpu *before = g_hash_table_lookup (start, key);
    row.ns -= before && before->ns <= row.ns ? before->ns : 0;
    if (row.ns > 0)
      g_array_append_val (rows, row);
  }
  g_array_sort (rows, by_cores_desc);
  out = g_string_new (NULL);
  for (guint i = 0; i < rows->len; i++) {
    const ThreadCpu *row = &g_array_index (rows, ThreadCpu, i);
    if (row->ns / 1e9 / seconds < 0.005)
      break;
    g_string_append_printf (out, "%s%s %.3f", i ? ", " : "", row->name, row->ns / 1e9 / seconds);
  }
  g_array_free (rows, TRUE);
  return g_string_free (out, FALSE);
}

/* Resident memory of this process in KiB (/proc/self/statm), -1 if unknown. */
static glong
rss_kib (void)
{
  glong pages = -1;
  FILE *f = fopen ("/proc/self/statm", "r");

  if (f) {
    if (fscanf (f, "%*s %ld", &pages) != 1)
      pages = -1;
    fclose (f);
  }
  return pages < 0 ? -1 : pages * (sysconf (_SC_PAGESIZE) / 1024);
}

/* Free memory of the GPU in bytes (all contexts), -1 without one. */
static gint64
gpu_free_bytes (void)
{
  size_t free_bytes = 0, total = 0;

  return have_gpu && cf_device_get_memory (&free_bytes, &total) == CF_OK ? (gint64) free_bytes : -1;
}

static gdouble
cpu_seconds (const struct rusage *ru)
{
  return ru->ru_utime.tv_sec + ru->ru_stime.tv_sec
      + (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e6;
}

/* Counts buffers reaching the sink; stamps the time and the process's CPU
 * use when the last warm-up frame and the last frame arrive, so exactly
 * --frames frames arrive between the two stamps. */
static GstPadProbeReturn
on_sink_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  RunState *st = user_data;
  guint64 before = st->count;

  (void) pad;
  (void) info;
  st->count++;
  if (before < st->warmup && st->count >= st->warmup) {
    st->start_rss_kib = rss_kib ();
    st->start_gpu_free = gpu_free_bytes ();
    if (opt_thread_cpu)
      st->start_threads = thread_cpu_snapshot ();
    st->start_us = g_get_monotonic_time ();
    getrusage (RUSAGE_SELF, &st->start_ru);
  }
  if (before < st->total && st->count >= st->total) {
    st->stop_us = g_get_monotonic_time ();
    getrusage (RUSAGE_SELF, &st->stop_ru);
    st->stop_rss_kib = rss_kib ();
    st->stop_gpu_free = gpu_free_bytes ();
    if (opt_thread_cpu)
      st->stop_threads = thread_cpu_snapshot ();
  }
  return GST_PAD_PROBE_OK;
}

/* Keeps the first error and flushes the source pool, so a main thread
 * waiting for a buffer that the stopped pipeline will never return wakes. */
static GstBusSyncReply
on_bus_sync (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  RunState *st = user_data;
  GError *err = NULL;
  gchar *debug = NULL, *reason;

  (void) bus;
  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR)
    return GST_BUS_PASS;
  gst_message_parse_error (msg, &err, &debug);
  /* The last line of the details says why ("reason not-negotiated"). */
  reason = debug ? strrchr (debug, '\n') : NULL;
  g_mutex_lock (&st->lock);
  if (!st->error)
    st->error = g_strdup_printf ("%s: %s%s%s%s", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
        err->message, reason ? " (" : "", reason ? reason + 1 : "", reason ? ")" : "");
  if (st->pool)
    gst_buffer_pool_set_flushing (st->pool, TRUE);
  g_mutex_unlock (&st->lock);
  g_error_free (err);
  g_free (debug);
  return GST_BUS_PASS;
}

/* A copy of the first error posted, or NULL. */
static gchar *
posted_error (RunState * st)
{
  gchar *e;

  g_mutex_lock (&st->lock);
  e = g_strdup (st->error);
  g_mutex_unlock (&st->lock);
  return e;
}

/* Adds an element of GType @type_name (or factory @factory) to @bin and
 * links it after @prev. NULL with *@error set if it cannot. */
static GstElement *
add_element (GstBin * bin, GstElement * prev, const gchar * type_name, const gchar * factory,
    gchar ** error)
{
  GType type = type_name ? g_type_from_name (type_name) : 0;
  GstElement *e = type ? GST_ELEMENT (g_object_new (type, NULL))
      : factory ? gst_element_factory_make (factory, NULL) : NULL;

  if (!e) {
    *error = g_strdup_printf ("no element %s", type_name ? type_name : factory);
    return NULL;
  }
  if (!gst_bin_add (bin, e)) {
    gst_object_unref (gst_object_ref_sink (e));
    *error = g_strdup_printf ("cannot add %s", type_name ? type_name : factory);
    return NULL;
  }
  if (prev && !gst_element_link (prev, e)) {
    *error = g_strdup_printf ("cannot link %s to %s", GST_ELEMENT_NAME (prev),
        GST_ELEMENT_NAME (e));
    return NULL;
  }
  return e;
}

/* add_element() for an element of the case's transfer or filters, with its
 * frames-in-flight when the case sets one. */
static GstElement *
add_case_element (GstBin * bin, GstElement * prev, const gchar * type_name,
    const gchar * factory, const BenchCase * c, gchar ** error)
{
  GstElement *e = add_element (bin, prev, type_name, factory, error);

  if (e && c->frames_in_flight)
    g_object_set (e, "frames-in-flight", c->frames_in_flight, NULL);
  return e;
}

/* appsrc ! upload ! (cudagray [! cudablur sigma=2 [! cudablur sigma=1 !
 * cudablur sigma=3]] | CUDA-memory capsfilter) ! download ! fakesink into
 * @pipeline; the source and the sink into *@src and *@sink. */
static gboolean
build_pipeline (GstBin * pipeline, const BenchCase * c, GstCaps * caps, GstElement ** src,
    GstElement ** sink, gchar ** error)
{
  GstElement *e;

  if (!(*src = add_element (pipeline, NULL, NULL, "appsrc", error)))
    return FALSE;
  /* The source pool bounds the frames in flight (acquiring blocks), so
   * appsrc's queue needs no limit; block=true would leave push_buffer
   * waiting for ever once an error has stopped the streaming thread. */
  g_object_set (*src, "caps", caps, "is-live", FALSE, "format", GST_FORMAT_TIME,
      "max-bytes", (guint64) 0, "block", FALSE, NULL);
  if (!(e = add_case_element (pipeline, *src, c->upload, NULL, c, error)))
    return FALSE;
  if (c->filters) {
    static const gdouble sigmas[] = { 2.0, 1.0, 3.0 };
    if (!(e = add_case_element (pipeline, e, NULL, "cudagray", c, error)))
      return FALSE;
    for (gint i = 0; i < c->filters - 1 && i < 3; i++) {
      if (!(e = add_case_element (pipeline, e, NULL, "cudablur", c, error)))
        return FALSE;
      g_object_set (e, "sigma", sigmas[i], NULL);
    }
  } else if (have_gpu) {
    /* Frames must cross into CUDA memory: upload and download would
     * otherwise agree on passthrough and measure nothing. */
    GstCaps *cuda = gst_caps_from_string ("video/x-raw(memory:CUDAMemory)");
    if (!(e = add_element (pipeline, e, NULL, "capsfilter", error)))
      return FALSE;
    g_object_set (e, "caps", cuda, NULL);
    gst_caps_unref (cuda);
  }
  if (!(e = add_case_element (pipeline, e, c->download, NULL, c, error)))
    return FALSE;
  if (!(*sink = add_element (pipeline, e, NULL, "fakesink", error)))
    return FALSE;
  g_object_set (*sink, "sync", FALSE, NULL);
  return TRUE;
}

/* Sets @size bytes, @n buffers (min = max) and video meta where @pool
 * supports it, and activates @pool. */
static gboolean
configure_pool (GstBufferPool * pool, GstCaps * caps, guint size, guint n)
{
  GstStructure *config;

  if (gst_buffer_pool_is_active (pool))
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, n, n);
  if (gst_buffer_pool_has_option (pool, GST_BUFFER_POOL_OPTION_VIDEO_META))
    gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  return gst_buffer_pool_set_config (pool, config) && gst_buffer_pool_set_active (pool, TRUE);
}

/* The source's pool, as a source element gets it: the pool downstream
 * proposes in answer to an ALLOCATION query, else a GstVideoBufferPool of
 * system memory. *@offered says which. NULL if neither can be set up. */
static GstBufferPool *
source_pool (GstElement * src, GstCaps * caps, const GstVideoInfo * info, gboolean own,
    gboolean * offered)
{
  GstPad *pad = gst_element_get_static_pad (src, "src");
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  guint size = 0, n = (guint) opt_pool_buffers;

  if (!own && gst_pad_peer_query (pad, query) && gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, NULL, NULL);
  gst_query_unref (query);
  gst_object_unref (pad);
  if (size == 0)
    size = (guint) GST_VIDEO_INFO_SIZE (info);
  if (pool && !configure_pool (pool, caps, size, n))
    gst_clear_object (&pool);
  *offered = pool != NULL;
  if (!pool) {
    pool = gst_video_buffer_pool_new ();
    if (!configure_pool (pool, caps, (guint) GST_VIDEO_INFO_SIZE (info), n))
      gst_clear_object (&pool);
  }
  return pool;
}

/* Fills every buffer of @pool once with pseudo-random bytes (xorshift64).
 * Returns the mem_type of their memory and whose pool it is, for the
 * table, or NULL if a buffer cannot be acquired or written. */
static gchar *
prefill_pool (GstBufferPool * pool, guint n, gboolean offered)
{
  GstBuffer **bufs = g_new0 (GstBuffer *, n);
  GstAllocator *allocator;
  gchar *label = NULL;
  guint64 x = 88172645463325252ull;
  guint i;

  for (i = 0; i < n; i++) {
    GstMapInfo map;
    if (gst_buffer_pool_acquire_buffer (pool, &bufs[i], NULL) != GST_FLOW_OK
        || !gst_buffer_map (bufs[i], &map, GST_MAP_WRITE))
      break;
    for (gsize j = 0; j + 8 <= map.size; j += 8) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      memcpy (map.data + j, &x, 8);
    }
    gst_buffer_unmap (bufs[i], &map);
  }
  if (i == n) {
    allocator = gst_buffer_peek_memory (bufs[0], 0)->allocator;
    label = g_strdup_printf ("%s, %s", allocator ? allocator->mem_type : "?",
        offered ? "downstream's pool" : "own GstVideoBufferPool");
  }
  for (i = 0; i < n; i++)
    if (bufs[i])
      gst_buffer_unref (bufs[i]);
  g_free (bufs);
  return label;
}

/* Waits up to 10 s for appsrc's caps to be negotiated (it sends them
 * before its first buffer). A sink pad stores caps only once its event
 * function returned, and a transform's returns after the caps went
 * downstream and it decided its allocation: caps on the source's peer mean
 * the whole pipeline can answer an ALLOCATION query. */
static gboolean
wait_negotiated (GstElement * src, RunState * st, gchar ** error)
{
  GstPad *pad = gst_element_get_static_pad (src, "src"), *peer = gst_pad_get_peer (pad);
  gint ms = 0;

  *error = NULL;
  while (!gst_pad_has_current_caps (peer) && !(*error = posted_error (st)) && ms++ < 10000)
    g_usleep (1000);
  if (ms > 10000)
    *error = g_strdup ("caps were not negotiated within 10 s");
  gst_object_unref (peer);
  gst_object_unref (pad);
  return *error == NULL;
}

/* Pushes warm-up and timed frames, each in a buffer from @pool with a frame
 * counter in its first 8 bytes, then EOS. */
static gboolean
push_frames (GstAppSrc * src, GstBufferPool * pool, RunState * st, gchar ** error)
{
  for (guint64 i = 0; i < st->total; i++) {
    guint64 le = GUINT64_TO_LE (i);
    GstBuffer *buf;
    GstFlowReturn ret = gst_buffer_pool_acquire_buffer (pool, &buf, NULL);

    if (ret != GST_FLOW_OK) {
      if (!(*error = posted_error (st)))
        *error = g_strdup_printf ("acquiring a buffer: %s", gst_flow_get_name (ret));
      return FALSE;
    }
    if (gst_buffer_fill (buf, 0, &le, 8) != 8) {
      gst_buffer_unref (buf);
      *error = g_strdup ("cannot write into a source buffer");
      return FALSE;
    }
    GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) = i * FRAME_DURATION;
    GST_BUFFER_DURATION (buf) = FRAME_DURATION;
    if ((ret = gst_app_src_push_buffer (src, buf)) != GST_FLOW_OK) {
      if (!(*error = posted_error (st)))
        *error = g_strdup_printf ("pushing frame %" G_GUINT64_FORMAT ": %s", i,
            gst_flow_get_name (ret));
      return FALSE;
    }
  }
  if (gst_app_src_end_of_stream (src) != GST_FLOW_OK) {
    *error = g_strdup ("cannot send EOS");
    return FALSE;
  }
  return TRUE;
}

/* Waits for EOS (60 s at most once the last frame is queued) and checks
 * that every frame arrived. */
static gboolean
wait_eos (GstElement * pipeline, RunState * st, gchar ** error)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

  gst_object_unref (bus);
  if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    if (!(*error = posted_error (st)))
      *error = g_strdup ("no EOS within 60 s");
  } else if (st->count != st->total) {
    *error = g_strdup_printf ("the sink got %" G_GUINT64_FORMAT " buffers, expected %"
        G_GUINT64_FORMAT, st->count, st->total);
  }
  if (msg)
    gst_message_unref (msg);
  return *error == NULL;
}

/* Runs one case into @r. */
static void
run_case (const BenchCase * c, BenchResult * r)
{
  GstElement *pipeline = gst_pipeline_new (NULL), *src = NULL, *sink = NULL;
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "RGBA",
      "width", G_TYPE_INT, opt_width, "height", G_TYPE_INT, opt_height,
      "framerate", GST_TYPE_FRACTION, 0, 1, NULL);
  GstBus *bus = gst_element_get_bus (pipeline);
  GstBufferPool *pool = NULL;
  RunState st = { 0 };
  GstVideoInfo info;
  GstPad *pad;
  gboolean offered = FALSE;

  g_mutex_init (&st.lock);
  st.warmup = (guint64) opt_warmup;
  st.total = st.warmup + (guint64) opt_frames;
  gst_bus_set_sync_handler (bus, on_bus_sync, &st, NULL);
  if (!gst_video_info_from_caps (&info, caps)) {
    r->error = g_strdup ("invalid caps");
    goto done;
  }
  if (!build_pipeline (GST_BIN (pipeline), c, caps, &src, &sink, &r->error))
    goto done;
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_sink_buffer, &st, NULL);
  gst_object_unref (pad);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    if (!(r->error = posted_error (&st)))
      r->error = g_strdup ("cannot set the pipeline to PLAYING");
    goto done;
  }
  if (!wait_negotiated (src, &st, &r->error))
    goto done;
  if (!(pool = source_pool (src, caps, &info, c->own_pool, &offered))) {
    r->error = g_strdup ("cannot set up a source buffer pool");
    goto done;
  }
  /* From here on an error flushes the pool; one posted before cannot. */
  g_mutex_lock (&st.lock);
  st.pool = pool;
  r->error = g_strdup (st.error);
  g_mutex_unlock (&st.lock);
  if (r->error)
    goto done;
  if (!(r->memory = prefill_pool (pool, (guint) opt_pool_buffers, offered))) {
    r->error = g_strdup ("cannot fill the source pool's buffers");
    goto done;
  }
  if (!push_frames (GST_APP_SRC (src), pool, &st, &r->error)
      || !wait_eos (pipeline, &st, &r->error))
    goto done;
  r->seconds = (st.stop_us - st.start_us) / 1e6;
  r->cpu_seconds = cpu_seconds (&st.stop_ru) - cpu_seconds (&st.start_ru);
  r->rss_growth_mib = (st.stop_rss_kib - st.start_rss_kib) / 1024.0;
  r->gpu_growth_mib = st.start_gpu_free < 0 || st.stop_gpu_free < 0 ? NAN
      : (st.start_gpu_free - st.stop_gpu_free) / (1024.0 * 1024.0);
  r->threads = thread_cpu_summary (st.start_threads, st.stop_threads, r->seconds);

done:
  if (gst_element_set_state (pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_FAILURE && !r->error)
    r->error = g_strdup ("cannot stop the pipeline");
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  gst_caps_unref (caps);
  g_free (st.error);
  g_clear_pointer (&st.start_threads, g_hash_table_unref);
  g_clear_pointer (&st.stop_threads, g_hash_table_unref);
  g_mutex_clear (&st.lock);
}

static gboolean have_nvcodec;

/* NULL if the elements of @c exist, else why not. nvcodec's types exist
 * only once its plugin is loaded and has found a CUDA device. */
static gchar *
unavailable (const BenchCase * c)
{
  if (g_type_from_name (c->upload) && g_type_from_name (c->download))
    return NULL;
  return g_strdup_printf ("not available (%s)", !have_nvcodec ? "no nvcodec plugin"
      : "nvcodec registered no CUDA elements: no usable CUDA device");
}

/* Loads our plugin (making cudagray registers its types) and nvcodec's;
 * says on stdout where our filters run. FALSE if our plugin is missing. */
static gboolean
load_plugins (void)
{
  GstElement *gray = gst_element_factory_make ("cudagray", NULL);
  GstPlugin *nvcodec = gst_plugin_load_by_name ("nvcodec");
  cf_device_info dev;
  int n = 0;

  have_nvcodec = nvcodec != NULL;
  g_clear_object (&nvcodec);
  if (!gray || !g_type_from_name ("GstCfCudaUpload")) {
    g_printerr ("cf-pipeline-bench: the cudafilters plugin is not found "
        "(set GST_PLUGIN_PATH to its build directory)\n");
    if (gray)
      gst_object_unref (gst_object_ref_sink (gray));
    return FALSE;
  }
  gst_object_unref (gst_object_ref_sink (gray));
  have_gpu = cf_device_count (&n) == CF_OK && n > 0;
  /* The first query of the GPU's memory creates the runtime's context (and
   * some host memory): do it now, not inside the first timed run. */
  (void) gpu_free_bytes ();
  if (!have_gpu && !opt_allow_cpu) {
    g_printerr ("cf-pipeline-bench: no GPU (%s); --allow-cpu runs the CPU reference path "
        "anyway\n", cf_device_unavailable_reason ());
    skipped_no_gpu = TRUE;
    return FALSE;
  }
  if (!have_gpu)
    g_print ("no GPU: CPU reference path (%s); the GPU rows measure CPU copies\n\n",
        cf_device_unavailable_reason ());
  else if (cf_device_get_info (0, &dev) == CF_OK)
    g_print ("GPU: %s\n\n", dev.name);
  return TRUE;
}

/* The table row of @c and @r. */
static void
print_row (const BenchCase * c, BenchResult * r)
{
  if (r->error) {
    g_print ("| %s | %s | %s%s | | | | | |\n", c->label, r->memory ? r->memory : "",
        r->unavailable ? "" : "error: ", g_strdelimit (r->error, "|\n", ' '));
    return;
  }
  g_print ("| %s | %s | %d | %.3f | %.1f | %.2f | %+.1f | ", c->label, r->memory, opt_frames,
      r->seconds * 1e3 / opt_frames, opt_frames / r->seconds, r->cpu_seconds / r->seconds,
      r->rss_growth_mib);
  if (isnan (r->gpu_growth_mib))
    g_print ("n/a |\n");
  else
    g_print ("%+.1f |\n", r->gpu_growth_mib);
}

/* Frames/s of back-to-back uploads of RGBA frames from @memory (pinned or
 * pageable) into device memory, on one stream, rotating over as many host
 * frames as the source pool holds (more bytes than the host's caches, as in
 * the pipelines): the ceiling of a pipeline that uploads every frame. Pinned
 * copies are queued and waited for at the end; a pageable copy returns once
 * the driver has staged it. 0 on failure. */
static gdouble
upload_rate (cf_memory memory, gint n)
{
  gint k = MAX (opt_pool_buffers, 1);
  cf_frame *host = g_new0 (cf_frame, k), dev = { 0 };
  cf_stream stream = NULL;
  gdouble rate = 0;
  guint64 x = 88172645463325252ull;
  gboolean ok = TRUE;

  for (gint b = 0; b < k && ok; b++) {
    ok = cf_frame_alloc (&host[b], CF_FORMAT_RGBA, opt_width, opt_height, memory) == CF_OK;
    for (gint y = 0; ok && y < opt_height; y++)
      for (gint i = 0; i + 8 <= opt_width * 4; i += 8) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        memcpy (host[b].data[0] + (gsize) y * host[b].pitch[0] + i, &x, 8);
      }
  }
  ok = ok && cf_frame_alloc (&dev, CF_FORMAT_RGBA, opt_width, opt_height,
      CF_MEMORY_DEVICE) == CF_OK && cf_stream_create (&stream) == CF_OK;
  for (gint i = 0; i < 2 * k && ok; i++)
    ok = cf_frame_upload (&host[i % k], &dev, stream) == CF_OK;
  ok = ok && cf_stream_synchronize (stream) == CF_OK;
  gint64 t0 = g_get_monotonic_time ();
  for (gint i = 0; i < n && ok; i++)
    ok = cf_frame_upload (&host[i % k], &dev, stream) == CF_OK;
  ok = ok && cf_stream_synchronize (stream) == CF_OK;
  if (ok)
    rate = n / ((g_get_monotonic_time () - t0) / 1e6);
  cf_stream_destroy (&stream);
  cf_frame_free (&dev);
  for (gint b = 0; b < k; b++)
    cf_frame_free (&host[b]);
  g_free (host);
  return rate;
}

/* frames/s of a case that ran, else NAN. */
static gdouble
fps (const BenchResult * r)
{
  return r->error ? NAN : opt_frames / r->seconds;
}

/* The length of @c's tag, which its label starts with in brackets:
 * "(a1) ..." is a1. */
static gsize
tag_length (const BenchCase * c)
{
  const gchar *end = strchr (c->label, ')');

  return end ? (gsize) (end - c->label - 1) : 0;
}

static gboolean
has_tag (const BenchCase * c, const gchar * tag)
{
  gsize n = tag_length (c);

  return strlen (tag) == n && strncmp (c->label + 1, tag, n) == 0;
}

/* Whether --only asks for @c. */
static gboolean
asked (const BenchCase * c)
{
  gboolean yes = FALSE;
  gchar **tags;

  if (!opt_only)
    return TRUE;
  tags = g_strsplit (opt_only, ",", -1);
  for (gchar ** t = tags; *t && !yes; t++)
    yes = has_tag (c, *t);
  g_strfreev (tags);
  return yes;
}

/* NULL when every tag of --only names a case of @cases, else the first
 * that does not (g_free it): a typo (A1, a3, an empty --only) ran nothing
 * and printed an empty table, with exit status 0. */
static gchar *
unknown_tag (const BenchCase * cases, gsize n_cases)
{
  gchar **tags = g_strsplit (opt_only, ",", -1), *bad = NULL;

  if (!tags[0])
    bad = g_strdup ("");
  for (gchar ** t = tags; *t && !bad; t++) {
    gboolean found = FALSE;
    for (gsize i = 0; i < n_cases && !found; i++)
      found = has_tag (&cases[i], *t);
    if (!found)
      bad = g_strdup (*t);
  }
  g_strfreev (tags);
  return bad;
}

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

/* The run of case @i with the median frames/s (the lower middle one for
 * an even count); a failed run counts as the slowest. */
static gint
median_run (BenchResult (*runs)[N_CASES], gsize i)
{
  gdouble v[MAX_REPEAT], m;

  for (gint k = 0; k < opt_repeat; k++)
    v[k] = runs[k][i].error ? -1 : fps (&runs[k][i]);
  {
    gdouble sorted[MAX_REPEAT];
    memcpy (sorted, v, sizeof (gdouble) * (gsize) opt_repeat);
    qsort (sorted, (gsize) opt_repeat, sizeof (gdouble), cmp_double);
    m = sorted[(opt_repeat - 1) / 2];
  }
  for (gint k = 0; k < opt_repeat; k++)
    if (v[k] == m)
      return k;
  return 0;
}

/* The median host CPU (cores) of case @i over the runs that ran. */
static gdouble
median_cpu (BenchResult (*runs)[N_CASES], gsize i)
{
  gdouble v[MAX_REPEAT];
  gint n = 0;

  for (gint k = 0; k < opt_repeat; k++)
    if (!runs[k][i].error)
      v[n++] = runs[k][i].cpu_seconds / runs[k][i].seconds;
  if (!n)
    return NAN;
  qsort (v, (gsize) n, sizeof (gdouble), cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
main (int argc, char **argv)
{
  /* Rows the summary lines refer to by index. */
  enum
  { GRAY, GRAY_BLUR, FOUR, OWN, TRANSFER, THREE, BAD, MIXED };
  G_STATIC_ASSERT (MIXED + 1 == N_CASES);
  static const BenchCase cases[N_CASES] = {
    [GRAY] = {"(a1) ours, default properties: cudaupload ! cudagray ! cudadownload",
        "GstCfCudaUpload", "GstCfCudaDownload", 1, 0, FALSE},
    [GRAY_BLUR] = {"(a2) ours, default properties: cudaupload ! cudagray ! cudablur sigma=2 ! "
          "cudadownload", "GstCfCudaUpload", "GstCfCudaDownload", 2, 0, FALSE},
    [FOUR] = {"(a4) ours, default properties: cudaupload ! cudagray ! cudablur sigma=2 ! "
          "cudablur sigma=1 ! cudablur sigma=3 ! cudadownload",
        "GstCfCudaUpload", "GstCfCudaDownload", 4, 0, FALSE},
    [OWN] = {"(p2) ours, default properties, the source's own system-memory pool: "
          "cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload",
        "GstCfCudaUpload", "GstCfCudaDownload", 2, 0, TRUE},
    [TRANSFER] = {"(b) ours, default properties: cudaupload ! video/x-raw(memory:CUDAMemory) "
          "! cudadownload", "GstCfCudaUpload", "GstCfCudaDownload", 0, 0, FALSE},
    [THREE] = {"(a2-3) ours, frames-in-flight=3 on every element: cudaupload ! cudagray ! "
          "cudablur sigma=2 ! cudadownload", "GstCfCudaUpload", "GstCfCudaDownload", 2, 3,
        FALSE},
    [BAD] = {"(c) gst-plugins-bad: cudaupload ! video/x-raw(memory:CUDAMemory) ! cudadownload",
        "GstCudaUpload", "GstCudaDownload", 0, 0, FALSE},
    [MIXED] = {"(d) mixed: bad's cudaupload ! cudagray ! cudablur sigma=2 ! bad's "
          "cudadownload", "GstCudaUpload", "GstCudaDownload", 2, 0, FALSE},
  };
  BenchResult runs[MAX_REPEAT][G_N_ELEMENTS (cases)] = { { {0} } };
  BenchResult results[G_N_ELEMENTS (cases)];
  GOptionContext *ctx = g_option_context_new ("- pipeline throughput with a pool-fed source");
  GError *error = NULL;
  int status = 0;
  gdouble pinned = 0, pageable = 0;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("cf-pipeline-bench: %s\n", error->message);
    g_error_free (error);
    g_option_context_free (ctx);
    return 1;
  }
  g_option_context_free (ctx);
  if (opt_width < 1 || opt_height < 1 || opt_frames < 1 || opt_warmup < 1
      || opt_pool_buffers < 1) {
    g_printerr ("cf-pipeline-bench: --width, --height, --frames, --warmup and "
        "--pool-buffers must be at least 1\n");
    return 1;
  }
  if (opt_repeat < 1 || opt_repeat > MAX_REPEAT) {
    g_printerr ("cf-pipeline-bench: --repeat must be 1 to %d\n", MAX_REPEAT);
    return 1;
  }
  if (opt_only) {
    gchar *bad = unknown_tag (cases, G_N_ELEMENTS (cases));
    if (bad) {
      GString *all = g_string_new (NULL);
      for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
        g_string_append_printf (all, "%s%.*s", i ? "," : "", (int) tag_length (&cases[i]),
            cases[i].label + 1);
      g_printerr ("cf-pipeline-bench: --only %s: no case '%s' (the tags: %s)\n", opt_only,
          bad, all->str);
      g_string_free (all, TRUE);
      g_free (bad);
      return 1;
    }
  }
  if (!load_plugins ())
    return skipped_no_gpu ? 77 : 1;

  if (have_gpu) {
    pinned = upload_rate (CF_MEMORY_PINNED_HOST, opt_frames);
    pageable = upload_rate (CF_MEMORY_HOST, opt_frames);
  }
  /* Runs in turn (every case once, then again), so that a drift of the
   * host (clocks, other load) spreads over all cases alike. */
  for (gint k = 0; k < opt_repeat; k++) {
    for (gsize i = 0; i < G_N_ELEMENTS (cases); i++) {
      BenchResult *r = &runs[k][i];
      if (!asked (&cases[i]))
        r->error = g_strdup ("not asked for (--only)");
      if (r->error || (r->error = unavailable (&cases[i])))
        r->unavailable = TRUE;
      else
        run_case (&cases[i], r);
      if (r->error && !r->unavailable) {
        g_printerr ("cf-pipeline-bench: %s: %s\n", cases[i].label, r->error);
        status = 1;
      }
    }
  }
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    results[i] = runs[median_run (runs, i)][i];

  g_print ("%dx%d RGBA, %d frames timed after %d warm-up, %d source pool buffers\n\n",
      opt_width, opt_height, opt_frames, opt_warmup, opt_pool_buffers);
  /* Memory growth over the timed frames: pools filled during warm-up mean
   * no allocation per frame in steady state, so both stay near zero. */
  g_print ("| pipeline | source pool memory | frames | ms/frame | frames/s "
      "| host CPU (cores) | host RSS growth MiB | GPU memory growth MiB |\n"
      "|---|---|---|---|---|---|---|---|\n");
  for (gint k = 0; k < opt_repeat; k++)
    for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
      if (asked (&cases[i]))
        print_row (&cases[i], &runs[k][i]);
  if (opt_repeat > 1) {
    g_print ("\nmedians of %d runs:\n\n| pipeline | frames/s | host CPU (cores) |\n|---|---|---|\n",
        opt_repeat);
    for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
      if (!results[i].error)
        g_print ("| %s | %.1f | %.2f |\n", cases[i].label, fps (&results[i]),
            median_cpu (runs, i));
  }
  if (opt_thread_cpu) {
    g_print ("\nhost CPU by thread (cores):\n\n");
    for (gint k = 0; k < opt_repeat; k++)
      for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
        if (runs[k][i].threads)
          g_print ("- %.4s: %s\n", cases[i].label, runs[k][i].threads);
    g_print ("\n");
  }
  if (have_gpu) {
    g_print ("| (ref) cudaMemcpy2DAsync from pinned memory, back to back, %d frames in turn "
        "| | %d | %.3f | %.1f | | | |\n", opt_pool_buffers, opt_frames, 1e3 / pinned, pinned);
    g_print ("| (ref) cudaMemcpy2DAsync from pageable memory, back to back, %d frames in turn "
        "| | %d | %.3f | %.1f | | | |\n", opt_pool_buffers, opt_frames, 1e3 / pageable,
        pageable);
    g_print ("\nagainst the pinned upload (target >= 95%%): 1 filter %.1f%%, 2 filters %.1f%%, "
        "4 filters %.1f%%, transfer only %.1f%%\n", 100 * fps (&results[GRAY]) / pinned,
        100 * fps (&results[GRAY_BLUR]) / pinned, 100 * fps (&results[FOUR]) / pinned,
        100 * fps (&results[TRANSFER]) / pinned);
    g_print ("source's own pool against the pageable upload (target >= 90%%): %.1f%%\n",
        100 * fps (&results[OWN]) / pageable);
  }
  if (opt_sweep) {
    static const guint depths[] = { 1, 2, 3, 4, 6, 8 };
    g_print ("\nframes-in-flight on every element, cudaupload ! cudagray ! cudablur sigma=2 ! "
        "cudadownload:\n\n| frames-in-flight | pool-fed frames/s | %% of pinned upload | "
        "own pool frames/s | %% of pageable upload |\n|---|---|---|---|---|\n");
    for (gsize i = 0; i < G_N_ELEMENTS (depths); i++) {
      BenchCase fed = cases[GRAY_BLUR], own = cases[OWN];
      BenchResult a = { 0 }, b = { 0 };
      fed.frames_in_flight = own.frames_in_flight = depths[i];
      run_case (&fed, &a);
      run_case (&own, &b);
      g_print ("| %u | %.1f | %.1f | %.1f | %.1f |\n", depths[i], fps (&a),
          100 * fps (&a) / pinned, fps (&b), 100 * fps (&b) / pageable);
      g_free (a.memory);
      g_free (a.error);
      g_free (a.threads);
      g_free (b.memory);
      g_free (b.error);
      g_free (b.threads);
    }
  }
  if (!results[GRAY_BLUR].error && !results[BAD].error)
    g_print ("ratio ours (a2) / gst-plugins-bad (c): %.1fx\n",
        fps (&results[GRAY_BLUR]) / fps (&results[BAD]));
  for (gint k = 0; k < opt_repeat; k++)
    for (gsize i = 0; i < G_N_ELEMENTS (cases); i++) {
      g_free (runs[k][i].memory);
      g_free (runs[k][i].error);
      g_free (runs[k][i].threads);
    }
  gst_deinit ();
  return status;
}
