#include <sycl/sycl.hpp>
// Unions initialised through a member shorter than the union: the default value covers only
// the start of the union's type, whose trailing array elements are then undefined. DPC++
// describes them as the tail padding of the enclosing struct, from the end of the last defined
// element (not from the start of the last undefined one).
union Ints { int i; int a[5]; };
union Floats { float f; float a[4]; };
union Longs { long long l; long long a[3]; };
struct WithInts { Ints u; short s; };
struct Nested { char c; Floats u; Longs v; };
constexpr sycl::specialization_id<Ints> intsId(Ints{.i = 50});
constexpr sycl::specialization_id<WithInts> withId(WithInts{Ints{.i = 7}, 9});
constexpr sycl::specialization_id<Nested> nestedId(Nested{'x', Floats{.f = 2.5f}, Longs{.l = 3}});
class KU;
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KU>([=](sycl::kernel_handler kh) {
      out[0] = kh.get_specialization_constant<intsId>().i;
      auto w = kh.get_specialization_constant<withId>();
      out[1] = w.u.i;
      out[2] = w.s;
      auto n = kh.get_specialization_constant<nestedId>();
      out[3] = n.c;
      out[4] = (int)(n.u.f * 4);
      out[5] = (int)n.v.l;
    });
  });
}
