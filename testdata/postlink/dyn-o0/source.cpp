// -O0 together with -fsycl-allow-device-image-dependencies: SYCL_EXTERNAL definitions (no
// inlining: every call stays), a declared one, a static helper, a spec constant, a double kernel.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> kOff(10);
SYCL_EXTERNAL int ext_inc(int x) { return x + 1; }
SYCL_EXTERNAL int ext_twice(int x) { return ext_inc(x) * 2; }
SYCL_EXTERNAL double ext_dbl(double x) { return x * 0.5; }
SYCL_EXTERNAL int ext_far(int x);
static int local_sq(int x) { return x * x; }
class KInc;
class KTwice;
class KDblO0;
class KFar;
class KSpecO0;
void run(sycl::queue &q, int *a, double *d) {
  q.submit([&](sycl::handler &h) { h.single_task<KInc>([=] { a[0] = ext_inc(a[0]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KTwice>([=] { a[1] = ext_twice(local_sq(a[1])); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KDblO0>([=] { d[0] = ext_dbl(d[1]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KFar>([=] { a[2] = ext_far(a[2]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KSpecO0>([=](sycl::kernel_handler kh) { a[3] = kh.get_specialization_constant<kOff>() + local_sq(2); }); });
}
