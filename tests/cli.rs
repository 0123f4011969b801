//! The command-line contract: exit codes, `error: …` messages, no output written on failure,
//! stdin/stdout, byte order, usage errors, help.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spec-link"))
}

/// A scratch directory of this test process, removed afterwards unless the test fails.
fn tmpdir(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("spec-link-cli-{}-{name}", std::process::id()))
}

/// The names in `dir`, sorted.
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs `spec-link INPUT -o OUT --no-validate EXTRA…` and requires success.
fn lower_ok(input: &Path, out: &Path, extra: &[&str]) {
    let o = bin()
        .arg(input)
        .arg("-o")
        .arg(out)
        .arg("--no-validate")
        .args(extra)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{} -o {}: {}",
        input.display(),
        out.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn example_text() -> String {
    std::fs::read_to_string(common::repo().join("testdata/readme-example/input.spvasm")).unwrap()
}

fn example_bytes() -> Vec<u8> {
    common::assemble(&common::repo().join("testdata/readme-example/input.spvasm"))
}

fn assemble_text(text: &str, dir: &Path) -> Vec<u8> {
    let p = dir.join("in.spvasm");
    std::fs::write(&p, text).unwrap();
    common::assemble(&p)
}

/// Runs spec-link on `input` bytes with outputs in `dir`; pre-creates the output files with
/// sentinel contents so that "not modified" can be checked.
fn run_with_outputs(input: &[u8], dir: &Path, extra: &[&str]) -> Output {
    let inp = dir.join("input.spv");
    std::fs::write(&inp, input).unwrap();
    for f in ["out.spv", "out.prop", "out.json"] {
        std::fs::write(dir.join(f), b"sentinel").unwrap();
    }
    bin()
        .arg(&inp)
        .arg("-o")
        .arg(dir.join("out.spv"))
        .arg("--prop")
        .arg(dir.join("out.prop"))
        .arg("--json")
        .arg(dir.join("out.json"))
        .args(extra)
        .output()
        .unwrap()
}

/// Checks a processing error: exit 1, `error: <substring>` on stderr, outputs untouched, no
/// temporary files left.
fn expect_error(name: &str, input: &[u8], substring: &str) {
    expect_error_with(name, input, &[], substring)
}

fn expect_error_with(name: &str, input: &[u8], args: &[&str], substring: &str) {
    let dir = tmpdir(name);
    let out = run_with_outputs(input, &dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{name}: exit status; stderr: {stderr}"
    );
    assert!(
        stderr.starts_with("error: "),
        "{name}: stderr does not start with 'error: ': {stderr}"
    );
    assert!(
        stderr.contains(substring),
        "{name}: expected '{substring}' in: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{name}: panic: {stderr}");
    for f in ["out.spv", "out.prop", "out.json"] {
        assert_eq!(
            std::fs::read(dir.join(f)).unwrap(),
            b"sentinel",
            "{name}: {f} was modified"
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "{name}: temporary files left: {leftovers:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

use common::{bytes, words};

/// Offsets of the instructions of a module.
fn inst_offsets(w: &[u32]) -> Vec<usize> {
    let mut at = 5;
    let mut v = Vec::new();
    while at < w.len() {
        v.push(at);
        at += (w[at] >> 16) as usize;
    }
    v
}

#[test]
fn binary_level_errors() {
    let good = example_bytes();
    expect_error("empty", b"", "the input is empty");
    expect_error("short", &good[..12], "shorter than the 20-byte header");
    let mut magic = good.clone();
    magic[0] = 0x42;
    expect_error("magic", &magic, "wrong magic number");
    expect_error(
        "unaligned",
        &good[..good.len() - 2],
        "not a whole number of 32-bit words",
    );
    let w = words(&good);
    let offs = inst_offsets(&w);
    let mut zero = w.clone();
    zero[offs[3]] &= 0xffff;
    expect_error("word-count-zero", &bytes(&zero), "word count is 0");
    let mut past = w.clone();
    let last = *offs.last().unwrap();
    past[last] = (past[last] & 0xffff) | (50 << 16);
    expect_error("word-count-past-end", &bytes(&past), "runs past the end");
    expect_error(
        "truncated-at-boundary",
        &good[..good.len() - 8],
        "the last function has no OpFunctionEnd",
    );
    let long = *offs.iter().rev().find(|&&o| (w[o] >> 16) >= 3).unwrap();
    expect_error(
        "truncated-mid-instruction",
        &good[..(long + 2) * 4],
        "runs past the end",
    );
    // An OpName whose string has no terminator inside the instruction.
    let mut name = w.clone();
    let n = offs.iter().copied().find(|&o| w[o] & 0xffff == 5).unwrap();
    let len = (w[n] >> 16) as usize;
    for k in 2..len {
        name[n + k] = 0x4141_4141;
    }
    expect_error("unterminated-name", &bytes(&name), "unterminated string");
    // Two instructions defining the same id.
    let mut twice = w.clone();
    let consts: Vec<usize> = offs
        .iter()
        .copied()
        .filter(|&o| w[o] & 0xffff == 43)
        .take(2)
        .collect();
    twice[consts[1] + 2] = w[consts[0] + 2];
    expect_error("defined-twice", &bytes(&twice), "is defined twice");
    // A bound that leaves no room for new ids.
    let mut bound = w.clone();
    bound[3] = u32::MAX;
    expect_error("bound-overflow", &bytes(&bound), "id bound overflow");
    // An id at or above the declared bound.
    let mut low = w.clone();
    low[3] = 10;
    expect_error(
        "id-above-bound",
        &bytes(&low),
        "not below the module's id bound",
    );
}

#[test]
fn marker_errors() {
    let dir = tmpdir("marker-errors");
    let text = example_text();
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "arg-not-global",
            "%c0 = OpBitcast %ptr_Generic_uchar %usid_int",
            "%c0 = OpBitcast %ptr_Generic_uchar %null",
            "SymbolicID argument %",
        ),
        (
            "two-types",
            "%d0 = OpBitcast %ptr_Generic_uchar %usid_pair",
            "%d0 = OpBitcast %ptr_Generic_uchar %usid_int",
            "is used with two types: i32",
        ),
        (
            "pointer-leaf",
            "%struct_Pair = OpTypeStruct %uint %uchar",
            "%struct_Pair = OpTypeStruct %uint %ptr_Generic_uchar",
            "unsupported leaf type",
        ),
        (
            "wrong-arg-count",
            "%value = OpFunctionCall %uint %get_int %c0 %c2 %null",
            "%value = OpFunctionCall %uint %get_int %c0 %c2",
            "passes 2 arguments",
        ),
        (
            "no-nul",
            "%s_int = OpConstantComposite %str4 %uchar_65 %uchar_73 %uchar_66 %uchar_0",
            "%s_int = OpConstantComposite %str4 %uchar_65 %uchar_73 %uchar_66 %uchar_65",
            "is not NUL-terminated",
        ),
        (
            "not-8-bit",
            "%s_int = OpConstantComposite %str4 %uchar_65 %uchar_73 %uchar_66 %uchar_0",
            "%s_int = OpConstantComposite %str4 %uchar_65 %uchar_73 %uchar_66 %uint_0",
            "is not a string of 8-bit integers",
        ),
        (
            "string-without-initializer",
            "%usid_int = OpVariable %ptr_Generic_str4 Generic %s_int",
            "%usid_int = OpVariable %ptr_Generic_str4 Generic",
            "SymbolicID variable %",
        ),
    ];
    for (name, from, to, expect) in cases {
        assert!(text.contains(from), "{name}: pattern not in the example");
        let bytes = assemble_text(&text.replace(from, to), &dir);
        expect_error(name, &bytes, expect);
    }
    // A default-value variable without initializer is undefined (see the test below) unless it
    // is imported: its value is in a module spec-link has not been given.
    let imported = text
        .replace(
            "%intId = OpVariable %ptr_CW_spec_int CrossWorkgroup %init_int",
            "%intId = OpVariable %ptr_CW_spec_int CrossWorkgroup",
        )
        .replace(
            "OpDecorate %sret FuncParamAttr Sret",
            "OpDecorate %sret FuncParamAttr Sret\nOpDecorate %intId LinkageAttributes \"intId\" Import",
        );
    expect_error(
        "imported-default",
        &assemble_text(&imported, &dir),
        "DefaultValue variable %",
    );
    let out = run_with_outputs(&assemble_text(&imported, &dir), &dir, &[]);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("is imported (LinkageAttributes Import) and has no initializer"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Both argument errors of one module are reported together, naming the kernel.
    let both = text
        .replace(
            "%c0 = OpBitcast %ptr_Generic_uchar %usid_int",
            "%c0 = OpBitcast %ptr_Generic_uchar %null",
        )
        .replace(
            "%d0 = OpBitcast %ptr_Generic_uchar %usid_pair",
            "%d0 = OpBitcast %ptr_Generic_uchar %null",
        );
    let out = run_with_outputs(&assemble_text(&both, &dir), &dir, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr
            .matches("does not resolve to a constant global")
            .count(),
        2,
        "{stderr}"
    );
    assert!(stderr.contains("in function K"), "{stderr}");
}

/// A default-value variable without initializer (LLVM's SPIR-V backend writes one so where the
/// LLVM initializer is `undef`) lowers as one whose initializer is `OpUndef`: the same module and
/// property sets, `OpUndef`s aside.
#[test]
fn default_value_without_initializer_is_undefined() {
    let dir = tmpdir("no-initializer");
    let text = example_text();
    let from = "%pairId = OpVariable %ptr_CW_spec_pair CrossWorkgroup %init_pair";
    assert!(text.contains(from));
    // (Both define the OpUndef, so that the ids are the same; unused, it stays.)
    let none = text.replace(
        from,
        "%undef_pair = OpUndef %spec_pair\n%pairId = OpVariable %ptr_CW_spec_pair CrossWorkgroup",
    );
    let undef = text.replace(
        from,
        "%undef_pair = OpUndef %spec_pair\n%pairId = OpVariable %ptr_CW_spec_pair CrossWorkgroup %undef_pair",
    );
    let mut results = Vec::new();
    for (name, text) in [("none", none), ("undef", undef)] {
        let out = run_with_outputs(&assemble_text(&text, &dir), &dir, &["--validate"]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let module = std::fs::read(dir.join("out.spv")).unwrap();
        common::spirv_val(&module, "spv1.4", name);
        let disassembly: String = common::disassemble(&module)
            .lines()
            .filter(|l| !l.contains("OpUndef") && !l.starts_with("; Bound"))
            .map(|l| format!("{l}\n"))
            .collect();
        let prop = std::fs::read_to_string(dir.join("out.prop")).unwrap();
        results.push((disassembly, prop));
    }
    assert_eq!(results[0], results[1]);
    // The struct's first member is a zero leaf; the rest is padding, as DPC++ describes
    // an undefined default.
    assert!(results[0].1.contains("ABA=2|"), "{}", results[0].1);
}

#[test]
fn success_writes_all_outputs_and_stdin_stdout_agree() {
    let dir = tmpdir("ok");
    let input = example_bytes();
    let out = run_with_outputs(&input, &dir, &["--validate"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let module = std::fs::read(dir.join("out.spv")).unwrap();
    common::spirv_val(&module, "spv1.4", "the CLI output");
    assert!(std::fs::read_to_string(dir.join("out.prop"))
        .unwrap()
        .starts_with("[SYCL/specialization constants]"));
    assert!(std::fs::read_to_string(dir.join("out.json"))
        .unwrap()
        .contains("spec-link-sidecar/1"));

    let mut child = bin()
        .args(["-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&input).unwrap();
    }
    let piped = child.wait_with_output().unwrap();
    assert!(
        piped.status.success(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    assert_eq!(
        piped.stdout, module,
        "stdin/stdout output differs from file output"
    );
}

#[test]
fn big_endian_in_big_endian_out() {
    let dir = tmpdir("be");
    let le = example_bytes();
    let be: Vec<u8> = le
        .chunks_exact(4)
        .flat_map(|c| [c[3], c[2], c[1], c[0]])
        .collect();
    let out_le = run_with_outputs(&le, &dir, &[]);
    assert!(out_le.status.success());
    let module_le = std::fs::read(dir.join("out.spv")).unwrap();
    let out_be = run_with_outputs(&be, &dir, &[]);
    assert!(
        out_be.status.success(),
        "{}",
        String::from_utf8_lossy(&out_be.stderr)
    );
    let module_be = std::fs::read(dir.join("out.spv")).unwrap();
    assert_eq!(
        &module_be[..4],
        &[0x07, 0x23, 0x02, 0x03],
        "output is not big-endian"
    );
    let swapped: Vec<u8> = module_be
        .chunks_exact(4)
        .flat_map(|c| [c[3], c[2], c[1], c[0]])
        .collect();
    assert_eq!(swapped, module_le);
}

#[test]
fn module_without_markers_passes_through() {
    let dir = tmpdir("passthrough");
    let fixture = common::fixtures().join("basic/image0.dpcpp-native.spv");
    let input = std::fs::read(&fixture).unwrap();
    // DPC++'s lowered image has no markers (and fails spirv-val on its own): skip validation.
    let out = run_with_outputs(&input, &dir, &["--no-validate"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(dir.join("out.spv")).unwrap(),
        input,
        "a module without markers must be unchanged"
    );
    assert_eq!(
        std::fs::read(dir.join("out.prop")).unwrap(),
        b"",
        "no spec-constant sets without markers"
    );
    // Indexed anyway (--no-pass-through), in every mode: the same bytes.
    for mode in ["native", "emulation", "default-values"] {
        let out = run_with_outputs(
            &input,
            &dir,
            &["--no-validate", "--no-pass-through", "--spec-const", mode],
        );
        assert!(
            out.status.success(),
            "{mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read(dir.join("out.spv")).unwrap(), input, "{mode}");
    }
}

/// A module that names no marker and holds ids at or above its id bound is refused whether it
/// is passed through (streamed, or loaded for validation) or indexed (--no-pass-through), with
/// the same message naming the instruction and the id; nothing is written.
#[test]
fn a_module_without_markers_with_ids_above_its_bound_is_refused_in_every_path() {
    let input = std::fs::read(common::fixtures().join("basic/image0.dpcpp-native.spv")).unwrap();
    let mut w = words(&input);
    w[3] = 2; // the id bound: every id is above it
    let bad = bytes(&w);
    let message = "malformed instruction at word 23 (OpEntryPoint): id %76 is not below the module's id bound 2";
    for (k, args) in [
        &["--no-validate"][..],
        &["--no-validate", "--no-pass-through"],
        &["--validate"],
    ]
    .into_iter()
    .enumerate()
    {
        expect_error_with(&format!("above-bound-{k}"), &bad, args, message);
    }
}

/// An operand id at or above the id bound (`OpStore %137 %140` in a module of bound 139, with
/// markers) is refused at the instruction, in every mode and with or without validation: the
/// new spec constants must never be given an id the input already uses.
#[test]
fn an_operand_id_above_the_bound_is_refused() {
    let input = std::fs::read(common::fixtures().join("basic/image0.input.spv")).unwrap();
    let mut w = words(&input);
    assert_eq!(w[3], 139, "the fixture's id bound");
    let store = inst_offsets(&w)
        .into_iter()
        .find(|&o| w[o] & 0xffff == 62 && w[o + 1] == 137)
        .expect("the fixture stores through %137");
    w[store + 2] = 140;
    let bad = bytes(&w);
    let message = format!(
        "malformed instruction at word {store} (OpStore): id %140 is not below the module's id bound 139"
    );
    for (k, args) in [
        &["--no-validate"][..],
        &["--validate"],
        &[
            "--no-validate",
            "--no-pass-through",
            "--spec-const",
            "emulation",
        ],
        &["--no-validate", "--spec-const", "default-values"],
    ]
    .into_iter()
    .enumerate()
    {
        expect_error_with(&format!("operand-above-bound-{k}"), &bad, args, &message);
    }
}

/// The longest whole-instruction prefix of a module of at most `max_bytes`, its bound kept.
fn cut_at_instruction(module: &[u8], max_bytes: usize) -> Vec<u8> {
    let w = words(module);
    let end = inst_offsets(&w)
        .into_iter()
        .chain([w.len()])
        .take_while(|&o| o * 4 <= max_bytes)
        .last()
        .unwrap();
    module[..end * 4].to_vec()
}

/// A module cut at an instruction boundary (names, decorations and entry points of ids it never
/// defines) is refused: by default (with markers: indexed; without: streamed through), with
/// --no-pass-through and with --validate, naming the first instruction that names a missing id.
#[test]
fn a_module_cut_at_an_instruction_boundary_is_refused() {
    for fixture in ["basic/image0.input.spv", "basic/image0.dpcpp-native.spv"] {
        let input = std::fs::read(common::fixtures().join(fixture)).unwrap();
        let cut = cut_at_instruction(&input, 1000);
        assert!(
            cut.len() > 900 && cut.len() <= 1000,
            "{fixture}: {}",
            cut.len()
        );
        for (k, args) in [
            &[][..],
            &["--no-validate"],
            &["--no-pass-through"],
            &["--validate"],
            &[
                "--validate",
                "--no-pass-through",
                "--spec-const",
                "emulation",
            ],
        ]
        .into_iter()
        .enumerate()
        {
            expect_error_with(
                &format!("cut-{k}"),
                &cut,
                args,
                "is never defined in the module",
            );
        }
    }
}

/// Standard input (read, not mapped) and standard output take the same checks.
#[test]
fn a_cut_module_is_refused_from_standard_input() {
    let input = std::fs::read(common::fixtures().join("basic/image0.dpcpp-native.spv")).unwrap();
    let cut = cut_at_instruction(&input, 1000);
    for output in ["-", "out.spv"] {
        let dir = tmpdir("cut-stdin");
        let mut child = bin()
            .args(["-", "-o", output, "--no-validate"])
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), &cut).unwrap();
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{output}: {stderr}");
        assert!(
            stderr.starts_with("error: <stdin>: malformed instruction at word")
                && stderr.contains("is never defined in the module"),
            "{output}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{output}: something was written");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "{output}");
    }
}

#[test]
fn validation_errors_the_input_already_has_only_warn() {
    // DPC++'s own lowered image has no markers, so the output equals the input, which spirv-val
    // rejects (Generic storage class): the error is the input's, the output is written.
    let dir = tmpdir("inherited");
    let input = std::fs::read(common::fixtures().join("basic/image0.dpcpp-native.spv")).unwrap();
    let out = run_with_outputs(&input, &dir, &["--validate"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.starts_with("warning: the output fails spirv-val"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("warning:").count(), 1, "{stderr}");
    assert_eq!(std::fs::read(dir.join("out.spv")).unwrap(), input);
    let quiet = run_with_outputs(&input, &dir, &["--validate", "-q"]);
    assert!(
        quiet.status.success() && quiet.stderr.is_empty(),
        "-q must silence the warning"
    );
}

#[test]
fn validation_errors_spec_link_introduces_fail() {
    // A stand-in validator that rejects any module with a spec constant: the input (markers
    // only) passes, the output fails, so the error is ours: exit 1, nothing written.
    let dir = tmpdir("introduced-validator");
    let fake = dir.join("fake-spirv-val");
    std::fs::write(
        &fake,
        "#!/bin/sh\n[ \"$1\" = --version ] && exit 0\nif spirv-dis - | grep -q OpSpecConstant; then echo 'error: fake: spec constant found' >&2; exit 1; fi\n",
    )
    .unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&fake)
        .status()
        .unwrap();
    let input = example_bytes();
    let out_dir = tmpdir("introduced");
    let inp = out_dir.join("input.spv");
    std::fs::write(&inp, &input).unwrap();
    std::fs::write(out_dir.join("out.spv"), b"sentinel").unwrap();
    let out = bin()
        .arg(&inp)
        .args(["-o"])
        .arg(out_dir.join("out.spv"))
        .arg("--validate")
        .env("SPEC_LINK_SPIRV_VAL", &fake)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("and the input does not fail that way")
            && stderr.contains("fake: spec constant found"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(out_dir.join("out.spv")).unwrap(), b"sentinel");
}

#[test]
fn validate_without_spirv_val_is_an_error() {
    let dir = tmpdir("no-spirv-val");
    let inp = dir.join("in.spv");
    std::fs::write(&inp, example_bytes()).unwrap();
    let out = bin()
        .arg(&inp)
        .arg("-o")
        .arg(dir.join("out.spv"))
        .arg("--validate")
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("spirv-val is not on PATH"));
    assert!(!dir.join("out.spv").exists());
    // The split's images alike, with either mode; by default a note, and the images are written.
    for (args, code) in [
        (&["--validate"][..], 1),
        (&["--validate=strict"][..], 1),
        (&[][..], 0),
    ] {
        let table = dir.join("split").join("out.table");
        std::fs::create_dir_all(dir.join("split")).unwrap();
        let out = bin()
            .arg(&inp)
            .args(["--split", "per-kernel", "-o"])
            .arg(&table)
            .args(args)
            .env("PATH", "/nonexistent")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(
            stderr.contains("spirv-val is not on PATH"),
            "{args:?}: {stderr}"
        );
        assert_eq!(table.exists(), code == 0, "{args:?}");
        std::fs::remove_dir_all(dir.join("split")).unwrap();
    }
}

/// A validator named by `$SPEC_LINK_SPIRV_VAL` must run, even without `--validate` (a missing
/// `spirv-val` on PATH only skips validation with a note); a target environment spirv-val does
/// not know is an error, not an error "the input has too" (the policy would then pass anything).
#[test]
fn a_named_validator_that_cannot_run_or_an_unknown_target_env_is_an_error() {
    let dir = tmpdir("validator-named");
    let inp = dir.join("in.spv");
    std::fs::write(&inp, example_bytes()).unwrap();
    let run = |env: Option<&str>, args: &[&str]| {
        let mut cmd = bin();
        cmd.arg(&inp).arg("-o").arg(dir.join("out.spv")).args(args);
        if let Some(v) = env {
            cmd.env("SPEC_LINK_SPIRV_VAL", v);
        }
        let out = cmd.output().unwrap();
        assert!(!dir.join("out.spv").exists(), "{args:?}: output written");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for args in [&[][..], &["--validate"][..]] {
        let (code, stderr) = run(Some("/nonexistent/spirv-val"), args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(
            stderr
                .contains("$SPEC_LINK_SPIRV_VAL names /nonexistent/spirv-val, which cannot be run"),
            "{args:?}: {stderr}"
        );
    }
    // A validator that crashes gives no verdict (and none to compare with the input's).
    let crash = dir.join("crashing-spirv-val");
    std::fs::write(
        &crash,
        "#!/bin/sh\n[ \"$1\" = --version ] && exit 0\nkill -SEGV $$\n",
    )
    .unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&crash)
        .status()
        .unwrap();
    let (code, stderr) = run(crash.to_str(), &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("did not finish") && stderr.contains("SIGSEGV"),
        "{stderr}"
    );
    for args in [
        &["--target-env", "bogus"][..],
        &["--validate", "--target-env", "bogus"][..],
    ] {
        let (code, stderr) = run(None, args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("does not know the target environment 'bogus'"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["in.spv"][..],
        &["--bogus", "in.spv", "-o", "x"][..],
        &["a", "-o", "b", "--spec-const", "magic"][..],
        &["a", "-o", ""][..],
        &["-", "-", "-o", "b"][..],
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "args {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let missing = bin()
        .args(["/nonexistent/in.spv", "-o", "/tmp/x.spv"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).starts_with("error: /nonexistent/in.spv:"));
}

#[test]
fn help_and_version() {
    let help = bin().arg("--help").output().unwrap();
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    for needle in [
        "--spec-const",
        "--prop",
        "--json",
        "--validate",
        "--target-env",
        "Examples:",
        "Exit status",
    ] {
        assert!(text.contains(needle), "--help lacks {needle}");
    }
    let v = bin().arg("--version").output().unwrap();
    assert!(v.status.success());
    assert!(String::from_utf8_lossy(&v.stdout).starts_with("spec-link "));
}

#[test]
fn emulation_errors() {
    let dir = tmpdir("emulation-errors");
    // A function on the path to a marker whose address is taken: the buffer cannot reach it.
    let (_, fp) = common::threading_with_function_pointer();
    let bytes = assemble_text(&fp, &dir);
    expect_error_with(
        "function-pointer",
        &bytes,
        &["--spec-const", "emulation"],
        "function pointer or an indirect call of get",
    );
    // Native mode does not need the buffer: the same module lowers fine there.
    let ok = run_with_outputs(&bytes, &dir, &["--no-validate"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );

    // A bool inside a composite has no memory layout to load from a buffer.
    let text = example_text().replace(
        "%struct_Pair = OpTypeStruct %uint %uchar",
        "%bool = OpTypeBool\n  %struct_Pair = OpTypeStruct %uint %bool",
    );
    let bytes = assemble_text(&text, &dir);
    expect_error_with(
        "bool-in-composite",
        &bytes,
        &["--spec-const", "emulation"],
        "holds a bool inside a composite",
    );
}

/// An output that is not a regular file is written in place: `/dev/null` stays a device (a
/// temporary renamed over it would replace it, as root), a FIFO stays a FIFO and its reader gets
/// the same bytes as a regular output file.
#[test]
fn special_file_outputs_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tmpdir("special");
    let input = dir.join("in.spv");
    std::fs::write(&input, example_bytes()).unwrap();
    let regular = dir.join("out.spv");
    lower_ok(&input, &regular, &[]);
    let expected = std::fs::read(&regular).unwrap();

    let out = bin()
        .arg(&input)
        .args(["-o", "/dev/null", "--prop", "/dev/null", "--no-validate"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device(),
        "/dev/null was replaced"
    );

    let fifo = dir.join("out.fifo");
    let mk = Command::new("mkfifo").arg(&fifo).status();
    assert!(
        mk.is_ok_and(|s| s.success()),
        "mkfifo (coreutils) is needed by this test"
    );
    let reader = {
        let f = fifo.clone();
        std::thread::spawn(move || std::fs::read(f).unwrap())
    };
    let out = bin()
        .arg(&input)
        .arg("-o")
        .arg(&fifo)
        .arg("--no-validate")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Checked before joining: a FIFO renamed away would leave the reader blocked for ever.
    assert!(
        std::fs::metadata(&fifo).unwrap().file_type().is_fifo(),
        "the FIFO was replaced"
    );
    assert_eq!(reader.join().unwrap(), expected);
    assert!(std::fs::read_dir(&dir).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".tmp")));
}

/// Two outputs naming one file, or a sidecar naming an input, are usage errors found before
/// anything is written (each output is renamed into place: one would be lost, and the renames
/// would fail half-way; a sidecar over an input would replace the module with text). The
/// module's own output may replace its input: lowering in place.
#[test]
fn outputs_that_would_overwrite_each_other_or_an_input_are_usage_errors() {
    let dir = tmpdir("same-file");
    let input = dir.join("in.spv");
    let bytes = example_bytes();
    std::fs::write(&input, &bytes).unwrap();
    let link = dir.join("link.spv");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    let p = |name: &str| dir.join(name).display().to_string();
    let dotted = format!("{}/./x.spv", dir.display());
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                p("in.spv"),
                "-o".into(),
                p("x.spv"),
                "--prop".into(),
                p("x.spv"),
            ],
            "-o and --prop name the same file",
        ),
        (
            vec![
                p("in.spv"),
                "-o".into(),
                p("x.spv"),
                "--json".into(),
                dotted,
            ],
            "-o and --json name the same file",
        ),
        (
            vec![
                p("in.spv"),
                "-o".into(),
                p("y.spv"),
                "--prop".into(),
                p("z"),
                "--json".into(),
                p("z"),
            ],
            "--prop and --json name the same file",
        ),
        (
            vec![
                p("in.spv"),
                "-o".into(),
                p("y.spv"),
                "--prop".into(),
                p("in.spv"),
            ],
            "--prop names the input",
        ),
        // The input given through a link: the sidecar names the file it links to.
        (
            vec![
                p("link.spv"),
                "-o".into(),
                p("y.spv"),
                "--json".into(),
                p("in.spv"),
            ],
            "--json names the input",
        ),
        // A sidecar through a link to the input: written through the link, it would replace it.
        (
            vec![
                p("in.spv"),
                "-o".into(),
                p("y.spv"),
                "--prop".into(),
                p("link.spv"),
            ],
            "--prop names the input",
        ),
    ];
    for (args, expect) in &cases {
        let out = bin().args(args).arg("--no-validate").output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(expect),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            files_in(&dir),
            ["in.spv", "link.spv"],
            "{args:?}: files written"
        );
        assert_eq!(
            std::fs::read(&input).unwrap(),
            bytes,
            "{args:?}: input changed"
        );
    }
    // In place: the lowered module replaces its input.
    let expected = dir.join("expected.spv");
    lower_ok(&input, &expected, &[]);
    let prop = dir.join("in.prop").display().to_string();
    lower_ok(&input, &input, &["--prop", &prop]);
    assert_eq!(
        std::fs::read(&input).unwrap(),
        std::fs::read(&expected).unwrap()
    );
    assert_ne!(std::fs::read(&input).unwrap(), bytes);
    common::spirv_val(
        &std::fs::read(&input).unwrap(),
        "spv1.4",
        "the module lowered in place",
    );
}

/// An output naming a directory fails before any output is renamed into place (failing at its
/// own rename would leave `-o`'s file already there).
#[test]
fn an_output_that_is_a_directory_fails_before_anything_is_written() {
    let dir = tmpdir("dir-output");
    let input = dir.join("in.spv");
    std::fs::write(&input, example_bytes()).unwrap();
    std::fs::create_dir(dir.join("adir")).unwrap();
    for (flag, last) in [("--prop", true), ("--json", true), ("-o", false)] {
        let mut cmd = bin();
        cmd.arg(&input).arg("--no-validate");
        if last {
            cmd.arg("-o").arg(dir.join("out.spv"));
        } else {
            cmd.arg("--prop").arg(dir.join("out.prop"));
        }
        let out = cmd.arg(flag).arg(dir.join("adir")).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{flag}: {stderr}");
        assert!(stderr.contains("adir: is a directory"), "{flag}: {stderr}");
        assert_eq!(files_in(&dir), ["adir", "in.spv"], "{flag}: files written");
    }
}

/// An existing file whose name holds pattern characters is read as it is, not as a pattern
/// (which here would match `k1.spv`, a different module).
#[test]
fn an_existing_file_named_like_a_pattern_is_read_as_it_is() {
    let dir = tmpdir("bracket");
    let bytes = example_bytes();
    std::fs::write(dir.join("k[1].spv"), &bytes).unwrap();
    std::fs::write(dir.join("k1.spv"), b"not a module").unwrap();
    std::fs::write(dir.join("plain.spv"), &bytes).unwrap();
    let lower = |name: &str, out: &str| {
        lower_ok(&dir.join(name), &dir.join(out), &[]);
        let module = std::fs::read(dir.join(out)).unwrap();
        common::spirv_val(&module, "spv1.4", name);
        module
    };
    assert_eq!(lower("k[1].spv", "a.spv"), lower("plain.spv", "b.spv"));
    // A pattern naming no existing file is still expanded: here to k1.spv, which is refused.
    let o = bin()
        .arg(dir.join("k[1]*.spv"))
        .arg("-o")
        .arg(dir.join("c.spv"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("k1.spv"));
}

/// A run ended by SIGTERM or SIGINT leaves no temporary behind, and dies of the signal. The
/// run is held after `-o`'s temporary is written: `--json` names a FIFO nobody reads, whose
/// opening blocks.
#[test]
fn a_signal_removes_the_temporaries() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tmpdir("signal");
    let input = dir.join("in.spv");
    std::fs::write(&input, example_bytes()).unwrap();
    let fifo = dir.join("json.fifo");
    let mk = Command::new("mkfifo").arg(&fifo).status();
    assert!(
        mk.is_ok_and(|s| s.success()),
        "mkfifo (coreutils) is needed by this test"
    );
    let temporaries = || -> Vec<String> {
        files_in(&dir)
            .into_iter()
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    };
    for (signal, name) in [(libc::SIGTERM, "TERM"), (libc::SIGINT, "INT")] {
        let mut child = bin()
            .arg(&input)
            .arg("-o")
            .arg(dir.join("out.spv"))
            .arg("--json")
            .arg(&fifo)
            .arg("--no-validate")
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while temporaries().is_empty() {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "no temporary appeared"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        // SAFETY: sends a signal to the child, which has not been waited for (its pid is live).
        let sent = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        assert_eq!(sent, 0, "{name}: kill failed");
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(signal), "{name}: {status:?}");
        assert!(temporaries().is_empty(), "{name}: left {:?}", temporaries());
        assert!(
            !dir.join("out.spv").exists(),
            "{name}: output renamed into place"
        );
    }
}

/// An output that is a symbolic link to a file is written through it: the file it leads to is
/// replaced, and the link stays a link (as with `cp` or `spirv-opt`).
#[test]
fn an_output_through_a_symbolic_link_replaces_the_file_it_leads_to() {
    let dir = tmpdir("output-link");
    let input = dir.join("in.spv");
    std::fs::write(&input, example_bytes()).unwrap();
    std::fs::create_dir(dir.join("real")).unwrap();
    let target = dir.join("real/out.spv");
    std::fs::write(&target, b"old").unwrap();
    let link = dir.join("out.spv");
    std::os::unix::fs::symlink("real/out.spv", &link).unwrap();
    let plain = dir.join("plain.spv");
    for out in [&plain, &link] {
        lower_ok(&input, out, &[]);
    }
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read(&target).unwrap(),
        std::fs::read(&plain).unwrap()
    );
    common::spirv_val(
        &std::fs::read(&target).unwrap(),
        "spv1.4",
        "the output written through a link",
    );
    assert_eq!(
        files_in(&dir.join("real")),
        ["out.spv"],
        "temporaries left beside the target"
    );
}

/// Gathered errors are printed one per `error:` line, the file named on each; a flood stops
/// after the first 100 with a count of the rest.
#[test]
fn gathered_errors_are_one_per_line_and_a_flood_is_cut() {
    let dir = tmpdir("flood");
    const EXTRA: usize = 150;
    let calls: String = (0..EXTRA)
        .map(|k| format!("%extra{k} = OpFunctionCall %uint %get_int %c0 %c2 %null\n"))
        .collect();
    let call = "%value = OpFunctionCall %uint %get_int %c0 %c2 %null";
    let text = example_text()
        .replace(
            "%c0 = OpBitcast %ptr_Generic_uchar %usid_int",
            "%c0 = OpBitcast %ptr_Generic_uchar %null",
        )
        .replace(call, &format!("{calls}{call}"));
    assert!(text.contains("%extra149 = OpFunctionCall"));
    let out = run_with_outputs(&assemble_text(&text, &dir), &dir, &["--no-validate"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 101, "{stderr}");
    assert!(
        lines[..100].iter().all(|l| l.starts_with("error: ")
            && l.contains("input.spv")
            && l.contains("does not resolve to a constant global")),
        "{stderr}"
    );
    // The calls through %c0: the extra ones and the original.
    assert!(
        lines[100].contains(&format!("and {} more errors", EXTRA + 1 - 100)),
        "{}",
        lines[100]
    );
}

/// `--spec-id-order dpcpp` on a real DPC++ image whose first-use order is not DPC++'s: the
/// `.prop` file's spec-constant sets are DPC++'s; the default order writes other bytes (the same
/// constants, numbered in first use); a value the option does not know is a usage error.
#[test]
fn spec_id_order_dpcpp_writes_dpcpp_s_property_sets() {
    let dir = tmpdir("spec-id-order");
    let image = common::repo().join("testdata/dpcpp/manyint/image0.input.spv");
    let theirs = common::spec_constant_sections(
        &std::fs::read_to_string(common::beside(&image, ".dpcpp-native.prop")).unwrap(),
    );
    for (args, same) in [(&["--spec-id-order", "dpcpp"][..], true), (&[][..], false)] {
        let (out, prop) = (dir.join("o.spv"), dir.join("o.prop"));
        let mut extra = vec!["--prop", prop.to_str().unwrap()];
        extra.extend_from_slice(args);
        lower_ok(&image, &out, &extra);
        common::spirv_val(
            &std::fs::read(&out).unwrap(),
            "spv1.4",
            &format!("{args:?} output"),
        );
        let ours = common::spec_constant_sections(&std::fs::read_to_string(&prop).unwrap());
        assert_eq!(ours == theirs, same, "{args:?}:\n{ours}\nDPC++:\n{theirs}");
    }
    let o = bin()
        .arg(&image)
        .args([
            "-o",
            dir.join("x.spv").to_str().unwrap(),
            "--spec-id-order",
            "llvm",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("first-use"));
    assert!(!dir.join("x.spv").exists());
}

/// The note about SpecIds the input already uses: for an OpenCL-interop constant's SpecIds
/// (numbering starts after them), not for the ITT instrumentation flag's alone, which DPC++
/// images built with -fsycl-instrument-device-code carry (numbering never comes near it).
#[test]
fn note_on_used_spec_ids_leaves_the_itt_flag_out() {
    let dir = tmpdir("used-spec-ids");
    let itt = common::repo().join("testdata/dpcpp/bigarr-itt/image0.input.spv");
    let features = dir.join("features.spv");
    std::fs::write(
        &features,
        common::assemble(&common::repo().join("testdata/features/input.spvasm")),
    )
    .unwrap();
    assert!(common::disassemble(&std::fs::read(&itt).unwrap()).contains("SpecId 4285822057"));
    for (input, note) in [(&itt, false), (&features, true)] {
        let o = bin()
            .arg(input)
            .args(["-o", dir.join("o.spv").to_str().unwrap(), "--no-validate"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let written = std::fs::read(dir.join("o.spv")).unwrap();
        common::spirv_val(&written, "spv1.4", &input.display().to_string());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            err.contains("note: the input already uses 2 SpecId(s); new SpecIds skip them"),
            note,
            "{}: {err}",
            input.display()
        );
        assert_eq!(
            err.contains("already uses"),
            note,
            "{}: {err}",
            input.display()
        );
    }
}

/// Waits for `child` at most 20 s (killing it then and failing): input that cannot be a module
/// must be refused once its header is read, whatever follows.
fn wait_bounded(mut child: std::process::Child, what: &str) -> Output {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still reading after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Endless input that is no module (`/dev/zero`, `/dev/urandom`, as a path or on standard
/// input, to a file or to standard output) is refused at its header: exit 1, the magic number
/// named, nothing written.
#[test]
fn endless_input_is_refused_at_its_header() {
    for device in ["/dev/zero", "/dev/urandom"] {
        if !Path::new(device).exists() {
            panic!("{device} is needed by this test");
        }
        for (how, output) in [
            ("path", "out.spv"),
            ("path", "-"),
            ("stdin", "out.spv"),
            ("stdin", "-"),
        ] {
            let dir = tmpdir("endless");
            let what = format!("{device} as {how} to {output}");
            let mut cmd = bin();
            cmd.current_dir(&dir)
                .args(["-o", output, "--no-validate"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            if how == "path" {
                cmd.arg(device).stdin(Stdio::null());
            } else {
                cmd.arg("-").stdin(std::fs::File::open(device).unwrap());
            }
            let out = wait_bounded(cmd.spawn().unwrap(), &what);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{what}: {stderr}");
            assert!(
                stderr.starts_with("error: ")
                    && stderr.contains("not a SPIR-V module: wrong magic number 0x"),
                "{what}: {stderr}"
            );
            if device == "/dev/zero" {
                assert!(
                    stderr.contains("wrong magic number 0x00000000"),
                    "{what}: {stderr}"
                );
            }
            assert!(out.stdout.is_empty(), "{what}: something was written");
            assert_eq!(files_in(&dir), Vec::<String>::new(), "{what}");
        }
    }
}

/// A pipe of random bytes (as much as the reader takes, up to 4 GiB) is refused at once.
#[test]
fn a_pipe_of_random_bytes_is_refused_at_once() {
    let dir = tmpdir("random-pipe");
    let mut child = bin()
        .current_dir(&dir)
        .args(["-", "-o", "out.spv", "--no-validate"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // xorshift: deterministic bytes that are no module.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut block = vec![0u8; 1 << 20];
        for _ in 0..4096 {
            for c in block.chunks_exact_mut(8) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                c.copy_from_slice(&x.to_le_bytes());
            }
            if std::io::Write::write_all(&mut stdin, &block).is_err() {
                return; // the reader is gone
            }
        }
    });
    let out = wait_bounded(child, "random bytes on standard input");
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: <stdin>: not a SPIR-V module: wrong magic number 0x"),
        "{stderr}"
    );
    assert_eq!(files_in(&dir), Vec::<String>::new());
}

/// A run killed with SIGKILL while it writes its output (no handler can run) leaves neither a
/// temporary nor a changed old output: the output is written unnamed (`O_TMPFILE`) and linked
/// into place only once whole. The run is killed once its unnamed output is seen open
/// (`/proc/PID/fd`), retried until that happens before it finishes. (Killed so with outputs
/// staged under names, the test finds their temporaries left.)
#[cfg(target_os = "linux")]
#[test]
fn sigkill_while_writing_leaves_no_temporary_and_the_old_output() {
    let inputs = tmpdir("sigkill-in");
    let outputs = tmpdir("sigkill-out");
    // A module without markers, 128 MB: OpNops after its last function.
    let mut module =
        std::fs::read(common::fixtures().join("basic/image0.dpcpp-native.spv")).unwrap();
    let nop = (1u32 << 16).to_le_bytes();
    module.extend(nop.iter().cycle().take((128 << 20) - module.len()));
    let input = inputs.join("big.spv");
    std::fs::write(&input, &module).unwrap();
    drop(module);
    let dest = outputs.join("out.spv");
    let outputs_path = std::fs::canonicalize(&*outputs).unwrap();
    let mut killed = 0;
    for attempt in 0..40 {
        std::fs::write(&dest, b"old output").unwrap();
        let mut child = bin()
            .args([
                input.to_str().unwrap(),
                "-o",
                dest.to_str().unwrap(),
                "--no-validate",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let fds = format!("/proc/{}/fd", child.id());
        let writing = || {
            std::fs::read_dir(&fds)
                .into_iter()
                .flatten()
                .flatten()
                .any(|e| {
                    // The unnamed temporary reads `DIR/#N (deleted)`.
                    std::fs::read_link(e.path()).is_ok_and(|t| {
                        t.starts_with(&outputs_path) && t.to_string_lossy().ends_with(" (deleted)")
                    })
                })
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let mut seen = false;
        while child.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
            if writing() {
                seen = true;
                break;
            }
        }
        let _ = child.kill();
        let status = child.wait().unwrap();
        let names = files_in(&outputs);
        if seen && status.code().is_none() {
            killed += 1;
            assert_eq!(names, ["out.spv"], "attempt {attempt}: left behind");
            assert_eq!(
                std::fs::read(&dest).unwrap(),
                b"old output",
                "attempt {attempt}"
            );
            if killed == 3 {
                break;
            }
        } else {
            // It finished first: the output is whole, and nothing else is there.
            assert!(status.success(), "attempt {attempt}: {status}");
            assert_eq!(names, ["out.spv"], "attempt {attempt}");
        }
    }
    assert!(
        killed > 0,
        "no run was caught writing an unnamed output in 40 attempts (does the file system of {} \
         support O_TMPFILE?)",
        outputs.display()
    );
}

/// `--validate=strict` fails on any spirv-val error in the output, even one the input has too
/// (where `--validate` only warns), and writes nothing.
#[test]
fn strict_validation_fails_on_an_error_the_input_has_too() {
    let dir = tmpdir("strict");
    let input = std::fs::read(common::fixtures().join("basic/image0.dpcpp-native.spv")).unwrap();
    let out = run_with_outputs(&input, &dir, &["--validate=strict"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error: the output fails spirv-val") && stderr.contains("strict"),
        "{stderr}"
    );
    for f in ["out.spv", "out.prop", "out.json"] {
        assert_eq!(std::fs::read(dir.join(f)).unwrap(), b"sentinel", "{f}");
    }
    // A valid output passes strict validation.
    let ok = run_with_outputs(&example_bytes(), &dir, &["--validate=strict"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    // `--validate` takes its mode only after '=': the next argument stays an input.
    let o = bin()
        .arg("--validate")
        .arg(dir.join("input.spv"))
        .arg("-o")
        .arg(dir.join("out2.spv"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// '-' is standard output for `--prop` and `--json` as for `-o`; two outputs on standard
/// output are a usage error, and no file named '-' is ever created.
#[test]
fn dash_is_standard_output_for_every_output() {
    let dir = tmpdir("dash");
    let input = dir.join("in.spv");
    std::fs::write(&input, example_bytes()).unwrap();
    let run = |extra: &[&str]| {
        bin()
            .current_dir(&*dir)
            .arg(&input)
            .args(extra)
            .arg("--no-validate")
            .output()
            .unwrap()
    };
    let files = run(&["-o", "out.spv", "--prop", "out.prop", "--json", "out.json"]);
    assert!(files.status.success());
    let prop = run(&["-o", "out2.spv", "--prop", "-"]);
    assert!(
        prop.status.success(),
        "{}",
        String::from_utf8_lossy(&prop.stderr)
    );
    assert_eq!(prop.stdout, std::fs::read(dir.join("out.prop")).unwrap());
    let json = run(&["-o", "out3.spv", "--json", "-"]);
    assert!(
        json.status.success(),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    assert_eq!(json.stdout, std::fs::read(dir.join("out.json")).unwrap());
    let both = run(&["-o", "-", "--prop", "-"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&both.stderr).contains("standard output"),
        "{}",
        String::from_utf8_lossy(&both.stderr)
    );
    assert!(both.stdout.is_empty());
    assert!(!dir.join("-").exists(), "a file named '-' was created");
}

/// Shell completions and the man page come from the command-line definitions: they name the
/// options and subcommands the parser knows.
#[test]
fn completions_and_man_page_are_generated_from_the_command_line() {
    for shell in ["bash", "zsh", "fish"] {
        let o = bin().args(["completions", shell]).output().unwrap();
        assert!(
            o.status.success(),
            "{shell}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = String::from_utf8(o.stdout).unwrap();
        for word in ["spec-const", "split", "info", "specialize"] {
            assert!(text.contains(word), "{shell} completions lack {word}");
        }
    }
    let o = bin().arg("man").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = String::from_utf8(o.stdout).unwrap();
    assert!(page.contains(".TH spec-link 1"), "not a man page");
    for word in ["spec\\-const", "split", "validate"] {
        assert!(page.contains(word), "the man page lacks {word}");
    }
    let bad = bin()
        .args(["completions", "no-such-shell"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
