/* cudafilters GStreamer plugin: the scheduling adapter's task
 * (gstcfschedulepriv.h): pushes finished outputs in order and lets the
 * inputs of early outputs go, waiting on the GPU only when the streaming
 * thread will not (gst_cf_schedule_release_finished). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfschedulepriv.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

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
GstFlowReturn
gst_cf_schedule_push_out (GstCfSchedule * sched, GstBuffer * buf)
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
  gst_cf_record_clear (rec);
  if (!out)
    return stopped;
  if (stopped != GST_FLOW_OK) {
    gst_buffer_unref (out);
    return stopped;
  }
  out = gst_cf_mark_discont (out, rec->discont);
  /* Our own work on it is done; a pending meta it may still carry (from an
   * element before us) must not reach an element that cannot wait for it. */
  if (gst_buffer_get_meta (out, GST_CF_PENDING_META_API_TYPE)) {
    GST_DEBUG_OBJECT (sched->element, "finishing a pending meta before pushing");
    if (!gst_cf_buffer_finish_pending (out))
      GST_WARNING_OBJECT (sched->element, "pending GPU work failed: %s", cf_last_error ());
    out = gst_buffer_make_writable (out);
    gst_buffer_remove_meta (out, gst_buffer_get_meta (out, GST_CF_PENDING_META_API_TYPE));
  }
  return gst_cf_schedule_push_out (sched, out);
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
 * with a query that does not wait (gst_cf_schedule_release_finished).
 * While frames keep coming, no thread then waits on the GPU for them:
 * each host wait costs the waiter a few polls (cf_event_synchronize) and a
 * thread wake. Past it the stream is taken to have paused and
 * the task waits for the work itself, so that an upstream pool waiting for
 * its buffers gets them back within this time. */
#define GST_CF_LINGER_US 2000

/* With the lock held (the task): TRUE when the task has work now: a record
 * whose output it pushes, a full queue, a caller in wait_idle(), flushing,
 * an input from a pool with a maximum (its producer may be waiting for it:
 * with fewer buffers than our depth the linger would stall it each time),
 * or early outputs while no submit came for GST_CF_LINGER_US. Otherwise
 * sleeps until a submit wakes it or the linger time is over, and returns
 * FALSE (look again). */
static gboolean
task_has_work (GstCfSchedule * sched)
{
  GstCfRecord *head = g_queue_peek_head (&sched->queue);
  gint64 deadline;

  if (sched->flushing)
    return TRUE;
  if (!head) {
    sched->task_asleep = TRUE;
    g_cond_wait (&sched->cond, &sched->lock);
    sched->task_asleep = FALSE;
    return FALSE;
  }
  if (!left_early (head) || !left_early (g_queue_peek_tail (&sched->queue))
      || head->bounded_input || sched->idle_waiters > 0
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
    gst_cf_record_clear (rec);
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
void
gst_cf_schedule_release_finished (GstCfSchedule * sched)
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

void
gst_cf_schedule_task_loop (gpointer data)
{
  GstCfSchedule *sched = data;
  GstCfRecord *rec, *newest;
  cf_status status;
  gchar *message = NULL;
  guint64 sequence = 0;
  gint taken;
  gboolean flushing;

  g_mutex_lock (&sched->lock);
  if (!task_has_work (sched)) {
    g_mutex_unlock (&sched->lock);
    return;
  }
  g_mutex_unlock (&sched->lock);

  g_mutex_lock (&sched->consume);
  g_mutex_lock (&sched->lock);
  flushing = sched->flushing;
  rec = flushing ? NULL : g_queue_peek_head (&sched->queue);
  newest = rec ? newest_early (sched) : NULL;
  if (newest)
    sequence = newest->sequence;
  g_mutex_unlock (&sched->lock);
  if (!rec && !flushing) {
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

