// One spec constant read 50 times (in a loop-free chain and in branches); another only
// read by the second of two kernels in the same image; a third never read at all.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> hotId(5);
constexpr sycl::specialization_id<float> onlySecondId(0.75f);
constexpr sycl::specialization_id<float> unusedId(9.0f);
struct Pair { int a; int b; };
constexpr sycl::specialization_id<Pair> pairHotId(Pair{1, 2});
class KHot; class KCold;
void run(sycl::queue &q, int *out, float *dout) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KHot>(sycl::range<1>(4), [=](sycl::id<1> i, sycl::kernel_handler kh) {
      int r = (int)i[0];
      r = r * 3 + kh.get_specialization_constant<hotId>() + 0;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 1;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 2;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 3;
      if (r & 16) r ^= kh.get_specialization_constant<hotId>(); else r += kh.get_specialization_constant<pairHotId>().b;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 5;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 6;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 7;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 8;
      if (r & 4) r ^= kh.get_specialization_constant<hotId>(); else r += kh.get_specialization_constant<pairHotId>().b;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 10;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 11;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 12;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 13;
      if (r & 1) r ^= kh.get_specialization_constant<hotId>(); else r += kh.get_specialization_constant<pairHotId>().b;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 15;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 16;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 17;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 18;
      if (r & 32) r ^= kh.get_specialization_constant<hotId>(); else r += kh.get_specialization_constant<pairHotId>().b;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 20;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 21;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 22;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 23;
      if (r & 8) r ^= kh.get_specialization_constant<hotId>(); else r += kh.get_specialization_constant<pairHotId>().b;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 25;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 26;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 27;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 28;
      if (r & 2) r ^= kh.get_specialization_constant<hotId>(); else r += kh.get_specialization_constant<pairHotId>().b;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 30;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 31;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 32;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 33;
      if (r & 64) r ^= kh.get_specialization_constant<hotId>(); else r += kh.get_specialization_constant<pairHotId>().b;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 35;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 36;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 37;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 38;
      if (r & 16) r ^= kh.get_specialization_constant<hotId>(); else r += kh.get_specialization_constant<pairHotId>().b;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 40;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 41;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 42;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 43;
      if (r & 4) r ^= kh.get_specialization_constant<hotId>(); else r += kh.get_specialization_constant<pairHotId>().b;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 45;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 46;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 47;
      r = r * 3 + kh.get_specialization_constant<hotId>() + 48;
      if (r & 1) r ^= kh.get_specialization_constant<hotId>(); else r += kh.get_specialization_constant<pairHotId>().b;
      out[i] = r;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KCold>([=](sycl::kernel_handler kh) {
      dout[0] = kh.get_specialization_constant<onlySecondId>() + (float)kh.get_specialization_constant<hotId>();
    });
  });
}
