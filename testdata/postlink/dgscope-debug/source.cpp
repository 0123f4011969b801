// A device_image_scope device global read by one kernel, with debug information (-g): KPlain's
// ninth argument's debug record holds its number, 9, a literal among ids, equal to the global's
// id; debug information is no use (DPC++ splits it per kernel).
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
struct Pt { int a; float b; };
syclex::device_global<Pt, decltype(syclex::properties{syclex::host_access_read, syclex::device_image_scope})> dg;
#include <sycl/ext/oneapi/free_function_queries.hpp>
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclex::nd_range_kernel<1>))
void ff(int *p, double *d) { auto it = sycl::ext::oneapi::this_work_item::get_nd_item<1>(); p[it.get_global_linear_id()] += 1; d[it.get_global_linear_id()] *= 2.5; }
struct F { int *a; void operator()(sycl::nd_item<1> it) const { a[it.get_global_linear_id()] += dg.get().a; } };
int main() {
  sycl::queue q;
  int *a = sycl::malloc_shared<int>(8, q);
  q.parallel_for<class KDg>(sycl::nd_range<1>{8, 8}, F{a}).wait();
  int *b = a + 1, *c = a + 2, *d = a + 3, *e = a + 4, *f = a + 5, *g = a + 6, *h = a + 7;
  int *k = sycl::malloc_shared<int>(8, q);
  q.parallel_for<class KPlain>(sycl::range<1>{1}, [=](sycl::id<1> i) { a[i] *= 3; *b += 1; *c += 2; *d += 3; *e += 4; *f += 5; *g += 6; *h += 7; *k += 8; }).wait();
  sycl::free(k, q);
  sycl::free(a, q);
}
