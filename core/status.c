#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The calling thread's last message, whole, however long (a filter string
 * quoted in it can be). It lives on the heap; the key's destructor frees it
 * when the thread ends. */
static _Thread_local char *last_error;
/* What cf_last_error() gives when even the message could not be allocated. */
static _Thread_local char fallback[256];
static pthread_key_t owner_key;
static pthread_once_t owner_once = PTHREAD_ONCE_INIT;

/* Runs as the thread ends; a later error in another destructor starts anew. */
static void free_message(void *text)
{
    free(text);
    last_error = NULL;
}

static void make_owner_key(void)
{
    /* Without a key the messages of ended threads leak; they still work. */
    (void)pthread_key_create(&owner_key, free_message);
}

const char *cf_status_name(cf_status status)
{
    switch (status) {
    case CF_OK: return "CF_OK";
    case CF_ERROR_INVALID_ARGUMENT: return "CF_ERROR_INVALID_ARGUMENT";
    case CF_ERROR_UNSUPPORTED_FORMAT: return "CF_ERROR_UNSUPPORTED_FORMAT";
    case CF_ERROR_NOT_FOUND: return "CF_ERROR_NOT_FOUND";
    case CF_ERROR_PARSE: return "CF_ERROR_PARSE";
    case CF_ERROR_OUT_OF_MEMORY: return "CF_ERROR_OUT_OF_MEMORY";
    case CF_ERROR_NO_DEVICE: return "CF_ERROR_NO_DEVICE";
    case CF_ERROR_CUDA: return "CF_ERROR_CUDA";
    case CF_ERROR_AGAIN: return "CF_ERROR_AGAIN";
    case CF_ERROR_EOF: return "CF_ERROR_EOF";
    case CF_ERROR_FLUSHING: return "CF_ERROR_FLUSHING";
    }
    return "CF_ERROR_UNKNOWN";
}

const char *cf_last_error(void)
{
    if (last_error)
        return last_error;
    return fallback;
}

/* The arguments may point into the current message (a caller adding to
 * cf_last_error()), so the new one is formatted before the old is freed.
 * Most messages fit the first try; a longer one is formatted again, whole. */
cf_status cf_set_error(cf_status status, const char *fmt, ...)
{
    char first[sizeof fallback];
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(first, sizeof first, fmt, ap);
    va_end(ap);
    if (n < 0)
        first[0] = '\0';
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text && (size_t)n < sizeof first)
        memcpy(text, first, (size_t)n + 1);
    else if (text)
        vsnprintf(text, (size_t)n + 1, fmt, again);
    else
        memcpy(fallback, first, sizeof fallback); /* cut: out of memory */
    va_end(again);
    pthread_once(&owner_once, make_owner_key);
    free(last_error);
    last_error = text;
    (void)pthread_setspecific(owner_key, text);
    return status;
}
