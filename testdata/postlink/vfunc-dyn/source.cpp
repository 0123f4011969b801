// Virtual functions with -fsycl-allow-device-image-dependencies: an indirectly_callable set, a
// SYCL_EXTERNAL function that is also an entry point, a declared-only SYCL_EXTERNAL function,
// kernels with calls_indirectly and a kernel calling the SYCL_EXTERNAL functions.
#include <sycl/sycl.hpp>
namespace syclext = sycl::ext::oneapi::experimental;
struct Base {
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable) virtual int get() const { return 1; }
};
struct Derived : Base {
  SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(syclext::indirectly_callable) int get() const override { return 2; }
};
SYCL_EXTERNAL __attribute__((noinline)) int ext_def(int x) { return x * 3 + 1; }
SYCL_EXTERNAL int ext_decl(int x);
class KMake;
class KCall;
class KExt;
void run(sycl::queue &q, int *out, Base *s) {
  q.submit([&](sycl::handler &h) { h.single_task<KMake>([=] { new (s) Derived; }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KCall>(syclext::properties{syclext::assume_indirect_calls}, [=] { out[0] = s->get() + ext_def(out[5]); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KExt>([=] { out[1] = ext_def(out[2]) + ext_decl(out[3]); }); });
}
