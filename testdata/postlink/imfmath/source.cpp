// sycl::ext::intel::math (imf) functions: float rounding-mode arithmetic (fadd_rd, fmul_ru),
// frcp_rn, half conversions (float2half_rn, half2float), double rounding arithmetic (dadd_rz),
// integer SIMD (vabsdiffu2), in separate kernels, one through a noinline helper; a plain kernel.
#include <sycl/sycl.hpp>
#include <sycl/ext/intel/math.hpp>
namespace imf = sycl::ext::intel::math;
class KFRound;
class KSat;
class KHalfConv;
class KDRound;
class KSimd;
class KPlainM;
__attribute__((noinline)) float helper_sat(float x) { return imf::frcp_rn(x * 2.0f); }
void run(sycl::queue &q, float *f, double *d, unsigned *u) {
  q.submit([&](sycl::handler &h) { h.single_task<KFRound>([=] { f[0] = imf::fadd_rd(f[1], f[2]) + imf::fmul_ru(f[3], f[4]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KSat>([=] { f[5] = helper_sat(f[6]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KHalfConv>([=] { f[7] = imf::half2float(imf::float2half_rn(f[8])); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KDRound>([=] { d[0] = imf::dadd_rz(d[1], d[2]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KSimd>([=] { u[0] = imf::vabsdiffu2(u[1], u[2]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainM>([=] { f[9] = helper_sat(1.0f) + 1.0f; }); });
}
