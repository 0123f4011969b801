//! The capabilities an extracted image declares: of those the module declares, the ones its own
//! instructions need, as DPC++'s images do (llvm-spirv translates each split module and
//! declares what that module uses).
//!
//! Why: an image copies the module's capabilities otherwise, so that the image of a kernel
//! without doubles declares `Float64` when another kernel of the module uses them, and the SYCL
//! image of a module with ESIMD kernels declares `VectorComputeINTEL` — a device compiler
//! without that support refuses the image (the Intel CPU OpenCL runtime: "SPIRV module requires
//! unsupported capability 5617"), though its kernels need none of it.
//!
//! Algorithm: one walk over the image's instructions records which types, storage classes,
//! decorations, execution modes and 64-bit atomics it holds; each capability of [`rule`] that nothing needs is
//! dropped, with `SPV_INTEL_vector_compute` and `SPV_KHR_expect_assume` when none of their
//! capabilities stays and nothing else of them is used. Every
//! other capability and extension is kept as the module declares it (the rule list is the
//! conservative part: a capability spec-link cannot tell the need of stays).
//!
//! Pre: `words` is an image assembled in the logical layout (header, then capabilities, then
//! extensions), `origin` has one entry per instruction. Post: the same instructions but the
//! dropped ones, in order; `origin` loses the same entries.

use crate::module::idhash::IdSet;
use crate::module::inst;
use spirv::{Capability, Decoration, Op, StorageClass};

/// What an image's instructions need, as far as the capabilities of [`rule`] go.
#[derive(Default)]
struct Needs {
    int8: bool,
    int16: bool,
    int64: bool,
    float16: bool,
    float64: bool,
    /// Vectors of 8 or 16 components.
    vector16: bool,
    /// Vectors of other sizes than 2, 3, 4, 8, 16 (ESIMD).
    vector_any: bool,
    generic_pointer: bool,
    /// A vector-compute decoration (ESIMD functions and variables).
    vector_compute: bool,
    atomics64: bool,
    /// An execution mode of sub-group dispatch (`SubgroupSize`: `reqd_sub_group_size`).
    subgroup_dispatch: bool,
    /// `OpAssumeTrueKHR` or `OpExpectKHR`.
    expect_assume: bool,
    /// A `LinkageAttributes` decoration, or no entry point (a module without one must declare
    /// `Linkage`).
    linkage: bool,
}

/// Whether `cap` may go, given what the image needs; `None` for a capability that always stays.
fn rule(cap: u32, needs: &Needs, esimd: bool) -> Option<bool> {
    let needed = match cap {
        c if c == Capability::Int8 as u32 => needs.int8,
        c if c == Capability::Int16 as u32 => needs.int16,
        c if c == Capability::Int64 as u32 => needs.int64 || needs.atomics64,
        c if c == Capability::Int64Atomics as u32 => needs.atomics64,
        c if c == Capability::Float16 as u32 || c == Capability::Float16Buffer as u32 => {
            needs.float16
        }
        c if c == Capability::Float64 as u32 => needs.float64,
        c if c == Capability::Vector16 as u32 => needs.vector16,
        c if c == Capability::GenericPointer as u32 => needs.generic_pointer,
        c if c == Capability::SubgroupDispatch as u32 => needs.subgroup_dispatch,
        c if c == Capability::ExpectAssumeKHR as u32 => needs.expect_assume,
        c if c == Capability::Linkage as u32 => needs.linkage,
        // (An ESIMD image keeps them: its code is vector compute throughout.)
        c if c == Capability::VectorComputeINTEL as u32 && !esimd => needs.vector_compute,
        c if c == Capability::VectorAnyINTEL as u32 && !esimd => needs.vector_any,
        _ => return None,
    };
    Some(!needed)
}

/// The vector-compute decorations (SPV_INTEL_vector_compute).
fn is_vector_compute_decoration(d: u32) -> bool {
    d == Decoration::SIMTCallINTEL as u32
        || (Decoration::VectorComputeVariableINTEL as u32
            ..=Decoration::GlobalVariableOffsetINTEL as u32)
            .contains(&d)
        || d == Decoration::SingleElementVectorINTEL as u32
        || d == Decoration::VectorComputeCallableFunctionINTEL as u32
        || d == Decoration::MediaBlockIOINTEL as u32
}

/// The 64-bit integer atomics: `OpAtomicLoad` … `OpAtomicXor` (`OpAtomicStore` has no result).
fn is_int_atomic(op: u32) -> bool {
    (Op::AtomicLoad as u32..=Op::AtomicXor as u32).contains(&op)
}

/// Walks the image's instructions (after the header): what they need.
fn needs_of(words: &[u32]) -> Needs {
    let mut needs = Needs::default();
    let mut int64_types: IdSet<u32> = IdSet::default();
    // Result types of integer atomics, and the values `OpAtomicStore` stores.
    let mut atomic_types: Vec<u32> = Vec::new();
    let mut stored: IdSet<u32> = IdSet::default();
    let mut entry_point = false;
    for w in inst::instructions(words.get(5..).unwrap_or_default()) {
        let op = w[0] & 0xffff;
        match op {
            o if o == Op::TypeInt as u32 && w.len() >= 3 => match w[2] {
                8 => needs.int8 = true,
                16 => needs.int16 = true,
                64 => {
                    needs.int64 = true;
                    int64_types.insert(w[1]);
                }
                _ => {}
            },
            o if o == Op::TypeFloat as u32 && w.len() >= 3 => match w[2] {
                16 => needs.float16 = true,
                64 => needs.float64 = true,
                _ => {}
            },
            o if o == Op::TypeVector as u32 && w.len() >= 4 => match w[3] {
                2..=4 => {}
                8 | 16 => needs.vector16 = true,
                _ => needs.vector_any = true,
            },
            o if (o == Op::TypePointer as u32 || o == Op::TypeForwardPointer as u32)
                && w.len() >= 3 =>
            {
                needs.generic_pointer |= w[2] == StorageClass::Generic as u32;
            }
            o if o == Op::Decorate as u32 || o == Op::DecorateId as u32 => {
                needs.vector_compute |= w.get(2).is_some_and(|&d| is_vector_compute_decoration(d));
                needs.linkage |= w.get(2) == Some(&(Decoration::LinkageAttributes as u32));
            }
            o if o == Op::EntryPoint as u32 => entry_point = true,
            o if o == Op::AssumeTrueKHR as u32 || o == Op::ExpectKHR as u32 => {
                needs.expect_assume = true;
            }
            o if (o == Op::ExecutionMode as u32 || o == Op::ExecutionModeId as u32)
                && w.len() >= 3 =>
            {
                needs.subgroup_dispatch |= matches!(w[2], 35..=37);
            }
            o if o == Op::GetKernelLocalSizeForSubgroupCount as u32
                || o == Op::GetKernelMaxNumSubgroups as u32 =>
            {
                needs.subgroup_dispatch = true;
            }
            o if o == Op::MemberDecorate as u32 => {
                needs.vector_compute |= w.get(3).is_some_and(|&d| is_vector_compute_decoration(d));
            }
            o if is_int_atomic(o) && o != Op::AtomicStore as u32 && w.len() >= 2 => {
                atomic_types.push(w[1]);
            }
            o if o == Op::AtomicStore as u32 && w.len() >= 5 => {
                stored.insert(w[4]);
            }
            _ => {}
        }
    }
    needs.linkage |= !entry_point;
    needs.atomics64 = atomic_types.iter().any(|t| int64_types.contains(t));
    if !needs.atomics64 && !stored.is_empty() {
        // (The stored values' types: a second walk, only for images with atomic stores.)
        needs.atomics64 = inst::instructions(words.get(5..).unwrap_or_default()).any(|w| {
            inst::result_id(w).is_some_and(|id| stored.contains(&id))
                && inst::result_type(w).is_some_and(|t| int64_types.contains(&t))
        });
    }
    needs
}

/// Drops the capabilities (and the extensions that come with them) the image does not need; see
/// the module docs.
pub(crate) fn prune(words: Vec<u32>, origin: Vec<u32>, esimd: bool) -> (Vec<u32>, Vec<u32>) {
    let needs = needs_of(&words);
    // The capabilities and extensions: the first instructions of the logical layout.
    let prefix: Vec<&[u32]> = inst::instructions(words.get(5..).unwrap_or_default())
        .take_while(|w| {
            let op = w[0] & 0xffff;
            op == Op::Capability as u32 || op == Op::Extension as u32
        })
        .collect();
    let capability =
        |w: &[u32]| (w[0] & 0xffff == Op::Capability as u32 && w.len() == 2).then(|| w[1]);
    let kept: Vec<u32> = (prefix.iter())
        .filter_map(|w| capability(w))
        .filter(|&c| rule(c, &needs, esimd) != Some(true))
        .collect();
    // An extension goes with the capabilities it brings when none of them stays and nothing
    // else of it is used.
    let unused_extension = |w: &[u32]| match inst::read_string(w.get(1..).unwrap_or_default()) {
        Some((name, _)) if name == b"SPV_INTEL_vector_compute" => {
            !needs.vector_compute
                && !kept.contains(&(Capability::VectorComputeINTEL as u32))
                && !kept.contains(&(Capability::VectorAnyINTEL as u32))
        }
        Some((name, _)) if name == b"SPV_KHR_expect_assume" => {
            !needs.expect_assume && !kept.contains(&(Capability::ExpectAssumeKHR as u32))
        }
        _ => false,
    };
    let dropped: Vec<bool> = (prefix.iter())
        .map(|w| match capability(w) {
            Some(c) => rule(c, &needs, esimd) == Some(true),
            None => unused_extension(w),
        })
        .collect();
    if !dropped.contains(&true) {
        return (words, origin);
    }
    let end = 5 + prefix.iter().map(|w| w.len()).sum::<usize>();
    let new_prefix: Vec<u32> = (prefix.iter().zip(&dropped))
        .filter(|(_, &d)| !d)
        .flat_map(|(w, _)| w.iter().copied())
        .collect();
    let mut words = words;
    words.splice(5..end, new_prefix);
    let mut rank = 0;
    let mut origin = origin;
    origin.retain(|_| {
        rank += 1;
        dropped.get(rank - 1) != Some(&true)
    });
    (words, origin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spirv::LinkageType;

    fn inst(op: Op, operands: &[u32]) -> Vec<u32> {
        let mut w = vec![((operands.len() as u32 + 1) << 16) | op as u32];
        w.extend_from_slice(operands);
        w
    }

    fn string(s: &str) -> Vec<u32> {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        while b.len() % 4 != 0 {
            b.push(0);
        }
        b.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// An image of the given capabilities, the vector-compute extension, and `body`.
    fn image(caps: &[Capability], body: &[Vec<u32>]) -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 100, 0];
        for &c in caps {
            w.extend(inst(Op::Capability, &[c as u32]));
        }
        w.extend(inst(Op::Extension, &string("SPV_INTEL_vector_compute")));
        w.extend(inst(Op::MemoryModel, &[2, 2]));
        for b in body {
            w.extend_from_slice(b);
        }
        w
    }

    fn capabilities(words: &[u32]) -> Vec<u32> {
        inst::instructions(&words[5..])
            .filter(|w| w[0] & 0xffff == Op::Capability as u32)
            .map(|w| w[1])
            .collect()
    }

    fn entry_point() -> Vec<u32> {
        inst(Op::EntryPoint, &[[6, 20].as_slice(), &string("k")].concat())
    }

    const ALL: [Capability; 11] = [
        Capability::Addresses,
        Capability::Kernel,
        Capability::Float16Buffer,
        Capability::Float64,
        Capability::Int64,
        Capability::Int64Atomics,
        Capability::Int8,
        Capability::GenericPointer,
        Capability::Vector16,
        Capability::VectorComputeINTEL,
        Capability::Linkage,
    ];

    #[test]
    fn an_image_without_those_types_keeps_only_what_always_stays() {
        let body = [inst(Op::TypeInt, &[1, 32, 0]), entry_point()];
        let words = image(&ALL, &body);
        let n = inst::instructions(&words[5..]).count();
        let (out, origin) = prune(words, (0..n as u32).collect(), false);
        assert_eq!(
            capabilities(&out),
            [Capability::Addresses as u32, Capability::Kernel as u32]
        );
        // (The extension went too; origin lost the same entries: 9 capabilities, 1 extension.)
        assert_eq!(inst::instructions(&out[5..]).count(), n - 10);
        assert_eq!(origin, [0, 1, 12, 13, 14]);
        // Without an entry point, `Linkage` stays: spirv-val requires it then.
        let words = image(&ALL, &body[..1]);
        let (out, _) = prune(words, (0..n as u32 - 1).collect(), false);
        assert_eq!(
            capabilities(&out),
            [
                Capability::Addresses as u32,
                Capability::Kernel as u32,
                Capability::Linkage as u32
            ]
        );
    }

    #[test]
    fn each_capability_stays_where_the_image_needs_it() {
        let body = [
            inst(Op::TypeInt, &[1, 64, 0]),
            inst(Op::TypeInt, &[2, 8, 0]),
            inst(Op::TypeFloat, &[3, 16]),
            inst(Op::TypeFloat, &[4, 64]),
            inst(Op::TypePointer, &[5, StorageClass::Generic as u32, 1]),
            inst(Op::TypeVector, &[6, 4, 16]),
            inst(Op::AtomicIAdd, &[1, 7, 8, 9, 10, 11]),
            inst(
                Op::Decorate,
                &[12, Decoration::VectorComputeFunctionINTEL as u32],
            ),
            inst(
                Op::Decorate,
                &[
                    vec![13, Decoration::LinkageAttributes as u32],
                    string("f"),
                    vec![LinkageType::Import as u32],
                ]
                .concat(),
            ),
        ];
        let words = image(&ALL, &body);
        let n = inst::instructions(&words[5..]).count();
        let (out, _) = prune(words.clone(), (0..n as u32).collect(), false);
        assert_eq!(out, words);
    }

    #[test]
    fn a_64_bit_atomic_store_keeps_int64_atomics_and_a_32_bit_one_does_not() {
        for (width, kept) in [(64, true), (32, false)] {
            let body = [
                inst(Op::TypeInt, &[1, width, 0]),
                inst(Op::TypeInt, &[2, 64, 0]),
                inst(Op::Load, &[1, 3, 4]),
                inst(Op::AtomicStore, &[5, 6, 7, 3]),
            ];
            let words = image(&[Capability::Int64, Capability::Int64Atomics], &body);
            let n = inst::instructions(&words[5..]).count();
            let (out, _) = prune(words, (0..n as u32).collect(), false);
            assert_eq!(
                capabilities(&out).contains(&(Capability::Int64Atomics as u32)),
                kept,
                "{width}-bit"
            );
        }
    }

    #[test]
    fn an_esimd_image_keeps_vector_compute() {
        let words = image(
            &[Capability::VectorComputeINTEL, Capability::VectorAnyINTEL],
            &[],
        );
        let n = inst::instructions(&words[5..]).count();
        let (out, _) = prune(words.clone(), (0..n as u32).collect(), true);
        assert_eq!(out, words);
    }
}
