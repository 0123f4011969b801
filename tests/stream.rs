//! The lazy pass-through (`src/module/stream.rs`) through the command line: one input and an
//! output file make the CLI read only the input's prefix (up to its first type, constant,
//! variable or function); a module naming no marker is then copied to the output in 256 KiB
//! chunks, its instruction boundaries checked on the way. Every case here is run with
//! `--no-validate` (so the stream path is taken) and compared with the library
//! (`process(&[Input::from_bytes(..)])`, which reads the whole module): the same output bytes, or
//! the same error (`error: ` + the library's message, exit 1, no output file, no temporary left).

mod common;

use spec_link::{process, process_owned, Input, Options, SpecConstMode, Validation};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The chunk size of `src/module/stream.rs` (bytes), and in words.
const CHUNK: usize = 1 << 18;
const CW: usize = CHUNK / 4;

const OP_SOURCE_EXTENSION: u32 = 4;
const OP_NAME: u32 = 5;
const OP_LINE: u32 = 8;
const OP_FUNCTION_END: u32 = 56;
const OP_DECORATE: u32 = 71;
const OP_LABEL: u32 = 248;
const OP_NO_LINE: u32 = 317;
const OP_MODULE_PROCESSED: u32 = 330;
/// `OpNoLine` (one word).
const NO_LINE: u32 = (1 << 16) | OP_NO_LINE;
/// `OpLine %file 1 1` head word.
const LINE_HEAD: u32 = (4 << 16) | OP_LINE;
/// `OpLine` instructions padding the kernel of the module without markers: ~3.4 chunks.
const PAD_LINES: usize = 56_000;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spec-link"))
}

/// A scratch directory of this test process, removed afterwards unless the test fails.
fn tmpdir(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("spec-link-stream-{}-{name}", std::process::id()))
}

use common::{bytes, words};

/// The big-endian copy: every whole word byte-swapped (a ragged tail is kept as it is).
fn swapped(b: &[u8]) -> Vec<u8> {
    let whole = b.len() / 4 * 4;
    let mut out: Vec<u8> = b[..whole]
        .chunks_exact(4)
        .flat_map(|c| [c[3], c[2], c[1], c[0]])
        .collect();
    out.extend_from_slice(&b[whole..]);
    out
}

/// Word offsets of the instructions (stops at a word count of 0).
fn inst_offsets(w: &[u32]) -> Vec<usize> {
    let mut at = 5;
    let mut v = Vec::new();
    while at < w.len() {
        v.push(at);
        let wc = (w[at] >> 16) as usize;
        if wc == 0 {
            break;
        }
        at += wc;
    }
    v
}

fn offsets_of(w: &[u32], op: u32) -> Vec<usize> {
    inst_offsets(w)
        .into_iter()
        .filter(|&o| w[o] & 0xffff == op)
        .collect()
}

/// One instruction `op "s"` (a literal string operand only).
fn string_inst(op: u32, s: &str) -> Vec<u32> {
    let mut b = s.as_bytes().to_vec();
    b.push(0);
    while b.len() % 4 != 0 {
        b.push(0);
    }
    let mut w = vec![(((b.len() / 4 + 1) as u32) << 16) | op];
    w.extend(words(&b));
    w
}

/// Instructions `op "pad…"` of exactly `total` words (at least 2), ~1000 words each.
fn string_padding(op: u32, total: usize) -> Vec<u32> {
    assert!(total >= 2, "padding of {total} words");
    let mut out = Vec::new();
    let mut left = total;
    let mut k = 0;
    while left > 0 {
        // Each instruction is 1 + n words, with n >= 1; never leave 1 word over.
        let mut n = left.min(1000) - 1;
        if left - (n + 1) == 1 {
            n -= 1;
        }
        // n words of string: n*4 - 1 characters and the NUL.
        let s: String = format!("pad{k:05}")
            .chars()
            .chain(std::iter::repeat('x'))
            .take(n * 4 - 1)
            .collect();
        let inst = string_inst(op, &s);
        assert_eq!(inst.len(), n + 1);
        out.extend(inst);
        left -= n + 1;
        k += 1;
    }
    assert_eq!(out.len(), total);
    out
}

fn splice(w: &[u32], at: usize, insert: &[u32]) -> Vec<u32> {
    let mut v = w[..at].to_vec();
    v.extend_from_slice(insert);
    v.extend_from_slice(&w[at..]);
    v
}

fn assemble_text(text: &str, name: &str) -> Vec<u8> {
    let dir = tmpdir(&format!("asm-{name}"));
    let p = dir.join(format!("{name}.spvasm"));
    std::fs::write(&p, text).unwrap();
    common::assemble(&p)
}

/// A kernel without markers; its function body holds `lines` × `OpLine %file 1 1`.
fn plain_text(lines: usize) -> String {
    let mut t = String::from(
        "; a kernel without markers\n\
         OpCapability Addresses\n\
         OpCapability Linkage\n\
         OpCapability Kernel\n\
         OpMemoryModel Physical64 OpenCL\n\
         OpEntryPoint Kernel %kernel \"K\"\n\
         %file = OpString \"pad.cl\"\n\
         OpName %kernel \"plain_kernel\"\n\
         OpName %out \"out\"\n\
         %uint = OpTypeInt 32 0\n\
         %void = OpTypeVoid\n\
         %uint_7 = OpConstant %uint 7\n\
         %ptr_CW_uint = OpTypePointer CrossWorkgroup %uint\n\
         %fn_kernel = OpTypeFunction %void %ptr_CW_uint\n\
         %kernel = OpFunction %void None %fn_kernel\n\
         %out = OpFunctionParameter %ptr_CW_uint\n\
         %entry = OpLabel\n",
    );
    for _ in 0..lines {
        t.push_str("OpLine %file 1 1\n");
    }
    t.push_str("OpStore %out %uint_7 Aligned 4\nOpReturn\nOpFunctionEnd\n");
    t
}

/// The padded module without markers, assembled once.
struct Plain {
    words: Vec<u32>,
    /// Word offset of the first `OpLine` (they are contiguous: `PAD_LINES` of 4 words).
    pad_start: usize,
}

fn plain() -> &'static Plain {
    static PLAIN: OnceLock<Plain> = OnceLock::new();
    PLAIN.get_or_init(|| {
        let w = words(&assemble_text(&plain_text(PAD_LINES), "plain"));
        let lines = offsets_of(&w, OP_LINE);
        assert_eq!(lines.len(), PAD_LINES);
        let pad_start = lines[0];
        assert!(lines
            .iter()
            .enumerate()
            .all(|(k, &o)| o == pad_start + 4 * k && w[o] == LINE_HEAD));
        assert!(
            pad_start < 100,
            "the prefix should end early in the first chunk"
        );
        assert!(
            w.len() * 4 > 3 * CHUNK && w.len() * 4 < 4 * CHUNK,
            "{} bytes",
            w.len() * 4
        );
        Plain {
            words: w,
            pad_start,
        }
    })
}

/// The padded module with an `OpLine` starting exactly at word `t` (`OpNoLine`s inserted before
/// the padding shift it).
fn line_at(t: usize) -> Vec<u32> {
    let p = plain();
    assert!(t >= p.pad_start);
    let k = (t - p.pad_start) % 4;
    let w = splice(&p.words, p.pad_start, &vec![NO_LINE; k]);
    assert_eq!(w[t], LINE_HEAD, "no OpLine at word {t}");
    w
}

/// The padded module resized to exactly `total` words (padding `OpLine`s removed, `OpNoLine`s
/// making up the rest); it stays a valid module.
fn plain_sized(total: usize) -> Vec<u32> {
    let p = plain();
    let len = p.words.len();
    assert!(total <= len && total + 4 * (PAD_LINES - 10) > len);
    let q = len - total;
    let lines = q.div_ceil(4);
    let nolines = lines * 4 - q;
    let mut w = p.words[..p.pad_start].to_vec();
    w.extend(vec![NO_LINE; nolines]);
    w.extend_from_slice(&p.words[p.pad_start + 4 * lines..]);
    assert_eq!(w.len(), total);
    w
}

fn lib_options() -> Options {
    Options {
        validation: Validation::Never,
        sidecars: false,
        ..Options::default()
    }
}

/// Whether `Input::read_lazily` stops after the prefix (an input read lazily has no bytes).
fn is_lazy(input: &[u8]) -> bool {
    match Input::read_lazily(
        "probe.spv",
        Box::new(std::io::Cursor::new(input.to_vec())),
        None,
    ) {
        Ok(i) => i.bytes().is_err(),
        Err(_) => false,
    }
}

fn run_cli(input: &str, out: &Path, extra: &[&str]) -> Output {
    bin()
        .arg(input)
        .arg("-o")
        .arg(out)
        .arg("--no-validate")
        .args(extra)
        .output()
        .unwrap()
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// The CLI must fail on `input` exactly as the library does, and the library's message must be
/// `expected` (with `{}` standing for the input's path). `lazy`: whether the CLI reads it lazily.
fn same_error(
    dir: &Path,
    case: &str,
    input: &[u8],
    expected: &str,
    lazy: bool,
) -> Result<(), String> {
    let d = dir.join(case);
    std::fs::create_dir_all(&d).unwrap();
    let inp = d.join("in.spv");
    std::fs::write(&inp, input).unwrap();
    let name = inp.to_str().unwrap().to_string();
    let out = d.join("out.spv");
    if is_lazy(input) != lazy {
        return Err(format!(
            "{case}: read lazily: expected {lazy}, got {}",
            !lazy
        ));
    }
    let lib = match process(
        &[Input::from_bytes(name.clone(), input.to_vec())],
        &lib_options(),
    ) {
        Ok(_) => return Err(format!("{case}: the library accepts the input")),
        Err(e) => e.to_string(),
    };
    let expected = expected.replace("{}", &name);
    if lib != expected {
        return Err(format!(
            "{case}: library message\n  {lib}\nexpected\n  {expected}"
        ));
    }
    let r = run_cli(&name, &out, &[]);
    let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
    let mut problems = Vec::new();
    match lib_lazily(&inp, &lib_options()) {
        Ok(v) => problems.push(format!(
            "the library reading lazily accepts it ({} bytes)",
            v.len()
        )),
        Err(e) if e != lib => problems.push(format!("the library reading lazily says\n  {e}")),
        Err(_) => {}
    }
    if r.status.code() != Some(1) {
        problems.push(format!("exit status {:?}", r.status.code()));
    }
    if !stderr.starts_with("error: ") {
        problems.push("stderr does not start with 'error: '".into());
    }
    if stderr != format!("error: {lib}\n") {
        problems.push(format!(
            "stderr\n  {}\nlibrary\n  error: {lib}",
            stderr.trim_end()
        ));
    }
    if out.exists() {
        problems.push(format!(
            "an output file was written ({} bytes)",
            std::fs::metadata(&out).unwrap().len()
        ));
    }
    let tmp = leftovers(&d);
    if !tmp.is_empty() {
        problems.push(format!("temporary files left: {tmp:?}"));
    }
    if problems.is_empty() {
        let _ = std::fs::remove_dir_all(&d);
        Ok(())
    } else {
        Err(format!(
            "{case} ({} bytes): {}",
            input.len(),
            problems.join("; ")
        ))
    }
}

/// The CLI (with `cli_args`) and the library (with `options`) must both succeed on `input` and
/// write the same module (and sidecars, when `options.sidecars`); returns that module.
fn same_output(
    dir: &Path,
    case: &str,
    input: &[u8],
    cli_args: &[&str],
    options: &Options,
    lazy: bool,
) -> Vec<u8> {
    let d = dir.join(case);
    std::fs::create_dir_all(&d).unwrap();
    let inp = d.join("in.spv");
    std::fs::write(&inp, input).unwrap();
    let name = inp.to_str().unwrap().to_string();
    assert_eq!(is_lazy(input), lazy, "{case}: read lazily?");
    let lib = process(&[Input::from_bytes(name.clone(), input.to_vec())], options)
        .unwrap_or_else(|e| panic!("{case}: library: {e}"));
    let lib_module = lib.module.to_bytes().unwrap();
    let out = d.join("out.spv");
    let mut args = cli_args.to_vec();
    let (prop, json) = (d.join("out.prop"), d.join("out.json"));
    if options.sidecars {
        args.extend([
            "--prop",
            prop.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ]);
    }
    let r = run_cli(&name, &out, &args);
    assert!(
        r.status.success(),
        "{case}: exit {:?}: {}",
        r.status.code(),
        String::from_utf8_lossy(&r.stderr)
    );
    let written = std::fs::read(&out).unwrap();
    assert!(
        written == lib_module,
        "{case}: the CLI's output ({} bytes) differs from the library's ({} bytes)",
        written.len(),
        lib_module.len()
    );
    if options.sidecars {
        assert_eq!(
            std::fs::read(&prop).unwrap(),
            lib.prop,
            "{case}: .prop differs"
        );
        assert_eq!(
            std::fs::read(&json).unwrap(),
            lib.json,
            "{case}: JSON differs"
        );
    }
    assert!(leftovers(&d).is_empty(), "{case}: temporary files left");
    let lazily =
        lib_lazily(&inp, options).unwrap_or_else(|e| panic!("{case}: library reading lazily: {e}"));
    assert!(
        lazily == lib_module,
        "{case}: the library reading lazily writes another module"
    );
    let _ = std::fs::remove_dir_all(&d);
    written
}

/// The library reading the file lazily (`Input::open(path, true)`: mapped when it can be),
/// writing the output both with `write_to` (into memory) and with `write_to_file` (a new file:
/// copied by the kernel when it can be). Both must give the same bytes, or the same error.
fn lib_lazily(path: &Path, options: &Options) -> Result<Vec<u8>, String> {
    let run = |to_file: bool| -> Result<Vec<u8>, String> {
        let input = Input::open(path, true).map_err(|e| e.to_string())?;
        let out = process_owned(vec![input], options).map_err(|e| e.to_string())?;
        if !to_file {
            let mut v = Vec::new();
            out.module.write_to(&mut v).map_err(|e| e.to_string())?;
            return Ok(v);
        }
        let dest = path.with_extension("lib-out");
        let file = std::fs::File::create(&dest).unwrap();
        let mut w = std::io::BufWriter::new(file);
        let r = out.module.write_to_file(&mut w).map_err(|e| e.to_string());
        drop(w);
        let written = std::fs::read(&dest).unwrap();
        std::fs::remove_file(&dest).unwrap();
        r.map(|()| written)
    };
    let (mem, file) = (run(false), run(true));
    if mem != file {
        return Err(format!(
            "write_to and write_to_file differ: {:?} / {:?}",
            mem.as_ref().map(|v| v.len()),
            file.as_ref().map(|v| v.len())
        ));
    }
    mem
}

fn report(failures: Vec<String>, ran: usize) {
    assert!(
        failures.is_empty(),
        "{} of {ran} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// 1. pass-through

#[test]
fn module_without_markers_passes_through_byte_identical() {
    let dir = tmpdir("pass");
    let le = bytes(&plain().words);
    common::spirv_val(&le, "spv1.4", "the padded module without markers");
    assert!(is_lazy(&le), "the padded module must take the stream path");
    let opts = lib_options();
    let out = same_output(&dir, "le", &le, &[], &opts, true);
    assert!(out == le, "LE output is not the input");

    let be = swapped(&le);
    assert_ne!(be, le);
    assert_eq!(&be[..4], &[0x07, 0x23, 0x02, 0x03]);
    assert!(is_lazy(&be));
    let out = same_output(&dir, "be", &be, &[], &opts, true);
    assert!(out == be, "BE output is not the big-endian input");
    assert!(out != le, "BE output must stay big-endian");

    // With sidecars (native mode still passes through): the same (empty) sets as the library.
    let with_sidecars = Options {
        sidecars: true,
        ..lib_options()
    };
    let out = same_output(&dir, "le-sidecars", &le, &[], &with_sidecars, true);
    assert!(out == le);
}

#[test]
fn sizes_at_chunk_boundaries_pass_through() {
    let dir = tmpdir("sizes");
    let opts = lib_options();
    for total in [
        CW,
        CW + 1,
        CW + 3,
        2 * CW - 1,
        2 * CW,
        2 * CW + 1,
        3 * CW,
        3 * CW + 2,
    ] {
        let w = plain_sized(total);
        let le = bytes(&w);
        assert_eq!(le.len(), total * 4);
        let out = same_output(&dir, &format!("le-{total}"), &le, &[], &opts, true);
        assert!(out == le, "{total} words: output is not the input");
        let be = swapped(&le);
        let out = same_output(&dir, &format!("be-{total}"), &be, &[], &opts, true);
        assert!(out == be, "{total} words BE: output is not the input");
    }
    common::spirv_val(
        &bytes(&plain_sized(2 * CW)),
        "spv1.4",
        "the module of exactly two chunks",
    );
}

/// The plain module with `OpSourceExtension`s making its prefix `prefix_words` longer.
fn long_prefix(prefix_words: usize) -> Vec<u32> {
    let w = &plain().words;
    let first_name = offsets_of(w, OP_NAME)[0];
    splice(
        w,
        first_name,
        &string_padding(OP_SOURCE_EXTENSION, prefix_words),
    )
}

#[test]
fn prefix_spanning_several_chunks_passes_through() {
    let dir = tmpdir("long-prefix");
    let opts = lib_options();
    // The prefix ends (at the first OpTypeInt) in the 2nd, 3rd chunk, and exactly at a boundary.
    for (case, pad) in [
        ("two", CW + 100),
        ("three", 2 * CW + 7),
        ("four", 3 * CW - 3),
    ] {
        let w = long_prefix(pad);
        let ty = inst_offsets(&w)
            .into_iter()
            .find(|&o| w[o] & 0xffff == 21)
            .unwrap();
        assert!(ty > CW, "{case}: the prefix ends at word {ty}");
        let le = bytes(&w);
        if case == "two" {
            common::spirv_val(&le, "spv1.4", "the module with a long prefix");
        }
        let out = same_output(&dir, &format!("{case}-le"), &le, &[], &opts, true);
        assert!(out == le);
        let be = swapped(&le);
        let out = same_output(&dir, &format!("{case}-be"), &be, &[], &opts, true);
        assert!(out == be);
    }
    // The first type's head is the first word of the second chunk.
    let base = long_prefix(CW);
    let ty = inst_offsets(&base)
        .into_iter()
        .find(|&o| base[o] & 0xffff == 21)
        .unwrap();
    let w = long_prefix(CW - (ty - CW));
    assert_eq!(w[CW] & 0xffff, 21, "OpTypeInt not at the chunk boundary");
    let le = bytes(&w);
    assert!(same_output(&dir, "type-at-boundary", &le, &[], &opts, true) == le);
}

// ---------------------------------------------------------------------------------------------
// 2. malformed tails

/// Word positions of the defects: in the first chunk (past the prefix), around the 1st, 2nd and
/// 3rd chunk boundaries (an `OpLine` straddling the boundary, ending exactly at it, its head the
/// last word of a chunk), and in the last chunk.
fn positions() -> Vec<(&'static str, usize)> {
    let p = plain();
    let last = p.pad_start + 4 * (PAD_LINES - 3);
    assert!(last > 3 * CW);
    vec![
        ("first-early", p.pad_start + 40),
        ("first-middle", CW / 2 + 1),
        ("first-end", CW - 5),
        ("b1-straddle-start", CW - 2),
        ("b1-last-word", CW - 1),
        ("b1-exact", CW),
        ("b1-after-straddle", CW + 2),
        ("b2-straddle-start", 2 * CW - 2),
        ("b2-last-word", 2 * CW - 1),
        ("b2-exact", 2 * CW),
        ("b2-after-straddle", 2 * CW + 2),
        ("b3-last-word", 3 * CW - 1),
        ("b3-exact", 3 * CW),
        ("b3-after-straddle", 3 * CW + 1),
        ("last-chunk", last),
    ]
}

/// The malformed variants of the plain module with a defect at word `t`: (case, bytes, message).
fn defects_at(label: &str, t: usize) -> Vec<(String, Vec<u8>, String)> {
    let w = line_at(t);
    let mut v = Vec::new();
    // A word count of 0.
    let mut zero = w.clone();
    zero[t] &= 0xffff;
    v.push((
        format!("{label}-wc0"),
        bytes(&zero),
        format!("{{}}: malformed instruction at word {t} (OpLine): word count is 0"),
    ));
    // The last instruction (an OpLine cut after 2 of its 4 words) runs past the end.
    v.push((
        format!("{label}-past-end"),
        bytes(&w[..t + 2]),
        format!("{{}}: malformed instruction at word {t} (OpLine): word count 4 runs past the end of the module (2 words left)"),
    ));
    // An OpLine whose word count runs far past the end.
    let mut huge = w[..t + 3].to_vec();
    huge[t] = 0xffff_0000 | OP_LINE;
    v.push((
        format!("{label}-past-end-ffff"),
        bytes(&huge),
        format!("{{}}: malformed instruction at word {t} (OpLine): word count 65535 runs past the end of the module (3 words left)"),
    ));
    // The file cut 1, 2, 3 bytes into the word at `t`.
    let full = bytes(&w);
    for j in 1..=3 {
        let len = t * 4 + j;
        v.push((
            format!("{label}-cut+{j}"),
            full[..len].to_vec(),
            format!(
                "{{}}: truncated SPIR-V module: {len} bytes is not a whole number of 32-bit words"
            ),
        ));
    }
    v
}

#[test]
fn malformed_tails_fail_as_the_library_does() {
    let dir = tmpdir("malformed");
    let mut failures = Vec::new();
    let mut ran = 0;
    for (label, t) in positions() {
        for (case, input, expected) in defects_at(label, t) {
            let lazy = input.len() >= CHUNK;
            ran += 1;
            if let Err(e) = same_error(&dir, &case, &input, &expected, lazy) {
                failures.push(e);
            }
        }
    }
    // At the very end: the last instruction (OpFunctionEnd) with a word count of 0, or of 2;
    // 1, 2, 3 bytes after the last word (also after a module of exactly 2 and 3 chunks).
    let w = plain().words.clone();
    let end = *inst_offsets(&w).last().unwrap();
    assert_eq!(w[end], (1 << 16) | OP_FUNCTION_END);
    let mut zero = w.clone();
    zero[end] = OP_FUNCTION_END;
    let mut two = w.clone();
    two[end] = (2 << 16) | OP_FUNCTION_END;
    let mut cases = vec![
        ("end-wc0".to_string(), bytes(&zero), format!("{{}}: malformed instruction at word {end} (OpFunctionEnd): word count is 0")),
        (
            "end-past-end".to_string(),
            bytes(&two),
            format!("{{}}: malformed instruction at word {end} (OpFunctionEnd): word count 2 runs past the end of the module (1 words left)"),
        ),
    ];
    for base in [w.clone(), plain_sized(2 * CW), plain_sized(3 * CW)] {
        for j in 1..=3 {
            let mut b = bytes(&base);
            b.extend(std::iter::repeat_n(0xabu8, j));
            let len = b.len();
            cases.push((
                format!("trailing-{j}-after-{}", base.len()),
                b,
                format!("{{}}: truncated SPIR-V module: {len} bytes is not a whole number of 32-bit words"),
            ));
        }
    }
    // A module of exactly two chunks whose last instruction runs past the end.
    let mut exact = plain_sized(2 * CW);
    let last = *inst_offsets(&exact).last().unwrap();
    exact[last] = (3 << 16) | OP_FUNCTION_END;
    cases.push((
        "exactly-two-chunks-past-end".into(),
        bytes(&exact),
        format!("{{}}: malformed instruction at word {last} (OpFunctionEnd): word count 3 runs past the end of the module (1 words left)"),
    ));
    for (case, input, expected) in cases {
        ran += 1;
        if let Err(e) = same_error(&dir, &case, &input, &expected, true) {
            failures.push(e);
        }
    }
    report(failures, ran);
}

#[test]
fn malformed_tails_big_endian() {
    let dir = tmpdir("malformed-be");
    let mut failures = Vec::new();
    let mut ran = 0;
    let picks = [
        "first-middle",
        "b1-exact",
        "b1-straddle-start",
        "b2-after-straddle",
        "b3-last-word",
        "last-chunk",
    ];
    for (label, t) in positions().into_iter().filter(|(l, _)| picks.contains(l)) {
        for (case, input, expected) in defects_at(label, t) {
            let be = swapped(&input);
            let lazy = be.len() >= CHUNK;
            ran += 1;
            if let Err(e) = same_error(&dir, &format!("be-{case}"), &be, &expected, lazy) {
                failures.push(e);
            }
        }
    }
    for j in 1..=3 {
        let mut b = swapped(&bytes(&plain().words));
        b.extend(std::iter::repeat_n(0x5au8, j));
        let len = b.len();
        ran += 1;
        let expected = format!(
            "{{}}: truncated SPIR-V module: {len} bytes is not a whole number of 32-bit words"
        );
        if let Err(e) = same_error(&dir, &format!("be-trailing-{j}"), &b, &expected, true) {
            failures.push(e);
        }
    }
    report(failures, ran);
}

#[test]
fn malformed_tail_after_a_prefix_spanning_chunks() {
    // The prefix ends in the 2nd chunk: the words already read hold the defect.
    let dir = tmpdir("malformed-long-prefix");
    let w = long_prefix(CW + 100);
    let lines = offsets_of(&w, OP_LINE);
    let in_raw = *lines.iter().find(|&&o| o > CW + 500).unwrap();
    assert!(in_raw < 2 * CW);
    let in_rest = *lines.iter().find(|&&o| o >= 2 * CW).unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for t in [in_raw, in_rest] {
        let mut zero = w.clone();
        zero[t] &= 0xffff;
        let expected = format!("{{}}: malformed instruction at word {t} (OpLine): word count is 0");
        for (case, input) in [
            (format!("wc0-{t}"), bytes(&zero)),
            (format!("be-wc0-{t}"), swapped(&bytes(&zero))),
        ] {
            ran += 1;
            if let Err(e) = same_error(&dir, &case, &input, &expected, true) {
                failures.push(e);
            }
        }
    }
    report(failures, ran);
}

#[test]
fn word_count_zero_in_a_module_of_ragged_length_reports_the_length() {
    // The library checks the length before the instructions: a module that is not a whole number
    // of words is reported as truncated even if a word count of 0 comes earlier. The stream must
    // report the same (its postcondition: "the error Module::from_bytes would have given").
    let dir = tmpdir("wc0-ragged");
    let mut failures = Vec::new();
    let mut ran = 0;
    for (label, t) in [
        ("first-chunk", CW / 2 + 1),
        ("b1-exact", CW),
        ("b2-after-straddle", 2 * CW + 2),
    ] {
        let mut w = line_at(t);
        w[t] &= 0xffff;
        let mut b = bytes(&w);
        b.push(0x01);
        let len = b.len();
        let expected = format!(
            "{{}}: truncated SPIR-V module: {len} bytes is not a whole number of 32-bit words"
        );
        ran += 1;
        if let Err(e) = same_error(
            &dir,
            &format!("{label}-wc0-plus-1-byte"),
            &b,
            &expected,
            true,
        ) {
            failures.push(e);
        }
    }
    report(failures, ran);
}

// ---------------------------------------------------------------------------------------------
// 3. standard input / output

/// Runs the CLI with `input` on its standard input.
fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    // The CLI may stop reading at an error: a broken pipe is fine.
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

#[test]
fn standard_input_and_output() {
    let dir = tmpdir("stdio");
    let le = bytes(&plain().words);
    for (case, input) in [("le", le.clone()), ("be", swapped(&le))] {
        // '-' with an output file: read lazily.
        let out = dir.join(format!("{case}.spv"));
        let r = run_stdin(&["-", "-o", out.to_str().unwrap(), "--no-validate"], &input);
        assert!(
            r.status.success(),
            "{case}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert!(r.stdout.is_empty());
        assert!(
            std::fs::read(&out).unwrap() == input,
            "{case}: stdin → file is not the input"
        );
        // '-o -': not lazy.
        let r = run_stdin(&["-", "-o", "-", "--no-validate"], &input);
        assert!(
            r.status.success(),
            "{case}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert!(
            r.stdout == input,
            "{case}: stdin → stdout is not the input ({} bytes)",
            r.stdout.len()
        );
        // A file to standard output: not lazy either.
        let inp = dir.join(format!("{case}-in.spv"));
        std::fs::write(&inp, &input).unwrap();
        let r = bin()
            .arg(&inp)
            .args(["-o", "-", "--no-validate"])
            .output()
            .unwrap();
        assert!(
            r.status.success(),
            "{case}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        assert!(r.stdout == input, "{case}: file → stdout is not the input");
    }
    // Malformed on standard input: the library's message for "<stdin>", nothing written.
    let t = CW + 2;
    let mut zero = line_at(t);
    zero[t] &= 0xffff;
    let mut past = line_at(2 * CW);
    past.truncate(2 * CW + 2);
    let mut ragged = bytes(&plain().words);
    ragged.extend([1, 2]);
    for (case, input) in [
        ("wc0", bytes(&zero)),
        ("past-end", bytes(&past)),
        ("ragged", ragged),
    ] {
        let lib = process(
            &[Input::from_bytes("<stdin>", input.clone())],
            &lib_options(),
        )
        .unwrap_err()
        .to_string();
        assert!(lib.starts_with("<stdin>: "), "{lib}");
        let out = dir.join(format!("bad-{case}.spv"));
        let r = run_stdin(&["-", "-o", out.to_str().unwrap(), "--no-validate"], &input);
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "{case}: {stderr}");
        assert_eq!(stderr, format!("error: {lib}\n"), "{case}");
        assert!(!out.exists(), "{case}: output written");
        // To standard output (read whole): the same message, nothing on stdout.
        let r = run_stdin(&["-", "-o", "-", "--no-validate"], &input);
        assert_eq!(r.status.code(), Some(1), "{case} to stdout");
        assert_eq!(
            String::from_utf8_lossy(&r.stderr),
            format!("error: {lib}\n"),
            "{case} to stdout"
        );
        assert!(
            r.stdout.is_empty(),
            "{case}: {} bytes on stdout",
            r.stdout.len()
        );
    }
    assert!(
        leftovers(&dir).is_empty(),
        "temporary files left: {:?}",
        leftovers(&dir)
    );
}

// ---------------------------------------------------------------------------------------------
// 4. modules with markers: the lazy reader falls back to a full read

fn readme_text() -> String {
    std::fs::read_to_string(common::repo().join("testdata/readme-example/input.spvasm")).unwrap()
}

/// Offset of the first instruction naming a marker (`OpName` or `LinkageAttributes`).
fn first_marker_name(w: &[u32]) -> usize {
    inst_offsets(w)
        .into_iter()
        .find(|&o| {
            let op = w[o] & 0xffff;
            let wc = (w[o] >> 16) as usize;
            (op == OP_NAME || op == OP_DECORATE)
                && bytes(&w[o..o + wc])
                    .windows(12)
                    .any(|s| s == b"__sycl_getSc" || s == b"__sycl_getCo")
        })
        .unwrap()
}

/// spirv-val's complaints without line numbers.
fn spirv_val_verdict(module: &[u8]) -> String {
    let out = common::tool("spirv-val", &["--target-env", "spv1.4", "-"], Some(module));
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let text: Vec<String> = text
        .lines()
        .map(|l| match l.strip_prefix("error: line ") {
            Some(rest) => format!("error: {}", rest.split_once(": ").map_or(rest, |(_, m)| m)),
            None => l.to_string(),
        })
        .collect();
    format!("{:?}: {}", out.status.code(), text.join("\n"))
}

#[test]
fn modules_with_markers_are_lowered_as_by_the_library() {
    let dir = tmpdir("markers");
    let base = words(&common::assemble(
        &common::repo().join("testdata/readme-example/input.spvasm"),
    ));
    let m = first_marker_name(&base);
    let first_name = offsets_of(&base, OP_NAME)[0];
    let mut variants: Vec<(String, Vec<u32>)> = vec![("plain".into(), base.clone())];
    // OpSourceExtension before the OpNames so that the marker's OpName starts just after the
    // first chunk, straddles it, starts exactly at it, or lies in the 3rd chunk.
    for (label, target) in [
        ("after-b1", CW + 10),
        ("straddling-b1", CW - 3),
        ("at-b1", CW),
        ("in-third", 2 * CW + 77),
    ] {
        let w = splice(
            &base,
            first_name,
            &string_padding(OP_SOURCE_EXTENSION, target - m),
        );
        assert_eq!(first_marker_name(&w), target, "{label}");
        variants.push((label.into(), w));
    }
    // Marker OpNames removed: only the LinkageAttributes decorations name the markers, after
    // OpModuleProcessed padding (the last debug instructions) beyond the first chunk.
    let text = readme_text()
        .lines()
        .filter(|l| !(l.contains("OpName") && l.contains("__sycl_get")))
        .collect::<Vec<_>>()
        .join("\n");
    let linkage = words(&assemble_text(&text, "linkage-only"));
    let d = first_marker_name(&linkage);
    assert_eq!(linkage[d] & 0xffff, OP_DECORATE);
    let first_decorate = offsets_of(&linkage, OP_DECORATE)[0];
    assert_eq!(first_decorate, d);
    for (label, target) in [
        ("linkage-straddling-b1", CW - 2),
        ("linkage-in-third", 2 * CW + 5),
    ] {
        let w = splice(
            &linkage,
            d,
            &string_padding(OP_MODULE_PROCESSED, target - d),
        );
        assert_eq!(first_marker_name(&w), target, "{label}");
        variants.push((label.into(), w));
    }
    // Every padded variant also gets two chunks of OpNoLine in the kernel's body: the module
    // goes on for at least a full chunk after its prefix, so only the marker's name (not the end
    // of the input) can make the lazy reader read it whole.
    let body_padded = |w: &[u32]| {
        let labels = offsets_of(w, OP_LABEL);
        assert_eq!(labels.len(), 1);
        splice(w, labels[0] + 2, &vec![NO_LINE; 2 * CW + 123])
    };
    let mut variants: Vec<(String, Vec<u32>)> = variants
        .into_iter()
        .map(|(label, w)| {
            if label == "plain" {
                (label, w)
            } else {
                (label, body_padded(&w))
            }
        })
        .collect();
    assert_eq!(
        spirv_val_verdict(&bytes(&body_padded(&base))),
        spirv_val_verdict(&bytes(&base)),
        "OpNoLine padding"
    );
    // The marker's name in the first chunk, a big body.
    variants.push(("body".into(), body_padded(&base)));
    let native = lib_options();
    let emulation = Options {
        mode: SpecConstMode::Emulation,
        sidecars: true,
        ..lib_options()
    };
    for (label, w) in &variants {
        let le = bytes(w);
        if label != "plain" {
            assert!(le.len() > CHUNK, "{label}: {} bytes", le.len());
        }
        if matches!(label.as_str(), "after-b1" | "linkage-straddling-b1") {
            // The example itself fails spirv-val (Generic variables, as DPC++ emits): the padding
            // must add no other complaint.
            let base_bytes = if label == "after-b1" {
                bytes(&body_padded(&base))
            } else {
                bytes(&body_padded(&linkage))
            };
            assert_eq!(
                spirv_val_verdict(&le),
                spirv_val_verdict(&base_bytes),
                "{label}: spirv-val"
            );
        }
        for (endian, input) in [("le", le.clone()), ("be", swapped(&le))] {
            let case = format!("{label}-{endian}");
            let out = same_output(&dir, &format!("{case}-native"), &input, &[], &native, false);
            assert!(
                out != input,
                "{case}: the markers were not lowered (output = input)"
            );
            assert_eq!(out[..4], input[..4], "{case}: byte order changed");
            let out = same_output(
                &dir,
                &format!("{case}-emulation"),
                &input,
                &["--spec-const", "emulation"],
                &emulation,
                false,
            );
            assert!(out != input, "{case}: emulation: output = input");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 5. small and odd inputs

#[test]
fn small_and_odd_inputs_behave_as_in_the_library() {
    let dir = tmpdir("small");
    let opts = lib_options();
    // A tiny module: the prefix ends inside the first read, which is the whole file.
    let tiny = assemble_text(&plain_text(3), "tiny");
    assert!(tiny.len() < 1024);
    assert!(same_output(&dir, "tiny", &tiny, &[], &opts, false) == tiny);
    assert!(same_output(&dir, "tiny-be", &swapped(&tiny), &[], &opts, false) == swapped(&tiny));
    let w = words(&tiny);
    let line = offsets_of(&w, OP_LINE)[1];
    let mut zero = w.clone();
    zero[line] &= 0xffff;
    let mut failures = Vec::new();
    let mut cases = vec![
        ("tiny-wc0", bytes(&zero), format!("{{}}: malformed instruction at word {line} (OpLine): word count is 0")),
        (
            "tiny-past-end",
            bytes(&w[..line + 3]),
            format!("{{}}: malformed instruction at word {line} (OpLine): word count 4 runs past the end of the module (3 words left)"),
        ),
        ("tiny-trailing", [tiny.clone(), vec![7]].concat(), format!("{{}}: truncated SPIR-V module: {} bytes is not a whole number of 32-bit words", tiny.len() + 1)),
        ("empty", Vec::new(), "{}: not a SPIR-V module: the input is empty".to_string()),
        ("twelve-bytes", tiny[..12].to_vec(), "{}: not a SPIR-V module: 12 bytes is shorter than the 20-byte header".to_string()),
        ("nineteen-bytes", tiny[..19].to_vec(), "{}: not a SPIR-V module: 19 bytes is shorter than the 20-byte header".to_string()),
    ];
    // Large inputs that are malformed in the header or the prefix: read whole, the same message.
    let big = bytes(&plain().words);
    let mut magic = big.clone();
    magic[0] = 0x42;
    cases.push((
        "big-magic",
        magic,
        "{}: not a SPIR-V module: wrong magic number 0x07230242 (expected 0x07230203)".into(),
    ));
    let mut schema = big.clone();
    schema[16] = 1;
    cases.push((
        "big-schema",
        schema,
        "{}: invalid SPIR-V header: schema word is 1 (must be 0)".into(),
    ));
    let pw = &plain().words;
    let name = offsets_of(pw, OP_NAME)[0];
    let mut prefix_zero = pw.clone();
    prefix_zero[name] &= 0xffff;
    cases.push((
        "big-prefix-wc0",
        bytes(&prefix_zero),
        format!("{{}}: malformed instruction at word {name} (OpName): word count is 0"),
    ));
    let ran = cases.len() * 2;
    for (case, input, expected) in cases {
        for (endian, input) in [("le", input.clone()), ("be", swapped(&input))] {
            // (The big-endian copies of the header cases differ: the library decides their message.)
            let expected = if endian == "be" && (input.len() < 20 || case == "big-magic") {
                let lib = process(&[Input::from_bytes("{}", input.clone())], &opts);
                lib.err().map(|e| e.to_string()).unwrap_or_default()
            } else {
                expected.clone()
            };
            if let Err(e) = same_error(&dir, &format!("{case}-{endian}"), &input, &expected, false)
            {
                failures.push(e);
            }
        }
    }
    // A module that is only a header: the library passes it through; so must the CLI.
    let header = tiny[..20].to_vec();
    assert!(same_output(&dir, "header-only", &header, &[], &opts, false) == header);
    assert!(
        same_output(&dir, "header-only-be", &swapped(&header), &[], &opts, false)
            == swapped(&header)
    );
    // More than a chunk of prefix and nothing after it (no type, no function): read whole. (Only
    // the prefix instructions that name no id: a module naming ids it never defines is refused.)
    let mut head: Vec<u32> = pw[..5].to_vec();
    let mut at = 5;
    while at < name {
        let n = (pw[at] >> 16) as usize;
        if [10, 14, 17].contains(&(pw[at] & 0xffff)) {
            head.extend_from_slice(&pw[at..at + n]);
        }
        at += n;
    }
    let only_prefix = [head.clone(), string_padding(OP_SOURCE_EXTENSION, CW + 50)].concat();
    let b = bytes(&only_prefix);
    let lib =
        process(&[Input::from_bytes("x", b.clone())], &opts).map(|o| o.module.to_bytes().unwrap());
    match lib {
        Ok(out) => {
            assert!(out == b && same_output(&dir, "only-prefix", &b, &[], &opts, false) == b)
        }
        Err(e) => failures.push(format!("only-prefix: the library rejects it: {e}")),
    }
    report(failures, ran);
}

#[test]
fn in_place_and_over_an_existing_file() {
    // The output is the input itself: the input is still read (from its open file) while the
    // temporary is written, then renamed over it.
    let dir = tmpdir("in-place");
    let le = bytes(&plain().words);
    let p = dir.join("m.spv");
    std::fs::write(&p, &le).unwrap();
    let r = run_cli(p.to_str().unwrap(), &p, &[]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(
        std::fs::read(&p).unwrap() == le,
        "in place: the module changed"
    );
    // A malformed tail in place: exit 1, the input untouched, no temporary left.
    let t = 2 * CW + 2;
    let mut zero = line_at(t);
    zero[t] &= 0xffff;
    let bad = bytes(&zero);
    std::fs::write(&p, &bad).unwrap();
    let r = run_cli(p.to_str().unwrap(), &p, &[]);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "error: {}: malformed instruction at word {t} (OpLine): word count is 0\n",
            p.display()
        )
    );
    assert!(
        std::fs::read(&p).unwrap() == bad,
        "in place: the input was modified on error"
    );
    // Over an existing output file: left as it was.
    let out = dir.join("existing.spv");
    std::fs::write(&out, b"sentinel").unwrap();
    let r = run_cli(p.to_str().unwrap(), &out, &[]);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(std::fs::read(&out).unwrap(), b"sentinel");
    assert!(
        leftovers(&dir).is_empty(),
        "temporary files left: {:?}",
        leftovers(&dir)
    );
}
