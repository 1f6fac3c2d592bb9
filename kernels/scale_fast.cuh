/* CUDA scale: the fast kernels of scale_fast.cu, for scale.cu's dispatch. */
#ifndef CUDAFILTERS_KERNELS_SCALE_FAST_CUH
#define CUDAFILTERS_KERNELS_SCALE_FAST_CUH

#include <cuda_runtime.h>

#include "scale.h"

/* One plane of a launch, by value. Tap kernels: the plane class's tables
 * on the device (xi, xw: dw x tx; yi, yw: dh x ty), src the plane. Box
 * kernels: kx, ky and src pointing at the crop's first sample. Pitches in
 * bytes; dw, dh in pixels; `plane`: its index in the plan; row_blocks
 * and row_threads (threads along an output row) are set by the launch. */
typedef struct cf_scale_fast_args {
    const int32_t *xi, *yi;
    const int16_t *xw, *yw;
    int tx, ty, kx, ky;
    const uint8_t *src;
    size_t src_pitch;
    uint8_t *dst;
    size_t dst_pitch;
    int dw, dh;
    int plane, row_blocks, row_threads;
} cf_scale_fast_args;

/* Up to 3 planes in one launch: block b belongs to plane i where
 * first_block[i] <= b < first_block[i + 1]. */
typedef struct cf_scale_fast_frame {
    cf_scale_fast_args plane[3];
    unsigned first_block[4];
} cf_scale_fast_frame;

/* Whether a fast kernel takes plane p of plan (8-bit samples, 1 to 4 a
 * pixel, boxes under 2^24 samples). The planes must also be 4-byte
 * aligned (pointer and pitch): the caller checks. 2 x 2 boxes of 1, 2
 * or 4 samples a pixel whose source (at the crop) is on 16 bytes and
 * destination on 8 take the word kernel (8 output bytes a thread),
 * unless cf_scale_cuda_force_narrow. */
bool cf_scale_fast_takes(const cf_scale_plan *plan, int p);
/* Runs the fast kernels for the n planes of a (each taken by
 * cf_scale_fast_takes) on stream s: one launch for all of them where they
 * share a variant (NV12, I420, one plane), else one a plane; *name is set
 * to "taps8", "box8" or "box2w" (the last plane's). Returns CF_OK or the launch's
 * error. */
cf_status cf_scale_fast_run(const cf_scale_plan *plan, const cf_scale_fast_args *a, int n,
                            cudaStream_t s, const char **name);

#endif
