# Sourced by scripts/gen-dpcpp-testdata.sh and scripts/gen-backend-testdata.sh (needs $repo):
# fetches the intel-sycl-rt and intel-cmplr-lib-rt 2026.2.0 wheels (~200 MB) once into
# $repo/.dpcpp-jit/ with the venv's pip, builds jitc with g++, and sets $lib (libsycl-jit.so),
# $jitc and LD_LIBRARY_PATH. Also provides case_source CASE: sets $src and the array $flags
# from testdata/dpcpp/CASE (its source.cpp's `// gen:` line, or its `variant` file).
for t in g++ unzip; do
  command -v "$t" >/dev/null || { echo "error: $t not found" >&2; exit 2; }
done
pip="$repo/.venv/bin/pip"
[ -x "$pip" ] || { echo "error: $pip not found: run scripts/setup.sh first" >&2; exit 2; }
cache="$repo/.dpcpp-jit"
lib="$cache/sycl/intel_sycl_rt-2026.2.0.data/data/lib/libsycl-jit.so.23.1"
rt="$cache/rt/intel_cmplr_lib_rt-2026.2.0.data/data/lib"
if [ ! -f "$lib" ] || [ ! -d "$rt" ]; then
  mkdir -p "$cache/wheels"
  "$pip" download --quiet --no-deps -d "$cache/wheels" intel-sycl-rt==2026.2.0 intel-cmplr-lib-rt==2026.2.0
  unzip -q -o "$cache"/wheels/intel_sycl_rt-2026.2.0-*.whl 'intel_sycl_rt-2026.2.0.data/data/lib/libsycl-jit.so*' -d "$cache/sycl"
  unzip -q -o "$cache"/wheels/intel_cmplr_lib_rt-2026.2.0-*.whl -d "$cache/rt"
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
