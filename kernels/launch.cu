/* cudafilters: when kernel launches get the PDL attribute (launch.cuh). */
#include <cstdlib>
#include <cstring>

#include "launch.cuh"

bool cf_pdl_enabled()
{
#ifndef CF_PDL_BUILT
    return false; // the code a 9.0+ GPU would run may lack the wait (meson.build)
#else
    static const bool allowed = [] {
        const char *v = std::getenv("CUDAFILTERS_PDL");
        return !(v && std::strcmp(v, "0") == 0);
    }();
    int device = 0, major = 0;
    // A failed query means no PDL; the launch that follows reports the
    // runtime's error itself.
    return allowed && cudaGetDevice(&device) == cudaSuccess &&
           cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
           major >= 9;
#endif
}
