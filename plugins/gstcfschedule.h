/* cudafilters GStreamer plugin: the scheduling adapter.
 *
 * Ties one element to a cf_scheduler (core/include/cudafilters/scheduler.h).
 * The streaming thread hands it frames to run (submit) and buffers that need
 * no work (push_ready, for passthrough) and returns at once; the element's
 * own src pad task pushes each output downstream, in order, as soon as its
 * work has completed, so an element holds several frames in flight without
 * ever waiting for a later frame to let an earlier one go. Serialized events
 * and queries wait until everything before them has been pushed
 * (wait_idle); FLUSH_START wakes every wait and FLUSH_STOP drops everything.
 * An error of a frame's work is posted as an element error and fails the
 * next submit; a push that fails (NOT_LINKED, EOS, FLUSHING, ERROR) is
 * returned by the next submit, as a queue element does; NOT_LINKED ends
 * when the pad is linked again (RECONFIGURE). */
#ifndef GST_CF_SCHEDULE_H
#define GST_CF_SCHEDULE_H

#include <gst/cuda/gstcudacontext.h>
#include <gst/video/video.h>

#include <cudafilters/cudafilters.h>

G_BEGIN_DECLS

typedef struct _GstCfSchedule GstCfSchedule;

/* A new adapter for @element, pushing on @srcpad (both borrowed; the
 * element owns the adapter). No scheduler yet: see _start(). */
GstCfSchedule *gst_cf_schedule_new (GstElement * element, GstPad * srcpad);
/* Frees the adapter; its scheduler must be stopped (_stop()). */
void gst_cf_schedule_free (GstCfSchedule * sched);

/* Makes the scheduler that runs @filter (NULL: a pure copy, upload or
 * download) on the GPU in @context (pushed by the caller; NULL: on the CPU),
 * with @depth frames in flight at most. FALSE with cf_last_error() set on
 * failure. */
gboolean gst_cf_schedule_start (GstCfSchedule * sched, cf_filter * filter,
    GstCudaContext * context, guint depth);
/* Stops the task, drops every frame and buffer held, and frees the
 * scheduler (which makes its own context current). Safe to call twice. */
void gst_cf_schedule_stop (GstCfSchedule * sched);

/* Submits the frame @in -> @out. Takes @inbuf and @outbuf and the two
 * mapped frames (@in_map, @out_map: unmapped once the work is done; the
 * cf_frames describe their planes). The GPU waits for @wait (NULL: none),
 * the pending work of @inbuf, before reading it. Waits while the element
 * has its depth of buffers queued. @discont marks the output DISCONT.
 *
 * @early (downstream reads GstCfPendingMeta, gstcfpending.h): @outbuf
 * leaves before its work is done, carrying the event of that work, pushed
 * by gst_cf_schedule_push_early(). The input
 * goes once the work is done: at a later submit, which asks the GPU
 * without waiting, or, when no submit comes for 2 ms, a queue is full or
 * wait_idle() is called, from the task, which then waits for it. So no
 * thread sleeps on the GPU a frame while frames keep coming.
 *
 * Returns GST_FLOW_OK, or the flow that stops the stream (FLUSHING, a
 * failed push's, ERROR after a frame's failure) with nothing kept. */
GstFlowReturn gst_cf_schedule_submit (GstCfSchedule * sched, GstBuffer * inbuf,
    GstVideoFrame * in_map, const cf_frame * in, GstBuffer * outbuf, GstVideoFrame * out_map,
    const cf_frame * out, gboolean discont, cf_event wait, gboolean early);

/* After an early submit, once the caller holds no reference of its own to
 * the output (so it is writable): pushes it with its pending meta, from the
 * calling thread. */
GstFlowReturn gst_cf_schedule_push_early (GstCfSchedule * sched);

/* Pushes @buffer (taken) after everything queued before it, from the
 * calling thread when nothing is queued or when @early (outputs leave at
 * once, see gst_cf_schedule_submit). */
GstFlowReturn gst_cf_schedule_push_ready (GstCfSchedule * sched, GstBuffer * buffer,
    gboolean discont, gboolean early);

/* Waits until everything handed over so far has been pushed. Returns the
 * flow of the pushes (GST_FLOW_OK, or what stopped them), GST_FLOW_FLUSHING
 * while flushing. */
GstFlowReturn gst_cf_schedule_wait_idle (GstCfSchedule * sched);

/* The flow that stopped the pushes if no submit or push has returned it
 * upstream yet (it failed after the last one), else GST_FLOW_OK. */
GstFlowReturn gst_cf_schedule_untold_flow (GstCfSchedule * sched);

/* RECONFIGURE on the src pad: after NOT_LINKED the pad may be linked
 * again, so the next outputs are pushed instead of dropped (as a queue
 * does). */
void gst_cf_schedule_reconfigure (GstCfSchedule * sched);

/* The end (pts + duration) of the last buffer pushed, in the buffers' own
 * time; GST_CLOCK_TIME_NONE before the first or after a flush. */
GstClockTime gst_cf_schedule_get_position (GstCfSchedule * sched);

/* FLUSH_START: wakes every wait, makes submits return FLUSHING. Call
 * before forwarding the event downstream, then _pause() after. */
void gst_cf_schedule_flush_start (GstCfSchedule * sched);
/* Pauses the task (waits until it has left its loop). */
void gst_cf_schedule_pause (GstCfSchedule * sched);
/* FLUSH_STOP: drops everything queued, clears the flow, accepts frames. */
void gst_cf_schedule_flush_stop (GstCfSchedule * sched);
/* Pad deactivation: flushing, and the task stopped (joined). */
void gst_cf_schedule_stop_task (GstCfSchedule * sched);

G_END_DECLS

#endif
