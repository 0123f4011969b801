#!/usr/bin/env python3
"""Random SYCL sources for the post-link differential campaign (postlink_campaign.py).

A developer tool. usage: gen_postlink.py SEED OUTDIR
Writes OUTDIR/source.cpp and OUTDIR/flags (one line of extra compiler arguments): one
translation unit of 2 to 9 kernels of random forms (single_task, range and nd_range lambdas of
1 to 3 dimensions, functors, functors with a properties list) mixing what sycl-post-link's split
and property sets depend on: kernel attributes and properties (reqd_work_group_size,
work_group_size_hint, reqd_sub_group_size, device_has, max_work_group_size,
max_linear_work_group_size), the aspects a body implies (double, half, 64-bit atomics),
spec constants, device globals with their properties, shared noinline helpers and SYCL_EXTERNAL
functions (called or not), a helper taking the kernel_handler, group algorithms and local
memory, printf, assert and sycl::stream, ESIMD kernels beside SYCL ones, FPGA attributes,
grf_size and cache_config properties; and
the compile flags that change the image (-O0/-O3, -g, -fno-sycl-early-optimizations,
-ffast-math, -fsycl-allow-device-image-dependencies, -fsycl-instrument-device-code).
device_has names only aspects the kernel uses, and dependencies are not allowed where device
code asserts: the split's known gaps (docs/split.md) would show on every such source.

From seed 800 on (earlier seeds give the sources they always gave), a source may also have
free-function kernels (nd_range_kernel<1|2>, single_task_kernel, in a namespace or not, calling
the helpers), kernels reading and writing buffers through accessors (whole, ranged with an
offset, read-only), local memory through group_local_memory_for_overwrite and
work_group_scratch_size (implicit local arguments), and functors holding an annotated_ptr with
an alignment property; these come from a random stream of their own. From seed 900 on, also
(from a third stream): kernels given their properties as a launch argument
(parallel_for(range, properties, lambda), single_task(properties, lambda)), reductions (USM and
buffer, one or two, range and nd_range: DPC++ adds kernels of its own), std::complex and <cmath>
on float and double (the device library's functions linked in), atomic float adds, and kernels
named by class templates. From seed 1300 on, also (from a fourth stream): clock queries at
the three scopes (one through a noinline helper), work_group_static variables, atomic_ref<half>,
prefetches, work_group_memory arguments, group_load/group_store, sub-group algorithms under a
required sub-group size, bfloat16 arithmetic (the bfloat16 device library), legacy image
accessors, bindless image fetches, sycl::ext::intel::math functions, root-group barriers,
marray and half-vector math; and the flags -fsycl-fp64-conv-emu,
-fno-sycl-id-queries-fit-in-int and -fsycl-id-queries-range=uint. From seed 1600 on, also (from a
fifth stream): virtual functions (the default set or a named one; an override reading a device
global; callers reading a spec constant beside the indirect call), a joint_matrix
multiply-add, local accessors (lambda and functor), group_local_memory and the work-group
scratch memory taken in a noinline helper, and an aspect three calls down reached from kernels
at different depths. From seed 1720 on, also (from a sixth stream): OpenCL.std functions with a
pointer operand (frexp, sincos, modf) and vector loads and stores, sequentially consistent
atomics and fences at the three scopes, joint_matrix_apply and joint_matrix_prefetch, a sampled
bindless image, and ESIMD kernels with inline assembly or a gather.
"""
import os
import random
import sys

SC_TYPES = [
    ("int", "{}", lambda r: str(r.randint(-50, 50))),
    ("float", "{}", lambda r: f"{r.randint(-40, 40) / 4}f"),
    ("double", "{}", lambda r: f"{r.randint(-40, 40) / 8}"),
    ("bool", "{}", lambda r: r.choice(["true", "false"])),
    ("short", "{}", lambda r: str(r.randint(-9, 9))),
    ("long", "{}", lambda r: str(r.randint(-9, 9))),
    ("sycl::half", "{}", lambda r: f"{r.randint(-8, 8) / 2}f"),
    ("Pt", "Pt{{{}}}", lambda r: f"{r.randint(0, 9)}, {r.randint(0, 9) / 2}f"),
    ("Arr3", "Arr3{{{{{}}}}}", lambda r: ", ".join(str(r.randint(0, 9)) for _ in range(3))),
]
DG_TYPES = ["int", "float", "int[4]", "Pt", "long"]
DG_PROPS = [
    None,
    "syclex::device_image_scope",
    "syclex::host_access_read",
    "syclex::host_access_write",
    "syclex::host_access_none",
    "syclex::host_access_read_write",
]


def gen(seed):
    r = random.Random(seed)
    out = []
    w = out.append
    w(f"// gen_postlink.py seed {seed}")
    w("#include <cassert>")
    w("#include <sycl/sycl.hpp>")
    esimd = r.random() < 0.2
    if esimd:
        w("#include <sycl/ext/intel/esimd.hpp>")
        w("__attribute__((noinline)) float esh(float x) { return x * 3.0f; }")
    w("namespace syclex = sycl::ext::oneapi::experimental;")
    w("namespace intelex = sycl::ext::intel::experimental;")
    w("struct Pt { int a; float b; };")
    w("struct Arr3 { int v[3]; };")
    w("#ifdef __SYCL_DEVICE_ONLY__")
    w("#define CONSTANT __attribute__((opencl_constant))")
    w("#else")
    w("#define CONSTANT")
    w("#endif")
    w('const CONSTANT char fmt[] = "v %d\\n";')

    # Spec constants.
    scs = []
    for i in range(r.choice([0, 0, 1, 2, 3, 5])):
        t, wrap, val = r.choice(SC_TYPES)
        w(f"constexpr sycl::specialization_id<{t}> sc{i}({wrap.format(val(r))});")
        scs.append((f"sc{i}", t))
    # Device globals.
    dgs = []
    for i in range(r.choice([0, 0, 1, 2, 3])):
        t = r.choice(DG_TYPES)
        props = [p for p in r.sample(DG_PROPS, r.choice([1, 1, 2])) if p]
        hosts = [p for p in props if "host_access" in p]
        if len(hosts) > 1:
            props.remove(hosts[1])
        base, arr = (t[:-3], t[-3:]) if t.endswith("]") else (t, "")
        if props:
            w(f"syclex::device_global<{base}{arr}, decltype(syclex::properties{{{', '.join(props)}}})> dg{i};")
        else:
            w(f"syclex::device_global<{base}{arr}> dg{i};")
        dgs.append((f"dg{i}", t))
    # Helpers: noinline device functions, SYCL_EXTERNAL ones (called or not).
    helpers = []
    for i in range(r.choice([0, 1, 2, 3])):
        kind = r.choice(["noinline", "extern", "inline"])
        attr = {
            "noinline": "__attribute__((noinline)) static",
            "extern": "SYCL_EXTERNAL",
            "inline": "static inline",
        }[kind]
        uses_dbl = r.random() < 0.2
        body = f"return x * {r.randint(2, 9)} + {r.randint(0, 9)};"
        if uses_dbl:
            body = f"return static_cast<int>(x * {r.randint(2, 9)}.5);"
        if helpers and r.random() < 0.4:
            body = f"return h{r.randrange(len(helpers))}(x) + {r.randint(1, 5)};"
        w(f"{attr} int h{i}(int x) {{ {body} }}")
        helpers.append(f"h{i}")
    if r.random() < 0.3:
        w("SYCL_EXTERNAL int ext_unused(int x) { return x - 3; }")
    # A helper that reads spec constants through the kernel_handler, not inlined.
    kh_helper = None
    if scs and r.random() < 0.3:
        name, t = r.choice([c for c in scs if c[1] in ("int", "short", "long", "bool", "float")] or [(None, None)])
        if name:
            w(f"__attribute__((noinline)) int khh(sycl::kernel_handler &kh) {{ return static_cast<int>(kh.get_specialization_constant<{name}>()) + 1; }}")
            kh_helper = "khh"

    nk = r.randint(2, 9)
    kernels = []
    functors = []
    for k in range(nk):
        if esimd and r.random() < 0.3:
            kernels.append(esimd_kernel(r, k))
        else:
            kernels.append(kernel(r, k, scs, dgs, helpers + (["esh"] if esimd else []), functors, kh_helper))
    extra = extended(seed, helpers, w) if seed >= 800 else {"kernels": [], "classes": []}
    kernels += extra["kernels"]
    more = extended2(seed, w) if seed >= 900 else {"kernels": [], "classes": []}
    kernels += more["kernels"]
    extra["classes"] += more["classes"]
    third = extended3(seed, w) if seed >= 1300 else {"kernels": [], "classes": [], "flags": []}
    kernels += third["kernels"]
    extra["classes"] += third["classes"]
    fourth = extended4(seed, w, scs, dgs) if seed >= 1600 else {"kernels": [], "classes": []}
    kernels += fourth["kernels"]
    extra["classes"] += fourth["classes"]
    fifth = extended5(seed, w, scs) if seed >= 1720 else {"kernels": [], "classes": []}
    kernels += fifth["kernels"]
    extra["classes"] += fifth["classes"]
    for f in functors:
        w(f)
    for k in range(nk):
        w(f"class K{k};")
    for c in extra["classes"]:
        w(f"class {c};")
    buffers = ", sycl::buffer<int, 1> &b0, sycl::buffer<float, 1> &b1" if seed >= 800 else ""
    w(f"void run(sycl::queue &q, int *a, float *f, double *d, unsigned long long *u{buffers}) {{")
    for body in kernels:
        w(body)
    w("}")

    flags = []
    opt = r.choice(["", "", "", "-O0", "-O3", "-O1"])
    if opt:
        flags.append(opt)
    # (From seed 1100 on, half the sources carry debug information: llvm-spirv's debug records
    # hold literals where ids stand, which the split must not take for uses.)
    if r.random() < (0.5 if seed >= 1100 else 0.15):
        flags.append("-g")
    if r.random() < 0.15 and opt != "-O0":
        flags.append("-fno-sycl-early-optimizations")
    if r.random() < 0.1:
        flags.append("-ffast-math")
    if r.random() < 0.1:
        flags.append("-DNDEBUG")
    # (With device-image dependencies allowed, DPC++ takes the device library's functions that
    # `assert`, std::complex, <cmath> and the ITT instrumentation bring for entry points: a
    # known gap of the split, docs/split.md. None comes with that flag.)
    deps = r.random() < 0.15
    flags += third["flags"]
    itt = r.random() < 0.05
    # (Nor std::complex and <cmath>, from seed 900 on: the device library's functions again.)
    # (From seed 1300 on, nor bfloat16 and sycl::ext::intel::math, for the same reason.)
    # (From seed 1600 on, nor joint_matrix.)
    if deps and not any(s in "\n".join(out) for s in ("assert(", "#include <complex>", "bfloat16.hpp", "intel/math.hpp",
                                                       "joint_matrix")):
        flags.append("-fsycl-allow-device-image-dependencies")
    elif itt:
        flags.append("-fsycl-instrument-device-code")
    return "\n".join(out) + "\n", " ".join(flags)


def extended(seed, helpers, w):
    """The kernels of seeds from 800 on (see the module docs), from a stream of their own;
    free-function kernels and annotated_ptr functors are written through `w` at once."""
    x = random.Random(f"extended-{seed}")
    kernels, classes = [], []
    helper = lambda: f"{x.choice(helpers)}(v)" if helpers and x.random() < 0.5 else "v"
    # Free-function kernels.
    nff = x.choice([0, 0, 1, 2, 3])
    if nff:
        w("#include <sycl/ext/oneapi/free_function_queries.hpp>")
    for i in range(nff):
        kind = x.choice(["nd1", "nd2", "single"])
        dbl = x.random() < 0.25
        ns = x.random() < 0.3
        if ns:
            w(f"namespace ffns{i} {{")
        if kind == "single":
            w("SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclex::single_task_kernel))")
            idx = "0"
            pre = ""
        else:
            n = 1 if kind == "nd1" else 2
            w(f"SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclex::nd_range_kernel<{n}>))")
            pre = f"auto it = sycl::ext::oneapi::this_work_item::get_nd_item<{n}>(); "
            idx = "it.get_global_linear_id()"
        extra_param = ", double *d" if dbl else ""
        extra_body = f" d[{idx}] = d[{idx}] * 2.5;" if dbl else ""
        unused = ", int unused" if x.random() < 0.3 else ""
        w(f"void ff{i}(int *p{extra_param}{unused}) {{ {pre}int v = p[{idx}]; p[{idx}] = {helper()} + 1;{extra_body} }}")
        if ns:
            w("}")
    # Buffer accessors.
    for i in range(x.choice([0, 0, 1, 2])):
        name = f"KAcc{i}"
        classes.append(name)
        form = x.choice(["whole", "ranged", "readonly"])
        if form == "whole":
            acc = "sycl::accessor ac{b0, h, sycl::read_write};"
            body = f"int v = ac[it]; ac[it] = {helper()} * 2;"
        elif form == "ranged":
            acc = "sycl::accessor ac{b0, h, sycl::range<1>(4), sycl::id<1>(2), sycl::read_write};"
            body = f"int v = ac[it]; ac[it] = {helper()} + 3;"
        else:
            acc = "sycl::accessor ac{b0, h, sycl::read_only}; sycl::accessor fo{b1, h, sycl::write_only, sycl::no_init};"
            body = f"int v = ac[it]; fo[it] = static_cast<float>({helper()}) * 0.5f;"
        rng = "4" if form == "ranged" else "8"
        kernels.append(f"  q.submit([&](sycl::handler &h) {{ {acc} h.parallel_for<{name}>(sycl::range<1>({rng}), [=](sycl::id<1> it) {{ {body} }}); }});")
    # Local memory the post-link step passes as an implicit argument.
    for i in range(x.choice([0, 0, 0, 1, 2])):
        name = f"KLoc{i}"
        classes.append(name)
        body = ("size_t l = it.get_local_linear_id(); loc[l] = static_cast<int>(l); "
                "sycl::group_barrier(it.get_group()); a[it.get_global_linear_id()] = loc[15 - l];")
        if x.random() < 0.5:
            kernels.append(f"  q.submit([&](sycl::handler &h) {{ h.parallel_for<{name}>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {{ "
                           f"auto *loc = *sycl::ext::oneapi::group_local_memory_for_overwrite<int[16]>(it.get_group()); {body} }}); }});")
        else:
            kernels.append(f"  {{ syclex::launch_config cfg{{sycl::nd_range<1>(32, 16), syclex::properties{{syclex::work_group_scratch_size(16 * sizeof(int))}}}}; "
                           f"syclex::nd_launch<{name}>(q, cfg, [=](sycl::nd_item<1> it) {{ "
                           f"int *loc = static_cast<int *>(syclex::get_work_group_scratch_memory()); {body} }}); }}")
    # Functors holding an annotated_ptr.
    nap = x.choice([0, 0, 0, 1])
    if nap:
        w("#include <sycl/ext/oneapi/experimental/annotated_ptr/annotated_ptr.hpp>")
    for i in range(nap):
        align = x.choice([4, 8, 16])
        w(f"using Aligned{i} = syclex::annotated_ptr<int, decltype(syclex::properties{{syclex::alignment<{align}>}})>;")
        w(f"struct FAnn{i} {{ Aligned{i} p; int *unused; int n; void operator()() const {{ int v = n; *p = {helper()} + 1; }} }};")
        kernels.append(f"  q.submit([&](sycl::handler &h) {{ h.single_task(FAnn{i}{{Aligned{i}{{a}}, a, {x.randint(1, 9)}}}); }});")
    return {"kernels": kernels, "classes": classes}


def extended2(seed, w):
    """The kernels of seeds from 900 on (see the module docs), from a stream of their own."""
    x = random.Random(f"extended2-{seed}")
    kernels, classes = [], []
    # Properties as a launch argument.
    for i in range(x.choice([0, 1, 2])):
        name = f"KPArg{i}"
        classes.append(name)
        if x.random() < 0.4:
            props = x.choice(["syclex::device_has<sycl::aspect::fp64>", "syclex::sub_group_size<16>"])
            body = "d[0] = d[1] * 3.0;" if "fp64" in props else "a[0] = 5;"
            kernels.append(f"  q.submit([&](sycl::handler &h) {{ h.single_task<{name}>(syclex::properties{{{props}}}, [=] {{ {body} }}); }});")
        else:
            n = x.choice([8, 16])
            props = x.sample([f"syclex::work_group_size<{n}>", "syclex::sub_group_size<16>",
                              f"syclex::work_group_size_hint<{n}>"], x.choice([1, 2]))
            if any("work_group_size<" in p for p in props) and any("hint" in p for p in props):
                props = props[:1]
            kernels.append(f"  q.submit([&](sycl::handler &h) {{ h.parallel_for<{name}>(sycl::nd_range<1>(32, {n}), syclex::properties{{{', '.join(props)}}}, "
                           f"[=](sycl::nd_item<1> it) {{ a[it.get_global_linear_id()] += {x.randint(1, 9)}; }}); }});")
    # Reductions.
    for i in range(x.choice([0, 0, 1, 2])):
        name = f"KRed{i}"
        classes.append(name)
        form = x.choice(["usm", "buffers", "nd"])
        if form == "usm":
            op = x.choice(["plus", "maximum", "minimum"])
            kernels.append(f"  q.submit([&](sycl::handler &h) {{ h.parallel_for<{name}>(sycl::range<1>(64), sycl::reduction(a + {i}, sycl::{op}<int>()), "
                           f"[=](sycl::id<1> it, auto &r) {{ r.combine(a[it[0] + 8]); }}); }});")
        elif form == "buffers":
            kernels.append(f"  {{ sycl::buffer<int> bs(1); sycl::buffer<float> bm(1); q.submit([&](sycl::handler &h) {{ "
                           f"auto rs = sycl::reduction(bs, h, sycl::plus<int>()); auto rm = sycl::reduction(bm, h, sycl::maximum<float>()); "
                           f"h.parallel_for<{name}>(sycl::range<1>(64), rs, rm, [=](sycl::id<1> it, auto &s, auto &m) {{ s += a[it[0]]; m.combine(f[it[0]]); }}); }}); }}")
        else:
            kernels.append(f"  q.submit([&](sycl::handler &h) {{ h.parallel_for<{name}>(sycl::nd_range<1>(64, 16), sycl::reduction(d, sycl::plus<double>()), "
                           f"[=](sycl::nd_item<1> it, auto &r) {{ r += d[it.get_global_linear_id() + 1]; }}); }});")
    # std::complex and <cmath>.
    ncm = x.choice([0, 0, 1, 2])
    if ncm:
        w("#include <complex>")
        w("#include <cmath>")
    for i in range(ncm):
        name = f"KCm{i}"
        classes.append(name)
        body = x.choice([
            "std::complex<float> c(f[0], f[1]); c = c * std::complex<float>(f[2], f[3]) / (c + 1.0f); f[4] = std::abs(c);",
            "std::complex<double> c(d[0], d[1]); c = std::exp(c * c); d[2] = c.real();",
            "f[5] = std::sin(f[6]) + std::exp(f[7]) + std::pow(f[8], 2.5f);",
            "d[3] = std::sin(d[4]) * std::log(d[5]);",
        ])
        kernels.append(f"  q.submit([&](sycl::handler &h) {{ h.single_task<{name}>([=] {{ {body} }}); }});")
    # Atomic float adds.
    for i in range(x.choice([0, 0, 1])):
        name = f"KFAdd{i}"
        classes.append(name)
        t, p = x.choice([("float", "f"), ("double", "d")])
        kernels.append(f"  q.submit([&](sycl::handler &h) {{ h.parallel_for<{name}>(sycl::range<1>(16), [=](sycl::id<1> it) {{ "
                       f"sycl::atomic_ref<{t}, sycl::memory_order::relaxed, sycl::memory_scope::device> r({p}[0]); r.fetch_add({p}[it[0] + 1]); }}); }});")
    # Kernels named by class templates.
    nt = x.choice([0, 0, 1, 2])
    if nt:
        w("template <typename T, int N> class KTmpl;")
    for i in range(nt):
        t = x.choice(["int", "float", "char"])
        kernels.append(f"  q.submit([&](sycl::handler &h) {{ h.single_task<KTmpl<{t}, {i}>>([=] {{ a[{i + 2}] = static_cast<int>(static_cast<{t}>(a[{i + 3}])) + {i}; }}); }});")
    return {"kernels": kernels, "classes": classes}


def extended3(seed, w):
    """The kernels and flags of seeds from 1300 on (see the module docs), from a stream of their own."""
    x = random.Random(f"extended3-{seed}")
    kernels, classes, flags = [], [], []

    def add(name, body):
        classes.append(name)
        kernels.append(f"  q.submit([&](sycl::handler &h) {{ {body} }});")

    def nd(name, body, attr=""):
        add(name, f"h.parallel_for<{name}>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it){attr} {{ {body} }});")

    features = x.sample(["clock", "wgstatic", "atomhalf", "prefetch", "wgmem", "groupls", "subgroup",
                         "bf16", "image", "bindless", "imf", "root", "marray", "halfvec"], x.choice([0, 1, 2, 3, 4]))
    if "clock" in features:
        scope = x.choice(["device", "work_group", "sub_group"])
        if x.random() < 0.5:
            w(f"__attribute__((noinline)) unsigned long long ticks() {{ return syclex::clock<syclex::clock_scope::{scope}>(); }}")
            add("KClock", "h.single_task<KClock>([=] { u[0] = ticks(); });")
        else:
            add("KClock", f"h.single_task<KClock>([=] {{ u[0] = syclex::clock<syclex::clock_scope::{scope}>(); }});")
    if "wgstatic" in features:
        w("#include <sycl/ext/oneapi/work_group_static.hpp>")
        w("syclex::work_group_static<int[16]> wgs_buf;")
        nd("KWgStatic", "wgs_buf[it.get_local_id(0)] = a[it.get_global_id(0)]; sycl::group_barrier(it.get_group()); "
           "a[it.get_global_id(0)] = wgs_buf[15 - it.get_local_id(0)];")
    if "atomhalf" in features:
        w("sycl::half *hp = nullptr;")
        add("KAtomHalf", "sycl::half *p = hp; h.single_task<KAtomHalf>([=] { "
            "sycl::atomic_ref<sycl::half, sycl::memory_order::relaxed, sycl::memory_scope::device> r(p[0]); r.fetch_add(sycl::half(1.0f)); });")
    if "prefetch" in features:
        hint = x.choice(["prefetch_hint_L1", "prefetch_hint_L2", "prefetch_hint_L3_nt"])
        add("KPrefetch", f"h.single_task<KPrefetch>([=] {{ syclex::prefetch(a + 4, syclex::properties{{syclex::{hint}}}); a[0] = a[4] + 1; }});")
    if "wgmem" in features:
        add("KWgMem", "syclex::work_group_memory<int[16]> m{h}; h.parallel_for<KWgMem>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) { "
            "size_t l = it.get_local_linear_id(); m[l] = a[it.get_global_linear_id()]; sycl::group_barrier(it.get_group()); "
            "a[it.get_global_linear_id()] = m[15 - l]; });")
    if "groupls" in features:
        nd("KGroupLS", "int v[2]; auto g = it.get_group(); "
           "syclex::group_load(g, a + g.get_group_linear_id() * 32, sycl::span<int, 2>(v)); v[0] += v[1]; "
           "syclex::group_store(g, sycl::span<int, 2>(v), a + g.get_group_linear_id() * 32);")
    if "subgroup" in features:
        sg = x.choice([8, 16, 32])
        op = x.choice(["sycl::reduce_over_group(sg, f[i], sycl::plus<float>())",
                       "sycl::shift_group_left(sg, f[i], 1)",
                       "sycl::group_broadcast(sg, f[i], 0)",
                       "sycl::inclusive_scan_over_group(sg, f[i], sycl::maximum<float>())"])
        nd("KSubGroup", f"auto sg = it.get_sub_group(); size_t i = it.get_global_linear_id(); f[i] = {op};",
           f" [[sycl::reqd_sub_group_size({sg})]]")
    if "bf16" in features:
        w("#include <sycl/ext/oneapi/bfloat16.hpp>")
        conv = x.choice(["f[0] = static_cast<float>(sycl::ext::oneapi::bfloat16(f[1]) * sycl::ext::oneapi::bfloat16(1.5f));",
                         "d[0] = static_cast<double>(static_cast<float>(sycl::ext::oneapi::bfloat16(f[2]))) * d[1];"])
        add("KBf16", f"h.single_task<KBf16>([=] {{ {conv} }});")
    if "image" in features:
        w("sycl::image<2> *img = nullptr;")
        add("KImage", "sycl::accessor<sycl::float4, 2, sycl::access::mode::read, sycl::access::target::image> ra(*img, h); "
            "h.parallel_for<KImage>(sycl::range<2>(4, 4), [=](sycl::item<2> it) { f[it.get_linear_id()] = ra.read(sycl::int2(it[0], it[1])).x(); });")
    if "bindless" in features:
        w("#include <sycl/ext/oneapi/bindless_images.hpp>")
        w("syclex::unsampled_image_handle bimg;")
        add("KBindless", "auto hdl = bimg; h.single_task<KBindless>([=] { f[1] = syclex::fetch_image<sycl::float4>(hdl, sycl::int2(1, 2)).y(); });")
    if "imf" in features:
        w("#include <sycl/ext/intel/math.hpp>")
        fn = x.choice(["f[2] = sycl::ext::intel::math::fadd_rd(f[3], f[4]);",
                       "f[2] = sycl::ext::intel::math::half2float(sycl::ext::intel::math::float2half_rn(f[3]));",
                       "d[2] = sycl::ext::intel::math::dadd_rz(d[3], d[4]);"])
        add("KImf", f"h.single_task<KImf>([=] {{ {fn} }});")
    if "root" in features:
        w("struct FRoot { int *p; void operator()(sycl::nd_item<1> it) const { auto root = it.ext_oneapi_get_root_group(); "
          "p[it.get_global_id(0)] = 1; sycl::group_barrier(root); p[it.get_global_id(0)] += 1; } "
          "auto get(syclex::properties_tag) const { return syclex::properties{syclex::use_root_sync}; } };")
        kernels.append("  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(32, 8), FRoot{a}); });")
    if "marray" in features:
        add("KMarray", "h.single_task<KMarray>([=] { sycl::marray<float, 3> m{f[0], f[1], f[2]}; m = sycl::sqrt(m) + sycl::fabs(m); f[3] = m[0] + m[2]; });")
    if "halfvec" in features:
        add("KHalfVec", "h.single_task<KHalfVec>([=] { sycl::half4 v{sycl::half(f[0]), sycl::half(1.0f), sycl::half(2.0f), sycl::half(3.0f)}; "
            "v = v * v; f[4] = static_cast<float>(v.x() + v.w()); });")
    r = x.random()
    if r < 0.08:
        flags.append("-fsycl-fp64-conv-emu")
    elif r < 0.13:
        flags.append("-fno-sycl-id-queries-fit-in-int")
    elif r < 0.18:
        flags.append("-fsycl-id-queries-range=uint")
    return {"kernels": kernels, "classes": classes, "flags": flags}


def extended4(seed, w, scs, dgs):
    """The kernels of seeds from 1600 on (see the module docs), from a stream of their own."""
    x = random.Random(f"extended4-{seed}")
    kernels, classes = [], []

    def add(name, body):
        classes.append(name)
        kernels.append(f"  q.submit([&](sycl::handler &h) {{ {body} }});")

    ints = [n for n, t in dgs if t in ("int", "long")]
    features = x.sample(["vfunc", "jmatrix", "localacc", "glmhelper", "scratchhelper", "aspectchain"],
                        x.choice([0, 1, 1, 2, 3]))
    if "vfunc" in features:
        named = x.random() < 0.5
        if named:
            w("class VSet;")
        prop = "syclex::indirectly_callable_in<VSet>" if named else "syclex::indirectly_callable"
        calls = "syclex::assume_indirect_calls_to<VSet>" if named else "syclex::assume_indirect_calls"
        # (A device global read in the override: the virtual function's image needs it too.)
        extra = f" + static_cast<int>({ints[0]}.get())" if ints and x.random() < 0.5 else ""
        w(f"struct VB {{ SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(({prop})) virtual int get(int v) const {{ return v + 1; }} }};")
        w(f"struct VD : VB {{ SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(({prop})) int get(int v) const override {{ return v * {x.randint(2, 9)}{extra}; }} }};")
        w("VB *vobj = nullptr;")
        add("KVMake", "VB *p = vobj; h.single_task<KVMake>([=] { new (p) VD; });")
        for i in range(x.choice([1, 2])):
            sc = [c for c in scs if c[1] in ("int", "short", "long")]
            if sc and x.random() < 0.5:
                # (Spec constants beside the indirect call, through the kernel_handler.)
                add(f"KVCall{i}", f"VB *p = vobj; h.single_task<KVCall{i}>(syclex::properties{{{calls}}}, [=](sycl::kernel_handler kh) {{ "
                    f"a[{i + 1}] = p->get(a[0]) + static_cast<int>(kh.get_specialization_constant<{sc[0][0]}>()); }});")
            else:
                add(f"KVCall{i}", f"VB *p = vobj; h.single_task<KVCall{i}>(syclex::properties{{{calls}}}, [=] {{ a[{i + 1}] = p->get(a[0]); }});")
    if "jmatrix" in features:
        w("#include <sycl/ext/oneapi/matrix/matrix.hpp>")
        w("namespace mx = sycl::ext::oneapi::experimental::matrix;")
        w("sycl::ext::oneapi::bfloat16 *jm_a = nullptr;")
        add("KJMad", "auto pa = jm_a; h.parallel_for<KJMad>(sycl::nd_range<2>({1, 16}, {1, 16}), [=](sycl::nd_item<2> it) [[sycl::reqd_sub_group_size(16)]] { "
            "auto sg = it.get_sub_group(); "
            "mx::joint_matrix<sycl::sub_group, sycl::ext::oneapi::bfloat16, mx::use::a, 8, 16, mx::layout::row_major> ma; "
            "mx::joint_matrix<sycl::sub_group, sycl::ext::oneapi::bfloat16, mx::use::b, 16, 16, mx::layout::row_major> mb; "
            "mx::joint_matrix<sycl::sub_group, float, mx::use::accumulator, 8, 16> mc; "
            "auto ga = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(pa); "
            "auto gc = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(f); "
            "mx::joint_matrix_fill(sg, mc, 0.0f); mx::joint_matrix_load(sg, ma, ga, 16); mx::joint_matrix_load(sg, mb, ga + 128, 16); "
            "mx::joint_matrix_mad(sg, mc, ma, mb, mc); mx::joint_matrix_store(sg, mc, gc, 16, mx::layout::row_major); });")
    if "localacc" in features:
        if x.random() < 0.5:
            add("KLAcc", "sycl::local_accessor<int, 1> la(16, h); h.parallel_for<KLAcc>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) { "
                "size_t l = it.get_local_linear_id(); la[l] = a[it.get_global_linear_id()]; sycl::group_barrier(it.get_group()); "
                "a[it.get_global_linear_id()] = la[15 - l]; });")
        else:
            w("struct FLAcc { sycl::local_accessor<float, 1> la; float *p; void operator()(sycl::nd_item<1> it) const { "
              "size_t l = it.get_local_linear_id(); la[l] = p[it.get_global_linear_id()]; sycl::group_barrier(it.get_group()); "
              "p[it.get_global_linear_id()] = la[15 - l] * 2.0f; } };")
            kernels.append("  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(32, 16), FLAcc{sycl::local_accessor<float, 1>(16, h), f}); });")
    if "glmhelper" in features:
        # (Local memory allocated in a helper: the kernels calling it are the ones marked.)
        w("__attribute__((noinline)) int glm_sum(sycl::nd_item<1> it, int v) { "
          "int *loc = *sycl::ext::oneapi::group_local_memory_for_overwrite<int[16]>(it.get_group()); "
          "loc[it.get_local_linear_id()] = v; sycl::group_barrier(it.get_group()); return loc[15 - it.get_local_linear_id()]; }")
        for i in range(x.choice([1, 2])):
            add(f"KGlm{i}", f"h.parallel_for<KGlm{i}>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {{ "
                f"a[it.get_global_linear_id()] = glm_sum(it, a[it.get_global_linear_id()] + {i}); }});")
    if "scratchhelper" in features:
        # (The dynamic local memory read in a helper, not in the kernel.)
        w("__attribute__((noinline)) int *scratch_ptr() { return static_cast<int *>(syclex::get_work_group_scratch_memory()); }")
        kernels.append("  { syclex::launch_config cfg{sycl::nd_range<1>(32, 16), syclex::properties{syclex::work_group_scratch_size(16 * sizeof(int))}}; "
                       "syclex::nd_launch<KScrH>(q, cfg, [=](sycl::nd_item<1> it) { int *loc = scratch_ptr(); size_t l = it.get_local_linear_id(); "
                       "loc[l] = a[it.get_global_linear_id()]; sycl::group_barrier(it.get_group()); a[it.get_global_linear_id()] = loc[15 - l]; }); }")
        classes.append("KScrH")
    if "aspectchain" in features:
        # (An aspect three calls down, reached from kernels at different depths and sub-group sizes.)
        leaf = x.choice([("double", "static_cast<int>(static_cast<double>(v) * 1.5)"),
                         ("half", "static_cast<int>(sycl::half(v) * sycl::half(2.0f))")])
        w(f"__attribute__((noinline)) int ac_leaf(int v) {{ return {leaf[1]}; }}")
        w("__attribute__((noinline)) int ac_mid(int v) { return ac_leaf(v) + 1; }")
        w("__attribute__((noinline)) int ac_top(int v) { return ac_mid(v) * 2; }")
        add("KAcTop", "h.single_task<KAcTop>([=] { a[3] = ac_top(a[4]); });")
        sg = x.choice([8, 16])
        add("KAcMid", f"h.parallel_for<KAcMid>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size({sg})]] {{ "
            "a[it.get_global_linear_id()] = ac_mid(a[it.get_global_linear_id()]); });")
    return {"kernels": kernels, "classes": classes}


def extended5(seed, w, scs):
    """The kernels of seeds from 1720 on (see the module docs), from a stream of their own."""
    x = random.Random(f"extended5-{seed}")
    kernels, classes = [], []

    def add(name, body):
        classes.append(name)
        kernels.append(f"  q.submit([&](sycl::handler &h) {{ {body} }});")

    features = x.sample(["ptrmath", "fence", "jmapply", "sampled", "esimdasm", "esimdgather"],
                        x.choice([0, 1, 1, 2, 3]))
    if "ptrmath" in features:
        # (OpenCL.std instructions with a pointer operand, and vector loads and stores.)
        sc = [c for c in scs if c[1] in ("float", "int")]
        read = f" + static_cast<float>(kh.get_specialization_constant<{sc[0][0]}>())" if sc and x.random() < 0.5 else ""
        arg = ", sycl::kernel_handler kh" if read else ""
        add("KPtrMath", f"h.parallel_for<KPtrMath>(sycl::range<1>(8), [=](sycl::id<1> i{arg}) {{ "
            "int e; float c; float ip; "
            "float m = sycl::frexp(f[i], sycl::private_ptr<int>(&e)); "
            "float s = sycl::sincos(f[i], sycl::private_ptr<float>(&c)); "
            "float fr = sycl::modf(f[i], sycl::private_ptr<float>(&ip)); "
            "sycl::vec<float, 4> v; v.load(0, sycl::global_ptr<const float>(f)); v.store(1, sycl::global_ptr<float>(f)); "
            f"f[i] = m + s + c + fr + ip + e{read}; }});")
    if "fence" in features:
        scope = x.choice(["system", "device", "work_group"])
        add("KFence", "h.single_task<KFence>([=] { "
            f"sycl::atomic_ref<int, sycl::memory_order::seq_cst, sycl::memory_scope::{scope}> r(a[0]); r.fetch_add(1); "
            f"sycl::atomic_fence(sycl::memory_order::{x.choice(['acq_rel', 'seq_cst', 'release'])}, sycl::memory_scope::{scope}); "
            "a[1] = r.load(); });")
    if "jmapply" in features:
        w("#include <sycl/ext/oneapi/matrix/matrix.hpp>")
        w("namespace mx5 = sycl::ext::oneapi::experimental::matrix;")
        add("KJApply", "h.parallel_for<KJApply>(sycl::nd_range<2>({1, 16}, {1, 16}), [=](sycl::nd_item<2> it) [[sycl::reqd_sub_group_size(16)]] { "
            "auto sg = it.get_sub_group(); "
            "mx5::joint_matrix<sycl::sub_group, float, mx5::use::accumulator, 8, 16> mc; "
            "auto gc = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(f); "
            f"mx5::joint_matrix_fill(sg, mc, {x.randint(1, 4)}.0f); "
            "mx5::joint_matrix_apply(sg, mc, [](float &v) { v = v * 2.0f; }); "
            "mx5::joint_matrix_prefetch<8, 16>(sg, f, 16, mx5::layout::row_major, syclex::properties{syclex::prefetch_hint_L1}); "
            "mx5::joint_matrix_store(sg, mc, gc, 16, mx5::layout::row_major); });")
    if "sampled" in features:
        w("#include <sycl/ext/oneapi/bindless_images.hpp>")
        w("syclex::sampled_image_handle simg5;")
        add("KSampled", "auto img = simg5; h.single_task<KSampled>([=] { "
            "sycl::float4 px = syclex::sample_image<sycl::float4>(img, sycl::float2(0.5f, 0.25f)); f[0] = px[0] + px[3]; });")
    if "esimdasm" in features or "esimdgather" in features:
        w("#include <sycl/ext/intel/esimd.hpp>")
    if "esimdasm" in features:
        # (Inline assembly: OpAsmTargetINTEL and OpAsmINTEL in the ESIMD image.)
        add("KEAsm", "h.single_task<KEAsm>([=]() SYCL_ESIMD_KERNEL { "
            "sycl::ext::intel::esimd::simd<float, 16> va(f); sycl::ext::intel::esimd::simd<float, 16> vb; "
            "\n#ifdef __SYCL_DEVICE_ONLY__\n"
            "__asm__(\"add (M1, 16) %0 %1 %1\" : \"=rw\"(vb.data_ref()) : \"rw\"(va.data()));"
            "\n#endif\n"
            "vb.copy_to(f); });")
    if "esimdgather" in features:
        add("KEGather", "h.parallel_for<KEGather>(sycl::range<1>(2), [=](sycl::id<1> i) SYCL_ESIMD_KERNEL { "
            "sycl::ext::intel::esimd::simd<int, 8> v = sycl::ext::intel::esimd::block_load<int, 8>(a + i * 8); "
            "sycl::ext::intel::esimd::simd<uint32_t, 8> offs(0, 4); "
            "auto g = sycl::ext::intel::esimd::gather<int, 8>(a, offs); "
            "sycl::ext::intel::esimd::block_store(a + i * 8, v + g); });")
    return {"kernels": kernels, "classes": classes}


def esimd_kernel(r, k):
    """An ESIMD kernel (DPC++ keeps ESIMD and SYCL kernels in different images)."""
    # (A SYCL_EXTERNAL function cannot be called from ESIMD: the ESIMD kernels share `esh`.)
    call = "v = v * esh(2.0f);" if r.random() < 0.6 else ""
    return (f"  q.submit([&](sycl::handler &h) {{ h.parallel_for<K{k}>(sycl::range<1>(2), [=](sycl::id<1> i) SYCL_ESIMD_KERNEL {{ "
            f"sycl::ext::intel::esimd::simd<float, 8> v(0.0f, 1.0f); {call} v.copy_to(f + 16 + i * 8); }}); }});")


def kernel(r, k, scs, dgs, helpers, functors, kh_helper):
    form = r.choice(["single", "range", "nd", "nd", "functor", "propfunctor"])
    dims = r.choice([1, 1, 1, 2, 3])
    nd = form in ("nd", "propfunctor") or (form == "functor" and r.random() < 0.5)
    if form == "single":
        dims = 1
    local = [r.choice([2, 4, 8]) for _ in range(dims)]
    glob = [l * r.choice([1, 2, 4]) for l in local]
    # Body.
    want_kh = False
    body = []
    idx = "0"
    if form != "single":
        idx = "it.get_global_linear_id()" if nd else ("it.get_linear_id()" if dims > 1 else "it[0]")
    aspects_used = set()
    feats = r.sample(
        ["dbl", "half", "atom64", "atom32", "helper", "sc", "dg", "printf", "assert", "math",
         "group", "local", "sg", "khh", "stream"],
        r.randint(1, 4),
    )
    body.append(f"int acc = a[{idx}];")
    for ft in feats:
        if ft == "dbl":
            body.append(f"d[{idx}] = d[{idx}] * 1.5 + acc;")
            aspects_used.add("fp64")
        elif ft == "half":
            body.append("sycl::half hv = static_cast<sycl::half>(f[1]); f[2] = static_cast<float>(hv * hv);")
            aspects_used.add("fp16")
        elif ft == "atom64":
            body.append("sycl::atomic_ref<unsigned long long, sycl::memory_order::relaxed, sycl::memory_scope::device> r64(u[0]); r64.fetch_add(1);")
            aspects_used.add("atomic64")
        elif ft == "atom32":
            body.append("sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> r32(a[1]); r32.fetch_add(acc);")
        elif ft == "helper" and helpers:
            body.append(f"acc += {r.choice(helpers)}(acc);")
        elif ft == "sc" and scs:
            want_kh = True
            for name, t in r.sample(scs, r.randint(1, len(scs))):
                v = f"kh.get_specialization_constant<{name}>()"
                if t == "Pt":
                    body.append(f"{{ Pt p = {v}; acc += p.a + static_cast<int>(p.b); }}")
                elif t == "Arr3":
                    body.append(f"{{ Arr3 p = {v}; acc += p.v[0] + p.v[2]; }}")
                elif t == "sycl::half":
                    body.append(f"f[3] = static_cast<float>({v});")
                    aspects_used.add("fp16")
                elif t == "double":
                    body.append(f"d[1] = {v};")
                    aspects_used.add("fp64")
                else:
                    body.append(f"acc += static_cast<int>({v});")
        elif ft == "dg" and dgs:
            name, t = r.choice(dgs)
            if t == "int[4]":
                body.append(f"{name}[acc & 3] = acc; acc += {name}[1];")
            elif t == "Pt":
                body.append(f"acc += {name}.get().a;")
            else:
                body.append(f"{name} = {name} + acc; acc += static_cast<int>({name}.get());")
        elif ft == "khh" and kh_helper:
            want_kh = True
            body.append(f"acc += {kh_helper}(kh);")
        elif ft == "stream" and form != "functor" and form != "propfunctor":
            body.append("os << acc << sycl::endl;")
        elif ft == "printf":
            body.append("syclex::printf(fmt, acc);")
        elif ft == "assert":
            body.append("assert(acc != 12345);")
        elif ft == "math":
            body.append(f"f[{idx}] = sycl::sin(f[{idx}]) + sycl::exp(f[4]) * sycl::sqrt(f[5]);")
        elif ft == "group" and nd:
            body.append("acc = sycl::reduce_over_group(it.get_group(), acc, sycl::plus<int>());")
        elif ft == "sg" and nd:
            body.append("acc += sycl::shift_group_left(it.get_sub_group(), acc, 1);")
        elif ft == "local" and nd:
            body.append("lm[it.get_local_linear_id() % 16] = acc; sycl::group_barrier(it.get_group()); acc += lm[0];")
    body.append(f"a[{idx}] = acc;")
    uses_local = any("lm[" in b for b in body)
    uses_stream = any("os <<" in b for b in body)

    # Attributes and properties.
    attrs = []
    props = []
    if nd and r.random() < 0.35:
        if form == "propfunctor":
            props.append(f"syclex::work_group_size<{', '.join(map(str, local))}>")
        else:
            attrs.append(f"sycl::reqd_work_group_size({', '.join(map(str, local))})")
    elif nd and r.random() < 0.15:
        if form == "propfunctor":
            props.append(f"syclex::work_group_size_hint<{', '.join(map(str, local))}>")
        else:
            attrs.append(f"sycl::work_group_size_hint({', '.join(map(str, local))})")
    if nd and r.random() < 0.2 and not props and not attrs:
        if form == "propfunctor":
            props.append("syclex::max_linear_work_group_size<256>")
        else:
            attrs.append(f"intel::max_work_group_size({', '.join(['64'] * dims)})")
    if form != "single" and r.random() < 0.25:
        sg = r.choice([8, 16, 32])
        if form == "propfunctor":
            props.append(f"syclex::sub_group_size<{sg}>")
        else:
            attrs.append(f"sycl::reqd_sub_group_size({sg})")
    # (device_has names only aspects the body uses: declared aspects alone are not in SPIR-V,
    # a known gap of the split, docs/split.md.)
    if form == "propfunctor" and r.random() < 0.3:
        props.append(r.choice([
            "intelex::grf_size<256>", "intelex::grf_size<128>", "intelex::grf_size_automatic",
            "intelex::cache_config(intelex::large_slm)",
        ]))
    if form == "propfunctor" and not any("work_group_size" in p for p in props) and r.random() < 0.15:
        props.append(f"syclex::max_work_group_size<{', '.join(['64'] * dims)}>")
    fpga = r.random() < 0.1
    if fpga:
        if form == "single":
            attrs.append(r.choice(["intel::max_global_work_dim(0)", "intel::kernel_args_restrict"]))
        elif form not in ("propfunctor",):
            attrs.append(r.choice(["intel::kernel_args_restrict", "intel::no_global_work_offset(1)"]))
    if r.random() < 0.2 and aspects_used:
        has = sorted(aspects_used)
        has_txt = ", ".join(f"sycl::aspect::{a}" for a in has)
        if form == "propfunctor":
            props.append(f"syclex::device_has<{has_txt}>")
        else:
            attrs.append(f"sycl::device_has({has_txt})")

    item = "sycl::nd_item" if nd else ("sycl::item" if dims > 1 else "sycl::id")
    kh = ", sycl::kernel_handler kh" if want_kh else ""
    body_txt = " ".join(body)
    attr_txt = f" [[{', '.join(attrs)}]]" if attrs else ""
    dims_txt = ", ".join(map(str, glob))
    local_txt = ", ".join(map(str, local))
    rng = f"sycl::range<{dims}>({dims_txt})"
    ndr = f"sycl::nd_range<{dims}>(sycl::range<{dims}>({dims_txt}), sycl::range<{dims}>({local_txt}))"
    lm_decl = "sycl::local_accessor<int, 1> lm(16, h); " if uses_local else ""
    if uses_stream:
        lm_decl += "sycl::stream os(1024, 256, h); "
    if form in ("functor", "propfunctor"):
        # Functors: the captured pointers as members, the local accessor too.
        members = "int *a; float *f; double *d; unsigned long long *u;"
        if uses_local:
            members += " sycl::local_accessor<int, 1> lm;"
        get = ""
        if props:
            get = f" auto get(syclex::properties_tag) const {{ return syclex::properties{{{', '.join(props)}}}; }}"
        op_attr = f"[[{', '.join(attrs)}]] " if attrs else ""
        functors.append(
            f"struct F{k} {{ {members} {op_attr}void operator()({item}<{dims}> it{kh}) const {{ {body_txt} }}{get} }};"
        )
        init = "a, f, d, u" + (", lm" if uses_local else "")
        launch = ndr if nd else rng
        return (f"  q.submit([&](sycl::handler &h) {{ {lm_decl}h.parallel_for({launch}, F{k}{{{init}}}); }});")
    if form == "single":
        args = "sycl::kernel_handler kh" if want_kh else ""
        return (f"  q.submit([&](sycl::handler &h) {{ {lm_decl}h.single_task<K{k}>([=]({args}){attr_txt} {{ {body_txt} }}); }});")
    launch = ndr if nd else rng
    return (f"  q.submit([&](sycl::handler &h) {{ {lm_decl}h.parallel_for<K{k}>({launch}, [=]({item}<{dims}> it{kh}){attr_txt} {{ {body_txt} }}); }});")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    seed, outdir = int(sys.argv[1]), sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    src, flags = gen(seed)
    with open(os.path.join(outdir, "source.cpp"), "w") as fh:
        fh.write(src)
    with open(os.path.join(outdir, "flags"), "w") as fh:
        fh.write(flags + "\n")


if __name__ == "__main__":
    main()
