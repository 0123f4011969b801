// Dynamic linking (-fsycl-allow-device-image-dependencies): a defined SYCL_EXTERNAL function the
// front end inlines, a defined noinline SYCL_EXTERNAL function kernels call, and a declared
// SYCL_EXTERNAL function defined elsewhere. SYCL_EXTERNAL definitions become entry points and
// exported symbols; the declaration an imported symbol.
#include <sycl/sycl.hpp>
SYCL_EXTERNAL int ext_defined(int x) { return x * 3 + 1; }
SYCL_EXTERNAL __attribute__((noinline)) int ext_noinline(int x) { return x * 5 + 2; }
SYCL_EXTERNAL int ext_declared(int x);
class KLocal;
class KNoinline;
class KDyn;
void run(sycl::queue &q, int *a) {
  // a[0] = 7 * 3 + 1 = 22
  q.submit([&](sycl::handler &h) { h.single_task<KLocal>([=] { a[0] = ext_defined(7); }); });
  // a[1] = 4 * 5 + 2 = 22 + ... : ext_noinline(4) + ext_defined(1) = 22 + 4 = 26
  q.submit([&](sycl::handler &h) { h.single_task<KNoinline>([=] { a[1] = ext_noinline(a[2] + 4) + ext_defined(1); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KDyn>([=] { a[3] = ext_declared(a[2]) + ext_defined(2); }); });
}
