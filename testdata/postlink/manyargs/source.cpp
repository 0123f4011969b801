// Kernels taking many arguments of mixed kinds: read_only 1-D, write_only 2-D, read_write 3-D and
// ranged (offset) 2-D buffer accessors, a local_accessor, USM pointers, a struct holding two USM
// pointers and an int, captured sycl::id<2> and sycl::range<3>, scalars of several widths; in
// each kernel some of them unused (kernel-param opt masks over the accessors' expanded
// pointer/range/range/offset arguments), and a functor with every argument used.
#include <sycl/sycl.hpp>
struct Ptrs { int *in; float *out; int n; };
struct Packed { char c; short s; long long w; double unused_d; };
template <typename A1, typename A2> struct AllUsed {
  A1 a1; A2 a2; int *p; Ptrs ps; sycl::id<2> off;
  void operator()(sycl::item<2> it) const {
    a2[it] = a1[it[0]] + p[it[1]] + ps.in[0] + static_cast<int>(off[0] + off[1]);
    ps.out[0] = static_cast<float>(ps.n);
  }
};
class KMixed;
class KSparse;
class KLocal;
void run(sycl::queue &q, sycl::buffer<int, 1> &b1, sycl::buffer<float, 2> &b2, sycl::buffer<int, 3> &b3,
         int *usm, float *usmf, Ptrs ps, Packed pk) {
  sycl::id<2> base(1, 2);
  sycl::range<3> r3(2, 2, 2);
  q.submit([&](sycl::handler &h) {
    sycl::accessor a1(b1, h, sycl::read_only);
    sycl::accessor a2(b2, h, sycl::write_only);
    sycl::accessor a3(b3, h, sycl::read_write);
    sycl::accessor a2r(b2, h, sycl::range<2>(2, 2), sycl::id<2>(1, 1), sycl::read_only);
    h.parallel_for<KMixed>(sycl::range<2>(2, 2), [=](sycl::item<2> it) {
      a2[it] = a2r[it] + static_cast<float>(a1[it[0]]) + usmf[0];
      a3[sycl::id<3>(it[0], it[1], 0)] += static_cast<int>(r3[2]) + pk.s + static_cast<int>(pk.w);
      (void)base;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a1(b1, h, sycl::read_only);
    sycl::accessor a3(b3, h, sycl::read_write);
    h.single_task<KSparse>([=] {
      usm[0] = ps.n + static_cast<int>(base[1]);
      (void)a1; (void)a3; (void)usmf; (void)pk; (void)r3;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 2> lacc(sycl::range<2>(4, 4), h);
    sycl::accessor a3(b3, h, sycl::read_only);
    h.parallel_for<KLocal>(sycl::nd_range<2>({4, 4}, {4, 4}), [=](sycl::nd_item<2> it) {
      lacc[it.get_local_id()] = a3[sycl::id<3>(0, it.get_local_id(0) & 1, it.get_local_id(1) & 1)];
      sycl::group_barrier(it.get_group());
      ps.out[it.get_global_linear_id()] = static_cast<float>(lacc[3 - it.get_local_id(0)][it.get_local_id(1)] + pk.c);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a1(b1, h, sycl::read_only);
    sycl::accessor a2(b2, h, sycl::write_only);
    h.parallel_for(sycl::range<2>(2, 2), AllUsed<decltype(a1), decltype(a2)>{a1, a2, usm, ps, base});
  });
}
