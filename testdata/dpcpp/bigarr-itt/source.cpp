// gen: -fsycl-instrument-device-code
#include <sycl/sycl.hpp>
struct Cell { short a; double b; };
constexpr std::array<int, 300> make() { std::array<int, 300> a{}; for (int i = 0; i < 300; ++i) a[i] = i * 3; return a; }
constexpr sycl::specialization_id<std::array<int, 300>> bigId(make());
constexpr sycl::specialization_id<std::array<Cell, 4>> cellsId(std::array<Cell, 4>{{{1, 0.5}, {2, 1.5}, {3, 2.5}, {4, 3.5}}});
constexpr sycl::specialization_id<int> itId(5);
class KBig;
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KBig>([=](sycl::kernel_handler kh) {
      auto a = kh.get_specialization_constant<bigId>();
      int s = 0; for (int i = 0; i < 300; ++i) s += a[i];
      auto c = kh.get_specialization_constant<cellsId>();
      out[0] = s + c[3].a + (int)c[2].b + kh.get_specialization_constant<itId>();
    });
  });
}
