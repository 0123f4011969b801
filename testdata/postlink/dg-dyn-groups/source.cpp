// -fsycl-allow-device-image-dependencies: non-image-scope device globals (plain, host_access_write,
// struct) written by kernels in different per_source groups (fp64, fp16, none, reqd_sub_group_size)
// and by an exported SYCL_EXTERNAL function; one global used by nobody.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
struct Pair { int a; double b; };
syclex::device_global<long> dg_cnt;
syclex::device_global<int, decltype(syclex::properties{syclex::host_access_write})> dg_w;
syclex::device_global<Pair> dg_pair;
syclex::device_global<short> dg_idle;
SYCL_EXTERNAL __attribute__((noinline)) long ext_bump(int x) { dg_cnt += x; return dg_cnt + dg_w; }
class KDbl;
class KHalf;
class KPlain;
class KSg;
void run(sycl::queue &q, double *d, sycl::half *hh, int *a) {
  q.submit([&](sycl::handler &h) { h.single_task<KDbl>([=] { dg_pair.get().b = d[0] * 2.0; d[1] = ext_bump(1); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KHalf>([=] { hh[0] = hh[1] * (sycl::half)dg_w.get(); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[0] = (int)ext_bump(a[1]) + dg_pair.get().a; }); });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KSg>(sycl::nd_range<1>(16, 16), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] { a[it.get_global_id(0) + 4] = dg_cnt.get(); });
  });
}
