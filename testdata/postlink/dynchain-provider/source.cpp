// The other translation unit of `dynchain`: defines the SYCL_EXTERNAL function `dynchain` only
// declares (ext_c, at the end of its chain ext_a -> ext_b -> ext_c), with
// -fsycl-allow-device-image-dependencies. Its images hold no kernel, only the exported function.
#include <sycl/sycl.hpp>
SYCL_EXTERNAL int ext_c(int x) { return x * 3 + 4; }
