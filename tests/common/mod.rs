//! Shared helpers of the integration tests. A missing tool fails the test and names the tool.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub mod auxdata;
pub mod spec_values;
pub mod sycl_run;

/// The three lowering modes.
pub const MODES: [spec_link::SpecConstMode; 3] = [
    spec_link::SpecConstMode::Native,
    spec_link::SpecConstMode::Emulation,
    spec_link::SpecConstMode::DefaultValues,
];

/// Options of a run in `mode` without spirv-val (tests run it where they mean to).
pub fn unvalidated(mode: spec_link::SpecConstMode) -> spec_link::Options {
    spec_link::Options {
        mode,
        validation: spec_link::Validation::Never,
        ..spec_link::Options::default()
    }
}

/// A scratch directory under the system temp dir, made empty on creation and removed when
/// dropped — but kept, with its path printed, when dropped while the test fails (to look at what
/// was written).
pub struct Scratch(PathBuf);

impl Scratch {
    /// `name` is made this process's own (its id is appended): test runs of two checkouts at
    /// once must not remove each other's files.
    pub fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("{name}.{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("(scratch directory kept: {})", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The three DPC++ fixture images (`testdata/dpcpp-fixtures`, see its README for where they come
/// from), or `$SPEC_LINK_FIXTURES` when set.
pub fn fixtures() -> PathBuf {
    let p = std::env::var_os("SPEC_LINK_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("testdata/dpcpp-fixtures"));
    assert!(
        p.is_dir(),
        "DPC++ fixtures not found at {} (set SPEC_LINK_FIXTURES)",
        p.display()
    );
    p
}

/// Runs a tool, failing the test with its name if it cannot be started.
pub fn tool(name: &str, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(name);
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = cmd.spawn().unwrap_or_else(|e| {
        panic!("required tool `{name}` could not be run ({e}); run scripts/setup.sh")
    });
    if let Some(data) = stdin {
        use std::io::Write;
        let mut s = child.stdin.take().expect("stdin");
        s.write_all(data).expect("write stdin");
    }
    child.wait_with_output().expect("wait")
}

/// A command that runs `scripts/ocl_run.py` on Intel's CPU OpenCL runtime (the venv's Python and
/// the ICD `scripts/setup.sh` installs), arguments to be added; fails the test naming what is
/// missing.
pub fn ocl_run() -> Command {
    let repo = repo();
    let python = repo.join(".venv/bin/python");
    let icd = repo.join(".ocl-icd");
    for needed in [&python, &icd.join("intel-cpu.icd")] {
        assert!(
            needed.exists(),
            "{} is missing: run scripts/setup.sh (it installs the OpenCL runtime venv)",
            needed.display()
        );
    }
    let mut cmd = Command::new(python);
    cmd.arg(repo.join("scripts/ocl_run.py"))
        .env("OCL_ICD_VENDORS", icd);
    cmd
}

/// A module's bytes as little-endian words (a ragged tail is dropped).
pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The instructions after the header of a module's `words`, each with its word offset (a
/// malformed word count fails the test).
pub fn instructions(words: &[u32]) -> impl Iterator<Item = (usize, &[u32])> {
    let mut at = 5;
    std::iter::from_fn(move || {
        if at >= words.len() {
            return None;
        }
        let n = (words[at] >> 16) as usize;
        assert!(
            n > 0 && at + n <= words.len(),
            "malformed module at word {at}"
        );
        at += n;
        Some((at - n, &words[at - n..at]))
    })
}

/// The instructions of a module but its `OpExtInstImport`s and `OpString`s (which name the
/// extended instruction sets and the source files), as words, after the header.
pub fn without_imports_and_strings(bytes: &[u8]) -> Vec<Vec<u32>> {
    let words = words(bytes);
    assert!(words.len() >= 5, "not a module: {} words", words.len());
    let mut out = vec![words[..5].to_vec()];
    out.extend(
        instructions(&words)
            .filter(|(_, w)| !matches!(w[0] & 0xffff, 7 | 11))
            .map(|(_, w)| w.to_vec()),
    );
    out
}

/// The argument numbers of a module's `DebugLocalVariable`s of the `NonSemantic.Shader.DebugInfo`
/// sets (their 8th operand, word 12), in module order: the LLVM/SPIR-V Translator writes each as
/// a literal where the set's specification has an id.
pub fn debug_argument_numbers(bytes: &[u8]) -> Vec<u32> {
    let words = words(bytes);
    let mut sets = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (at, w) in instructions(&words) {
        match w[0] & 0xffff {
            11 if bytes[4 * (at + 2)..4 * (at + w.len())]
                .starts_with(b"NonSemantic.Shader.DebugInfo.") =>
            {
                sets.insert(w[1]);
            }
            12 if w.len() > 12 && sets.contains(&w[3]) && w[4] == 26 => out.push(w[12]),
            _ => {}
        }
    }
    out
}

/// Little-endian words as bytes.
pub fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// `testdata/emulation-threading/input.spvasm`, and the same with the address of `get` (a
/// function on the path to a marker) taken by an `OpConstantFunctionPointerINTEL`: emulation
/// must refuse that one (the buffer parameter cannot reach a function called indirectly).
pub fn threading_with_function_pointer() -> (String, String) {
    let threading =
        std::fs::read_to_string(repo().join("testdata/emulation-threading/input.spvasm"))
            .expect("testdata/emulation-threading/input.spvasm");
    let fp = threading
        .replace(
            "               OpCapability Addresses\n",
            "               OpCapability Addresses\n               OpCapability FunctionPointersINTEL\n               OpExtension \"SPV_INTEL_function_pointers\"\n",
        )
        .replace(
            "  %null = OpConstantNull %ptr_Generic_uchar\n",
            "  %null = OpConstantNull %ptr_Generic_uchar\n  %ptr_fn_get = OpTypePointer CodeSectionINTEL %fn_get\n  %fp = OpConstantFunctionPointerINTEL %ptr_fn_get %get\n",
        );
    assert_ne!(fp, threading, "the function-pointer edit did not apply");
    (threading, fp)
}

/// Assembles SPIR-V assembly: SPIR-V 1.4, as DPC++ emits, unless a `; target-env: <env>` line
/// at the top of the file says otherwise.
pub fn assemble(path: &Path) -> Vec<u8> {
    let text = std::fs::read_to_string(path).unwrap();
    let env = text
        .lines()
        .take_while(|l| l.starts_with(';'))
        .find_map(|l| l.strip_prefix("; target-env: "))
        .unwrap_or("spv1.4")
        .trim()
        .to_string();
    let out = tool(
        "spirv-as",
        &["--target-env", &env, path.to_str().unwrap(), "-o", "-"],
        None,
    );
    assert!(
        out.status.success(),
        "spirv-as {} failed:\n{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Disassembles a module (stable text: no header comment, raw ids kept friendly).
pub fn disassemble(bytes: &[u8]) -> String {
    let out = tool("spirv-dis", &["-", "-o", "-"], Some(bytes));
    assert!(
        out.status.success(),
        "spirv-dis failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 disassembly")
}

/// The `--target-env` for spirv-val on a kernel module of SPIR-V `version` (major, minor), as
/// spec-link's own validation picks it: `opencl2.2` up to SPIR-V 1.2, else the universal
/// environment of the version.
pub fn kernel_target_env(version: (u8, u8)) -> String {
    if version <= (1, 2) {
        "opencl2.2".into()
    } else {
        format!("spv{}.{}", version.0, version.1.min(6))
    }
}

/// Validates with spirv-val; panics with its message on failure.
pub fn spirv_val(bytes: &[u8], env: &str, what: &str) {
    spirv_val_with(bytes, &["--target-env", env], what);
}

/// Validates with spirv-val given `args` (a target environment and any other option); panics
/// with its message on failure.
pub fn spirv_val_with(bytes: &[u8], args: &[&str], what: &str) {
    let mut all = args.to_vec();
    all.push("-");
    let out = tool("spirv-val", &all, Some(bytes));
    assert!(
        out.status.success(),
        "spirv-val {} rejects {what}:\n{}{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Compares text with an expected file; `UPDATE_GOLDEN=1` rewrites the file instead.
/// Returns a description of the difference, if any.
pub fn golden(path: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(path, actual).expect("write golden");
        return None;
    }
    let expected = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(_) => {
            return Some(format!(
                "{} is missing (run with UPDATE_GOLDEN=1 to create it)",
                path.display()
            ))
        }
    };
    if expected == actual {
        return None;
    }
    let diff = similar::TextDiff::from_lines(expected.as_str(), actual);
    Some(format!(
        "{} differs (UPDATE_GOLDEN=1 rewrites it):\n{}",
        path.display(),
        diff.unified_diff()
            .context_radius(3)
            .header("expected", "actual")
    ))
}

/// Extracts the `[SYCL/specialization constants*]` sections of a `.prop` text.
pub fn spec_constant_sections(prop: &str) -> String {
    let mut out = String::new();
    let mut on = false;
    for line in prop.lines() {
        if line.starts_with('[') {
            on = line.starts_with("[SYCL/specialization constants");
        }
        if on {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Every real DPC++ image with a DPC++ answer key: the shared fixtures, `testdata/dpcpp/`
/// (DPC++ 2026.2 images made by `scripts/gen-dpcpp-testdata.sh`) and `testdata/dpcpp-<version>/`
/// (the same sources built by an older DPC++: its `--version`), as `image*.input.spv` paths;
/// beside each: `.dpcpp-native.spv`, `.dpcpp-native.prop`, `.dpcpp-emulation.prop`.
pub fn dpcpp_images() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in [
        fixtures(),
        repo().join("testdata/dpcpp"),
        repo().join("testdata/dpcpp-[0-9]*"),
    ] {
        let pattern = dir.join("*/image*.input.spv");
        v.extend(
            glob::glob(pattern.to_str().unwrap())
                .unwrap()
                .map(Result::unwrap),
        );
    }
    assert!(
        v.len() >= 10,
        "expected the shared fixtures and testdata/dpcpp, found {} images",
        v.len()
    );
    v
}

/// The file beside a DPC++ image's `imageN.input.spv` with `suffix` in place of `.input.spv`.
pub fn beside(input: &Path, suffix: &str) -> PathBuf {
    PathBuf::from(input.to_str().unwrap().replace(".input.spv", suffix))
}

/// Decodes a `.prop` byte-array value (`2|…`): LLVM's base64 variant (6-bit groups, least
/// significant bits first), then the 8-byte size in bits and the payload.
pub fn prop_bytes(text: &str) -> Vec<u8> {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut raw = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let v = TABLE.iter().position(|&t| t == c).expect("base64 digit") as u32;
        acc |= v << bits;
        bits += 6;
        if bits >= 8 {
            raw.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    let size = u64::from_le_bytes(raw[..8].try_into().unwrap()) as usize / 8;
    raw[8..8 + size].to_vec()
}

/// What a `.prop` says about one spec constant, independent of SpecId numbers and of where the
/// constant sits among the others: its data descriptors (offset, size) in order, the default
/// bytes they cover, and the number of distinct SpecIds they use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstantMeaning {
    pub descriptors: Vec<(u32, u32)>,
    pub default: Vec<u8>,
    pub spec_ids: usize,
}

/// The spec constants of a `.prop` by symbolic ID (see [`ConstantMeaning`]). Padding
/// descriptors (SpecId 0xFFFFFFFF) only count for the constant's extent in the default-values
/// blob; the blob must be exactly the constants' extents laid end to end.
pub fn spec_constant_meaning(prop: &str) -> std::collections::BTreeMap<String, ConstantMeaning> {
    let (mut constants, mut blob, mut set) = (Vec::new(), Vec::new(), String::new());
    for line in prop.lines() {
        if let Some(name) = line.strip_prefix('[') {
            set = name.trim_end_matches(']').to_string();
            continue;
        }
        let (name, value) = line.split_once("=2|").unwrap_or((line, ""));
        match set.as_str() {
            "SYCL/specialization constants" => {
                constants.push((name.to_string(), prop_bytes(value)))
            }
            "SYCL/specialization constants default values" if name == "all" => {
                blob = prop_bytes(value)
            }
            _ => {}
        }
    }
    let mut out = std::collections::BTreeMap::new();
    let mut at = 0usize;
    for (name, payload) in constants {
        assert_eq!(payload.len() % 12, 0, "{name}: descriptors of 12 bytes");
        let triples: Vec<[u32; 3]> = payload
            .chunks(12)
            .map(|c| {
                std::array::from_fn(|k| u32::from_le_bytes(c[4 * k..4 * k + 4].try_into().unwrap()))
            })
            .collect();
        let extent = triples
            .iter()
            .map(|t| (t[1] + t[2]) as usize)
            .max()
            .unwrap_or(0);
        let data: Vec<[u32; 3]> = triples.into_iter().filter(|t| t[0] != u32::MAX).collect();
        let default = data
            .iter()
            .flat_map(|t| {
                blob[at + t[1] as usize..at + (t[1] + t[2]) as usize]
                    .iter()
                    .copied()
            })
            .collect();
        let ids: std::collections::BTreeSet<u32> = data.iter().map(|t| t[0]).collect();
        let meaning = ConstantMeaning {
            descriptors: data.iter().map(|t| (t[1], t[2])).collect(),
            default,
            spec_ids: ids.len(),
        };
        assert!(
            out.insert(name.clone(), meaning).is_none(),
            "{name} listed twice"
        );
        at += extent;
    }
    assert_eq!(
        at,
        blob.len(),
        "the default-values blob is not the constants' extents"
    );
    out
}

/// DPC++'s SPIR-V device libraries (`libsycl-*.spv` of the intel-sycl-rt 2025.0.4 wheel), which
/// scripts/setup.sh puts in `.devicelib/` (`$SPEC_LINK_DEVICELIB` names another folder).
pub fn devicelib() -> PathBuf {
    let dir = std::env::var_os("SPEC_LINK_DEVICELIB")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(".devicelib/intel-sycl-rt-2025.0.4"));
    assert!(
        dir.join("libsycl-crt.spv").is_file(),
        "DPC++ device libraries not found in {}: run scripts/setup.sh",
        dir.display()
    );
    dir
}

/// One of them: `libsycl-<name>.spv`.
pub fn devicelib_module(name: &str) -> PathBuf {
    let p = devicelib().join(format!("libsycl-{name}.spv"));
    assert!(p.is_file(), "{} is missing", p.display());
    p
}

/// Ids that `output` uses and `input` defines but `output` does not: a definition spec-link
/// removed while still in use. Both are whole modules (little-endian bytes), decoded with
/// rspirv's grammar (independently of spec-link's own operand tables); a use is an id operand
/// or a result type. The operands of `OpExtInst` are not looked at (their kinds depend on the
/// instruction set). A module rspirv cannot decode fails the test, naming what it could not read.
pub fn dangling_uses(input: &[u8], output: &[u8]) -> Vec<u32> {
    use rspirv::binary::{parse_words, Consumer, ParseAction};
    use rspirv::dr::{Instruction, ModuleHeader, Operand};

    #[derive(Default)]
    struct Ids {
        defined: std::collections::HashSet<u32>,
        used: Vec<u32>,
    }
    impl Consumer for Ids {
        fn initialize(&mut self) -> ParseAction {
            ParseAction::Continue
        }
        fn finalize(&mut self) -> ParseAction {
            ParseAction::Continue
        }
        fn consume_header(&mut self, _: ModuleHeader) -> ParseAction {
            ParseAction::Continue
        }
        fn consume_instruction(&mut self, inst: Instruction) -> ParseAction {
            self.defined.extend(inst.result_id);
            if inst.class.opcode != spirv::Op::ExtInst {
                self.used.extend(inst.result_type);
                self.used
                    .extend(inst.operands.iter().filter_map(|o| match o {
                        Operand::IdRef(id)
                        | Operand::IdScope(id)
                        | Operand::IdMemorySemantics(id) => Some(*id),
                        _ => None,
                    }));
            }
            ParseAction::Continue
        }
    }
    let ids = |what: &str, bytes: &[u8]| -> Ids {
        let mut ids = Ids::default();
        if let Err(e) = parse_words(words(bytes), &mut ids) {
            panic!("rspirv cannot decode the {what} module: {e}");
        }
        ids
    };
    let (before, after) = (ids("input", input), ids("output", output));
    let mut dangling: Vec<u32> = after
        .used
        .into_iter()
        .filter(|id| before.defined.contains(id) && !after.defined.contains(id))
        .collect();
    dangling.sort_unstable();
    dangling.dedup();
    dangling
}
