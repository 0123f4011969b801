// Spec-constant ids declared in namespaces, an anonymous namespace, as static constexpr
// class members, inline variables and a variable template; enum class and
// std::array<bool> values; a helper template reading them.
#include <sycl/sycl.hpp>
namespace app { namespace cfg {
inline constexpr sycl::specialization_id<int> widthId(640);
inline constexpr sycl::specialization_id<int> heightId(480);
} }
namespace { constexpr sycl::specialization_id<double> anonId(3.5); }
struct Settings {
  static constexpr sycl::specialization_id<float> gammaId{2.2f};
  static constexpr sycl::specialization_id<std::array<bool, 5>> flagsId{std::array<bool, 5>{true, false, true, true, false}};
};
enum class Filter : unsigned char { None = 0, Box = 3, Gauss = 9 };
constexpr sycl::specialization_id<Filter> filterId(Filter::Gauss);
template <int N> constexpr sycl::specialization_id<int> tapId(N * 10);
template <int N> int taps(sycl::kernel_handler &kh) {
  if constexpr (N == 0) return 0;
  else return kh.get_specialization_constant<tapId<N>>() + taps<N - 1>(kh);
}
class KScope;
void run(sycl::queue &q, double *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KScope>([=](sycl::kernel_handler kh) {
      out[0] = kh.get_specialization_constant<app::cfg::widthId>() * kh.get_specialization_constant<app::cfg::heightId>();
      out[1] = kh.get_specialization_constant<anonId>() + kh.get_specialization_constant<Settings::gammaId>();
      auto f = kh.get_specialization_constant<Settings::flagsId>();
      out[2] = f[0] + 2 * f[1] + 4 * f[2] + 8 * f[3] + 16 * f[4];
      out[3] = (double)(unsigned char)kh.get_specialization_constant<filterId>();
      out[4] = taps<4>(kh);
    });
  });
}
