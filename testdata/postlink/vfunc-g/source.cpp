// Virtual functions of one set compiled with -g: the SPIR-V/LLVM translator writes them in the
// order of the vtables holding them (Derived's, Base's, Other's: the order the kernels construct
// the objects), DPC++ lists them in the source's (Base, Derived, Other), which the debug
// information's DebugFunction lines give.
#include <sycl/sycl.hpp>
namespace syclext = sycl::ext::oneapi::experimental;
struct Base {
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable) virtual int get(int v) const { return v + 1; }
};
struct Derived : Base {
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable) int get(int v) const override { return v * 3; }
};
struct Other : Base {
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable) int get(int v) const override { return v - 7; }
};
class KVirt;
class KVirtOther;
class KPlainV;
void run(sycl::queue &q, int *out, Base *storage) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KVirt>(syclext::properties{syclext::assume_indirect_calls}, [=] {
      Base *b = out[0] > 0 ? static_cast<Base *>(new (storage) Derived) : new (storage) Base;
      out[1] = b->get(out[0] + 4);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KVirtOther>(syclext::properties{syclext::assume_indirect_calls}, [=] {
      Base *b = out[0] > 0 ? static_cast<Base *>(new (storage) Other) : new (storage) Derived;
      out[2] = b->get(out[0] + 10);
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainV>([=] { out[3] = 5; }); });
}
