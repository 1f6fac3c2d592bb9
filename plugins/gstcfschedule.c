/* cudafilters GStreamer plugin: the scheduling adapter (gstcfschedule.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfpending.h"
#include "gstcfschedule.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

/* One buffer on its way out: a frame being worked on by the scheduler, or a
 * buffer that is ready (passthrough). Kept for reuse. */
typedef struct
{
  GstBuffer *inbuf, *outbuf;
  GstVideoFrame in_map, out_map;
  gboolean in_mapped, out_mapped;
  gboolean scheduled;           /* in the cf_scheduler, which gives it back */
  gboolean discont;
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
  GQueue to_push;               /* GstBuffer *: early outputs the task pushes, oldest first
                                 * (gst_cf_schedule_push_early_from_task) */

  GMutex lock;
  GCond cond;                   /* queue changed, push done, flushing */
  GMutex consume;               /* held while taking records off the head:
                                 * by the task, or by the streaming thread's
                                 * release of finished early outputs */
  gint64 last_submit;           /* g_get_monotonic_time() of the newest submit, us */
  guint idle_waiters;           /* callers in wait_idle(): the task acts at once */
  gboolean task_asleep;         /* the task waits for a record to be queued */
  gboolean task_lingering;      /* the task leaves early outputs to the streaming thread */
  GQueue queue;                 /* GstCfRecord *, oldest first */
  GQueue spare;                 /* GstCfRecord * for reuse */
  gboolean pushing;             /* the task is pushing a record's buffer */
  gboolean flushing;
  gboolean task_started;
  GstFlowReturn srcresult;      /* of the pushes; OK until one fails */
  GstClockTime position;        /* end of the last buffer pushed (pts + duration), or NONE */
  gboolean srcresult_told;      /* a submit or push has returned srcresult upstream */
};

GstCfSchedule *
gst_cf_schedule_new (GstElement * element, GstPad * srcpad)
{
  GstCfSchedule *sched = g_new0 (GstCfSchedule, 1);

  sched->element = element;
  sched->srcpad = srcpad;
  sched->srcresult = GST_FLOW_OK;
  sched->position = GST_CLOCK_TIME_NONE;
  g_mutex_init (&sched->lock);
  g_cond_init (&sched->cond);
  g_mutex_init (&sched->consume);
  g_queue_init (&sched->queue);
  g_queue_init (&sched->spare);
  g_queue_init (&sched->to_push);
  return sched;
}

/* Unmaps and lets go of what a record holds. */
static void
record_clear (GstCfRecord * rec)
{
  if (rec->in_mapped)
    gst_video_frame_unmap (&rec->in_map);
  if (rec->out_mapped)
    gst_video_frame_unmap (&rec->out_map);
  rec->in_mapped = rec->out_mapped = FALSE;
  gst_clear_buffer (&rec->inbuf);
  gst_clear_buffer (&rec->outbuf);
  rec->scheduled = rec->discont = FALSE;
}

void
gst_cf_schedule_free (GstCfSchedule * sched)
{
  GstCfRecord *rec;

  if (!sched)
    return;
  g_warn_if_fail (sched->scheduler == NULL);
  while ((rec = g_queue_pop_head (&sched->queue))) {
    record_clear (rec);
    gst_cf_event_unref (rec->event);
    g_free (rec);
  }
  while ((rec = g_queue_pop_head (&sched->spare))) {
    gst_cf_event_unref (rec->event);
    g_free (rec);
  }
  g_cond_clear (&sched->cond);
  g_mutex_clear (&sched->consume);
  g_mutex_clear (&sched->lock);
  g_free (sched);
}

gboolean
gst_cf_schedule_start (GstCfSchedule * sched, cf_filter * filter, GstCudaContext * context,
    guint depth)
{
  cf_scheduler_params params = {
    .filters = sched->filters,
    .n_filters = filter ? 1 : 0,
    .depth = (int) depth,
    .backend = context ? CF_BACKEND_CUDA : CF_BACKEND_CPU,
    .name = GST_OBJECT_NAME (sched->element),
  };

  g_return_val_if_fail (sched->scheduler == NULL, FALSE);
  gst_object_replace ((GstObject **) & sched->context, (GstObject *) context);
  sched->filters[0] = filter;
  sched->depth = depth;
  sched->srcresult = GST_FLOW_OK;
  sched->flushing = FALSE;
  return cf_scheduler_create (&sched->scheduler, &params) == CF_OK;
}

/* Lets go of what @rec holds and keeps it for reuse. */
static void
spare_record (GstCfSchedule * sched, GstCfRecord * rec)
{
  record_clear (rec);
  g_mutex_lock (&sched->lock);
  g_queue_push_tail (&sched->spare, rec);
  g_mutex_unlock (&sched->lock);
}

/* @buf, marked DISCONT when @discont (made writable only if it must change). */
static GstBuffer *
mark_discont (GstBuffer * buf, gboolean discont)
{
  if (discont && !GST_BUFFER_IS_DISCONT (buf)) {
    buf = gst_buffer_make_writable (buf);
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  }
  return buf;
}

/* Drops every record: the scheduler's first (it waits for their GPU work),
 * then the buffers. Streaming thread stopped or blocked. */
static void
drop_all (GstCfSchedule * sched)
{
  GstCfRecord *rec;
  GQueue dropped;

  if (sched->scheduler)
    cf_scheduler_flush (sched->scheduler);
  g_mutex_lock (&sched->lock);
  dropped = sched->queue;
  g_queue_init (&sched->queue);
  g_queue_clear_full (&sched->to_push, (GDestroyNotify) gst_buffer_unref);
  g_mutex_unlock (&sched->lock);
  while ((rec = g_queue_pop_head (&dropped)))
    spare_record (sched, rec);
}

void
gst_cf_schedule_stop (GstCfSchedule * sched)
{
  GstCfRecord *rec;

  gst_cf_schedule_stop_task (sched);
  drop_all (sched);
  cf_scheduler_destroy (&sched->scheduler);
  gst_clear_buffer (&sched->early_buf);
  g_clear_pointer (&sched->early_event, gst_cf_event_unref);
  /* Events belong to the context, which goes now. */
  for (GList * l = sched->spare.head; l; l = l->next) {
    rec = l->data;
    g_clear_pointer (&rec->event, gst_cf_event_unref);
  }
  gst_clear_object (&sched->context);
}

/* ---- the task ---- */

/* Takes the head record's result: once its work is done when @wait, else
 * only if it is done. Returns 1 when taken (*status, *message: the frame's
 * failure), 0 when flushing (the record stays for the flush), -1 when not
 * done yet (without @wait). */
static gint
finish_head (GstCfSchedule * sched, GstCfRecord * rec, gboolean wait, cf_status * status,
    gchar ** message)
{
  cf_scheduler_result r;
  cf_status st;

  *status = CF_OK;
  if (!rec->scheduled)
    return 1;
  st = cf_scheduler_receive (sched->scheduler, &r, wait);
  if (st == CF_ERROR_FLUSHING)
    return 0;
  if (st == CF_ERROR_AGAIN && !wait)
    return -1;
  if (st == CF_OK && r.token != rec) {
    /* Cannot happen: records and frames go in the same order. */
    st = CF_ERROR_INVALID_ARGUMENT;
    *message = g_strdup ("internal: frames came back out of order");
  } else if (st != CF_OK || r.status != CF_OK) {
    *message = g_strdup (cf_last_error ());
  }
  *status = st == CF_OK ? r.status : st;
  cf_scheduler_release (sched->scheduler, &r);
  return 1;
}

/* Pushes @buf downstream, remembering where the stream got to (for
 * POSITION queries: GstBaseTransform only tracks buffers it pushes itself). */
static GstFlowReturn
push_out (GstCfSchedule * sched, GstBuffer * buf)
{
  GstClockTime pts = GST_BUFFER_PTS (buf), duration = GST_BUFFER_DURATION (buf);

  if (GST_CLOCK_TIME_IS_VALID (pts)) {
    g_mutex_lock (&sched->lock);
    sched->position = pts + (GST_CLOCK_TIME_IS_VALID (duration) ? duration : 0);
    g_mutex_unlock (&sched->lock);
  }
  return gst_pad_push (sched->srcpad, buf);
}

/* Pushes a record's output, or drops it when the stream has stopped. A
 * record whose output left early has none. */
static GstFlowReturn
push_record (GstCfSchedule * sched, GstCfRecord * rec, GstFlowReturn stopped)
{
  GstBuffer *out = rec->outbuf;

  rec->outbuf = NULL;
  record_clear (rec);
  if (!out)
    return stopped;
  if (stopped != GST_FLOW_OK) {
    gst_buffer_unref (out);
    return stopped;
  }
  out = mark_discont (out, rec->discont);
  /* Our own work on it is done; a pending meta it may still carry (from an
   * element before us) must not reach an element that cannot wait for it. */
  if (gst_buffer_get_meta (out, GST_CF_PENDING_META_API_TYPE)) {
    GST_DEBUG_OBJECT (sched->element, "finishing a pending meta before pushing");
    if (!gst_cf_buffer_finish_pending (out))
      GST_WARNING_OBJECT (sched->element, "pending GPU work failed: %s", cf_last_error ());
    out = gst_buffer_make_writable (out);
    gst_buffer_remove_meta (out, gst_buffer_get_meta (out, GST_CF_PENDING_META_API_TYPE));
  }
  return push_out (sched, out);
}

/* A record whose output left early (gst_cf_schedule_push_early): its work
 * only holds the input now. */
static gboolean
left_early (const GstCfRecord * rec)
{
  return rec->scheduled && !rec->outbuf;
}

/* With the lock held: the newest record whose output left early (its work
 * then only holds the input), when the head is one too; else NULL. */
static GstCfRecord *
newest_early (GstCfSchedule * sched)
{
  GstCfRecord *head = g_queue_peek_head (&sched->queue), *tail = g_queue_peek_tail (&sched->queue);

  return head && left_early (head) && left_early (tail) && tail->event ? tail : NULL;
}

/* How long after the newest submit the task leaves the inputs of early
 * outputs to the streaming thread, which lets them go at its next submit
 * with a query that does not wait (release_finished). While frames keep
 * coming, no thread then sleeps on the GPU for them: each host wait costs
 * the waiter and the CUDA driver's interrupt thread tens of microseconds
 * (bench/diag/evtcost.cu). Past it the stream is taken to have paused and
 * the task waits for the work itself, so that an upstream pool waiting for
 * its buffers gets them back within this time. */
#define GST_CF_LINGER_US 2000

/* With the lock held (the task): TRUE when the task has work now: a record
 * whose output it pushes, a full queue, a caller in wait_idle(), flushing,
 * or early outputs while no submit came for GST_CF_LINGER_US. Otherwise
 * sleeps until a submit wakes it or the linger time is over, and returns
 * FALSE (look again). */
static gboolean
task_has_work (GstCfSchedule * sched)
{
  GstCfRecord *head = g_queue_peek_head (&sched->queue);
  gint64 deadline;

  if (sched->flushing || !g_queue_is_empty (&sched->to_push))
    return TRUE;
  if (!head) {
    sched->task_asleep = TRUE;
    g_cond_wait (&sched->cond, &sched->lock);
    sched->task_asleep = FALSE;
    return FALSE;
  }
  if (!left_early (head) || !left_early (g_queue_peek_tail (&sched->queue))
      || sched->idle_waiters > 0
      || g_queue_get_length (&sched->queue) >= sched->depth)
    return TRUE;
  deadline = sched->last_submit + GST_CF_LINGER_US;
  if (g_get_monotonic_time () >= deadline)
    return TRUE;
  sched->task_lingering = TRUE;
  g_cond_wait_until (&sched->cond, &sched->lock, deadline);
  sched->task_lingering = FALSE;
  return FALSE;
}

/* With sched->consume held: takes the taken head record @rec off the queue,
 * pushes its output (or reports its failure: @status, @message, freed) and
 * keeps the record for reuse. @by_task: called by the task (else by the
 * streaming thread, which then needs no wake for room in the queue). */
static void
retire_head (GstCfSchedule * sched, GstCfRecord * rec, cf_status status, gchar * message,
    gboolean by_task)
{
  GstFlowReturn ret, stopped;
  gboolean push = rec->outbuf != NULL;

  g_mutex_lock (&sched->lock);
  g_queue_pop_head (&sched->queue);
  sched->pushing = push;
  stopped = sched->srcresult;
  g_mutex_unlock (&sched->lock);

  if (status != CF_OK) {
    GST_ELEMENT_ERROR (sched->element, STREAM, FAILED, ("%s", message),
        ("%s", cf_status_name (status)));
    gst_clear_buffer (&rec->outbuf);
    record_clear (rec);
    ret = GST_FLOW_ERROR;
  } else {
    ret = push_record (sched, rec, stopped);
  }
  g_free (message);

  g_mutex_lock (&sched->lock);
  g_queue_push_tail (&sched->spare, rec);
  sched->pushing = FALSE;
  if (ret != GST_FLOW_OK && sched->srcresult == GST_FLOW_OK) {
    sched->srcresult = ret;
    sched->srcresult_told = FALSE;
    GST_DEBUG_OBJECT (sched->element, "output stopped: %s", gst_flow_get_name (ret));
    /* A fatal flow is an error the application must hear of (upstream
     * learns it from the next submit, which may never come). NOT_LINKED is
     * not fatal: upstream may take it (a tee with other branches), the pad
     * may be linked again (gst_cf_schedule_reconfigure), and EOS reports
     * it if it is still there then, as a queue does. */
    if (ret < GST_FLOW_EOS && ret != GST_FLOW_NOT_LINKED && status == CF_OK)
      GST_ELEMENT_FLOW_ERROR (sched->element, ret);
  }
  /* Waiters: the streaming thread for room, wait_idle() callers. */
  if (by_task || sched->idle_waiters > 0)
    g_cond_broadcast (&sched->cond);
  g_mutex_unlock (&sched->lock);
}

/* Streaming thread, before each submit: lets go of the inputs of early
 * outputs whose work is done, oldest first, asking without waiting. Skipped
 * while the task is taking records. */
static void
release_finished (GstCfSchedule * sched)
{
  GstCfRecord *rec;
  cf_status status;
  gchar *message;

  if (!g_mutex_trylock (&sched->consume))
    return;
  for (;;) {
    g_mutex_lock (&sched->lock);
    rec = sched->flushing ? NULL : g_queue_peek_head (&sched->queue);
    g_mutex_unlock (&sched->lock);
    message = NULL;
    if (!rec || !left_early (rec) || finish_head (sched, rec, FALSE, &status, &message) != 1)
      break;
    retire_head (sched, rec, status, message, FALSE);
  }
  g_free (message);
  g_mutex_unlock (&sched->consume);
}

/* With the lock held, which it lets go: pushes the oldest early output the
 * streaming thread left to the task (no wait: it carries its pending meta),
 * and records a flow that stops the stream as retire_head() does. */
static void
push_queued_early (GstCfSchedule * sched)
{
  GstBuffer *buf = g_queue_pop_head (&sched->to_push);
  GstFlowReturn ret, stopped = sched->srcresult;

  sched->pushing = TRUE;
  g_mutex_unlock (&sched->lock);
  if (stopped != GST_FLOW_OK) {
    gst_buffer_unref (buf);
    ret = stopped;
  } else {
    ret = push_out (sched, buf);
  }
  g_mutex_lock (&sched->lock);
  sched->pushing = FALSE;
  if (ret != GST_FLOW_OK && sched->srcresult == GST_FLOW_OK) {
    sched->srcresult = ret;
    sched->srcresult_told = FALSE;
    GST_DEBUG_OBJECT (sched->element, "output stopped: %s", gst_flow_get_name (ret));
    if (ret < GST_FLOW_EOS && ret != GST_FLOW_NOT_LINKED)
      GST_ELEMENT_FLOW_ERROR (sched->element, ret);
  }
  g_cond_broadcast (&sched->cond);
  g_mutex_unlock (&sched->lock);
}

static void
task_loop (gpointer data)
{
  GstCfSchedule *sched = data;
  GstCfRecord *rec, *newest;
  cf_status status;
  gchar *message = NULL;
  guint64 sequence = 0;
  gint taken;

  g_mutex_lock (&sched->lock);
  if (!task_has_work (sched)) {
    g_mutex_unlock (&sched->lock);
    return;
  }
  if (!sched->flushing && !g_queue_is_empty (&sched->to_push)) {
    push_queued_early (sched);
    return;
  }
  g_mutex_unlock (&sched->lock);

  g_mutex_lock (&sched->consume);
  g_mutex_lock (&sched->lock);
  rec = sched->flushing ? NULL : g_queue_peek_head (&sched->queue);
  newest = rec ? newest_early (sched) : NULL;
  if (newest)
    sequence = newest->sequence;
  g_mutex_unlock (&sched->lock);
  if (!rec && !sched->flushing) {
    /* The streaming thread let them go meanwhile. */
    g_mutex_unlock (&sched->consume);
    return;
  }
  /* Outputs that left early wait for nothing here but the release of their
   * inputs. One that is done goes at once; otherwise sleep until the newest
   * one's work is done, after which the older ones are too (they end on the
   * same stream, before it): one wake then lets several go, instead of one
   * wake a frame. */
  taken = rec ? finish_head (sched, rec, newest == NULL, &status, &message) : 0;
  if (taken < 0) {
    (void) gst_cf_event_wait (newest->event, sequence);
    taken = finish_head (sched, rec, TRUE, &status, &message);
  }
  if (!taken) {
    g_mutex_unlock (&sched->consume);
    GST_DEBUG_OBJECT (sched->element, "flushing: pausing the output task");
    gst_pad_pause_task (sched->srcpad);
    return;
  }
  retire_head (sched, rec, status, message, TRUE);
  g_mutex_unlock (&sched->consume);
}

/* With the lock held: starts the task if it is not running. */
static void
ensure_task (GstCfSchedule * sched)
{
  if (sched->task_started)
    return;
  sched->task_started = TRUE;
  if (!gst_pad_start_task (sched->srcpad, task_loop, sched, NULL))
    GST_WARNING_OBJECT (sched->element, "cannot start the output task");
}

/* Waits for room (fewer than depth records queued); returns the flow that
 * stops the stream, or OK, with the lock held. */
static GstFlowReturn
wait_for_room (GstCfSchedule * sched)
{
  while (!sched->flushing && sched->srcresult == GST_FLOW_OK
      && g_queue_get_length (&sched->queue) >= sched->depth) {
    if (sched->task_lingering)  /* full: it must wait for the GPU now */
      g_cond_broadcast (&sched->cond);
    g_cond_wait (&sched->cond, &sched->lock);
  }
  if (sched->flushing)
    return GST_FLOW_FLUSHING;
  sched->srcresult_told = TRUE;
  return sched->srcresult;
}

static GstCfRecord *
take_record (GstCfSchedule * sched)
{
  GstCfRecord *rec = g_queue_pop_head (&sched->spare);

  return rec ? rec : g_new0 (GstCfRecord, 1);
}

/* The record's event, made on first use; NULL with cf_last_error() set. */
static GstCfEvent *
record_event (GstCfSchedule * sched, GstCfRecord * rec)
{
  if (!rec->event && sched->context)
    rec->event = gst_cf_event_new (sched->context);
  return rec->event;
}

GstFlowReturn
gst_cf_schedule_submit (GstCfSchedule * sched, GstBuffer * inbuf, GstVideoFrame * in_map,
    const cf_frame * in, GstBuffer * outbuf, GstVideoFrame * out_map, const cf_frame * out,
    gboolean discont, cf_event wait, gboolean early)
{
  GstCfRecord *rec;
  GstFlowReturn ret;
  GstCfEvent *signal = NULL;
  guint64 sequence = 0;
  cf_status st;

  release_finished (sched);
  g_mutex_lock (&sched->lock);
  ret = wait_for_room (sched);
  rec = take_record (sched);
  if (ret == GST_FLOW_OK)
    ensure_task (sched);
  g_mutex_unlock (&sched->lock);
  rec->inbuf = inbuf;
  rec->outbuf = outbuf;
  rec->in_map = *in_map;
  rec->out_map = *out_map;
  rec->in_mapped = rec->out_mapped = TRUE;
  rec->discont = discont;
  if (ret == GST_FLOW_OK && early) {
    /* The record is free, so the work its event marked last is done:
     * a new record of it can begin. */
    /* Without an event the output cannot leave early, and a push from the
     * task would then race with the streaming thread's: the frame fails. */
    if ((signal = record_event (sched, rec))) {
      sequence = gst_cf_event_next (signal);
    } else {
      GST_ELEMENT_ERROR (sched->element, RESOURCE, FAILED,
          ("Cannot make a CUDA event: %s", cf_last_error ()), (NULL));
      ret = GST_FLOW_ERROR;
    }
  }
  if (ret == GST_FLOW_OK) {
    st = cf_scheduler_submit_with_events (sched->scheduler, in, out, rec, wait,
        early ? gst_cf_event_get (signal) : NULL);
    if (st == CF_ERROR_FLUSHING) {
      ret = GST_FLOW_FLUSHING;
    } else if (st != CF_OK) {
      GST_ELEMENT_ERROR (sched->element, STREAM, FAILED, ("%s", cf_last_error ()),
          ("%s", cf_status_name (st)));
      ret = GST_FLOW_ERROR;
    }
  }
  if (ret == GST_FLOW_OK && early) {
    /* Device pointers stay valid without the map; the buffer goes now. */
    gst_video_frame_unmap (&rec->out_map);
    rec->out_mapped = FALSE;
    sched->early_buf = rec->outbuf;
    sched->early_event = gst_cf_event_ref (signal);
    sched->early_sequence = rec->sequence = sequence;
    sched->early_discont = discont;
    rec->outbuf = NULL;
  }
  g_mutex_lock (&sched->lock);
  if (ret == GST_FLOW_OK) {
    rec->scheduled = TRUE;
    g_queue_push_tail (&sched->queue, rec);
    sched->last_submit = g_get_monotonic_time ();
    /* An early output needs the task only when it sleeps without a
     * deadline (task_has_work) or the queue is full: no wake a frame. */
    if (!early || sched->task_asleep || g_queue_get_length (&sched->queue) >= sched->depth)
      g_cond_broadcast (&sched->cond);
    rec = NULL;
  }
  g_mutex_unlock (&sched->lock);
  if (rec)
    spare_record (sched, rec);
  return ret;
}

/* Records a flow the stream stopped with, as the task does. */
static void
note_flow (GstCfSchedule * sched, GstFlowReturn ret)
{
  if (ret == GST_FLOW_OK)
    return;
  g_mutex_lock (&sched->lock);
  if (sched->srcresult == GST_FLOW_OK) {
    sched->srcresult = ret;
    sched->srcresult_told = TRUE;       /* the caller returns it upstream */
  }
  g_cond_broadcast (&sched->cond);
  g_mutex_unlock (&sched->lock);
}

/* The early output of the last submit, writable, with its DISCONT flag and
 * its pending meta. */
static GstBuffer *
take_early (GstCfSchedule * sched)
{
  GstBuffer *buf = gst_buffer_make_writable (sched->early_buf);

  sched->early_buf = NULL;
  if (sched->early_discont)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  gst_cf_buffer_set_pending (buf, sched->early_event, sched->early_sequence);
  g_clear_pointer (&sched->early_event, gst_cf_event_unref);
  return buf;
}

GstFlowReturn
gst_cf_schedule_push_early (GstCfSchedule * sched)
{
  GstFlowReturn ret;

  g_return_val_if_fail (sched->early_buf != NULL, GST_FLOW_ERROR);
  ret = push_out (sched, take_early (sched));
  note_flow (sched, ret);
  return ret;
}

GstFlowReturn
gst_cf_schedule_push_early_from_task (GstCfSchedule * sched)
{
  GstBuffer *buf;
  GstFlowReturn ret;

  g_return_val_if_fail (sched->early_buf != NULL, GST_FLOW_ERROR);
  buf = take_early (sched);
  g_mutex_lock (&sched->lock);
  ret = sched->flushing ? GST_FLOW_FLUSHING : sched->srcresult;
  if (ret == GST_FLOW_OK) {
    g_queue_push_tail (&sched->to_push, buf);
    buf = NULL;
    g_cond_broadcast (&sched->cond);
  }
  g_mutex_unlock (&sched->lock);
  if (buf)
    gst_buffer_unref (buf);
  return ret;
}

GstFlowReturn
gst_cf_schedule_push_ready (GstCfSchedule * sched, GstBuffer * buffer, gboolean discont,
    gboolean early)
{
  GstCfRecord *rec;
  GstFlowReturn ret;

  g_mutex_lock (&sched->lock);
  ret = wait_for_room (sched);
  if (ret != GST_FLOW_OK) {
    g_mutex_unlock (&sched->lock);
    gst_buffer_unref (buffer);
    return ret;
  }
  if (g_queue_is_empty (&sched->to_push) && !sched->pushing
      && (early || g_queue_is_empty (&sched->queue))) {
    /* Nothing before it waits for the task (early: everything before left
     * at once): no thread change. The task cannot start pushing meanwhile,
     * since only this thread queues. */
    g_mutex_unlock (&sched->lock);
    ret = push_out (sched, mark_discont (buffer, discont));
    note_flow (sched, ret);
    return ret;
  }
  rec = take_record (sched);
  rec->outbuf = buffer;
  rec->discont = discont;
  g_queue_push_tail (&sched->queue, rec);
  ensure_task (sched);
  g_cond_broadcast (&sched->cond);
  g_mutex_unlock (&sched->lock);
  return GST_FLOW_OK;
}

GstFlowReturn
gst_cf_schedule_wait_idle (GstCfSchedule * sched)
{
  GstFlowReturn ret;

  g_mutex_lock (&sched->lock);
  sched->idle_waiters++;
  g_cond_broadcast (&sched->cond);      /* a lingering task acts at once */
  while (!sched->flushing && (!g_queue_is_empty (&sched->queue)
          || !g_queue_is_empty (&sched->to_push) || sched->pushing))
    g_cond_wait (&sched->cond, &sched->lock);
  sched->idle_waiters--;
  ret = sched->flushing ? GST_FLOW_FLUSHING : sched->srcresult;
  g_mutex_unlock (&sched->lock);
  return ret;
}

GstFlowReturn
gst_cf_schedule_untold_flow (GstCfSchedule * sched)
{
  GstFlowReturn ret;

  g_mutex_lock (&sched->lock);
  ret = sched->srcresult_told ? GST_FLOW_OK : sched->srcresult;
  g_mutex_unlock (&sched->lock);
  return ret;
}

void
gst_cf_schedule_reconfigure (GstCfSchedule * sched)
{
  g_mutex_lock (&sched->lock);
  if (sched->srcresult == GST_FLOW_NOT_LINKED) {
    GST_DEBUG_OBJECT (sched->element, "linked again: pushing again");
    sched->srcresult = GST_FLOW_OK;
    g_cond_broadcast (&sched->cond);
  }
  g_mutex_unlock (&sched->lock);
}

void
gst_cf_schedule_flush_start (GstCfSchedule * sched)
{
  g_mutex_lock (&sched->lock);
  sched->flushing = TRUE;
  sched->srcresult = GST_FLOW_FLUSHING;
  g_cond_broadcast (&sched->cond);
  g_mutex_unlock (&sched->lock);
  if (sched->scheduler)
    cf_scheduler_set_flushing (sched->scheduler, TRUE);
}

void
gst_cf_schedule_pause (GstCfSchedule * sched)
{
  gst_pad_pause_task (sched->srcpad);
  g_mutex_lock (&sched->lock);
  sched->task_started = FALSE;
  g_mutex_unlock (&sched->lock);
}

void
gst_cf_schedule_flush_stop (GstCfSchedule * sched)
{
  gboolean started;

  /* A FLUSH_STOP without its FLUSH_START: the task may still be pushing. */
  g_mutex_lock (&sched->lock);
  started = sched->flushing;
  g_mutex_unlock (&sched->lock);
  if (!started) {
    gst_cf_schedule_flush_start (sched);
    gst_cf_schedule_pause (sched);
  }
  drop_all (sched);
  if (sched->scheduler)
    cf_scheduler_set_flushing (sched->scheduler, FALSE);
  g_mutex_lock (&sched->lock);
  sched->flushing = FALSE;
  sched->srcresult = GST_FLOW_OK;
  sched->position = GST_CLOCK_TIME_NONE;
  g_mutex_unlock (&sched->lock);
}

GstClockTime
gst_cf_schedule_get_position (GstCfSchedule * sched)
{
  GstClockTime position;

  g_mutex_lock (&sched->lock);
  position = sched->position;
  g_mutex_unlock (&sched->lock);
  return position;
}

void
gst_cf_schedule_stop_task (GstCfSchedule * sched)
{
  gst_cf_schedule_flush_start (sched);
  gst_pad_stop_task (sched->srcpad);
  g_mutex_lock (&sched->lock);
  sched->task_started = FALSE;
  g_mutex_unlock (&sched->lock);
}
