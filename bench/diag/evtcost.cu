// CPU cost of recording blocking-sync events that nobody waits on (diagnosis only).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <dirent.h>
#include <sys/resource.h>
#include <time.h>
__global__ void tiny(int *p) { if (threadIdx.x == 0) p[blockIdx.x]++; }
static double now() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static double cpu() { rusage r; getrusage(RUSAGE_SELF, &r); return r.ru_utime.tv_sec + r.ru_stime.tv_sec + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6; }
static double evt_thread_cpu() {  // seconds on CPU of the driver's cuda-EvtHandlr threads
    double s = 0; DIR *d = opendir("/proc/self/task"); dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char p[256], name[64] = ""; snprintf(p, sizeof p, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(p, "r"); if (f) { if (!fgets(name, sizeof name, f)) name[0] = 0; fclose(f); }
        if (!strstr(name, "EvtHandlr")) continue;
        snprintf(p, sizeof p, "/proc/self/task/%s/schedstat", e->d_name);
        f = fopen(p, "r"); unsigned long long ns = 0; if (f) { if (fscanf(f, "%llu", &ns) != 1) ns = 0; fclose(f); }
        s += ns / 1e9;
    }
    if (d) closedir(d);
    return s;
}
int main() {
    int *buf; cudaMalloc(&buf, 4096); cudaStream_t st; cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    const int frames = 3000, k = 8;
    const char *names[] = { "8 blocking-sync events a frame, host waits on the last", "7 plain + the last blocking-sync", "8 blocking-sync, host waits on none (query at the end)", "7 plain + 1 blocking-sync, no host wait" };
    for (int mode = 0; mode < 4; mode++) {
        cudaEvent_t ev[k];
        for (int i = 0; i < k; i++) {
            bool blocking = mode == 0 || mode == 2 || i == k - 1;
            cudaEventCreateWithFlags(&ev[i], (blocking ? cudaEventBlockingSync : 0) | cudaEventDisableTiming);
        }
        cudaStreamSynchronize(st);
        double t0 = now(), c0 = cpu(), e0 = evt_thread_cpu();
        for (int f = 0; f < frames; f++) {
            for (int i = 0; i < k; i++) { tiny<<<1, 32, 0, st>>>(buf); cudaEventRecord(ev[i], st); }
            if (mode < 2) cudaEventSynchronize(ev[k - 1]);
        }
        cudaStreamSynchronize(st);
        double t = now() - t0, c = cpu() - c0, e = evt_thread_cpu() - e0;
        printf("%-58s: %.1f us a frame wall, process CPU %.1f us a frame, EvtHandlr %.1f us a frame\n", names[mode], t / frames * 1e6, c / frames * 1e6, e / frames * 1e6);
        for (int i = 0; i < k; i++) cudaEventDestroy(ev[i]);
    }
    printf("error state: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
