// 8-byte atomic_ref types beyond integer read-modify-write, at -O1 (still optLevel 2): double
// load/store only, a pointer (int*) atomic exchange, unsigned long long load only, a 4-byte
// float exchange, and uint64 atomics through sycl::atomic_ref in a shared noinline helper.
#include <sycl/sycl.hpp>
using sycl::memory_order, sycl::memory_scope;
template <typename T> using aref = sycl::atomic_ref<T, memory_order::relaxed, memory_scope::device>;
class KDLoadStore;
class KPtrXchg;
class KU64Load;
class KF32Xchg;
class KHelperA;
class KHelperB;
__attribute__((noinline)) void bump(unsigned long long *u) { aref<unsigned long long>(*u).fetch_or(1ull << 40); }
void run(sycl::queue &q, double *d, int **pp, int *i, unsigned long long *u, float *f) {
  q.submit([&](sycl::handler &h) { h.single_task<KDLoadStore>([=] { aref<double> r(d[0]); r.store(r.load() + 1.0); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KPtrXchg>([=] { aref<int *> r(pp[0]); pp[1] = r.exchange(i); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KU64Load>([=] { i[0] = static_cast<int>(aref<unsigned long long>(u[1]).load()); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KF32Xchg>([=] { f[1] = aref<float>(f[0]).exchange(2.f); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KHelperA>([=] { bump(u); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KHelperB>([=] { bump(u + 2); i[1] = 1; }); });
}
