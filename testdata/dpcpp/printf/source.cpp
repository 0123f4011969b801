#include <sycl/sycl.hpp>
namespace exp = sycl::ext::oneapi::experimental;
constexpr sycl::specialization_id<int> aId(42);
constexpr sycl::specialization_id<float> fId(2.5f);
constexpr sycl::specialization_id<sycl::int3> vId(sycl::int3{1,2,3});
#ifdef __SYCL_DEVICE_ONLY__
#define CONSTANT __attribute__((opencl_constant))
#else
#define CONSTANT
#endif
static const CONSTANT char fmt[] = "a=%d f=%f v=%d\n";
class KPrintf;
void run(sycl::queue &q) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KPrintf>([=](sycl::kernel_handler kh) {
      auto v = kh.get_specialization_constant<vId>();
      exp::printf(fmt, kh.get_specialization_constant<aId>(), (double)kh.get_specialization_constant<fId>(), v.y());
      exp::printf("lit %d\n", v.z());
    });
  });
}
