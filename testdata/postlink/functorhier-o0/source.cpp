// Compiled at -O0. Kernel functors from class hierarchies: a functor whose base holds the captured pointer and a
// scale while the call operator is in the derived class (FDerived); a two-level hierarchy with a
// virtual-free base call operator used through the derived type (FLeaf inherits operator() from
// FMid); a templated functor calling its own static member function and a static member of its
// base (FTempl<int>, FTempl<short>); an nd_range functor derived from a base template (FNdDerived).
// Outputs (int o[]): FDerived o[i] = i * 3 (i < 4); FLeaf o[4] = 5 + 1; FTempl<int> o[5] = 2*7+1;
// FTempl<short> o[6] = 2*9+1; FNdDerived o[8 + i] = i + 100.
#include <sycl/sycl.hpp>
struct Base {
  int *out;
  int scale;
  static int bump(int x) { return x + 1; }
};
struct FDerived : Base {
  void operator()(sycl::id<1> i) const { out[i] = static_cast<int>(i[0]) * scale; }
};
struct FMid : Base {
  void operator()() const { out[4] = bump(scale); }
};
struct FLeaf : FMid {};
template <typename T> struct FTempl : Base {
  T val;
  static T twice(T x) { return static_cast<T>(x * 2); }
  void operator()() const { out[sizeof(T) == 4 ? 5 : 6] = bump(twice(val)); }
};
template <int Add> struct NdBase {
  int *out;
  int add() const { return Add; }
};
struct FNdDerived : NdBase<100> {
  void operator()(sycl::nd_item<1> it) const {
    size_t g = it.get_global_id(0);
    out[8 + g] = static_cast<int>(g) + add();
  }
};
void run(sycl::queue &q, int *o) {
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(4), FDerived{{o, 3}}); });
  q.submit([&](sycl::handler &h) { h.single_task(FLeaf{{{o, 5}}}); });
  q.submit([&](sycl::handler &h) { h.single_task(FTempl<int>{{o, 0}, 7}); });
  q.submit([&](sycl::handler &h) { h.single_task(FTempl<short>{{o, 0}, 9}); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(4, 2), FNdDerived{{o}}); });
}
