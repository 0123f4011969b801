#include <sycl/sycl.hpp>
union U { int i; float f; };
struct WithU { char c; U u; short s; };
constexpr sycl::specialization_id<U> uId(U{0x3f800000});
constexpr sycl::specialization_id<WithU> wuId(WithU{'a', U{5}, 7});
class KUnion;
void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KUnion>([=](sycl::kernel_handler kh) {
      out[0] = kh.get_specialization_constant<uId>().f;
      auto w = kh.get_specialization_constant<wuId>(); out[1] = w.c + w.u.i + w.s;
    });
  });
}
