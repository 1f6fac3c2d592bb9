/* cudafilters: making a remembered CUDA context current (context.h). */
#include "context.h"

#ifdef CF_HAVE_CUDA
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <threads.h>

typedef CUresult (*ctx_get_fn)(CUcontext *);
typedef CUresult (*ctx_push_fn)(CUcontext);
typedef CUresult (*ctx_pop_fn)(CUcontext *);

static struct {
    ctx_get_fn get;
    ctx_push_fn push;
    ctx_pop_fn pop;
    cudaError_t error; /* of looking them up */
} driver;
static once_flag driver_once = ONCE_FLAG_INIT;

/* The driver's context functions, looked up once. The ABI of these three
 * has not changed since CUDA 4 (cuCtxPushCurrent is the _v2 entry point
 * the 12.0 headers name). */
static void look_up(void)
{
    enum cudaDriverEntryPointQueryResult found[3];
    void *fn[3] = { NULL, NULL, NULL };
    static const char *const names[3] = { "cuCtxGetCurrent", "cuCtxPushCurrent", "cuCtxPopCurrent" };
    for (int i = 0; i < 3; i++) {
        cudaError_t e = cudaGetDriverEntryPointByVersion(names[i], &fn[i], 12000, cudaEnableDefault,
                                                         &found[i]);
        if (e == cudaSuccess && found[i] != cudaDriverEntryPointSuccess)
            e = cudaErrorSymbolNotFound;
        if (e != cudaSuccess) {
            driver.error = e;
            return;
        }
    }
    driver.get = (ctx_get_fn)fn[0];
    driver.push = (ctx_push_fn)fn[1];
    driver.pop = (ctx_pop_fn)fn[2];
}

static cf_status driver_ready(void)
{
    call_once(&driver_once, look_up);
    if (driver.get)
        return CF_OK;
    return cf_set_error(CF_ERROR_NO_DEVICE, "CUDA driver context functions: %s",
                        cudaGetErrorString(driver.error));
}

cf_status cf_context_get_current(cf_cuda_context *ctx)
{
    *ctx = NULL;
    int n = 0;
    CF_TRY(cf_device_count(&n));
    if (n == 0)
        return cf_set_error(CF_ERROR_NO_DEVICE, "no CUDA device: %s", cf_device_unavailable_reason());
    /* Binds the device's primary context when no context is current. */
    CF_TRY(CF_CUDA_CHECK(cudaFree(NULL)));
    CF_TRY(driver_ready());
    CUcontext c = NULL;
    CUresult r = driver.get(&c);
    if (r != CUDA_SUCCESS || !c)
        return cf_set_error(CF_ERROR_CUDA, "cuCtxGetCurrent failed (CUresult %d)", (int)r);
    *ctx = c;
    return CF_OK;
}

cf_status cf_context_push(cf_cuda_context ctx)
{
    CF_TRY(driver_ready());
    CUresult r = driver.push(ctx);
    if (r != CUDA_SUCCESS)
        return cf_set_error(CF_ERROR_CUDA, "cuCtxPushCurrent failed (CUresult %d)", (int)r);
    return CF_OK;
}

void cf_context_pop(void)
{
    CUcontext c;
    /* Only after a successful push, so the functions are there. */
    if (driver.pop)
        (void)driver.pop(&c);
}

#else /* !CF_HAVE_CUDA */

cf_status cf_context_get_current(cf_cuda_context *ctx)
{
    *ctx = NULL;
    return cf_set_error(CF_ERROR_NO_DEVICE, "cudafilters was built without CUDA");
}
cf_status cf_context_push(cf_cuda_context ctx)
{
    (void)ctx;
    return cf_set_error(CF_ERROR_NO_DEVICE, "cudafilters was built without CUDA");
}
void cf_context_pop(void) {}

#endif
