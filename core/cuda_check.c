#include "internal.h"

#ifdef CF_HAVE_CUDA
#include <cuda_runtime_api.h>

cf_status cf_cuda_check(int err, const char *call, const char *file, int line)
{
    cudaError_t e = (cudaError_t)err;
    if (e == cudaSuccess)
        return CF_OK;
    cf_status status = CF_ERROR_CUDA;
    if (e == cudaErrorMemoryAllocation)
        status = CF_ERROR_OUT_OF_MEMORY;
    else if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
             e == cudaErrorInvalidDevice)
        status = CF_ERROR_NO_DEVICE;
    return cf_set_error(status, "%s failed: %s (%s) at %s:%d", call, cudaGetErrorName(e),
                        cudaGetErrorString(e), file, line);
}
#else
cf_status cf_cuda_check(int err, const char *call, const char *file, int line)
{
    if (err == 0)
        return CF_OK;
    return cf_set_error(CF_ERROR_NO_DEVICE, "%s: built without CUDA (%s:%d)", call, file, line);
}
#endif
