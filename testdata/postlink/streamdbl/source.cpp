// sycl::stream output of different types: an int with sycl::hex (KInt), a float with
// setprecision (KFloat), a double (KDouble), a half (KHalf), a float4 vec (KVec), a noinline
// helper writing to a stream shared by two kernels (KHelperA, KHelperB); whether the stream's
// formatting code brings fp64 / fp16 to the kernels that print no double / half.
#include <sycl/sycl.hpp>
class KInt;
class KFloat;
class KDouble;
class KHalf;
class KVec;
class KHelperA;
class KHelperB;
__attribute__((noinline)) void say(const sycl::stream &os, int x) { os << "v=" << x << sycl::endl; }
void run(sycl::queue &q, int *a, float *f, double *d) {
  q.submit([&](sycl::handler &h) {
    sycl::stream os(1024, 128, h);
    h.single_task<KInt>([=] { os << sycl::hex << a[0] << sycl::endl; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::stream os(1024, 128, h);
    h.single_task<KFloat>([=] { os << sycl::setprecision(3) << f[0] << sycl::endl; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::stream os(1024, 128, h);
    h.single_task<KDouble>([=] { os << d[0] << sycl::endl; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::stream os(1024, 128, h);
    h.single_task<KHalf>([=] { os << sycl::half(f[1]) << sycl::endl; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::stream os(1024, 128, h);
    h.single_task<KVec>([=] { os << sycl::float4(f[0], f[1], f[2], f[3]) << sycl::endl; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::stream os(1024, 128, h);
    h.parallel_for<KHelperA>(sycl::range<1>(4), [=](sycl::id<1> i) { say(os, a[i]); });
  });
  q.submit([&](sycl::handler &h) {
    sycl::stream os(1024, 128, h);
    h.single_task<KHelperB>([=] { say(os, a[1] + 1); });
  });
}
