// clang-composites: struct spec constants returned through sret (interior and tail padding,
// nesting, arrays, a float3 member, a packed struct, char3/half/bool/long members), a vector
// spec constant returned by value, and default-value initializers of several shapes
// (zeroinitializer, a partially initialized array, an initializer type flatter than the
// value type), at -O1.
// Built by scripts/gen-clang-testdata.sh (clang-15 + llvm-spirv-15, NOT a SYCL compiler).
// gen: -O1 --spirv-max-version=1.4
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

struct Pad { char c; int i; double d; };          // c@0, pad 1..3, i@4, d@8; size 16
struct Tail { double d; int i; };                 // d@0, i@8, tail pad 12..15; size 16
struct Nested {                                   // size 40, align 8
  short s;                                        // @0, pad 2..7
  struct Pad p;                                   // @8: p.c@8, p.i@12, p.d@16
  char tag[3];                                    // @24..26, pad 27
  int arr[2];                                     // @28, @32; tail pad 36..39
};
struct V3 { float3 v; int i; };                   // v@0 (x@0 y@4 z@8, 12..15 unused), i@16,
                                                  // tail pad 20..31; size 32, align 16
struct Inner { double d; char c; };               // d@0, c@8, tail pad 9..15; size 16
struct Outer { struct Inner in; int x; };         // in@0, x@16, tail pad 20..23; size 24
struct __attribute__((packed)) Pk { char c; int i; short s; };   // c@0, i@1, s@5; size 7
struct M { char3 c3; half h; bool b; long l; };   // c3@0 (3 lanes + 1 unused), h@4, b@6,
                                                  // pad 7, l@8; size 16
struct Big { int a; int arr[16]; };               // a@0, arr@4..67; size 68

typedef struct { struct Pad value; } sid_Pad;
typedef struct { struct Tail value; } sid_Tail;
typedef struct { struct Nested value; } sid_Nested;
typedef struct { struct V3 value; } sid_V3;
typedef struct { int4 value; } sid_int4;
typedef struct { struct Outer value; } sid_Outer;
typedef struct { struct Pk value; } sid_Pk;
typedef struct { struct M value; } sid_M;
typedef struct { struct Big value; } sid_Big;

// Composite markers. Structs come back through an sret pointer (clang's SPIR ABI returns
// every aggregate indirectly); the int4 vector comes back by value.
struct Pad get_Pad(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueI3PadET_PKcPKvS5_");
struct Tail get_Tail(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueI4TailET_PKcPKvS5_");
struct Nested get_Nested(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueI6NestedET_PKcPKvS5_");
struct V3 get_V3(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueI2V3ET_PKcPKvS5_");
int4 get_int4(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueIDv4_iET_PKcPKvS5_");
struct Outer get_Outer(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueI5OuterET_PKcPKvS5_");
struct Pk get_Pk(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueI2PkET_PKcPKvS5_");
struct M get_M(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueI1MET_PKcPKvS5_");
struct Big get_Big(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueI3BigET_PKcPKvS5_");

static __global const char usid_pad[] = "uid0123456789abcdef____ZL5padId";
static __global const char usid_tail[] = "uid0123456789abcdef____ZL6tailId";
static __global const char usid_nested[] = "uid0123456789abcdef____ZL8nestedId";
static __global const char usid_v3[] = "uid0123456789abcdef____ZL4v3Id";
static __global const char usid_vec[] = "uid0123456789abcdef____ZL5vecId";
static __global const char usid_outer[] = "uid0123456789abcdef____ZL7outerId";
static __global const char usid_pk[] = "uid0123456789abcdef____ZL4pkId";
static __global const char usid_m[] = "uid0123456789abcdef____ZL3mId";
static __global const char usid_zpad[] = "uid0123456789abcdef____ZL8zeroPadId";
static __global const char usid_big[] = "uid0123456789abcdef____ZL5bigId";

static __global const sid_Pad padId = {{'x', -7, 0.5}};
static __global const sid_Tail tailId = {{-1.5, 0x01020304}};
static __global const sid_Nested nestedId = {{0x7f01, {'q', 100, -2.0}, {'a', 'b', 'c'}, {11, -12}}};
static __global const sid_V3 v3Id = {{(float3)(1.0f, 2.0f, 3.0f), 77}};
static __global const sid_int4 vecId = {(int4)(1, 2, 3, 4)};
static __global const sid_Outer outerId = {{{1.0, 'z'}, 9}};
static __global const sid_Pk pkId = {{'a', 0x11223344, 0x5566}};
static __global const sid_M mId = {{(char3)(1, 2, 3), 1.5h, true, -9L}};
static __global const sid_Pad zeroPadId = {{0}};   // all zero: LLVM zeroinitializer -> OpConstantNull
static __global const sid_Big bigId = {{5, {1, 2}}};  // LLVM initializer <{ i32, i32, [14 x i32] }>

#define PUT(T, base, off, val) (*(__global T *)((base) + (off)) = (val))

// Every member is written at its own C offset (out: Pad@0, Tail@16, V3@32; out2: Nested@0,
// int4@48; out3: Outer@0, M@24, zeroPad@40); padding bytes are never written and stay 0.
// d: values computed from members, Big's and Pk's members.
__kernel void Composites(__global uchar *out, __global uchar *out2, __global int *d,
                         __global uchar *out3) {
  struct Pad p = get_Pad(usid_pad, &padId, 0);
  struct Tail t = get_Tail(usid_tail, &tailId, 0);
  struct Nested n = get_Nested(usid_nested, &nestedId, 0);
  struct V3 v = get_V3(usid_v3, &v3Id, 0);
  int4 q = get_int4(usid_vec, &vecId, 0);
  struct Outer o = get_Outer(usid_outer, &outerId, 0);
  struct Pk k = get_Pk(usid_pk, &pkId, 0);
  struct M m = get_M(usid_m, &mId, 0);
  struct Pad z = get_Pad(usid_zpad, &zeroPadId, 0);   // same type as padId, other symbolic ID
  struct Big g = get_Big(usid_big, &bigId, 0);

  PUT(char, out, 0, p.c);
  PUT(int, out, 4, p.i);
  PUT(double, out, 8, p.d);

  PUT(double, out, 16, t.d);
  PUT(int, out, 24, t.i);

  PUT(float, out, 32, v.v.x);
  PUT(float, out, 36, v.v.y);
  PUT(float, out, 40, v.v.z);
  PUT(int, out, 48, v.i);

  PUT(short, out2, 0, n.s);
  PUT(char, out2, 8, n.p.c);
  PUT(int, out2, 12, n.p.i);
  PUT(double, out2, 16, n.p.d);
  PUT(char, out2, 24, n.tag[0]);
  PUT(char, out2, 25, n.tag[1]);
  PUT(char, out2, 26, n.tag[2]);
  PUT(int, out2, 28, n.arr[0]);
  PUT(int, out2, 32, n.arr[1]);

  PUT(int4, out2, 48, q);

  d[0] = p.c + p.i;                       // char sign-extended, then added
  d[1] = (int)(p.d * 8.0 + t.d * 2.0);
  d[2] = t.i >> 8;
  d[3] = n.s + n.arr[0] * n.arr[1];
  d[4] = (int)(n.p.d * 10.0) + n.p.i + n.tag[2];
  d[5] = (int)(v.v.x + v.v.y * 10.0f + v.v.z * 100.0f) + v.i;
  d[6] = q.x + q.y * 10 + q.z * 100 + q.w * 1000;

  PUT(double, out3, 0, o.in.d);
  PUT(char, out3, 8, o.in.c);
  PUT(int, out3, 16, o.x);
  PUT(char, out3, 24, m.c3.x);
  PUT(char, out3, 25, m.c3.y);
  PUT(char, out3, 26, m.c3.z);
  PUT(half, out3, 28, m.h);
  PUT(uchar, out3, 30, m.b);              // bool member: 1 or 0
  PUT(long, out3, 32, m.l);
  PUT(char, out3, 40, z.c);
  PUT(int, out3, 44, z.i);
  PUT(double, out3, 48, z.d);

  d[7] = g.a;
  d[8] = g.arr[0];
  d[9] = g.arr[1];
  d[10] = g.arr[2];
  d[11] = g.arr[15];
  d[12] = k.c;
  d[13] = k.i;
  d[14] = k.s;
}
