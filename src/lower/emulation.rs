//! Emulation lowering: marker calls become loads from a spec-constant buffer passed to the kernel.
//!
//! Algorithm:
//! 1. The buffer of a call is its RTBuffer argument when that is, through pointer casts, a
//!    parameter of the calling function (AOT front-end output after inlining) that some caller
//!    passes more than a null pointer (in a JIT image, a helper that takes the `kernel_handler`
//!    is passed its null buffer pointer), or when it is
//!    loaded from memory in an AOT image at -O0: one whose kernels pass their buffer argument to
//!    `kernel_handler::__init_specialization_constants_buffer` (and every other call loads its
//!    RTBuffer from the `kernel_handler`), as DPC++ takes it. Otherwise (a null or undefined
//!    pointer, or one loaded from memory in a JIT image, where nothing stores it there) the
//!    buffer is a new parameter `_arg__specialization_constants_buffer` (`CrossWorkgroup` pointer
//!    to 8-bit integers) appended to every function on a call path from a kernel to such a call:
//!    the functions that contain one, and, transitively, their callers. Each gets one new
//!    parameter and a new `OpTypeFunction`; every `OpFunctionCall` to it passes the caller's own.
//!    A function on such a path that is referenced other than by a direct call (a function
//!    pointer, an indirect call) is an error naming it.
//! 2. Each call is replaced, in place, by an `OpInBoundsPtrAccessChain` to its byte offset in the
//!    buffer, an `OpBitcast` to a pointer to the value's type in the buffer's storage class and an
//!    `OpLoad … Aligned <alignment>` (`Aligned 1` in the packed layout) that keeps the call's
//!    result id; `bool` loads 8 bits and compares them with zero; sret calls store the loaded value
//!    through the sret pointer.
//!
//! Preconditions: `map` was built with an emulation [`Numbering`].
//! Postconditions: no marker call is left; kernels that reach no marker, or take the buffer
//! already, keep their signature; [`KernelBuffer`] tells which argument of each kernel takes
//! the buffer.

use crate::error::{Error, Result};
use crate::layout::{Layout, TypeKind};
use crate::markers::Markers;
use crate::module::idhash::{IdBits, IdMap};
use crate::module::ids::IdAllocator;
use crate::module::index::Index;
use crate::module::inst::{self, build};
use crate::module::intern::Intern;
use crate::module::{Module, ReleaseBehind};
use crate::specmap::{Numbering, SpecMap, SpecNode};
use spirv::{Capability, ExecutionModel, MemoryAccess, Op, StorageClass};
use std::collections::{BTreeMap, BTreeSet};

/// Name given to the buffer parameter spec-link appends (DPC++'s name for it).
pub const BUFFER_PARAM_NAME: &str = "_arg__specialization_constants_buffer";

/// Which argument of a kernel receives the spec-constant buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelBuffer {
    /// Entry-point name.
    pub name: String,
    /// Index of the buffer argument; `None` when the kernel reaches no spec constant.
    pub arg: Option<u32>,
}

/// Lowers every marker call to a buffer load (see the module docs).
pub fn lower_emulation(
    module: &mut Module,
    index: &Index,
    markers: &Markers,
    map: &SpecMap,
    ids: &mut IdAllocator,
    intern: &mut Intern,
) -> Result<Vec<KernelBuffer>> {
    refuse_bools_in_composites(map)?;
    // 1. Functions that need the buffer parameter, and the parameter threaded through them.
    let threading = Threading::find(index, markers);
    check_only_called_directly(module, index, &threading.threaded)?;
    // (It asks for types and integer constants: their definitions in one pass.)
    intern.prepare(module, &[Op::TypeInt, Op::Constant]);
    let uchar = intern.get(module, ids, Op::TypeInt, None, &[8, 0])?;
    if !threading.threaded.is_empty() {
        index.ensure_capability(module, Capability::Int8);
    }
    let buffer_ty = intern.get(
        module,
        ids,
        Op::TypePointer,
        None,
        &[StorageClass::CrossWorkgroup as u32, uchar],
    )?;
    let param_of =
        add_buffer_parameters(module, index, ids, intern, &threading.threaded, buffer_ty)?;
    pass_buffer_at_calls(module, &threading.callers, &param_of)?;
    // (Every call of the module: not kept while the loads are built; peak memory.)
    let Threading {
        threaded,
        from_handler,
        ..
    } = threading;
    // 2. Each call becomes a load.
    let buffers = Buffers {
        param_of: &param_of,
        buffer_ty,
        uchar,
        from_handler,
    };
    replace_calls_with_loads(module, index, markers, map, ids, intern, &buffers)?;
    kernel_buffers(module, index, markers, &threaded, from_handler)
}

/// Bools inside composites have no memory layout to load.
fn refuse_bools_in_composites(map: &SpecMap) -> Result<()> {
    for c in &map.constants {
        if let SpecNode::Composite { .. } = c.tree {
            if contains_bool(map, &c.tree) {
                return Err(Error::Lower(format!(
                    "spec constant \"{}\" of type {} holds a bool inside a composite, which cannot be loaded from a buffer",
                    c.symbolic_id, c.type_name
                )));
            }
        }
    }

    Ok(())
}

/// Which functions take the buffer as a new parameter.
struct Threading {
    /// Callee → (caller, call instruction), for every call of the module.
    callers: IdMap<u32, Vec<(u32, usize)>>,
    /// The buffer comes from the `kernel_handler` (an AOT image at -O0).
    from_handler: bool,
    /// The functions that get the parameter: those with a call that has no buffer of its own,
    /// and their callers, transitively.
    threaded: BTreeSet<u32>,
}

impl Threading {
    fn find(index: &Index, markers: &Markers) -> Threading {
        let mut callers: IdMap<u32, Vec<(u32, usize)>> = IdMap::default(); // callee → (caller, call inst)
        for call in &index.calls {
            if let Some(f) = index.functions.get(call.function as usize) {
                callers
                    .entry(call.callee)
                    .or_default()
                    .push((f.id, call.inst as usize));
            }
        }
        // An AOT image built at -O0: its kernels hand their buffer argument to the kernel_handler,
        // and every call not given it as a parameter loads it from there. The loaded pointer is then
        // the buffer, as DPC++ reads it (and its runtime binds the kernel's own argument).
        let from_handler = !markers.handler_buffers.is_empty()
            && markers
                .calls
                .iter()
                .all(|c| c.rt_param.is_some() || c.rt_loaded);
        let mut threaded: BTreeSet<u32> = BTreeSet::new();
        let mut work: Vec<u32> = markers
            .calls
            .iter()
            .filter(|c| c.rt_param.is_none() && !from_handler)
            .map(|c| c.caller)
            .collect();
        while let Some(f) = work.pop() {
            if threaded.insert(f) {
                for &(caller, _) in callers.get(&f).into_iter().flatten() {
                    work.push(caller);
                }
            }
        }

        Threading {
            callers,
            from_handler,
            threaded,
        }
    }
}

/// Appends the buffer parameter to every function in `threaded` (a new `OpTypeFunction` each,
/// the parameter named [`BUFFER_PARAM_NAME`]); returns function → its parameter.
fn add_buffer_parameters(
    module: &mut Module,
    index: &Index,
    ids: &mut IdAllocator,
    intern: &mut Intern,
    threaded: &BTreeSet<u32>,
    buffer_ty: u32,
) -> Result<BTreeMap<u32, u32>> {
    let mut param_of: BTreeMap<u32, u32> = BTreeMap::new();
    let mut edited = headers_and_last_params(module, index, threaded);
    for &f in threaded {
        let func = function(index, f)?;
        let p = ids.alloc()?;
        param_of.insert(f, p);
        // New function type: the old parameters plus the buffer.
        let old_ty = module
            .inst(index.defs.get(&func.fn_type).ok_or_else(|| {
                Error::Lower(format!("function type %{} is not defined", func.fn_type))
            })?)
            .map(|w| w.to_vec())
            .unwrap_or_default();
        if old_ty.len() < 3 || !inst::is(&old_ty, Op::TypeFunction) {
            return Err(Error::Lower(format!(
                "%{} is not an OpTypeFunction",
                func.fn_type
            )));
        }
        let mut ops = vec![old_ty[2]];
        ops.extend_from_slice(&old_ty[3..]);
        ops.push(buffer_ty);
        let new_ty = intern.get(module, ids, Op::TypeFunction, None, &ops)?;
        let (mut header, last) = edited.remove(&f).unwrap_or_default();
        if header.len() >= 5 {
            header[4] = new_ty;
        }
        let param = build(Op::FunctionParameter, &[buffer_ty, p]);
        match last {
            Some((li, mut w)) => {
                module.replace(func.start, header);
                w.extend(param);
                module.replace(li, w);
            }
            None => {
                header.extend(param);
                module.replace(func.start, header);
            }
        }
        let mut name = vec![p];
        name.extend(inst::string_words(BUFFER_PARAM_NAME.as_bytes()));
        module.append_name(&build(Op::Name, &name));
    }
    Ok(param_of)
}

/// A function's header words, and its last parameter's instruction and words (if it has
/// parameters).
type HeaderAndLastParam = (Vec<u32>, Option<(usize, Vec<u32>)>);

/// The header and the last parameter (its instruction and words, if it has parameters) of each
/// function in `threaded`, read in module order: the functions are visited by id, and their
/// reads in that order mapped the input back page after page all over (a function's header
/// and parameters are one page or two; the kernel maps 64 KiB around each first read). In
/// module order its pages go behind the reads.
fn headers_and_last_params(
    module: &Module,
    index: &Index,
    threaded: &BTreeSet<u32>,
) -> IdMap<u32, HeaderAndLastParam> {
    let mut in_order: Vec<_> = threaded
        .iter()
        .filter_map(|&f| function(index, f).ok())
        .collect();
    in_order.sort_unstable_by_key(|func| func.start);
    let words = |i: usize| module.inst(i).map(|w| w.to_vec()).unwrap_or_default();
    let mut behind = ReleaseBehind::default();
    let mut edited = IdMap::default();
    for func in in_order {
        behind.passed(module, module.offset_of(func.start));
        let last = func
            .params
            .last()
            .and_then(|last| index.defs.get(last))
            .map(|li| (li, words(li)));
        edited.insert(func.id, (words(func.start), last));
    }
    edited
}

/// Every call to a threaded function passes the caller's buffer.
fn pass_buffer_at_calls(
    module: &mut Module,
    callers: &IdMap<u32, Vec<(u32, usize)>>,
    param_of: &BTreeMap<u32, u32>,
) -> Result<()> {
    // The call sites (instruction, place in callee order, caller), read and edited in module
    // order, the input's pages going behind (see `headers_and_last_params`); an error is the
    // first in callee order.
    let mut sites: Vec<(usize, usize, u32)> = param_of
        .keys()
        .flat_map(|f| callers.get(f).into_iter().flatten())
        .enumerate()
        .map(|(k, &(caller, ci))| (ci, k, caller))
        .collect();
    sites.sort_unstable();
    let mut behind = ReleaseBehind::default();
    let mut calls = Vec::with_capacity(sites.len());
    let mut first_error: Option<(usize, Error)> = None;
    for (ci, k, caller) in sites {
        behind.passed(module, module.offset_of(ci));
        match call_passing_buffer(module, param_of, caller, ci) {
            Ok(w) => calls.push((ci, w)),
            Err(e) if first_error.as_ref().is_none_or(|(j, _)| k < *j) => {
                first_error = Some((k, e))
            }
            Err(_) => {}
        }
    }
    if let Some((_, e)) = first_error {
        return Err(e);
    }
    for (ci, w) in calls {
        module.replace(ci, w);
    }
    Ok(())
}

/// The call at instruction `ci` of `caller`, passing the caller's buffer parameter.
fn call_passing_buffer(
    module: &Module,
    param_of: &BTreeMap<u32, u32>,
    caller: u32,
    ci: usize,
) -> Result<Vec<u32>> {
    let p = *param_of
        .get(&caller)
        .ok_or_else(|| Error::Lower(format!("caller %{caller} was not threaded")))?;
    let old = module.inst(ci).unwrap_or_default();
    let mut w = inst::try_build(Op::FunctionCall, old.get(1..).unwrap_or_default())?;
    w.push(p);
    w[0] = inst::head(Op::FunctionCall, w.len());
    if w.len() > inst::MAX_WORDS {
        return Err(Error::Lower(format!(
            "a call in %{caller} cannot take the buffer parameter: it already has the most operands an instruction can hold"
        )));
    }
    Ok(w)
}

/// Where the calls find their buffer.
struct Buffers<'a> {
    /// Threaded function → its buffer parameter.
    param_of: &'a BTreeMap<u32, u32>,
    /// `CrossWorkgroup` pointer to 8-bit integers: the appended parameter's type.
    buffer_ty: u32,
    /// The 8-bit integer type.
    uchar: u32,
    /// The buffer comes from the `kernel_handler` (an AOT image at -O0).
    from_handler: bool,
}

/// Each marker call becomes an access chain to its constant's offset, a bitcast and a load
/// (a byte and a comparison for `bool`; a store through the sret pointer for sret calls).
fn replace_calls_with_loads(
    module: &mut Module,
    index: &Index,
    markers: &Markers,
    map: &SpecMap,
    ids: &mut IdAllocator,
    intern: &mut Intern,
    buffers: &Buffers<'_>,
) -> Result<()> {
    let packed = map.numbering == Some(Numbering::EmulationPacked);
    let Buffers {
        param_of,
        buffer_ty,
        uchar,
        from_handler,
    } = *buffers;
    let uint = intern.get(module, ids, Op::TypeInt, None, &[32, 0])?;
    let layout = Layout::new(module, index);
    let mut pointer_types: Vec<(u32, u32, u32)> = Vec::new(); // (storage, pointee, id) needed
    let mut plan = Vec::new();
    let mut behind = ReleaseBehind::default();
    for call in &markers.calls {
        behind.passed(module, module.offset_of(call.inst as usize));
        let Some(k) = map.constant_index(call.symbol) else {
            continue;
        };
        let c = &map.constants[k];
        // (With `from_handler`, a call without a parameter loads its RTBuffer: as passed.)
        let given = call.rt_param.or(from_handler.then_some(call.args[2]));
        let (buffer, storage, buffer_type) = match given {
            Some(p) => {
                let ty = index
                    .defs
                    .get(&p)
                    .and_then(|i| module.inst(i))
                    .and_then(inst::result_type)
                    .ok_or_else(|| Error::Lower(format!("RTBuffer %{p} has no type")))?;
                match layout.kind(ty)? {
                    TypeKind::Pointer { storage, .. } => (p, storage, ty),
                    _ => return Err(Error::Lower(format!("RTBuffer %{p} is not a pointer"))),
                }
            }
            None => {
                let p = *param_of
                    .get(&call.caller)
                    .ok_or_else(|| Error::Lower("caller was not threaded".into()))?;
                (p, StorageClass::CrossWorkgroup as u32, buffer_ty)
            }
        };
        plan.push((call, c, buffer, storage, buffer_type));
    }
    for (_, c, _, storage, _) in &plan {
        pointer_types.push((*storage, uchar, 0));
        pointer_types.push((*storage, c.ty, 0));
    }
    let mut ptr_cache: IdMap<(u32, u32), u32> = IdMap::default();
    for (storage, pointee, _) in pointer_types {
        if let std::collections::hash_map::Entry::Vacant(e) = ptr_cache.entry((storage, pointee)) {
            e.insert(intern.get(module, ids, Op::TypePointer, None, &[storage, pointee])?);
        }
    }
    let uchar_zero = intern.get(module, ids, Op::Constant, Some(uchar), &[0])?;
    for (call, c, buffer, storage, buffer_type) in plan {
        let byte_ptr = ptr_cache[&(storage, uchar)];
        let offset = u32::try_from(c.blob_offset)
            .map_err(|_| Error::Lower("buffer offset overflows 32 bits".into()))?;
        let off = intern.get(module, ids, Op::Constant, Some(uint), &[offset])?;
        let mut out = Vec::new();
        let mut base = buffer;
        if buffer_type != byte_ptr {
            base = ids.alloc()?;
            out.extend(build(Op::Bitcast, &[byte_ptr, base, buffer]));
        }
        let gep = ids.alloc()?;
        out.extend(build(
            Op::InBoundsPtrAccessChain,
            &[byte_ptr, gep, base, off],
        ));
        let result = if call.sret.is_some() {
            ids.alloc()?
        } else {
            call.result
        };
        let aligned = MemoryAccess::ALIGNED.bits();
        if matches!(
            c.tree,
            SpecNode::Leaf {
                scalar: crate::specmap::Scalar::Bool,
                ..
            }
        ) {
            let byte = ids.alloc()?;
            out.extend(build(Op::Load, &[uchar, byte, gep, aligned, 1]));
            out.extend(build(Op::INotEqual, &[c.ty, result, byte, uchar_zero]));
        } else {
            let typed = ids.alloc()?;
            out.extend(build(
                Op::Bitcast,
                &[ptr_cache[&(storage, c.ty)], typed, gep],
            ));
            let align = if packed { 1 } else { c.align as u32 };
            out.extend(build(Op::Load, &[c.ty, result, typed, aligned, align]));
        }
        if let Some(sret) = call.sret {
            out.extend(build(Op::Store, &[sret, result]));
        }
        module.replace(call.inst as usize, out);
    }

    Ok(())
}

/// Which argument of each kernel takes the buffer.
fn kernel_buffers(
    module: &Module,
    index: &Index,
    markers: &Markers,
    threaded: &BTreeSet<u32>,
    from_handler: bool,
) -> Result<Vec<KernelBuffer>> {
    let mut rt_param_of: IdMap<u32, u32> = IdMap::default(); // caller → its first call's RTBuffer
    for c in &markers.calls {
        if let Some(p) = c.rt_param {
            rt_param_of.entry(c.caller).or_insert(p);
        }
    }
    let mut kernels = Vec::new();
    for &e in &index.entry_points {
        let Some(w) = module.inst(e).map(|w| w.to_vec()) else {
            continue;
        };
        if w[1] != ExecutionModel::Kernel as u32 {
            continue;
        }
        let name = inst::read_string(&w[3..])
            .map(|(n, _)| String::from_utf8_lossy(&n).into_owned())
            .unwrap_or_default();
        let f = function(index, w[2])?;
        // (The parameter handed to the kernel_handler, when that is where the buffer comes from.)
        let handed = (markers.handler_buffers.iter())
            .find(|&&(g, _)| from_handler && g == f.id)
            .map(|(_, p)| p);
        let arg = if threaded.contains(&f.id) {
            Some(f.params.len() as u32)
        } else {
            rt_param_of
                .get(&f.id)
                .or(handed)
                .and_then(|&p| f.params.iter().position(|&x| x == p))
                .map(|k| k as u32)
        };
        kernels.push(KernelBuffer { name, arg });
    }
    Ok(kernels)
}

fn contains_bool(map: &SpecMap, node: &SpecNode) -> bool {
    match node {
        SpecNode::Leaf { scalar, .. } => *scalar == crate::specmap::Scalar::Bool,
        SpecNode::Padding { .. } => false,
        SpecNode::Composite { .. } => map.children(node).iter().any(|c| contains_bool(map, c)),
    }
}

fn function(index: &Index, id: u32) -> Result<&crate::module::index::Function> {
    index
        .function_by_id
        .get(&id)
        .and_then(|&k| index.functions.get(k))
        .ok_or_else(|| Error::Lower(format!("%{id} is not a function")))
}

/// Modules with at least this many instructions are scanned on two threads.
const PARALLEL_SCAN_MIN: usize = 200_000;

/// A function that gets a new parameter must only be called directly (and be an entry point).
fn check_only_called_directly(
    module: &Module,
    index: &Index,
    threaded: &BTreeSet<u32>,
) -> Result<()> {
    if threaded.is_empty() {
        return Ok(());
    }
    let mut set = IdBits::new(module.bound(), module.word_count());
    for &f in threaded {
        set.insert(f);
    }
    // Every instruction is read: two threads on big modules (the union does not depend on the
    // split).
    // (The input's instructions are walked by their word counts, as the module's own walk found
    // them, as cleanup's use count walks them; only edited ones are looked up. Looking each up
    // was most of this scan on an 8.5 MB module with few calls.)
    let words = module.original_words();
    let scan = |range: std::ops::Range<usize>| {
        let mut bad = BTreeSet::new();
        let mut behind = ReleaseBehind::default();
        let mut next = range.clone().next().map_or(0, |i| module.offset_of(i));
        for i in range {
            let at = next;
            next = at + (words[at] >> 16) as usize;
            behind.passed(module, at);
            let w = if module.is_edited(i) {
                let Some(w) = module.inst(i) else { continue };
                w
            } else {
                &words[at..next]
            };
            // Debug information (extended instructions) names functions without taking their
            // address. (The opcode first: names and decorations, a third of the instructions of
            // real device code, are long and never need their words read.)
            let op = inst::opcode(w);
            if [
                Op::Name,
                Op::Decorate,
                Op::DecorateString,
                Op::EntryPoint,
                Op::ExecutionMode,
                Op::Function,
                Op::ExtInst,
            ]
            .iter()
            .any(|&o| o as u32 == op)
            {
                continue;
            }
            if !w[1..].iter().any(|&x| set.contains(x)) {
                continue;
            }
            // (`set` holds exactly the threaded functions.)
            let mut check = |p: usize| {
                if set.contains(w[p]) && !(op == Op::FunctionCall as u32 && p == 3) {
                    bad.insert(w[p]);
                }
            };
            // The common instructions without allocating; the extended ones and OpSwitch (their
            // operands need the index), and undecodable ones (every word), as the index reads them.
            if op == Op::ExtInst as u32
                || op == Op::Switch as u32
                || !inst::visit_use_positions(w, &mut check)
            {
                let positions = index
                    .id_use_positions(module, w)
                    .unwrap_or_else(|| (1..w.len()).collect());
                positions.into_iter().for_each(check);
            }
        }
        bad
    };
    let n = module.len();
    let bad = if n >= PARALLEL_SCAN_MIN {
        let mid = n / 2;
        let (mut lower, upper) = std::thread::scope(|scope| {
            let upper = scope.spawn(|| scan(mid..n));
            (scan(0..mid), upper.join())
        });
        lower.extend(upper.map_err(|_| Error::PostCondition("the scanning thread failed".into()))?);
        lower
    } else {
        scan(0..n)
    };
    if bad.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = bad.iter().map(|&f| index.display_name(f)).collect();
    Err(Error::Lower(format!(
        "a spec-constant marker is reachable through a function pointer or an indirect call of {}: the spec-constant buffer cannot be passed to it",
        names.join(", ")
    )))
}
