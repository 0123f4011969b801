// Spec constants of unusual types: a struct holding a bool, a sycl::half, a char and a nested
// std::array<short, 3> (padding bytes after the bool and after the char; 12 bytes, align 2),
// sycl::vec<sycl::half, 3> (8 bytes: a 3-element vec is stored as 4), an enum class with an
// unsigned 8-bit underlying type and a value above 127, and a kernel reading only the struct's
// bool member beside the enum: composite descriptors with padding, half members, per-image
// numbering. Outputs (int o[]): KMixed o[0] = b, o[1] = bits(float(h)), o[2] = c, o[3..5] = a;
// KVecH o[6..8] = bits(float(v[i])); KEnum o[9] = int(color), o[10] = b ? 10 : 20.
#include <array>
#include <cstdint>
#include <sycl/sycl.hpp>
using sycl::half;
struct Mixed { bool b; half h; char c; std::array<short, 3> a; };
enum class Color : std::uint8_t { Red = 1, Green = 7, Blue = 200 };
constexpr sycl::specialization_id<Mixed> mixedId(Mixed{true, half(1.5f), 'm', {{-2, 3, 400}}});
constexpr sycl::specialization_id<sycl::vec<half, 3>> vhId(half(0.5f), half(-2.0f), half(8.0f));
constexpr sycl::specialization_id<Color> colorId(Color::Green);
class KMixed;
class KVecH;
class KEnum;
class KPlain;
void run(sycl::queue &q, int *o) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KMixed>([=](sycl::kernel_handler kh) {
      Mixed m = kh.get_specialization_constant<mixedId>();
      o[0] = m.b ? 1 : 0;
      o[1] = sycl::bit_cast<int>(static_cast<float>(m.h));
      o[2] = m.c;
      o[3] = m.a[0];
      o[4] = m.a[1];
      o[5] = m.a[2];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KVecH>([=](sycl::kernel_handler kh) {
      sycl::vec<half, 3> v = kh.get_specialization_constant<vhId>();
      o[6] = sycl::bit_cast<int>(static_cast<float>(v[0]));
      o[7] = sycl::bit_cast<int>(static_cast<float>(v[1]));
      o[8] = sycl::bit_cast<int>(static_cast<float>(v[2]));
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KEnum>([=](sycl::kernel_handler kh) {
      o[9] = static_cast<int>(kh.get_specialization_constant<colorId>());
      o[10] = kh.get_specialization_constant<mixedId>().b ? 10 : 20;
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { o[11] = 11; }); });
}
