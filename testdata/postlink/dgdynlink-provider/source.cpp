// The other translation unit of `dgdynlink`: defines the SYCL_EXTERNAL function `dgdynlink` only
// declares (ext_elsewhere), with -fsycl-allow-device-image-dependencies. Its images hold no
// kernel, only the exported function.
#include <sycl/sycl.hpp>
SYCL_EXTERNAL int ext_elsewhere(int x) { return x * 11 + 2; }
