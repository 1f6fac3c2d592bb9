/* cudafilters GStreamer plugin: the scheduling adapter (gstcfschedule.h),
 * the streaming thread's side; the task is in gstcfscheduletask.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcfschedulepriv.h"

GST_DEBUG_CATEGORY_EXTERN (gst_cf_debug);
#define GST_CAT_DEFAULT gst_cf_debug

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
  return sched;
}

void
gst_cf_record_clear (GstCfRecord * rec)
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
    gst_cf_record_clear (rec);
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
  sched->in_pool = NULL;
  return cf_scheduler_create (&sched->scheduler, &params) == CF_OK;
}

/* Lets go of what @rec holds and keeps it for reuse. */
static void
spare_record (GstCfSchedule * sched, GstCfRecord * rec)
{
  gst_cf_record_clear (rec);
  g_mutex_lock (&sched->lock);
  g_queue_push_tail (&sched->spare, rec);
  g_mutex_unlock (&sched->lock);
}

GstBuffer *
gst_cf_mark_discont (GstBuffer * buf, gboolean discont)
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

/* With the lock held: starts the task if it is not running. */
static void
ensure_task (GstCfSchedule * sched)
{
  if (sched->task_started)
    return;
  sched->task_started = TRUE;
  if (!gst_pad_start_task (sched->srcpad, gst_cf_schedule_task_loop, sched, NULL))
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

/* Whether @buf belongs to a pool with a maximum: its producer may then be
 * waiting for it, so the task must not leave it to the next submit, which
 * may never come (task_has_work). Looked up once a pool. */
static gboolean
from_bounded_pool (GstCfSchedule * sched, GstBuffer * buf)
{
  GstBufferPool *pool = buf->pool;
  GstStructure *config;
  guint max = 0;

  if (!pool)
    return FALSE;
  if (pool != sched->in_pool) {
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_get_params (config, NULL, NULL, NULL, &max))
      max = 0;
    gst_structure_free (config);
    sched->in_pool = pool;
    sched->in_pool_bounded = max > 0;
  }
  return sched->in_pool_bounded;
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

  gst_cf_schedule_release_finished (sched);
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
  rec->bounded_input = from_bounded_pool (sched, inbuf);
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

GstFlowReturn
gst_cf_schedule_push_early (GstCfSchedule * sched)
{
  GstBuffer *buf = sched->early_buf;
  GstFlowReturn ret;

  g_return_val_if_fail (buf != NULL, GST_FLOW_ERROR);
  sched->early_buf = NULL;
  buf = gst_buffer_make_writable (buf);
  if (sched->early_discont)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  gst_cf_buffer_set_pending (buf, sched->early_event, sched->early_sequence);
  g_clear_pointer (&sched->early_event, gst_cf_event_unref);
  ret = gst_cf_schedule_push_out (sched, buf);
  note_flow (sched, ret);
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
  if (early || (g_queue_is_empty (&sched->queue) && !sched->pushing)) {
    /* Nothing before it waits for the task (early: everything before left
     * at once): no thread change. The task cannot start pushing meanwhile,
     * since only this thread queues. */
    g_mutex_unlock (&sched->lock);
    ret = gst_cf_schedule_push_out (sched, gst_cf_mark_discont (buffer, discont));
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
  while (!sched->flushing && (!g_queue_is_empty (&sched->queue) || sched->pushing))
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
