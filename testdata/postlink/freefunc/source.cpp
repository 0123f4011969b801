// Free-function kernels (sycl_ext_oneapi_free_function_kernels): nd_range_kernel<1>,
// nd_range_kernel<2>, single_task_kernel, one in a namespace, one with a double, one calling a
// noinline helper shared with an ordinary lambda kernel; this_work_item queries inside them.
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/free_function_queries.hpp>
namespace syclexp = sycl::ext::oneapi::experimental;
__attribute__((noinline)) int ffhelper(int x) { return x * 7 + 1; }
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void ff_nd1(int *p, int k) {
  auto it = sycl::ext::oneapi::this_work_item::get_nd_item<1>();
  p[it.get_global_linear_id()] = ffhelper(k) + it.get_local_linear_id();
}
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<2>))
void ff_nd2(float *p, float s) {
  auto it = sycl::ext::oneapi::this_work_item::get_nd_item<2>();
  p[it.get_global_linear_id()] = s * it.get_global_id(1);
}
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::single_task_kernel))
void ff_single(int *p) { p[0] = ffhelper(p[1]); }
namespace ns {
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::single_task_kernel))
void ff_dbl(double *d, int unused) { d[0] = d[1] * 1.5; }
}
class KLambda;
void run(sycl::queue &q, int *a) {
  q.submit([&](sycl::handler &h) { h.single_task<KLambda>([=] { a[0] = ffhelper(a[1]); }); });
}
