// Spec constants whose default value is wholly or partly undefined: an empty class (its one
// byte undef), an empty base, and an int. In LLVM IR eId's initializer is `undef`; the
// translator writes an OpUndef initializer, LLVM's SPIR-V backend none at all
// (testdata/dpcpp-backend/emptyclass).
#include <sycl/sycl.hpp>
struct Empty {};
struct EmptyBase : Empty { int v; };
constexpr sycl::specialization_id<Empty> eId;
constexpr sycl::specialization_id<EmptyBase> ebId(EmptyBase{{}, 9});
constexpr sycl::specialization_id<int> iId(7);
class KEmpty;
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KEmpty>([=](sycl::kernel_handler kh) {
      auto e = kh.get_specialization_constant<eId>(); (void)e;
      out[0] = kh.get_specialization_constant<ebId>().v;
      out[1] = kh.get_specialization_constant<iId>();
    });
  });
}
