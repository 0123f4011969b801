// 112 specialization constants of mixed types read by kernels sharing them unevenly: bool, char,
// unsigned char, short, int, unsigned int, long long, float, double, vec<int, 4>, marray<short, 3>,
// std::array<int, 4>, an int enum class, a char enum class, a struct holding an array of structs
// (Outer { Inner in[2]; short s; }, Inner { char c; int a[2]; }) and std::array<Inner, 2>, seven of
// each (sc_N has type N % 16). KAll reads all 112, KEven the even-numbered ones (doubles among
// them: fp64), KThird every third one without the doubles, KFew six scattered ones, KTail
// sc_96..sc_111 (one double), KNone none: per-image spec-constant numbering, composite
// descriptors and default-value blobs in every split mode. Each kernel writes
// out[0] = sum over its constants of (N + 1) * cs(sc_N), cs = the sum of the scalar members
// (float as (long long)(2v), double as (long long)(4v)).
#include <array>
#include <sycl/sycl.hpp>
struct Inner { char c; int a[2]; };
struct Outer { Inner in[2]; short s; };
enum class Color : int { Red = 1, Green = 2, Blue = 4 };
enum class Tiny : char {};
static inline long long cs(bool v) { return v ? 1 : 0; }
static inline long long cs(char v) { return v; }
static inline long long cs(unsigned char v) { return v; }
static inline long long cs(short v) { return v; }
static inline long long cs(int v) { return v; }
static inline long long cs(unsigned int v) { return v; }
static inline long long cs(long long v) { return v; }
static inline long long cs(float v) { return static_cast<long long>(2.0f * v); }
static inline long long cs(double v) { return static_cast<long long>(4.0 * v); }
static inline long long cs(const sycl::vec<int, 4> &v) { return static_cast<long long>(v[0]) + v[1] + v[2] + v[3]; }
static inline long long cs(const sycl::marray<short, 3> &v) { return static_cast<long long>(v[0]) + v[1] + v[2]; }
static inline long long cs(const std::array<int, 4> &v) { return static_cast<long long>(v[0]) + v[1] + v[2] + v[3]; }
static inline long long cs(Color v) { return static_cast<int>(v); }
static inline long long cs(Tiny v) { return static_cast<char>(v); }
static inline long long cs(const Inner &v) { return static_cast<long long>(v.c) + v.a[0] + v.a[1]; }
static inline long long cs(const Outer &v) { return cs(v.in[0]) + cs(v.in[1]) + v.s; }
static inline long long cs(const std::array<Inner, 2> &v) { return cs(v[0]) + cs(v[1]); }
constexpr sycl::specialization_id<bool> sc_0(false);
constexpr sycl::specialization_id<char> sc_1(1);
constexpr sycl::specialization_id<unsigned char> sc_2(202);
constexpr sycl::specialization_id<short> sc_3(-9);
constexpr sycl::specialization_id<int> sc_4(4007);
constexpr sycl::specialization_id<unsigned int> sc_5(3000000005u);
constexpr sycl::specialization_id<long long> sc_6((1LL << 40) + 6);
constexpr sycl::specialization_id<float> sc_7(7.5f);
constexpr sycl::specialization_id<double> sc_8(8.25);
constexpr sycl::specialization_id<sycl::vec<int, 4>> sc_9(sycl::vec<int, 4>{9, 10, 11, 12});
constexpr sycl::specialization_id<sycl::marray<short, 3>> sc_10(sycl::marray<short, 3>{10, 20, 30});
constexpr sycl::specialization_id<std::array<int, 4>> sc_11(std::array<int, 4>{11, -11, 22, 5});
constexpr sycl::specialization_id<Color> sc_12(Color::Red);
constexpr sycl::specialization_id<Tiny> sc_13(Tiny(110));
constexpr sycl::specialization_id<Outer> sc_14(Outer{{Inner{0, {14, 15}}, Inner{1, {2, 3}}}, 14});
constexpr sycl::specialization_id<std::array<Inner, 2>> sc_15(std::array<Inner, 2>{Inner{0, {15, 4}}, Inner{0, {5, 30}}});
constexpr sycl::specialization_id<bool> sc_16(true);
constexpr sycl::specialization_id<char> sc_17(17);
constexpr sycl::specialization_id<unsigned char> sc_18(218);
constexpr sycl::specialization_id<short> sc_19(-57);
constexpr sycl::specialization_id<int> sc_20(20007);
constexpr sycl::specialization_id<unsigned int> sc_21(3000000021u);
constexpr sycl::specialization_id<long long> sc_22((1LL << 40) + 22);
constexpr sycl::specialization_id<float> sc_23(23.5f);
constexpr sycl::specialization_id<double> sc_24(24.25);
constexpr sycl::specialization_id<sycl::vec<int, 4>> sc_25(sycl::vec<int, 4>{25, 26, 27, 28});
constexpr sycl::specialization_id<sycl::marray<short, 3>> sc_26(sycl::marray<short, 3>{26, 52, 78});
constexpr sycl::specialization_id<std::array<int, 4>> sc_27(std::array<int, 4>{27, -27, 54, 5});
constexpr sycl::specialization_id<Color> sc_28(Color::Green);
constexpr sycl::specialization_id<Tiny> sc_29(Tiny(106));
constexpr sycl::specialization_id<Outer> sc_30(Outer{{Inner{2, {30, 31}}, Inner{1, {2, 3}}}, 30});
constexpr sycl::specialization_id<std::array<Inner, 2>> sc_31(std::array<Inner, 2>{Inner{1, {31, 4}}, Inner{1, {5, 62}}});
constexpr sycl::specialization_id<bool> sc_32(true);
constexpr sycl::specialization_id<char> sc_33(33);
constexpr sycl::specialization_id<unsigned char> sc_34(234);
constexpr sycl::specialization_id<short> sc_35(-105);
constexpr sycl::specialization_id<int> sc_36(36007);
constexpr sycl::specialization_id<unsigned int> sc_37(3000000037u);
constexpr sycl::specialization_id<long long> sc_38((1LL << 40) + 38);
constexpr sycl::specialization_id<float> sc_39(39.5f);
constexpr sycl::specialization_id<double> sc_40(40.25);
constexpr sycl::specialization_id<sycl::vec<int, 4>> sc_41(sycl::vec<int, 4>{41, 42, 43, 44});
constexpr sycl::specialization_id<sycl::marray<short, 3>> sc_42(sycl::marray<short, 3>{42, 84, 126});
constexpr sycl::specialization_id<std::array<int, 4>> sc_43(std::array<int, 4>{43, -43, 86, 5});
constexpr sycl::specialization_id<Color> sc_44(Color::Blue);
constexpr sycl::specialization_id<Tiny> sc_45(Tiny(102));
constexpr sycl::specialization_id<Outer> sc_46(Outer{{Inner{4, {46, 47}}, Inner{1, {2, 3}}}, 46});
constexpr sycl::specialization_id<std::array<Inner, 2>> sc_47(std::array<Inner, 2>{Inner{2, {47, 4}}, Inner{2, {5, 94}}});
constexpr sycl::specialization_id<bool> sc_48(false);
constexpr sycl::specialization_id<char> sc_49(49);
constexpr sycl::specialization_id<unsigned char> sc_50(200);
constexpr sycl::specialization_id<short> sc_51(-153);
constexpr sycl::specialization_id<int> sc_52(52007);
constexpr sycl::specialization_id<unsigned int> sc_53(3000000053u);
constexpr sycl::specialization_id<long long> sc_54((1LL << 40) + 54);
constexpr sycl::specialization_id<float> sc_55(55.5f);
constexpr sycl::specialization_id<double> sc_56(56.25);
constexpr sycl::specialization_id<sycl::vec<int, 4>> sc_57(sycl::vec<int, 4>{57, 58, 59, 60});
constexpr sycl::specialization_id<sycl::marray<short, 3>> sc_58(sycl::marray<short, 3>{58, 116, 174});
constexpr sycl::specialization_id<std::array<int, 4>> sc_59(std::array<int, 4>{59, -59, 118, 5});
constexpr sycl::specialization_id<Color> sc_60(Color::Red);
constexpr sycl::specialization_id<Tiny> sc_61(Tiny(98));
constexpr sycl::specialization_id<Outer> sc_62(Outer{{Inner{6, {62, 63}}, Inner{1, {2, 3}}}, 62});
constexpr sycl::specialization_id<std::array<Inner, 2>> sc_63(std::array<Inner, 2>{Inner{3, {63, 4}}, Inner{0, {5, 126}}});
constexpr sycl::specialization_id<bool> sc_64(true);
constexpr sycl::specialization_id<char> sc_65(15);
constexpr sycl::specialization_id<unsigned char> sc_66(216);
constexpr sycl::specialization_id<short> sc_67(-201);
constexpr sycl::specialization_id<int> sc_68(68007);
constexpr sycl::specialization_id<unsigned int> sc_69(3000000069u);
constexpr sycl::specialization_id<long long> sc_70((1LL << 40) + 70);
constexpr sycl::specialization_id<float> sc_71(71.5f);
constexpr sycl::specialization_id<double> sc_72(72.25);
constexpr sycl::specialization_id<sycl::vec<int, 4>> sc_73(sycl::vec<int, 4>{73, 74, 75, 76});
constexpr sycl::specialization_id<sycl::marray<short, 3>> sc_74(sycl::marray<short, 3>{74, 148, 222});
constexpr sycl::specialization_id<std::array<int, 4>> sc_75(std::array<int, 4>{75, -75, 150, 5});
constexpr sycl::specialization_id<Color> sc_76(Color::Green);
constexpr sycl::specialization_id<Tiny> sc_77(Tiny(114));
constexpr sycl::specialization_id<Outer> sc_78(Outer{{Inner{1, {78, 79}}, Inner{1, {2, 3}}}, 78});
constexpr sycl::specialization_id<std::array<Inner, 2>> sc_79(std::array<Inner, 2>{Inner{4, {79, 4}}, Inner{1, {5, 158}}});
constexpr sycl::specialization_id<bool> sc_80(true);
constexpr sycl::specialization_id<char> sc_81(31);
constexpr sycl::specialization_id<unsigned char> sc_82(232);
constexpr sycl::specialization_id<short> sc_83(-249);
constexpr sycl::specialization_id<int> sc_84(84007);
constexpr sycl::specialization_id<unsigned int> sc_85(3000000085u);
constexpr sycl::specialization_id<long long> sc_86((1LL << 40) + 86);
constexpr sycl::specialization_id<float> sc_87(87.5f);
constexpr sycl::specialization_id<double> sc_88(88.25);
constexpr sycl::specialization_id<sycl::vec<int, 4>> sc_89(sycl::vec<int, 4>{89, 90, 91, 92});
constexpr sycl::specialization_id<sycl::marray<short, 3>> sc_90(sycl::marray<short, 3>{90, 180, 270});
constexpr sycl::specialization_id<std::array<int, 4>> sc_91(std::array<int, 4>{91, -91, 182, 5});
constexpr sycl::specialization_id<Color> sc_92(Color::Blue);
constexpr sycl::specialization_id<Tiny> sc_93(Tiny(110));
constexpr sycl::specialization_id<Outer> sc_94(Outer{{Inner{3, {94, 95}}, Inner{1, {2, 3}}}, 94});
constexpr sycl::specialization_id<std::array<Inner, 2>> sc_95(std::array<Inner, 2>{Inner{0, {95, 4}}, Inner{2, {5, 190}}});
constexpr sycl::specialization_id<bool> sc_96(false);
constexpr sycl::specialization_id<char> sc_97(47);
constexpr sycl::specialization_id<unsigned char> sc_98(248);
constexpr sycl::specialization_id<short> sc_99(-297);
constexpr sycl::specialization_id<int> sc_100(100007);
constexpr sycl::specialization_id<unsigned int> sc_101(3000000101u);
constexpr sycl::specialization_id<long long> sc_102((1LL << 40) + 102);
constexpr sycl::specialization_id<float> sc_103(103.5f);
constexpr sycl::specialization_id<double> sc_104(104.25);
constexpr sycl::specialization_id<sycl::vec<int, 4>> sc_105(sycl::vec<int, 4>{105, 106, 107, 108});
constexpr sycl::specialization_id<sycl::marray<short, 3>> sc_106(sycl::marray<short, 3>{106, 212, 318});
constexpr sycl::specialization_id<std::array<int, 4>> sc_107(std::array<int, 4>{107, -107, 214, 5});
constexpr sycl::specialization_id<Color> sc_108(Color::Red);
constexpr sycl::specialization_id<Tiny> sc_109(Tiny(106));
constexpr sycl::specialization_id<Outer> sc_110(Outer{{Inner{5, {110, 111}}, Inner{1, {2, 3}}}, 110});
constexpr sycl::specialization_id<std::array<Inner, 2>> sc_111(std::array<Inner, 2>{Inner{1, {111, 4}}, Inner{0, {5, 222}}});
#define R(n) s += (n + 1) * cs(kh.get_specialization_constant<sc_##n>());
class KAll;
class KEven;
class KThird;
class KFew;
class KTail;
class KNone;
void run(sycl::queue &q, long long *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KAll>([=](sycl::kernel_handler kh) {
      long long s = 0;
      R(0) R(1) R(2) R(3) R(4) R(5) R(6) R(7) R(8) R(9) R(10) R(11) R(12) R(13) R(14) R(15) R(16)
      R(17) R(18) R(19) R(20) R(21) R(22) R(23) R(24) R(25) R(26) R(27) R(28) R(29) R(30) R(31)
      R(32) R(33) R(34) R(35) R(36) R(37) R(38) R(39) R(40) R(41) R(42) R(43) R(44) R(45) R(46)
      R(47) R(48) R(49) R(50) R(51) R(52) R(53) R(54) R(55) R(56) R(57) R(58) R(59) R(60) R(61)
      R(62) R(63) R(64) R(65) R(66) R(67) R(68) R(69) R(70) R(71) R(72) R(73) R(74) R(75) R(76)
      R(77) R(78) R(79) R(80) R(81) R(82) R(83) R(84) R(85) R(86) R(87) R(88) R(89) R(90) R(91)
      R(92) R(93) R(94) R(95) R(96) R(97) R(98) R(99) R(100) R(101) R(102) R(103) R(104) R(105)
      R(106) R(107) R(108) R(109) R(110) R(111)
      out[0] = s;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KEven>([=](sycl::kernel_handler kh) {
      long long s = 0;
      R(0) R(2) R(4) R(6) R(8) R(10) R(12) R(14) R(16) R(18) R(20) R(22) R(24) R(26) R(28) R(30)
      R(32) R(34) R(36) R(38) R(40) R(42) R(44) R(46) R(48) R(50) R(52) R(54) R(56) R(58) R(60)
      R(62) R(64) R(66) R(68) R(70) R(72) R(74) R(76) R(78) R(80) R(82) R(84) R(86) R(88) R(90)
      R(92) R(94) R(96) R(98) R(100) R(102) R(104) R(106) R(108) R(110)
      out[0] = s;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KThird>([=](sycl::kernel_handler kh) {
      long long s = 0;
      R(0) R(3) R(6) R(9) R(12) R(15) R(18) R(21) R(27) R(30) R(33) R(36) R(39) R(42) R(45) R(48)
      R(51) R(54) R(57) R(60) R(63) R(66) R(69) R(75) R(78) R(81) R(84) R(87) R(90) R(93) R(96)
      R(99) R(102) R(105) R(108) R(111)
      out[0] = s;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KFew>([=](sycl::kernel_handler kh) {
      long long s = 0;
      R(5) R(17) R(33) R(64) R(99) R(111)
      out[0] = s;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KTail>([=](sycl::kernel_handler kh) {
      long long s = 0;
      R(96) R(97) R(98) R(99) R(100) R(101) R(102) R(103) R(104) R(105) R(106) R(107) R(108)
      R(109) R(110) R(111)
      out[0] = s;
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KNone>([=] { out[0] = 12345; }); });
}
