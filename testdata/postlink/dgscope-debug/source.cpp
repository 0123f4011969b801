// Debug information (-g) is no use: llvm-spirv writes a parameter's number in its debug record as
// a literal where ids stand, and KPlain has 30 parameters: number 9 is the id of the
// device_image_scope global only KDg reads, number 25 that of ff (which uses double). DPC++ splits
// per kernel, and KPlain's image holds neither ff nor its fp64 aspect.
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
  int *a = sycl::malloc_shared<int>(32, q);
  q.parallel_for<class KDg>(sycl::nd_range<1>{8, 8}, F{a}).wait();
  int *p1 = a + 1, *p2 = a + 2, *p3 = a + 3, *p4 = a + 4, *p5 = a + 5, *p6 = a + 6, *p7 = a + 7, *p8 = a + 8, *p9 = a + 9, *p10 = a + 10, *p11 = a + 11, *p12 = a + 12, *p13 = a + 13, *p14 = a + 14, *p15 = a + 15, *p16 = a + 16, *p17 = a + 17, *p18 = a + 18, *p19 = a + 19, *p20 = a + 20, *p21 = a + 21, *p22 = a + 22, *p23 = a + 23, *p24 = a + 24, *p25 = a + 25, *p26 = a + 26, *p27 = a + 27, *p28 = a + 28, *p29 = a + 29;
  q.parallel_for<class KPlain>(sycl::range<1>{1}, [=](sycl::id<1> i) { a[i] *= 3; *p1 += 1; *p2 += 2; *p3 += 3; *p4 += 4; *p5 += 5; *p6 += 6; *p7 += 7; *p8 += 8; *p9 += 9; *p10 += 10; *p11 += 11; *p12 += 12; *p13 += 13; *p14 += 14; *p15 += 15; *p16 += 16; *p17 += 17; *p18 += 18; *p19 += 19; *p20 += 20; *p21 += 21; *p22 += 22; *p23 += 23; *p24 += 24; *p25 += 25; *p26 += 26; *p27 += 27; *p28 += 28; *p29 += 29; }).wait();
  sycl::free(a, q);
}
