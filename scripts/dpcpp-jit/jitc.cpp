// jitc: compiles a SYCL source with the DPC++ 2026.2 compiler that the intel-sycl-rt 2026.2.0
// wheel embeds in libsycl-jit.so (for SYCL runtime compilation), by calling its C entry point
// compileSYCL directly, and writes each device image (imageN.spv), its kernels
// (imageN.kernels.txt) and its property sets (imageN.prop, DPC++'s .prop text format).
// A developer tool behind scripts/gen-dpcpp-testdata.sh; not built by CI.
//
// The images come out of DPC++'s post-link step with the spec-constant marker calls still in
// them (libsycl-jit does not run SpecConstantsPass). --spec-mode native|emulation|default runs
// the library's own llvm::SpecConstantsPass in that mode first, as sycl-post-link does, by
// redirecting performPostLink's call to llvm::sycl::computeModuleProperties through a hook
// (addresses from the library's unstripped .symtab). That part is tied to the builds it was
// checked on (libsycl-jit.so.23.1 of intel-sycl-rt 2026.2.0; also 2026.1, 2026.0 and 2025.3,
// whose compileSYCL has the same interface): the hook refuses to run when a symbol or the call
// site is not found exactly once.
//
// The ABI types mirror intel/llvm sycl-jit/jit-compiler/include/RTC.h,
// sycl-jit/common/include/{DynArray,View}.h, JITBinaryInfo.h and
// sycl/include/sycl/detail/string.hpp; compileSYCL's BinaryFormat parameter (newer than some
// published RTC.h) was read off the binary's disassembly.
//
// usage: jitc --lib PATH [--out DIR] [--save-ir] [--spec-mode none|native|emulation|default]
//             SOURCE.cpp [-- compiler args...]
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace abi {
struct String { char *str; };                       // sycl::detail::string
template <typename T> struct DynArray { T *Values; size_t Size; };
template <typename T> struct View { const T *Ptr; size_t Size; };
struct InMemoryFile { const char *Path; const char *Contents; };
enum class BinaryFormat : uint32_t { INVALID, LLVM, SPIRV, PTX, AMDGCN };
struct JITBinaryInfo {
  BinaryFormat Format; uint64_t AddressBits; const uint8_t *BinaryStart; uint64_t BinarySize;
};
struct FrozenPropertyValue {
  String Name; bool IsUIntValue; uint32_t UIntValue; DynArray<uint8_t> Bytes;
};
struct FrozenPropertySet { String Name; DynArray<FrozenPropertyValue> Values; };
struct RTCDevImgInfo {
  JITBinaryInfo BinaryInfo; DynArray<String> SymbolTable; DynArray<FrozenPropertySet> Properties;
};
struct RTCBundleInfo { DynArray<RTCDevImgInfo> DevImgInfos; String CompileOptions; };
enum class RTCErrorCode : int { SUCCESS, BUILD, INVALID };
struct RTCResult {
  RTCErrorCode ErrorCode; RTCBundleInfo BundleInfo; DynArray<char> DeviceCodeIR; String BuildLog;
};
static_assert(sizeof(JITBinaryInfo) == 32, "");
static_assert(sizeof(FrozenPropertyValue) == 32, "");
static_assert(sizeof(FrozenPropertySet) == 24, "");
static_assert(sizeof(RTCDevImgInfo) == 64, "");
static_assert(sizeof(RTCResult) == 56, "");
// RTCResult compileSYCL(InMemoryFile, View<InMemoryFile>, View<const char*>,
//                       View<char> CachedIR, bool SaveIR, BinaryFormat)
using compileSYCL_t = RTCResult (*)(InMemoryFile, View<InMemoryFile>, View<const char *>,
                                    View<char>, bool, BinaryFormat);
} // namespace abi

// ---------------------------------------------------------------------------
// Optional spec-constant lowering hook.  libsycl-jit's performPostLink() does
// NOT run SpecConstantsPass.  We patch its call to
// llvm::sycl::computeModuleProperties(...) so that, first, the library's own
// llvm::SpecConstantsPass::run(Module&, ModuleAnalysisManager&) is run on the
// split module in the requested mode (as sycl-post-link -spec-const=... does
// right before computing properties).  Addresses come from the library's
// (unstripped) .symtab.
static uintptr_t gBase = 0;
static int gSpecMode = -1;            // -1: no hook; else HandlingMode value
static void *gRealCMP = nullptr;      // real computeModuleProperties
static void *gSCPRun = nullptr;       // SpecConstantsPass::run
static void *gMAMCtor = nullptr;      // AnalysisManager<Module>::AnalysisManager()

struct SymTab { std::vector<std::pair<std::string, uint64_t>> syms; };

static bool readSymtab(const char *path, SymTab &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::vector<char> buf((std::istreambuf_iterator<char>(f)), {});
  auto *eh = reinterpret_cast<Elf64_Ehdr *>(buf.data());
  auto *sh = reinterpret_cast<Elf64_Shdr *>(buf.data() + eh->e_shoff);
  for (int i = 0; i < eh->e_shnum; ++i) {
    if (sh[i].sh_type != SHT_SYMTAB) continue;
    auto *syms = reinterpret_cast<Elf64_Sym *>(buf.data() + sh[i].sh_offset);
    size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
    const char *strtab = buf.data() + sh[sh[i].sh_link].sh_offset;
    for (size_t j = 0; j < n; ++j)
      if (syms[j].st_value && ELF64_ST_TYPE(syms[j].st_info) == STT_FUNC)
        out.syms.emplace_back(strtab + syms[j].st_name, syms[j].st_value);
  }
  return !out.syms.empty();
}

static uint64_t findSym(const SymTab &t, const std::string &name) {
  for (auto &s : t.syms) if (s.first == name) return s.second;
  return 0;
}

// Itanium/libc++ ABI: run(Module&, MAM&) returns PreservedAnalyses by sret.
using SCPRun_t = void (*)(void *sret, void *self, void *M, void *MAM);
using MAMCtor_t = void (*)(void *self);

// computeModuleProperties(Module const&, SetVector const&, GlobalBinImageProps const&, bool, int)
// returns PropertySetRegistry by sret -> (sret, M, entries, props, bool, int). Before 2026.2 it
// has no int; on x86-64 (System V) the extra argument is a register the callee never reads, so
// the hook serves those builds too (2026.1, 2026.0, 2025.3 checked).
extern "C" void *hookCMP(void *sret, void *M, void *entries, void *props, bool allowDeps,
                         int x) {
  if (gSpecMode >= 0) {
    alignas(64) static unsigned char mam[4096];
    alignas(64) unsigned char pa[1024];
    memset(mam, 0, sizeof mam);
    reinterpret_cast<MAMCtor_t>(gMAMCtor)(mam);
    // This build's SpecConstantsPass is 8 bytes: an int at offset 0 (PassInfoMixin
    // extra in Intel's build; PassBuilder leaves it 0) and HandlingMode at offset 4
    // (seen in the disassembly of SpecConstantsPass::run and PassBuilder::parseModulePass).
    struct { int32_t pad; int32_t mode; } self{0, gSpecMode};
    reinterpret_cast<SCPRun_t>(gSCPRun)(pa, &self, M, mam);
    // (PreservedAnalyses and MAM are leaked on purpose.)
  }
  using CMP_t = void *(*)(void *, void *, void *, void *, bool, int);
  return reinterpret_cast<CMP_t>(gRealCMP)(sret, M, entries, props, allowDeps, x);
}

static bool installHook(const char *libPath, void *anySym) {
  SymTab t;
  if (!readSymtab(libPath, t)) { fprintf(stderr, "cannot read .symtab of %s\n", libPath); return false; }
  Dl_info di;
  dladdr(anySym, &di);
  gBase = reinterpret_cast<uintptr_t>(di.dli_fbase);
  uint64_t ppl = findSym(t, "_ZN12jit_compiler15performPostLinkENSt3__110unique_ptrIN4llvm6ModuleENS0_14default_deleteIS3_EEEERKNS2_3opt12InputArgListE");
  uint64_t cmp = 0, scp = 0, mamc = 0;
  for (auto &s : t.syms) {
    if (s.first.rfind("_ZN4llvm4sycl23computeModulePropertiesE", 0) == 0) cmp = s.second;
    if (s.first == "_ZN4llvm17SpecConstantsPass3runERNS_6ModuleERNS_15AnalysisManagerIS1_JEEE") scp = s.second;
    if (s.first == "_ZN4llvm15AnalysisManagerINS_6ModuleEJEEC1Ev" ||
        (!mamc && s.first == "_ZN4llvm15AnalysisManagerINS_6ModuleEJEEC2Ev")) mamc = s.second;
  }
  if (!ppl || !cmp || !scp || !mamc) {
    fprintf(stderr, "symbols missing: ppl=%lx cmp=%lx scp=%lx mam=%lx\n", ppl, cmp, scp, mamc);
    return false;
  }
  gRealCMP = reinterpret_cast<void *>(gBase + cmp);
  gSCPRun = reinterpret_cast<void *>(gBase + scp);
  gMAMCtor = reinterpret_cast<void *>(gBase + mamc);
  // scan performPostLink for "call rel32" to computeModuleProperties
  unsigned char *p = reinterpret_cast<unsigned char *>(gBase + ppl);
  int patched = 0;
  for (int i = 0; i < 0x3000; ++i) {
    if (p[i] != 0xe8) continue;
    int32_t rel; memcpy(&rel, p + i + 1, 4);
    uintptr_t tgt = reinterpret_cast<uintptr_t>(p + i + 5) + rel;
    if (tgt != reinterpret_cast<uintptr_t>(gRealCMP)) continue;
    // need a trampoline within +-2GB: allocate near the library
    static unsigned char *tramp = nullptr;
    if (!tramp) {
      for (uintptr_t hint = (gBase - (1ul << 30)) & ~0xffful; hint > gBase - (1ul << 31);
           hint -= (1ul << 24)) {
        void *m = mmap(reinterpret_cast<void *>(hint), 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (m != MAP_FAILED) { tramp = static_cast<unsigned char *>(m); break; }
      }
      if (!tramp) { fprintf(stderr, "no trampoline space\n"); return false; }
      // movabs rax, hookCMP ; jmp rax
      tramp[0] = 0x48; tramp[1] = 0xb8;
      void *h = reinterpret_cast<void *>(&hookCMP);
      memcpy(tramp + 2, &h, 8);
      tramp[10] = 0xff; tramp[11] = 0xe0;
    }
    int64_t nrel = reinterpret_cast<intptr_t>(tramp) - reinterpret_cast<intptr_t>(p + i + 5);
    if (nrel != (int32_t)nrel) { fprintf(stderr, "trampoline out of range\n"); return false; }
    uintptr_t page = reinterpret_cast<uintptr_t>(p + i) & ~0xffful;
    mprotect(reinterpret_cast<void *>(page), 8192, PROT_READ | PROT_WRITE | PROT_EXEC);
    int32_t r32 = (int32_t)nrel;
    memcpy(p + i + 1, &r32, 4);
    mprotect(reinterpret_cast<void *>(page), 8192, PROT_READ | PROT_EXEC);
    ++patched;
  }
  if (patched != 1) { fprintf(stderr, "patched %d call sites (expected 1)\n", patched); return false; }
  return true;
}

// .prop text: byte arrays use LLVM's PropertySetIO Base64 (6-bit groups, LSB first)
static std::string encodeB64(const uint8_t *src, size_t n) {
  static const char *tbl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t bits = n * 8;
  for (size_t b = 0; b < bits; b += 6) {
    unsigned v = 0;
    for (int k = 0; k < 6 && b + k < bits; ++k)
      v |= ((src[(b + k) / 8] >> ((b + k) % 8)) & 1u) << k;
    out += tbl[v];
  }
  return out;
}

static bool writeFile(const std::string &path, const void *data, size_t n) {
  FILE *f = fopen(path.c_str(), "wb");
  if (!f) { perror(path.c_str()); return false; }
  fwrite(data, 1, n, f);
  fclose(f);
  return true;
}

int main(int argc, char **argv) {
  std::string lib;
  std::string out = ".", specMode = "none", src, prefix = "image";
  bool saveIR = false;
  std::vector<const char *> userArgs;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--lib") lib = argv[++i];
    else if (a == "--out") out = argv[++i];
    else if (a == "--prefix") prefix = argv[++i];
    else if (a == "--save-ir") saveIR = true;
    else if (a == "--spec-mode") specMode = argv[++i];
    else if (a == "--") { ++i; break; }
    else src = a;
  }
  for (; i < argc; ++i) userArgs.push_back(argv[i]);
  if (src.empty() || lib.empty()) { fprintf(stderr, "usage: jitc --lib LIBSYCL_JIT [--out DIR] [--spec-mode M] SOURCE.cpp [-- ARGS]\n"); return 2; }

  std::ifstream in(src);
  if (!in) { perror(src.c_str()); return 2; }
  std::stringstream ss; ss << in.rdbuf();
  std::string contents = ss.str();

  void *h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }
  auto compile = reinterpret_cast<abi::compileSYCL_t>(dlsym(h, "compileSYCL"));
  if (!compile) { fprintf(stderr, "no compileSYCL\n"); return 1; }

  if (specMode != "none") {
    if (specMode == "default") gSpecMode = 0;
    else if (specMode == "emulation") gSpecMode = 1;
    else if (specMode == "native") gSpecMode = 2;
    else { fprintf(stderr, "bad --spec-mode\n"); return 2; }
    if (!installHook(lib.c_str(), reinterpret_cast<void *>(compile))) return 1;
  }

  // The file name seen by the front end: keep the basename (it may end up in
  // debug info / diagnostics); it lives in an in-memory overlay.
  std::string vpath = src.substr(src.find_last_of('/') + 1);
  abi::InMemoryFile sf{vpath.c_str(), contents.c_str()};
  abi::RTCResult r = compile(sf, {nullptr, 0}, {userArgs.data(), userArgs.size()},
                             {nullptr, 0}, saveIR, abi::BinaryFormat::SPIRV);
  const char *log = r.BuildLog.str ? r.BuildLog.str : "";
  if (*log) fprintf(stderr, "--- build log ---\n%s\n", log);
  if (r.ErrorCode != abi::RTCErrorCode::SUCCESS) {
    fprintf(stderr, "compileSYCL failed, code %d\n", (int)r.ErrorCode);
    return 1;
  }
  if (r.DeviceCodeIR.Size)
    writeFile(out + "/frontend.bc", r.DeviceCodeIR.Values, r.DeviceCodeIR.Size);
  if (r.BundleInfo.CompileOptions.str)
    fprintf(stderr, "compile options: %s\n", r.BundleInfo.CompileOptions.str);
  auto &imgs = r.BundleInfo.DevImgInfos;
  for (size_t n = 0; n < imgs.Size; ++n) {
    abi::RTCDevImgInfo &img = imgs.Values[n];
    std::string base = out + "/" + prefix + std::to_string(n);
    fprintf(stderr, "image %zu: format %u, %lu bytes, %zu symbols, %zu property sets\n", n,
            (unsigned)img.BinaryInfo.Format, (unsigned long)img.BinaryInfo.BinarySize,
            img.SymbolTable.Size, img.Properties.Size);
    writeFile(base + ".spv", img.BinaryInfo.BinaryStart, img.BinaryInfo.BinarySize);
    std::string k;
    for (size_t s = 0; s < img.SymbolTable.Size; ++s)
      k += std::string(img.SymbolTable.Values[s].str ? img.SymbolTable.Values[s].str : "") + "\n";
    writeFile(base + ".kernels.txt", k.data(), k.size());
    std::string p;
    for (size_t s = 0; s < img.Properties.Size; ++s) {
      auto &set = img.Properties.Values[s];
      p += "[" + std::string(set.Name.str) + "]\n";
      for (size_t v = 0; v < set.Values.Size; ++v) {
        auto &pv = set.Values.Values[v];
        p += std::string(pv.Name.str) + "=";
        if (pv.IsUIntValue) p += "1|" + std::to_string(pv.UIntValue);
        else p += "2|" + encodeB64(pv.Bytes.Values, pv.Bytes.Size);
        p += "\n";
      }
    }
    writeFile(base + ".prop", p.data(), p.size());
  }
  fflush(stderr);
  // Skip the library's static destructors (its JITContext owns the binaries).
  _exit(0);
}
