/* Embedding example: the cudafilters C API on an application's own buffers.
 *
 * Makes a 640x360 RGBA test image, runs "gray,blur=sigma=2" on it on the GPU
 * when there is one (device frames, one stream) and always on the CPU, and
 * checks that both give the same bytes. Prints one line and exits 0 on
 * success.
 *
 *   cc core_api.c $(pkg-config --cflags --libs cudafilters-1.0) -o core_api */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cudafilters/cudafilters.h>

#define W 640
#define H 360

static int fail(const char *what)
{
    fprintf(stderr, "core_api: %s: %s\n", what, cf_last_error());
    return 1;
}

/* Runs the chain on host frames (CPU) or device frames (GPU); `out` gets
 * the packed GRAY8 result. */
static int run_chain(cf_chain *chain, const cf_frame *rgba, int on_gpu, unsigned char *out)
{
    cf_memory mem = on_gpu ? CF_MEMORY_DEVICE : CF_MEMORY_HOST;
    cf_frame src, mid, dst, host_out;
    cf_stream stream = NULL;
    if (on_gpu && cf_stream_create(&stream) != CF_OK)
        return fail("stream");
    if (cf_frame_alloc(&src, CF_FORMAT_RGBA, W, H, mem) != CF_OK ||
        cf_frame_alloc(&mid, CF_FORMAT_GRAY8, W, H, mem) != CF_OK ||
        cf_frame_alloc(&dst, CF_FORMAT_GRAY8, W, H, mem) != CF_OK ||
        cf_frame_alloc(&host_out, CF_FORMAT_GRAY8, W, H, CF_MEMORY_HOST) != CF_OK)
        return fail("alloc");
    if (cf_frame_copy(rgba, &src, stream) != CF_OK ||
        cf_filter_run(cf_chain_get(chain, 0), &src, &mid, stream) != CF_OK ||
        cf_filter_run(cf_chain_get(chain, 1), &mid, &dst, stream) != CF_OK ||
        cf_frame_copy(&dst, &host_out, stream) != CF_OK)
        return fail("run");
    if (on_gpu && cf_stream_synchronize(stream) != CF_OK)
        return fail("synchronize");
    for (int y = 0; y < H; y++)
        memcpy(out + (size_t)y * W, host_out.data[0] + (size_t)y * host_out.pitch[0], W);
    cf_stream_destroy(&stream);
    cf_frame_free(&src);
    cf_frame_free(&mid);
    cf_frame_free(&dst);
    cf_frame_free(&host_out);
    return 0;
}

int main(void)
{
    cf_chain *chain = cf_chain_parse("gray,blur=sigma=2");
    if (!chain)
        return fail("filter string");
    cf_frame rgba;
    if (cf_frame_alloc(&rgba, CF_FORMAT_RGBA, W, H, CF_MEMORY_HOST) != CF_OK)
        return fail("alloc");
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            unsigned char *p = rgba.data[0] + (size_t)y * rgba.pitch[0] + 4 * (size_t)x;
            p[0] = (unsigned char)(x * 255 / W);
            p[1] = (unsigned char)(y * 255 / H);
            p[2] = (unsigned char)((x ^ y) & 0xff);
            p[3] = 255;
        }
    static unsigned char cpu[W * H], gpu[W * H];
    if (run_chain(chain, &rgba, 0, cpu))
        return 1;
    int devices = 0;
    cf_device_count(&devices);
    if (devices > 0) {
        if (run_chain(chain, &rgba, 1, gpu))
            return 1;
        if (memcmp(cpu, gpu, sizeof cpu) != 0) {
            fprintf(stderr, "core_api: GPU and CPU results differ\n");
            return 1;
        }
        printf("core_api: gray,blur on %dx%d RGBA: GPU result equals the CPU reference\n", W, H);
    } else {
        printf("core_api: gray,blur on %dx%d RGBA on the CPU (no GPU: %s), centre pixel %d\n", W,
               H, cf_device_unavailable_reason(), cpu[(H / 2) * W + W / 2]);
    }
    cf_frame_free(&rgba);
    cf_chain_free(&chain);
    return 0;
}
