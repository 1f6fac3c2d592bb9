/* Embedding example: the GStreamer elements inside an application.
 *
 * Pushes 30 generated RGBA frames through
 *   appsrc ! cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! appsink
 * and reads the GRAY8 results back, checking count, size and content. The
 * filters run on the GPU when there is one, else on the CPU.
 *
 * What an application must check, and this one does: that every element
 * exists (gst_parse_launch alone returns a partial pipeline when a plugin is
 * missing), that the pipeline starts, and errors on the bus while it waits
 * for results, each wait bounded so a stuck pipeline fails instead of
 * hanging. Exit status 0 on success, 1 with a message on stderr otherwise.
 *
 *   cc app_pipeline.c $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-app-1.0) */
#include <stdio.h>

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>

#define W 320
#define H 240
#define FRAMES 30
#define WAIT (10 * GST_SECOND) /* longest wait for one result */

static GstBuffer *make_frame(int n)
{
    GstBuffer *buf = gst_buffer_new_allocate(NULL, W * H * 4, NULL);
    GstMapInfo map;
    if (!buf || !gst_buffer_map(buf, &map, GST_MAP_WRITE)) {
        if (buf)
            gst_buffer_unref(buf);
        return NULL;
    }
    for (int i = 0; i < W * H; i++) {
        map.data[4 * i] = (guint8)(i + n);
        map.data[4 * i + 1] = (guint8)(i / W);
        map.data[4 * i + 2] = 200;
        map.data[4 * i + 3] = 255;
    }
    gst_buffer_unmap(buf, &map);
    GST_BUFFER_PTS(buf) = gst_util_uint64_scale(n, GST_SECOND, 30);
    GST_BUFFER_DURATION(buf) = GST_SECOND / 30;
    return buf;
}

/* Prints the pipeline's first error, if it posted one; TRUE if it did. */
static gboolean report_error(GstElement *pipeline)
{
    GstBus *bus = gst_element_get_bus(pipeline);
    GstMessage *msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    gst_object_unref(bus);
    if (!msg)
        return FALSE;
    GError *err = NULL;
    gchar *debug = NULL;
    gst_message_parse_error(msg, &err, &debug);
    fprintf(stderr, "app_pipeline: %s: %s\n", GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)),
            err->message);
    if (debug)
        fprintf(stderr, "app_pipeline: (%s)\n", debug);
    g_error_free(err);
    g_free(debug);
    gst_message_unref(msg);
    return TRUE;
}

/* Builds the pipeline; NULL with a message when an element is missing. */
static GstElement *make_pipeline(void)
{
    GError *error = NULL;
    /* FATAL_ERRORS: no partial pipeline when a plugin cannot be found. */
    GstElement *pipeline = gst_parse_launch_full(
        "appsrc name=src format=time caps=video/x-raw,format=RGBA,width=320,height=240,"
        "framerate=30/1 ! cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! "
        "appsink name=sink sync=false caps=video/x-raw,format=GRAY8",
        NULL, GST_PARSE_FLAG_FATAL_ERRORS, &error);
    if (!pipeline || error) {
        fprintf(stderr, "app_pipeline: %s%s\n",
                error ? error->message : "cannot build the pipeline",
                error && g_error_matches(error, GST_PARSE_ERROR, GST_PARSE_ERROR_NO_SUCH_ELEMENT)
                    ? " (is the cudafilters plugin installed, or GST_PLUGIN_PATH set?)"
                    : "");
        g_clear_error(&error);
        if (pipeline)
            gst_object_unref(pipeline);
        return NULL;
    }
    return pipeline;
}

/* Pushes the frames and reads the results; returns how many came back, or
 * -1 on an error (printed). *bad counts results of the wrong size. */
static int run(GstElement *pipeline, GstAppSrc *src, GstAppSink *sink, int *bad)
{
    for (int n = 0; n < FRAMES; n++) {
        GstBuffer *buf = make_frame(n);
        if (!buf || gst_app_src_push_buffer(src, buf) != GST_FLOW_OK) {
            fprintf(stderr, "app_pipeline: cannot push frame %d\n", n);
            return -1;
        }
    }
    gst_app_src_end_of_stream(src);
    int frames = 0;
    for (;;) {
        GstSample *sample = gst_app_sink_try_pull_sample(sink, WAIT);
        if (!sample)
            break; /* end of stream, an error or a timeout: told apart below */
        GstBuffer *buf = gst_sample_get_buffer(sample);
        /* GRAY8 rows of 320 bytes are already 4-byte aligned: no padding. */
        if (gst_buffer_get_size(buf) != W * H)
            (*bad)++;
        gst_sample_unref(sample);
        frames++;
    }
    if (report_error(pipeline))
        return -1;
    if (!gst_app_sink_is_eos(sink)) {
        fprintf(stderr, "app_pipeline: no result for %d s after frame %d: giving up\n",
                (int)(WAIT / GST_SECOND), frames);
        return -1;
    }
    return frames;
}

int main(int argc, char **argv)
{
    gst_init(&argc, &argv);
    GstElement *pipeline = make_pipeline();
    if (!pipeline)
        return 1;
    GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    int frames = -1, bad = 0;
    if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        if (!report_error(pipeline))
            fprintf(stderr, "app_pipeline: the pipeline does not start\n");
    } else {
        frames = run(pipeline, GST_APP_SRC(src), GST_APP_SINK(sink), &bad);
    }
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(src);
    gst_object_unref(sink);
    gst_object_unref(pipeline);
    if (frames < 0)
        return 1;
    printf("app_pipeline: %d of %d frames back as %dx%d GRAY8%s\n", frames, FRAMES, W, H,
           bad ? ", some of the wrong size" : "");
    return frames == FRAMES && !bad ? 0 : 1;
}
