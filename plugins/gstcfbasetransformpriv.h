/* cudafilters GStreamer plugin: the base transform's state, shared by its
 * files (gstcfbasetransform.c: type, properties, context, streaming;
 * gstcfcaps.c: caps; gstcfallocation.c: pools). Plugin-internal. */
#ifndef GST_CF_BASE_TRANSFORM_PRIV_H
#define GST_CF_BASE_TRANSFORM_PRIV_H

#include <gst/cuda/gstcudacontext.h>

#include "gstcfbasetransform.h"
#include "gstcfschedule.h"

G_BEGIN_DECLS

#define GST_CF_DEFAULT_FRAMES_IN_FLIGHT 4
#define GST_CF_MAX_FRAMES_IN_FLIGHT CF_SCHEDULER_MAX_DEPTH

typedef struct
{
  gint device_id;            /* property, under the object lock */
  guint frames_in_flight;    /* property, under the object lock */
  GstCudaContext *context;   /* NULL without a GPU or before start() */
  gint device;               /* CUDA ordinal of the context */
  GstVideoInfo in_info, out_info;
  cf_format in_format, out_format;
  gboolean in_cuda, out_cuda;
  gboolean path_reported;    /* the one INFO message saying where we run */
  GstCfSchedule *schedule;   /* frames in flight; its scheduler lives from start() to stop() */
  gboolean discont;          /* the next output is a discontinuity (streaming thread) */
  gboolean submitted;        /* transform() handed the current output to the schedule */
  gboolean submitted_early;  /* ... to be pushed at once, carrying its pending work */
  gboolean allocation_decided; /* decide_allocation ran for the current caps */
  gboolean downstream_waits; /* downstream takes GstCfPendingMeta (gstcfpending.h) */
  GstPadActivateModeFunction src_activate_mode; /* GstBaseTransform's, chained to */
  gboolean gpu_lost;         /* start() found the GPU too full for a context: CPU path */
  guint64 host_in_pinned;    /* system-memory inputs already in pinned memory (our pool) */
  guint64 host_in_pageable;  /* ... in pageable memory, staged by the CPU (slower) */
} GstCfBaseTransformPrivate;

GstCfBaseTransformPrivate *gst_cf_base_transform_get_priv (GstCfBaseTransform * self);

/* GstBaseTransform's class, whose default functions the files chain to. */
#define GST_CF_PARENT_CLASS ((GstBaseTransformClass *) g_type_class_peek (GST_TYPE_BASE_TRANSFORM))

/* TRUE if the element runs on the GPU: a GPU is usable (gst_cf_have_gpu)
 * and this element found room for its context (else it runs its CPU code
 * and negotiates system memory only). */
gboolean gst_cf_base_transform_uses_gpu (GstCfBaseTransform * self);

/* The frames-in-flight property. */
guint gst_cf_base_transform_get_frames_in_flight (GstCfBaseTransform * self);

/* gstcfcaps.c */
GstCaps *gst_cf_base_transform_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
GstCaps *gst_cf_base_transform_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
/* Shapes a caps query's answer (no CUDA caps without a GPU; CUDA only
 * towards a transform that would otherwise pick passthrough). */
void gst_cf_base_transform_shape_caps_answer (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query);
/* The core's format for negotiated @info, or CF_FORMAT_UNKNOWN after
 * posting an error. */
cf_format gst_cf_negotiated_format (GstElement * element, const GstVideoInfo * info);

/* gstcfallocation.c */
gboolean gst_cf_base_transform_decide_allocation (GstBaseTransform * trans, GstQuery * query);
gboolean gst_cf_base_transform_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query);

G_END_DECLS

#endif
