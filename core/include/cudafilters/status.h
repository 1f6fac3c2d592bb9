/* cudafilters: the one error type.
 *
 * Every fallible function returns a cf_status (or NULL for constructors).
 * On failure it also stores a human-readable message for the calling thread,
 * read with cf_last_error(): it names the bad argument, token or CUDA call. */
#ifndef CUDAFILTERS_STATUS_H
#define CUDAFILTERS_STATUS_H

#include "export.h"

CF_BEGIN_DECLS

typedef enum cf_status {
    CF_OK = 0,
    CF_ERROR_INVALID_ARGUMENT = -1,  /* NULL, out-of-range or inconsistent argument */
    CF_ERROR_UNSUPPORTED_FORMAT = -2,/* the filter or transfer does not take this format */
    CF_ERROR_NOT_FOUND = -3,         /* unknown filter or parameter name */
    CF_ERROR_PARSE = -4,             /* malformed filter string or parameter value */
    CF_ERROR_OUT_OF_MEMORY = -5,     /* host or device allocation failed */
    CF_ERROR_NO_DEVICE = -6,         /* no usable CUDA device, or built without CUDA */
    CF_ERROR_CUDA = -7,              /* a CUDA call failed; the message names call and error */
    CF_ERROR_AGAIN = -8,             /* not ready yet: nothing finished (cf_scheduler_receive without
                                      * waiting), or no free frame (a pool asked not to wait) */
    CF_ERROR_EOF = -9,               /* drained: every frame submitted before the drain was received */
    CF_ERROR_FLUSHING = -10,         /* the scheduler or pool is flushing (cf_scheduler_set_flushing):
                                      * a waiting call was woken, or a new frame was refused */
} cf_status;

/* Short constant name of a status ("CF_ERROR_PARSE"); never NULL. Thread-safe. */
CF_API const char *cf_status_name(cf_status status);

/* Message of the most recent failure on the calling thread ("" if none),
 * whole however long it is (UTF-8 when the arguments it quotes are). The
 * string is owned by the library and valid until the next failing call on
 * this thread or the thread's end. Thread-safe (the storage is per thread). */
CF_API const char *cf_last_error(void);

CF_END_DECLS

#endif
