// Session 18 tuning harness for the sliding-window blur (kernels/blur_slide.cu):
// times slide_run on a 4K GRAY8 plane (radius 2, 3), NV12-like planes
// (radius 2) and P010-like planes (radius 2, 4), medians of 12 samples of
// 10 runs, inputs rotated over 40 copies. SLIDE_SRC names a copy of
// blur_slide.cu with slide_rows()/slide_words() replaced (bench/diag/s18-
// prepare-next.sh makes them); the output line names it.
#include SLIDE_SRC
bool cf_blur_cuda::symmetric_taps(const cf_blur_kernel &k) { for (int t = 0; t < k.size / 2; t++) if (k.w[t] != k.w[k.size - 1 - t]) return false; return true; }
#include <cstdio>
#include <vector>
#include <algorithm>
float time_it(int R, int sb, int n_planes) {
  cf_blur_kernel k{}; k.size = 2*R+1; uint32_t sum=0;
  for(int t=0;t<k.size;t++){k.w[t]=1000+100*(R-abs(t-R)); sum+=k.w[t];} k.w[R]+=65536-sum;
  cf_blur_plane pl[2]{}; std::vector<void*> bufs;
  const int W[2] = {3840, 1920}, H[2] = {2160, 1080}, C[2] = {1, 2};
  const int copies = 40; std::vector<uint8_t*> src(copies*2), dst(2);
  for (int i = 0; i < n_planes; i++) {
    size_t pitch = (size_t)W[i]*C[i]*sb; 
    for (int c = 0; c < copies; c++) { cudaMalloc(&src[c*2+i], pitch*H[i]); cudaMemset(src[c*2+i], c, pitch*H[i]); }
    cudaMalloc(&dst[i], pitch*H[i]);
    pl[i].src_pitch = pitch; pl[i].dst = dst[i]; pl[i].dst_pitch = pitch; pl[i].width = W[i]; pl[i].height = H[i];
    pl[i].channels = C[i]; pl[i].sample_bytes = sb; pl[i].shift = sb == 2 ? 6 : 0; pl[i].border = 0;
  }
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b); std::vector<float> ms;
  for (int rep = 0; rep < 12; rep++) {
    cudaEventRecord(a);
    for (int r = 0; r < 10; r++) { for (int i = 0; i < n_planes; i++) pl[i].src = src[((rep*10+r)%copies)*2+i]; cf_blur_cuda::slide_run(k, k, pl, n_planes, 0); }
    cudaEventRecord(b); cudaEventSynchronize(b); float t; cudaEventElapsedTime(&t, a, b); ms.push_back(t * 100);
  }
  for (auto p : src) if (p) cudaFree(p); for (auto p : dst) if (p) cudaFree(p);
  std::sort(ms.begin(), ms.end()); return ms[ms.size()/2];
}
int main() {
  printf("%s: GRAY8 R2 %.1f R3 %.1f | NV12-like R2 %.1f | P010-like R2 %.1f R4 %.1f us (err %s)\n", SLIDE_SRC,
         time_it(2, 1, 1), time_it(3, 1, 1), time_it(2, 1, 2), time_it(2, 2, 2), time_it(4, 2, 2), cudaGetErrorString(cudaGetLastError()));
}
