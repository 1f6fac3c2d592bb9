/* cudafilters: per-device facts and when kernel launches get the PDL
 * attribute (launch.cuh). */
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "launch.cuh"

cudaError_t cf_device_facts(int device, int *sms, int *major)
{
    // One word a device: sms << 8 | major, 0 while unknown (a device has at
    // least one SM, so a known word is never 0).
    static std::atomic<unsigned> kept[kCfCachedDevices];
    const bool cacheable = device >= 0 && device < kCfCachedDevices;
    unsigned word = cacheable ? kept[device].load(std::memory_order_relaxed) : 0u;
    if (word == 0) {
        int n = 0, m = 0;
        cudaError_t err = cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device);
        if (err == cudaSuccess)
            err = cudaDeviceGetAttribute(&m, cudaDevAttrComputeCapabilityMajor, device);
        if (err != cudaSuccess)
            return err;
        word = (unsigned)n << 8 | ((unsigned)m & 0xffu);
        if (cacheable)
            kept[device].store(word, std::memory_order_relaxed);
    }
    *sms = (int)(word >> 8);
    *major = (int)(word & 0xffu);
    return cudaSuccess;
}

cudaError_t cf_device_shared_optin(int device, int *bytes)
{
    // One word a device: the bytes, 0 while unknown (every device allows
    // some).
    static std::atomic<int> kept[kCfCachedDevices];
    const bool cacheable = device >= 0 && device < kCfCachedDevices;
    int v = cacheable ? kept[device].load(std::memory_order_relaxed) : 0;
    if (v == 0) {
        const cudaError_t err =
            cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
        if (err != cudaSuccess)
            return err;
        if (cacheable)
            kept[device].store(v, std::memory_order_relaxed);
    }
    *bytes = v;
    return cudaSuccess;
}

cudaError_t cf_device_fast_fp64(int device, bool *fast)
{
    // One word a device: 2 fast, 1 not, 0 while unknown.
    static std::atomic<int> kept[kCfCachedDevices];
    const bool cacheable = device >= 0 && device < kCfCachedDevices;
    int v = cacheable ? kept[device].load(std::memory_order_relaxed) : 0;
    if (v == 0) {
        int ratio = 0, major = 0, minor = 0;
        cudaError_t err =
            cudaDeviceGetAttribute(&ratio, cudaDevAttrSingleToDoublePrecisionPerfRatio, device);
        if (err == cudaSuccess)
            err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
        if (err == cudaSuccess)
            err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
        if (err != cudaSuccess)
            return err;
        v = ratio >= 1 && ratio <= 2 && major == 9 && minor == 0 ? 2 : 1;
        if (cacheable)
            kept[device].store(v, std::memory_order_relaxed);
    }
    *fast = v == 2;
    return cudaSuccess;
}

bool cf_pdl_enabled()
{
#ifndef CF_PDL_BUILT
    return false; // the code a 9.0+ GPU would run may lack the wait (meson.build)
#else
    static const bool allowed = [] {
        const char *v = std::getenv("CUDAFILTERS_PDL");
        return !(v && std::strcmp(v, "0") == 0);
    }();
    int device = 0, sms = 0, major = 0;
    // A failed query means no PDL; the launch that follows reports the
    // runtime's error itself.
    return allowed && cudaGetDevice(&device) == cudaSuccess &&
           cf_device_facts(device, &sms, &major) == cudaSuccess && major >= 9;
#endif
}
