// funcptr with -fsycl-allow-device-image-dependencies: SYCL_EXTERNAL functions whose addresses
// kernels take (Export definitions with OpConstantFunctionPointerINTEL, but not virtual /
// indirectly-callable), a static one, a SYCL_EXTERNAL function only called directly.
#include <sycl/sycl.hpp>
SYCL_EXTERNAL int fp_add1(int x) { return x + 1; }
SYCL_EXTERNAL int fp_mul2(int x) { return x * 2; }
static int fp_sub3(int x) { return x - 3; }
SYCL_EXTERNAL __attribute__((noinline)) int direct(int x) { return x ^ 5; }
using fn_t = int (*)(int);
class KPtrExt;
class KPtrStatic;
class KDirect;
void run(sycl::queue &q, int *a) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KPtrExt>([=] { fn_t f = a[0] ? fp_add1 : fp_mul2; a[1] = f(a[2]); });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KPtrStatic>([=] { fn_t f = a[3] > 1 ? fp_sub3 : fp_add1; a[4] = f(a[5]); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KDirect>([=] { a[6] = direct(a[7]); }); });
}
