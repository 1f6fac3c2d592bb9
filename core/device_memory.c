/* cudafilters: a device's memory without a CUDA context (device.h,
 * cf_device_query_memory).
 *
 * The driver's management library, NVML (libnvidia-ml.so.1, installed with
 * the driver), reports a device's free memory without the process making a
 * context on it: what a GStreamer element needs to say why a context could
 * not be made. It is loaded at run time, like libcuda, so the library still
 * loads where there is no driver. The few entry points used, as NVML
 * documents them: */
#include <dlfcn.h>
#include <glib.h>

#include "internal.h"

#ifdef CF_HAVE_CUDA
#include <cuda_runtime_api.h>

typedef struct nvml_memory {
    unsigned long long total, free, used; /* bytes */
} nvml_memory;
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_by_bus_id_fn)(const char *pci_bus_id, void **device);
typedef int (*nvml_memory_fn)(void *device, nvml_memory *memory);

static struct {
    nvml_by_bus_id_fn by_bus_id;
    nvml_memory_fn memory;
} nvml;

static gpointer load_nvml(gpointer data)
{
    (void)data;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    nvml_init_fn init = lib ? (nvml_init_fn)dlsym(lib, "nvmlInit_v2") : NULL;
    if (!init || init() != 0)
        return NULL;
    nvml.by_bus_id = (nvml_by_bus_id_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml.memory = (nvml_memory_fn)dlsym(lib, "nvmlDeviceGetMemoryInfo");
    return nvml.by_bus_id && nvml.memory ? lib : NULL;
}

cf_status cf_device_query_memory(int index, size_t *free_bytes, size_t *total_bytes)
{
    static GOnce once = G_ONCE_INIT;
    if (!free_bytes || !total_bytes)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_device_query_memory: NULL argument");
    int n = 0;
    CF_TRY(cf_device_count(&n));
    if (index < 0 || index >= n)
        return cf_set_error(CF_ERROR_NO_DEVICE, "CUDA device %d does not exist (%d device%s)",
                            index, n, n == 1 ? "" : "s");
    if (!g_once(&once, load_nvml, NULL))
        return cf_set_error(CF_ERROR_NO_DEVICE,
                            "the driver's management library (libnvidia-ml.so.1) is not usable");
    /* CUDA and NVML number devices differently; the PCI bus id is common.
     * Asking for it makes no context. */
    char bus_id[64];
    CF_TRY(CF_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, (int)sizeof bus_id, index)));
    void *device = NULL;
    nvml_memory m;
    if (nvml.by_bus_id(bus_id, &device) != 0 || nvml.memory(device, &m) != 0)
        return cf_set_error(CF_ERROR_NO_DEVICE, "NVML does not report device %s", bus_id);
    *free_bytes = (size_t)m.free;
    *total_bytes = (size_t)m.total;
    return CF_OK;
}

#else

cf_status cf_device_query_memory(int index, size_t *free_bytes, size_t *total_bytes)
{
    (void)index;
    if (!free_bytes || !total_bytes)
        return cf_set_error(CF_ERROR_INVALID_ARGUMENT, "cf_device_query_memory: NULL argument");
    return cf_set_error(CF_ERROR_NO_DEVICE, "cudafilters was built without CUDA");
}

#endif
