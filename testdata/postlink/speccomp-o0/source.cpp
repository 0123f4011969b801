// Compiled at -O0. Composite spec constants: sycl::vec<float, 4>, std::array<double, 2>, and a struct
// {int tag; sycl::marray<int, 3> m; float w;} (a nested marray). KBranch reads all three only
// inside a branch on a runtime value; KUncond reads all three unconditionally; KVecOnly reads
// only the vec; KNone reads none. Outputs: KBranch (flag != 0) o[0..3] = bits(v[i]),
// d[0] = a[0] + a[1], o[4] = s.tag + s.m[0] + s.m[1] + s.m[2]; KUncond o[5] = bits(v[3] * s.w),
// d[1] = a[0] * a[1], o[6] = s.m[2]; KVecOnly o[7] = bits(v[0] + v[1]); KNone o[8] = 8.
#include <array>
#include <sycl/sycl.hpp>
struct Tagged { int tag; sycl::marray<int, 3> m; float w; };
constexpr sycl::specialization_id<sycl::vec<float, 4>> v4Id(1.0f, 2.0f, 3.0f, 4.0f);
constexpr sycl::specialization_id<std::array<double, 2>> a2Id(std::array<double, 2>{{0.5, 8.0}});
constexpr sycl::specialization_id<Tagged> tagId(Tagged{7, sycl::marray<int, 3>(1, 2, 3), 0.25f});
class KBranch;
class KUncond;
class KVecOnly;
class KNone;
void run(sycl::queue &q, int *o, double *d, int flag) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KBranch>([=](sycl::kernel_handler kh) {
      if (flag != 0) {
        sycl::vec<float, 4> v = kh.get_specialization_constant<v4Id>();
        for (int i = 0; i < 4; ++i) o[i] = sycl::bit_cast<int>(static_cast<float>(v[i]));
        std::array<double, 2> a = kh.get_specialization_constant<a2Id>();
        d[0] = a[0] + a[1];
        Tagged s = kh.get_specialization_constant<tagId>();
        o[4] = s.tag + s.m[0] + s.m[1] + s.m[2];
      }
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KUncond>([=](sycl::kernel_handler kh) {
      sycl::vec<float, 4> v = kh.get_specialization_constant<v4Id>();
      std::array<double, 2> a = kh.get_specialization_constant<a2Id>();
      Tagged s = kh.get_specialization_constant<tagId>();
      o[5] = sycl::bit_cast<int>(static_cast<float>(v[3]) * s.w);
      d[1] = a[0] * a[1];
      o[6] = s.m[2];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KVecOnly>([=](sycl::kernel_handler kh) {
      sycl::vec<float, 4> v = kh.get_specialization_constant<v4Id>();
      o[7] = sycl::bit_cast<int>(static_cast<float>(v[0] + v[1]));
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KNone>([=] { o[8] = 8; }); });
}
