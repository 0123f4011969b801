// gen: -O0
#include <sycl/sycl.hpp>

enum class Color : short { Red = 1, Green = 2, Blue = 300 };

struct Inner { sycl::half h; char c; };
struct Outer {
  Inner in[2];
  float f3[3];
  bool flag;
  unsigned long long u;
};
struct alignas(16) Aligned { int x; };

constexpr sycl::specialization_id<sycl::half> halfId(sycl::half(1.5f));
constexpr sycl::specialization_id<float> floatId(-2.25f);
constexpr sycl::specialization_id<unsigned> uId(0xdeadbeefu);
constexpr sycl::specialization_id<Color> colorId(Color::Blue);
constexpr sycl::specialization_id<sycl::float3> v3Id(sycl::float3{1.0f, 2.0f, 3.0f});
constexpr sycl::specialization_id<sycl::char4> c4Id(sycl::char4{1, 2, 3, 4});
constexpr sycl::specialization_id<Outer> outerId(Outer{{{sycl::half(0.5f), 'a'}, {sycl::half(2.0f), 'b'}}, {1.f, 2.f, 3.f}, true, 77ull});
constexpr sycl::specialization_id<std::array<std::array<float, 3>, 2>> aaId(std::array<std::array<float, 3>, 2>{{{1, 2, 3}, {4, 5, 6}}});
constexpr sycl::specialization_id<Aligned> alId(Aligned{5});
constexpr sycl::specialization_id<sycl::marray<int, 3>> maId(sycl::marray<int, 3>{7, 8, 9});

class KVec;

void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KVec>([=](sycl::kernel_handler kh) {
      out[0] = kh.get_specialization_constant<halfId>();
      out[1] = kh.get_specialization_constant<floatId>();
      out[2] = (float)kh.get_specialization_constant<uId>();
      out[3] = (float)(short)kh.get_specialization_constant<colorId>();
      auto v = kh.get_specialization_constant<v3Id>();
      out[4] = v.x() + 10 * v.y() + 100 * v.z();
      auto c = kh.get_specialization_constant<c4Id>();
      out[5] = c.x() + c.y() + c.z() + c.w();
      Outer o = kh.get_specialization_constant<outerId>();
      out[6] = (float)o.in[0].h + (float)o.in[1].h + o.in[0].c + o.in[1].c + o.f3[0] + o.f3[2] + o.flag + (float)o.u;
      auto aa = kh.get_specialization_constant<aaId>();
      out[7] = aa[0][0] + aa[1][2];
      out[8] = kh.get_specialization_constant<alId>().x;
      auto m = kh.get_specialization_constant<maId>();
      out[9] = m[0] + m[1] + m[2];
    });
  });
}
