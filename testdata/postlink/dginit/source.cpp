// Compiled with -std=c++20: device_global with non-zero initial values (the consteval
// constructor taking the value, C++20 only; C++17 rejects it): an int 42, an aggregate struct
// {int; float; short[3]}, an image-scope int[4] {1, 2, 3, 4}, a host_access_read long -5, and a zero-initialised one, read and
// updated by kernels in two per_source groups (a double kernel) so each image carries them.
// Outputs (int o[]): KReadInit o[0] = gi, o[1] = s.a, o[2] = bits(s.b), o[3..5] = s.c,
// o[6] = gl; KImgInit o[7 + i] = img[i]; KDblInit d[0] = s.b * 2.0 + gz.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
struct S {
  int a;
  float b;
  short c[3];
};
syclex::device_global<int> gi{42};
syclex::device_global<S> gs{S{7, 1.25f, {-1, 2, 300}}};
syclex::device_global<int[4], decltype(syclex::properties{syclex::device_image_scope})> gimg{1, 2, 3, 4};
syclex::device_global<long, decltype(syclex::properties{syclex::host_access_read})> gl{-5};
syclex::device_global<int> gz;
class KReadInit;
class KImgInit;
class KDblInit;
void run(sycl::queue &q, int *o, double *d) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KReadInit>([=] {
      o[0] = gi;
      const S &s = gs.get();
      o[1] = s.a;
      o[2] = sycl::bit_cast<int>(s.b);
      o[3] = s.c[0];
      o[4] = s.c[1];
      o[5] = s.c[2];
      o[6] = static_cast<int>(gl.get());
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KImgInit>([=] { for (int i = 0; i < 4; ++i) o[7 + i] = gimg[i]; gi = 1; });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KDblInit>([=] { d[0] = static_cast<double>(gs.get().b) * 2.0 + gz; });
  });
}
