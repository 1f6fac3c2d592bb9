/* cudafilters: the stream scheduler, frames in flight through a filter chain.
 *
 * A scheduler runs a chain of filters (possibly empty: a pure upload or
 * download) on a stream of frames without waiting for each one. Submit a
 * frame with a token of yours; the scheduler uploads it when it is in host
 * memory and the chain runs on the GPU, queues the filters, downloads the
 * result when it must end in host memory, and records an event. Receive
 * gives finished frames back oldest first, each with its token, as soon as
 * its own work has completed. Up to `depth` frames are in flight; a submit
 * beyond that waits (back-pressure). On the GPU the uploads of one frame,
 * the kernels of the one before and the downloads of the one before that
 * overlap: copies run on their own streams (one copy engine each way) and
 * the kernels on a third.
 *
 * Without a GPU the same interface runs the CPU code: the chain runs inside
 * cf_scheduler_submit() and receive hands the frames back in the same
 * order, so a front end has one code path for both.
 *
 *   cf_scheduler *s;
 *   cf_filter *chain[] = { gray, blur };
 *   cf_scheduler_create(&s, cf_scheduler_params(.filters = chain, .n_filters = 2,
 *                       .output = CF_SCHEDULER_OUTPUT_HOST));
 *   while (decode(&frame)) {
 *       bool full = cf_scheduler_in_flight(s) == cf_scheduler_depth(s);
 *       while (cf_scheduler_receive(s, &r, full) == CF_OK) {     // what is done; one if full
 *           full = false;
 *           if (r.status == CF_OK) encode(&r.frame, r.token); else report(r.token, cf_last_error());
 *           cf_scheduler_release(s, &r);
 *       }
 *       cf_scheduler_submit(s, &frame, NULL, token_of(frame));
 *   }
 *   cf_scheduler_drain(s);
 *   while (cf_scheduler_receive(s, &r, true) == CF_OK) { ...; cf_scheduler_release(s, &r); }
 *   cf_scheduler_destroy(&s);
 *
 * A caller that submits and receives from one thread must receive before
 * it submits more than the depth (cf_scheduler_depth()): a submit beyond it
 * waits for a receive, which only another thread could then make.
 *
 * Threads: one thread at a time may submit and one (the same or another) may
 * receive; cf_scheduler_set_flushing() may come from any thread, so a
 * GStreamer element can submit from its streaming thread, receive from its
 * src pad task and flush from a FLUSH_START event. The scheduler remembers
 * the CUDA context current when it is created and makes it current itself
 * in each call, so no caller needs to. */
#ifndef CUDAFILTERS_SCHEDULER_H
#define CUDAFILTERS_SCHEDULER_H

#include <stdbool.h>
#include <stdint.h>

#include "export.h"
#include "filter.h"
#include "frame.h"
#include "status.h"

CF_BEGIN_DECLS

typedef struct cf_scheduler cf_scheduler;

#define CF_SCHEDULER_DEFAULT_DEPTH 4
#define CF_SCHEDULER_MAX_DEPTH 16
#define CF_SCHEDULER_MAX_FILTERS 32

typedef enum cf_backend {
    CF_BACKEND_AUTO = 0, /* CUDA when the library has it and a device is usable, else the CPU */
    CF_BACKEND_CPU,      /* the filters' CPU code, on host frames */
    CF_BACKEND_CUDA,     /* the CUDA kernels; host frames are staged through the GPU */
} cf_backend;

/* Where results live when cf_scheduler_submit() is given no output frame. */
typedef enum cf_scheduler_output {
    CF_SCHEDULER_OUTPUT_LIKE_INPUT = 0, /* device input: device memory; host input: host memory */
    CF_SCHEDULER_OUTPUT_HOST,           /* host memory; pinned when the chain runs on the GPU */
    CF_SCHEDULER_OUTPUT_DEVICE,         /* device memory (CUDA backend only) */
} cf_scheduler_output;

typedef struct cf_scheduler_params {
    /* The chain, in order; borrowed: the filters must outlive the scheduler.
     * The scheduler calls cf_filter_run() on them inside
     * cf_scheduler_submit(), so parameters changed between two submits
     * apply from the later frame; do not change them during a submit. A
     * filter keeps its plan (weights, tables) from frame to frame until a
     * parameter or the frames' format or size changes. n_filters 0..
     * CF_SCHEDULER_MAX_FILTERS; 0 is a pure transfer (copy, upload or
     * download). */
    cf_filter *const *filters;
    int n_filters;
    /* Output format of each filter (n_filters entries), or NULL for each
     * filter's preferred output (cf_filter_get_output_format). When
     * cf_scheduler_submit() is given an output frame, the last filter
     * writes that frame's format instead. */
    const cf_format *formats;
    /* Frames submitted and not yet received, at most: 1..CF_SCHEDULER_MAX_DEPTH,
     * 0 for CF_SCHEDULER_DEFAULT_DEPTH. */
    int depth;
    cf_backend backend;
    cf_scheduler_output output;
    /* Shown in profiler ranges and error messages ("cudablur0"); copied.
     * NULL: "cudafilters". */
    const char *name;
    /* Called with the token of each frame that flush or destroy drops, so
     * the caller can release what the token holds. NULL: tokens are
     * dropped silently. */
    void (*drop)(void *token, void *user_data);
    void *user_data;
    void *reserved[8]; /* zero */
} cf_scheduler_params;

/* Parameters inline, fields left out zero (zero is every field's default):
 *   cf_scheduler_create(&s, cf_scheduler_params(.filters = f, .n_filters = 1)); */
#ifndef __cplusplus
#define cf_scheduler_params(...) CF_PARAMS_(cf_scheduler_params, __VA_ARGS__)
#endif

/* Makes a scheduler into *sched. With the CUDA backend (or AUTO on a GPU
 * machine) it works in the CUDA context current now (the current device's
 * primary context when none is): its three streams and all its device and
 * pinned memory belong to that context. Nothing is allocated for frames
 * until they come; after the first frames of a shape, none is.
 * Errors (*sched is NULL then): CF_ERROR_INVALID_ARGUMENT (a NULL filter,
 * depth or n_filters out of range, CF_SCHEDULER_OUTPUT_DEVICE on the CPU),
 * CF_ERROR_NO_DEVICE (CF_BACKEND_CUDA without a usable GPU),
 * CF_ERROR_OUT_OF_MEMORY, CF_ERROR_CUDA. */
CF_API cf_status cf_scheduler_create(cf_scheduler **sched, const cf_scheduler_params *params);

/* Drops every frame still in flight (as cf_scheduler_flush), frees
 * everything the scheduler holds, and sets *sched to NULL. Frames a caller
 * still holds from cf_scheduler_receive() stay valid until released
 * (cf_scheduler_release may follow the destroy). No other call on the
 * scheduler may be in progress in another thread (a receive waiting there
 * would wake into freed memory): stop the receiving thread first. NULL or
 * *sched == NULL is a no-op. */
CF_API void cf_scheduler_destroy(cf_scheduler **sched);

/* True if the scheduler runs the chain on the GPU. */
CF_API bool cf_scheduler_uses_gpu(const cf_scheduler *sched);

/* Frames the scheduler keeps in flight at most (params.depth, or the
 * default). */
CF_API int cf_scheduler_depth(const cf_scheduler *sched);

/* Submits one frame. `src` is a host, pinned or device frame of any format
 * the first filter takes (device frames: of the scheduler's device, with
 * their data complete, since the scheduler waits for no other stream's
 * work). `dst`, when not NULL, is where the result goes (host, pinned or
 * device memory, the size of src, a format the last filter can produce;
 * for an empty chain src's format): the scheduler writes into it until the
 * frame is received. When dst is NULL the result goes into a frame from the
 * scheduler's own pool (params.output says where), handed over by receive.
 * `src` (and `dst`) must stay valid and unchanged until the frame is
 * received, flushed or dropped; the scheduler copies the cf_frame structs.
 * `token` is yours: receive and the drop callback give it back.
 *
 * Waits while `depth` frames are in flight (submitted, not yet received).
 * The frame's own failures (a format the chain does not take, a size
 * mismatch, out of memory, a CUDA error) do not fail the submit: receive
 * reports them with the frame's token, in order, and later frames go on.
 * Returns CF_OK when the frame was taken, else (nothing taken):
 * CF_ERROR_INVALID_ARGUMENT (NULL sched or src, a frame cf_frame_validate
 * refuses), CF_ERROR_FLUSHING (flushing, also when it began while waiting). */
CF_API cf_status cf_scheduler_submit(cf_scheduler *sched, const cf_frame *src,
                                     const cf_frame *dst, void *token);

/* cf_scheduler_submit() with GPU events around the frame's work, for
 * chains of schedulers that hand frames on before their work is done (the
 * GStreamer elements do: each element's output leaves at once, carrying the
 * event of its work). The GPU work that reads a device `src` first waits,
 * on the GPU, for `wait` (NULL: none): the event of the work that produces
 * src. `signal` (NULL: none), an event of the caller's, is recorded after
 * the frame's work, so a consumer can queue its own work behind it. Both
 * belong to the scheduler's CUDA context (or one of the same device). The
 * CPU backend takes neither (CF_ERROR_INVALID_ARGUMENT). Otherwise as
 * cf_scheduler_submit(). */
CF_API cf_status cf_scheduler_submit_with_events(cf_scheduler *sched, const cf_frame *src,
                                                 const cf_frame *dst, void *token,
                                                 cf_event wait, cf_event signal);

typedef struct cf_scheduler_result {
    void *token;      /* as given to cf_scheduler_submit() */
    int64_t sequence; /* 0 for the first frame submitted, then 1, 2, ... */
    /* CF_OK, or why this frame failed; on failure cf_last_error() on the
     * receiving thread holds the message, and `frame` is zeroed (a pool
     * frame is taken back). */
    cf_status status;
    /* The result: the dst given to submit, or a frame of the scheduler's
     * pool, which is the caller's until cf_scheduler_release(). */
    cf_frame frame;
    bool from_pool;
    void *pool_private; /* private: the pool `frame` came from */
    void *reserved[4];
} cf_scheduler_result;

/* Takes the oldest frame in flight once its work has completed (GPU
 * errors of that work included) into *result. With `wait` false it returns
 * CF_ERROR_AGAIN at once when that frame is not finished or nothing is in
 * flight; with `wait` true it waits for that frame, and when nothing is in
 * flight, for a submit (or cf_scheduler_drain() or
 * cf_scheduler_set_flushing() to end the wait; cf_scheduler_flush() does
 * not).
 * Returns CF_OK (*result filled; check result->status), CF_ERROR_AGAIN,
 * CF_ERROR_EOF (drained: nothing left; see cf_scheduler_drain),
 * CF_ERROR_FLUSHING (flushing; frames in flight stay for cf_scheduler_flush),
 * CF_ERROR_INVALID_ARGUMENT. */
CF_API cf_status cf_scheduler_receive(cf_scheduler *sched, cf_scheduler_result *result,
                                      bool wait);

/* Gives a result's pool frame back to the scheduler and zeroes *result; for
 * a frame the caller provided, only zeroes it. The caller must be done with
 * the frame. Thread-safe; may be called after cf_scheduler_destroy() for
 * frames received before it. NULL is a no-op. */
CF_API void cf_scheduler_release(cf_scheduler *sched, cf_scheduler_result *result);

/* Ends the input for now: once every frame submitted so far has been
 * received, receive returns CF_ERROR_EOF instead of waiting. The next submit
 * ends the drained state. Thread-safe. */
CF_API void cf_scheduler_drain(cf_scheduler *sched);

/* Drops every frame in flight: waits for the GPU work already queued for
 * them (it cannot be cancelled), calls the drop callback with each token,
 * and takes their pool frames back. A receive in progress finishes first.
 * Do not submit concurrently. Also ends the drained state. */
CF_API void cf_scheduler_flush(cf_scheduler *sched);

/* While flushing, submits are refused and waiting submits and receives
 * return CF_ERROR_FLUSHING at once (GStreamer's FLUSH_START), until
 * cf_scheduler_set_flushing(sched, false). Thread-safe. */
CF_API void cf_scheduler_set_flushing(cf_scheduler *sched, bool flushing);

/* Frames submitted and not yet received. Thread-safe. */
CF_API int cf_scheduler_in_flight(const cf_scheduler *sched);

/* Frames the scheduler has allocated so far (staging, intermediate and pool
 * frames, any memory): constant once a stream's shape has been seen. Call
 * from the submitting thread: a submit of a new shape replaces the pool it
 * counts. */
CF_API int cf_scheduler_frames_allocated(const cf_scheduler *sched);

CF_END_DECLS

#endif
