// sycl::ext::oneapi::bfloat16 arithmetic and conversions (the bf16 device library), a float
// kernel beside it, and a kernel converting bfloat16 to double (fp64).
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/bfloat16.hpp>
using bf16 = sycl::ext::oneapi::bfloat16;
class KBf;
class KBfDouble;
class KF32;
void run(sycl::queue &q, bf16 *b, float *f, double *d) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KBf>(sycl::range<1>(16), [=](sycl::id<1> i) { b[i] = b[i] * bf16(1.5f) + bf16(f[i]); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KBfDouble>([=] { d[0] = static_cast<double>(static_cast<float>(b[0])) * d[1]; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KF32>([=] { f[0] = f[1] * 2.f; }); });
}
