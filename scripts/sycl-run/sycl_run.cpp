// sycl_run: runs kernels of SPIR-V device images through the real SYCL runtime (libsycl.so of the
// intel-sycl-rt wheel), registered the way DPC++'s offload wrapper registers a fat binary's images.
//
// usage: sycl_run [--table FILE.table]... [--image SPV PROP SYM]... --run RUN.json
//
// Images: every row of every `.table` (first line `[Code|Properties|Symbols]`, then
// `IMG.spv|IMG.prop|IMG.sym` rows, paths relative to the table's folder) and every `--image`
// triple, all registered together with one __sycl_register_lib call: one device binary per image
// {Version 1, Kind 4 (SYCL offload), Format 2 (SPIR-V), "spir64"}, its offload entries from the
// `.sym` lines (the kernel names the runtime maps to the image), its property sets from the
// `.prop` text (`[set]` lines, then `name=1|<u32>` or `name=2|<LLVM base64 of an 8-byte LE bit
// count + bytes>`; byte arrays are passed with their bit-count prefix, as the wrapper does).
// The libsycl.so.9 binary layout has no ManifestStart/End fields (docs/reference/sycl-runtime.md).
//
// RUN.json: {"runs": [RUN...]}, each RUN
//   {"kernel": NAME,
//    "launch": {"single_task": true} | {"global": [..]} | {"global": [..], "local": [..]}
//              (1-3 dims, SYCL order: last dimension fastest; default single_task),
//    "scratch": BYTES            optional: work_group_scratch_size launch property (nd-range only),
//    "args": [ARG...],
//    "overrides": [{SYMBOLIC_ID: HEX}, ...]   optional, default [{}]: one run per set,
//    ...}                        other keys (e.g. "expect") are the caller's and ignored here.
// ARG: {"index": I, ...one of}
//   "usm": BYTES, "init": HEX (optional), "out": false (optional)   shared USM, zeroed then init;
//                                                                   printed after the run unless out is false
//   "i32" / "i64" / "u32" / "u64" / "f32" / "f64": NUMBER            a scalar
//   "local": BYTES                                                 a local_accessor<char, 1>
// I is the kernel's ORIGINAL argument index: the runtime skips eliminated arguments itself
// ([SYCL/kernel param opt]), so arguments the front end eliminated need not be given. As with
// handler::set_arg, a "local" argument stands for the accessor's 4 original arguments (pointer,
// then 3 ranges the runtime appends), so later indices count it as one. A global accessor is
// given as "usm" at its pointer's index (its range/offset arguments as scalars, if kept).
// Spec constants: for each override set the kernel's input bundle gets every listed constant by
// its symbolic ID (kernel_bundle_plain::set_specialization_constant_impl), then is built.
//
// stdout: {"runs": [{"kernel": NAME, "results": [{"override": i, "buffers": {"I": HEX, ...}}]}]}
// exit: 0 ok; 2 usage or input error; 3 the SYCL runtime threw (message on stderr).
#include <sycl/sycl.hpp>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// ---- offload ABI of libsycl.so.9 (intel-sycl-rt 2026.2.0) --------------------------------------
struct OffloadEntry {
  void *addr;
  char *name;
  size_t size;
  int32_t flags;
  int32_t reserved;
};
struct BinaryProperty {
  char *Name;
  void *ValAddr;
  uint32_t Type;
  uint64_t ValSize;
};
struct BinaryPropertySet {
  char *Name;
  BinaryProperty *PropertiesBegin;
  BinaryProperty *PropertiesEnd;
};
struct DeviceBinary {
  uint16_t Version;
  uint8_t Kind;
  uint8_t Format;
  const char *DeviceTargetSpec;
  const char *CompileOptions;
  const char *LinkOptions;
  const unsigned char *BinaryStart;
  const unsigned char *BinaryEnd;
  OffloadEntry *EntriesBegin;
  OffloadEntry *EntriesEnd;
  BinaryPropertySet *PropertySetsBegin;
  BinaryPropertySet *PropertySetsEnd;
};
struct DeviceBinaries {
  uint16_t Version;
  uint16_t NumDeviceBinaries;
  DeviceBinary *DeviceBinaries;
  OffloadEntry *HostEntriesBegin;
  OffloadEntry *HostEntriesEnd;
};
static_assert(sizeof(OffloadEntry) == 32, "offload entry layout");
static_assert(sizeof(DeviceBinary) == 80, "device binary layout without Manifest fields");

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace

extern "C" void __sycl_register_lib(DeviceBinaries *desc);
extern "C" void __sycl_unregister_lib(DeviceBinaries *desc);

namespace {

// ---- a small JSON reader (objects, arrays, strings, numbers, true/false/null) -----------------
struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool b = false;
  std::string text;  // a number's spelling, or a string's value
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  const Json *get(const std::string &key) const {
    for (auto &m : members)
      if (m.first == key) return &m.second;
    return nullptr;
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string &s) : s_(s) {}
  Json parse() {
    Json v = value();
    ws();
    if (p_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  const std::string &s_;
  size_t p_ = 0;
  [[noreturn]] void fail(const std::string &what) {
    throw InputError("JSON: " + what + " at offset " + std::to_string(p_));
  }
  void ws() {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
  }
  bool eat(char c) {
    ws();
    if (p_ < s_.size() && s_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  std::string str() {
    expect('"');
    std::string out;
    while (p_ < s_.size() && s_[p_] != '"') {
      char c = s_[p_++];
      if (c == '\\') {
        if (p_ >= s_.size()) fail("bad escape");
        char e = s_[p_++];
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'u': {
            if (p_ + 4 > s_.size()) fail("bad \\u escape");
            unsigned cp = std::stoul(s_.substr(p_, 4), nullptr, 16);
            p_ += 4;
            if (cp > 0x7f) fail("non-ASCII \\u escape");
            out += static_cast<char>(cp);
            break;
          }
          default: out += e;
        }
      } else {
        out += c;
      }
    }
    expect('"');
    return out;
  }
  Json value() {
    ws();
    if (p_ >= s_.size()) fail("unexpected end");
    Json v;
    char c = s_[p_];
    if (c == '{') {
      ++p_;
      v.kind = Json::Object;
      if (eat('}')) return v;
      do {
        ws();
        std::string k = str();
        expect(':');
        v.members.emplace_back(k, value());
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++p_;
      v.kind = Json::Array;
      if (eat(']')) return v;
      do v.items.push_back(value());
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Json::String;
      v.text = str();
    } else if (s_.compare(p_, 4, "true") == 0) {
      p_ += 4;
      v.kind = Json::Bool;
      v.b = true;
    } else if (s_.compare(p_, 5, "false") == 0) {
      p_ += 5;
      v.kind = Json::Bool;
    } else if (s_.compare(p_, 4, "null") == 0) {
      p_ += 4;
    } else {
      size_t start = p_;
      while (p_ < s_.size() && std::strchr("+-0123456789.eE", s_[p_])) ++p_;
      if (p_ == start) fail("unexpected character");
      v.kind = Json::Number;
      v.text = s_.substr(start, p_ - start);
    }
    return v;
  }
};

std::string read_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError("cannot read " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

std::vector<unsigned char> from_hex(const std::string &hex, const std::string &what) {
  if (hex.size() % 2) throw InputError(what + ": odd-length hex string");
  std::vector<unsigned char> out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    char *end = nullptr;
    std::string byte = hex.substr(i, 2);
    unsigned long v = std::strtoul(byte.c_str(), &end, 16);
    if (*end) throw InputError(what + ": not hex: " + hex);
    out.push_back(static_cast<unsigned char>(v));
  }
  return out;
}

std::string to_hex(const unsigned char *p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += digits[p[i] >> 4];
    out += digits[p[i] & 15];
  }
  return out;
}

// llvm::Base64 variant: 6-bit groups packed LSB first, no padding.
std::vector<unsigned char> llvm_base64_decode(const std::string &text, const std::string &where) {
  static const std::string alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<unsigned> vals;
  for (char c : text) {
    size_t v = alphabet.find(c);
    if (v == std::string::npos) throw InputError(where + ": invalid base64 character");
    vals.push_back(static_cast<unsigned>(v));
  }
  if (vals.size() % 4 == 1) throw InputError(where + ": base64 with a dangling character");
  std::vector<unsigned char> out;
  for (size_t i = 0; i < vals.size(); i += 4) {
    size_t n = std::min<size_t>(4, vals.size() - i);
    unsigned c[4] = {0, 0, 0, 0};
    for (size_t k = 0; k < n; ++k) c[k] = vals[i + k];
    unsigned char g[3] = {static_cast<unsigned char>(c[0] | (c[1] << 6)),
                          static_cast<unsigned char>((c[1] >> 2) | (c[2] << 4)),
                          static_cast<unsigned char>((c[2] >> 4) | (c[3] << 2))};
    out.insert(out.end(), g, g + (n - 1));
  }
  return out;
}

// ---- images ------------------------------------------------------------------------------------
// Everything a registered binary points at; deques keep element addresses stable.
struct Storage {
  std::deque<std::string> strings;
  std::deque<std::vector<unsigned char>> blobs;
  std::deque<std::vector<OffloadEntry>> entries;
  std::deque<std::vector<BinaryProperty>> props;
  std::deque<std::vector<BinaryPropertySet>> sets;
  std::vector<DeviceBinary> binaries;

  char *keep(const std::string &s) {
    strings.push_back(s);
    return const_cast<char *>(strings.back().c_str());
  }
};

void load_prop(Storage &st, const std::string &path, DeviceBinary &bin) {
  struct Set {
    std::string name;
    std::vector<BinaryProperty> props;
  };
  std::vector<Set> parsed;
  auto lines = lines_of(read_file(path));
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string &line = lines[i];
    std::string where = path + ":" + std::to_string(i + 1);
    if (line.empty()) continue;
    if (line[0] == '[') {
      size_t end = line.rfind(']');
      if (end == std::string::npos) throw InputError(where + ": unterminated set header");
      parsed.push_back({line.substr(1, end - 1), {}});
      continue;
    }
    if (parsed.empty()) throw InputError(where + ": property outside any set");
    size_t eq = line.find('='), bar = line.find('|', eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || bar == std::string::npos)
      throw InputError(where + ": malformed property line");
    std::string name = line.substr(0, eq), type = line.substr(eq + 1, bar - eq - 1),
                value = line.substr(bar + 1);
    BinaryProperty p{st.keep(name), nullptr, 0, 0};
    if (type == "1") {
      char *end = nullptr;
      unsigned long v = std::strtoul(value.c_str(), &end, 10);
      if (value.empty() || *end) throw InputError(where + ": bad uint32 value");
      p.Type = 1;
      p.ValSize = v;
    } else if (type == "2") {
      st.blobs.push_back(llvm_base64_decode(value, where));
      auto &raw = st.blobs.back();
      if (raw.size() < 8) throw InputError(where + ": byte array shorter than its size prefix");
      uint64_t bits = 0;
      std::memcpy(&bits, raw.data(), 8);
      if (raw.size() - 8 != (bits + 7) / 8)
        throw InputError(where + ": size prefix disagrees with the byte count");
      p.Type = 2;
      p.ValAddr = raw.data();
      p.ValSize = raw.size();
    } else {
      throw InputError(where + ": unknown property type " + type);
    }
    parsed.back().props.push_back(p);
  }
  st.sets.emplace_back();
  auto &sets = st.sets.back();
  for (auto &s : parsed) {
    st.props.push_back(std::move(s.props));
    auto &v = st.props.back();
    sets.push_back({st.keep(s.name), v.data(), v.data() + v.size()});
  }
  bin.PropertySetsBegin = sets.data();
  bin.PropertySetsEnd = sets.data() + sets.size();
}

void add_image(Storage &st, const std::string &spv, const std::string &prop,
               const std::string &sym) {
  DeviceBinary bin{};
  bin.Version = 1;
  bin.Kind = 4;
  bin.Format = 2;
  bin.DeviceTargetSpec = "spir64";
  bin.CompileOptions = "";
  bin.LinkOptions = "";
  std::string code = read_file(spv);
  if (code.size() < 20 || std::memcmp(code.data(), "\x03\x02\x23\x07", 4) != 0)
    throw InputError(spv + ": not a SPIR-V module");
  st.blobs.emplace_back(code.begin(), code.end());
  bin.BinaryStart = st.blobs.back().data();
  bin.BinaryEnd = bin.BinaryStart + st.blobs.back().size();
  st.entries.emplace_back();
  auto &entries = st.entries.back();
  for (auto &line : lines_of(read_file(sym)))
    if (!line.empty()) entries.push_back({nullptr, st.keep(line), 0, 0, 0});
  bin.EntriesBegin = entries.data();
  bin.EntriesEnd = entries.data() + entries.size();
  load_prop(st, prop, bin);
  st.binaries.push_back(bin);
}

void add_table(Storage &st, const std::string &table) {
  size_t slash = table.rfind('/');
  std::string dir = slash == std::string::npos ? "" : table.substr(0, slash + 1);
  auto lines = lines_of(read_file(table));
  if (lines.empty() || lines[0] != "[Code|Properties|Symbols]")
    throw InputError(table + ": first line is not [Code|Properties|Symbols]");
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    std::vector<std::string> cells;
    std::istringstream ss(lines[i]);
    std::string cell;
    while (std::getline(ss, cell, '|')) cells.push_back(cell);
    if (cells.size() != 3)
      throw InputError(table + ":" + std::to_string(i + 1) + ": expected 3 cells");
    auto path = [&](const std::string &c) { return c.size() && c[0] == '/' ? c : dir + c; };
    add_image(st, path(cells[0]), path(cells[1]), path(cells[2]));
  }
}

// ---- runs --------------------------------------------------------------------------------------
const Json &member(const Json &obj, const std::string &key, const std::string &what) {
  const Json *v = obj.get(key);
  if (!v) throw InputError(what + ": no \"" + key + "\"");
  return *v;
}

long long as_int(const Json &v, const std::string &what) {
  if (v.kind != Json::Number) throw InputError(what + ": not a number");
  return std::stoll(v.text);
}

std::vector<size_t> dims(const Json &v, const std::string &what) {
  if (v.kind != Json::Array || v.items.empty() || v.items.size() > 3)
    throw InputError(what + ": expected an array of 1 to 3 sizes");
  std::vector<size_t> out;
  for (auto &d : v.items) out.push_back(static_cast<size_t>(as_int(d, what)));
  return out;
}

template <int D> sycl::range<D> to_range(const std::vector<size_t> &v) {
  if constexpr (D == 1) return sycl::range<1>(v[0]);
  else if constexpr (D == 2) return sycl::range<2>(v[0], v[1]);
  else return sycl::range<3>(v[0], v[1], v[2]);
}

struct UsmArg {
  int index;
  size_t bytes;
  std::vector<unsigned char> init;
  bool out;
  unsigned char *ptr;
};

template <int D>
void launch(sycl::handler &h, const sycl::kernel &k, const std::vector<size_t> &global,
            const std::vector<size_t> *local, size_t scratch) {
  namespace syclex = sycl::ext::oneapi::experimental;
  if (!local) {
    h.parallel_for(to_range<D>(global), k);
  } else if (scratch) {
    syclex::launch_config cfg{sycl::nd_range<D>(to_range<D>(global), to_range<D>(*local)),
                              syclex::properties{syclex::work_group_scratch_size(scratch)}};
    syclex::nd_launch(h, cfg, k);
  } else {
    h.parallel_for(sycl::nd_range<D>(to_range<D>(global), to_range<D>(*local)), k);
  }
}

struct BundleWithSpecConstants : sycl::kernel_bundle<sycl::bundle_state::input> {
  explicit BundleWithSpecConstants(const sycl::kernel_bundle<sycl::bundle_state::input> &b)
      : sycl::kernel_bundle<sycl::bundle_state::input>(b) {}
  using sycl::detail::kernel_bundle_plain::has_specialization_constant_impl;
  using sycl::detail::kernel_bundle_plain::set_specialization_constant_impl;
};

std::string json_string(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string run_one(sycl::queue &q, const Json &run, size_t n) {
  std::string what = "run " + std::to_string(n);
  const std::string &name = member(run, "kernel", what).text;
  what += " (" + name + ")";
  sycl::kernel_id id = [&] {
    for (auto &k : sycl::get_kernel_ids())
      if (name == k.get_name()) return k;
    throw InputError(what + ": no registered image has this kernel");
  }();

  // Launch shape.
  std::vector<size_t> global, local;
  bool single = true, nd = false;
  if (const Json *l = run.get("launch")) {
    if (const Json *g = l->get("global")) {
      single = false;
      global = dims(*g, what + " launch.global");
      if (const Json *lo = l->get("local")) {
        nd = true;
        local = dims(*lo, what + " launch.local");
        if (local.size() != global.size())
          throw InputError(what + ": global and local differ in dimensions");
      }
    }
  }
  size_t scratch = 0;
  if (const Json *s = run.get("scratch")) scratch = static_cast<size_t>(as_int(*s, what + " scratch"));
  if (scratch && !nd) throw InputError(what + ": scratch needs an nd-range launch");

  // Arguments.
  std::vector<UsmArg> usm;
  const Json &args = member(run, "args", what);
  for (auto &a : args.items) {
    int index = static_cast<int>(as_int(member(a, "index", what + " arg"), what + " arg index"));
    if (const Json *b = a.get("usm")) {
      UsmArg u{index, static_cast<size_t>(as_int(*b, what + " usm")), {}, true, nullptr};
      if (const Json *i = a.get("init")) u.init = from_hex(i->text, what + " init");
      if (const Json *o = a.get("out")) u.out = o->b;
      if (u.init.size() > u.bytes) throw InputError(what + ": init is larger than the buffer");
      u.ptr = sycl::malloc_shared<unsigned char>(u.bytes, q);
      if (!u.ptr) throw InputError(what + ": malloc_shared failed");
      usm.push_back(std::move(u));
    }
  }

  std::vector<Json> overrides;
  if (const Json *o = run.get("overrides")) overrides = o->items;
  if (overrides.empty()) overrides.emplace_back(Json{Json::Object});

  std::string out = "{\"kernel\":" + json_string(name) + ",\"results\":[";
  for (size_t oi = 0; oi < overrides.size(); ++oi) {
    auto input = sycl::get_kernel_bundle<sycl::bundle_state::input>(q.get_context(), {q.get_device()}, {id});
    BundleWithSpecConstants access(input);
    for (auto &m : overrides[oi].members) {
      if (!access.has_specialization_constant_impl(m.first.c_str()))
        throw InputError(what + " override " + std::to_string(oi) + ": the kernel's bundle has no spec constant " + m.first);
      auto value = from_hex(m.second.text, what + " override " + m.first);
      access.set_specialization_constant_impl(m.first.c_str(), value.data(), value.size());
    }
    auto exe = sycl::build(input);
    sycl::kernel kernel = exe.get_kernel(id);
    for (auto &u : usm) {
      std::memset(u.ptr, 0, u.bytes);
      if (!u.init.empty()) std::memcpy(u.ptr, u.init.data(), u.init.size());
    }
    q.submit([&](sycl::handler &h) {
       for (auto &u : usm) h.set_arg(u.index, static_cast<void *>(u.ptr));
       for (auto &a : args.items) {
         int index = static_cast<int>(as_int(*a.get("index"), what));
         if (const Json *v = a.get("i32")) h.set_arg(index, static_cast<int32_t>(as_int(*v, what)));
         else if (const Json *v = a.get("u32")) h.set_arg(index, static_cast<uint32_t>(std::stoull(v->text)));
         else if (const Json *v = a.get("i64")) h.set_arg(index, static_cast<int64_t>(as_int(*v, what)));
         else if (const Json *v = a.get("u64")) h.set_arg(index, static_cast<uint64_t>(std::stoull(v->text)));
         else if (const Json *v = a.get("f32")) h.set_arg(index, std::stof(v->text));
         else if (const Json *v = a.get("f64")) h.set_arg(index, std::stod(v->text));
         else if (const Json *v = a.get("local"))
           h.set_arg(index, sycl::local_accessor<char, 1>(sycl::range<1>(static_cast<size_t>(as_int(*v, what))), h));
         else if (!a.get("usm")) throw InputError(what + ": argument " + std::to_string(index) + " has no kind");
       }
       if (single) {
         h.single_task(kernel);
       } else {
         const std::vector<size_t> *lp = nd ? &local : nullptr;
         switch (global.size()) {
           case 1: launch<1>(h, kernel, global, lp, scratch); break;
           case 2: launch<2>(h, kernel, global, lp, scratch); break;
           default: launch<3>(h, kernel, global, lp, scratch); break;
         }
       }
     }).wait_and_throw();
    out += std::string(oi ? "," : "") + "{\"override\":" + std::to_string(oi) + ",\"buffers\":{";
    bool first = true;
    for (auto &u : usm) {
      if (!u.out) continue;
      out += std::string(first ? "" : ",") + "\"" + std::to_string(u.index) + "\":\"" + to_hex(u.ptr, u.bytes) + "\"";
      first = false;
    }
    out += "}}";
  }
  for (auto &u : usm) sycl::free(u.ptr, q);
  return out + "]}";
}

int usage() {
  std::fprintf(stderr,
               "usage: sycl_run [--table FILE.table]... [--image SPV PROP SYM]... --run RUN.json\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  Storage st;
  std::string run_path;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a == "--table" && i + 1 < argc) {
        add_table(st, argv[++i]);
      } else if (a == "--image" && i + 3 < argc) {
        add_image(st, argv[i + 1], argv[i + 2], argv[i + 3]);
        i += 3;
      } else if (a == "--run" && i + 1 < argc) {
        run_path = argv[++i];
      } else {
        return usage();
      }
    }
    if (run_path.empty() || st.binaries.empty()) return usage();
    Json doc = JsonParser(read_file(run_path)).parse();
    const Json &runs = member(doc, "runs", run_path);

    DeviceBinaries desc{1, static_cast<uint16_t>(st.binaries.size()), st.binaries.data(), nullptr, nullptr};
    __sycl_register_lib(&desc);
    std::string out = "{\"runs\":[";
    int rc = 0;
    try {
      sycl::queue q{sycl::cpu_selector_v};
      for (size_t n = 0; n < runs.items.size(); ++n)
        out += (n ? "," : "") + run_one(q, runs.items[n], n);
    } catch (const InputError &) {
      __sycl_unregister_lib(&desc);
      throw;
    } catch (const sycl::exception &e) {
      std::fprintf(stderr, "sycl-error: %s\n", e.what());
      rc = 3;
    }
    __sycl_unregister_lib(&desc);
    if (rc) return rc;
    std::printf("%s]}\n", out.c_str());
    return 0;
  } catch (const InputError &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
