// -fsycl-allow-device-image-dependencies with SYCL_EXTERNAL functions calling each other: a chain
// ext_a -> ext_b -> ext_c (ext_c declared only), ext_d calling ext_b, kernels calling ext_a,
// ext_b, ext_d; ext_d uses double (fp64), an unused SYCL_EXTERNAL function, and a static helper.
#include <sycl/sycl.hpp>
SYCL_EXTERNAL int ext_c(int x);
static __attribute__((noinline)) int local_helper(int x) { return x ^ 0x55; }
SYCL_EXTERNAL __attribute__((noinline)) int ext_b(int x) { return ext_c(x) + local_helper(x); }
SYCL_EXTERNAL __attribute__((noinline)) int ext_a(int x) { return ext_b(x + 1) * 2; }
SYCL_EXTERNAL __attribute__((noinline)) double ext_d(double x) { return ext_b(static_cast<int>(x)) * x; }
SYCL_EXTERNAL __attribute__((noinline)) int ext_unused(int x) { return x - 1; }
class KA;
class KB;
class KD;
class KLocal;
void run(sycl::queue &q, int *out, double *d) {
  q.submit([&](sycl::handler &h) { h.single_task<KA>([=] { out[0] = ext_a(out[1]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KB>([=] { out[2] = ext_b(out[3]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KD>([=] { d[0] = ext_d(d[1]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KLocal>([=] { out[4] = local_helper(out[5]); }); });
}
