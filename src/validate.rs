//! Runs `spirv-val` on an output module, with the policy for inputs spirv-val already rejects.
//!
//! Policy: when the output fails validation, the input is validated too. If the input fails with
//! the same error (compared with numbers and ids masked), or spirv-val cannot read the input at
//! all, the error is not spec-link's: the output is accepted with a warning naming the input's
//! error. Otherwise spec-link introduced the error and the run fails.
//!
//! spirv-val reports only its first error. A DPC++ image fails it at the symbolic-ID strings
//! (module-scope `OpVariable`s in `Generic` storage), which lowering removes; an error further on
//! in the image then first shows in the output. So the comparison goes on with each input's
//! *control module*: the input with the instructions spirv-val stops at set aside, as long as
//! lowering removed or rewrote them (a linked input: lowered alone, to learn which) — an
//! instruction with a result type becomes an `OpUndef` of that type and id (its uses stay
//! defined), one without a result goes, decorations go with what they decorate, an
//! `OpEntryPoint` loses the interface ids set aside. Each round sets aside the instruction the
//! error is at and every other one lowering removed with the same opcode in the same scope, then
//! validates again; where the output holds nothing of a function the error is in (a split
//! image without that kernel), every function the output holds nothing of goes whole instead, in
//! that one round, with their entry points, execution modes and names (a split image lacks most
//! of the input's functions, each of which could stop spirv-val in a round of its own; a caller
//! left behind would call an undefined function), but those an instruction staying in the control
//! uses (a marker declaration whose call lowering replaced in a function the output keeps) and
//! those only they use — only that function when none is left — and so does a global-section
//! value or type the output lacks that only such
//! functions use, with the global instructions built on it and the functions calling those
//! functions (an `OpUndef` of a 16-bit type would fail as a 16-bit constant does; a type has no
//! `OpUndef`: an ESIMD kernel's 512-component vector, which spirv-val rejects, goes with its
//! pointer types and the ESIMD functions when a split SYCL image holds none of them). Debian's
//! spirv-val stops at the first Intel alias declaration (`OpAliasDomainDeclINTEL`, written by
//! llvm-spirv after the names): every one the output lacks goes in that round. At most 16
//! rounds (`CONTROL_ROUNDS`). An error at an instruction the output holds that names an entry
//! point the output lacks (an interface that does not list a global its kernel uses: spirv-val
//! names the module's first such kernel, a per-kernel image's is another) takes every entry
//! point the output lacks, with its function, when the output holds none of it. The control
//! declares the extensions the output declares (a linked input may fail for want of one another
//! input brings; an extension only allows more). If the control fails as the output
//! does, the output is accepted with a warning; if it passes, stops at an instruction lowering
//! kept, or cannot be set aside, the run fails. An input whose error is a function declaration
//! after a definition (DPC++'s images can have one) gets its declarations moved before the
//! definitions in the control, as the split's reassembly writes them (the logical layout), and
//! the comparison goes on. The control holds nothing spec-link added, so an
//! error in what spec-link wrote never shows in it; an output lowered in place that uses an id
//! whose definition it lost is refused as before.
//!
//! The validator is `spirv-val` on PATH, or the program named by `$SPEC_LINK_SPIRV_VAL` (e.g. a
//! newer SPIRV-Tools than the system's).

use crate::error::{Error, Result};
use crate::module::assemble::Section;
use crate::module::index::Index;
use crate::module::{inst, Module, HEADER_WORDS};
use std::io::Write;
use std::process::{Command, Stdio};

/// The `--target-env` spirv-val gets by default: `opencl2.2` for SPIR-V ≤ 1.2 modules that
/// declare the `Kernel` capability, else the universal environment of the module's version.
pub fn default_target_env(version: (u8, u8), kernel: bool) -> String {
    if kernel && version <= (1, 2) {
        "opencl2.2".into()
    } else {
        format!("spv{}.{}", version.0, version.1.min(6))
    }
}

fn validator() -> String {
    std::env::var("SPEC_LINK_SPIRV_VAL").unwrap_or_else(|_| "spirv-val".into())
}

/// Whether `$SPEC_LINK_SPIRV_VAL` names the validator: one asked for by name must run (it is
/// never skipped as a missing `spirv-val` is by default).
pub fn validator_named() -> bool {
    std::env::var_os("SPEC_LINK_SPIRV_VAL").is_some()
}

/// What a run does when the validator cannot run (`why`, from [`unavailable`]): one named by
/// `$SPEC_LINK_SPIRV_VAL`, or asked for (`--validate`, `--validate=strict`), makes it an error;
/// by default (`Validation::Auto`) the run goes on with a note that `what` was not validated.
pub fn when_unavailable(
    validation: crate::Validation,
    why: String,
    what: crate::diagnostic::Validated,
) -> Result<crate::Diagnostic> {
    if validator_named() {
        return Err(Error::Validation(why));
    }
    match validation {
        crate::Validation::Auto => Ok(crate::Diagnostic::NotValidated { what, reason: why }),
        _ => Err(Error::Validation(format!(
            "--validate was given but {why} (install SPIRV-Tools)"
        ))),
    }
}

/// Why the validator cannot be run, if it cannot.
pub fn unavailable() -> Option<String> {
    let v = validator();
    match Command::new(&v)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(_) => None,
        Err(e) if validator_named() => Some(format!(
            "$SPEC_LINK_SPIRV_VAL names {v}, which cannot be run ({e})"
        )),
        Err(_) => Some("spirv-val is not on PATH".into()),
    }
}

/// Validates `bytes`; `Ok(None)` if valid, `Ok(Some(message))` if spirv-val rejects it.
/// Runs the validator on `bytes`: its report when the module fails, `None` when it passes.
pub fn spirv_val(bytes: &[u8], target_env: &str) -> Result<Option<String>> {
    let mut child = Command::new(validator())
        .args(["--target-env", target_env, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::Validation(format!("cannot run {}: {e}", validator())))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A closed pipe shows up as a spirv-val failure below.
        let _ = stdin.write_all(bytes);
    }
    let out = child
        .wait_with_output()
        .map_err(|e| Error::Validation(format!("spirv-val did not finish: {e}")))?;
    if out.status.success() {
        return Ok(None);
    }
    if out.status.code().is_none() {
        // Killed (a crash, or the OOM killer): no verdict on the module, and none to compare.
        return Err(Error::Validation(format!(
            "{} did not finish ({}): the output could not be validated",
            validator(),
            out.status
        )));
    }
    let mut msg = String::from_utf8_lossy(&out.stderr).trim().to_string();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !stdout.trim().is_empty() {
        if !msg.is_empty() {
            msg.push('\n');
        }
        msg.push_str(stdout.trim());
    }
    Ok(Some(msg))
}

/// The first error line with numbers and ids masked, for comparing input and output errors.
pub fn error_key(msg: &str) -> String {
    let first = msg
        .lines()
        .find(|l| l.contains("error"))
        .unwrap_or(msg.lines().next().unwrap_or(""));
    let mut out = String::new();
    let mut in_number = false;
    for ch in first.chars() {
        if ch.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(ch);
        }
    }
    out
}

/// Whether spirv-val's message says it could not read the module at all (as opposed to finding
/// it invalid): unknown capabilities, opcodes or operands of newer SPIR-V.
pub fn is_unreadable(msg: &str) -> bool {
    [
        "Invalid capability operand",
        "Invalid opcode",
        "Invalid extended instruction",
        "Invalid SPIR-V binary version",
        "invalid operand",
        "Invalid operand",
    ]
    .iter()
    .any(|p| msg.contains(p))
}

/// What validation decided.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    /// The output is invalid in the same way as the input (or the input is unreadable): keep it.
    InheritedFromInput(String),
    /// The output fails as the input's control module does (see the module docs): keep it.
    /// `output` is the output's error, `input` the input's own first error.
    HiddenInInput {
        output: String,
        input: String,
    },
}

impl Verdict {
    /// The warning an invalid output gets (`None` when it is valid).
    pub fn warning(
        self,
        what: crate::diagnostic::Validated,
        target_env: &str,
    ) -> Option<crate::Diagnostic> {
        let target_env = target_env.to_string();
        match self {
            Verdict::Valid => None,
            Verdict::InheritedFromInput(error) => Some(crate::Diagnostic::InvalidAsInput {
                what,
                target_env,
                error,
            }),
            Verdict::HiddenInInput { output, input } => {
                Some(crate::Diagnostic::InvalidHiddenInInput {
                    what,
                    target_env,
                    output,
                    input,
                })
            }
        }
    }
}

/// What spec-link's lowering did to an input's instructions (see [`check`]).
pub struct Lowered {
    /// By instruction index of the input: whether the output no longer holds it as it was.
    pub gone: Vec<bool>,
    /// Whether the input's ids are the output's (it was lowered in place, not linked).
    pub same_ids: bool,
}

/// Validates the output; on failure applies the input policy (see the module docs) to each
/// input (several when linking: one failing the same way is enough). `lowered(k)` says, when
/// asked, which instructions of input `k` lowering removed or rewrote (`None`: none, or not
/// known); with it the input's control module is tried too.
pub fn check(
    output: &[u8],
    inputs: &[&[u8]],
    target_env: &str,
    lowered: &mut dyn FnMut(usize) -> Option<Lowered>,
) -> Result<Verdict> {
    let Some(out_err) = spirv_val(output, target_env)? else {
        return Ok(Verdict::Valid);
    };
    judge(
        output,
        &out_err,
        inputs,
        &mut |k| spirv_val(inputs[k], target_env),
        target_env,
        lowered,
    )
}

/// [`check`] of an output spirv-val refused with `out_err`; `input_error(k)` is input `k`'s
/// spirv-val report (asked for at most once an input, in input order, and not after one that
/// fails as the output does), for a caller that already has it.
pub fn judge(
    output: &[u8],
    out_err: &str,
    inputs: &[&[u8]],
    input_error: &mut dyn FnMut(usize) -> Result<Option<String>>,
    target_env: &str,
    lowered: &mut dyn FnMut(usize) -> Option<Lowered>,
) -> Result<Verdict> {
    // Refused for the environment, not for the module: the input would fail the same way, and
    // the policy below would pass anything.
    if out_err.contains("Unrecognized target env") {
        return Err(Error::Validation(format!(
            "{} does not know the target environment '{target_env}' (--target-env): {}",
            validator(),
            out_err.lines().next().unwrap_or("")
        )));
    }
    let mut input_errors = Vec::new();
    for k in 0..inputs.len() {
        if let Some(in_err) = input_error(k)? {
            if is_unreadable(&in_err) || error_key(&in_err) == error_key(out_err) {
                return Ok(Verdict::InheritedFromInput(first_line(&in_err)));
            }
            input_errors.push((k, in_err));
        }
    }
    for (k, in_err) in input_errors {
        let Some(lowered) = lowered(k) else {
            continue;
        };
        let first = first_line(&in_err);
        if control_fails_as(
            inputs[k],
            output,
            lowered.same_ids,
            in_err,
            &error_key(out_err),
            &|i| lowered.gone.get(i).copied().unwrap_or(false),
            target_env,
        )? {
            return Ok(Verdict::HiddenInInput {
                output: first_line(out_err),
                input: first,
            });
        }
    }
    Err(Error::Validation(format!(
        "the output module fails spirv-val --target-env {target_env}, and the input does not fail that way:\n{out_err}"
    )))
}

fn first_line(msg: &str) -> String {
    msg.lines().next().unwrap_or("").to_string()
}

/// The instruction (0-based) a spirv-val message's first error is at: spirv-val counts a
/// binary's instructions from 1 (`error: line N: …`).
fn error_instruction(msg: &str) -> Option<usize> {
    let first = msg.lines().find(|l| l.contains("error"))?;
    let rest = first.trim_start().strip_prefix("error: line ")?;
    let n: usize = rest.split(':').next()?.trim().parse().ok()?;
    n.checked_sub(1)
}

/// The entry point a spirv-val message's first error names (`… entry point 'NAME' id <N> …`).
fn error_entry_point(msg: &str) -> Option<u32> {
    let first = msg.lines().find(|l| l.contains("error"))?;
    let (_, after) = first.split_once("entry point '")?;
    let (_, id) = after.split_once("' id <")?;
    id.split('>').next()?.parse().ok()
}

/// OpDecorate, OpMemberDecorate, OpDecorateId, OpDecorateString, OpMemberDecorateString.
fn is_decoration(op: u32) -> bool {
    matches!(op, 71 | 72 | 332 | 5632 | 5633)
}

/// Most rounds of setting instructions aside in the control module (see the module docs).
const CONTROL_ROUNDS: usize = 16;

/// The input of a lowering with some of its instructions set aside (see the module docs).
struct Control {
    module: Module,
    index: Index,
    /// What each set-aside instruction became (`None`: it went).
    set_aside: std::collections::HashMap<usize, Option<Vec<u32>>>,
    /// Function declarations are written before the definitions (the logical layout).
    declarations_first: bool,
    /// `OpExtension`s the control declares after the input's own (see [`control_fails_as`]).
    extensions: Vec<Vec<u32>>,
}

/// A function's first and last instruction and its id.
type FunctionSpan = (usize, usize, u32);

/// spirv-val's error for a function declaration after a definition.
const DECLARATION_AFTER_DEFINITION: &str =
    "Function declarations must appear before function definitions";

impl Control {
    fn new(input: &[u8]) -> Option<Control> {
        let module = Module::from_bytes(input).ok()?;
        let index = Index::build(&module).ok()?;
        Some(Control {
            module,
            index,
            set_aside: Default::default(),
            declarations_first: false,
            extensions: Vec::new(),
        })
    }

    fn inst(&self, i: usize) -> &[u32] {
        self.module.original(i)
    }

    fn opcode(&self, i: usize) -> u32 {
        self.module.opcode(i)
    }

    fn in_function(&self, i: usize) -> bool {
        self.index.function_of(i).is_some()
    }

    fn def(&self, id: u32) -> Option<usize> {
        self.index.defs.get(&id)
    }

    /// What instruction `i` becomes when set aside (`Some(None)`: it goes); `None` if it
    /// cannot be set aside without breaking the module's structure.
    fn set_aside_form(&self, i: usize, gone: &dyn Fn(usize) -> bool) -> Option<Option<Vec<u32>>> {
        use spirv::Op;
        let w = self.inst(i);
        let op = inst::opcode(w);
        if op == Op::EntryPoint as u32 {
            return self.entry_point_without(w, gone).map(Some);
        }
        let structural = [
            Op::Function,
            Op::FunctionParameter,
            Op::FunctionEnd,
            Op::Label,
            Op::Phi,
            Op::SelectionMerge,
            Op::LoopMerge,
            Op::Branch,
            Op::BranchConditional,
            Op::Switch,
            Op::Kill,
            Op::Return,
            Op::ReturnValue,
            Op::Unreachable,
        ];
        if structural.iter().any(|&s| s as u32 == op) {
            return None;
        }
        match inst::result_info(op)? {
            (true, true) => {
                let (ty, id) = (*w.get(1)?, *w.get(2)?);
                let void = self
                    .def(ty)
                    .is_some_and(|d| self.opcode(d) == Op::TypeVoid as u32);
                Some((!void).then(|| inst::build(Op::Undef, &[ty, id])))
            }
            (false, false) => Some(None),
            _ => None,
        }
    }

    /// `OpEntryPoint` `w` without the interface ids defined by instructions `drop` holds.
    fn entry_point_without(&self, w: &[u32], drop: &dyn Fn(usize) -> bool) -> Option<Vec<u32>> {
        let name = inst::string_len(w.get(3..)?)?;
        let mut kept = w.get(..3 + name)?.to_vec();
        kept.extend(
            w[3 + name..]
                .iter()
                .filter(|&&id| !self.def(id).is_some_and(drop)),
        );
        kept[0] = inst::head(spirv::Op::EntryPoint, kept.len());
        Some(kept)
    }

    /// The control module as bytes, and the input instruction each of its instructions comes
    /// from (`usize::MAX` for the extensions it adds). An `OpEntryPoint` loses the interface ids of instructions set aside (an `OpUndef`
    /// is no interface).
    fn materialise(&self) -> (Vec<u8>, Vec<usize>) {
        let mut words = self.module.original_words()[..HEADER_WORDS].to_vec();
        let mut origin = Vec::with_capacity(self.module.len());
        let set_aside = |d: usize| self.set_aside.contains_key(&d);
        let mut extensions = Some(&self.extensions);
        for i in self.order() {
            let w = self.inst(i);
            if !inst::is(w, spirv::Op::Capability) && !inst::is(w, spirv::Op::Extension) {
                // (Instructions the input does not hold come from no input instruction.)
                for e in extensions.take().into_iter().flatten() {
                    words.extend_from_slice(e);
                    origin.push(usize::MAX);
                }
            }
            match self.set_aside.get(&i) {
                Some(None) => continue,
                Some(Some(w)) => words.extend_from_slice(w),
                None if inst::is(w, spirv::Op::EntryPoint) => {
                    match self.entry_point_without(w, &set_aside) {
                        Some(kept) => words.extend_from_slice(&kept),
                        None => words.extend_from_slice(w),
                    }
                }
                None => words.extend_from_slice(w),
            }
            origin.push(i);
        }
        (words.iter().flat_map(|w| w.to_le_bytes()).collect(), origin)
    }

    /// Sets aside the instruction spirv-val's error `err` is at (`origin`: the input instruction
    /// of each control instruction), every other one lowering removed with its opcode in its
    /// scope, and the decorations of what was set aside; false if the error is at no
    /// instruction, at one lowering kept or already set aside, or at one that cannot be.
    fn set_aside_error(
        &mut self,
        err: &str,
        origin: &[usize],
        gone: &dyn Fn(usize) -> bool,
    ) -> bool {
        let Some(&i) = error_instruction(err).and_then(|k| origin.get(k)) else {
            return false;
        };
        // (What goes whole takes nothing else of its opcode with it.)
        let whole = if gone(i) {
            if self.set_aside.contains_key(&i) {
                return false;
            }
            self.set_aside_whole(i, gone)
        } else {
            // An error at an instruction the output holds, about an entry point it lacks (an
            // interface that does not list a global its kernel uses: the output's own kernel
            // may come later) goes with that entry point's function, when the output holds
            // none of it, and so do all the entry points the output lacks so.
            let start_of = |id: u32| {
                self.index
                    .function_by_id
                    .get(&id)
                    .and_then(|&k| self.index.functions.get(k).map(|f| f.start))
            };
            let named = error_entry_point(err).and_then(start_of);
            let others: Vec<usize> = (self.index.entry_points.iter())
                .filter_map(|&e| self.inst(e).get(2).copied().and_then(start_of))
                .collect();
            let Some(named) = named else {
                return false;
            };
            if self.set_aside.contains_key(&named) || !self.set_aside_whole(named, gone) {
                return false;
            }
            for start in others {
                if !self.set_aside.contains_key(&start) {
                    self.set_aside_whole(start, gone);
                }
            }
            true
        };
        if !whole {
            let Some(form) = self.set_aside_form(i, gone) else {
                return false;
            };
            self.set_aside.insert(i, form);
        }
        let (op, scope) = (self.opcode(i), self.in_function(i));
        for j in (0..self.module.len()).filter(|_| !whole) {
            if self.opcode(j) == op
                && self.in_function(j) == scope
                && !is_decoration(op)
                && !self.set_aside.contains_key(&j)
                && gone(j)
            {
                if let Some(form) = self.set_aside_form(j, gone) {
                    self.set_aside.insert(j, form);
                }
            }
        }
        // The decorations of what was set aside go with it.
        for j in 0..self.module.len() {
            let w = self.inst(j);
            if is_decoration(inst::opcode(w))
                && gone(j)
                && w.get(1)
                    .and_then(|&t| self.def(t))
                    .is_some_and(|d| self.set_aside.contains_key(&d))
            {
                self.set_aside.insert(j, None);
            }
        }
        true
    }

    /// Sets aside, whole, what instruction `i` belongs to when the output has none of it: a
    /// function every instruction of which lowering removed (with the entry points and execution
    /// modes that name it), or a global-section instruction the output lacks with what uses it
    /// ([`Control::global_closure`]), which goes with the functions using them: a value (where
    /// an `OpUndef` in its place could fail as it does: a 16-bit constant without the `Float16`
    /// capability) or a type (which has no `OpUndef`: an ESIMD kernel's 512-component vector,
    /// which spirv-val rejects, in a module whose split SYCL image holds no ESIMD code). False
    /// (nothing set aside) otherwise.
    fn set_aside_whole(&mut self, i: usize, gone: &dyn Fn(usize) -> bool) -> bool {
        let whole = |f: &crate::module::index::Function| (f.start..=f.end).all(gone);
        let functions: Vec<FunctionSpan> = match self.index.function_of(i) {
            // (With every other function the output holds none of, in one round — a split image
            // lacks most of the input's functions, each of which can stop spirv-val in a round of
            // its own — but those something staying in the control calls.)
            Some(f) if whole(f) => self
                .functions_gone_whole(gone)
                .unwrap_or_else(|| vec![(f.start, f.end, f.id)]),
            Some(_) => return false,
            None => match self.closure_of(i, gone) {
                Some((globals, users)) => {
                    for j in globals {
                        self.set_aside.insert(j, None);
                    }
                    users
                }
                None => return false,
            },
        };
        let ids: Vec<u32> = functions.iter().map(|&(_, _, id)| id).collect();
        for (start, end, _) in functions {
            for j in start..=end {
                self.set_aside.insert(j, None);
            }
        }
        // The entry points and execution modes that name the functions.
        for j in 0..self.index.annotation_end.min(self.module.len()) {
            let w = self.inst(j);
            let names = match inst::opcode(w) {
                x if x == spirv::Op::EntryPoint as u32 => w.get(2),
                x if x == spirv::Op::ExecutionMode as u32
                    || x == spirv::Op::ExecutionModeId as u32 =>
                {
                    w.get(1)
                }
                _ => None,
            };
            if names.is_some_and(|f| ids.contains(f)) && gone(j) {
                self.set_aside.insert(j, None);
            }
        }
        // The names of what went (its decorations go in `set_aside_error`).
        for j in 0..self.index.names_end.min(self.module.len()) {
            let w = self.inst(j);
            let op = inst::opcode(w);
            if (op == spirv::Op::Name as u32 || op == spirv::Op::MemberName as u32)
                && gone(j)
                && w.get(1)
                    .and_then(|&t| self.def(t))
                    .is_some_and(|d| self.set_aside.get(&d) == Some(&None))
            {
                self.set_aside.insert(j, None);
            }
        }
        true
    }

    /// What goes with global instruction `i` when it is set aside whole
    /// ([`Control::global_closure`] of `i`); for an Intel alias declaration
    /// ([`Section::floats`]), of every one the output lacks when they can all go (a module can
    /// hold hundreds: one round for all of them).
    fn closure_of(
        &self,
        i: usize,
        gone: &dyn Fn(usize) -> bool,
    ) -> Option<(Vec<usize>, Vec<FunctionSpan>)> {
        if Section::floats(self.opcode(i)) {
            let all: Vec<usize> = (0..self.index.globals_end.min(self.module.len()))
                .filter(|&j| {
                    Section::floats(self.opcode(j)) && gone(j) && !self.set_aside.contains_key(&j)
                })
                .collect();
            // (`i` is one of them: it is gone and not set aside yet.)
            if let Some(closure) = self.global_closure(&all, gone) {
                return Some(closure);
            }
        }
        self.global_closure(&[i], gone)
    }

    /// The global-section instructions that use the results of global instructions `seeds`,
    /// directly or through one another (a type's pointer, array and function types, the
    /// variables of those, a constant's composites, an alias scope's lists), `seeds` among them;
    /// and the functions that use any of them (start, end, id), sorted. `None` when one of them, or
    /// one of those functions, is still in the output (`gone` false for some instruction), when
    /// a seed has no result, or when the seeds are one value no function uses (left to
    /// [`Control::set_aside_form`]'s `OpUndef`).
    fn global_closure(
        &self,
        seeds: &[usize],
        gone: &dyn Fn(usize) -> bool,
    ) -> Option<(Vec<usize>, Vec<FunctionSpan>)> {
        let mut ids = std::collections::HashSet::new();
        for &i in seeds {
            ids.insert(inst::result_id(self.inst(i))?);
        }
        let is_value = |i: usize| inst::result_info(self.opcode(i)).is_some_and(|(ty, _)| ty);
        let mut globals: std::collections::HashSet<usize> = seeds.iter().copied().collect();
        // The global section, and the alias declarations written before the annotations.
        let globals_end = self.index.globals_end.min(self.module.len());
        let scope: Vec<usize> = (0..self.index.annotation_end.min(globals_end))
            .filter(|&j| Section::floats(self.opcode(j)))
            .chain(self.index.annotation_end..globals_end)
            .collect();
        // The functions that use any of them go whole, and so do the functions that call
        // those (or take their address in the global section). (The global section defines
        // before it uses but for forward pointers, and calls go any way: a walk that adds
        // nothing ends it.)
        let mut users: Vec<FunctionSpan> = Vec::new();
        let mut held_functions = vec![false; self.index.functions.len()];
        let mut grew = true;
        while grew {
            grew = false;
            for &j in &scope {
                if globals.contains(&j) || !self.uses_any(j, &ids) {
                    continue;
                }
                if !gone(j) {
                    return None;
                }
                globals.insert(j);
                ids.extend(inst::result_id(self.inst(j)));
                grew = true;
            }
            for (k, f) in self.index.functions.iter().enumerate() {
                if held_functions[k] || !(f.start..=f.end).any(|j| self.uses_any(j, &ids)) {
                    continue;
                }
                if !(f.start..=f.end).all(gone) {
                    return None;
                }
                held_functions[k] = true;
                users.push((f.start, f.end, f.id));
                ids.insert(f.id);
                grew = true;
            }
        }
        users.sort_unstable();
        if users.is_empty() && seeds.len() == 1 && is_value(seeds[0]) {
            return None;
        }
        Some((globals.into_iter().collect(), users))
    }

    /// Every function not set aside yet that the output holds none of (start, end, id), but those
    /// that an instruction staying in the control uses (a call the output replaced, in a function
    /// it keeps: the marker declarations lowering removed), and, in turn, those only they use
    /// would leave undefined: `None` when none is left.
    fn functions_gone_whole(&self, gone: &dyn Fn(usize) -> bool) -> Option<Vec<FunctionSpan>> {
        let mut functions: Vec<FunctionSpan> = (self.index.functions.iter())
            .filter(|f| !self.set_aside.contains_key(&f.start) && (f.start..=f.end).all(gone))
            .map(|f| (f.start, f.end, f.id))
            .collect();
        // (Names, decorations, entry points and execution modes go with what they name.)
        let names = |op: u32| {
            is_decoration(op)
                || op == spirv::Op::Name as u32
                || op == spirv::Op::MemberName as u32
                || op == spirv::Op::EntryPoint as u32
                || op == spirv::Op::ExecutionMode as u32
                || op == spirv::Op::ExecutionModeId as u32
        };
        loop {
            let ids: std::collections::HashSet<u32> = functions.iter().map(|f| f.2).collect();
            let mut inside = vec![false; self.module.len()];
            for &(start, end, _) in &functions {
                for flag in inside.iter_mut().take(end.saturating_add(1)).skip(start) {
                    *flag = true;
                }
            }
            let mut used = std::collections::HashSet::new();
            for (j, &within) in inside.iter().enumerate() {
                if within || self.set_aside.contains_key(&j) || names(self.opcode(j)) {
                    continue;
                }
                self.index.visit_use_ids(&self.module, self.inst(j), |u| {
                    if ids.contains(&u) {
                        used.insert(u);
                    }
                });
            }
            if used.is_empty() {
                break;
            }
            functions.retain(|f| !used.contains(&f.2));
        }
        (!functions.is_empty()).then_some(functions)
    }

    /// Whether instruction `j` uses one of `ids`.
    fn uses_any(&self, j: usize, ids: &std::collections::HashSet<u32>) -> bool {
        let mut uses = false;
        self.index
            .visit_use_ids(&self.module, self.inst(j), |u| uses |= ids.contains(&u));
        uses
    }

    /// The input's instructions in the control's order: the input's, or with
    /// `declarations_first` the function declarations moved before the first definition.
    fn order(&self) -> Vec<usize> {
        let len = self.module.len();
        if !self.declarations_first {
            return (0..len).collect();
        }
        let functions = &self.index.functions;
        let first_definition = functions
            .iter()
            .filter(|f| !f.is_declaration)
            .map(|f| f.start)
            .min()
            .unwrap_or(len);
        let mut order: Vec<usize> = (0..first_definition).collect();
        let (declarations, definitions): (Vec<_>, Vec<_>) = functions
            .iter()
            .filter(|f| f.start >= first_definition)
            .partition(|f| f.is_declaration);
        for f in declarations.into_iter().chain(definitions) {
            order.extend(f.start..=f.end.min(len.saturating_sub(1)));
        }
        // (Anything after the last function, which a valid module does not have, stays last.)
        let last = functions.iter().map(|f| f.end + 1).max().unwrap_or(0);
        order.extend(last.max(first_definition)..len);
        order
    }
}

/// The `OpExtension` instructions of `module` (before its memory model), as words.
fn extensions(module: &Module) -> Vec<Vec<u32>> {
    (0..module.len())
        .map(|i| module.original(i))
        .take_while(|w| !inst::is(w, spirv::Op::MemoryModel))
        .filter(|w| inst::is(w, spirv::Op::Extension))
        .map(<[u32]>::to_vec)
        .collect()
}

/// Whether the control module of `input` (see the module docs) fails with the error `out_key`
/// (an [`error_key`]), starting from the input's own error `in_err`; and `output`, when it has
/// the input's ids (`same_ids`), uses no id whose definition in the input it lost.
///
/// The control declares the extensions `output` declares and `input` does not (linking merges
/// the inputs' extensions: an input that fails for want of an extension another input declares
/// fails no more so once linked; an extension only allows more).
fn control_fails_as(
    input: &[u8],
    output: &[u8],
    same_ids: bool,
    mut in_err: String,
    out_key: &str,
    gone: &dyn Fn(usize) -> bool,
    target_env: &str,
) -> Result<bool> {
    let Some(mut control) = Control::new(input) else {
        return Ok(false);
    };
    let Ok(output) = Module::from_bytes(output) else {
        return Ok(false);
    };
    if same_ids {
        let input = control.module.original_words();
        if !inst::dangling_uses(input, output.original_words()).is_empty() {
            return Ok(false);
        }
    }
    control.extensions = extensions(&output)
        .into_iter()
        .filter(|e| !extensions(&control.module).contains(e))
        .collect();
    let mut origin: Vec<usize> = (0..control.module.len()).collect();
    if !control.extensions.is_empty() {
        let (bytes, from) = control.materialise();
        origin = from;
        match spirv_val(&bytes, target_env)? {
            None => return Ok(false),
            Some(e) if error_key(&e) == out_key => return Ok(true),
            Some(e) => in_err = e,
        }
    }
    for _ in 0..CONTROL_ROUNDS {
        if in_err.contains(DECLARATION_AFTER_DEFINITION) && !control.declarations_first {
            control.declarations_first = true;
        } else if !control.set_aside_error(&in_err, &origin, gone) {
            return Ok(false);
        }
        let (bytes, from) = control.materialise();
        origin = from;
        match spirv_val(&bytes, target_env)? {
            None => return Ok(false),
            Some(e) if error_key(&e) == out_key => return Ok(true),
            Some(e) => in_err = e,
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kernel module in the shape of a DPC++ image: spirv-val stops first at `%100`, a
    /// symbolic-ID string in `Generic` storage, which lowering removes (with its name, its
    /// decoration and its place in the interface). `%g`, which the kernel loads, is not in the
    /// interface: an error spirv-val reaches only later. `extra` goes at the end of the globals.
    fn image(with_str: bool, listed: bool, extra: &str) -> String {
        let str_lines = |l: &str| {
            if with_str {
                l.to_string()
            } else {
                String::new()
            }
        };
        format!(
            "OpCapability Addresses\nOpCapability Kernel\nOpCapability GenericPointer\n\
             OpCapability Int8\nOpMemoryModel Physical64 OpenCL\n\
             OpEntryPoint Kernel %k \"k\" {} {}\n{}{}\
             %uchar = OpTypeInt 8 0\n%uint = OpTypeInt 32 0\n%void = OpTypeVoid\n\
             %bool = OpTypeBool\n%two = OpConstant %uint 2\n%arr = OpTypeArray %uchar %two\n\
             %ptr_str = OpTypePointer Generic %arr\n%a = OpConstant %uchar 65\n\
             %nul = OpConstant %uchar 0\n%init = OpConstantComposite %arr %a %nul\n{}\
             %ptr_g = OpTypePointer CrossWorkgroup %uint\n%seventeen = OpConstant %uint 17\n\
             %g = OpVariable %ptr_g CrossWorkgroup %seventeen\n{extra}\
             %fn = OpTypeFunction %void\n%k = OpFunction %void None %fn\n%entry = OpLabel\n\
             %v = OpLoad %uint %g\nOpReturn\nOpFunctionEnd\n",
            if with_str { "%100" } else { "" },
            if listed { "%g" } else { "" },
            str_lines("OpName %100 \"__usid_str\"\n"),
            str_lines("OpDecorate %100 Constant\n"),
            str_lines("%100 = OpVariable %ptr_str Generic %init\n"),
        )
    }

    /// Assembles `text`; ids keep their numbers (`%100` is the same id with or without the other
    /// instructions), so that an output keeps the input's words where it keeps an instruction.
    fn assemble(text: &str) -> std::result::Result<Vec<u8>, String> {
        let mut child = Command::new("spirv-as")
            .args([
                "--target-env",
                "spv1.4",
                "--preserve-numeric-ids",
                "-",
                "-o",
                "-",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("required tool `spirv-as` could not be run ({e})"))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(text.as_bytes())
                .map_err(|e| e.to_string())?;
        }
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "spirv-as failed: {}\n{text}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(out.stdout)
    }

    /// Which of `input`'s instructions `output` does not hold (by their words).
    fn gone_from(input: &[u8], output: &[u8]) -> Vec<bool> {
        let split = |b: &[u8]| -> Vec<Vec<u32>> {
            Module::from_bytes(b).map_or(Vec::new(), |m| {
                (0..m.len()).map(|i| m.original(i).to_vec()).collect()
            })
        };
        let kept = split(output);
        split(input).iter().map(|i| !kept.contains(i)).collect()
    }

    fn run(
        output: &str,
        input: &str,
        gone: Option<Vec<bool>>,
    ) -> std::result::Result<Verdict, String> {
        let (output, input) = (assemble(output)?, assemble(input)?);
        let gone = gone.unwrap_or_else(|| gone_from(&input, &output));
        let mut lowered = |_| {
            Some(Lowered {
                gone: gone.clone(),
                same_ids: true,
            })
        };
        check(&output, &[&input], "spv1.4", &mut lowered).map_err(|e| e.to_string())
    }

    #[test]
    fn errors_behind_removed_instructions_are_the_inputs() -> std::result::Result<(), String> {
        // The premise: spirv-val stops at %100 in the input.
        let input = assemble(&image(true, false, ""))?;
        let first = spirv_val(&input, "spv1.4").map_err(|e| e.to_string())?;
        assert!(
            first
                .as_deref()
                .is_some_and(|e| e.contains("cannot be Generic")),
            "{first:?}"
        );
        // %100 removed: the unlisted %g shows, and the control module finds it in the input.
        match run(&image(false, false, ""), &image(true, false, ""), None)? {
            Verdict::HiddenInInput { output, input } => {
                assert!(output.contains("not listed as an interface"), "{output}");
                assert!(input.contains("cannot be Generic"), "{input}");
            }
            other => return Err(format!("expected HiddenInInput, got {other:?}")),
        }
        Ok(())
    }

    #[test]
    fn errors_the_control_module_lacks_are_refused() -> std::result::Result<(), String> {
        let refused = |r: std::result::Result<Verdict, String>| match r {
            Err(e) if e.contains("the input does not fail that way") => Ok(()),
            other => Err(format!("expected a refusal, got {other:?}")),
        };
        // An error in what the output added (a boolean spec constant of an integer type), with the
        // input's own later error fixed or not.
        let added = "%bad = OpSpecConstantTrue %uint\n";
        refused(run(
            &image(false, true, added),
            &image(true, true, ""),
            None,
        ))?;
        refused(run(
            &image(false, false, added),
            &image(true, false, ""),
            None,
        ))?;
        // The input's first error is at an instruction the output kept as it was.
        refused(run(
            &image(false, false, ""),
            &image(true, false, ""),
            Some(Vec::new()),
        ))?;
        // The output lost a definition it still uses (`%seventeen`, %g's initializer): its first
        // error is that use, which the control module does not have.
        let lost = image(false, false, "").replace("%seventeen = OpConstant %uint 17\n", "");
        refused(run(&lost, &image(true, false, ""), None))?;
        Ok(())
    }

    /// A function the output does not hold goes whole from the control module, and so does a
    /// 16-bit constant only it used, whose `OpUndef` would fail as the constant does (DPC++'s
    /// images have such constants: `Float16Buffer` without `Float16`). Kernel `b`'s clock read
    /// at work-group scope is an error spirv-val reaches only after the constant's.
    #[test]
    fn functions_the_output_lacks_go_whole() -> std::result::Result<(), String> {
        let module = |with_a: bool| {
            let a = |l: &str| if with_a { l.to_string() } else { String::new() };
            format!(
                "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
                 OpCapability Float16Buffer\nOpCapability ShaderClockKHR\n\
                 OpExtension \"SPV_KHR_shader_clock\"\nOpMemoryModel Physical64 OpenCL\n\
                 {}OpEntryPoint Kernel %kb \"b\"\n{}\
                 %uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n%half = OpTypeFloat 16\n\
                 %void = OpTypeVoid\n{}%two = OpConstant %uint 2\n\
                 %ptr_h = OpTypePointer CrossWorkgroup %half\n%fn = OpTypeFunction %void\n\
                 %fa = OpTypeFunction %void %ptr_h\n{}\
                 %kb = OpFunction %void None %fn\n%eb = OpLabel\n\
                 %c = OpReadClockKHR %ulong %two\nOpReturn\nOpFunctionEnd\n",
                a("OpEntryPoint Kernel %ka \"a\"\n"),
                a("OpName %ka \"ka\"\n"),
                a("%h1 = OpConstant %half 1\n"),
                a(
                    "%ka = OpFunction %void None %fa\n%p = OpFunctionParameter %ptr_h\n\
                   %ea = OpLabel\nOpStore %p %h1\nOpReturn\nOpFunctionEnd\n"
                ),
            )
        };
        fails_first_with(&module(true), "8- or 16-bit types")?;
        let gone = gone_with_functions(&module(false), &module(true), 1)?;
        expect_hidden(
            &module(false),
            &module(true),
            gone,
            CLOCK,
            "8- or 16-bit types",
        )
    }

    /// Where spirv-val stops in a function the output lacks, every function the output lacks
    /// goes from the control module in that round, callers with their callees: helper `h` (a
    /// clock read into a 32-bit result) goes with kernel `a`, which calls it (alone, `a` would
    /// call an undefined function), and kernel `c` (the same error) in the same round.
    #[test]
    fn functions_the_output_lacks_go_together() -> std::result::Result<(), String> {
        let module = |with_others: bool| {
            let o = |l: &str| {
                if with_others {
                    l.to_string()
                } else {
                    String::new()
                }
            };
            format!(
                "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
                 OpCapability ShaderClockKHR\nOpExtension \"SPV_KHR_shader_clock\"\n\
                 OpMemoryModel Physical64 OpenCL\n{}OpEntryPoint Kernel %kb \"b\"\n\
                 %uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n%void = OpTypeVoid\n\
                 %one = OpConstant %uint 1\n%two = OpConstant %uint 2\n\
                 %fn = OpTypeFunction %void\n{}\
                 %kb = OpFunction %void None %fn\n%eb = OpLabel\n\
                 %c = OpReadClockKHR %ulong %two\nOpReturn\nOpFunctionEnd\n",
                o("OpEntryPoint Kernel %ka \"a\"\nOpEntryPoint Kernel %kc \"c\"\n"),
                o("%h = OpFunction %void None %fn\n%eh = OpLabel\n\
                   %ch = OpReadClockKHR %uint %one\nOpReturn\nOpFunctionEnd\n\
                   %ka = OpFunction %void None %fn\n%ea = OpLabel\n\
                   %r = OpFunctionCall %void %h\nOpReturn\nOpFunctionEnd\n\
                   %kc = OpFunction %void None %fn\n%ec = OpLabel\n\
                   %cc = OpReadClockKHR %uint %one\nOpReturn\nOpFunctionEnd\n"),
            )
        };
        let clock_type = "vector of two components of unsigned integer";
        fails_first_with(&module(true), clock_type)?;
        let gone = gone_with_functions(&module(false), &module(true), 3)?;
        expect_hidden(&module(false), &module(true), gone, CLOCK, clock_type)
    }

    /// A function the output lacks that something staying in the control module still calls
    /// stays: lowering replaced the call to declaration `m` in kernel `b`, which the output
    /// keeps, and removed `m`; `a`, where spirv-val stops in the input, goes alone (with `m`,
    /// `b`'s call would name an undefined function).
    #[test]
    fn functions_still_called_stay_in_the_control() -> std::result::Result<(), String> {
        let module = |lowered: bool| {
            format!(
                "OpCapability Addresses\nOpCapability Linkage\nOpCapability Kernel\n\
                 OpCapability Int64\nOpCapability ShaderClockKHR\n\
                 OpExtension \"SPV_KHR_shader_clock\"\nOpMemoryModel Physical64 OpenCL\n\
                 {}OpEntryPoint Kernel %kb \"b\"\n{}\
                 %uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n%void = OpTypeVoid\n\
                 %one = OpConstant %uint 1\n%two = OpConstant %uint 2\n\
                 %fn = OpTypeFunction %void\n%fu = OpTypeFunction %uint\n{}\
                 %kb = OpFunction %void None %fn\n%eb = OpLabel\n{}\
                 %c = OpReadClockKHR %ulong %two\nOpReturn\nOpFunctionEnd\n",
                if lowered {
                    ""
                } else {
                    "OpEntryPoint Kernel %ka \"a\"\n"
                },
                if lowered {
                    ""
                } else {
                    "OpDecorate %m LinkageAttributes \"m\" Import\n"
                },
                if lowered {
                    ""
                } else {
                    "%m = OpFunction %uint None %fu\nOpFunctionEnd\n\
                     %ka = OpFunction %void None %fn\n%ea = OpLabel\n\
                     %ch = OpReadClockKHR %uint %one\nOpReturn\nOpFunctionEnd\n"
                },
                if lowered {
                    "%v = OpCopyObject %uint %one\n"
                } else {
                    "%v = OpFunctionCall %uint %m\n"
                },
            )
        };
        let clock_type = "vector of two components of unsigned integer";
        fails_first_with(&module(false), clock_type)?;
        let gone = gone_with_functions(&module(true), &module(false), 2)?;
        expect_hidden(&module(true), &module(false), gone, CLOCK, clock_type)
    }

    /// spirv-val's error for the clock read at work-group scope the tests' kernel `b` makes.
    const CLOCK: &str = "Scope must be Subgroup or Device";

    /// Checks that `module` fails spirv-val first with `error` (a test's premise).
    fn fails_first_with(module: &str, error: &str) -> std::result::Result<(), String> {
        let first = spirv_val(&assemble(module)?, "spv1.4").map_err(|e| e.to_string())?;
        assert!(
            first.as_deref().is_some_and(|e| e.contains(error)),
            "{first:?}"
        );
        Ok(())
    }

    /// What `output` lacks of `input` ([`gone_from`]), and the first `functions` functions of
    /// `input` whole (by words, their `OpReturn` and `OpFunctionEnd` look kept: the kernel
    /// both hold has the same ones).
    fn gone_with_functions(
        output: &str,
        input: &str,
        functions: usize,
    ) -> std::result::Result<Vec<bool>, String> {
        let (out_bytes, in_bytes) = (assemble(output)?, assemble(input)?);
        let mut gone = gone_from(&in_bytes, &out_bytes);
        let m = Module::from_bytes(&in_bytes).map_err(|e| e.to_string())?;
        let starts: Vec<usize> = (0..m.len())
            .filter(|&i| m.opcode(i) == spirv::Op::Function as u32)
            .collect();
        let (Some(&start), Some(&end)) = (starts.first(), starts.get(functions)) else {
            return Err(format!("{} functions", starts.len()));
        };
        gone[start..end].iter_mut().for_each(|g| *g = true);
        Ok(gone)
    }

    /// Checks that the policy accepts `output`, failing with `output_error`, as `input` does
    /// once what `gone` says is set aside; `input` itself fails first with `input_error`.
    fn expect_hidden(
        output: &str,
        input: &str,
        gone: Vec<bool>,
        output_error: &str,
        input_error: &str,
    ) -> std::result::Result<(), String> {
        match run(output, input, Some(gone))? {
            Verdict::HiddenInInput { output, input } => {
                assert!(output.contains(output_error), "{output}");
                assert!(input.contains(input_error), "{input}");
                Ok(())
            }
            other => Err(format!("expected HiddenInInput, got {other:?}")),
        }
    }

    /// The input's first error is a type the output lacks (a 512-component vector, as in an
    /// ESIMD kernel), used by the global section (a pointer to it) and by a helper the output
    /// lacks, which a kernel it lacks calls: all of it goes in one round (the kernel too: its
    /// call would name a function no longer there), and the output's error (a clock read at
    /// work-group scope, in the kernel both hold) shows in the control. If the output still
    /// holds one of the type's users, the control is not made.
    #[test]
    fn types_the_output_lacks_go_with_their_users() -> std::result::Result<(), String> {
        let module = |with_a: bool| {
            let a = |l: &str| if with_a { l.to_string() } else { String::new() };
            format!(
                "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
                 OpCapability Vector16\nOpCapability ShaderClockKHR\n\
                 OpExtension \"SPV_KHR_shader_clock\"\nOpMemoryModel Physical64 OpenCL\n\
                 {}OpEntryPoint Kernel %kb \"b\"\n{}\
                 %uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n%float = OpTypeFloat 32\n\
                 %void = OpTypeVoid\n%two = OpConstant %uint 2\n{}\
                 %fn = OpTypeFunction %void\n{}\
                 %kb = OpFunction %void None %fn\n%eb = OpLabel\n\
                 %c = OpReadClockKHR %ulong %two\nOpReturn\nOpFunctionEnd\n",
                a("OpEntryPoint Kernel %ka \"a\"\n"),
                a("OpName %v512 \"v512\"\n"),
                a("%v512 = OpTypeVector %float 512\n%ptr_v = OpTypePointer Function %v512\n"),
                a("%h = OpFunction %void None %fn\n%eh = OpLabel\n\
                     %var = OpVariable %ptr_v Function\n%x = OpLoad %v512 %var\n\
                     OpReturn\nOpFunctionEnd\n\
                     %ka = OpFunction %void None %fn\n%ea = OpLabel\n\
                     %r = OpFunctionCall %void %h\nOpReturn\nOpFunctionEnd\n"),
            )
        };
        let components = "Illegal number of components";
        fails_first_with(&module(true), components)?;
        // (`h` and `a` come before `b`.)
        let mut gone = gone_with_functions(&module(false), &module(true), 2)?;
        expect_hidden(
            &module(false),
            &module(true),
            gone.clone(),
            CLOCK,
            components,
        )?;
        // The pointer type still in the output: the vector type cannot go.
        let m = Module::from_bytes(&assemble(&module(true))?).map_err(|e| e.to_string())?;
        let pointer = (0..m.len())
            .find(|&i| m.opcode(i) == spirv::Op::TypePointer as u32)
            .ok_or("no pointer type")?;
        gone[pointer] = false;
        match run(&module(false), &module(true), Some(gone)) {
            Err(e) => assert!(e.contains("does not fail that way"), "{e}"),
            Ok(other) => return Err(format!("expected a refusal, got {other:?}")),
        }
        Ok(())
    }

    /// Debian's spirv-val stops at the first Intel alias declaration llvm-spirv writes (after
    /// the names: "must appear in a block"). An output that lacks every declaration, and the
    /// kernel using them, is compared past them in one round, however many there are (more
    /// than the rounds a control gets), and shows the output's error (a clock read at
    /// work-group scope).
    #[test]
    fn alias_declarations_the_output_lacks_go_in_one_round() -> std::result::Result<(), String> {
        let domains = CONTROL_ROUNDS + 4;
        let module = |with_a: bool| {
            let a = |l: &str| if with_a { l.to_string() } else { String::new() };
            let mut declarations = String::new();
            for d in 0..domains {
                declarations.push_str(&format!(
                    "%d{d} = OpAliasDomainDeclINTEL\n%s{d} = OpAliasScopeDeclINTEL %d{d}\n\
                     %l{d} = OpAliasScopeListDeclINTEL %s{d}\n"
                ));
            }
            let accesses: String = (0..domains)
                .map(|d| format!("OpStore %p %one Aligned|NoAliasINTELMask 4 %l{d}\n"))
                .collect();
            format!(
                "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
                 OpCapability ShaderClockKHR\n{}\
                 OpExtension \"SPV_KHR_shader_clock\"\n{}OpMemoryModel Physical64 OpenCL\n\
                 {}OpEntryPoint Kernel %kb \"b\"\nOpName %kb \"b\"\n{}\
                 %uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n%void = OpTypeVoid\n\
                 %two = OpConstant %uint 2\n%one = OpConstant %uint 1\n\
                 %ptr = OpTypePointer CrossWorkgroup %uint\n%fn = OpTypeFunction %void\n\
                 %fa = OpTypeFunction %void %ptr\n{}\
                 %kb = OpFunction %void None %fn\n%eb = OpLabel\n\
                 %c = OpReadClockKHR %ulong %two\nOpReturn\nOpFunctionEnd\n",
                a("OpCapability MemoryAccessAliasingINTEL\n"),
                a("OpExtension \"SPV_INTEL_memory_access_aliasing\"\n"),
                a("OpEntryPoint Kernel %ka \"a\"\n"),
                a(&declarations),
                a(&format!(
                    "%ka = OpFunction %void None %fa\n%p = OpFunctionParameter %ptr\n\
                     %ea = OpLabel\n{accesses}OpReturn\nOpFunctionEnd\n"
                )),
            )
        };
        let layout = "AliasDomainDeclINTEL must appear in a block";
        fails_first_with(&module(true), layout)?;
        let gone = gone_with_functions(&module(false), &module(true), 1)?;
        expect_hidden(&module(false), &module(true), gone, CLOCK, layout)
    }

    /// A linked input that fails for want of an extension another input declares: the output
    /// declares it, and its error (a clock read at work-group scope) is compared with the
    /// input's control, which declares it too.
    #[test]
    fn extensions_of_the_output_are_the_controls() -> std::result::Result<(), String> {
        let module = |extension: bool| {
            format!(
                "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
                 OpCapability FPFastMathModeINTEL\nOpCapability ShaderClockKHR\n\
                 OpExtension \"SPV_KHR_shader_clock\"\n{}OpMemoryModel Physical64 OpenCL\n\
                 OpEntryPoint Kernel %kb \"b\"\n\
                 %uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n%void = OpTypeVoid\n\
                 %two = OpConstant %uint 2\n%fn = OpTypeFunction %void\n\
                 %kb = OpFunction %void None %fn\n%eb = OpLabel\n\
                 %c = OpReadClockKHR %ulong %two\nOpReturn\nOpFunctionEnd\n",
                if extension {
                    "OpExtension \"SPV_INTEL_fp_fast_math_mode\"\n"
                } else {
                    ""
                }
            )
        };
        let missing = "SPV_INTEL_fp_fast_math_mode";
        fails_first_with(&module(false), missing)?;
        expect_hidden(&module(true), &module(false), Vec::new(), CLOCK, missing)
    }

    /// Both kernels use a global their interfaces do not list (SPIR-V 1.4): spirv-val names the
    /// first, `a`, in the input, and `b` in an output that holds `b` alone (a per-kernel split
    /// image). The entry points the output lacks go, and the control names `b` too.
    #[test]
    fn entry_points_the_output_lacks_go_with_their_errors() -> std::result::Result<(), String> {
        let module = |with_a: bool| {
            let a = |l: &str| if with_a { l.to_string() } else { String::new() };
            format!(
                "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
                 OpMemoryModel Physical64 OpenCL\n{}OpEntryPoint Kernel %20 \"b\"\n\
                 %1 = OpTypeInt 32 0\n%2 = OpTypeVoid\n%3 = OpTypePointer CrossWorkgroup %1\n\
                 %4 = OpVariable %3 CrossWorkgroup\n%5 = OpTypeFunction %2\n{}\
                 %20 = OpFunction %2 None %5\n%21 = OpLabel\n%22 = OpLoad %1 %4\n\
                 OpReturn\nOpFunctionEnd\n",
                a("OpEntryPoint Kernel %10 \"a\"\n"),
                a(
                    "%10 = OpFunction %2 None %5\n%11 = OpLabel\n%12 = OpLoad %1 %4\n\
                   OpReturn\nOpFunctionEnd\n"
                ),
            )
        };
        fails_first_with(&module(true), "entry point 'a'")?;
        let gone = gone_with_functions(&module(false), &module(true), 1)?;
        expect_hidden(
            &module(false),
            &module(true),
            gone,
            "entry point 'b'",
            "entry point 'a'",
        )
    }

    #[test]
    fn error_keys_mask_numbers() {
        assert_eq!(
            error_key("error: line 25: OpVariable, <id> '12[%x]', has a disallowed storage class"),
            error_key("error: line 31: OpVariable, <id> '140[%x]', has a disallowed storage class")
        );
        assert_ne!(error_key("error: line 1: a"), error_key("error: line 1: b"));
    }
}
