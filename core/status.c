#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

static _Thread_local char last_error[1024];

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
    return last_error;
}

cf_status cf_set_error(cf_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}
