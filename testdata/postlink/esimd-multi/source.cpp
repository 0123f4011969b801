// Several ESIMD kernels beside SYCL kernels: a noinline helper shared by two ESIMD and one SYCL
// kernel, an ESIMD kernel using double (fp64), an ESIMD kernel with reqd_work_group_size, and
// two SYCL kernels (one with reqd_sub_group_size 16): ESIMD split inside every per_source group.
#include <sycl/sycl.hpp>
#include <sycl/ext/intel/esimd.hpp>
using namespace sycl::ext::intel::esimd;
__attribute__((noinline)) float shared_scale(float x) { return x * 1.5f + 2.0f; }
class KE1;
class KE2;
class KEDouble;
class KEWg;
class KS1;
class KSSg;
void run(sycl::queue &q, float *out, double *dout) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KE1>(sycl::range<1>(2), [=](sycl::id<1> i) SYCL_ESIMD_KERNEL {
      simd<float, 8> v(0.0f, 1.0f);
      v = v * shared_scale(1.0f);
      v.copy_to(out + i * 8);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KE2>([=]() SYCL_ESIMD_KERNEL {
      simd<float, 16> v(out + 16);
      v += shared_scale(3.0f);
      v.copy_to(out + 16);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KEDouble>([=]() SYCL_ESIMD_KERNEL {
      simd<double, 8> d(dout);
      d = d * 2.5;
      d.copy_to(dout);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KEWg>(sycl::nd_range<1>(8, 4), [=](sycl::nd_item<1> it) SYCL_ESIMD_KERNEL [[sycl::reqd_work_group_size(4)]] {
      simd<float, 8> v(1.0f);
      v.copy_to(out + 32 + it.get_global_id(0) * 8);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KS1>(sycl::range<1>(16), [=](sycl::id<1> i) { out[100 + i] = shared_scale(out[100 + i]); });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KSSg>(sycl::nd_range<1>(16, 16), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
      out[200 + it.get_global_id(0)] = sycl::reduce_over_group(it.get_sub_group(), 1.0f, sycl::plus<>());
    });
  });
}
