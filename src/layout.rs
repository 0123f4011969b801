//! Size, alignment and member offsets of SPIR-V types by the C rules of OpenCL SPIR/SPIR-V
//! (the data layout DPC++ uses for `spir64`):
//! - integers and floats: natural size and alignment (`i64`/`double` align 8, `half` 2);
//!   `OpTypeBool` takes one byte (its memory form in SYCL is `i8`);
//! - vectors: `n` elements of size `s`; 3-element vectors are sized and aligned as 4; the
//!   alignment is the size rounded up to a power of two (`v96:128`, `v48:64`, …);
//! - arrays: `n × alloc size of the element`, aligned as the element;
//! - structs: members at the next multiple of their alignment, size rounded up to the struct's
//!   alignment; `CPacked` structs have no padding and alignment 1;
//! - pointers: 4 or 8 bytes by the addressing model.
//!
//! Recursion is capped at [`MAX_DEPTH`] levels; sizes use checked arithmetic. Types that have no
//! C layout (images, samplers, runtime arrays, …) are an error naming the type.

use crate::error::{Error, Result};
use crate::module::idhash::IdMap;
use crate::module::index::Index;
use crate::module::{inst, Module};
use spirv::Op;

/// Deepest type nesting accepted.
pub const MAX_DEPTH: usize = 64;
/// Longest type spelling [`Layout::display`] writes, in bytes (then "…").
pub const MAX_DISPLAY: usize = 4096;

/// What a type is, as far as layout and spec constants care.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeKind {
    Bool,
    Int {
        bits: u32,
        signed: bool,
    },
    Float {
        bits: u32,
    },
    Vector {
        elem: u32,
        count: u32,
    },
    Array {
        elem: u32,
        count: u64,
    },
    Struct {
        members: Vec<u32>,
        packed: bool,
    },
    Pointer {
        pointee: u32,
        storage: u32,
    },
    /// Anything else, with its opcode (for messages).
    Other(u32),
}

/// Size and alignment of a type, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeAlign {
    pub size: u64,
    pub align: u64,
}

/// Layout queries over one module, memoised.
pub struct Layout<'m> {
    module: &'m Module,
    index: &'m Index,
    memo: IdMap<u32, SizeAlign>,
}

fn err(msg: String) -> Error {
    Error::Layout(msg)
}

impl<'m> Layout<'m> {
    pub fn new(module: &'m Module, index: &'m Index) -> Self {
        Layout {
            module,
            index,
            memo: IdMap::default(),
        }
    }

    /// The current words of the instruction defining `id`.
    pub fn words_of(&self, id: u32) -> Option<&'m [u32]> {
        self.module.inst(self.index.defs.get(&id)?)
    }

    fn words(&self, id: u32) -> Result<&'m [u32]> {
        let i = self
            .index
            .defs
            .get(&id)
            .ok_or_else(|| err(format!("type %{id} is used but never defined")))?;
        self.module
            .inst(i)
            .ok_or_else(|| err(format!("type %{id} was removed")))
    }

    /// The kind of type `id`.
    pub fn kind(&self, id: u32) -> Result<TypeKind> {
        let w = self.words(id)?;
        let op = inst::opcode(w);
        let need = |n: usize| {
            if w.len() < n {
                Err(err(format!(
                    "malformed type %{id}: {} has too few operands",
                    inst::op_name(op)
                )))
            } else {
                Ok(())
            }
        };
        Ok(match Op::from_u32(op) {
            Some(Op::TypeBool) => TypeKind::Bool,
            Some(Op::TypeInt) => {
                need(4)?;
                TypeKind::Int {
                    bits: w[2],
                    signed: w[3] != 0,
                }
            }
            Some(Op::TypeFloat) => {
                need(3)?;
                TypeKind::Float { bits: w[2] }
            }
            Some(Op::TypeVector) => {
                need(4)?;
                TypeKind::Vector {
                    elem: w[2],
                    count: w[3],
                }
            }
            Some(Op::TypeArray) => {
                need(4)?;
                TypeKind::Array {
                    elem: w[2],
                    count: self.constant_u64(w[3])?,
                }
            }
            Some(Op::TypeStruct) => TypeKind::Struct {
                members: w[2..].to_vec(),
                packed: self.index.packed.contains(&id),
            },
            Some(Op::TypePointer) => {
                need(4)?;
                TypeKind::Pointer {
                    pointee: w[3],
                    storage: w[2],
                }
            }
            _ => TypeKind::Other(op),
        })
    }

    /// The value of an integer `OpConstant` (array lengths).
    pub fn constant_u64(&self, id: u32) -> Result<u64> {
        let w = self.words(id)?;
        if !inst::is(w, Op::Constant) || w.len() < 4 {
            return Err(err(format!(
                "array length %{id} is not an integer constant"
            )));
        }
        Ok(match w.len() {
            4 => w[3] as u64,
            _ => w[3] as u64 | (w[4] as u64) << 32,
        })
    }

    /// Size and alignment of type `id`.
    pub fn size_align(&mut self, id: u32) -> Result<SizeAlign> {
        self.size_align_at(id, 0)
    }

    fn size_align_at(&mut self, id: u32, depth: usize) -> Result<SizeAlign> {
        if let Some(sa) = self.memo.get(&id) {
            return Ok(*sa);
        }
        if depth > MAX_DEPTH {
            return Err(err(format!(
                "type %{id} is nested more than {MAX_DEPTH} levels deep"
            )));
        }
        let overflow = || err(format!("the size of type %{id} overflows 64 bits"));
        let sa = match self.kind(id)? {
            TypeKind::Bool => SizeAlign { size: 1, align: 1 },
            TypeKind::Int { bits, .. } | TypeKind::Float { bits } => {
                if bits == 0 || bits % 8 != 0 || bits > 64 {
                    return Err(err(format!(
                        "type %{id} has an unsupported width of {bits} bits"
                    )));
                }
                let b = (bits / 8) as u64;
                SizeAlign { size: b, align: b }
            }
            TypeKind::Vector { elem, count } => {
                let e = self.size_align_at(elem, depth + 1)?;
                let n = if count == 3 { 4 } else { count as u64 };
                let size = e.size.checked_mul(n).ok_or_else(overflow)?;
                let align = size
                    .checked_next_power_of_two()
                    .ok_or_else(overflow)?
                    .max(1);
                SizeAlign {
                    size: align.max(size),
                    align,
                }
            }
            TypeKind::Array { elem, count } => {
                let e = self.size_align_at(elem, depth + 1)?;
                SizeAlign {
                    size: e.size.checked_mul(count).ok_or_else(overflow)?,
                    align: e.align,
                }
            }
            TypeKind::Struct { members, packed } => {
                let (size, align, _) = self.struct_layout(id, &members, packed, depth)?;
                SizeAlign { size, align }
            }
            TypeKind::Pointer { .. } => {
                let p = self.index.pointer_size();
                SizeAlign { size: p, align: p }
            }
            TypeKind::Other(op) => {
                return Err(err(format!(
                    "type %{id} ({}) has no C data layout",
                    inst::op_name(op)
                )))
            }
        };
        self.memo.insert(id, sa);
        Ok(sa)
    }

    fn struct_layout(
        &mut self,
        id: u32,
        members: &[u32],
        packed: bool,
        depth: usize,
    ) -> Result<(u64, u64, Vec<u64>)> {
        let overflow = || err(format!("the size of struct %{id} overflows 64 bits"));
        let mut offset = 0u64;
        let mut align = 1u64;
        let mut offsets = Vec::with_capacity(members.len());
        for &m in members {
            let sa = self.size_align_at(m, depth + 1)?;
            let a = if packed { 1 } else { sa.align };
            offset = offset.checked_next_multiple_of(a).ok_or_else(overflow)?;
            offsets.push(offset);
            offset = offset.checked_add(sa.size).ok_or_else(overflow)?;
            align = align.max(a);
        }
        let size = offset
            .checked_next_multiple_of(align)
            .ok_or_else(overflow)?;
        Ok((size, align, offsets))
    }

    /// Store size of a type: what a load or store of it touches, and the size of a spec constant
    /// of that type (LLVM's `getTypeStoreSize`). Equal to [`Layout::size_align`]'s (alloc) size but
    /// for 3-element vectors, which store 3 elements and are padded to 4 only inside aggregates.
    pub fn store_size(&mut self, id: u32) -> Result<u64> {
        match self.kind(id)? {
            TypeKind::Vector { elem, count } => {
                let e = self.size_align(elem)?.size;
                e.checked_mul(count as u64)
                    .ok_or_else(|| err(format!("the size of type %{id} overflows 64 bits")))
            }
            _ => Ok(self.size_align(id)?.size),
        }
    }

    /// Byte offsets of a struct's members.
    pub fn member_offsets(&mut self, id: u32) -> Result<Vec<u64>> {
        match self.kind(id)? {
            TypeKind::Struct { members, packed } => {
                Ok(self.struct_layout(id, &members, packed, 0)?.2)
            }
            _ => Err(err(format!("type %{id} is not a struct"))),
        }
    }

    /// Element type and stride of each element of an aggregate: `(member type, offset)` pairs.
    /// For arrays this lists every element (callers cap the count).
    pub fn elements(&mut self, id: u32, max: u64) -> Result<Vec<(u32, u64)>> {
        match self.kind(id)? {
            TypeKind::Struct { members, .. } => {
                let offs = self.member_offsets(id)?;
                Ok(members.into_iter().zip(offs).collect())
            }
            TypeKind::Array { elem, count } => {
                if count > max {
                    return Err(err(format!(
                        "array type %{id} has {count} elements, more than the {max} supported in a specialization constant"
                    )));
                }
                let s = self.size_align(elem)?.size;
                Ok((0..count).map(|k| (elem, k * s)).collect())
            }
            TypeKind::Vector { elem, count } => {
                let s = self.size_align(elem)?.size;
                Ok((0..count as u64).map(|k| (elem, k * s)).collect())
            }
            _ => Ok(Vec::new()),
        }
    }

    /// A readable spelling of a type for messages and the JSON sidecar, e.g.
    /// `struct.A { i32, f32, struct.anon { i32, i32 } }`, `[3 x i32]`, `<2 x f32>`.
    pub fn display(&self, id: u32) -> String {
        let mut out = String::new();
        self.display_into(id, 0, &mut out);
        out
    }

    /// Appends the spelling of `id` to `out`; past [`MAX_DISPLAY`] bytes (or [`MAX_DEPTH`]
    /// levels) the rest is "…". Members share types, so a spelling could otherwise grow
    /// exponentially with depth.
    fn display_into(&self, id: u32, depth: usize, out: &mut String) {
        use std::fmt::Write;
        if depth > MAX_DEPTH || out.len() > MAX_DISPLAY {
            out.push('…');
            return;
        }
        // (Writing to a String cannot fail.)
        match self.kind(id) {
            Ok(TypeKind::Bool) => out.push_str("bool"),
            Ok(TypeKind::Int { bits, .. }) => {
                let _ = write!(out, "i{bits}");
            }
            Ok(TypeKind::Float { bits }) => {
                let _ = write!(out, "f{bits}");
            }
            Ok(TypeKind::Vector { elem, count }) => {
                let _ = write!(out, "<{count} x ");
                self.display_into(elem, depth + 1, out);
                out.push('>');
            }
            Ok(TypeKind::Array { elem, count }) => {
                let _ = write!(out, "[{count} x ");
                self.display_into(elem, depth + 1, out);
                out.push(']');
            }
            Ok(TypeKind::Struct { members, packed }) => {
                match self.index.names.get(&id) {
                    Some(n) => out.push_str(&String::from_utf8_lossy(n)),
                    None => out.push_str("struct"),
                }
                out.push_str(if packed { " <{ " } else { " { " });
                for (k, &m) in members.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    if out.len() > MAX_DISPLAY {
                        out.push('…');
                        break;
                    }
                    self.display_into(m, depth + 1, out);
                }
                out.push_str(if packed { " }>" } else { " }" });
            }
            Ok(TypeKind::Pointer { pointee, .. }) => {
                self.display_into(pointee, depth + 1, out);
                out.push('*');
            }
            Ok(TypeKind::Other(op)) => out.push_str(&inst::op_name(op)),
            Err(_) => {
                let _ = write!(out, "%{id}");
            }
        }
    }
}
