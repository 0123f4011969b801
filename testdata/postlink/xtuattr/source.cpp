// Two translation units with -fsycl-allow-device-image-dependencies (the other one is
// `xtuattr-provider`): kernels calling declared SYCL_EXTERNAL functions with a double signature
// (KDbl), with an int signature whose definition uses half (KHalf), a plain one (KPlain); this
// unit's own exported functions with attributes: own_dbl with [[sycl::device_has(fp64)]] using a
// double and calling the declared prov_plain (KOwn), own_sg with [[sycl::reqd_sub_group_size(16)]]
// called by a kernel with the same sub-group size (KSg); a helper-free kernel (KNone).
#include <sycl/sycl.hpp>
SYCL_EXTERNAL double prov_scale(double x);
SYCL_EXTERNAL int prov_half(int x);
SYCL_EXTERNAL int prov_plain(int x);
[[sycl::device_has(sycl::aspect::fp64)]] SYCL_EXTERNAL int own_dbl(int x) { return (int)(x * 0.5) + prov_plain(x); }
[[sycl::reqd_sub_group_size(16)]] SYCL_EXTERNAL int own_sg(int x) { return x + 40; }
class KDbl;
class KHalf;
class KPlain;
class KOwn;
class KSg;
class KNone;
void run(sycl::queue &q, int *a, double *d) {
  // d[0] = d[0] * 2.5 + 0.5; with d[0] = 2: 5.5
  q.submit([&](sycl::handler &h) { h.single_task<KDbl>([=] { d[0] = prov_scale(d[0]); }); });
  // a[0] = half(a[0]) * 1.5; with a[0] = 6: 9
  q.submit([&](sycl::handler &h) { h.single_task<KHalf>([=] { a[0] = prov_half(a[0]); }); });
  // a[1] = a[1] * 7 - 3; with a[1] = 2: 11
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[1] = prov_plain(a[1]); }); });
  // a[2] = (int)(a[2] * 0.5) + a[2] * 7 - 3; with a[2] = 4: 2 + 25 = 27
  q.submit([&](sycl::handler &h) { h.single_task<KOwn>([=] { a[2] = own_dbl(a[2]); }); });
  // a[3 + g] = g + 40
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KSg>(sycl::nd_range<1>(16, 16), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
      a[3 + it.get_global_linear_id()] = own_sg(it.get_global_linear_id());
    });
  });
  // a[19] = 99
  q.submit([&](sycl::handler &h) { h.single_task<KNone>([=] { a[19] = 99; }); });
}
