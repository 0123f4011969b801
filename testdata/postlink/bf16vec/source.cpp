// bfloat16 in marray and vec: marray<bfloat16,4> from marray<float,4> (vector conversion entry
// points), sycl::vec<bfloat16,8> arithmetic, bf16 math (ext::oneapi::experimental::fmax/fma),
// bf16 in a noinline helper shared by two kernels, and a kernel without bf16.
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/bfloat16.hpp>
#include <sycl/ext/oneapi/experimental/bfloat16_math.hpp>
using bf16 = sycl::ext::oneapi::bfloat16;
namespace syclex = sycl::ext::oneapi::experimental;
class KBMarray;
class KBVec;
class KBMath;
class KBHelperA;
class KBHelperB;
class KNoBf;
__attribute__((noinline)) float bf_helper(float x) { return float(bf16(x) * bf16(0.25f)); }
void run(sycl::queue &q, bf16 *b, float *f) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KBMarray>([=] {
      sycl::marray<float, 4> m(f[0], f[1], f[2], f[3]);
      sycl::marray<bf16, 4> mb(m);
      for (int k = 0; k < 4; ++k) b[k] = mb[k] + bf16(1.0f);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KBVec>([=] {
      sycl::vec<bf16, 8> v(b[0]);
      sycl::vec<bf16, 8> w(b[1]);
      auto s = v * w + v;
      for (int k = 0; k < 8; ++k) f[k] = float(s[k]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KBMath>([=] { b[0] = syclex::fma(b[1], b[2], syclex::fmax(b[3], b[4])); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KBHelperA>([=] { f[0] = bf_helper(f[1]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KBHelperB>([=] { f[2] = bf_helper(f[3]) + 1.f; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KNoBf>([=] { f[4] = f[5] * 3.f; }); });
}
