// A small n-body step: KStepF (range 3) computes each body's acceleration from the others with
// float sycl::rsqrt (inverse distance), the softening eps2 a float spec constant (default 0),
// then v' = fma(a, dt, v) with dt a float spec constant (default 0.5); KStepD (range 3) the same
// in double with sycl::sqrt and 1 / (r * sqrt(r2)), dt a double spec constant; KEnergy (range 3)
// writes the float kinetic energy 0.5 * m * |v|^2 with sycl::dot on float3. Bodies on the x axis:
// x = 0, 1, 2, masses m = 1, 2, 4, velocities 0 (KEnergy: v = (1, 2, 0) for each body). Pair
// distance squared is 1 or 4 (exact inverse roots): a_i = sum_j m_j (x_j - x_i) / |x_j - x_i|^3,
// so a = (2 + 1, -1 + 4, -1/4 - 2) = (3, 3, -2.25); v' = 0.5 * a = (1.5, 1.5, -1.125).
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<float> eps2Id(0.0f);
constexpr sycl::specialization_id<float> dtId(0.5f);
constexpr sycl::specialization_id<double> dtdId(0.5);
class KStepF;
class KStepD;
class KEnergy;
void run(sycl::queue &q, const float *x, const float *m, float *v, const double *xd,
         const double *md, double *vd, float *e) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KStepF>(sycl::range<1>(3), [=](sycl::item<1> it, sycl::kernel_handler kh) {
      const size_t i = it.get_id(0);
      const float eps2 = kh.get_specialization_constant<eps2Id>();
      float a = 0.0f;
      for (size_t j = 0; j < 3; ++j) {
        if (j == i) continue;
        const float d = x[j] - x[i];
        const float inv = sycl::rsqrt(d * d + eps2);
        a = sycl::fma(m[j] * d, inv * inv * inv, a);
      }
      v[i] = sycl::fma(a, kh.get_specialization_constant<dtId>(), v[i]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KStepD>(sycl::range<1>(3), [=](sycl::item<1> it, sycl::kernel_handler kh) {
      const size_t i = it.get_id(0);
      double a = 0.0;
      for (size_t j = 0; j < 3; ++j) {
        if (j == i) continue;
        const double d = xd[j] - xd[i];
        const double r2 = d * d;
        a += md[j] * d / (r2 * sycl::sqrt(r2));
      }
      vd[i] = sycl::fma(a, kh.get_specialization_constant<dtdId>(), vd[i]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KEnergy>(sycl::range<1>(3), [=](sycl::id<1> i) {
      const sycl::float3 vel(1.0f, 2.0f, 0.0f);
      e[i] = 0.5f * m[i] * sycl::dot(vel, vel);
    });
  });
}
