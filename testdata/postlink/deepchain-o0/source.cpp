// The source of deepchain compiled with -O0 (no inlining, no folding: KDeadDbl's double branch
// stays). The deepchain comment follows.
// A six-level noinline call chain l1 -> l2 -> ... -> l6 shared by kernels entering it at
// different depths (KTop at l1, KMid at l4, KLeaf at l6); l3 uses a double only in a branch taken
// when its argument is negative, so the aspect travels to the callers of l3 only; l5 uses half
// only in a branch; a kernel with a double only in a runtime branch (KBranchDbl); a kernel whose
// double branch is under a condition the optimiser folds away (KDeadDbl); a kernel with no
// helper (KPlain).
#include <sycl/sycl.hpp>
class KTop;
class KMid;
class KLeaf;
class KBranchDbl;
class KDeadDbl;
class KPlain;
__attribute__((noinline)) int l6(int x) { return x * 3 + 1; }
__attribute__((noinline)) int l5(int x) {
  if (x > 1000) return (int)(sycl::half(x) * sycl::half(0.5f));
  return l6(x) + 2;
}
__attribute__((noinline)) int l4(int x) { return l5(x - 1) ^ 4; }
__attribute__((noinline)) int l3(int x) {
  if (x < 0) return (int)((double)x * 1.5);
  return l4(x) + 10;
}
__attribute__((noinline)) int l2(int x) { return l3(x * 2) - 1; }
__attribute__((noinline)) int l1(int x) { return l2(x + 1) * 2; }
void run(sycl::queue &q, int *a, double *d) {
  // a[0] = l1(a[0]); with a[0] = 3: l2(4) = l3(8) - 1; l3(8) = l4(8) + 10; l4(8) = l5(7) ^ 4;
  // l5(7) = l6(7) + 2 = 22 + 2 = 24; l4 = 24 ^ 4 = 28; l3 = 38; l2 = 37; l1 = 74
  q.submit([&](sycl::handler &h) { h.single_task<KTop>([=] { a[0] = l1(a[0]); }); });
  // a[1] = l4(a[1]); with a[1] = 5: l5(4) = l6(4) + 2 = 15; 15 ^ 4 = 11
  q.submit([&](sycl::handler &h) { h.single_task<KMid>([=] { a[1] = l4(a[1]); }); });
  // a[2] = l6(a[2]); with a[2] = 9: 28
  q.submit([&](sycl::handler &h) { h.single_task<KLeaf>([=] { a[2] = l6(a[2]); }); });
  // d[0] = a[3] > 0 ? a[3] / 4.0 : -1; with a[3] = 6: 1.5
  q.submit([&](sycl::handler &h) { h.single_task<KBranchDbl>([=] { if (a[3] > 0) d[0] = a[3] / 4.0; else d[0] = -1.0; }); });
  // a[4] = a[4] + 1 (the double branch is dead: k is 0)
  q.submit([&](sycl::handler &h) {
    h.single_task<KDeadDbl>([=] {
      int k = 0;
      if (k) a[4] = (int)(a[4] * 2.5);
      else a[4] = a[4] + 1;
    });
  });
  // a[5] = 77
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[5] = 77; }); });
}
