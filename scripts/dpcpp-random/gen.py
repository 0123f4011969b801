#!/usr/bin/env python3
"""Random SYCL 2020 specialization-constant source generator (differential campaign vs DPC++).

A developer tool behind campaign.py (see there).

usage: gen.py SEED OUTDIR        ($GEN_NO_UNION=1: no unions; $GEN_SMALL=1: fewer constants
                                  and reads, for sources that are run)
Writes OUTDIR/source.cpp (with a `// gen:` line holding compiler flags) and OUTDIR/model.json:
per spec constant its variable name, symbolic ID, C++ type, modelled size, the byte regions
(offset, size, kind) used to draw valid override values, and the modelled default bytes + mask
(which bytes the model knows: padding and NaN payloads excluded).
"""
import json
import math
import os
import random
import struct
import sys

PREFIX = "uid0123456789abcdef___"


def align_up(x, a):
    return (x + a - 1) // a * a


# ----------------------------------------------------------------------------------------------
# value helpers
# ----------------------------------------------------------------------------------------------

def f32_bits_rand(rng):
    c = rng.random()
    if c < 0.45:
        e = rng.choice([127, 127, 128, 130, 120, 140, 100, 160, 1, 254])
        return (rng.getrandbits(1) << 31) | (e << 23) | rng.getrandbits(23)
    return rng.choice([
        0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001,
        0x007fffff, 0x00012345, 0x80000001, 0x7f7fffff, 0x00800000, 0x3f800000,
        0x7fc00000 | rng.getrandbits(22), 0x7f800001 + rng.getrandbits(21), 0xffc00000])


def f64_bits_rand(rng):
    c = rng.random()
    if c < 0.45:
        e = rng.choice([1023, 1024, 1030, 1000, 1100, 1, 2046])
        return (rng.getrandbits(1) << 63) | (e << 52) | rng.getrandbits(52)
    return rng.choice([
        0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 1,
        0x000fffffffffffff, 0x7fefffffffffffff, 0x0010000000000000, 0x3ff0000000000000,
        0x7ff8000000000000 | rng.getrandbits(40), 0x7ff0000000000001 + rng.getrandbits(40)])


def f16_bits_rand(rng):
    c = rng.random()
    if c < 0.45:
        e = rng.choice([15, 15, 16, 17, 10, 20, 1, 30])
        return (rng.getrandbits(1) << 15) | (e << 10) | rng.getrandbits(10)
    return rng.choice([0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x03ff, 0x7bff, 0x0400,
                       0x3c00, 0x7e00 | rng.getrandbits(9), 0x7c01 + rng.getrandbits(8)])


def is_nan_bits(bits, kind):
    if kind == "f32":
        return (bits & 0x7f800000) == 0x7f800000 and (bits & 0x7fffff)
    if kind == "f64":
        return (bits & 0x7ff0000000000000) == 0x7ff0000000000000 and (bits & ((1 << 52) - 1))
    return (bits & 0x7c00) == 0x7c00 and (bits & 0x3ff)


def half_to_float(bits):
    return struct.unpack("<e", struct.pack("<H", bits))[0]


def float_lit(v, suffix):
    if v == 0.0:
        return ("-0.0" if math.copysign(1, v) < 0 else "0.0") + suffix
    return v.hex() + suffix


# ----------------------------------------------------------------------------------------------
# types
# ----------------------------------------------------------------------------------------------

class Val:
    """A default value: cpp = C++ expression, data = bytes, mask = known bytes."""

    def __init__(self, cpp, data, mask):
        self.cpp, self.data, self.mask = cpp, bytes(data), bytes(mask)


class Ty:
    trivial = True  # trivial default constructor
    zok = True      # T{} is a constant expression
    vok = True      # T() (value-initialization) is a constant expression
    pod = True
    has_pad = False
    no_memcpy = False  # whole-object memcpy not comparable (vec3, unions, bitfields)
    bool_free = True
    is_class = False

    @property
    def dsize(self):
        return self.size


INT_TYPES = {
    # name: (size, signed)
    "char": (1, True), "signed char": (1, True), "unsigned char": (1, False),
    "short": (2, True), "unsigned short": (2, False), "int": (4, True), "unsigned": (4, False),
    "long": (8, True), "unsigned long": (8, False), "long long": (8, True),
    "unsigned long long": (8, False),
}


class Scalar(Ty):
    def __init__(self, name):
        self.cpp = name
        if name == "bool":
            self.size, self.kind = 1, "bool"
            self.bool_free = False
        elif name in INT_TYPES:
            self.size, self.signed = INT_TYPES[name]
            self.kind = "int"
        elif name == "float":
            self.size, self.kind = 4, "f32"
        elif name == "double":
            self.size, self.kind = 8, "f64"
        elif name == "sycl::half":
            self.size, self.kind = 2, "f16"
        else:
            raise ValueError(name)
        self.align = self.size
        self.leaves = 1

    def regions(self, off):
        return [(off, self.size, self.kind)]

    def reads(self, e):
        return [(e, self.write_kind())]

    def write_kind(self):
        if self.kind == "bool":
            return "bool"
        return self.cpp

    def int_literal(self, v):
        size, signed = INT_TYPES[self.cpp]
        if signed and v == -(1 << (size * 8 - 1)):
            lit = f"(-{(1 << (size * 8 - 1)) - 1}{'LL' if size == 8 else ''}-1)"
        else:
            lit = f"{v}{'ULL' if (not signed and size == 8) else 'LL' if size == 8 else 'U' if not signed else ''}"
        return f"({self.cpp}){lit}"

    def rand_value(self, rng, zero=False):
        if self.kind == "bool":
            b = False if zero else rng.random() < 0.6
            return Val("true" if b else "false", [int(b)], [1])
        if self.kind == "int":
            size, signed = INT_TYPES[self.cpp]
            bits = size * 8
            if zero:
                v = 0
            else:
                r = rng.random()
                lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
                if r < 0.3:
                    v = rng.choice([lo, hi, 0, 1, -1 if signed else hi - 1, lo + 1])
                elif r < 0.6:
                    v = rng.randint(max(lo, -100), min(hi, 100))
                else:
                    v = rng.randint(lo, hi)
            data = (v & ((1 << bits) - 1)).to_bytes(size, "little")
            return Val(self.int_literal(v), data, [1] * size)
        if self.kind == "f32":
            bits = 0 if zero else f32_bits_rand(rng)
            data = bits.to_bytes(4, "little")
            return Val(self.f32_expr(bits), data, [1] * 4 if not is_nan_bits(bits, "f32") else [0] * 4)
        if self.kind == "f64":
            bits = 0 if zero else f64_bits_rand(rng)
            data = bits.to_bytes(8, "little")
            return Val(self.f64_expr(bits), data, [1] * 8 if not is_nan_bits(bits, "f64") else [0] * 8)
        if self.kind == "f16":
            bits = 0 if zero else f16_bits_rand(rng)
            data = bits.to_bytes(2, "little")
            nan = is_nan_bits(bits, "f16")
            if nan:
                e = "sycl::half(__builtin_nanf(\"\"))" if not bits & 0x8000 else "sycl::half(-__builtin_nanf(\"\"))"
                data = (0x7e00 | (bits & 0x8000)).to_bytes(2, "little")
            elif (bits & 0x7fff) == 0x7c00:
                e = "sycl::half(__builtin_inff())" if not bits & 0x8000 else "sycl::half(-__builtin_inff())"
            else:
                e = f"sycl::half({float_lit(half_to_float(bits), 'f')})"
            return Val(e, data, [0, 0] if nan else [1, 1])
        raise AssertionError

    @staticmethod
    def f32_expr(bits):
        if is_nan_bits(bits, "f32"):
            sign = "-" if bits >> 31 else ""
            payload = bits & 0x3fffff
            fn = "__builtin_nanf" if bits & 0x400000 else "__builtin_nansf"
            return f"{sign}{fn}(\"{hex(payload) if payload else ''}\")"
        if (bits & 0x7fffffff) == 0x7f800000:
            return ("-" if bits >> 31 else "") + "__builtin_inff()"
        v = struct.unpack("<f", struct.pack("<I", bits))[0]
        return float_lit(v, "f")

    @staticmethod
    def f64_expr(bits):
        if is_nan_bits(bits, "f64"):
            sign = "-" if bits >> 63 else ""
            payload = bits & ((1 << 51) - 1)
            fn = "__builtin_nan" if bits & (1 << 51) else "__builtin_nans"
            return f"{sign}{fn}(\"{hex(payload) if payload else ''}\")"
        if (bits & ((1 << 63) - 1)) == 0x7ff0000000000000:
            return ("-" if bits >> 63 else "") + "__builtin_inf()"
        v = struct.unpack("<d", struct.pack("<Q", bits))[0]
        return float_lit(v, "")


class Enum(Ty):
    def __init__(self, ctx, rng):
        self.name = ctx.fresh("E")
        self.fixed = rng.random() < 0.8
        self.scoped = rng.random() < 0.5
        if self.fixed:
            self.under = Scalar(rng.choice(["char", "signed char", "unsigned char", "short", "unsigned short",
                                            "int", "unsigned", "long long", "unsigned long long", "bool"]
                                           if rng.random() < 0.1 else
                                           ["unsigned char", "short", "unsigned short", "int", "unsigned",
                                            "long long", "unsigned long long", "signed char"]))
        else:
            self.under = Scalar("int")
        self.size = self.align = self.under.size
        n = rng.randint(1, 4)
        if self.under.kind == "bool":
            n = min(n, 2)
        vals = set()
        while len(vals) < n:
            if self.under.kind == "bool":
                vals.add(rng.randint(0, 1))
            elif self.fixed:
                vals.add(int.from_bytes(self.under.rand_value(rng).data, "little", signed=self.under.signed))
            else:
                vals.add(rng.randint(-5 if rng.random() < 0.3 else 0, 40))
        self.values = sorted(vals)
        if not self.fixed and min(self.values) >= 0:
            self.under = Scalar("unsigned")
        self.cpp = self.name
        self.leaves = 1
        if self.under.kind == "bool":
            self.bool_free = False
        enumerators = ", ".join(
            f"{self.name}_{i} = {self.lit(v)}" for i, v in enumerate(self.values))
        base = f" : {self.under.cpp}" if self.fixed else ""
        ctx.decls.append(f"enum {'class ' if self.scoped else ''}{self.name}{base} {{ {enumerators} }};")

    def lit(self, v):
        if self.under.kind == "bool":
            return "true" if v else "false"
        return self.under.int_literal(v) if self.fixed else str(v)

    def regions(self, off):
        if self.under.kind == "bool":
            return [(off, 1, "bool")]
        if not self.fixed:
            return [(off, self.size, "enum:" + ",".join(map(str, self.values)))]
        return [(off, self.size, "int")]

    def reads(self, e):
        return [(e, "enum:" + self.under.cpp)]

    def rand_value(self, rng, zero=False):
        if zero:
            v = 0
            expr = f"{self.name}{{}}" if self.scoped or self.fixed else f"({self.name})0"
        elif self.fixed and self.under.kind != "bool" and rng.random() < 0.3:
            v = int.from_bytes(self.under.rand_value(rng).data, "little", signed=self.under.signed)
            expr = f"({self.name}){self.under.int_literal(v)}"
        else:
            i = rng.randrange(len(self.values))
            v = self.values[i]
            expr = f"{self.name}::{self.name}_{i}" if self.scoped else f"{self.name}_{i}"
        data = (v & ((1 << (self.size * 8)) - 1)).to_bytes(self.size, "little")
        return Val(expr, data, [1] * self.size)


class Array(Ty):
    """C array (member only) or std::array (std=True)."""

    def __init__(self, elem, n, std=False):
        self.elem, self.n, self.std = elem, n, std
        self.size = elem.size * n
        self.align = elem.align
        self.pod = elem.pod
        self.has_pad = elem.has_pad
        self.no_memcpy = elem.no_memcpy
        self.bool_free = elem.bool_free
        self.leaves = elem.leaves * n
        self.trivial, self.zok, self.vok = elem.trivial, elem.zok, elem.vok
        self.is_class = std
        self.cpp = f"std::array<{elem.cpp}, {n}>" if std else None

    def decl(self, name):
        """Declarator for a member of C array type."""
        dims = []
        t = self
        while isinstance(t, Array) and not t.std:
            dims.append(t.n)
            t = t.elem
        return f"{t.cpp} {name}{''.join(f'[{d}]' for d in dims)}"

    def regions(self, off):
        r = []
        for i in range(self.n):
            r += self.elem.regions(off + i * self.elem.size)
        return r

    def reads(self, e):
        r = []
        for i in range(self.n):
            r += self.elem.reads(f"{e}[{i}]")
        return r

    def rand_value(self, rng, zero=False):
        vals = [self.elem.rand_value(rng, zero) for _ in range(self.n)]
        k = self.n
        if not zero and rng.random() < 0.2 and self.elem.zok:
            k = rng.randint(0, self.n)  # partial initialization: rest value-initialized
            vals = vals[:k] + [self.elem.rand_value(rng, True) for _ in range(self.n - k)]
        if zero and not self.elem.zok:
            k = self.n
        inner = ", ".join(v.cpp for v in vals[:k])
        data, mask = b"".join(v.data for v in vals), b"".join(v.mask for v in vals)
        if self.std:
            return Val(f"{self.cpp}{{{{{inner}}}}}", data, mask)
        return Val(f"{{{inner}}}", data, mask)


class Vec(Ty):
    def __init__(self, elem, n):
        self.elem, self.n = elem, n
        self.adj = 4 if n == 3 else n
        self.size = elem.size * self.adj
        self.align = min(self.size, 64)
        self.pod = False
        self.is_class = True
        self.no_memcpy = n == 3
        self.trivial = False
        self.bool_free = elem.bool_free
        self.leaves = n
        self.cpp = f"sycl::vec<{elem.cpp}, {n}>"

    def regions(self, off):
        r = [(off + i * self.elem.size, self.elem.size, self.elem.kind) for i in range(self.n)]
        if self.adj != self.n:  # the 4th element of a vec3: stored, never read
            r.append((off + 3 * self.elem.size, self.elem.size, "bool" if self.elem.kind == "bool" else "int"))
        return r

    def reads(self, e):
        return [(f"{e}[{i}]", self.elem.write_kind()) for i in range(self.n)]

    def rand_value(self, rng, zero=False):
        if zero or rng.random() < 0.05:
            vals = [self.elem.rand_value(rng, True) for _ in range(self.adj)]
            e = f"{self.cpp}{{}}"
        else:
            vals = [self.elem.rand_value(rng) for _ in range(self.n)]
            e = f"{self.cpp}{{{', '.join(v.cpp for v in vals)}}}"
            vals += [self.elem.rand_value(rng, True) for _ in range(self.adj - self.n)]
        data = b"".join(v.data for v in vals)
        mask = b"".join(v.mask for v in vals[:self.n]) + b"\0" * (self.elem.size * (self.adj - self.n))
        return Val(e, data, mask)


class MArray(Ty):
    def __init__(self, elem, n):
        self.elem, self.n = elem, n
        self.size = elem.size * n
        self.align = elem.align
        self.pod = False
        self.is_class = True
        self.bool_free = elem.bool_free
        self.leaves = n
        self.trivial = False
        self.cpp = f"sycl::marray<{elem.cpp}, {n}>"

    def regions(self, off):
        return [(off + i * self.elem.size, self.elem.size, self.elem.kind) for i in range(self.n)]

    def reads(self, e):
        return [(f"{e}[{i}]", self.elem.write_kind()) for i in range(self.n)]

    def rand_value(self, rng, zero=False):
        vals = [self.elem.rand_value(rng, zero) for _ in range(self.n)]
        e = f"{self.cpp}{{{', '.join(v.cpp for v in vals)}}}" if not zero else f"{self.cpp}{{}}"
        return Val(e, b"".join(v.data for v in vals), b"".join(v.mask for v in vals))


class Pair(Ty):
    def __init__(self, a, b):
        self.a, self.b = a, b
        self.off_b = align_up(a.size, b.align)
        self.align = max(a.align, b.align)
        self.size = align_up(self.off_b + b.size, self.align)
        self.pod = False
        self.is_class = True
        self.has_pad = a.has_pad or b.has_pad or self.off_b != a.size or self.size != self.off_b + b.size
        self.no_memcpy = a.no_memcpy or b.no_memcpy
        self.bool_free = a.bool_free and b.bool_free
        self.leaves = a.leaves + b.leaves
        self.trivial = False
        self.zok = self.vok = a.vok and b.vok
        self.cpp = f"std::pair<{a.cpp}, {b.cpp}>"

    def regions(self, off):
        return self.a.regions(off) + self.b.regions(off + self.off_b)

    def reads(self, e):
        return self.a.reads(f"{e}.first") + self.b.reads(f"{e}.second")

    def rand_value(self, rng, zero=False):
        va, vb = self.a.rand_value(rng, zero), self.b.rand_value(rng, zero)
        data = bytearray(self.size)
        mask = bytearray(self.size)
        data[:self.a.size], mask[:self.a.size] = va.data, va.mask
        data[self.off_b:self.off_b + self.b.size] = vb.data
        mask[self.off_b:self.off_b + self.b.size] = vb.mask
        e = f"{self.cpp}{{{va.cpp}, {vb.cpp}}}"
        return Val(e, data, mask)


class Union(Ty):
    def __init__(self, ctx, rng):
        self.name = self.cpp = ctx.fresh("U")
        self.is_class = True
        self.no_memcpy = True
        self.members = []
        for i in range(rng.randint(2, 3)):
            t = Scalar(rng.choice(["int", "float", "short", "double", "long long", "unsigned char",
                                   "char", "unsigned", "sycl::half"]))
            if rng.random() < 0.35:
                t = Array(t, rng.randint(1, 7))
            self.members.append((f"m{i}", t))
        self.align = max(t.align for _, t in self.members)
        self.size = align_up(max(t.size for _, t in self.members), self.align)
        self.leaves = sum(t.leaves for _, t in self.members)
        self.pod = True
        self.has_pad = False  # unknown: LLVM models a union as its most aligned member + bytes
        body = " ".join((t.decl(n) if isinstance(t, Array) else f"{t.cpp} {n}") + ";" for n, t in self.members)
        ctx.decls.append(f"union {self.name} {{ {body} }};")

    def regions(self, off):
        return [(off, self.size, "raw")]

    def reads(self, e):
        r = []
        for n, t in self.members:
            r += t.reads(f"{e}.{n}")
        return r

    def rand_value(self, rng, zero=False):
        data = bytearray(self.size)
        mask = bytearray(self.size)
        if zero:
            return Val(f"{self.name}{{}}", data, mask)
        i = 0 if rng.random() < 0.6 else rng.randrange(len(self.members))
        n, t = self.members[i]
        v = t.rand_value(rng)
        data[:t.size] = v.data
        mask[:t.size] = v.mask
        init = f"{self.name}{{{v.cpp}}}" if i == 0 else f"{self.name}{{.{n} = {v.cpp}}}"
        return Val(init, data, mask)


class Field:
    def __init__(self, name, ty, alignas=None, bits=None, nsdmi=None):
        self.name, self.ty, self.alignas, self.bits, self.nsdmi = name, ty, alignas, bits, nsdmi
        self.off = None  # bytes (bit offset for bitfields in bitoff)
        self.bitoff = None


class Struct(Ty):
    def __init__(self, ctx, rng, depth, big=False):
        self.name = self.cpp = ctx.fresh("S")
        self.is_class = True
        self.bases = []  # (Struct or EmptyBase)
        self.fields = []
        self.struct_align = None
        # bases
        r = rng.random()
        if r < 0.2:
            for _ in range(rng.randint(1, 2)):
                self.bases.append(EmptyBase(ctx))
        elif r < 0.3 and depth < 3:
            b = Struct(ctx, rng, depth + 1)
            if not b.bases or all(isinstance(x, EmptyBase) for x in b.bases):
                self.bases.append(b)
        nf = rng.randint(1, 5) if not big else rng.randint(4, 9)
        bitfield_run = rng.random() < 0.2
        for i in range(nf):
            name = f"f{i}"
            if bitfield_run and rng.random() < 0.7:
                bt = Scalar(rng.choice(["unsigned", "int", "unsigned char", "unsigned short", "unsigned long long",
                                        "short", "bool", "unsigned", "long long"]))
                w = 1 if bt.kind == "bool" else rng.randint(1, bt.size * 8)
                self.fields.append(Field(name, bt, bits=w))
                continue
            t = ctx.rand_type(rng, depth + 1, member=True)
            if big and rng.random() < 0.5:
                t = Array(t if t.size <= 16 else Scalar("int"), rng.randint(4, 12))
            al = None
            if rng.random() < 0.12:
                al = rng.choice([2, 4, 8, 16, 32])
                if al <= t.align:
                    al = None
            self.fields.append(Field(name, t, alignas=al))
        self.layout()
        if rng.random() < 0.08:
            al = rng.choice([8, 16, 32])
            if al > self.align:
                self.struct_align = al
        # NSDMIs (make the struct non-POD for layout)
        for f in self.fields:
            if f.bits is None and not isinstance(f.ty, Array) and rng.random() < 0.12:
                f.nsdmi = f.ty.rand_value(rng)
        self.layout()
        # declaration
        parts = []
        for f in self.fields:
            al = f"alignas({f.alignas}) " if f.alignas else ""
            if f.bits is not None:
                parts.append(f"{f.ty.cpp} {f.name} : {f.bits};")
            elif isinstance(f.ty, Array) and not f.ty.std:
                parts.append(f"{al}{f.ty.decl(f.name)};")
            else:
                init = f" = {f.nsdmi.cpp}" if f.nsdmi else ""
                parts.append(f"{al}{f.ty.cpp} {f.name}{init};")
        bases = (" : " + ", ".join(b.cpp for b in self.bases)) if self.bases else ""
        sa = f"alignas({self.struct_align}) " if self.struct_align else ""
        ctx.decls.append(f"struct {sa}{self.name}{bases} {{ {' '.join(parts)} }};")

    def layout(self):
        bitoff = 0
        align = self.struct_align or 1
        self.base_offs = []
        pod = not self.bases
        for b in self.bases:
            align = max(align, b.align)
            if isinstance(b, EmptyBase):
                self.base_offs.append(0)
                continue
            off = align_up((bitoff + 7) // 8, b.align)
            self.base_offs.append(off)
            bitoff = (off + b.dsize) * 8
        for f in self.fields:
            t = f.ty
            if f.bits is not None:
                unit = t.align * 8
                if bitoff // unit != (bitoff + f.bits - 1) // unit:
                    bitoff = align_up(bitoff, unit)
                f.bitoff = bitoff
                bitoff += f.bits
                align = max(align, t.align)
                continue
            a = max(t.align, f.alignas or 1)
            off = align_up((bitoff + 7) // 8, a)
            f.off = off
            bitoff = (off + t.size) * 8
            align = max(align, a)
            if not t.pod or f.nsdmi is not None:
                pod = False
        self.align = align
        self.datasize = (bitoff + 7) // 8
        self.size = max(align_up(self.datasize, align), align_up(1, align))
        self.pod = pod
        self.leaves = sum(1 if f.bits is not None else f.ty.leaves for f in self.fields) + \
            sum(b.leaves for b in self.bases if not isinstance(b, EmptyBase))
        self.bool_free = all(f.ty.bool_free for f in self.fields) and all(b.bool_free for b in self.bases)
        nsdmi = lambda f: getattr(f, "nsdmi", None) is not None
        rb = [b for b in self.bases if not isinstance(b, EmptyBase)]
        self.trivial = all(b.trivial for b in rb) and all(not nsdmi(f) and (f.bits is not None or f.ty.trivial) for f in self.fields)
        self.zok = all(b.zok for b in rb) and all(nsdmi(f) or f.bits is not None or f.ty.zok for f in self.fields)
        self.vok = self.trivial or (all((not b.trivial) and b.vok for b in rb) and
                                    all(nsdmi(f) or (f.bits is None and not f.ty.trivial and f.ty.vok) for f in self.fields))
        self.no_memcpy = any(f.bits is not None or f.ty.no_memcpy for f in self.fields) or \
            any(b.no_memcpy for b in self.bases)
        covered = sum(f.ty.size for f in self.fields if f.bits is None) + \
            sum(b.dsize for b in self.bases if not isinstance(b, EmptyBase))
        self.has_pad = (covered != self.size or any(f.ty.has_pad for f in self.fields) or
                        any(b.has_pad for b in self.bases))

    @property
    def dsize(self):
        return self.size if self.pod else self.datasize

    def bitfield_regions(self, off):
        """Byte regions of the bitfields' storage: raw bytes (any bit pattern reads back fine)."""
        bytes_ = set()
        bools = set()
        for f in self.fields:
            if f.bits is None:
                continue
            for b in range(f.bitoff // 8, (f.bitoff + f.bits - 1) // 8 + 1):
                bytes_.add(b)
        return [(off + b, 1, "raw") for b in sorted(bytes_)]

    def regions(self, off):
        r = []
        for b, bo in zip(self.bases, self.base_offs):
            if not isinstance(b, EmptyBase):
                r += b.regions(off + bo)
        r += self.bitfield_regions(off)
        for f in self.fields:
            if f.bits is None:
                r += f.ty.regions(off + f.off)
        return sorted(r)

    def reads(self, e, qual=""):
        r = []
        for b in self.bases:
            if not isinstance(b, EmptyBase):
                r += b.reads(e, b.name + "::")  # qualified: derived members hide the base's
        for f in self.fields:
            if f.bits is not None:
                r.append((f"{e}.{qual}{f.name}", "bf_s" if f.ty.kind != "bool" and f.ty.signed else "bf_u"))
            else:
                r += f.ty.reads(f"{e}.{qual}{f.name}")
        return r

    def rand_value(self, rng, zero=False):
        data = bytearray(self.size)
        mask = bytearray(self.size)
        parts = []
        for b, bo in zip(self.bases, self.base_offs):
            if isinstance(b, EmptyBase):
                parts.append("{}")
                continue
            v = b.rand_value(rng, zero)
            n = b.dsize
            data[bo:bo + n], mask[bo:bo + n] = v.data[:n], v.mask[:n]
            parts.append(v.cpp)
        k = len(self.fields)
        if zero:
            k = 0
        elif rng.random() < 0.25:
            k = rng.randint(0, len(self.fields))
        # omitted members are initialized from their NSDMI or {}: must be constant
        while k < len(self.fields) and not all(f.nsdmi is not None or f.bits is not None or f.ty.zok
                                               for f in self.fields[k:]):
            k += 1
        if zero and k:
            zero = False
        zero_given = k > 0 and not zero and all(i >= k for i in [])  # placeholder
        zero_given = False
        bitint = 0
        bitmask = 0
        for i, f in enumerate(self.fields):
            given = i < k
            if f.bits is not None:
                if given:
                    if f.ty.kind == "bool":
                        v = rng.randint(0, 1)
                        lit = "true" if v else "false"
                    else:
                        lo, hi = (-(1 << (f.bits - 1)), (1 << (f.bits - 1)) - 1) if f.ty.signed else (0, (1 << f.bits) - 1)
                        v = rng.choice([lo, hi, rng.randint(lo, hi), rng.randint(lo, hi)])
                        lit = f"({v})"
                    parts.append(lit)
                else:
                    v = 0
                bitint |= (v & ((1 << f.bits) - 1)) << f.bitoff
                bitmask |= ((1 << f.bits) - 1) << f.bitoff
                continue
            if given:
                v = f.ty.rand_value(rng, zero_given)
                parts.append(v.cpp)
            elif f.nsdmi is not None:
                v = f.nsdmi
            else:
                v = f.ty.rand_value(rng, True)
            data[f.off:f.off + f.ty.size], mask[f.off:f.off + f.ty.size] = v.data, v.mask
        # bitfield bytes: known only where every bit belongs to a field
        for byte in range(self.size):
            m = (bitmask >> (8 * byte)) & 0xff
            if m:
                data[byte] = (bitint >> (8 * byte)) & 0xff
                mask[byte] = 1 if m == 0xff else 0
        if zero and not self.bases:
            e = f"{self.name}{{}}"
        else:
            e = f"{self.name}{{{', '.join(parts)}}}"
        return Val(e, data, mask)


class EmptyBase:
    pod = True
    has_pad = False
    no_memcpy = False
    bool_free = True
    size = 1
    align = 1
    leaves = 0

    def __init__(self, ctx):
        self.cpp = ctx.fresh("Empty")
        ctx.decls.append(f"struct {self.cpp} {{}};")


# ----------------------------------------------------------------------------------------------
# program
# ----------------------------------------------------------------------------------------------

SCALARS = ["bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned",
           "long", "long long", "unsigned long long", "float", "double", "sycl::half"]
VEC_ELEMS = ["char", "short", "int", "long", "float", "double", "sycl::half", "unsigned char",
             "unsigned", "signed char", "unsigned long long", "bool"]


class Ctx:
    def __init__(self):
        self.decls = []
        self.n = 0

    def fresh(self, p):
        self.n += 1
        return f"{p}{self.n}"

    def rand_type(self, rng, depth, member=False, top=False):
        r = rng.random()
        if depth >= 3 or r < 0.35:
            if rng.random() < 0.12:
                return Enum(self, rng)
            return Scalar(rng.choice(SCALARS))
        r = rng.random()
        if r < 0.30:
            return Struct(self, rng, depth, big=rng.random() < 0.12)
        if r < 0.42:
            return Vec(Scalar(rng.choice(VEC_ELEMS)), rng.choice([1, 2, 3, 4, 8, 16]))
        if r < 0.50:
            return MArray(Scalar(rng.choice(SCALARS)), rng.randint(1, 5))
        if r < 0.60:
            return Pair(self.rand_type(rng, depth + 1), self.rand_type(rng, depth + 1))
        if r < 0.72:
            return Array(self.rand_type(rng, depth + 1), rng.randint(1, 5), std=True)
        if r < 0.82 and member:
            t = self.rand_type(rng, depth + 1, member=True)
            if rng.random() < 0.3:
                t = Array(t, rng.randint(1, 3))  # array of arrays
            return Array(t, rng.randint(1, 4))
        if r < 0.90 and not os.environ.get("GEN_NO_UNION"):
            return Union(self, rng)
        return Struct(self, rng, depth, big=rng.random() < 0.3)


WRITE_CAST = {"bool": None}


def write_stmt(e, wk):
    if wk == "bool":
        return f"s.val<unsigned char>(({e}) ? 1 : 0);"
    if wk.startswith("enum:"):
        u = wk[5:]
        if u == "bool":
            # (An element of an array is an lvalue: its decltype is a reference, which a
            # functional cast cannot make from 1. A member's is its declared type.)
            t = f"std::remove_reference_t<decltype({e})>" if e.endswith("]") else f"decltype({e})"
            return f"s.val<unsigned char>(({e}) == {t}(1) ? 1 : 0);"
        return f"s.val<{u}>(({u})({e}));"
    if wk == "bf_s":
        return f"s.val<long long>((long long)({e}));"
    if wk == "bf_u":
        return f"s.val<unsigned long long>((unsigned long long)({e}));"
    return f"s.val<{wk}>({e});"


def feats(t, acc=None):
    """Shape features of a type (for triage)."""
    acc = set() if acc is None else acc
    if isinstance(t, Union):
        acc.add("union")
    elif isinstance(t, Struct):
        acc.add("struct")
        if t.struct_align:
            acc.add("alignas-struct")
        for b in t.bases:
            acc.add("empty-base" if isinstance(b, EmptyBase) else "base")
            if not isinstance(b, EmptyBase):
                feats(b, acc)
        for f in t.fields:
            if f.bits is not None:
                acc.add("bitfield")
                continue
            if f.alignas:
                acc.add("alignas-member")
            if f.nsdmi is not None:
                acc.add("nsdmi")
            feats(f.ty, acc)
        if not t.pod:
            acc.add("nonpod")
    elif isinstance(t, Array):
        acc.add("std::array" if t.std else "c-array")
        feats(t.elem, acc)
    elif isinstance(t, Vec):
        acc.add(f"vec{t.n}")
        feats(t.elem, acc)
    elif isinstance(t, MArray):
        acc.add("marray")
        feats(t.elem, acc)
    elif isinstance(t, Pair):
        acc.add("pair")
        feats(t.a, acc)
        feats(t.b, acc)
    elif isinstance(t, Enum):
        acc.add("enum")
    elif isinstance(t, Scalar):
        acc.add(t.cpp)
    if getattr(t, "size", 0) > 64:
        acc.add("big")
    return acc


def write_size(wk):
    if wk == "bool":
        return 1
    if wk.startswith("enum:"):
        wk = wk[5:]
        if wk == "bool":
            return 1
    if wk in ("bf_s", "bf_u"):
        return 8
    return Scalar(wk).size


SINK = r"""
struct Sink {
  unsigned char *out; int off; unsigned long long h;
  void bytes(const void *p, int n) {
    const unsigned char *b = (const unsigned char *)p;
    for (int i = 0; i < n; ++i) { if (off < 248) out[off] = b[i]; ++off; h = (h ^ b[i]) * 1099511628211ull; }
  }
  template <class T> void val(T v) { bytes(&v, sizeof(T)); }
  void fin() { for (int i = 0; i < 8; ++i) out[248 + i] = (unsigned char)(h >> (8 * i)); }
};
"""


def gen(seed):
    rng = random.Random(seed)
    ctx = Ctx()
    nconst = rng.randint(1, 4 if os.environ.get("GEN_SMALL") else 7)
    consts = []
    for i in range(nconst):
        t = ctx.rand_type(rng, 0, top=True)
        if isinstance(t, Array) and not t.std:
            t.std = True
        var = f"sc{i}"
        r = rng.random()
        if r < 0.12 and t.vok:
            v = t.rand_value(rng, True)
            decl = f"constexpr sycl::specialization_id<{t.cpp}> {var};"
        else:
            v = t.rand_value(rng)
            decl = f"constexpr sycl::specialization_id<{t.cpp}> {var}(({v.cpp}));"
        consts.append(dict(var=var, ty=t, val=v, decl=decl))
    flags = []
    r = rng.random()
    if r < 0.3:
        flags.append("-O0")
    elif r < 0.4:
        flags.append("-O1")
    elif r < 0.5:
        flags.append("-O3")
    if rng.random() < 0.12:
        flags += ["-g", "-fdebug-compilation-dir=."]
    r = rng.random()
    if r < 0.3:
        flags.append("-fsycl-device-code-split=off")
    elif r < 0.6:
        flags.append("-fsycl-device-code-split=per_kernel")
    nk = rng.randint(1, 4)
    kernels = []
    kwrites = []
    helpers = []
    shared = {}    # ci -> [(call text, writes)] helpers callable from any kernel
    getters = {}   # ci -> getter function name
    need_tmpl = []
    NI = "__attribute__((noinline)) "
    styles = set()

    def stmts_for(c, var="v"):
        t = c["ty"]
        reads = t.reads(var)
        if rng.random() < 0.1 and not t.has_pad and not t.no_memcpy and t.bool_free:
            return [f"s.bytes(&{var}, sizeof({var}));"], [(c["var"], "<whole>", t.size)], []
        cap = 10 if os.environ.get("GEN_SMALL") else 48
        if len(reads) > cap or rng.random() < 0.15:
            reads = sorted(rng.sample(reads, min(len(reads), rng.randint(1, cap))), key=reads.index)
        return ([write_stmt(e, wk) for e, wk in reads], [(c["var"], e, write_size(wk)) for e, wk in reads], reads)

    def int_reads(reads):
        return [(e, wk) for e, wk in reads if wk not in ("float", "double", "sycl::half")]

    def getexpr(ci, in_kernel):
        """An expression yielding the constant's value: marker call, getter, template getter, lambda."""
        c = consts[ci]
        direct = f"kh.get_specialization_constant<{c['var']}>()"
        r = rng.random()
        if r < 0.45:
            return direct, []
        if r < 0.7:
            if ci not in getters:
                gname = ctx.fresh("get_")
                attr = NI if rng.random() < 0.7 else ""
                byval = rng.random() < 0.2
                helpers.append(f"{attr}static {c['ty'].cpp} {gname}(sycl::kernel_handler {'' if byval else '&'}kh) {{\n"
                               f"  return {direct};\n}}")
                getters[ci] = gname
                styles.add("getter")
            return f"{getters[ci]}(kh)", []
        if r < 0.85:
            if not need_tmpl:
                need_tmpl.append(1)
                helpers.append(f"template <auto &Id> {NI if rng.random() < 0.7 else ''}auto rd(sycl::kernel_handler &kh) {{\n"
                               f"  return kh.get_specialization_constant<Id>();\n}}")
            styles.add("template-getter")
            return f"rd<{c['var']}>(kh)", []
        if in_kernel:
            ln = ctx.fresh("gl")
            styles.add("lambda")
            return f"{ln}()", [f"auto {ln} = [&]() {{ return {direct}; }};"]
        return direct, []

    def block(ci, in_kernel):
        """Statements reading constant ci (maybe inside control flow); returns (pre, text, writes)."""
        c = consts[ci]
        g, pre = getexpr(ci, in_kernel)
        stmts, wl, reads = stmts_for(c)
        r = rng.random()
        if r < 0.45:
            return pre, "{ auto v = " + g + ";\n        " + "\n        ".join(stmts) + " }", wl, False
        if r < 0.55:  # loop with a run-time trip count, read inside
            styles.add("loop")
            return pre, ("for (int it = 0; it < (int)(s.h & 1) + 1; ++it) { auto v = " + g + ";\n        " +
                         "\n        ".join(stmts) + " }"), wl, True
        if r < 0.65:  # branch on the hash of what was written so far, reads in both arms
            styles.add("branch")
            stmts2, wl2, _ = stmts_for(c)
            return pre, ("if (s.h & 2) { auto v = " + g + ";\n        " + "\n        ".join(stmts) +
                         " } else { auto v = " + g + ";\n        " + "\n        ".join(stmts2) + " }"), wl, True
        if r < 0.75:  # switch
            styles.add("switch")
            stmts2, _, _ = stmts_for(c)
            return pre, ("switch ((unsigned)(s.h % 3)) {\n        case 0: { auto v = " + g + ";\n        " +
                         "\n        ".join(stmts) + " } break;\n        case 1: { auto v = " + g + ";\n        " +
                         "\n        ".join(stmts2) + " } break;\n        default: s.val<int>(-1); break; }"), wl, True
        ir = int_reads(reads)
        if ir and r < 0.88:  # branch / switch on the constant's own value
            e, wk = rng.choice(ir)
            half = max(1, len(stmts) // 2)
            if rng.random() < 0.5:
                styles.add("if-on-value")
                return pre, ("{ auto v = " + g + ";\n        if ((long long)(" + e + ") > 0) { " +
                             " ".join(stmts[:half]) + " } else { " + " ".join(stmts[half:] or ["s.val<int>(7);"]) +
                             " } }"), wl, True
            styles.add("switch-on-value")
            return pre, ("{ auto v = " + g + ";\n        switch ((unsigned long long)(" + e + ") % 4) {\n"
                         "        case 0: " + " ".join(stmts[:half]) + " break;\n"
                         "        case 3: s.val<short>(3); [[fallthrough]];\n"
                         "        case 1: " + " ".join(stmts[half:] or ["s.val<int>(7);"]) + " break;\n"
                         "        default: s.val<int>(9); } }"), wl, True
        if ir:  # loop bounded by the constant's value, reading it again inside
            e, wk = rng.choice(ir)
            styles.add("loop-on-value")
            return pre, ("{ auto v = " + g + ";\n        unsigned n_ = (unsigned)((unsigned long long)(" + e + ") % 4);\n"
                         "        for (unsigned i_ = 0; i_ < n_; ++i_) { auto v = " + g + ";\n        " +
                         "\n        ".join(stmts[:3]) + " } }"), wl, True
        return pre, "{ auto v = " + g + ";\n        " + "\n        ".join(stmts) + " }", wl, False

    def helper_chain(ci):
        """A void helper (chain of 1-3 helpers, kh by reference) reading constant ci; returns call text, writes."""
        depth = rng.choices([1, 2, 3], [0.5, 0.3, 0.2])[0]
        pre, text, wl, cf = block(ci, False)
        byval = rng.random() < 0.15
        name = ctx.fresh("helper")
        helpers.append(f"{NI if rng.random() < 0.6 else ''}static void {name}(sycl::kernel_handler {'' if byval else '&'}kh, Sink &s) {{\n  "
                       + "\n  ".join(pre) + ("\n  " if pre else "") + text + "\n}")
        if byval:
            styles.add("kh-by-value")
        for lvl in range(1, depth):
            outer = ctx.fresh("helper")
            extra, ewl = "", []
            if rng.random() < 0.4:  # the intermediate helper reads another constant itself
                cj = rng.randrange(nconst)
                p2, t2, ewl, _ = block(cj, False)
                extra = "\n  " + "\n  ".join(p2) + ("\n  " if p2 else "") + t2
            first = rng.random() < 0.5
            body = (f"{name}(kh, s);" + extra) if first else (extra.strip() + f"\n  {name}(kh, s);")
            helpers.append(f"{NI if rng.random() < 0.7 else ''}static void {outer}(sycl::kernel_handler &kh, Sink &s) {{\n  {body}\n}}")
            wl = (wl + ewl) if first else (ewl + wl)
            name = outer
            styles.add(f"helper-depth{lvl + 1}")
        styles.add("helper")
        return f"{name}(kh, s);", wl

    all_used = []
    for k in range(nk):
        if all_used and rng.random() < 0.6:  # share constants with an earlier kernel
            base = rng.choice(all_used)
            used = list(base[:rng.randint(1, len(base))])
            extra = [i for i in range(nconst) if i not in used]
            rng.shuffle(extra)
            used += extra[:rng.randint(0, len(extra))]
        else:
            used = rng.sample(range(nconst), rng.randint(1, nconst))
        all_used.append(used)
        body = []
        writes = []
        approx = False
        for ci in used:
            c = consts[ci]
            s2 = rng.random()
            if s2 < 0.4:
                if ci in shared and rng.random() < 0.7:  # the same helper from several kernels
                    call, wl = rng.choice(shared[ci])
                    styles.add("shared-helper")
                else:
                    call, wl = helper_chain(ci)
                    shared.setdefault(ci, []).append((call, wl))
                body.append(call)
            elif s2 < 0.5:
                stmts, wl, reads = stmts_for(c)
                get = f"kh.get_specialization_constant<{c['var']}>()"
                if len(reads) <= 4 and stmts[0].startswith("s.val"):
                    body += [st.replace("(v", f"({get}") for st in stmts]
                else:
                    body.append("{ auto v = " + get + ";\n        " + "\n        ".join(stmts) + " }")
            else:
                pre, text, wl, cf = block(ci, True)
                approx = approx or cf
                body += pre
                body.append(text)
            writes += wl
            if rng.random() < 0.15:  # another use of the same constant
                pre, text, wl2, cf = block(ci, True)
                body += pre
                body.append(text)
                writes += wl2
                approx = approx or cf
        kernels.append((f"K{k}", body, used))
        kwrites.append(writes)
    if helpers and "-O0" not in flags and rng.random() < 0.3:
        flags = [f for f in flags if f not in ("-O1", "-O3")] + ["-O0"]
    if ONLY is not None:  # one constant, one kernel reading all of it
        ci = [c["var"] for c in consts].index(ONLY)
        kernels = [("K0", ["{ auto v = kh.get_specialization_constant<" + ONLY + ">();\n        " +
                           "\n        ".join(write_stmt(e, wk) for e, wk in consts[ci]["ty"].reads("v")) + " }"], [0])]
        kwrites = [[(ONLY, e, write_size(wk)) for e, wk in consts[ci]["ty"].reads("v")]]
        consts = [consts[ci]]
        helpers = []
        if FLAGS is not None:
            flags = FLAGS
    out = ["#include <sycl/sycl.hpp>", "#include <array>", "#include <utility>"]
    if flags:
        out.insert(0, "// gen: " + " ".join(flags))
    out += ctx.decls
    out += [c["decl"] for c in consts]
    out.append(SINK)
    out += helpers
    for kname, body, _ in kernels:
        out.append(f"class {kname};")
        out.append(f"void run_{kname}(sycl::queue &q, unsigned char *out) {{\n"
                   f"  q.submit([&](sycl::handler &h) {{\n"
                   f"    h.single_task<{kname}>([=](sycl::kernel_handler kh) {{\n"
                   f"      Sink s{{out, 0, 1469598103934665603ull}};\n      " + "\n      ".join(body) +
                   "\n      s.fin();\n    });\n  });\n}")
    src = "\n".join(out) + "\n"
    model = dict(seed=seed, flags=flags, kernels=[], consts=[], styles=sorted(styles), approx_writes=True)
    for (k, _, u), wl in zip(kernels, kwrites):
        off, w = 0, []
        for var, e, n in wl:
            w.append([off, n, var, e])
            off += n
        model["kernels"].append(dict(name=k, consts=sorted(set(x[0] for x in wl)), writes=w))
    for c in consts:
        t = c["ty"]
        sym = f"{PREFIX}_ZL{len(c['var'])}{c['var']}"
        model["consts"].append(dict(var=c["var"], sym=sym, type=t.cpp, size=t.size, align=t.align,
                                    feats=sorted(feats(t)), designated="{." in c["decl"],
                                    default_constructed=c["decl"].endswith(f"{c['var']};"),
                                    regions=t.regions(0), default=c["val"].data.hex(),
                                    mask="".join("1" if m else "0" for m in c["val"].mask)))
    return src, model


ONLY = None
FLAGS = None


def main():
    """gen.py SEED OUTDIR [--only scN [--flags '-O0 ...']]"""
    global ONLY, FLAGS
    seed = int(sys.argv[1])
    outdir = sys.argv[2]
    if "--only" in sys.argv:
        ONLY = sys.argv[sys.argv.index("--only") + 1]
    if "--flags" in sys.argv:
        FLAGS = sys.argv[sys.argv.index("--flags") + 1].split()
    os.makedirs(outdir, exist_ok=True)
    src, model = gen(seed)
    with open(os.path.join(outdir, "source.cpp"), "w") as f:
        f.write(src)
    with open(os.path.join(outdir, "model.json"), "w") as f:
        json.dump(model, f, indent=1)


if __name__ == "__main__":
    main()
