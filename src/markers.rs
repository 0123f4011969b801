//! Find the SYCL 2020 spec-constant marker calls and recover what they ask for.
//!
//! Algorithm:
//! 1. Marker functions are declarations (no body) whose `LinkageAttributes … Import` name — or
//!    `OpName` when there is no linkage decoration — starts with
//!    `_Z37__sycl_getScalar2020SpecConstantValue` or `_Z40__sycl_getComposite2020SpecConstantValue`.
//! 2. Every `OpFunctionCall` to one of them, in module order, is a [`MarkerCall`]. A void marker
//!    takes an sret pointer first (4 arguments) and the value type is that pointer's pointee;
//!    otherwise the value type is the call's result type (3 arguments).
//! 3. The SymbolicID and DefaultValue arguments are walked back through pointer casts, all-zero
//!    access chains, `OpCopyObject`, the same operations inside `OpSpecConstantOp`, and the -O0
//!    pattern (pointer stored once into a `Function` variable and loaded back) to module-scope
//!    `OpVariable`s. The symbolic ID is the variable's 8-bit string initializer up to its NUL; the
//!    default value is the first member of the other variable's initializer (all undefined when
//!    it has none and is not imported: LLVM's SPIR-V backend drops `undef` initializers).
//!
//! Errors of all calls are gathered and reported together.
//!
//! Precondition: an [`Index`] of the module. Postcondition: every returned call has a resolved
//! symbolic ID and default value; nothing in the module is changed.

use crate::error::{Error, Result};
use crate::layout::{Layout, TypeKind};
use crate::module::idhash::{IdMap, IdSet};
use crate::module::index::{self, Index};
use crate::module::{inst, Module, ReleaseBehind};
use spirv::{Op, StorageClass};
use std::cell::RefCell;

/// Mangled-name prefixes of the marker functions (any template argument, any parameter mangling).
pub const MARKER_PREFIXES: [&str; 2] = [
    "_Z37__sycl_getScalar2020SpecConstantValue",
    "_Z40__sycl_getComposite2020SpecConstantValue",
];

/// Mangled-name suffix of `sycl::kernel_handler::__init_specialization_constants_buffer(char*)`
/// (any inline namespace). For a target without native spec constants (AOT) the front end makes
/// each kernel that takes a `kernel_handler` call it with the kernel's own spec-constant buffer
/// argument; the marker calls then load their RTBuffer from the `kernel_handler` (a parameter of
/// theirs only once inlined).
pub const KERNEL_HANDLER_INIT_SUFFIX: &str =
    "kernel_handler38__init_specialization_constants_bufferEPc";

/// Deepest chain of casts and copies followed from a marker argument.
const MAX_WALK: usize = 256;

/// The symbolic ID of a SYCL spec constant: opaque bytes (usually ASCII), used verbatim as the
/// property name. Held once per distinct ID (`Markers::symbols`) and shared, not copied, by the
/// spec map.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymbolicId(pub std::sync::Arc<[u8]>);

// (Hash and Eq of the Arc are those of the bytes: a set of symbolic IDs can be searched by bytes.)
impl std::borrow::Borrow<[u8]> for SymbolicId {
    fn borrow(&self) -> &[u8] {
        &self.0
    }
}

impl std::fmt::Display for SymbolicId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.0))
    }
}

/// Where the default value comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefaultValue {
    /// A constant instruction (`OpConstant*`, `OpConstantComposite`, `OpConstantNull`, `OpUndef`).
    Constant(u32),
    /// A zero value of this type (the initializer was `OpConstantNull` of the wrapper).
    Zero(u32),
    /// No byte defined: the variable has no initializer (LLVM's SPIR-V backend writes a global
    /// whose LLVM initializer is `undef` so; the translator writes an `OpUndef` initializer).
    Undefined,
}

/// One call to a marker function. (Compact: a module may have hundreds of thousands.)
#[derive(Clone, Debug)]
pub struct MarkerCall {
    /// Instruction index of the `OpFunctionCall`.
    pub inst: u32,
    /// Id of the function that contains the call.
    pub caller: u32,
    /// Id of the marker declaration called.
    pub callee: u32,
    /// Result id of the call.
    pub result: u32,
    /// The sret pointer the value is stored through, if the marker returns void.
    pub sret: Option<u32>,
    /// The spec constant's type.
    pub value_type: u32,
    /// Its symbolic ID: an index into [`Markers::symbols`].
    pub symbol: u32,
    /// The argument ids, as passed (SymbolicID, DefaultValue, RTBuffer).
    pub args: [u32; 3],
    pub default: DefaultValue,
    /// -O0 stores whose only purpose was to pass a marker argument (removable with the call), as
    /// instruction indices.
    pub o0_stores: Box<[u32]>,
    /// The RTBuffer argument when it is, through pointer casts, a parameter of the calling
    /// function that may receive a buffer (not when every caller passes a null pointer:
    /// `Walker::drop_null_buffer_params`).
    pub rt_param: Option<u32>,
    /// Whether the RTBuffer argument is, through pointer casts, loaded from memory (the
    /// `kernel_handler`'s field at -O0).
    pub rt_loaded: bool,
}

/// The marker functions and calls of a module.
///
/// Invariant (as [`find_markers`] returns it): every call's `symbol` indexes `symbols`, the
/// symbolic IDs are distinct, and they are numbered in order of their first call.
#[derive(Debug, Default)]
pub struct Markers {
    /// Ids of the marker declarations.
    pub functions: Vec<u32>,
    pub calls: Vec<MarkerCall>,
    /// The distinct symbolic IDs of the calls.
    pub symbols: Vec<SymbolicId>,
    /// Functions that pass one of their parameters to `kernel_handler`'s
    /// `__init_specialization_constants_buffer` ([`KERNEL_HANDLER_INIT_SUFFIX`]): (function,
    /// parameter), in module order. Non-empty for AOT images built at -O0.
    pub handler_buffers: Vec<(u32, u32)>,
}

impl Markers {
    /// The symbolic ID of `call` (`None` only for a call not from these markers).
    pub fn symbolic_id(&self, call: &MarkerCall) -> Option<&SymbolicId> {
        self.symbols.get(call.symbol as usize)
    }
}

/// The name spec-link matches a function by: linkage name, else `OpName`.
fn marker_name(index: &Index, id: u32) -> Option<&[u8]> {
    match index.linkage.get(&id) {
        Some(l) => Some(&l.name),
        None => index.names.get(&id).map(|n| n.as_slice()),
    }
}

pub fn is_marker_name(name: &[u8]) -> bool {
    MARKER_PREFIXES
        .iter()
        .any(|p| name.starts_with(p.as_bytes()))
}

/// Whether any `OpName` or `LinkageAttributes` decoration names a marker. Both belong to sections
/// (debug names, annotations) that come before every type, constant, variable and function, so
/// this reads only up to the first of those (see [`ends_names_and_annotations`]): a module for
/// which it is false passes through unchanged without being indexed.
pub fn may_have_markers(module: &Module) -> bool {
    (0..module.len())
        .take_while(|&i| !ends_names_and_annotations(module.opcode(i)))
        .any(|i| names_marker(module.original(i)))
}

/// Whether an opcode is one that no debug name or annotation may follow: a basic type, a
/// constant, a spec constant, `OpVariable`, `OpUndef` or `OpFunction`. (Unknown opcodes do not end
/// the prefix: a vendor instruction among the capabilities must not hide a marker's name.)
pub fn ends_names_and_annotations(op: u32) -> bool {
    matches!(op, 1 | 19..=39 | 41..=46 | 48..=52 | 54 | 59)
}

/// Whether one instruction is an `OpName` or `LinkageAttributes` decoration naming a marker.
pub fn names_marker(w: &[u32]) -> bool {
    let op = inst::opcode(w);
    let name = if op == Op::Name as u32 && w.len() > 2 {
        &w[2..]
    } else if op == Op::Decorate as u32
        && w.len() > 3
        && w[2] == spirv::Decoration::LinkageAttributes as u32
    {
        &w[3..]
    } else {
        return false;
    };
    // Both prefixes start "_Z37" or "_Z40": one word rejects almost every name.
    const STARTS: [u32; 2] = [u32::from_le_bytes(*b"_Z37"), u32::from_le_bytes(*b"_Z40")];
    if !STARTS.contains(&name[0]) {
        return false;
    }
    // The first 44 bytes of the string hold either prefix (40 and 43 bytes) if it is there.
    let mut buf = [0u8; 44];
    for (k, word) in name.iter().take(11).enumerate() {
        buf[k * 4..k * 4 + 4].copy_from_slice(&word.to_le_bytes());
    }
    MARKER_PREFIXES
        .iter()
        .any(|p| buf.starts_with(p.as_bytes()))
}

/// The functions that are markers: declarations named like one.
pub fn marker_declarations(index: &Index) -> impl Iterator<Item = &index::Function> {
    index
        .functions
        .iter()
        .filter(|f| f.is_declaration && marker_name(index, f.id).is_some_and(is_marker_name))
}

/// How many calls to markers the module makes (see [`marker_declarations`]).
pub fn count_marker_calls(index: &Index) -> usize {
    let set: IdSet<u32> = marker_declarations(index).map(|f| f.id).collect();
    if set.is_empty() {
        return 0;
    }
    index
        .calls
        .iter()
        .filter(|c| set.contains(&c.callee))
        .count()
}

/// Finds every marker call of the module (see the module docs).
pub fn find_markers(module: &Module, index: &Index) -> Result<Markers> {
    let mut out = Markers::default();
    let mut marker_set = IdSet::default();
    let mut errors = Vec::new();
    for f in marker_declarations(index) {
        // A declaration is OpFunction, its parameters and OpFunctionEnd (debug lines aside):
        // cleanup removes it whole.
        let body = (f.start + 1..f.end).find(|&i| {
            !matches!(module.opcode(i), 55 | 8 | 317) // OpFunctionParameter, OpLine, OpNoLine
        });
        if let Some(i) = body {
            errors.push(format!(
                "marker {} has instructions after its parameters ({} at word {}) but no OpLabel: neither a declaration nor a definition",
                index.display_name(f.id),
                inst::op_name(module.opcode(i)),
                module.offset_of(i)
            ));
        }
        out.functions.push(f.id);
        marker_set.insert(f.id);
    }
    if !errors.is_empty() {
        return Err(Error::Markers(errors));
    }
    if marker_set.is_empty() {
        return Ok(out);
    }
    let layout = Layout::new(module, index);
    let walker = Walker {
        module,
        index,
        layout: &layout,
        stores: RefCell::new(IdMap::default()),
        symbols: RefCell::new(Symbols::default()),
        chars: RefCell::new([u64::MAX; CHAR_MEMO]),
    };
    // The index recorded every call, in order. (Counted first: on a module with many calls, a
    // vector grown by doubling would hold up to twice their size until cleanup.)
    let is_marker_call = |c: &&crate::module::index::Call| marker_set.contains(&c.callee);
    out.calls
        .reserve_exact(index.calls.iter().filter(is_marker_call).count());
    // (The calls come in order: the input's pages go behind them.)
    let mut behind = ReleaseBehind::default();
    // (The calls are scattered over the module, a few cache and TLB misses each: the offset of
    // the call 16 ahead and the words of the one 8 ahead are asked for while this one is read.)
    let mut ahead_16 = index.calls.iter().filter(is_marker_call).skip(16);
    let mut ahead_8 = index.calls.iter().filter(is_marker_call).skip(8);
    for call in index.calls.iter().filter(is_marker_call) {
        if let Some(c) = ahead_16.next() {
            module.prefetch_offset(c.inst as usize);
        }
        if let Some(c) = ahead_8.next() {
            module.prefetch_inst(c.inst as usize);
        }
        behind.passed(module, module.offset_of(call.inst as usize));
        let (i, Some(f)) = (
            call.inst as usize,
            index.functions.get(call.function as usize),
        ) else {
            continue;
        };
        let Some(w) = module.inst(i) else { continue };
        match walker.call(i, f.id, w) {
            Ok(c) => out.calls.push(c),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(Error::Markers(errors));
    }
    // The kernels' buffer arguments handed to the kernel_handler.
    let init: IdSet<u32> = index
        .functions
        .iter()
        .filter(|f| {
            marker_name(index, f.id)
                .is_some_and(|n| n.ends_with(KERNEL_HANDLER_INIT_SUFFIX.as_bytes()))
        })
        .map(|f| f.id)
        .collect();
    if !init.is_empty() {
        for call in index.calls.iter().filter(|c| init.contains(&c.callee)) {
            let (Some(f), Some(w)) = (
                index.functions.get(call.function as usize),
                module.inst(call.inst as usize),
            ) else {
                continue;
            };
            // OpFunctionCall type result callee this buffer
            if let Some(p) = w.get(5).and_then(|&b| walker.parameter(f, b)) {
                out.handler_buffers.push((f.id, p));
            }
        }
    }
    walker.drop_null_buffer_params(&mut out.calls, out.handler_buffers.is_empty());
    out.symbols = walker.symbols.into_inner().list;
    Ok(out)
}

struct Walker<'a> {
    module: &'a Module,
    index: &'a Index,
    layout: &'a Layout<'a>,
    /// Per function (by start index): local slot → the `OpStore`s into it (through casts),
    /// built on first use so that -O0 modules are scanned once per function.
    stores: RefCell<IdMap<usize, IdMap<u32, Vec<usize>>>>,
    /// The symbolic IDs so far, in order of first call, and their indices by variable and by
    /// bytes (a variable's string is decoded once; equal strings share one index).
    symbols: RefCell<Symbols>,
    /// Characters of symbolic IDs already decoded: a direct-mapped memo, slot `id % CHAR_MEMO`,
    /// holding `id << 8 | byte`. An empty slot holds `u64::MAX`, which matches no id (its
    /// `>> 8` is above every u32; 0 would match id 0, which a malformed string may name). Only
    /// a character that passed every check is memoised, so a bad one is always reported by the
    /// full path. A module's strings share a few dozen character constants: most characters
    /// are then found here instead of through the definition table and the instruction (three
    /// dependent reads).
    chars: RefCell<[u64; CHAR_MEMO]>,
}

/// Slots of [`Walker::chars`].
const CHAR_MEMO: usize = 256;

#[derive(Default)]
struct Symbols {
    list: Vec<SymbolicId>,
    by_var: IdMap<u32, u32>,
    by_bytes: std::collections::HashMap<SymbolicId, u32, crate::module::idhash::IdBuild>,
    /// Scratch for decoding a string.
    buf: Vec<u8>,
}

impl Walker<'_> {
    fn def(&self, id: u32) -> Option<(usize, &[u32])> {
        let i = self.index.defs.get(&id)?;
        Some((i, self.module.inst(i)?))
    }

    /// The call at instruction `i` (words `w`) in function `caller`; an error says which call.
    fn call(&self, i: usize, caller: u32, w: &[u32]) -> std::result::Result<MarkerCall, String> {
        // (The call's description is built only for an error: modules may have many calls.)
        self.resolve(i, caller, w).map_err(|e| {
            format!(
                "marker call %{} in function {} (calling {}): {e}",
                w[2],
                self.index.display_name(caller),
                self.index.display_name(w[3])
            )
        })
    }

    fn resolve(&self, i: usize, caller: u32, w: &[u32]) -> std::result::Result<MarkerCall, String> {
        let callee = w[3];
        let decl = self
            .index
            .function_by_id
            .get(&callee)
            .and_then(|&k| self.index.functions.get(k))
            .ok_or("callee is not a function")?;
        let args = &w[4..];
        let ret_void =
            matches!(self.layout.kind(w[1]), Ok(TypeKind::Other(op)) if op == Op::TypeVoid as u32);
        let (sret, rest) = if ret_void {
            if args.len() != 4 {
                return Err(format!(
                    "passes {} arguments; a void marker takes 4 (sret pointer, SymbolicID, DefaultValue, RTBuffer)",
                    args.len()
                ));
            }
            (Some(args[0]), &args[1..])
        } else {
            if args.len() != 3 {
                return Err(format!(
                    "passes {} arguments; a marker takes 3 (SymbolicID, DefaultValue, RTBuffer)",
                    args.len()
                ));
            }
            (None, args)
        };
        if decl.params.len() != args.len() {
            return Err(format!(
                "the declaration has {} parameters but the call passes {}",
                decl.params.len(),
                args.len()
            ));
        }
        let value_type = match sret {
            None => w[1],
            Some(p) => {
                let ptr_ty = self
                    .def(p)
                    .and_then(|(_, pw)| inst::result_type(pw))
                    .ok_or_else(|| format!("sret argument %{p} has no type"))?;
                match self.layout.kind(ptr_ty) {
                    Ok(TypeKind::Pointer { pointee, .. }) => pointee,
                    _ => return Err(format!("sret argument %{p} is not a pointer")),
                }
            }
        };
        let mut o0_stores = Vec::new();
        let sym_var = self
            .global_var(rest[0], &mut o0_stores)
            .map_err(|e| format!("SymbolicID argument %{} {e}", rest[0]))?;
        let symbol = self
            .symbol(sym_var)
            .map_err(|e| format!("SymbolicID variable %{sym_var} {e}"))?;
        let def_var = self
            .global_var(rest[1], &mut o0_stores)
            .map_err(|e| format!("DefaultValue argument %{} {e}", rest[1]))?;
        let default = self
            .default_value(def_var)
            .map_err(|e| format!("DefaultValue variable %{def_var} {e}"))?;
        let rt = self.strip(rest[2]);
        let rt_param = self
            .index
            .function_by_id
            .get(&caller)
            .and_then(|&k| self.index.functions.get(k))
            .filter(|f| f.params.contains(&rt))
            .map(|_| rt);
        let rt_loaded = self.def(rt).is_some_and(|(_, w)| inst::is(w, Op::Load));
        Ok(MarkerCall {
            rt_param,
            rt_loaded,
            // (Instruction indices fit: the module has fewer than 2^32 words.)
            inst: i as u32,
            caller,
            callee,
            result: w[2],
            sret,
            value_type,
            symbol,
            args: [rest[0], rest[1], rest[2]],
            default,
            o0_stores: o0_stores.into_boxed_slice(),
        })
    }

    /// Whether `id` is an integer constant zero (`OpConstant 0` or `OpConstantNull`).
    fn is_zero(&self, id: u32) -> bool {
        match self.def(id) {
            Some((_, w)) if inst::is(w, Op::Constant) => {
                w.len() > 3 && w[3..].iter().all(|&x| x == 0)
            }
            Some((_, w)) => inst::is(w, Op::ConstantNull),
            None => false,
        }
    }

    /// The pointer operand if `op` (with operands starting at `ops`) is a value-preserving
    /// pointer operation: a cast, a copy, or an access chain whose indices are all zero.
    fn passthrough(&self, op: u32, ops: &[u32]) -> Option<u32> {
        let first = *ops.first()?;
        match Op::from_u32(op)? {
            Op::Bitcast | Op::PtrCastToGeneric | Op::GenericCastToPtr | Op::CopyObject => {
                Some(first)
            }
            Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain => {
                ops[1..].iter().all(|&x| self.is_zero(x)).then_some(first)
            }
            _ => None,
        }
    }

    /// Strips casts and zero access chains (not loads).
    fn strip(&self, mut id: u32) -> u32 {
        for _ in 0..MAX_WALK {
            let Some((_, w)) = self.def(id) else {
                return id;
            };
            let op = inst::opcode(w);
            let next = if op == Op::SpecConstantOp as u32 && w.len() > 3 {
                self.passthrough(w[3], &w[4..])
            } else if w.len() > 3 {
                self.passthrough(op, &w[3..])
            } else {
                None
            };
            match next {
                Some(n) => id = n,
                None => return id,
            }
        }
        id
    }

    /// Clears the `rt_param` of calls whose RTBuffer parameter never receives a buffer: every
    /// direct call of the function passes there a null or undefined pointer (or integer 0), a
    /// pointer loaded from memory when `loads_are_null` (a JIT image: nothing stores a buffer
    /// into the `kernel_handler`), such a parameter of its own, or a conversion, `OpPhi` or
    /// `OpSelect` of those (a greatest fixed point: callers in a cycle that pass nothing else
    /// count as null). That is what a JIT image's front end leaves
    /// when a helper that is not inlined takes the `kernel_handler`: those calls then take the
    /// buffer spec-link threads through, as the inlined ones do. A parameter of a function
    /// nothing calls (a kernel) is a buffer.
    fn drop_null_buffer_params(&self, calls: &mut [MarkerCall], loads_are_null: bool) {
        let position = |f: u32, p: u32| -> Option<usize> {
            let k = *self.index.function_by_id.get(&f)?;
            self.index
                .functions
                .get(k)?
                .params
                .iter()
                .position(|&q| q == p)
        };
        let mut work: Vec<(u32, usize)> = calls
            .iter()
            .filter_map(|c| Some((c.caller, position(c.caller, c.rt_param?)?)))
            .collect();
        if work.is_empty() {
            return;
        }
        // Direct calls by callee (instruction indices, with the calling function's id).
        let mut sites: IdMap<u32, Vec<(u32, usize)>> = IdMap::default();
        for call in &self.index.calls {
            if let Some(f) = self.index.functions.get(call.function as usize) {
                sites
                    .entry(call.callee)
                    .or_default()
                    .push((f.id, call.inst as usize));
            }
        }
        // What call site `i` passes as argument `k`: null pointers only (`Some` of no
        // parameters), null pointers or parameters of the caller (their positions), or anything
        // else (`None`). Followed through pointer casts, conversions between pointers and
        // integers (a `kernel_handler` taken apart into an integer: 0 for a null pointer), and
        // the values an `OpPhi` or `OpSelect` merges.
        let passed = |caller: u32, i: usize, k: usize| -> Option<Vec<usize>> {
            // OpFunctionCall type result callee args…
            let &arg = self.module.inst(i).and_then(|w| w.get(4 + k))?;
            let mut params = Vec::new();
            let mut todo = vec![arg];
            let mut seen = IdSet::default();
            let mut steps = 0;
            while let Some(v) = todo.pop() {
                let v = self.strip(v);
                steps += 1;
                if steps > MAX_WALK {
                    return None;
                }
                if !seen.insert(v) {
                    continue;
                }
                if let Some(j) = position(caller, v) {
                    params.push(j);
                    continue;
                }
                let (_, w) = self.def(v)?;
                let op = inst::opcode(w);
                let zero = op == Op::Constant as u32 && w[3..].iter().all(|&x| x == 0);
                if op == Op::ConstantNull as u32
                    || op == Op::Undef as u32
                    || zero
                    || (loads_are_null && op == Op::Load as u32)
                {
                    continue;
                }
                let converts = [
                    Op::ConvertUToPtr,
                    Op::ConvertPtrToU,
                    Op::UConvert,
                    Op::Bitcast,
                ]
                .iter()
                .any(|&c| op == c as u32);
                if converts && w.len() > 3 {
                    todo.push(w[3]);
                } else if op == Op::Phi as u32 {
                    // result type, result, then (value, block) pairs
                    todo.extend(w[3..].iter().step_by(2));
                } else if op == Op::Select as u32 && w.len() > 5 {
                    todo.extend_from_slice(&w[4..6]);
                } else {
                    return None;
                }
            }
            Some(params)
        };
        // Every parameter reachable from the marker calls, with the parameters whose null-only
        // status it depends on (those its call sites pass); fed directly: a call site passes
        // something else, or nothing calls the function.
        let mut null_only: IdMap<(u32, usize), bool> = IdMap::default();
        let mut dependents: IdMap<(u32, usize), Vec<(u32, usize)>> = IdMap::default();
        let mut fed: Vec<(u32, usize)> = Vec::new();
        while let Some(key) = work.pop() {
            if null_only.contains_key(&key) {
                continue;
            }
            null_only.insert(key, true);
            let callers = sites.get(&key.0).map_or(&[][..], |v| &v[..]);
            let mut direct = callers.is_empty();
            for &(caller, i) in callers {
                match passed(caller, i, key.1) {
                    Some(params) => {
                        for j in params {
                            dependents.entry((caller, j)).or_default().push(key);
                            work.push((caller, j));
                        }
                    }
                    None => direct = true,
                }
            }
            if direct {
                fed.push(key);
            }
        }
        // Then what they pass on is fed too (each parameter once).
        while let Some(key) = fed.pop() {
            if null_only.insert(key, false) == Some(false) {
                continue;
            }
            fed.extend(dependents.get(&key).into_iter().flatten().copied());
        }
        for c in calls.iter_mut() {
            if let Some(k) = c.rt_param.and_then(|p| position(c.caller, p)) {
                if null_only.get(&(c.caller, k)) == Some(&true) {
                    c.rt_param = None;
                }
            }
        }
    }

    /// Whether `id` is a `Function` variable (a local of the -O0 pattern).
    fn is_local_variable(&self, id: u32) -> bool {
        self.def(id).is_some_and(|(_, w)| {
            inst::is(w, Op::Variable) && w.len() >= 4 && w[3] == StorageClass::Function as u32
        })
    }

    /// The parameter of `f` that `id` is, through pointer casts and the -O0 pattern (stored once
    /// into a `Function` variable and loaded back), if it is one.
    fn parameter(&self, f: &index::Function, id: u32) -> Option<u32> {
        let mut id = self.strip(id);
        for _ in 0..MAX_WALK {
            if f.params.contains(&id) {
                return Some(id);
            }
            let (_, w) = self.def(id)?;
            if !inst::is(w, Op::Load) || w.len() < 4 {
                return None;
            }
            let slot = self.strip(w[3]);
            if !self.is_local_variable(slot) {
                return None;
            }
            let [s] = self.stores_into(f.start, f.end, slot)[..] else {
                return None;
            };
            id = self.strip(self.module.inst(s)?.get(2).copied()?);
        }
        None
    }

    /// The stores into local `slot` of the function spanning `start..=end`.
    fn stores_into(&self, start: usize, end: usize, slot: u32) -> Vec<usize> {
        let mut cache = self.stores.borrow_mut();
        let per_slot = cache.entry(start).or_insert_with(|| {
            let mut m: IdMap<u32, Vec<usize>> = IdMap::default();
            for k in start..=end {
                if let Some(sw) = self.module.inst(k) {
                    if inst::is(sw, Op::Store) && sw.len() >= 3 {
                        m.entry(self.strip(sw[1])).or_default().push(k);
                    }
                }
            }
            m
        });
        per_slot.get(&slot).cloned().unwrap_or_default()
    }

    /// Walks `id` back to a module-scope `OpVariable` (see the module docs).
    fn global_var(&self, start: u32, o0_stores: &mut Vec<u32>) -> std::result::Result<u32, String> {
        let mut id = start;
        for _ in 0..MAX_WALK {
            id = self.strip(id);
            let Some((i, w)) = self.def(id) else {
                return Err(format!(
                    "does not resolve to a constant global: %{id} is not defined"
                ));
            };
            let op = inst::opcode(w);
            if op == Op::Variable as u32 && i < self.index.globals_end {
                return Ok(id);
            }
            if op == Op::Load as u32 && w.len() >= 4 {
                // -O0: the pointer was stored once into a Function variable and loaded back.
                let slot = self.strip(w[3]);
                let f = self.index.function_of(i);
                if self.is_local_variable(slot) {
                    if let Some(f) = f {
                        let stores = self.stores_into(f.start, f.end, slot);
                        if let [s] = stores[..] {
                            o0_stores.push(s as u32);
                            id = self.module.inst(s).map_or(0, |sw| sw[2]);
                            continue;
                        }
                        return Err(format!(
                            "does not resolve to a constant global: the local variable %{slot} it is loaded from is stored {} times (expected once)",
                            stores.len()
                        ));
                    }
                }
                return Err(format!(
                    "does not resolve to a constant global: it is loaded (%{id}) from memory"
                ));
            }
            return Err(format!(
                "does not resolve to a constant global: it comes from %{id} ({})",
                inst::op_name(op)
            ));
        }
        Err(format!(
            "does not resolve to a constant global: more than {MAX_WALK} casts"
        ))
    }

    fn initializer(&self, var: u32) -> std::result::Result<(u32, &[u32]), String> {
        let (_, w) = self.def(var).ok_or("is not defined")?;
        let init = *w.get(4).ok_or("has no initializer")?;
        let (_, iw) = self
            .def(init)
            .ok_or_else(|| format!("has an undefined initializer %{init}"))?;
        Ok((init, iw))
    }

    /// The index (in [`Markers::symbols`]) of the symbolic ID held by variable `var`.
    fn symbol(&self, var: u32) -> std::result::Result<u32, String> {
        let mut symbols = self.symbols.borrow_mut();
        if let Some(&k) = symbols.by_var.get(&var) {
            return Ok(k);
        }
        let mut bytes = std::mem::take(&mut symbols.buf);
        bytes.clear();
        let decoded = self.symbolic_string(var, &mut bytes);
        let Symbols {
            list,
            by_var,
            by_bytes,
            buf,
        } = &mut *symbols;
        let k = match decoded {
            Err(e) => {
                *buf = bytes;
                return Err(e);
            }
            Ok(()) => match by_bytes.get(bytes.as_slice()) {
                Some(&k) => k,
                None => {
                    let k = u32::try_from(list.len()).map_err(|_| "is one symbolic ID too many")?;
                    let id = SymbolicId(bytes.as_slice().into());
                    list.push(id.clone());
                    by_bytes.insert(id, k);
                    k
                }
            },
        };
        *buf = bytes;
        by_var.insert(var, k);
        Ok(k)
    }

    /// Decodes the symbolic ID held by variable `var` into `bytes`.
    fn symbolic_string(&self, var: u32, bytes: &mut Vec<u8>) -> std::result::Result<(), String> {
        let (init, iw) = self.initializer(var)?;
        let op = inst::opcode(iw);
        if op == Op::ConstantNull as u32 {
            return Ok(());
        }
        if op != Op::ConstantComposite as u32 {
            return Err(format!(
                "is initialised by %{init} ({}), not a string constant",
                inst::op_name(op)
            ));
        }
        // The characters share one type: it is checked once.
        let mut char_type = None;
        let mut memo = self.chars.borrow_mut();
        for &c in iw.get(3..).unwrap_or_default() {
            let slot = &mut memo[c as usize % CHAR_MEMO];
            if *slot >> 8 == u64::from(c) {
                let byte = *slot as u8;
                if byte == 0 {
                    return Ok(());
                }
                bytes.push(byte);
                continue;
            }
            let (_, cw) = self
                .def(c)
                .ok_or_else(|| format!("has an undefined character %{c}"))?;
            let ty = cw.get(1).copied().unwrap_or(0);
            if char_type != Some(ty)
                && !matches!(self.layout.kind(ty), Ok(TypeKind::Int { bits: 8, .. }))
            {
                return Err(format!(
                    "is not a string of 8-bit integers (character %{c} has type {})",
                    self.layout.display(ty)
                ));
            }
            char_type = Some(ty);
            let byte = match inst::opcode(cw) {
                x if x == Op::Constant as u32 && cw.len() >= 4 => (cw[3] & 0xff) as u8,
                x if x == Op::ConstantNull as u32 => 0,
                x => {
                    return Err(format!(
                        "has a non-constant character %{c} ({})",
                        inst::op_name(x)
                    ))
                }
            };
            *slot = u64::from(c) << 8 | u64::from(byte);
            if byte == 0 {
                return Ok(());
            }
            bytes.push(byte);
        }
        Err("is not NUL-terminated".into())
    }

    fn default_value(&self, var: u32) -> std::result::Result<DefaultValue, String> {
        let (_, w) = self.def(var).ok_or("is not defined")?;
        if w.len() < 5 {
            // Without an initializer the value is undefined, unless the variable is imported:
            // then it is defined in another module, which spec-link has not been given.
            if self.index.linkage.get(&var).is_some_and(|l| l.kind == 1) {
                return Err(
                    "is imported (LinkageAttributes Import) and has no initializer: \
                     link the module that exports it"
                        .into(),
                );
            }
            return Ok(DefaultValue::Undefined);
        }
        let (init, iw) = self.initializer(var)?;
        Ok(match inst::op_of(iw) {
            Some(Op::ConstantComposite) => {
                DefaultValue::Constant(*iw.get(3).ok_or("is initialised by an empty composite")?)
            }
            Some(Op::ConstantNull) => {
                let ty = iw.get(1).copied().unwrap_or(0);
                match self.layout.kind(ty) {
                    Ok(TypeKind::Struct { members, .. }) if !members.is_empty() => {
                        DefaultValue::Zero(members[0])
                    }
                    Ok(TypeKind::Array { elem, .. }) => DefaultValue::Zero(elem),
                    _ => DefaultValue::Zero(ty),
                }
            }
            Some(Op::Undef | Op::Constant | Op::ConstantTrue | Op::ConstantFalse) => {
                DefaultValue::Constant(init)
            }
            _ => {
                return Err(format!(
                    "is initialised by %{init} ({}), not a constant",
                    inst::name_of(iw)
                ))
            }
        })
    }
}
