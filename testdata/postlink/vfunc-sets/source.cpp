// Virtual functions in three sets (default, SetA, SetB), one class with functions in two sets,
// kernels with calls_indirectly to one set, to two sets (assume_indirect_calls_to<SetA, SetB>),
// two kernels calling the same set, and a kernel without indirect calls.
#include <sycl/sycl.hpp>
namespace syclext = sycl::ext::oneapi::experimental;
class SetA;
class SetB;
struct Base {
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable) virtual int get() const { return 1; }
};
struct Derived : Base {
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable) int get() const override { return 2; }
};
struct ABase {
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable_in<SetA>) virtual int a() const { return 10; }
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable_in<SetB>) virtual int b() const { return 20; }
};
struct ADerived : ABase {
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable_in<SetA>) int a() const override { return 11; }
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable_in<SetB>) int b() const override { return 21; }
};
class KMake;
class KDef1;
class KDef2;
class KA;
class KAB;
class KNone;
void run(sycl::queue &q, int *out, Base *s, ABase *ab) {
  q.submit([&](sycl::handler &h) { h.single_task<KMake>([=] { new (s) Derived; new (ab) ADerived; }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KDef1>(syclext::properties{syclext::assume_indirect_calls}, [=] { out[0] = s->get(); });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KDef2>(syclext::properties{syclext::assume_indirect_calls}, [=] { out[1] = s->get() + 1; });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KA>(syclext::properties{syclext::assume_indirect_calls_to<SetA>}, [=] { out[2] = ab->a(); });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KAB>(syclext::properties{syclext::assume_indirect_calls_to<SetA, SetB>}, [=] { out[3] = ab->a() + ab->b(); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KNone>([=] { out[4] = 5; }); });
}
