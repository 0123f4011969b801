// Kernel names that look alike: the same class name in two namespaces and nested in a class,
// names differing only by template arguments (int vs unsigned, 1 vs 1u, a type vs a pointer to
// it), an unnamed lambda next to a named one with the same body, and a functor template.
#include <sycl/sycl.hpp>
namespace a { class K; }
namespace b { class K; }
struct Outer { class K; };
template <typename T> class KT;
template <auto V> class KV;
template <typename T> struct FT { T *p; void operator()() const { p[0] += 1; } };
void run(sycl::queue &q, int *x, unsigned *u) {
  q.submit([&](sycl::handler &h) { h.single_task<a::K>([=] { x[0] = 1; }); });
  q.submit([&](sycl::handler &h) { h.single_task<b::K>([=] { x[1] = 2; }); });
  q.submit([&](sycl::handler &h) { h.single_task<Outer::K>([=] { x[2] = 3; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KT<int>>([=] { x[3] = 4; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KT<unsigned>>([=] { u[3] = 5; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KT<int *>>([=] { x[4] = 6; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KV<1>>([=] { x[5] = 7; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KV<1u>>([=] { x[6] = 8; }); });
  q.submit([&](sycl::handler &h) { h.single_task([=] { x[7] = 9; }); });
  q.submit([&](sycl::handler &h) { h.single_task([=] { x[7] = 9; }); });
  q.submit([&](sycl::handler &h) { h.single_task(FT<int>{x}); });
  q.submit([&](sycl::handler &h) { h.single_task(FT<unsigned>{u}); });
}
