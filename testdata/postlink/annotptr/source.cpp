// annotated_ptr (sycl_ext_oneapi_annotated_ptr) kernel arguments: annotated_ptr<int> with
// alignment<16> as a functor member beside an unused plain pointer and a scalar,
// annotated_ptr<float> with alignment<8> captured by an nd_range lambda whose raw pointer goes to
// a noinline helper shared with a plain-pointer kernel, and a plain kernel. (A range kernel cannot
// take one: its RoundedRangeKernel wrapper makes it a member of a member. Intel cache-control
// read_hint/write_hint make DPC++ 2026.2's JIT fail: "CacheControlLoadINTEL requires exactly 2
// extra operands".)
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/experimental/annotated_ptr/annotated_ptr.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
using AlignedInt = syclex::annotated_ptr<int, decltype(syclex::properties{syclex::alignment<16>})>;
using AlignedFloat = syclex::annotated_ptr<float, decltype(syclex::properties{syclex::alignment<8>})>;
struct FAligned {
  AlignedInt a;
  int *unused;
  int n;
  void operator()() const { *a = n + 1; }
};
__attribute__((noinline)) void scale(float *x, int i) { x[i] *= 2.0f; }
class KAlignedNd;
class KHelperPlain;
class KPlainN;
void run(sycl::queue &q, int *ip, float *fp) {
  q.submit([&](sycl::handler &h) { h.single_task(FAligned{AlignedInt{ip}, ip, 3}); });
  AlignedFloat af{fp};
  q.submit([&](sycl::handler &h) { h.parallel_for<KAlignedNd>(sycl::nd_range<1>(8, 8), [=](sycl::nd_item<1> it) { *af = 1.5f; scale(af.get(), it.get_global_linear_id() + 1); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KHelperPlain>([=] { scale(fp, 10); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainN>([=] { ip[20] = 4; }); });
}
