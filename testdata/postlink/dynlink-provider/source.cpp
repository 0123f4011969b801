// The other translation unit of `dynlink`: defines the SYCL_EXTERNAL function `dynlink` only
// declares (ext_declared), with -fsycl-allow-device-image-dependencies. Its images hold no kernel,
// only the exported function; registered together with dynlink's images they let KDyn run.
#include <sycl/sycl.hpp>
SYCL_EXTERNAL int ext_declared(int x) { return x * 7 - 1; }
