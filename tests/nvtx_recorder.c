/* A stand-in profiler for tests/test_nvtx.cpp: NVTX (nvtx3) loads the
 * library NVTX_INJECTION64_PATH names, as Nsight Systems does, and calls its
 * InitializeInjectionNvtx2(); this one takes over the domain range calls and
 * keeps the names of the ranges pushed, for the test to read through
 * nvtx_recorder_ranges(). */
#include <stdint.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>

#define MAX_RANGES 4096

static char ranges[MAX_RANGES][160];
static int n_ranges, depth, max_depth;
static char domain_name[64];

static nvtxDomainHandle_t create_domain(const char *name)
{
    strncpy(domain_name, name, sizeof domain_name - 1);
    return (nvtxDomainHandle_t)domain_name;
}

static int push_range(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *a)
{
    (void)domain;
    if (n_ranges < MAX_RANGES && a && a->messageType == NVTX_MESSAGE_TYPE_ASCII)
        strncpy(ranges[n_ranges++], a->message.ascii, sizeof ranges[0] - 1);
    if (++depth > max_depth)
        max_depth = depth;
    return depth - 1;
}

static int pop_range(nvtxDomainHandle_t domain)
{
    (void)domain;
    return depth > 0 ? --depth : -1;
}

__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
    const NvtxExportTableCallbacks *cb = get(NVTX_ETID_CALLBACKS);
    NvtxFunctionTable table = NULL;
    unsigned int size = 0;
    if (!cb || !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) ||
        size < NVTX_CBID_CORE2_DomainCreateA)
        return 0;
    *table[NVTX_CBID_CORE2_DomainCreateA] = (NvtxFunctionPointer)create_domain;
    *table[NVTX_CBID_CORE2_DomainRangePushEx] = (NvtxFunctionPointer)push_range;
    *table[NVTX_CBID_CORE2_DomainRangePop] = (NvtxFunctionPointer)pop_range;
    return 1;
}

/* What was recorded: the domain, the ranges pushed (names), the ranges
 * still open, and the deepest nesting. */
__attribute__((visibility("default"))) const char *nvtx_recorder_domain(void)
{
    return domain_name;
}
__attribute__((visibility("default"))) int nvtx_recorder_ranges(const char **names, int max)
{
    for (int i = 0; i < n_ranges && i < max; i++)
        names[i] = ranges[i];
    return n_ranges;
}
__attribute__((visibility("default"))) int nvtx_recorder_open(void)
{
    return depth;
}
