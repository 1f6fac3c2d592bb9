#include "internal.h"

#ifdef CF_HAVE_CUDA
#include <cuda_runtime_api.h>

const char *cf_cuda_no_device_reason(int err)
{
    switch ((cudaError_t)err) {
    case cudaErrorInsufficientDriver: return "no CUDA driver (libcuda) usable on this machine";
    case cudaErrorNoDevice: return "no CUDA-capable device found";
    default: return NULL;
    }
}

cf_status cf_cuda_check(int err, const char *call, const char *file, int line)
{
    cudaError_t e = (cudaError_t)err;
    if (e == cudaSuccess)
        return CF_OK;
    /* Said as cf_device_unavailable_reason() and the front ends say it. */
    const char *no_device = cf_cuda_no_device_reason(err);
    if (no_device)
        return cf_set_error(CF_ERROR_NO_DEVICE, "no CUDA device: %s (%s at %s:%d)", no_device,
                            call, file, line);
    cf_status status = CF_ERROR_CUDA;
    if (e == cudaErrorMemoryAllocation)
        status = CF_ERROR_OUT_OF_MEMORY;
    else if (e == cudaErrorInvalidDevice)
        status = CF_ERROR_NO_DEVICE;
    return cf_set_error(status, "%s failed: %s (%s) at %s:%d", call, cudaGetErrorName(e),
                        cudaGetErrorString(e), file, line);
}
#else
const char *cf_cuda_no_device_reason(int err)
{
    (void)err;
    return NULL;
}

cf_status cf_cuda_check(int err, const char *call, const char *file, int line)
{
    if (err == 0)
        return CF_OK;
    return cf_set_error(CF_ERROR_NO_DEVICE, "%s: built without CUDA (%s:%d)", call, file, line);
}
#endif
