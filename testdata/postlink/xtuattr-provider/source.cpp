// The other translation unit of `xtuattr`, with -fsycl-allow-device-image-dependencies: defines
// the SYCL_EXTERNAL functions `xtuattr` only declares, one with a double signature (prov_scale),
// one using half inside (prov_half), one plain (prov_plain). Its images hold no kernel.
#include <sycl/sycl.hpp>
SYCL_EXTERNAL double prov_scale(double x) { return x * 2.5 + 0.5; }
SYCL_EXTERNAL int prov_half(int x) { return (int)(sycl::half(x) * sycl::half(1.5f)); }
SYCL_EXTERNAL int prov_plain(int x) { return x * 7 - 3; }
