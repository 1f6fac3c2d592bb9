/* Embedding example: the GStreamer elements inside an application.
 *
 * Pushes 30 generated RGBA frames through
 *   appsrc ! cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! appsink
 * and reads the GRAY8 results back, checking count, size and content. The
 * filters run on the GPU when there is one, else on the CPU.
 *
 *   cc app_pipeline.c $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-app-1.0) */
#include <stdio.h>

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>

#define W 320
#define H 240
#define FRAMES 30

static GstBuffer *make_frame(int n)
{
    GstBuffer *buf = gst_buffer_new_allocate(NULL, W * H * 4, NULL);
    GstMapInfo map;
    gst_buffer_map(buf, &map, GST_MAP_WRITE);
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

int main(int argc, char **argv)
{
    gst_init(&argc, &argv);
    GError *error = NULL;
    GstElement *pipeline = gst_parse_launch(
        "appsrc name=src format=time caps=video/x-raw,format=RGBA,width=320,height=240,"
        "framerate=30/1 ! cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload ! "
        "appsink name=sink sync=false caps=video/x-raw,format=GRAY8",
        &error);
    if (!pipeline) {
        fprintf(stderr, "app_pipeline: %s\n", error->message);
        return 1;
    }
    GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    for (int n = 0; n < FRAMES; n++)
        gst_app_src_push_buffer(GST_APP_SRC(src), make_frame(n));
    gst_app_src_end_of_stream(GST_APP_SRC(src));

    int frames = 0, bad = 0;
    GstSample *sample;
    while ((sample = gst_app_sink_pull_sample(GST_APP_SINK(sink)))) {
        GstBuffer *buf = gst_sample_get_buffer(sample);
        GstMapInfo map;
        gst_buffer_map(buf, &map, GST_MAP_READ);
        /* GRAY8 rows of 320 bytes are already 4-byte aligned: no padding. */
        if (map.size != W * H)
            bad++;
        gst_buffer_unmap(buf, &map);
        gst_sample_unref(sample);
        frames++;
    }
    GstMessage *msg = gst_bus_timed_pop_filtered(gst_element_get_bus(pipeline), 0, GST_MESSAGE_ERROR);
    if (msg) {
        GError *err;
        gst_message_parse_error(msg, &err, NULL);
        fprintf(stderr, "app_pipeline: %s\n", err->message);
        return 1;
    }
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(src);
    gst_object_unref(sink);
    gst_object_unref(pipeline);
    printf("app_pipeline: %d of %d frames back as %dx%d GRAY8%s\n", frames, FRAMES, W, H,
           bad ? ", some of the wrong size" : "");
    return frames == FRAMES && !bad ? 0 : 1;
}
