// `-fno-sycl-id-queries-fit-in-int` (id queries may exceed INT_MAX: the front end drops its
// range assumptions): a kernel reading an int spec constant, a range kernel with a double, an
// nd_range kernel using the global linear id and the group range, a plain single_task. The
// post-link step records the id-query range as the image-wide `idQueriesRange` misc property.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> scI(5);
class KSpec;
class KDbl;
class KNd;
class KPlain;
void run(sycl::queue &q, int *a, float *f, double *d, size_t *s) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KSpec>([=](sycl::kernel_handler kh) { a[0] = kh.get_specialization_constant<scI>() + 1; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KDbl>(sycl::range<1>(8), [=](sycl::id<1> i) { d[i] = (double)f[i] * 1.5; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KNd>(sycl::nd_range<2>({4, 8}, {2, 4}), [=](sycl::nd_item<2> it) {
      s[it.get_global_linear_id()] = it.get_global_id(0) * it.get_group_range(1) + it.get_local_id(1);
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[1] = 2; }); });
}
