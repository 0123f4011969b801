// Kernel names from nested and inline namespaces (an inline namespace inside a named one and an
// anonymous one inside an inline one), functor templates with a template-template argument and a
// parameter pack (types and values), unnamed lambdas between named ones in the same translation
// unit, and a named lambda whose name is a pack-instantiated class template: kernel order in
// per_kernel images and in the unsplit .sym.
#include <array>
#include <sycl/sycl.hpp>
namespace lib {
inline namespace v2 {
class KInline;
namespace detail { class KDeep; }
} // namespace v2
namespace { inline namespace hidden { class KAnonInline; } }
} // namespace lib
template <typename... Ts> class KPack;
template <template <typename> class Box, typename T> struct BoxFunctor {
  T *p;
  void operator()() const { Box<T> b{p[0]}; p[1] = b.twice(); }
};
template <typename T> struct Twice { T v; T twice() const { return v + v; } };
template <int... Ns> struct SumFunctor {
  int *p;
  void operator()(sycl::id<1> i) const { p[i] = (0 + ... + Ns) * static_cast<int>(i[0]); }
};
template <typename T, typename... Rest> struct FirstFunctor {
  T *p;
  void operator()() const { p[0] = static_cast<T>(sizeof...(Rest)); }
};
void run(sycl::queue &q, int *x, float *f) {
  q.submit([&](sycl::handler &h) { h.single_task([=] { x[0] = 10; }); });
  q.submit([&](sycl::handler &h) { h.single_task<lib::KInline>([=] { x[1] = 11; }); });
  q.submit([&](sycl::handler &h) { h.single_task<lib::detail::KDeep>([=] { x[2] = 12; }); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { x[20 + i] = 13; }); });
  q.submit([&](sycl::handler &h) { h.single_task<lib::KAnonInline>([=] { x[3] = 14; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KPack<int, float, lib::KInline>>([=] { x[4] = 15; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KPack<>>([=] { x[5] = 16; }); });
  q.submit([&](sycl::handler &h) { h.single_task(BoxFunctor<Twice, int>{x + 6}); });
  q.submit([&](sycl::handler &h) { h.single_task(BoxFunctor<Twice, float>{f}); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(4), SumFunctor<1, 2, 3>{x + 30}); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(4), SumFunctor<>{x + 40}); });
  q.submit([&](sycl::handler &h) { h.single_task(FirstFunctor<int, float, double, char>{x + 8}); });
  q.submit([&](sycl::handler &h) { h.single_task([=] { f[2] = 2.5f; }); });
}
