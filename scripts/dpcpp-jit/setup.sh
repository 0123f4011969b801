# Sourced by scripts/gen-dpcpp-testdata.sh and scripts/gen-backend-testdata.sh (needs $repo):
# fetches the intel-sycl-rt and intel-cmplr-lib-rt wheels of DPC++ $version (default 2026.2.0;
# ~200 MB) once into $repo/.dpcpp-jit/ with the venv's pip, builds jitc with g++, and sets $lib
# (libsycl-jit.so), $jitc, $extra_flags and LD_LIBRARY_PATH. Also provides case_source CASE: sets
# $src and the array $flags from testdata/dpcpp/CASE (its source.cpp's `// gen:` line, or its
# `variant` file).
#
# Other versions with the same compileSYCL interface work too (2026.1.x, 2026.0.0, 2025.3.x; not
# 2025.2 and older, whose compileSYCL lacks the BinaryFormat parameter): before 2026.0 the front
# end is not inside libsycl-jit.so — it reads the headers and clang's resource directory from the
# wheel's tree, found from its own path, and expects a bin directory beside lib (so the whole
# wheel is unpacked, and $lib is the file's real path) — and the wheel ships its device
# libraries only as SPIR-V, not as the bitcode the front end links: those versions compile with
# -fno-sycl-device-lib=all ($extra_flags).
for t in g++ unzip; do
  command -v "$t" >/dev/null || { echo "error: $t not found" >&2; exit 2; }
done
pip="$repo/.venv/bin/pip"
[ -x "$pip" ] || { echo "error: $pip not found: run scripts/setup.sh first" >&2; exit 2; }
version="${version:-2026.2.0}"
cache="$repo/.dpcpp-jit"
extra_flags=()
if [ "$version" = 2026.2.0 ]; then
  # (The layout of the first version used: only the library is unpacked.)
  lib="$cache/sycl/intel_sycl_rt-$version.data/data/lib/libsycl-jit.so.23.1"
  rt="$cache/rt/intel_cmplr_lib_rt-$version.data/data/lib"
  if [ ! -f "$lib" ] || [ ! -d "$rt" ]; then
    mkdir -p "$cache/wheels"
    "$pip" download --quiet --no-deps -d "$cache/wheels" "intel-sycl-rt==$version" "intel-cmplr-lib-rt==$version"
    unzip -q -o "$cache"/wheels/intel_sycl_rt-$version-*.whl "intel_sycl_rt-$version.data/data/lib/libsycl-jit.so*" -d "$cache/sycl"
    unzip -q -o "$cache"/wheels/intel_cmplr_lib_rt-$version-*.whl -d "$cache/rt"
  fi
else
  data="$cache/$version/sycl/intel_sycl_rt-$version.data/data"
  rt="$cache/$version/rt/intel_cmplr_lib_rt-$version.data/data/lib"
  if [ ! -d "$data/lib" ] || [ ! -d "$rt" ]; then
    mkdir -p "$cache/$version/wheels"
    "$pip" download --quiet --no-deps -d "$cache/$version/wheels" "intel-sycl-rt==$version" "intel-cmplr-lib-rt==$version"
    unzip -q -o "$cache/$version"/wheels/intel_sycl_rt-$version-*.whl -d "$cache/$version/sycl"
    unzip -q -o "$cache/$version"/wheels/intel_cmplr_lib_rt-$version-*.whl -d "$cache/$version/rt"
    rm -rf "$cache/$version/wheels"
  fi
  mkdir -p "$data/bin"
  lib="$(realpath "$(ls "$data"/lib/libsycl-jit.so.* | head -1)")"
  case "$version" in 2025.*) extra_flags=(-fno-sycl-device-lib=all) ;; esac
fi
jitc="$cache/jitc"
if [ ! -x "$jitc" ] || [ "$repo/scripts/dpcpp-jit/jitc.cpp" -nt "$jitc" ]; then
  g++ -O1 -std=c++17 -Wall -o "$jitc" "$repo/scripts/dpcpp-jit/jitc.cpp" -ldl
fi
export LD_LIBRARY_PATH="$rt${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

case_source() {
  local dir="$repo/testdata/dpcpp/$1" base rest
  if [ -f "$dir/variant" ]; then
    read -r base rest <"$dir/variant"
    src="$repo/testdata/dpcpp/$base/source.cpp"
    read -r -a flags <<<"$rest"
  else
    src="$dir/source.cpp"
    read -r -a flags <<<"$(sed -n 's|^// gen: *||p' "$src" 2>/dev/null | head -1)"
  fi
  [ -f "$src" ] || { echo "error: $src not found" >&2; exit 2; }
}
