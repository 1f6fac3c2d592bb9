/* CUDA scale: the fast kernels of scale_fast.cu, for scale.cu's dispatch. */
#ifndef CUDAFILTERS_KERNELS_SCALE_FAST_CUH
#define CUDAFILTERS_KERNELS_SCALE_FAST_CUH

#include <cuda_runtime.h>

#include "scale.h"

/* One plane's launch, by value. Tap kernels: the plane class's tables on
 * the device (xi, xw: dw x tx; yi, yw: dh x ty), src the plane. Box
 * kernels: kx, ky and src pointing at the crop's first sample. Pitches in
 * bytes; dw, dh in pixels. */
typedef struct cf_scale_fast_args {
    const int32_t *xi, *yi;
    const int16_t *xw, *yw;
    int tx, ty, kx, ky;
    const uint8_t *src;
    size_t src_pitch;
    uint8_t *dst;
    size_t dst_pitch;
    int dw, dh;
} cf_scale_fast_args;

typedef void (*cf_scale_fast_kernel)(cf_scale_fast_args);

/* The fast kernel for plane p of plan (8-bit samples, 1 to 4 a pixel) and
 * its name ("taps8" or "box8") in *name, or NULL when none takes it. The
 * planes must be 4-byte aligned (pointer and pitch): the caller checks. */
cf_scale_fast_kernel cf_scale_fast_pick(const cf_scale_plan *plan, int p, const char **name);
/* Launches it for a on stream s. Returns CF_OK or the launch's error. */
cf_status cf_scale_fast_run(cf_scale_fast_kernel kernel, const cf_scale_fast_args *a,
                            cudaStream_t s);

#endif
