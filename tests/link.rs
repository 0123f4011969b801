//! Linking, beyond the golden link cases of tests/golden.rs:
//!
//! 1. `clang_two_modules_link_like_one_module` — a two-module SYCL-like case built with clang-15 +
//!    llvm-spirv-15 (`testdata/clang-link`: a.cl's kernel calls b.cl's exported helper; both read
//!    spec constant X, b.cl also reads the struct Y; b.cl is built with `-g`, a.cl without):
//!    `spec-link a.spv b.spv` gives the same `.prop` and sidecar as `spec-link single.spv` (the
//!    one-translation-unit equivalent), native and emulation, and every output runs on the Intel
//!    CPU OpenCL runtime with the values derived by hand in `run.json`.
//! 2. (The comparison of every golden link case with `spirv-link` is a unit test of the linker:
//!    `spirv_link_comparison` in src/link/against_spirv_link.rs.)
//! 3. `glob_pattern_equals_sorted_list` / `glob_pattern_matching_nothing_is_an_error` — the CLI's
//!    own glob expansion.
//! 4. `specid_collision_renumbered_constants_are_independent` — `--renumber-spec-ids`: the two
//!    colliding constants (and new markers linked in beside them) are set independently on the
//!    runtime.
//! 5. `builtin_imports_need_no_export` — imported built-in variables are provided by the
//!    environment, not by another input; `copies_of_an_export_merge`; DPC++'s SPIR-V device libraries (fetched by
//!    scripts/setup.sh): `device_libraries_pass_through_unchanged`,
//!    `device_libraries_link_with_their_implementations`, `kernels_linked_with_device_libraries_run`
//!    (`testdata/clang-devicelib`).
//!
//! Every output module written is checked with spirv-val. A missing tool fails the test naming it.

mod common;

use common::{devicelib, devicelib_module};

use serde_json::{json, Value};
use spec_link::internals::spirv_val_error_key;
use spec_link::sidecar::prop::{base64_encode, raw_byte_array};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_spec-link");

const MARKER_PREFIXES: [&str; 2] = [
    "_Z37__sycl_getScalar2020SpecConstantValue",
    "_Z40__sycl_getComposite2020SpecConstantValue",
];

fn is_marker(name: &str) -> bool {
    MARKER_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// A fresh, empty temporary directory for one test, removed afterwards unless the test fails.
fn tmpdir(tag: &str) -> common::Scratch {
    common::Scratch::new(&format!("spec-link-link-{tag}-{}", std::process::id()))
}

/// Runs the spec-link binary in `cwd`.
fn spec_link(cwd: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("run the spec-link binary")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Whether a spec-link run succeeded; if not, records its exit status and stderr under `what`.
fn succeeded(what: &str, out: &Output, failures: &mut Vec<String>) -> bool {
    if !out.status.success() {
        failures.push(format!(
            "{what}: exit {:?}\n{}",
            out.status.code(),
            stderr(out)
        ));
    }
    out.status.success()
}

/// Fails the test listing every failure found (a test gathers them to report all at once).
fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failure(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

// ---------------------------------------------------------------------------------------------
// spirv-val
// ---------------------------------------------------------------------------------------------

/// spirv-val's first error line, or `None` when the module is valid.
fn val_error(bytes: &[u8], env: &str) -> Option<String> {
    let out = common::tool("spirv-val", &["--target-env", env, "-"], Some(bytes));
    if out.status.success() {
        return None;
    }
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    Some(
        text.lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
            .to_string(),
    )
}

/// `Ok(None)`: the output is valid. `Ok(Some(input))`: it fails spirv-val with the same (masked)
/// first error as that input already has — a producer bug spec-link did not introduce.
/// `Err`: a new error.
fn valid_or_inherited(
    bytes: &[u8],
    env: &str,
    inputs: &[(&str, &[u8])],
) -> Result<Option<String>, String> {
    let Some(err) = val_error(bytes, env) else {
        return Ok(None);
    };
    for (name, input) in inputs {
        if let Some(e) = val_error(input, env) {
            if spirv_val_error_key(&e) == spirv_val_error_key(&err) {
                return Ok(Some(format!("{name}: {e}")));
            }
        }
    }
    Err(err)
}

// ---------------------------------------------------------------------------------------------
// A minimal SPIR-V reader: functions, names, entry points, linkage, SpecIds
// ---------------------------------------------------------------------------------------------

fn words(bytes: &[u8]) -> Vec<u32> {
    assert_eq!(
        &bytes[..4],
        &0x0723_0203u32.to_le_bytes(),
        "not a little-endian SPIR-V module"
    );
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A literal string starting at `w[0]`; returns it and the number of words it takes.
fn literal(w: &[u32]) -> (String, usize) {
    let mut bytes = Vec::new();
    for (i, word) in w.iter().enumerate() {
        for b in word.to_le_bytes() {
            if b == 0 {
                return (String::from_utf8_lossy(&bytes).into_owned(), i + 1);
            }
            bytes.push(b);
        }
    }
    (String::from_utf8_lossy(&bytes).into_owned(), w.len())
}

const LINK_EXPORT: u32 = 0;
const LINK_IMPORT: u32 = 1;

#[derive(Debug, Default)]
struct Summary {
    /// Result ids of `OpFunction`, in order.
    functions: Vec<u32>,
    /// `OpName`s.
    names: BTreeMap<u32, String>,
    /// Entry-point names.
    entry_points: Vec<String>,
    /// `LinkageAttributes`: (target, name, linkage type).
    linkage: Vec<(u32, String, u32)>,
    /// `SpecId` decorations: (target, SpecId).
    spec_ids: Vec<(u32, u32)>,
    /// Capabilities.
    capabilities: BTreeSet<u32>,
    /// `BuiltIn` decorations: (target, built-in).
    builtins: Vec<(u32, u32)>,
}

impl Summary {
    fn of(bytes: &[u8]) -> Summary {
        let w = words(bytes);
        let mut s = Summary::default();
        let mut i = 5;
        while i < w.len() {
            let n = (w[i] >> 16) as usize;
            let op = w[i] & 0xffff;
            assert!(n > 0 && i + n <= w.len(), "malformed module at word {i}");
            let inst = &w[i..i + n];
            match op {
                17 => {
                    s.capabilities.insert(inst[1]);
                }
                5 => {
                    s.names.insert(inst[1], literal(&inst[2..]).0);
                }
                15 => s.entry_points.push(literal(&inst[3..]).0),
                71 if inst[2] == 41 => {
                    let (name, k) = literal(&inst[3..]);
                    s.linkage.push((inst[1], name, inst[3 + k]));
                }
                71 if inst[2] == 1 => s.spec_ids.push((inst[1], inst[3])),
                71 if inst[2] == 11 => s.builtins.push((inst[1], inst[3])),
                54 => s.functions.push(inst[2]),
                _ => {}
            }
            i += n;
        }
        s
    }

    /// Names of the symbols of linkage type `kind`, apart from markers and built-in variables.
    fn symbols(&self, kind: u32) -> BTreeSet<String> {
        self.linkage
            .iter()
            .filter(|(t, name, k)| *k == kind && !is_marker(name) && !self.is_builtin(*t))
            .map(|(_, name, _)| name.clone())
            .collect()
    }

    /// Names of the imported built-in variables, with the number of imports of each.
    fn builtin_imports(&self) -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for (t, name, k) in &self.linkage {
            if *k == LINK_IMPORT && self.is_builtin(*t) {
                *m.entry(name.clone()).or_default() += 1;
            }
        }
        m
    }

    fn is_builtin(&self, id: u32) -> bool {
        self.builtins.iter().any(|(t, _)| *t == id)
    }
}

// ---------------------------------------------------------------------------------------------
// The OpenCL runtime
// ---------------------------------------------------------------------------------------------

/// Runs scripts/ocl_run.py (as tests/runtime.rs does).
fn ocl_run(spv: &Path, run_json: &Path, extra: &[&str]) -> Output {
    common::ocl_run()
        .arg("--spv")
        .arg(spv)
        .arg("--run-json")
        .arg(run_json)
        .args(extra)
        .output()
        .expect("run scripts/ocl_run.py")
}

/// Runs every image of `run_json` and compares each buffer with its `expect` prefix.
/// `spec`: `["--prop", P]` (native) or `["--emulation-json", J]` (emulation).
fn check_runs(what: &str, spv: &Path, run_json: &Path, spec: &[&str]) -> Vec<String> {
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(run_json).unwrap()).unwrap();
    let mut failures = Vec::new();
    for image in doc["images"].as_array().unwrap() {
        let n = image["image"].as_u64().unwrap().to_string();
        let mut args = vec!["--image", n.as_str()];
        args.extend_from_slice(spec);
        let run = ocl_run(spv, run_json, &args);
        if !run.status.success() {
            failures.push(format!(
                "{what} image {n}: ocl_run.py failed:\n{}",
                stderr(&run)
            ));
            continue;
        }
        let got: Value = serde_json::from_slice(&run.stdout).unwrap();
        let expect = image["expect"].as_array().unwrap();
        let results = got["results"].as_array().unwrap();
        assert_eq!(
            results.len(),
            expect.len(),
            "{what} image {n}: one expect per override set"
        );
        for (k, result) in results.iter().enumerate() {
            for (b, want) in expect[k].as_array().unwrap().iter().enumerate() {
                let have = result["buffers"][b].as_str().unwrap();
                let want = want.as_str().unwrap();
                if !have.starts_with(want) {
                    failures.push(format!(
                        "{what} image {n} override {k} buffer {b}:\n  expected {want}\n  got      {}",
                        &have[..want.len().min(have.len())]
                    ));
                }
            }
        }
    }
    failures
}

// ---------------------------------------------------------------------------------------------
// 1. clang-15 + llvm-spirv-15, two modules against one
// ---------------------------------------------------------------------------------------------

/// The sidecar fields that must not depend on whether the code came in one module or several.
fn comparable_sidecar(json: &[u8]) -> Value {
    let v: Value = serde_json::from_slice(json).unwrap();
    let mut out = serde_json::Map::new();
    for key in [
        "mode",
        "buffer_size",
        "spec_constants",
        "default_values",
        "kernels",
        "property_sets",
    ] {
        if let Some(x) = v.get(key) {
            out.insert(key.into(), x.clone());
        }
    }
    Value::Object(out)
}

/// Disassembly with raw ids: every id an instruction uses is defined somewhere in the module
/// (forward references allowed) — in particular the ids inside extended instructions.
fn undefined_ids(bytes: &[u8]) -> BTreeSet<String> {
    let out = common::tool("spirv-dis", &["--raw-id", "-", "-o", "-"], Some(bytes));
    assert!(out.status.success(), "spirv-dis failed:\n{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut defined = BTreeSet::new();
    let mut used = BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with(';')) {
        // Drop string literals (they may hold '%').
        let mut code = String::new();
        let mut quoted = false;
        let mut escaped = false;
        for c in line.chars() {
            if quoted {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    quoted = false;
                }
            } else if c == '"' {
                quoted = true;
            } else {
                code.push(c);
            }
        }
        let mut tokens = code.split_whitespace().peekable();
        if let Some(first) = tokens.peek().copied() {
            if first.starts_with('%') && code.contains(" = ") {
                defined.insert(first.to_string());
                tokens.next();
            }
        }
        used.extend(tokens.filter(|t| t.starts_with('%')).map(str::to_string));
    }
    used.difference(&defined).cloned().collect()
}

/// Checks the debug information of b.spv survived linking: the `DebugFunction` of `helper`
/// names the output's `helper` function, and the debug instructions are all there.
fn check_debug_info(what: &str, out: &[u8], b: &[u8]) -> Vec<String> {
    let mut failures = Vec::new();
    let missing = undefined_ids(out);
    if !missing.is_empty() {
        failures.push(format!(
            "{what}: ids used but never defined (not remapped?): {missing:?}"
        ));
    }
    let dis = |bytes: &[u8]| {
        let o = common::tool("spirv-dis", &["--raw-id", "-", "-o", "-"], Some(bytes));
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap()
    };
    let count = |text: &str, what: &str| {
        text.lines()
            .filter(|l| l.split_whitespace().any(|t| t == what))
            .count()
    };
    let (out_text, b_text) = (dis(out), dis(b));
    if !out_text.contains("OpExtInstImport \"OpenCL.DebugInfo.100\"") {
        failures.push(format!("{what}: the OpenCL.DebugInfo.100 import is gone"));
    }
    for inst in [
        "DebugCompilationUnit",
        "DebugSource",
        "DebugFunction",
        "DebugTypeComposite",
        "DebugTypeMember",
    ] {
        let (have, had) = (count(&out_text, inst), count(&b_text, inst));
        if have < had {
            failures.push(format!("{what}: {have} {inst} left of b.spv's {had}"));
        }
    }
    let s = Summary::of(out);
    let helper = s
        .functions
        .iter()
        .find(|f| s.names.get(f).is_some_and(|n| n == "helper"));
    match helper {
        None => failures.push(format!("{what}: no function named helper")),
        Some(h) => {
            let id = format!("%{h}");
            let described = out_text
                .lines()
                .any(|l| l.contains(" DebugFunction ") && l.split_whitespace().any(|t| t == id));
            if !described {
                failures.push(format!("{what}: no DebugFunction names helper ({id})"));
            }
        }
    }
    failures
}

/// `spec-link a.spv b.spv` (llvm-spirv-15 modules, b.spv with OpenCL.DebugInfo.100) equals
/// `spec-link single.spv` in native and emulation mode: same `.prop` (symbolic IDs, SpecIds,
/// descriptors, default blob) and sidecar (plus, in emulation, buffer offsets and the kernel's
/// buffer argument); all outputs run on the Intel CPU runtime with the hand-derived values of
/// `testdata/clang-link/run.json`, with defaults and overrides.
///
/// Also linked: `a.spv b-nodebug.spv` (the same b without `-g`, the control) and `b.spv a.spv`
/// (the other order). llvm-spirv-15's `-g` output fails this SPIRV-Tools' spirv-val before
/// spec-link touches it (a `DebugTypeMember` forward reference to its `DebugTypeComposite`;
/// `DebugFunction`s whose Declaration is `DebugInfoNone`, SPIRV-LLVM-Translator #3247): a linked
/// output containing b.spv may fail spirv-val only with b.spv's own first error, and must then
/// still have every debug id defined (`check_debug_info`).
#[test]
fn clang_two_modules_link_like_one_module() {
    let dir = common::repo().join("testdata/clang-link");
    let tmp = tmpdir("clang");
    let run_json = dir.join("run.json");
    let read = |f: &str| {
        std::fs::read(dir.join(f))
            .unwrap_or_else(|e| panic!("{f}: {e} (scripts/gen-clang-testdata.sh clang-link)"))
    };
    let b = read("b.spv");
    let b_text = common::disassemble(&b);
    assert!(
        b_text.contains("OpExtInstImport \"OpenCL.DebugInfo.100\""),
        "b.spv was not built with -g"
    );
    assert!(
        !common::disassemble(&read("a.spv")).contains("DebugInfo"),
        "a.spv must have no debug info"
    );
    assert!(
        b_text.contains("LinkageAttributes \"helper\" Export"),
        "b.spv does not export helper"
    );

    let mut failures: Vec<String> = Vec::new();
    for mode in ["native", "emulation"] {
        let lower = |tag: &str, inputs: &[&str]| -> Result<(PathBuf, PathBuf, PathBuf), String> {
            let spv = tmp.join(format!("{tag}.{mode}.spv"));
            let prop = tmp.join(format!("{tag}.{mode}.prop"));
            let json = tmp.join(format!("{tag}.{mode}.json"));
            let mut args: Vec<&str> = inputs.to_vec();
            let (s, p, j) = (
                spv.to_str().unwrap(),
                prop.to_str().unwrap(),
                json.to_str().unwrap(),
            );
            args.extend([
                "--spec-const",
                mode,
                "--validate",
                "-o",
                s,
                "--prop",
                p,
                "--json",
                j,
            ]);
            let out = spec_link(&dir, &args);
            if !out.status.success() {
                return Err(format!(
                    "spec-link {} --spec-const {mode}: exit {:?}\n{}",
                    inputs.join(" "),
                    out.status.code(),
                    stderr(&out)
                ));
            }
            Ok((spv, prop, json))
        };
        let (s_spv, s_prop, s_json) =
            lower("single", &["single.spv"]).unwrap_or_else(|e| panic!("{e}"));
        if let Some(e) = val_error(&std::fs::read(&s_spv).unwrap(), "spv1.4") {
            failures.push(format!("single.spv {mode}: output fails spirv-val: {e}"));
        }
        let spec_args = |prop: &Path, json: &Path| -> Vec<String> {
            if mode == "native" {
                vec!["--prop".into(), prop.display().to_string()]
            } else {
                vec!["--emulation-json".into(), json.display().to_string()]
            }
        };
        let a1: Vec<String> = spec_args(&s_prop, &s_json);
        let a1: Vec<&str> = a1.iter().map(String::as_str).collect();
        failures.extend(check_runs(
            &format!("single.spv {mode}"),
            &s_spv,
            &run_json,
            &a1,
        ));

        let single_prop = std::fs::read_to_string(&s_prop).unwrap();
        assert!(
            single_prop.contains("ZL1X=") && single_prop.contains("ZL1Y="),
            "single.spv {mode}: {single_prop}"
        );
        let single_json = comparable_sidecar(&std::fs::read(&s_json).unwrap());

        for (tag, inputs) in [
            ("a+b", ["a.spv", "b.spv"]),
            ("a+b-nodebug", ["a.spv", "b-nodebug.spv"]),
            ("b+a", ["b.spv", "a.spv"]),
        ] {
            let what = format!("spec-link {} --spec-const {mode}", inputs.join(" "));
            let (spv, prop, json) = match lower(tag, &inputs) {
                Ok(x) => x,
                Err(e) => {
                    failures.push(e);
                    continue;
                }
            };
            let prop_text = std::fs::read_to_string(&prop).unwrap();
            if prop_text != single_prop {
                failures.push(format!("{what}: .prop differs from single.spv's\n--- linked\n{prop_text}--- single\n{single_prop}"));
            }
            let sidecar = comparable_sidecar(&std::fs::read(&json).unwrap());
            if sidecar != single_json {
                failures.push(format!(
                    "{what}: sidecar differs from single.spv's\n--- linked\n{}\n--- single\n{}",
                    serde_json::to_string_pretty(&sidecar).unwrap(),
                    serde_json::to_string_pretty(&single_json).unwrap()
                ));
            }
            let out = std::fs::read(&spv).unwrap();
            let inputs_bytes: Vec<(&str, Vec<u8>)> = inputs.iter().map(|f| (*f, read(f))).collect();
            let refs: Vec<(&str, &[u8])> = inputs_bytes
                .iter()
                .map(|(n, b)| (*n, b.as_slice()))
                .collect();
            match valid_or_inherited(&out, "spv1.4", &refs) {
                Ok(None) => {}
                Ok(Some(from)) if from.starts_with("b.spv:") => {
                    eprintln!("{what}: output fails spirv-val only as b.spv (llvm-spirv-15 -g) does: {from}");
                }
                Ok(Some(from)) => {
                    failures.push(format!("{what}: output fails spirv-val as {from}"))
                }
                Err(e) => failures.push(format!(
                    "{what}: output fails spirv-val with an error no input has: {e}"
                )),
            }
            if inputs.contains(&"b.spv") {
                failures.extend(check_debug_info(&what, &out, &b));
            }
            let args: Vec<String> = spec_args(&prop, &json);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            failures.extend(check_runs(&what, &spv, &run_json, &args));
        }
    }
    assert_no_failures(&failures);
}

/// A module whose debug information is in OpenCL.DebugInfo.100 under the translator's legacy
/// name, "SPIRV.debug" (`testdata/clang-debuginfo`), links like its OpenCL.DebugInfo.100 twin:
/// the ids of its extended instructions are renumbered by that set's grammar (before, the link
/// failed: "cannot link OpExtInst … its operands cannot be decoded"). Linked with a.spv
/// (`helper` left unresolved), lowered natively: the outputs are equal but for the imports and
/// strings, the `.prop` files are equal.
#[test]
fn legacy_debug_info_links_like_opencl_debuginfo_100() {
    let repo = common::repo();
    let tmp = tmpdir("legacy-debug");
    let mut outputs = Vec::new();
    for set in ["ocl100", "legacy"] {
        let (spv, prop) = (
            tmp.join(format!("{set}.spv")),
            tmp.join(format!("{set}.prop")),
        );
        let out = spec_link(
            &repo,
            &[
                "testdata/clang-link/a.spv",
                &format!("testdata/clang-debuginfo/{set}-O2.spv"),
                "--allow-partial",
                // spirv-val runs: both inputs fail it before spec-link touches them (SPIRV.debug is unknown
                // to it; llvm-spirv-15's debug information refers forward), so the output is
                // written with a warning unless it fails otherwise.
                "--validate",
                "-o",
                spv.to_str().unwrap(),
                "--prop",
                prop.to_str().unwrap(),
            ],
        );
        assert!(out.status.success(), "{set}: {}", stderr(&out));
        outputs.push((std::fs::read(&spv).unwrap(), std::fs::read(&prop).unwrap()));
    }
    let (o, l) = (&outputs[0], &outputs[1]);
    assert!(
        common::without_imports_and_strings(&o.0) == common::without_imports_and_strings(&l.0),
        "the legacy link differs from the OpenCL.DebugInfo.100 one beyond the imports and strings"
    );
    assert!(o.1 == l.1, "the .prop files differ");
}

/// b.cl's `helper` reduced to X, written by hand with `NonSemantic.Shader.DebugInfo.100` debug
/// information (llvm-spirv-15 cannot emit it: `--spirv-debug-info-version=nonsemantic-shader-100`
/// is not an option of 15.0.6): `helper(out, x)` reads X, stores it to `out[2]` and returns
/// `2 * X + x`. Its `DebugFunctionDefinition` (inside the body) names the function.
fn nonsemantic_helper_module() -> String {
    let sid = b"uid0123456789abcdef____ZL1X\0";
    let consts: String = sid
        .iter()
        .enumerate()
        .map(|(i, b)| format!("         %c{i} = OpConstant %uchar {b}\n"))
        .collect();
    let members: Vec<String> = (0..sid.len()).map(|i| format!("%c{i}")).collect();
    let n = sid.len();
    format!(
        r#"; target-env: spv1.4
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int8
               OpCapability GenericPointer
               OpExtension "SPV_KHR_non_semantic_info"
         %ns = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
               OpMemoryModel Physical64 OpenCL
     %s_file = OpString "b_ns.cl"
      %s_int = OpString "int"
   %s_helper = OpString "helper"
               OpName %helper "helper"
               OpName %get "_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_"
               OpDecorate %helper LinkageAttributes "helper" Export
               OpDecorate %get LinkageAttributes "_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_" Import
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %void = OpTypeVoid
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
    %uint_32 = OpConstant %uint 32
   %uint_100 = OpConstant %uint 100
  %uint_1000 = OpConstant %uint 1000
    %ulong_2 = OpConstant %ulong 2
      %ulong_n = OpConstant %ulong {n}
{consts}        %arr = OpTypeArray %uchar %ulong_n
 %ptr_CW_arr = OpTypePointer CrossWorkgroup %arr
%ptr_G_uchar = OpTypePointer Generic %uchar
%ptr_CW_uchar = OpTypePointer CrossWorkgroup %uchar
       %wrap = OpTypeStruct %uint
%ptr_CW_wrap = OpTypePointer CrossWorkgroup %wrap
%ptr_CW_uint = OpTypePointer CrossWorkgroup %uint
     %fn_get = OpTypeFunction %uint %ptr_G_uchar %ptr_G_uchar %ptr_G_uchar
  %fn_helper = OpTypeFunction %uint %ptr_CW_uint %uint
        %str = OpConstantComposite %arr {members}
       %usid = OpVariable %ptr_CW_arr CrossWorkgroup %str
       %init = OpConstantComposite %wrap %uint_1000
         %id = OpVariable %ptr_CW_wrap CrossWorkgroup %init
       %null = OpConstantNull %ptr_G_uchar
      %d_src = OpExtInst %void %ns DebugSource %s_file
       %d_cu = OpExtInst %void %ns DebugCompilationUnit %uint_100 %uint_4 %d_src %uint_3
      %d_int = OpExtInst %void %ns DebugTypeBasic %s_int %uint_32 %uint_4 %uint_0
       %d_fn = OpExtInst %void %ns DebugTypeFunction %uint_3 %d_int %d_int %d_int
   %d_helper = OpExtInst %void %ns DebugFunction %s_helper %d_fn %d_src %uint_1 %uint_1 %d_cu %s_helper %uint_3 %uint_2
        %get = OpFunction %uint None %fn_get
         %a0 = OpFunctionParameter %ptr_G_uchar
         %a1 = OpFunctionParameter %ptr_G_uchar
         %a2 = OpFunctionParameter %ptr_G_uchar
               OpFunctionEnd
     %helper = OpFunction %uint None %fn_helper
        %out = OpFunctionParameter %ptr_CW_uint
          %x = OpFunctionParameter %uint
          %l = OpLabel
      %d_def = OpExtInst %void %ns DebugFunctionDefinition %d_helper %helper
    %d_scope = OpExtInst %void %ns DebugScope %d_helper
         %b0 = OpBitcast %ptr_CW_uchar %usid
         %g0 = OpPtrCastToGeneric %ptr_G_uchar %b0
         %b1 = OpBitcast %ptr_CW_uchar %id
         %g1 = OpPtrCastToGeneric %ptr_G_uchar %b1
          %v = OpFunctionCall %uint %get %g0 %g1 %null
         %p2 = OpInBoundsPtrAccessChain %ptr_CW_uint %out %ulong_2
               OpStore %p2 %v Aligned 4
         %v2 = OpIMul %uint %v %uint_2
          %r = OpIAdd %uint %v2 %x
               OpReturnValue %r
               OpFunctionEnd
"#,
        members = members.join(" ")
    )
}

/// clang-link's a.spv linked with a hand-written module carrying `NonSemantic.Shader.DebugInfo.100`
/// (the other debug-info set a linker must decode; llvm-spirv-15 emits only OpenCL.DebugInfo.100). The
/// inputs pass spirv-val, so the output must too (native and emulation); every debug id is
/// defined, the `DebugFunctionDefinition` names the output's `helper`, and the kernel computes
/// the hand-derived values: out[0] = X, out[1] = helper(out, X) = 2X + X, out[2] = X.
#[test]
fn nonsemantic_debug_info_links() {
    let tmp = tmpdir("nonsemantic");
    let asm = tmp.join("b_ns.spvasm");
    std::fs::write(&asm, nonsemantic_helper_module()).unwrap();
    let b_ns = common::assemble(&asm);
    common::spirv_val(
        &b_ns,
        "spv1.4",
        "the hand-written NonSemantic.Shader.DebugInfo.100 input",
    );
    std::fs::write(tmp.join("b_ns.spv"), &b_ns).unwrap();
    std::fs::copy(
        common::repo().join("testdata/clang-link/a.spv"),
        tmp.join("a.spv"),
    )
    .unwrap();
    let x = "uid0123456789abcdef____ZL1X";
    let rest = "0".repeat(2 * 52);
    let run_json = tmp.join("run.json");
    let doc = json!({"images": [{"image": 0, "kernel": "K", "nbuf": 1,
    "overrides": [{}, {x: "07000000"}, {x: "ffffffff"}],
    "expect": [
        [format!("e8030000b80b0000e8030000{rest}")],   // 1000, 3000 = 0xbb8, 1000
        [format!("070000001500000007000000{rest}")],   // 7, 21, 7
        [format!("fffffffffdffffffffffffff{rest}")]    // -1, -3, -1
    ]}]});
    std::fs::write(&run_json, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let mut failures = Vec::new();
    for mode in ["native", "emulation"] {
        let what = format!("spec-link a.spv b_ns.spv --spec-const {mode}");
        let (spv, prop, js) = (
            format!("out.{mode}.spv"),
            format!("out.{mode}.prop"),
            format!("out.{mode}.json"),
        );
        let out = spec_link(
            &tmp,
            &[
                "a.spv",
                "b_ns.spv",
                "--spec-const",
                mode,
                "--validate",
                "-o",
                &spv,
                "--prop",
                &prop,
                "--json",
                &js,
            ],
        );
        if !succeeded(&what, &out, &mut failures) {
            continue;
        }
        let module = std::fs::read(tmp.join(&spv)).unwrap();
        if let Some(e) = val_error(&module, "spv1.4") {
            failures.push(format!("{what}: output fails spirv-val: {e}"));
        }
        let missing = undefined_ids(&module);
        if !missing.is_empty() {
            failures.push(format!("{what}: ids used but never defined: {missing:?}"));
        }
        let s = Summary::of(&module);
        let helper = s
            .functions
            .iter()
            .find(|f| s.names.get(f).is_some_and(|n| n == "helper"))
            .copied();
        let dis = String::from_utf8(
            common::tool("spirv-dis", &["--raw-id", "-", "-o", "-"], Some(&module)).stdout,
        )
        .unwrap();
        let named = helper.is_some_and(|h| {
            let id = format!("%{h}");
            dis.lines().any(|l| {
                l.contains(" DebugFunctionDefinition ") && l.split_whitespace().any(|t| t == id)
            })
        });
        if !named {
            failures.push(format!(
                "{what}: no DebugFunctionDefinition names helper (%{helper:?})"
            ));
        }
        let spec_path = tmp.join(if mode == "native" { &prop } else { &js });
        let flag = if mode == "native" {
            "--prop"
        } else {
            "--emulation-json"
        };
        failures.extend(check_runs(
            &what,
            &tmp.join(&spv),
            &run_json,
            &[flag, spec_path.to_str().unwrap()],
        ));
    }
    assert_no_failures(&failures);
}

// ---------------------------------------------------------------------------------------------
// 3. Glob patterns
// ---------------------------------------------------------------------------------------------

/// Marker-free modules for the glob folder: c exports `fc` and has kernel KC; d exports `fd`;
/// e imports `fd` (from d) and has kernel KE.
const EXTRA_MODULES: [(&str, &str); 3] = [
    (
        "c",
        r#"
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "KC"
               OpName %fc "fc"
               OpDecorate %fc LinkageAttributes "fc" Export
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
     %uint_3 = OpConstant %uint 3
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %uint
         %fk = OpTypeFunction %void %ptr
         %fc = OpFunction %uint None %fn
         %lc = OpLabel
               OpReturnValue %uint_3
               OpFunctionEnd
          %k = OpFunction %void None %fk
          %o = OpFunctionParameter %ptr
          %l = OpLabel
          %v = OpFunctionCall %uint %fc
               OpStore %o %v Aligned 4
               OpReturn
               OpFunctionEnd
"#,
    ),
    (
        "d",
        r#"
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpName %fd "fd"
               OpDecorate %fd LinkageAttributes "fd" Export
       %uint = OpTypeInt 32 0
     %uint_4 = OpConstant %uint 4
         %fn = OpTypeFunction %uint %uint
         %fd = OpFunction %uint None %fn
          %x = OpFunctionParameter %uint
         %ld = OpLabel
          %r = OpIMul %uint %x %uint_4
               OpReturnValue %r
               OpFunctionEnd
"#,
    ),
    (
        "e",
        r#"
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "KE"
               OpName %fd "fd"
               OpDecorate %fd LinkageAttributes "fd" Import
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
     %uint_5 = OpConstant %uint 5
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %uint %uint
         %fk = OpTypeFunction %void %ptr
         %fd = OpFunction %uint None %fn
          %x = OpFunctionParameter %uint
               OpFunctionEnd
          %k = OpFunction %void None %fk
          %o = OpFunctionParameter %ptr
          %l = OpLabel
          %v = OpFunctionCall %uint %fd %uint_5
               OpStore %o %v Aligned 4
               OpReturn
               OpFunctionEnd
"#,
    ),
];

/// Writes the five modules (link-basic's a and b, then c, d, e) into `dir` as `*.spv`, in
/// reverse name order (so directory order is unlikely to be name order), plus files the
/// pattern must not pick up.
fn glob_folder(dir: &Path) {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let mut modules: Vec<(String, Vec<u8>)> = Vec::new();
    for f in ["a", "b"] {
        let p = common::repo().join(format!("testdata/link-basic/inputs/{f}.spvasm"));
        modules.push((f.into(), common::assemble(&p)));
    }
    for (name, text) in EXTRA_MODULES {
        let p = src.join(format!("{name}.spvasm"));
        std::fs::write(
            &p,
            format!("; target-env: spv1.4\n{}", text.trim_start_matches('\n')),
        )
        .unwrap();
        modules.push((name.into(), common::assemble(&p)));
    }
    for (name, bytes) in modules.iter().rev() {
        std::fs::write(dir.join(format!("{name}.spv")), bytes).unwrap();
    }
    std::fs::write(dir.join("notes.txt"), "not a module").unwrap();
    std::fs::write(dir.join("f.spv.bak"), &modules[0].1).unwrap();
}

/// `spec-link 'dir/*.spv'` gives byte-identical module, `.prop` and JSON to
/// `spec-link dir/a.spv … dir/e.spv` (sorted), in native and emulation mode; another order gives
/// another module (so the sorting is what makes them equal).
#[test]
fn glob_pattern_equals_sorted_list() {
    let tmp = tmpdir("glob");
    let dir = tmp.join("objs");
    std::fs::create_dir_all(&dir).unwrap();
    glob_folder(&dir);
    let run = |tag: &str, mode: &str, inputs: &[&str]| -> (Vec<u8>, Vec<u8>, Vec<u8>) {
        let (spv, prop, json) = (
            format!("{tag}.spv"),
            format!("{tag}.prop"),
            format!("{tag}.json"),
        );
        let mut args: Vec<&str> = inputs.to_vec();
        args.extend([
            "--spec-const",
            mode,
            "--validate",
            "-o",
            &spv,
            "--prop",
            &prop,
            "--json",
            &json,
        ]);
        let out = spec_link(&tmp, &args);
        assert!(
            out.status.success(),
            "spec-link {}: exit {:?}\n{}",
            args.join(" "),
            out.status.code(),
            stderr(&out)
        );
        let r = |f: &str| std::fs::read(tmp.join(f)).unwrap();
        let bytes = r(&spv);
        common::spirv_val(&bytes, "spv1.4", &format!("spec-link {}", args.join(" ")));
        (bytes, r(&prop), r(&json))
    };
    let sorted = [
        "objs/a.spv",
        "objs/b.spv",
        "objs/c.spv",
        "objs/d.spv",
        "objs/e.spv",
    ];
    for mode in ["native", "emulation"] {
        let by_pattern = run(&format!("pattern-{mode}"), mode, &["objs/*.spv"]);
        let by_list = run(&format!("list-{mode}"), mode, &sorted);
        assert!(
            by_pattern.0 == by_list.0,
            "{mode}: the module linked by pattern differs from the sorted list's"
        );
        assert_eq!(
            String::from_utf8_lossy(&by_pattern.1),
            String::from_utf8_lossy(&by_list.1),
            "{mode}: .prop"
        );
        assert_eq!(
            String::from_utf8_lossy(&by_pattern.2),
            String::from_utf8_lossy(&by_list.2),
            "{mode}: JSON"
        );
        // The link happened: the kernels of all five files, e's import of d's fd resolved.
        let s = Summary::of(&by_pattern.0);
        let eps: BTreeSet<&str> = s.entry_points.iter().map(String::as_str).collect();
        assert_eq!(
            eps,
            BTreeSet::from(["K", "KC", "KE"]),
            "{mode}: entry points"
        );
        assert!(
            !s.linkage
                .iter()
                .any(|(_, n, t)| n == "fd" && *t == LINK_IMPORT),
            "{mode}: fd left unresolved: {:?}",
            s.linkage
        );
        let json: Value = serde_json::from_slice(&by_pattern.2).unwrap();
        let ids: Vec<&str> = json["spec_constants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["symbolic_id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["AIB", "ZZ"], "{mode}: symbolic IDs");
        // A mixed command line: explicit files and a pattern, expanded in place.
        let mixed = run(
            &format!("mixed-{mode}"),
            mode,
            &["objs/a.spv", "objs/b.spv", "objs/[c-e].spv"],
        );
        assert!(
            mixed.0 == by_list.0,
            "{mode}: explicit files + pattern differ from the list"
        );
        // Another order links to another module.
        let reversed: Vec<&str> = sorted.iter().rev().copied().collect();
        let other = run(&format!("reversed-{mode}"), mode, &reversed);
        assert!(
            other.0 != by_list.0,
            "{mode}: input order made no difference; the comparison proves nothing"
        );
    }
}

/// A pattern matching no file: exit 1, `error: input pattern '…' matches no file`, no output
/// written — also when it comes after inputs that exist.
#[test]
fn glob_pattern_matching_nothing_is_an_error() {
    let tmp = tmpdir("glob-none");
    let dir = tmp.join("objs");
    std::fs::create_dir_all(&dir).unwrap();
    glob_folder(&dir);
    for inputs in [
        vec!["objs/*.spirv"],
        vec!["objs/*.spv", "nowhere/*.spv"],
        vec!["objs/a.spv", "objs/[x-z]*.spv"],
    ] {
        let pattern = *inputs.last().unwrap();
        let mut args = inputs.clone();
        args.extend(["-o", "out.spv", "--prop", "out.prop", "--json", "out.json"]);
        let out = spec_link(&tmp, &args);
        let err = stderr(&out);
        assert_eq!(
            out.status.code(),
            Some(1),
            "spec-link {}: {err}",
            args.join(" ")
        );
        assert!(
            err.contains(&format!("error: input pattern '{pattern}' matches no file")),
            "spec-link {}: unexpected message: {err}",
            args.join(" ")
        );
        for f in ["out.spv", "out.prop", "out.json"] {
            assert!(
                !tmp.join(f).exists(),
                "spec-link {}: {f} was written",
                args.join(" ")
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 4. SpecId collision, renumbered, on the runtime
// ---------------------------------------------------------------------------------------------

/// A `.prop` descriptor line for a 4-byte scalar with the given SpecId.
fn prop_line(name: &str, spec_id: u32) -> String {
    let payload: Vec<u8> = [spec_id, 0, 4]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    format!(
        "{name}={}|{}\n",
        2,
        base64_encode(&raw_byte_array(&payload))
    )
}

/// Four inputs: link-renumber-spec-ids' a and b (already lowered, both `SpecId 3`: a's default
/// 10, stored by kernel K_a; b's default 20, stored by K_b), then clang-link's a.spv and
/// b-nodebug.spv (kernel K with the markers X and Y). Without `--renumber-spec-ids` it is an error
/// naming SpecId 3; with it, b's constant gets a fresh SpecId (listed in the JSON), X and Y come
/// after every SpecId in use, and on the runtime each constant is set on its own: the `.prop`
/// from spec-link (X, Y) plus one line per already-lowered constant written here (SpecId 3 for
/// a's, the renumbered id for b's).
#[test]
fn specid_collision_renumbered_constants_are_independent() {
    let tmp = tmpdir("specid");
    let repo = common::repo();
    let lowered = repo.join("testdata/link-renumber-spec-ids/inputs");
    std::fs::write(
        tmp.join("sc_a.spv"),
        common::assemble(&lowered.join("a.spvasm")),
    )
    .unwrap();
    std::fs::write(
        tmp.join("sc_b.spv"),
        common::assemble(&lowered.join("b.spvasm")),
    )
    .unwrap();
    let clang = repo.join("testdata/clang-link");
    std::fs::copy(clang.join("a.spv"), tmp.join("k_a.spv")).unwrap();
    std::fs::copy(clang.join("b-nodebug.spv"), tmp.join("k_b.spv")).unwrap();
    let inputs = ["sc_a.spv", "sc_b.spv", "k_a.spv", "k_b.spv"];

    // Without --renumber-spec-ids: an error, nothing written.
    let mut args: Vec<&str> = inputs.to_vec();
    args.extend(["-o", "bad.spv", "--json", "bad.json"]);
    let out = spec_link(&tmp, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("SpecId 3 is used by sc_a.spv and sc_b.spv"),
        "unexpected message: {}",
        stderr(&out)
    );
    assert!(!tmp.join("bad.spv").exists() && !tmp.join("bad.json").exists());

    let run_json = tmp.join("run.json");
    let x = "uid0123456789abcdef____ZL1X";
    let overrides = json!([
        {},
        {"a_sc": "e7030000", "b_sc": "2a000000"},
        {"b_sc": "ffffffff"},
        {"a_sc": "01000000", x: "07000000"}
    ]);
    let rest = "0".repeat(2 * 60);
    let k_default = format!(
        "e8030000b10b0000e8030000f9ffffff79000000{}",
        "0".repeat(2 * 44)
    );
    let k_x7 = format!(
        "070000000e00000007000000f9ffffff79000000{}",
        "0".repeat(2 * 44)
    );
    let doc = json!({
        "comment": "Written by tests/link.rs. a_sc: sc_a.spv's constant (SpecId 3, default 10), b_sc: sc_b.spv's (renumbered, default 20); X: clang-link's (testdata/clang-link/run.json). expect: K_a stores a_sc, K_b stores b_sc, K as in clang-link.",
        "images": [
            {"image": 0, "kernel": "K_a", "nbuf": 1, "overrides": overrides,
             "expect": [[format!("0a000000{rest}")], [format!("e7030000{rest}")], [format!("0a000000{rest}")], [format!("01000000{rest}")]]},
            {"image": 1, "kernel": "K_b", "nbuf": 1, "overrides": overrides,
             "expect": [[format!("14000000{rest}")], [format!("2a000000{rest}")], [format!("ffffffff{rest}")], [format!("14000000{rest}")]]},
            {"image": 2, "kernel": "K", "nbuf": 1, "overrides": overrides,
             "expect": [[k_default.clone()], [k_default.clone()], [k_default], [k_x7]]}
        ]
    });
    std::fs::write(&run_json, serde_json::to_string_pretty(&doc).unwrap()).unwrap();

    let mut failures = Vec::new();
    for mode in ["native", "emulation"] {
        let (spv, prop, js) = (
            format!("out.{mode}.spv"),
            format!("out.{mode}.prop"),
            format!("out.{mode}.json"),
        );
        let mut args: Vec<&str> = inputs.to_vec();
        args.extend([
            "--renumber-spec-ids",
            "--spec-const",
            mode,
            "--validate",
            "-o",
            &spv,
            "--prop",
            &prop,
            "--json",
            &js,
        ]);
        let out = spec_link(&tmp, &args);
        assert!(
            out.status.success(),
            "spec-link {}: {}",
            args.join(" "),
            stderr(&out)
        );
        let module = std::fs::read(tmp.join(&spv)).unwrap();
        common::spirv_val(&module, "spv1.4", &format!("spec-link {}", args.join(" ")));
        let sidecar: Value =
            serde_json::from_slice(&std::fs::read(tmp.join(&js)).unwrap()).unwrap();
        let renumbered = sidecar["renumbered_spec_ids"]
            .as_array()
            .unwrap_or_else(|| panic!("{mode}: no renumbered_spec_ids in {sidecar}"));
        assert_eq!(renumbered.len(), 1, "{mode}: {renumbered:?}");
        assert_eq!(renumbered[0]["input"], "sc_b.spv", "{mode}: {renumbered:?}");
        assert_eq!(renumbered[0]["from"], 3, "{mode}: {renumbered:?}");
        let to = renumbered[0]["to"].as_u64().unwrap() as u32;
        assert_ne!(to, 3);

        // The module: SpecId 3 and `to` on the two old constants, the new ones elsewhere.
        let s = Summary::of(&module);
        let spec_ids: Vec<u32> = s.spec_ids.iter().map(|x| x.1).collect();
        let distinct: BTreeSet<u32> = spec_ids.iter().copied().collect();
        assert_eq!(
            distinct.len(),
            spec_ids.len(),
            "{mode}: a SpecId used twice: {spec_ids:?}"
        );
        assert!(
            distinct.contains(&3) && distinct.contains(&to),
            "{mode}: {spec_ids:?}"
        );
        let new_ids: Vec<u64> = sidecar["spec_constants"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| {
                c["spec_ids"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap())
            })
            .collect();
        assert!(
            !new_ids.is_empty(),
            "{mode}: X and Y missing from the sidecar"
        );
        assert!(
            new_ids.iter().all(|&i| i > 3 && i > to as u64),
            "{mode}: new SpecIds {new_ids:?} must come after the inputs' (3, {to})"
        );

        // The .prop the runtime uses: spec-link's (X, Y) plus the two already-lowered constants.
        let ours = std::fs::read_to_string(tmp.join(&prop)).unwrap();
        let header = "[SYCL/specialization constants]\n";
        let extra = format!("{header}{}{}", prop_line("a_sc", 3), prop_line("b_sc", to));
        let full = if ours.contains(header) {
            ours.replacen(header, &extra, 1)
        } else {
            format!("{extra}{ours}")
        };
        let run_prop = tmp.join(format!("run.{mode}.prop"));
        std::fs::write(&run_prop, &full).unwrap();
        // Native only: ocl_run.py sets spec constants from a .prop or fills an emulation
        // buffer, not both, and emulation leaves the already-lowered constants spec constants.
        if mode == "native" {
            let spec = ["--prop", run_prop.to_str().unwrap()];
            failures.extend(check_runs(
                "--renumber-spec-ids native",
                &tmp.join(&spv),
                &run_json,
                &spec,
            ));
        }
    }
    assert_no_failures(&failures);
}

// ---------------------------------------------------------------------------------------------
// 6. Built-in variables, and DPC++'s device libraries
// ---------------------------------------------------------------------------------------------

const SPV_CAPABILITY_LINKAGE: u32 = 5;

/// Module a: kernel k(out) stores f(GlobalInvocationId.x) to out; f is imported, and so is the
/// built-in variable (as llvm-spirv writes them: `LinkageAttributes … Import` + `BuiltIn`).
const BUILTIN_A: &str = r#"
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpName %gid "__spirv_BuiltInGlobalInvocationId"
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
               OpDecorate %f LinkageAttributes "f" Import
      %ulong = OpTypeInt 64 0
         %v3 = OpTypeVector %ulong 3
     %in_ptr = OpTypePointer Input %v3
     %cw_ptr = OpTypePointer CrossWorkgroup %ulong
       %void = OpTypeVoid
       %f_ty = OpTypeFunction %ulong %ulong
       %k_ty = OpTypeFunction %void %cw_ptr
        %gid = OpVariable %in_ptr Input
          %f = OpFunction %ulong None %f_ty
          %p = OpFunctionParameter %ulong
               OpFunctionEnd
          %k = OpFunction %void None %k_ty
        %out = OpFunctionParameter %cw_ptr
          %l = OpLabel
          %v = OpLoad %v3 %gid
          %x = OpCompositeExtract %ulong %v 0
          %y = OpFunctionCall %ulong %f %x
               OpStore %out %y
               OpReturn
               OpFunctionEnd
"#;

/// Module b: exports f(x) = x + GlobalInvocationId.x + GlobalSize.x; imports both built-ins.
const BUILTIN_B: &str = r#"
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpName %gid "__spirv_BuiltInGlobalInvocationId"
               OpName %gsize "__spirv_BuiltInGlobalSize"
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
               OpDecorate %gsize LinkageAttributes "__spirv_BuiltInGlobalSize" Import
               OpDecorate %gsize BuiltIn GlobalSize
               OpDecorate %gsize Constant
               OpDecorate %f LinkageAttributes "f" Export
      %ulong = OpTypeInt 64 0
         %v3 = OpTypeVector %ulong 3
     %in_ptr = OpTypePointer Input %v3
       %f_ty = OpTypeFunction %ulong %ulong
        %gid = OpVariable %in_ptr Input
      %gsize = OpVariable %in_ptr Input
          %f = OpFunction %ulong None %f_ty
          %p = OpFunctionParameter %ulong
          %l = OpLabel
          %v = OpLoad %v3 %gid
          %x = OpCompositeExtract %ulong %v 0
          %s = OpLoad %v3 %gsize
          %n = OpCompositeExtract %ulong %s 0
         %px = OpIAdd %ulong %p %x
          %r = OpIAdd %ulong %px %n
               OpReturnValue %r
               OpFunctionEnd
"#;

/// An import of a built-in variable names nothing another module exports: the environment
/// provides it (spirv-link skips such symbols too). Linking a.spv with b.spv, where both import
/// `__spirv_BuiltInGlobalInvocationId` and b also `__spirv_BuiltInGlobalSize`, needs no
/// `--allow-partial`; the two declarations of one built-in become one variable; nothing is listed
/// as unresolved; without `--allow-partial` the output keeps no import, so it has no linkage and
/// no Linkage capability left (as spirv-link's output); with it, the built-in imports stay, once
/// each. Both outputs pass spirv-val — GlobalSize is used only by b's f, so the SPIR-V 1.4 interface
/// of a's kernel must gain it — and the kernel computes f(0) = 0 + 0 + 1 = 1 (one work item).
#[test]
fn builtin_imports_need_no_export() {
    let tmp = tmpdir("builtin");
    for (name, text) in [("a", BUILTIN_A), ("b", BUILTIN_B)] {
        let asm = tmp.join(format!("{name}.spvasm"));
        std::fs::write(&asm, text).unwrap();
        let spv = common::assemble(&asm);
        common::spirv_val(&spv, "spv1.4", &format!("the hand-written module {name}"));
        std::fs::write(tmp.join(format!("{name}.spv")), spv).unwrap();
    }
    let run_json = tmp.join("run.json");
    let doc = json!({"images": [{"image": 0, "kernel": "k", "nbuf": 1,
        "overrides": [{}], "expect": [["0100000000000000"]]}]});
    std::fs::write(&run_json, serde_json::to_string_pretty(&doc).unwrap()).unwrap();

    let mut failures = Vec::new();
    for partial in [false, true] {
        let mut args = vec!["a.spv", "b.spv", "--validate", "-o", "out.spv"];
        args.extend(["--prop", "out.prop", "--json", "out.json"]);
        if partial {
            args.push("--allow-partial");
        }
        let what = format!("spec-link {}", args.join(" "));
        let out = spec_link(&tmp, &args);
        if !succeeded(&what, &out, &mut failures) {
            continue;
        }
        let module = std::fs::read(tmp.join("out.spv")).unwrap();
        if let Some(e) = val_error(&module, "spv1.4") {
            failures.push(format!("{what}: output fails spirv-val: {e}"));
        }
        let s = Summary::of(&module);
        let mut per_builtin: BTreeMap<u32, usize> = BTreeMap::new();
        for (_, b) in &s.builtins {
            *per_builtin.entry(*b).or_default() += 1;
        }
        // GlobalInvocationId = 28, GlobalSize = 31: one variable each.
        if per_builtin != BTreeMap::from([(28, 1), (31, 1)]) {
            failures.push(format!(
                "{what}: BuiltIn decorations per built-in: {per_builtin:?}, expected one each of 28 and 31"
            ));
        }
        let expected_imports: BTreeMap<String, usize> = if partial {
            BTreeMap::from([
                ("__spirv_BuiltInGlobalInvocationId".to_string(), 1),
                ("__spirv_BuiltInGlobalSize".to_string(), 1),
            ])
        } else {
            BTreeMap::new()
        };
        if s.builtin_imports() != expected_imports {
            failures.push(format!(
                "{what}: built-in imports {:?}, expected {expected_imports:?}",
                s.builtin_imports()
            ));
        }
        if partial != s.capabilities.contains(&SPV_CAPABILITY_LINKAGE)
            || (!partial && !s.linkage.is_empty())
        {
            failures.push(format!(
                "{what}: Linkage capability {}, linkage decorations {:?}",
                s.capabilities.contains(&SPV_CAPABILITY_LINKAGE),
                s.linkage
            ));
        }
        let sidecar: Value =
            serde_json::from_slice(&std::fs::read(tmp.join("out.json")).unwrap()).unwrap();
        if sidecar["unresolved_imports"] != json!([]) {
            failures.push(format!(
                "{what}: unresolved_imports {}",
                sidecar["unresolved_imports"]
            ));
        }
        // No spec constants in these modules: the harness runs the kernel as it is.
        failures.extend(check_runs(
            &what,
            &tmp.join("out.spv"),
            &run_json,
            &["--no-spec"],
        ));
    }
    assert_no_failures(&failures);
}

/// Every device library module, on its own, comes out byte-identical in every mode: they call
/// no marker.
#[test]
fn device_libraries_pass_through_unchanged() {
    let dir = devicelib();
    let tmp = tmpdir("devicelib-alone");
    let mut modules: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    modules.sort();
    assert!(
        modules.len() >= 20,
        "only {} modules in {}",
        modules.len(),
        dir.display()
    );
    let mut failures = Vec::new();
    for m in &modules {
        let input = std::fs::read(m).unwrap();
        for mode in ["native", "emulation", "default-values"] {
            let out = tmp.join("out.spv");
            let o = spec_link(
                &tmp,
                &[
                    m.to_str().unwrap(),
                    "--spec-const",
                    mode,
                    "--no-validate",
                    "-o",
                    out.to_str().unwrap(),
                ],
            );
            let name = m.file_name().unwrap().to_string_lossy();
            if !o.status.success() {
                failures.push(format!(
                    "{name} {mode}: exit {:?}\n{}",
                    o.status.code(),
                    stderr(&o)
                ));
            } else if std::fs::read(&out).unwrap() != input {
                failures.push(format!("{name} {mode}: output differs from the input"));
            }
        }
    }
    assert_no_failures(&failures);
}

/// Each wrapper library linked with the libraries that implement what it imports, as a library
/// (`--create-library --allow-partial`), the way a toolchain would prelink them. Checked against
/// the inputs' own linkage, read apart from spec-link: the output exports every name an input
/// exports; it imports exactly the names imported and exported by no input (the sidecar's
/// `unresolved_imports` lists the same but the LLVM intrinsics `llvm.*` and the device library's
/// entry points `__devicelib_*`, which the environment provides), built-in variables apart, which stay imported once each;
/// and it passes spirv-val unless an input fails it the same way.
#[test]
fn device_libraries_link_with_their_implementations() {
    let tmp = tmpdir("devicelib-link");
    let groups: [&[&str]; 11] = [
        &["crt", "fallback-cassert", "fallback-cstring"],
        // Both fallbacks export the translator's `spirv.llvm_fshl_i32`: copies, merged.
        &["imf", "imf-fp64", "fallback-imf", "fallback-imf-fp64"],
        &["cmath", "fallback-cmath"],
        &["cmath-fp64", "fallback-cmath-fp64"],
        &["complex", "fallback-complex"],
        &["complex-fp64", "fallback-complex-fp64"],
        &["imf", "fallback-imf"],
        &["imf-fp64", "fallback-imf-fp64"],
        &["imf-bf16", "fallback-imf-bf16"],
        &["itt-compiler-wrappers", "itt-stubs"],
        &["itt-user-wrappers", "itt-stubs"],
    ];
    let mut failures = Vec::new();
    for group in groups {
        let paths: Vec<PathBuf> = group.iter().map(|g| devicelib_module(g)).collect();
        let inputs: Vec<(String, Vec<u8>)> = paths
            .iter()
            .map(|p| (p.display().to_string(), std::fs::read(p).unwrap()))
            .collect();
        let summaries: Vec<Summary> = inputs.iter().map(|(_, b)| Summary::of(b)).collect();
        let exported: BTreeSet<String> = summaries
            .iter()
            .flat_map(|s| s.symbols(LINK_EXPORT))
            .collect();
        let imported: BTreeSet<String> = summaries
            .iter()
            .flat_map(|s| s.symbols(LINK_IMPORT))
            .filter(|n| !exported.contains(n))
            .collect();
        let builtins: BTreeMap<String, usize> = summaries
            .iter()
            .flat_map(|s| s.builtin_imports().into_keys())
            .map(|n| (n, 1))
            .collect();

        let mut args: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
        args.extend(["--create-library", "--allow-partial", "--no-validate"]);
        args.extend(["-o", "out.spv", "--json", "out.json"]);
        let what = format!("spec-link {}", group.join(" + "));
        let out = spec_link(&tmp, &args);
        if !succeeded(&what, &out, &mut failures) {
            continue;
        }
        let module = std::fs::read(tmp.join("out.spv")).unwrap();
        let s = Summary::of(&module);
        if s.symbols(LINK_EXPORT) != exported {
            failures.push(format!(
                "{what}: exports differ: missing {:?}, extra {:?}",
                exported
                    .difference(&s.symbols(LINK_EXPORT))
                    .collect::<Vec<_>>(),
                s.symbols(LINK_EXPORT)
                    .difference(&exported)
                    .collect::<Vec<_>>()
            ));
        }
        if s.symbols(LINK_IMPORT) != imported {
            failures.push(format!(
                "{what}: imports {:?}, expected {imported:?}",
                s.symbols(LINK_IMPORT)
            ));
        }
        if s.builtin_imports() != builtins {
            failures.push(format!(
                "{what}: built-in imports {:?}, expected {builtins:?}",
                s.builtin_imports()
            ));
        }
        let sidecar: Value =
            serde_json::from_slice(&std::fs::read(tmp.join("out.json")).unwrap()).unwrap();
        let listed: BTreeSet<String> = sidecar["unresolved_imports"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        // (LLVM intrinsics and the device library's entry points stay imports, but the
        // environment provides them: not unresolved.)
        let unresolved: BTreeSet<String> = imported
            .iter()
            .filter(|n| !n.starts_with("llvm.") && !n.starts_with("__devicelib_"))
            .cloned()
            .collect();
        if listed != unresolved {
            failures.push(format!(
                "{what}: unresolved_imports {listed:?}, expected {unresolved:?}"
            ));
        }
        let named: Vec<(&str, &[u8])> = inputs
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        if let Err(e) = valid_or_inherited(&module, "spv1.4", &named) {
            failures.push(format!("{what}: output fails spirv-val: {e}"));
        }
    }
    assert_no_failures(&failures);
}

/// Kernels that call into the device libraries (`testdata/clang-devicelib`: C math through
/// libsycl-cmath + its fallback; memset/memcpy/memcmp and `__assert_fail` through libsycl-crt +
/// the cstring and cassert fallbacks), each reading a spec constant, linked without
/// `--allow-partial` (the kernels and libsycl-crt import built-in variables, which no module
/// exports), native and emulation: every output passes spirv-val, has no linkage left, and
/// computes the values derived by hand in `<case>.run.json` on the Intel CPU OpenCL runtime.
#[test]
fn kernels_linked_with_device_libraries_run() {
    let dir = common::repo().join("testdata/clang-devicelib");
    let tmp = tmpdir("devicelib-run");
    let mut failures = Vec::new();
    for (case, libs) in [
        ("cmath", &["cmath", "fallback-cmath"][..]),
        ("crt", &["crt", "fallback-cstring", "fallback-cassert"][..]),
    ] {
        let kernel = dir.join(format!("{case}.spv"));
        assert!(
            kernel.is_file(),
            "{} is missing (scripts/gen-clang-testdata.sh clang-devicelib)",
            kernel.display()
        );
        let libs: Vec<PathBuf> = libs.iter().map(|l| devicelib_module(l)).collect();
        for mode in ["native", "emulation"] {
            let (spv, prop, js) = (
                tmp.join(format!("{case}.{mode}.spv")),
                tmp.join(format!("{case}.{mode}.prop")),
                tmp.join(format!("{case}.{mode}.json")),
            );
            let mut args = vec![kernel.to_str().unwrap()];
            args.extend(libs.iter().map(|l| l.to_str().unwrap()));
            args.extend([
                "--spec-const",
                mode,
                "--validate",
                "-o",
                spv.to_str().unwrap(),
            ]);
            args.extend([
                "--prop",
                prop.to_str().unwrap(),
                "--json",
                js.to_str().unwrap(),
            ]);
            let what = format!("{case} + {} libraries, {mode}", libs.len());
            let out = spec_link(&tmp, &args);
            if !succeeded(&what, &out, &mut failures) {
                continue;
            }
            let module = std::fs::read(&spv).unwrap();
            if let Some(e) = val_error(&module, "spv1.4") {
                failures.push(format!("{what}: output fails spirv-val: {e}"));
            }
            let s = Summary::of(&module);
            if !s.linkage.is_empty() || s.capabilities.contains(&SPV_CAPABILITY_LINKAGE) {
                failures.push(format!("{what}: linkage left: {:?}", s.linkage));
            }
            let spec = if mode == "native" {
                ["--prop", prop.to_str().unwrap()]
            } else {
                ["--emulation-json", js.to_str().unwrap()]
            };
            failures.extend(check_runs(
                &what,
                &spv,
                &dir.join(format!("{case}.run.json")),
                &spec,
            ));
        }
    }
    assert_no_failures(&failures);
}

/// One module of `copies_of_an_export_merge`: kernel `kernel` stores `helper(1)` to its argument;
/// `helper` (exported) adds GlobalInvocationId.x, and `extra` when DPC++'s ITT flag (the spec
/// constant of SpecId 0xFF747469, default `itt`) is set, calling `stub` (exported too).
fn itt_module(kernel: &str, extra: u32, itt: bool) -> String {
    format!(
        r#"
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "{kernel}" %gid
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
               OpDecorate %helper LinkageAttributes "helper" Export
               OpDecorate %stub LinkageAttributes "stub" Export
               OpDecorate %flag SpecId 4285822057
      %ulong = OpTypeInt 64 0
       %bool = OpTypeBool
         %v3 = OpTypeVector %ulong 3
     %in_ptr = OpTypePointer Input %v3
     %cw_ptr = OpTypePointer CrossWorkgroup %ulong
       %void = OpTypeVoid
       %h_ty = OpTypeFunction %ulong %ulong
       %k_ty = OpTypeFunction %void %cw_ptr
    %ulong_0 = OpConstant %ulong 0
    %ulong_1 = OpConstant %ulong 1
    %ulong_e = OpConstant %ulong {extra}
       %flag = OpSpecConstant{itt}
        %gid = OpVariable %in_ptr Input
       %stub = OpFunction %ulong None %h_ty
         %sp = OpFunctionParameter %ulong
         %sl = OpLabel
         %sr = OpIAdd %ulong %sp %ulong_e
               OpReturnValue %sr
               OpFunctionEnd
     %helper = OpFunction %ulong None %h_ty
          %p = OpFunctionParameter %ulong
          %l = OpLabel
          %v = OpLoad %v3 %gid
          %x = OpCompositeExtract %ulong %v 0
         %px = OpIAdd %ulong %p %x
          %s = OpFunctionCall %ulong %stub %px
          %r = OpSelect %ulong %flag %s %px
               OpReturnValue %r
               OpFunctionEnd
          %k = OpFunction %void None %k_ty
        %out = OpFunctionParameter %cw_ptr
         %kl = OpLabel
          %y = OpFunctionCall %ulong %helper %ulong_1
               OpStore %out %y
               OpReturn
               OpFunctionEnd
"#,
        itt = if itt { "True %bool" } else { "False %bool" }
    )
}

/// Exports of one name in several inputs are an error unless their definitions are copies of
/// one another (every DPC++ image carries the ITT wrappers and stubs as exports, over the same
/// `SpecId 0xFF747469` flag; two device libraries both define the translator's
/// `spirv.llvm_fshl_i32`): then one copy is kept, with a note — also when the copies call other
/// copies (`helper` calls `stub`, merged after it in name order) and read the ITT flag, which is
/// the runtime's in every input and so no SpecId collision. Copies that differ in a constant, or
/// read an ITT flag of another default, stay an error naming the symbol and both files. The
/// merged output passes spirv-val, keeps one `helper`, one `stub` and one flag, and both kernels
/// run with the values derived by hand (one work item, flag false: helper(1) = 1 + 0).
#[test]
fn copies_of_an_export_merge() {
    let tmp = tmpdir("copies");
    let write = |name: &str, text: String| {
        let asm = tmp.join(format!("{name}.spvasm"));
        std::fs::write(&asm, text).unwrap();
        let spv = common::assemble(&asm);
        common::spirv_val(&spv, "spv1.4", &format!("the hand-written module {name}"));
        std::fs::write(tmp.join(format!("{name}.spv")), spv).unwrap();
    };
    write("a", itt_module("ka", 5, false));
    write("b", itt_module("kb", 5, false));
    write("c", itt_module("kc", 6, false)); // stub adds 6: a different definition
    write("d", itt_module("kd", 5, true)); // the ITT flag's default differs

    let out = spec_link(&tmp, &["a.spv", "b.spv", "--validate", "-o", "ab.spv"]);
    assert!(
        out.status.success(),
        "spec-link a.spv b.spv: exit {:?}\n{}",
        out.status.code(),
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("2 symbol(s) exported by several inputs with the same definition, one copy kept: \"helper\", \"stub\""),
        "no note of the merged copies:\n{}",
        stderr(&out)
    );
    let module = std::fs::read(tmp.join("ab.spv")).unwrap();
    if let Some(e) = val_error(&module, "spv1.4") {
        panic!("a.spv + b.spv: output fails spirv-val: {e}");
    }
    let s = Summary::of(&module);
    assert_eq!(
        s.functions.len(),
        4,
        "helper, stub, ka and kb: {:?}",
        s.functions
    );
    assert_eq!(s.entry_points, ["ka", "kb"]);
    assert_eq!(s.spec_ids.len(), 1, "one ITT flag: {:?}", s.spec_ids);
    let run_json = tmp.join("run.json");
    let doc = json!({"images": [
        {"image": 0, "kernel": "ka", "nbuf": 1, "overrides": [{}], "expect": [["0100000000000000"]]},
        {"image": 1, "kernel": "kb", "nbuf": 1, "overrides": [{}], "expect": [["0100000000000000"]]}]});
    std::fs::write(&run_json, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let failures = check_runs(
        "a.spv + b.spv",
        &tmp.join("ab.spv"),
        &run_json,
        &["--no-spec"],
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));

    for (other, symbol) in [("c.spv", "stub"), ("d.spv", "helper")] {
        let out = spec_link(&tmp, &["a.spv", other, "-o", "bad.spv"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "a.spv + {other}:\n{err}");
        assert!(
            err.contains(&format!(
                "error: symbol \"{symbol}\" is exported by a.spv and {other}"
            )),
            "a.spv + {other}: {err}"
        );
        assert!(
            !tmp.join("bad.spv").exists(),
            "a.spv + {other}: output written"
        );
    }
}

/// DPC++ 2026.2 marks each device global with llvm-spirv's internal `HostAccessINTEL` (6147: an
/// access and a name), a decoration no grammar knows: two of its modules link (as `OpDecorate`
/// takes only literal parameters, its target is the one id), the decorations land on the same
/// variables (by name), and the output fails spirv-val only as the inputs do (DPC++'s internal
/// capability 6146).
#[test]
fn dpcpp_device_globals_link() {
    /// (variable name, decoration parameters) of every 6147 decoration of a module.
    fn host_access(bytes: &[u8]) -> Vec<(String, Vec<u32>)> {
        let words = common::words(bytes);
        let mut names = std::collections::HashMap::new();
        let mut decorations = Vec::new();
        let mut at = 5;
        while at < words.len() {
            let n = (words[at] >> 16) as usize;
            let w = &words[at..at + n];
            match w[0] & 0xffff {
                5 => {
                    let text: Vec<u8> = w[2..].iter().flat_map(|x| x.to_le_bytes()).collect();
                    let end = text.iter().position(|&b| b == 0).unwrap();
                    names.insert(w[1], String::from_utf8_lossy(&text[..end]).into_owned());
                }
                71 if w[2] == 6147 => decorations.push((w[1], w[3..].to_vec())),
                _ => {}
            }
            at += n;
        }
        let mut out: Vec<(String, Vec<u32>)> = decorations
            .into_iter()
            .map(|(target, params)| (names[&target].clone(), params))
            .collect();
        out.sort();
        out
    }
    let tmp = tmpdir("dpcpp-device-globals");
    let cases = common::repo().join("testdata/postlink");
    let with_globals = cases.join("devglobal/off/image0.spv");
    let other = cases.join("dynlink-provider/off/image0.spv");
    let out = spec_link(
        &tmp,
        &[
            with_globals.to_str().unwrap(),
            other.to_str().unwrap(),
            "-o",
            "linked.spv",
            "--validate",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("as the input does"),
        "{}",
        stderr(&out)
    );
    let before = host_access(&std::fs::read(&with_globals).unwrap());
    assert!(before.len() >= 3, "{before:?}");
    assert_eq!(
        host_access(&std::fs::read(tmp.join("linked.spv")).unwrap()),
        before
    );
}

/// DPC++'s ESIMD and SYCL images of one source import what the environment provides and no
/// module defines: `esimd-slm`'s ESIMD image LLVM GenX intrinsics (`llvm.genx.barrier`,
/// `llvm.genx.fence`, which Intel's vector-compute back end implements), `esimd-assert`'s SYCL
/// image the device library's `__devicelib_assert_fail`. They link without `--allow-partial`,
/// stay imports (one declaration each: its OpName and its Import) and are not reported
/// unresolved; an ordinary missing symbol still is an error (`link-unresolved`).
#[test]
fn imports_the_environment_provides_stay() {
    let cases: [(&str, &[&str]); 2] = [
        ("esimd-slm", &["llvm.genx.barrier", "llvm.genx.fence"]),
        ("esimd-assert", &["__devicelib_assert_fail"]),
    ];
    for (case, names) in cases {
        let tmp = tmpdir(&format!("environment-imports-{case}"));
        let off = common::repo()
            .join("testdata/postlink")
            .join(case)
            .join("off");
        let out = spec_link(
            &tmp,
            &[
                off.join("image0.spv").to_str().unwrap(),
                off.join("image1.spv").to_str().unwrap(),
                "-o",
                "linked.spv",
                "--json",
                "linked.json",
                "--no-validate",
            ],
        );
        assert!(out.status.success(), "{case}: {}", stderr(&out));
        let text =
            String::from_utf8_lossy(&std::fs::read(tmp.join("linked.spv")).unwrap()).into_owned();
        let json = std::fs::read_to_string(tmp.join("linked.json")).unwrap();
        for name in names {
            assert_eq!(
                text.matches(name).count(),
                2,
                "{case}: {name}: its OpName and its Import"
            );
            assert!(!json.contains(name), "{case}: {json}");
        }
    }
}

/// One kernel module whose kernel `kernel` reads spec constant "A" with default `default`.
fn spec_constant_a_module(kernel: &str, default: u32) -> String {
    format!(
        r#"OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpCapability Int64
OpCapability Int8
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "{kernel}"
OpName %get "_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_"
OpDecorate %get LinkageAttributes "_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_" Import
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%void = OpTypeVoid
%ulong_2 = OpConstant %ulong 2
%uchar_65 = OpConstant %uchar 65
%uchar_0 = OpConstant %uchar 0
%uint_d = OpConstant %uint {default}
%str2 = OpTypeArray %uchar %ulong_2
%ptr_CW_str2 = OpTypePointer CrossWorkgroup %str2
%ptr_G_uint = OpTypePointer Generic %uint
%ptr_G_uchar = OpTypePointer Generic %uchar
%ptr_CW_uint = OpTypePointer CrossWorkgroup %uint
%fn_int = OpTypeFunction %uint %ptr_G_uchar %ptr_G_uchar %ptr_G_uchar
%fn_k = OpTypeFunction %void %ptr_CW_uint
%s = OpConstantComposite %str2 %uchar_65 %uchar_0
%usid = OpVariable %ptr_CW_str2 CrossWorkgroup %s
%idvar = OpVariable %ptr_CW_uint CrossWorkgroup %uint_d
%null = OpConstantNull %ptr_G_uchar
%get = OpFunction %uint None %fn_int
%a0 = OpFunctionParameter %ptr_G_uchar
%a1 = OpFunctionParameter %ptr_G_uchar
%a2 = OpFunctionParameter %ptr_G_uchar
OpFunctionEnd
%k = OpFunction %void None %fn_k
%out = OpFunctionParameter %ptr_CW_uint
%e = OpLabel
%g = OpPtrCastToGeneric %ptr_G_uchar %usid
%c1 = OpPtrCastToGeneric %ptr_G_uint %idvar
%c2 = OpBitcast %ptr_G_uchar %c1
%v = OpFunctionCall %uint %get %g %c2 %null
OpStore %out %v
OpReturn
OpFunctionEnd
"#
    )
}

/// Two linked inputs that give one symbolic ID different defaults (an ODR violation) get a
/// warning naming it; the same default in both gets none. The first call's default is used.
#[test]
fn two_defaults_for_one_symbolic_id_are_named() {
    let tmp = common::Scratch::new("spec-link-two-defaults");
    let write = |name: &str, kernel: &str, default: u32| {
        let text = tmp.join(format!("{name}.spvasm"));
        std::fs::write(&text, spec_constant_a_module(kernel, default)).unwrap();
        let spv = tmp.join(format!("{name}.spv"));
        std::fs::write(&spv, common::assemble(&text)).unwrap();
        spv.display().to_string()
    };
    let (a7, b8, b7) = (
        write("a7", "ka", 7),
        write("b8", "kb", 8),
        write("b7", "kb", 7),
    );
    let run = |b: &str, out: &str| {
        let prop = tmp.join(format!("{out}.prop")).display().to_string();
        let o = spec_link(&tmp, &[&a7, b, "-o", out, "--prop", &prop]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (
            String::from_utf8_lossy(&o.stderr).into_owned(),
            std::fs::read_to_string(&prop).unwrap(),
        )
    };
    let warning = "spec constant \"A\" has two default values";
    let (differ, prop) = run(&b8, "differ.spv");
    assert_eq!(differ.matches(warning).count(), 1, "{differ}");
    assert!(differ.contains("warning:"), "{differ}");
    // (The default blob holds the first call's 7.)
    let (same, same_prop) = run(&b7, "same.spv");
    assert!(!same.contains(warning), "{same}");
    assert_eq!(prop, same_prop);
}

/// Libraries linked without `--create-library`: no input has an entry point, so the exports
/// would lose their linkage and leave nothing to call; an error says so (and writes nothing);
/// with `--create-library` they link.
#[test]
fn libraries_without_create_library_are_refused_with_the_way_out() {
    let tmp = tmpdir("no-entry-point");
    let (a, b) = (
        devicelib_module("fallback-cmath"),
        devicelib_module("fallback-complex"),
    );
    let (a, b) = (a.display().to_string(), b.display().to_string());
    let o = spec_link(&tmp, &[&a, &b, "-o", "lib.spv"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no input has an entry point")
            && stderr(&o).contains("--create-library"),
        "{}",
        stderr(&o)
    );
    assert!(!tmp.join("lib.spv").exists());
    let o = spec_link(&tmp, &[&a, &b, "-o", "lib.spv", "--create-library"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The second input of [`alias_scope_lists_of_memory_operands_are_renumbered`]: `f` loads and
/// stores with the Intel alias scope lists of `SPV_INTEL_memory_access_aliasing` (llvm-spirv's
/// translation of `!alias.scope` / `!noalias`), declared after the names as llvm-spirv writes
/// them.
const ALIASING_HELPER: &str = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpCapability MemoryAccessAliasingINTEL
               OpExtension "SPV_INTEL_memory_access_aliasing"
               OpMemoryModel Physical64 OpenCL
               OpName %f "f"
        %dom = OpAliasDomainDeclINTEL
      %scope = OpAliasScopeDeclINTEL %dom
       %list = OpAliasScopeListDeclINTEL %scope
               OpDecorate %f LinkageAttributes "f" Export
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %ptr = OpTypePointer CrossWorkgroup %uint
        %fnk = OpTypeFunction %void %ptr
          %f = OpFunction %void None %fnk
          %p = OpFunctionParameter %ptr
          %e = OpLabel
          %v = OpLoad %uint %p Aligned|NoAliasINTELMask 4 %list
               OpStore %p %v Aligned|AliasScopeINTELMask 4 %list
               OpReturn
               OpFunctionEnd
"#;

/// The ids memory operands take are renumbered with the rest of their module: linked after a
/// kernel that calls it, the helper's load and store still name its alias scope list (not
/// whatever id of the output has the list's number in the helper), and the declarations stay
/// after the debug names.
#[test]
fn alias_scope_lists_of_memory_operands_are_renumbered() {
    let dir = tmpdir("aliasing");
    let kernel = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorate %f LinkageAttributes "f" Import
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %ptr = OpTypePointer CrossWorkgroup %uint
        %fnk = OpTypeFunction %void %ptr
          %f = OpFunction %void None %fnk
         %fp = OpFunctionParameter %ptr
               OpFunctionEnd
          %k = OpFunction %void None %fnk
          %p = OpFunctionParameter %ptr
          %e = OpLabel
          %r = OpFunctionCall %void %f %p
               OpReturn
               OpFunctionEnd
"#;
    for (name, text) in [("a", kernel), ("b", ALIASING_HELPER)] {
        let asm = dir.join(format!("{name}.spvasm"));
        std::fs::write(&asm, text).unwrap();
        std::fs::write(dir.join(format!("{name}.spv")), common::assemble(&asm)).unwrap();
    }
    let out = spec_link(&dir, &["a.spv", "b.spv", "-o", "out.spv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(dir.join("out.spv")).unwrap();
    let dis = common::tool("spirv-dis", &["--raw-id", "-", "-o", "-"], Some(&bytes));
    assert!(dis.status.success(), "spirv-dis failed:\n{}", stderr(&dis));
    let text = String::from_utf8(dis.stdout).unwrap();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let at = |needle: &str| lines.iter().position(|l| l.contains(needle));
    let list_line = at("OpAliasScopeListDeclINTEL").expect("the alias scope list is kept");
    let list = lines[list_line].split(" = ").next().unwrap();
    for access in [
        format!("Aligned|NoAliasINTELMask 4 {list}"),
        format!("Aligned|AliasScopeINTELMask 4 {list}"),
    ] {
        assert!(
            lines.iter().any(|l| l.ends_with(&access)),
            "no memory access ending in `{access}`:\n{text}"
        );
    }
    let last_name = lines.iter().rposition(|l| l.starts_with("OpName")).unwrap();
    let first_type = at("= OpType").unwrap();
    let domain = at("OpAliasDomainDeclINTEL").unwrap();
    assert!(
        last_name < domain && list_line < first_type,
        "the alias declarations moved:\n{text}"
    );
    assert!(undefined_ids(&bytes).is_empty(), "{text}");
    // (Debian's spirv-val does not know where the declarations go: the helper fails it so too.)
    let helper = std::fs::read(dir.join("b.spv")).unwrap();
    let env = common::kernel_target_env((bytes[6], bytes[5]));
    if let Err(e) = valid_or_inherited(&bytes, &env, &[("b.spv", &helper)]) {
        panic!("the linked module fails spirv-val as no input does: {e}");
    }
}

/// The LLVM/SPIR-V Translator writes a `DebugLocalVariable`'s argument number
/// (`NonSemantic.Shader.DebugInfo.200`, DPC++ with `-g`) as a literal where the set has an id, and
/// reads it back so: linked after another input, whose ids come first, DPC++'s `dgscope-debug`
/// image (a 30-parameter kernel: numbers 1 to 30, 9 and 25 equal to the ids of a global and a
/// function) keeps every argument number, not shifted as its ids are. The other input, written
/// by LLVM's SPIR-V backend, has no such record.
#[test]
fn translator_debug_argument_numbers_are_not_renumbered() {
    let tmp = tmpdir("argnumbers");
    let first = common::repo().join("testdata/dpcpp-backend/twokernels-g/image.input.spv");
    let dpcpp = common::repo().join("testdata/postlink/dgscope-debug/off/image0.spv");
    let out = tmp.join("out.spv");
    let o = spec_link(
        &tmp,
        &[
            first.to_str().unwrap(),
            dpcpp.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--validate",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let before = common::debug_argument_numbers(&std::fs::read(&dpcpp).unwrap());
    assert!(
        common::debug_argument_numbers(&std::fs::read(&first).unwrap()).is_empty(),
        "the first input has argument numbers of its own"
    );
    assert!(
        (1..=30).all(|n| before.contains(&n)),
        "dgscope-debug's kernel no longer has 30 numbered parameters: {before:?}"
    );
    let after = common::debug_argument_numbers(&std::fs::read(&out).unwrap());
    assert_eq!(after, before);
}
