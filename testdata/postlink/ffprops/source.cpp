// Free-function kernels (sycl_ext_oneapi_free_function_kernels) with kernel properties given by
// SYCL_EXT_ONEAPI_FUNCTION_PROPERTY: nd_range_kernel<1> + work_group_size<16>, nd_range_kernel<1>
// + sub_group_size<16>, nd_range_kernel<2> + work_group_size<4, 8> + sub_group_size<8>,
// nd_range_kernel<1> + max_work_group_size<64> (in a namespace), a single_task_kernel with a
// double; a lambda kernel with work_group_size<16> given by get(properties_tag) (the same
// per_source category as the first free function) and a plain lambda. Free-function kernels have
// no kernel_handler (2026.2's headers have no other spec-constant query), so none reads a spec
// constant; a noinline helper is shared by a free function and the plain lambda.
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/free_function_queries.hpp>
namespace syclexp = sycl::ext::oneapi::experimental;
__attribute__((noinline)) int mix3(int x) { return x * 3 + 2; }
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::work_group_size<16>))
void ff_wg16(int *p) {
  auto it = sycl::ext::oneapi::this_work_item::get_nd_item<1>();
  p[it.get_global_linear_id()] = static_cast<int>(it.get_local_range(0)) * 100 + static_cast<int>(it.get_local_linear_id());
}
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::sub_group_size<16>))
void ff_sg16(int *p, int k) {
  auto it = sycl::ext::oneapi::this_work_item::get_nd_item<1>();
  auto sg = it.get_sub_group();
  p[it.get_global_linear_id()] = static_cast<int>(sg.get_max_local_range()[0]) * 100 + mix3(k);
}
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<2>))
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::work_group_size<4, 8>))
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::sub_group_size<8>))
void ff_wg2d_sg8(float *p, float s) {
  auto it = sycl::ext::oneapi::this_work_item::get_nd_item<2>();
  p[it.get_global_linear_id()] = s * static_cast<float>(it.get_sub_group().get_max_local_range()[0]) + static_cast<float>(it.get_global_id(0));
}
namespace ns {
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::max_work_group_size<64>))
void ff_max64(int *p) {
  auto it = sycl::ext::oneapi::this_work_item::get_nd_item<1>();
  p[it.get_global_linear_id()] = static_cast<int>(it.get_group_linear_id());
}
}
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::single_task_kernel))
void ff_dbl(double *d) { d[0] = d[1] * 2.5 + mix3(static_cast<int>(d[2])); }
struct KWgFunctor {
  int *p;
  void operator()(sycl::nd_item<1> it) const { p[it.get_global_linear_id()] = static_cast<int>(it.get_local_range(0)); }
  auto get(syclexp::properties_tag) const { return syclexp::properties{syclexp::work_group_size<16>}; }
};
class KPlain;
void run(sycl::queue &q, int *a) {
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(32, 16), KWgFunctor{a}); });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[0] = mix3(a[1]); }); });
}
