//! Helpers of the link phases' unit tests: small inline modules assembled with `spirv-as`, added
//! to a link, and the kept slots read back. A missing tool fails the test that needs it, naming
//! it.

use super::state::State;
use super::{LinkInput, Linker};
use crate::module::index::Index;
use crate::module::inst;
use crate::module::Module;
use spirv::Op;
use std::io::Write;
use std::process::{Command, Stdio};

pub(crate) type TestResult<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The preamble of every test module: an OpenCL kernel module that may link.
pub(super) const PREAMBLE: &str = "
OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
";

/// Runs `tool` with `args`, `stdin` on its standard input; its standard output.
fn run(tool: &str, args: &[&str], stdin: &[u8]) -> TestResult<Vec<u8>> {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("required tool `{tool}` could not be run ({e}); run scripts/setup.sh")
        })?;
    child.stdin.take().ok_or("no stdin")?.write_all(stdin)?;
    let out = child.wait_with_output()?;
    if !out.status.success() {
        return Err(format!(
            "{tool} {args:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    Ok(out.stdout)
}

/// A kernel `k` that calls the imported function `g` (`void()`).
pub(super) const KERNEL_CALLING_G: &str = r#"
OpEntryPoint Kernel %k "k"
OpName %g "g"
OpName %k "k"
OpDecorate %g LinkageAttributes "g" Import
%void = OpTypeVoid
%fn = OpTypeFunction %void
%g = OpFunction %void None %fn
OpFunctionEnd
%k = OpFunction %void None %fn
%l = OpLabel
%r = OpFunctionCall %void %g
OpReturn
OpFunctionEnd
"#;

/// The function `g` (`void()`), exported.
pub(super) const G_EXPORTED: &str = r#"
OpName %g "g"
OpDecorate %g LinkageAttributes "g" Export
%void = OpTypeVoid
%fn = OpTypeFunction %void
%g = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#;

/// `text` assembled for SPIR-V 1.4, after [`PREAMBLE`] unless it has its own `OpMemoryModel`.
pub(crate) fn assemble(text: &str) -> TestResult<Module> {
    let text = if text.contains("OpMemoryModel") {
        text.to_string()
    } else {
        format!("{PREAMBLE}{text}")
    };
    let bytes = run(
        "spirv-as",
        &["--target-env", "spv1.4", "-", "-o", "-"],
        text.as_bytes(),
    )?;
    Ok(Module::from_bytes(&bytes)?)
}

/// Checks a module with `spirv-val --target-env spv1.4`.
pub(crate) fn validate(words: &[u32]) -> TestResult {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    run("spirv-val", &["--target-env", "spv1.4", "-"], &bytes)?;
    Ok(())
}

/// Phase 1 for each `(name, module)`: a linker holding them.
pub(super) fn linker_of(inputs: &[(&str, &Module)]) -> TestResult<Linker> {
    let mut linker = Linker::default();
    for &(name, module) in inputs {
        let index = Index::build(module)?;
        linker.add(&LinkInput {
            name,
            module,
            index: &index,
        })?;
    }
    Ok(linker)
}

/// The whole link of `(name, assembly)` inputs; the output passed `spirv-val`.
pub(super) fn linked(
    inputs: &[(&str, &str)],
    options: &super::LinkOptions,
) -> TestResult<(Vec<u32>, super::LinkReport)> {
    let modules: Vec<Module> = inputs
        .iter()
        .map(|(_, text)| assemble(text))
        .collect::<TestResult<_>>()?;
    let named: Vec<(&str, &Module)> = inputs.iter().map(|i| i.0).zip(&modules).collect();
    let (words, report) = linker_of(&named)?.finish(options)?;
    validate(&words)?;
    Ok((words, report))
}

/// Phase 1 for each `(name, assembly)`: the state the later phases start from.
pub(super) fn state_of(inputs: &[(&str, &str)]) -> TestResult<State> {
    let modules: Vec<Module> = inputs
        .iter()
        .map(|(_, text)| assemble(text))
        .collect::<TestResult<_>>()?;
    let named: Vec<(&str, &Module)> = inputs.iter().map(|i| i.0).zip(&modules).collect();
    let linker = linker_of(&named)?;
    if !linker.errors.is_empty() {
        return Err(format!("{:?}", linker.errors).into());
    }
    Ok(State::new(
        linker.insts,
        linker.sections,
        linker.ids,
        linker.names,
        linker.versions,
        linker.generator.unwrap_or(0),
    ))
}

/// The words of the kept slots with opcode `op`, in slot order.
pub(super) fn kept(state: &State, op: Op) -> Vec<Vec<u32>> {
    (0..state.insts.len())
        .filter(|&n| !state.drop.contains(n))
        .map(|n| state.insts.words(n))
        .filter(|w| inst::is(w, op))
        .map(<[u32]>::to_vec)
        .collect()
}

/// The id input `input` names `name` with `OpName` (shifted into the link's range).
pub(super) fn named(state: &State, input: usize, name: &str) -> Option<u32> {
    (0..state.insts.len())
        .filter(|&n| state.insts.input(n) == input)
        .map(|n| state.insts.words(n))
        .filter(|w| inst::is(w, Op::Name))
        .find(|w| {
            crate::module::inst::read_string(&w[2..]).is_some_and(|(s, _)| s == name.as_bytes())
        })
        .map(|w| w[1])
}

/// The linkage error list of a failed phase.
pub(super) fn link_errors<T>(r: crate::error::Result<T>) -> Vec<super::LinkError> {
    match r {
        Err(crate::error::Error::Link(v)) => v,
        _ => Vec::new(),
    }
}
