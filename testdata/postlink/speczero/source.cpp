// Spec constants whose default is all zero bytes next to ones with a non-zero default: int 0 / 5,
// float 0.0 / -0.0 (sign bit only), bool false / true, struct {int, int} {0, 0} / {0, 1}, double
// 0.0 with the int 0 in an fp64 kernel; kernels reading only the zero ones, only the non-zero
// ones, a mix, and the double: default-value blobs and OpSpecConstant / OpSpecConstantFalse /
// composite defaults of zero. Outputs (int o[]): KZero o[0] = zi, o[1] = bits(zf), o[2] = zb ? 1
// : 2, o[3..4] = zp; KNonZero o[5] = ni, o[6] = bits(nf), o[7] = nb ? 1 : 2, o[8..9] = np; KMix
// o[10] = zi + np.b, o[11] = bits(nf); KDbl o[12..13] = bits(zd) (low, high), o[14] = zi + 3.
#include <sycl/sycl.hpp>
struct Pair { int a; int b; };
constexpr sycl::specialization_id<int> ziId(0);
constexpr sycl::specialization_id<int> niId(5);
constexpr sycl::specialization_id<float> zfId(0.0f);
constexpr sycl::specialization_id<float> nfId(-0.0f);
constexpr sycl::specialization_id<bool> zbId(false);
constexpr sycl::specialization_id<bool> nbId(true);
constexpr sycl::specialization_id<Pair> zpId(Pair{0, 0});
constexpr sycl::specialization_id<Pair> npId(Pair{0, 1});
constexpr sycl::specialization_id<double> zdId(0.0);
class KZero;
class KNonZero;
class KMix;
class KDbl;
void run(sycl::queue &q, int *o) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KZero>([=](sycl::kernel_handler kh) {
      Pair p = kh.get_specialization_constant<zpId>();
      o[0] = kh.get_specialization_constant<ziId>();
      o[1] = sycl::bit_cast<int>(kh.get_specialization_constant<zfId>());
      o[2] = kh.get_specialization_constant<zbId>() ? 1 : 2;
      o[3] = p.a;
      o[4] = p.b;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KNonZero>([=](sycl::kernel_handler kh) {
      Pair p = kh.get_specialization_constant<npId>();
      o[5] = kh.get_specialization_constant<niId>();
      o[6] = sycl::bit_cast<int>(kh.get_specialization_constant<nfId>());
      o[7] = kh.get_specialization_constant<nbId>() ? 1 : 2;
      o[8] = p.a;
      o[9] = p.b;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KMix>([=](sycl::kernel_handler kh) {
      o[10] = kh.get_specialization_constant<ziId>() + kh.get_specialization_constant<npId>().b;
      o[11] = sycl::bit_cast<int>(kh.get_specialization_constant<nfId>());
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KDbl>([=](sycl::kernel_handler kh) {
      long long bits = sycl::bit_cast<long long>(kh.get_specialization_constant<zdId>());
      o[12] = static_cast<int>(bits);
      o[13] = static_cast<int>(bits >> 32);
      o[14] = kh.get_specialization_constant<ziId>() + 3;
    });
  });
}
