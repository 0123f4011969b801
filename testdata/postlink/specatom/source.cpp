// Composite spec constants with atomics: a nested struct of arrays (struct { struct { short s[2];
// } in[2]; float f[3]; }) read in a kernel and in a noinline helper taking kernel_handler& that two
// kernels call, an int[4] array constant indexing atomic_ref fetch_add on global memory (relaxed,
// device scope) and on local memory (acq_rel, work_group scope, atomic_fence seq_cst), a long
// long constant feeding a 64-bit compare_exchange (system scope), and a kernel with no constant.
#include <sycl/sycl.hpp>
struct Inner { short s[2]; };
struct Nested { Inner in[2]; float f[3]; };
struct Idx { int v[4]; };
constexpr sycl::specialization_id<Nested> nestedId(Nested{{{{1, 2}}, {{3, 4}}}, {0.5f, 1.5f, 2.5f}});
constexpr sycl::specialization_id<Idx> idxId(Idx{{3, 1, 2, 0}});
constexpr sycl::specialization_id<long long> seedId(1ll << 33);
class KNested;
class KHelperA;
class KHelperB;
class KAtomGlobal;
class KAtomLocal;
class KCas;
class KNoneS;
using sycl::memory_order;
using sycl::memory_scope;
__attribute__((noinline)) float nested_sum(sycl::kernel_handler &kh) {
  Nested n = kh.get_specialization_constant<nestedId>();
  return n.in[0].s[1] + n.in[1].s[0] + n.f[2];
}
void run(sycl::queue &q, int *p, float *f, long long *l) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KNested>([=](sycl::kernel_handler kh) {
      Nested n = kh.get_specialization_constant<nestedId>();
      f[0] = n.f[0] + n.in[1].s[1];
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KHelperA>([=](sycl::kernel_handler kh) { f[1] = nested_sum(kh); }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KHelperB>([=](sycl::kernel_handler kh) { f[2] = nested_sum(kh) + kh.get_specialization_constant<idxId>().v[1]; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAtomGlobal>(sycl::nd_range<1>(16, 16), [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
      Idx ix = kh.get_specialization_constant<idxId>();
      sycl::atomic_ref<int, memory_order::relaxed, memory_scope::device, sycl::access::address_space::global_space> a(p[ix.v[it.get_local_id(0) % 4]]);
      a.fetch_add(1);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> loc(4, h);
    h.parallel_for<KAtomLocal>(sycl::nd_range<1>(16, 16), [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
      Idx ix = kh.get_specialization_constant<idxId>();
      if (it.get_local_id(0) < 4) loc[it.get_local_id(0)] = 0;
      sycl::group_barrier(it.get_group());
      sycl::atomic_ref<int, memory_order::acq_rel, memory_scope::work_group, sycl::access::address_space::local_space> a(loc[ix.v[it.get_local_id(0) % 4]]);
      a.fetch_add(2);
      sycl::atomic_fence(memory_order::seq_cst, memory_scope::work_group);
      sycl::group_barrier(it.get_group());
      if (it.get_local_id(0) < 4) p[8 + it.get_local_id(0)] = loc[it.get_local_id(0)];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KCas>([=](sycl::kernel_handler kh) {
      long long seed = kh.get_specialization_constant<seedId>();
      sycl::atomic_ref<long long, memory_order::seq_cst, memory_scope::system> a(l[0]);
      long long expected = 0;
      a.compare_exchange_strong(expected, seed, memory_order::acq_rel, memory_order::acquire);
      l[1] = expected;
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KNoneS>([=] { p[20] = 9; }); });
}
