// Session 18 check harness: the sliding-window blur kernel alone (its .cu
// included) against a naive blur, GRAY8, radii 1-6, every border, aligned
// and unaligned rows, frames narrower than the taps. Build from build-gpu:
//   nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -DCF_HAVE_CUDA -DCF_PDL_BUILT \
//     -I../core -Icore -I../core/include -I../kernels $(pkg-config --cflags glib-2.0) \
//     -o slide-check ../bench/diag/slide_check.cu ../kernels/launch.cu
#include "../../kernels/blur_slide.cu"
bool cf_blur_cuda::symmetric_taps(const cf_blur_kernel &k) { for (int t = 0; t < k.size / 2; t++) if (k.w[t] != k.w[k.size - 1 - t]) return false; return true; }
#include <cstdio>
#include <vector>
#include <cstdlib>
int run(int R, int W, int H, int border, bool aligned) {
  cf_blur_kernel k{}; k.size = 2*R+1; uint32_t sum=0;
  for(int t=0;t<k.size;t++){k.w[t]=1000+100*(R-abs(t-R)); sum+=k.w[t];} k.w[R]+=65536-sum;
  size_t pitch = aligned ? (W+15)/16*16 : W+1;
  std::vector<uint8_t> src(pitch*H), ref(pitch*H,0), out(pitch*H,0);
  for(auto &x:src) x=rand()%256;
  std::vector<uint32_t> tmp(W*H);
  for(int y=0;y<H;y++) for(int s=0;s<W;s++){ uint32_t a=128; for(int t=0;t<k.size;t++){ int px=cf_border_index(s+t-R,W,border); a+=k.w[t]*(px<0?7:src[y*pitch+px]); } tmp[y*W+s]=a>>8; }
  for(int y=0;y<H;y++) for(int s=0;s<W;s++){ uint64_t a=1u<<23; for(int t=0;t<k.size;t++){ int sy=cf_border_index(y+t-R,H,border); a+=(uint64_t)k.w[t]*(sy<0?(7u<<8):tmp[sy*W+s]); } ref[y*pitch+s]=a>>24; }
  uint8_t *ds, *dd; cudaMalloc(&ds, src.size()); cudaMalloc(&dd, src.size());
  cudaMemcpy(ds, src.data(), src.size(), cudaMemcpyHostToDevice); cudaMemset(dd, 0, src.size());
  cf_blur_plane pl{}; pl.src=ds; pl.src_pitch=pitch; pl.dst=dd; pl.dst_pitch=pitch; pl.width=W; pl.height=H; pl.channels=1; pl.sample_bytes=1; pl.shift=0; pl.border=border; pl.border_value=7;
  cudaError_t e = cf_blur_cuda::slide_run(k, k, &pl, 1, 0);
  cudaError_t e2 = cudaDeviceSynchronize();
  cudaMemcpy(out.data(), dd, out.size(), cudaMemcpyDeviceToHost);
  int bad=0; for(int y=0;y<H;y++) for(int x=0;x<W;x++){ size_t i=y*pitch+x; if(ref[i]!=out[i]){ if(bad<6) printf("  R%d W%d: diff x %d y %d ref %d got %d (src %d)\n",R,W,x,y,ref[i],out[i],src[i]); bad++; } }
  printf("R %d W %d H %d border %d aligned %d: launch %s sync %s, bad %d of %d\n",R,W,H,border,aligned,cudaGetErrorString(e),cudaGetErrorString(e2),bad,W*H);
  cudaFree(ds); cudaFree(dd); return bad;
}
int main(){ for(int R: {1,2,3,6}) for (int b: {0,3}) { run(R, 300, 70, b, true); } run(2, 300, 70, 0, false); run(6, 9, 5, 1, true); run(3, 1, 40, 2, true); run(5, 33, 3, 3, false); }
