// Structs copied in device code in ways the front end turns into LLVM intrinsics before lowering:
// std::memcpy of a struct, std::memset of an array, std::array copy and fill, sycl::bit_cast of
// float to int and of a struct to long, and aggregate assignment of a large struct; spread over a
// deep helper call graph shared unevenly: a diamond (top -> left/right -> bottom) used by two
// kernels, a helper every kernel uses, one used by one kernel only, and a kernel calling no helper.
#include <array>
#include <cstring>
#include <sycl/sycl.hpp>
struct Pair { int a; float b; };
struct Big { int v[12]; float w[4]; };
__attribute__((noinline)) int common_mix(int x) { return x * 31 + 7; }
__attribute__((noinline)) int bottom(const Big &b) {
  int s = 0;
  for (int i = 0; i < 12; ++i) s += b.v[i];
  return common_mix(s);
}
__attribute__((noinline)) int left(Big b) { Big c = b; c.v[0] += 1; return bottom(c); }
__attribute__((noinline)) int right(const int *src) {
  Big b;
  std::memset(&b, 0, sizeof(b));
  std::memcpy(b.v, src, 6 * sizeof(int));
  return bottom(b);
}
__attribute__((noinline)) int top(const int *src) {
  Big b{};
  for (int i = 0; i < 12; ++i) b.v[i] = src[i];
  return left(b) + right(src);
}
__attribute__((noinline)) int only_k3(std::array<int, 8> a) {
  std::array<int, 8> c = a;
  c.fill(c[0] + 1);
  return c[7] + common_mix(a[1]);
}
class K1;
class K2;
class K3;
class K4;
class K5;
void run(sycl::queue &q, int *x, float *f, long *l) {
  q.submit([&](sycl::handler &h) { h.single_task<K1>([=] { x[100] = top(x) + common_mix(1); }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<K2>([=] {
      Pair p;
      std::memcpy(&p, x, sizeof(p));
      p.a += top(x + 12);
      std::memcpy(x + 101, &p, sizeof(p));
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<K3>([=] {
      std::array<int, 8> a;
      for (int i = 0; i < 8; ++i) a[i] = x[i];
      x[103] = only_k3(a) + sycl::bit_cast<int>(f[0]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<K4>([=] {
      Pair p{x[0], f[1]};
      l[0] = sycl::bit_cast<long>(p) + common_mix(x[2]);
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<K5>([=] { int buf[16]; std::memset(buf, 0, sizeof(buf)); buf[x[0] & 15] = 1; x[104] = buf[3]; }); });
}
