/* cudafilters GStreamer plugin: the scheduling adapter's state, shared by
 * its two halves: gstcfschedule.c (the streaming thread's side: submit,
 * pushes, events) and gstcfscheduletask.c (the task that pushes finished
 * outputs and lets inputs go). Private to the plugin. */
#ifndef GST_CF_SCHEDULE_PRIV_H
#define GST_CF_SCHEDULE_PRIV_H

#include "gstcfpending.h"
#include "gstcfschedule.h"

G_BEGIN_DECLS

/* One buffer on its way out: a frame being worked on by the scheduler, or a
 * buffer that is ready (passthrough). Kept for reuse. */
typedef struct
{
  GstBuffer *inbuf, *outbuf;
  GstVideoFrame in_map, out_map;
  gboolean in_mapped, out_mapped;
  gboolean scheduled;           /* in the cf_scheduler, which gives it back */
  gboolean discont;
  gboolean bounded_input;       /* inbuf came from a pool with a maximum */
  GstCfEvent *event;            /* recorded after the frame's work (early pushes); kept */
  guint64 sequence;             /* the record of event made for this frame */
} GstCfRecord;

struct _GstCfSchedule
{
  GstElement *element;
  GstPad *srcpad;
  cf_scheduler *scheduler;      /* streaming thread and task; set in start() */
  cf_filter *filters[1];
  guint depth;
  GstCudaContext *context;      /* GPU: the scheduler's; events are made in it */

  /* An early submit's output, pushed by gst_cf_schedule_push_early()
   * (streaming thread only). */
  GstBuffer *early_buf;
  GstCfEvent *early_event;
  guint64 early_sequence;
  gboolean early_discont;

  GMutex lock;
  GCond cond;                   /* queue changed, push done, flushing */
  GMutex consume;               /* held while taking records off the head:
                                 * by the task, or by the streaming thread's
                                 * release of finished early outputs */
  gint64 last_submit;           /* g_get_monotonic_time() of the newest submit, us */
  guint idle_waiters;           /* callers in wait_idle(): the task acts at once */
  gboolean task_asleep;         /* the task waits for a record to be queued */
  gboolean task_lingering;      /* the task leaves early outputs to the streaming thread */
  GstBufferPool *in_pool;       /* the pool of the last input (compared, not referenced) */
  gboolean in_pool_bounded;     /* ... has a maximum number of buffers */
  GQueue queue;                 /* GstCfRecord *, oldest first */
  GQueue spare;                 /* GstCfRecord * for reuse */
  gboolean pushing;             /* the task is pushing a record's buffer */
  gboolean flushing;
  gboolean task_started;
  GstFlowReturn srcresult;      /* of the pushes; OK until one fails */
  GstClockTime position;        /* end of the last buffer pushed (pts + duration), or NONE */
  gboolean srcresult_told;      /* a submit or push has returned srcresult upstream */
};

/* Unmaps and lets go of what a record holds. */
void gst_cf_record_clear (GstCfRecord * rec);
/* @buf, marked DISCONT when @discont (made writable only if it must change). */
GstBuffer *gst_cf_mark_discont (GstBuffer * buf, gboolean discont);
/* Pushes @buf downstream, remembering where the stream got to. */
GstFlowReturn gst_cf_schedule_push_out (GstCfSchedule * sched, GstBuffer * buf);
/* The src pad task's function (data: the GstCfSchedule). */
void gst_cf_schedule_task_loop (gpointer data);
/* Streaming thread, before each submit: lets go of the inputs of early
 * outputs whose work is done, asking the GPU without waiting. */
void gst_cf_schedule_release_finished (GstCfSchedule * sched);

G_END_DECLS
#endif
