//! `--split`: golden cases, bad input, and execution of split images.
//!
//! * Golden: every `testdata/split/<case>/` holds `inputs` (input files, one per line, relative
//!   to the repository) and `args` (options, one per line, `{repo}` standing for the
//!   repository); spec-link runs in a scratch folder
//!   with `-o out.table --json out.json --validate`, and the table, the JSON sidecar and each
//!   image's disassembly (`out_N.spvasm`), `.prop` and `.sym` are compared with the files in
//!   `testdata/split/<case>/expected/` (`UPDATE_GOLDEN=1` rewrites them). The set of files must
//!   match too.
//! * Bad input: `--split` without `-o`, `-o -`, an `--input-prop` that is not a property file,
//!   a device_image_scope device global reached from two images, an output folder that does not
//!   exist, an image file that cannot be written: exit 2 (usage) or 1, and no file left.
//! * Runtime: each kernel of the clang and DPC++ cases with a `run.json` runs from its
//!   per-kernel image (Intel CPU OpenCL runtime, `scripts/ocl_run.py`) and gives the results of
//!   the unsplit lowered module, with defaults and with overrides: native (spec constants set per
//!   the image's `.prop`) and emulation (the buffer built from the image's own sidecar).

mod common;

use spec_link::internals::spirv_val_error_key;
use spec_link::properties::{text, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_spec-link");

fn spec_link(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn golden_split_cases() {
    let root = common::repo().join("testdata/split");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("inputs").exists())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 3,
        "golden split cases missing in {}",
        root.display()
    );
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let scratch = common::Scratch::new(&format!(
            "spec-link-split-golden-{name}-{}",
            std::process::id()
        ));
        let mut args: Vec<String> = lines(&case.join("inputs"))
            .iter()
            .map(|i| common::repo().join(i).display().to_string())
            .collect();
        let repo = common::repo().display().to_string();
        args.extend(
            lines(&case.join("args"))
                .iter()
                .map(|a| a.replace("{repo}", &repo)),
        );
        args.extend(["-o", "out.table", "--json", "out.json", "--validate"].map(String::from));
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = spec_link(&scratch, &argv);
        assert!(
            out.status.success(),
            "{name}: spec-link failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let expected = case.join("expected");
        if update {
            let _ = std::fs::remove_dir_all(&expected);
            std::fs::create_dir_all(&expected).unwrap();
        }
        let mut produced = Vec::new();
        for file in files_in(&scratch) {
            let path = scratch.join(&file);
            let (golden_name, text) = if let Some(stem) = file.strip_suffix(".spv") {
                let bytes = std::fs::read(&path).unwrap();
                let version = (bytes[6], bytes[5]);
                let env = common::kernel_target_env(version);
                common::spirv_val(&bytes, &env, &format!("{name}/{file}"));
                (format!("{stem}.spvasm"), common::disassemble(&bytes))
            } else {
                (file.clone(), std::fs::read_to_string(&path).unwrap())
            };
            if let Some(diff) = common::golden(&expected.join(&golden_name), &text) {
                failures.push(format!("{name}: {diff}"));
            }
            produced.push(golden_name);
        }
        produced.sort();
        let wanted = files_in(&expected);
        if produced != wanted {
            failures.push(format!(
                "{name}: wrote {produced:?}, expected/ has {wanted:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A module with two kernels that both use one `device_image_scope` device global.
const SHARED_DEVICE_GLOBAL: &str = r#"
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %ka "KA"
               OpEntryPoint Kernel %kb "KB"
               OpName %dg "dg_shared"
               OpDecorate %dg UserSemantic "_Z9dg_shared"
               OpDecorate %dg LinkageAttributes "dg_shared" Export
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
         %st = OpTypeStruct %uint
       %init = OpConstantComposite %st %uint_1
      %ptr_g = OpTypePointer CrossWorkgroup %st
     %ptr_gu = OpTypePointer CrossWorkgroup %uint
       %void = OpTypeVoid
         %fn = OpTypeFunction %void %ptr_gu
         %dg = OpVariable %ptr_g CrossWorkgroup %init
     %uint_0 = OpConstant %uint 0
         %ka = OpFunction %void None %fn
         %pa = OpFunctionParameter %ptr_gu
         %la = OpLabel
         %va = OpInBoundsAccessChain %ptr_gu %dg %uint_0
         %xa = OpLoad %uint %va
               OpStore %pa %xa
               OpReturn
               OpFunctionEnd
         %kb = OpFunction %void None %fn
         %pb = OpFunctionParameter %ptr_gu
         %lb = OpLabel
         %vb = OpInBoundsAccessChain %ptr_gu %dg %uint_0
               OpStore %vb %uint_1
               OpReturn
               OpFunctionEnd
"#;

/// [`SHARED_DEVICE_GLOBAL`] but KB does not use the global: its debug information names it and
/// KA's function (as llvm-spirv writes a parameter's number, a literal among ids, which can equal
/// any id).
fn device_global_in_debug_info() -> String {
    let edits = [
        (
            "               OpMemoryModel",
            concat!(
                "               OpExtension \"SPV_KHR_non_semantic_info\"\n",
                "         %ns = OpExtInstImport \"NonSemantic.Shader.DebugInfo.200\"\n",
                "               OpMemoryModel",
            ),
        ),
        (
            "     %uint_0 = OpConstant %uint 0\n",
            concat!(
                "     %uint_0 = OpConstant %uint 0\n",
                "       %none = OpExtInst %void %ns 0\n",
                "      %dbvar = OpExtInst %void %ns 26 %uint_1 %dg %ka %none\n",
            ),
        ),
        (
            concat!(
                "         %vb = OpInBoundsAccessChain %ptr_gu %dg %uint_0\n",
                "               OpStore %vb %uint_1",
            ),
            "    %declare = OpExtInst %void %ns 28 %dbvar %pb\n               OpStore %pb %uint_1",
        ),
    ];
    edits
        .iter()
        .fold(SHARED_DEVICE_GLOBAL.to_string(), |text, (from, to)| {
            assert!(text.contains(from), "{from}");
            text.replace(from, to)
        })
}

/// Debug information is no use (in DPC++, debug metadata is not among a global's users): a
/// `device_image_scope` device global that another kernel's debug information names splits per
/// kernel, and KB's image does not take KA's function in for its debug record (whose reference
/// becomes `DebugInfoNone`): one function per image, each image valid.
#[test]
fn debug_information_does_not_use_an_image_scoped_device_global() {
    let scratch = common::Scratch::new(&format!("spec-link-split-dg-debug-{}", std::process::id()));
    let input = assemble_text(&scratch, &device_global_in_debug_info());
    assert_eq!(functions_per_kernel_image(&scratch, &input), [1, 1]);
}

/// Splits `input` per kernel into `out/` of `scratch`, validated (spirv-val's policy), and
/// counts the functions (`OpFunction`s) of each image the table lists.
fn functions_per_kernel_image(scratch: &Path, input: &Path) -> Vec<usize> {
    std::fs::create_dir_all(scratch.join("out")).unwrap();
    let input = input.to_str().unwrap();
    let args = [
        input,
        "--split",
        "per-kernel",
        "-o",
        "out/o.table",
        "--validate",
    ];
    let o = spec_link(scratch, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let images = lines(&scratch.join("out/o.table")).len() - 1;
    (0..images)
        .map(|n| {
            let words =
                common::words(&std::fs::read(scratch.join(format!("out/o_{n}.spv"))).unwrap());
            common::instructions(&words)
                .filter(|(_, w)| w[0] & 0xffff == 54)
                .count()
        })
        .collect()
}

/// Debug information brings no code into an image: `testdata/clang-debuginfo/split-O2.spv`
/// (llvm-spirv-15, OpenCL.DebugInfo.100): `ka` calls `helper`, inlined, and its code keeps
/// `helper`'s `DebugFunction`, which names the out-of-line `helper`, as an inlined-at scope.
/// Split per kernel, each image holds its kernel and llvm-spirv's wrapper of it, not `helper`
/// (whose `DebugFunction` names `DebugInfoNone` there). llvm-spirv-15's debug information
/// fails Debian's spirv-val (a `void` return type), so the images pass the validation policy
/// as their input fails it.
#[test]
fn debug_information_brings_no_code_into_an_image() {
    let scratch = common::Scratch::new(&format!(
        "spec-link-split-debug-code-{}",
        std::process::id()
    ));
    let input = common::repo().join("testdata/clang-debuginfo/split-O2.spv");
    assert_eq!(functions_per_kernel_image(&scratch, &input), [2, 2]);
}

/// A `DebugLocalVariable`'s argument number, which the LLVM/SPIR-V Translator writes as a
/// literal, stays what it is in a split image: DPC++'s `dgscope-debug` image (its 30-parameter
/// kernel numbers its parameters 1 to 30; 25 equals the id of another kernel's function, which
/// that kernel's image does not hold) split per kernel, each image's argument numbers are the
/// input's (none became `DebugInfoNone`'s id), and the kernel's image numbers its 30.
#[test]
fn translator_debug_argument_numbers_stay_in_split_images() {
    let scratch = common::Scratch::new(&format!(
        "spec-link-split-argnumbers-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(scratch.join("out")).unwrap();
    let input = common::repo().join("testdata/postlink/dgscope-debug/off/image0.spv");
    let args = [
        input.to_str().unwrap(),
        "--split",
        "per-kernel",
        "-o",
        "out/o.table",
        "--validate",
    ];
    let o = spec_link(&scratch, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let numbers = |path: &Path| common::debug_argument_numbers(&std::fs::read(path).unwrap());
    let input_numbers = numbers(&input);
    let images = lines(&scratch.join("out/o.table")).len() - 1;
    for n in 0..images {
        let image = numbers(&scratch.join(format!("out/o_{n}.spv")));
        let symbols = lines(&scratch.join(format!("out/o_{n}.sym")));
        if symbols.iter().any(|s| s.contains("KPlain")) {
            assert!(
                (1..=30).all(|k| image.contains(&k)),
                "KPlain's image does not number its 30 parameters 1 to 30: {image:?}"
            );
        }
        // The image's numbers are the input's, as a multiset: none was changed.
        let mut left = input_numbers.clone();
        for k in image {
            let Some(at) = left.iter().position(|&x| x == k) else {
                panic!("image {n} has argument number {k} more often than the input");
            };
            left.swap_remove(at);
        }
    }
}

/// Assembles `text`, turning each `OpDecorate %x UserSemantic "s"` into DPC++'s
/// `OpDecorate %x HostAccessINTEL(6147) 2 "s"` (which spirv-as does not know).
fn assemble_text(dir: &Path, text: &str) -> PathBuf {
    let asm = dir.join("in.spvasm");
    std::fs::write(&asm, text).unwrap();
    let words = common::words(&common::assemble(&asm));
    let mut out = words[..5].to_vec();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        let inst = &words[i..i + n];
        if inst[0] & 0xffff == 71 && inst[2] == 5635 {
            out.push(((n as u32 + 1) << 16) | 71);
            out.extend([inst[1], 6147, 2]);
            out.extend(&inst[3..]);
        } else {
            out.extend(inst);
        }
        i += n;
    }
    let spv = dir.join("in.spv");
    std::fs::write(&spv, common::bytes(&out)).unwrap();
    spv
}

/// Runs a failing split into `out/` of a fresh scratch folder (scratch folders are named with
/// the process id: another checkout may run the same test at the same time); checks the exit code and that
/// `out/` is left as it was (`keep` = the files that were there before).
fn fails_leaving_nothing(
    name: &str,
    args: &[&str],
    code: i32,
    message: &str,
    prepare: impl FnOnce(&Path),
) {
    let scratch = common::Scratch::new(&format!(
        "spec-link-split-fail-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(scratch.join("out")).unwrap();
    prepare(&scratch);
    let before = files_in(&scratch.join("out"));
    let o = spec_link(&scratch, args);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{name}: {stderr}");
    assert!(stderr.contains(message), "{name}: {stderr}");
    assert_eq!(files_in(&scratch.join("out")), before, "{name}: files left");
}

#[test]
fn bad_split_runs_fail_and_leave_no_file() {
    let input = common::repo()
        .join("testdata/clang-helper-two-kernels/input.spv")
        .display()
        .to_string();
    let input = input.as_str();
    // --split without -o: a usage error.
    fails_leaving_nothing(
        "no-o",
        &[input, "--split", "per-kernel"],
        2,
        "--output",
        |_| {},
    );
    fails_leaving_nothing(
        "stdout",
        &[input, "--split", "per-kernel", "-o", "-"],
        2,
        "-o must name the file table",
        |_| {},
    );
    fails_leaving_nothing(
        "unknown-mode",
        &[input, "--split", "per-file", "-o", "out/o.table"],
        2,
        "per-file",
        |_| {},
    );
    fails_leaving_nothing(
        "input-prop-without-split",
        &[input, "--input-prop", input, "-o", "out/o.spv"],
        2,
        "--input-prop needs --split",
        |_| {},
    );
    // An --input-prop that is a SPIR-V module, not a property file.
    fails_leaving_nothing(
        "bad-input-prop",
        &[
            input,
            "--split",
            "per-kernel",
            "--input-prop",
            input,
            "-o",
            "out/o.table",
        ],
        1,
        "not a property file",
        |_| {},
    );
    // The output folder does not exist.
    fails_leaving_nothing(
        "no-folder",
        &[input, "--split", "per-kernel", "-o", "out/missing/o.table"],
        1,
        "out/missing/o_",
        |_| {},
    );
    // The second image's .prop cannot be written (a folder is in its place): the first image's
    // files, already staged, go too.
    fails_leaving_nothing(
        "unwritable-image",
        &[input, "--split", "per-kernel", "-o", "out/o.table"],
        1,
        "is a directory",
        |dir| std::fs::create_dir_all(dir.join("out/o_1.prop")).unwrap(),
    );
    // An image file would replace an input.
    fails_leaving_nothing(
        "image-replaces-input",
        &["out/o_0.spv", "--split", "per-kernel", "-o", "out/o.table"],
        2,
        "has the name of an image file",
        |dir| {
            std::fs::copy(
                common::repo().join("testdata/clang-helper-two-kernels/input.spv"),
                dir.join("out/o_0.spv"),
            )
            .unwrap();
        },
    );
    fails_leaving_nothing(
        "table-replaces-input",
        &[
            input,
            "--split",
            "per-kernel",
            "--input-prop",
            "out/o.table",
            "-o",
            "out/o.table",
        ],
        2,
        "-o names the input",
        |dir| std::fs::write(dir.join("out/o.table"), "[SYCL/misc properties]\n").unwrap(),
    );
    // A device_image_scope device global reached from two images: DPC++'s error.
    let scratch = common::Scratch::new(&format!("spec-link-split-dg-input-{}", std::process::id()));
    let shared = assemble_text(&scratch, SHARED_DEVICE_GLOBAL);
    let shared = shared.to_str().unwrap();
    fails_leaving_nothing(
        "device-global-conflict",
        &[shared, "--split", "per-kernel", "-o", "out/o.table"],
        1,
        "device_global variable 'dg_shared' with property \"device_image_scope\" is used in more than one device image.",
        |_| {},
    );
    // The same module unsplit is fine: both kernels are in one image.
    let ok = common::Scratch::new(&format!("spec-link-split-dg-off-{}", std::process::id()));
    let o = spec_link(
        &ok,
        &[shared, "--split", "off", "-o", "o.table", "--validate"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(ok.join("o_0.sym")).unwrap(),
        "KA\nKB\n"
    );
}

/// How an image's spec constants are set when it runs.
enum SpecFrom<'a> {
    /// From its `.prop` (`--no-spec` when it names no spec constant: override set 0 only).
    Prop(&'a Path),
    /// An emulation image's buffer, built from its sidecar (`--no-spec` without one).
    Emulation(&'a Option<PathBuf>),
}

/// Runs `run.json` image `image` from `spv`, its spec constants set from `spec`: the results.
fn ocl_results(spv: &Path, spec: SpecFrom<'_>, run_json: &Path, image: u64) -> serde_json::Value {
    let mut cmd = common::ocl_run();
    cmd.arg("--spv").arg(spv);
    match spec {
        SpecFrom::Prop(prop) => {
            cmd.arg("--prop").arg(prop);
            let text = std::fs::read_to_string(prop).unwrap();
            if !text.contains("[SYCL/specialization constants]") {
                cmd.arg("--no-spec");
            }
        }
        SpecFrom::Emulation(Some(json)) => {
            cmd.arg("--emulation-json").arg(json);
        }
        SpecFrom::Emulation(None) => {
            cmd.arg("--no-spec");
        }
    }
    let out = cmd
        .arg("--run-json")
        .arg(run_json)
        .args(["--image", &image.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: failed to run:\n{}",
        spv.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Splits `input` per kernel in emulation mode through the library and writes the image holding
/// `kernel` and its spec-constant sidecar into `dir`: their paths.
fn emulation_image(input: &Path, kernel: &str, dir: &Path) -> (PathBuf, Option<PathBuf>) {
    use spec_link::split::{split, SplitMode, SplitOptions};
    let options = spec_link::Options {
        mode: spec_link::SpecConstMode::Emulation,
        spec_id_order: spec_link::SpecIdOrder::Dpcpp,
        validation: spec_link::Validation::Always,
        ..Default::default()
    };
    let out = split(
        vec![spec_link::Input::open(input, false).unwrap()],
        &options,
        &SplitOptions {
            mode: SplitMode::PerKernel,
            emit_kernel_names: false,
            emit_program_metadata: false,
            allow_dependencies: false,
            input_props: Vec::new(),
            device_lib_dir: None,
        },
    )
    .unwrap();
    let image = out
        .images
        .iter()
        .find(|i| i.entries.iter().any(|e| e.name == kernel))
        .unwrap_or_else(|| panic!("{}: no image holds {kernel}", input.display()));
    let (spv, json) = (dir.join("emulation.spv"), dir.join("emulation.json"));
    std::fs::write(&spv, image.module.to_bytes().unwrap()).unwrap();
    if image.spec_map.constants.is_empty() {
        return (spv, None);
    }
    let mut text = Vec::new();
    image.write_spec_json(&mut text).unwrap();
    std::fs::write(&json, text).unwrap();
    (spv, Some(json))
}

/// (input, run.json, image number, kernel) of the runnable cases: the clang cases with one
/// input and the DPC++ images of `testdata/dpcpp`.
fn runnable() -> Vec<(PathBuf, PathBuf, u64, String)> {
    let mut out = Vec::new();
    let repo = common::repo();
    let mut add = |input: PathBuf, run_json: &Path, only: Option<u64>| {
        let spec: serde_json::Value =
            serde_json::from_slice(&std::fs::read(run_json).unwrap()).unwrap();
        for image in spec["images"].as_array().unwrap() {
            let n = image["image"].as_u64().unwrap();
            if only.is_some_and(|o| o != n) {
                continue;
            }
            let kernel = image["kernel"].as_str().unwrap().to_string();
            out.push((input.clone(), run_json.to_path_buf(), n, kernel));
        }
    };
    for case in [
        "clang-helper-two-kernels",
        "clang-scalars",
        "clang-composites",
    ] {
        let dir = repo.join("testdata").join(case);
        if dir.join("run.json").exists() {
            add(dir.join("input.spv"), &dir.join("run.json"), None);
        }
    }
    let pattern = repo.join("testdata/dpcpp/*/run.json");
    for run_json in glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
    {
        let dir = run_json.parent().unwrap();
        for input in glob::glob(dir.join("image*.input.spv").to_str().unwrap())
            .unwrap()
            .map(Result::unwrap)
        {
            let file = input.file_name().unwrap().to_string_lossy().into_owned();
            let n: u64 = file["image".len()..file.len() - ".input.spv".len()]
                .parse()
                .unwrap();
            add(input.clone(), &run_json, Some(n));
        }
    }
    out
}

#[test]
fn per_kernel_images_run_like_the_unsplit_module() {
    let scratch = common::Scratch::new(&format!("spec-link-split-runtime-{}", std::process::id()));
    let mut ran = 0;
    for (k, (input, run_json, image, kernel)) in runnable().into_iter().enumerate() {
        let dir = scratch.join(k.to_string());
        std::fs::create_dir_all(&dir).unwrap();
        let input_s = input.to_str().unwrap();
        let common_args = ["--spec-id-order", "dpcpp", "--validate"];
        // Unsplit.
        let mut args = vec![input_s, "-o", "whole.spv", "--prop", "whole.prop"];
        args.extend(common_args);
        let o = spec_link(&dir, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let whole = ocl_results(
            &dir.join("whole.spv"),
            SpecFrom::Prop(&dir.join("whole.prop")),
            &run_json,
            image,
        );
        // Split per kernel: the image whose .sym names the kernel.
        let mut args = vec![input_s, "--split", "per-kernel", "-o", "split.table"];
        args.extend(common_args);
        let o = spec_link(&dir, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let table = std::fs::read_to_string(dir.join("split.table")).unwrap();
        let row = table
            .lines()
            .skip(1)
            .map(|l| l.split('|').map(|c| dir.join(c)).collect::<Vec<_>>())
            .find(|r| {
                std::fs::read_to_string(&r[2])
                    .unwrap()
                    .lines()
                    .any(|s| s == kernel)
            })
            .unwrap_or_else(|| panic!("{}: no image holds {kernel}", input.display()));
        let split = ocl_results(&row[0], SpecFrom::Prop(&row[1]), &run_json, image);
        let results = |v: &serde_json::Value| -> Vec<serde_json::Value> {
            v["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["buffers"].clone())
                .collect()
        };
        let (split, whole) = (results(&split), results(&whole));
        let whole_results = whole.clone();
        if split.len() == 1 && whole.len() > 1 {
            // No spec constant in the image: every override set computes the same.
            assert!(
                whole.iter().all(|w| *w == split[0]),
                "{} kernel {kernel}: the split image (no spec constants) computes differently",
                input.display()
            );
        } else {
            assert_eq!(
                split,
                whole,
                "{} kernel {kernel}: the split image computes differently",
                input.display()
            );
        }
        // Emulation: the image's own sidecar (through the library) names the buffer argument and
        // the constants' offsets; the results are the native ones.
        let emulated = emulation_image(&input, &kernel, &dir);
        let emulated = results(&ocl_results(
            &emulated.0,
            SpecFrom::Emulation(&emulated.1),
            &run_json,
            image,
        ));
        if emulated.len() == 1 && whole_results.len() > 1 {
            assert!(
                whole_results.iter().all(|w| *w == emulated[0]),
                "{} kernel {kernel}: the split emulation image (no spec constants) computes differently",
                input.display()
            );
        } else {
            assert_eq!(
                emulated,
                whole_results,
                "{} kernel {kernel}: the split emulation image computes differently",
                input.display()
            );
        }
        ran += 1;
    }
    assert!(ran >= 20, "only {ran} kernels ran");
}

/// The bfloat16 device library: code that imports its conversions (the `bf16` DPC++ case) gets,
/// with `--device-lib-dir`, an image of each implementation after its own — the library's
/// files unchanged, `[SYCL/exported symbols]` its `__devicelib_*` functions in module order,
/// `[SYCL/devicelib metadata] bfloat16` 0 (fallback) then 1 (native), an empty `.sym` — and a
/// note without it; a library input no image uses is left out with a note; a folder without
/// the library, or inputs that are all library, fail leaving no file.
#[test]
fn bfloat16_device_library_images_follow_the_split() {
    let case = common::repo().join("testdata/postlink/bf16/off");
    let code = case.join("image0.spv");
    let code_s = code.to_str().unwrap();
    let lib = common::devicelib();
    let lib_s = lib.to_str().unwrap();
    let scratch = common::Scratch::new(&format!("spec-link-split-bf16-{}", std::process::id()));
    let run = |args: &[&str]| {
        let o = spec_link(&scratch, args);
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{args:?}: {stderr}");
        stderr
    };
    let stderr = run(&[code_s, "--split", "per-kernel", "-o", "with.table"]);
    assert!(stderr.contains("--device-lib-dir"), "{stderr}");
    assert_eq!(
        lines(&scratch.join("with.table")).len(),
        1 + 4,
        "4 kernel images"
    );
    run(&[
        code_s,
        "--split",
        "per-kernel",
        "-o",
        "lib.table",
        "--device-lib-dir",
        lib_s,
    ]);
    let rows = lines(&scratch.join("lib.table"));
    assert_eq!(rows.len(), 1 + 4 + 2, "{rows:?}");
    for (k, (file, bfloat16)) in [("fallback", 0u32), ("native", 1)].into_iter().enumerate() {
        let cells: Vec<PathBuf> = rows[5 + k].split('|').map(|c| scratch.join(c)).collect();
        let spv = std::fs::read(&cells[0]).unwrap();
        let library = std::fs::read(lib.join(format!("libsycl-{file}-bfloat16.spv"))).unwrap();
        assert!(spv == library, "image {} is not the {file} library", 4 + k);
        assert_eq!(std::fs::read_to_string(&cells[2]).unwrap(), "");
        let sets = text::read(&std::fs::read(&cells[1]).unwrap()).unwrap();
        let names: Vec<&str> = sets.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["SYCL/exported symbols", "SYCL/devicelib metadata"]);
        let exported: Vec<&str> = sets[0].properties.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(exported.len(), 14, "{exported:?}");
        assert_eq!(
            exported[..2],
            [
                "__devicelib_ConvertFToBF16INTEL",
                "__devicelib_ConvertBF16ToFINTEL"
            ]
        );
        assert_eq!(
            sets[1].properties,
            [("bfloat16".to_string(), Value::Uint32(bfloat16))]
        );
        if file == "fallback" {
            // (The native one uses SPV_INTEL_bfloat16_conversion, which this spirv-val does not
            // know: it is the library's file unchanged, checked above.)
            common::spirv_val(&spv, "spv1.4", "the fallback library's image");
        }
    }
    // The library as inputs (DPC++'s own images of it) gives the same; unused, a note.
    let fallback = lib.join("libsycl-fallback-bfloat16.spv");
    let native = lib.join("libsycl-native-bfloat16.spv");
    let (fallback_s, native_s) = (fallback.to_str().unwrap(), native.to_str().unwrap());
    run(&[
        code_s,
        fallback_s,
        native_s,
        "--split",
        "per-kernel",
        "-o",
        "inputs.table",
    ]);
    for k in 0..rows.len() - 1 {
        for ext in ["spv", "prop", "sym"] {
            let (a, b) = (format!("lib_{k}.{ext}"), format!("inputs_{k}.{ext}"));
            assert!(
                std::fs::read(scratch.join(&a)).unwrap()
                    == std::fs::read(scratch.join(&b)).unwrap(),
                "{a} differs from {b}"
            );
        }
    }
    let other = common::repo().join("testdata/postlink/kattrs/off/image0.spv");
    let stderr = run(&[
        other.to_str().unwrap(),
        native_s,
        "--split",
        "auto",
        "-o",
        "unused.table",
    ]);
    assert!(stderr.contains("which no image uses: left out"), "{stderr}");
    for row in lines(&scratch.join("unused.table")).iter().skip(1) {
        let prop = row.split('|').nth(1).unwrap();
        let text = std::fs::read_to_string(scratch.join(prop)).unwrap();
        assert!(!text.contains("devicelib"), "{prop}: {text}");
    }
    fails_leaving_nothing(
        "bf16-no-library",
        &[
            code_s,
            "--split",
            "auto",
            "-o",
            "out/o.table",
            "--device-lib-dir",
            ".",
        ],
        1,
        "libsycl-fallback-bfloat16.spv (--device-lib-dir)",
        |_| {},
    );
    fails_leaving_nothing(
        "bf16-only-library",
        &[fallback_s, native_s, "--split", "auto", "-o", "out/o.table"],
        1,
        "every input is the bfloat16 device library",
        |_| {},
    );
}

/// `--input-prop` files given in the wrong order (esimd-slm: DPC++'s ESIMD and SYCL images, each
/// file naming the other's kernels): the split goes on (the files may lack the kernel sets for
/// good reason) but warns, once per input, that its file names none of its kernels; in the
/// right order, no such warning.
#[test]
fn property_files_of_other_modules_are_named() {
    let tmp = common::Scratch::new("spec-link-split-foreign-prop");
    let off = common::repo().join("testdata/postlink/esimd-slm/off");
    let run = |props: [&str; 2], out: &str| {
        let mut args: Vec<String> = ["image0.spv", "image1.spv"]
            .iter()
            .map(|i| off.join(i).display().to_string())
            .collect();
        for p in props {
            args.push("--input-prop".into());
            args.push(off.join(p).display().to_string());
        }
        args.extend(["--split", "per-kernel", "--no-validate", "-o"].map(String::from));
        args.push(tmp.join(out).join("o.table").display().to_string());
        std::fs::create_dir_all(tmp.join(out)).unwrap();
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = spec_link(&tmp, &refs);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let warning = "name kernels, none of them";
    let swapped = run(["image1.prop", "image0.prop"], "swapped");
    assert_eq!(swapped.matches(warning).count(), 2, "{swapped}");
    let right = run(["image0.prop", "image1.prop"], "right");
    assert!(!right.contains(warning), "{right}");
}

/// Splitting an image lowered before (DPC++'s `*.native.spv`) with its property file: each image
/// describes the file's spec constants whose SpecIds it holds, with the file's descriptors and
/// their default bytes; a file whose constants' SpecIds the module does not hold (another
/// module's) gets a warning naming how many.
#[test]
fn spec_constants_of_a_lowered_input_are_carried() {
    let tmp = common::Scratch::new("spec-link-split-lowered-prop");
    let off = common::repo().join("testdata/postlink/specconst/off");
    let run = |prop: &Path, out: &str| {
        std::fs::create_dir_all(tmp.join(out)).unwrap();
        let args = [
            off.join("image0.native.spv").display().to_string(),
            "--input-prop".into(),
            prop.display().to_string(),
            "--split".into(),
            "per-kernel".into(),
            "-o".into(),
            tmp.join(out).join("o.table").display().to_string(),
        ];
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = spec_link(&tmp, &refs);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let warning = "whose SpecIds";
    let own = run(&off.join("image0.native.prop"), "own");
    assert!(!own.contains(warning), "{own}");
    let given = spec_link::info::names::SymbolNames::from_prop_text(
        "given",
        &std::fs::read(off.join("image0.native.prop")).unwrap(),
    )
    .unwrap();
    let mut described = 0;
    for n in 0.. {
        let prop = tmp.join("own").join(format!("o_{n}.prop"));
        if !prop.exists() {
            break;
        }
        let image = spec_link::info::names::SymbolNames::from_prop_text(
            "image",
            &std::fs::read(&prop).unwrap(),
        )
        .unwrap();
        for c in &image.constants {
            let g = given.constants.iter().find(|g| g.name == c.name).unwrap();
            assert_eq!(c.descriptors, g.descriptors, "{}", c.name);
            let size = (c.descriptors.last().unwrap().offset + c.descriptors.last().unwrap().size)
                as usize;
            let at = |n: &spec_link::info::names::SymbolNames, o: u64| {
                n.default_blob.as_ref().unwrap()[o as usize..o as usize + size].to_vec()
            };
            assert_eq!(
                at(&image, c.blob_offset),
                at(&given, g.blob_offset),
                "{}",
                c.name
            );
            described += 1;
        }
    }
    // (Three kernels: two read two constants each, one reads none.)
    assert_eq!(described, 4);
    let foreign = common::repo().join("testdata/postlink/spec112/off/image0.native.prop");
    let other = run(&foreign, "foreign");
    assert_eq!(other.matches(warning).count(), 1, "{other}");
    // Linked with a module whose marker calls the split lowers, into one image: its sets
    // describe only the constants it lowers, with a warning.
    let unlowered = common::repo().join("testdata/postlink/specconst2/off");
    let args = [
        off.join("image0.native.spv").display().to_string(),
        "--input-prop".into(),
        off.join("image0.native.prop").display().to_string(),
        unlowered.join("image0.spv").display().to_string(),
        "--input-prop".into(),
        unlowered.join("image0.prop").display().to_string(),
        "--split".into(),
        "off".into(),
        "-o".into(),
        tmp.join("mixed.table").display().to_string(),
    ];
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = spec_link(&tmp, &refs);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        stderr.matches("also has marker calls").count(),
        1,
        "{stderr}"
    );
    let mixed = spec_link::info::names::SymbolNames::from_prop_text(
        "mixed",
        &std::fs::read(tmp.join("mixed_0.prop")).unwrap(),
    )
    .unwrap();
    assert!(!mixed.constants.is_empty());
    assert!(mixed.constants.iter().all(|c| !c.name.contains("sharedId")));
}

/// Two lowered inputs whose SpecIds collide, linked with `--renumber-spec-ids` and split per
/// kernel: the images' carried descriptors name the renumbered SpecIds, so `info` finds every
/// name in the images, each fitting its constant.
#[test]
fn carried_spec_constants_follow_renumbered_spec_ids() {
    let tmp = common::Scratch::new("spec-link-split-lowered-renumbered");
    let cases = common::repo().join("testdata/postlink");
    let mut args: Vec<String> = Vec::new();
    let mut given = std::collections::BTreeSet::new();
    for case in ["specconst", "specconst2"] {
        let off = cases.join(case).join("off");
        let prop = off.join("image0.native.prop");
        let names = spec_link::info::names::SymbolNames::from_prop_text(
            case,
            &std::fs::read(&prop).unwrap(),
        )
        .unwrap();
        given.extend(names.constants.into_iter().map(|c| c.name));
        args.push(off.join("image0.native.spv").display().to_string());
        args.push("--input-prop".into());
        args.push(prop.display().to_string());
    }
    args.extend(
        [
            "--renumber-spec-ids",
            "--split",
            "per-kernel",
            "-o",
            "o.table",
        ]
        .map(String::from),
    );
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = spec_link(&tmp, &refs);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut found = std::collections::BTreeSet::new();
    for n in 0.. {
        let spv = tmp.join(format!("o_{n}.spv"));
        if !spv.exists() {
            break;
        }
        let prop = tmp.join(format!("o_{n}.prop")).display().to_string();
        let spv = spv.display().to_string();
        let o = spec_link(&tmp, &["info", &spv, "--input-prop", &prop, "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let info: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        for c in info["named_constants"].as_array().unwrap() {
            assert!(c.get("mismatch").is_none(), "o_{n}: {c}");
            found.insert(c["name"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(found, given);
}

/// Two kernels; `KA` loads and stores with the Intel alias scope lists of
/// `SPV_INTEL_memory_access_aliasing` (llvm-spirv's translation of `!alias.scope` / `!noalias`,
/// declared after the names as llvm-spirv writes them), `KB` does not.
const ALIASING_KERNELS: &str = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpCapability MemoryAccessAliasingINTEL
               OpExtension "SPV_INTEL_memory_access_aliasing"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %ka "KA"
               OpEntryPoint Kernel %kb "KB"
               OpName %ka "KA"
        %dom = OpAliasDomainDeclINTEL
      %scope = OpAliasScopeDeclINTEL %dom
       %list = OpAliasScopeListDeclINTEL %scope
               OpDecorate %pa Restrict
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr
         %ka = OpFunction %void None %fn
         %pa = OpFunctionParameter %ptr
         %la = OpLabel
         %va = OpLoad %uint %pa Aligned|NoAliasINTELMask 4 %list
               OpStore %pa %va Aligned|AliasScopeINTELMask 4 %list
               OpReturn
               OpFunctionEnd
         %kb = OpFunction %void None %fn
         %pb = OpFunctionParameter %ptr
         %lb = OpLabel
         %vb = OpLoad %uint %pb Aligned 4
               OpStore %pb %vb Aligned 4
               OpReturn
               OpFunctionEnd
"#;

/// The ids memory operands take keep their definitions in the images: split per kernel, `KA`'s
/// image holds the alias declarations its load and store name, where the input has them (after
/// the names); `KB`'s holds none and passes spirv-val. (Debian's spirv-val does not know where
/// the declarations go: `KA`'s image fails it only as the input does.)
#[test]
fn alias_scope_declarations_follow_the_kernels_that_use_them() {
    let tmp = common::Scratch::new(&format!("spec-link-split-aliasing-{}", std::process::id()));
    let input = assemble_text(&tmp, ALIASING_KERNELS);
    let input_bytes = std::fs::read(&input).unwrap();
    let o = spec_link(
        &tmp,
        &["in.spv", "--split", "per-kernel", "-o", "out.table"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let env = common::kernel_target_env((input_bytes[6], input_bytes[5]));
    let input_error = common::tool(
        "spirv-val",
        &["--target-env", &env, "-"],
        Some(&input_bytes),
    );
    let mut seen = Vec::new();
    for k in 0..2 {
        let kernels = std::fs::read_to_string(tmp.join(format!("out_{k}.sym"))).unwrap();
        let image = std::fs::read(tmp.join(format!("out_{k}.spv"))).unwrap();
        assert!(
            common::dangling_uses(&input_bytes, &image).is_empty(),
            "image {k} uses ids it does not define"
        );
        let text = common::disassemble(&image);
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let at = |needle: &str| lines.iter().position(|l| l.contains(needle));
        match kernels.trim() {
            "KA" => {
                let list = at("OpAliasScopeListDeclINTEL").expect("KA's image declares the list");
                let name = at("OpName").unwrap();
                let domain = at("OpAliasDomainDeclINTEL").unwrap();
                assert!(
                    name < domain && list < at("OpDecorate").unwrap(),
                    "the declarations moved:\n{text}"
                );
                let list_id = lines[list].split(" = ").next().unwrap();
                assert!(
                    text.contains(&format!("Aligned|NoAliasINTELMask 4 {list_id}\n")),
                    "{text}"
                );
                let out = common::tool("spirv-val", &["--target-env", &env, "-"], Some(&image));
                let first = |o: &Output| {
                    let text = String::from_utf8_lossy(&o.stderr).into_owned();
                    spirv_val_error_key(text.lines().next().unwrap_or(""))
                };
                assert!(!out.status.success() && !input_error.status.success());
                assert_eq!(
                    first(&out),
                    first(&input_error),
                    "KA's image fails spirv-val otherwise than the input"
                );
            }
            "KB" => {
                assert!(
                    at("OpAlias").is_none(),
                    "KB's image holds alias declarations:\n{text}"
                );
                common::spirv_val(&image, &env, "KB's image");
            }
            other => panic!("image {k} holds {other:?}"),
        }
        seen.push(kernels.trim().to_string());
    }
    seen.sort();
    assert_eq!(seen, ["KA", "KB"]);
}

/// Four kernels, one image each per kernel.
const FOUR_KERNELS: &str = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %ka "KernelAlpha"
               OpEntryPoint Kernel %kb "KernelBravo"
               OpEntryPoint Kernel %kc "KernelCharlie"
               OpEntryPoint Kernel %kd "KernelDelta"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
         %ka = OpFunction %void None %fn
         %la = OpLabel
               OpReturn
               OpFunctionEnd
         %kb = OpFunction %void None %fn
         %lb = OpLabel
               OpReturn
               OpFunctionEnd
         %kc = OpFunction %void None %fn
         %lc = OpLabel
               OpReturn
               OpFunctionEnd
         %kd = OpFunction %void None %fn
         %ld = OpLabel
               OpReturn
               OpFunctionEnd
"#;

/// Images are validated while the next ones are made; the split's error is still the first
/// failing image's in image order, and no file is written. Per kernel, the images are in
/// reverse kernel order (`KernelDelta`'s first, as DPC++ orders them). The stand-in validator
/// passes the module (it holds every kernel) and refuses the images of `KernelCharlie` (image 1,
/// slowly: a later image's validation would finish first) and `KernelAlpha` (image 3).
#[test]
fn the_first_image_spec_link_breaks_fails_the_split() {
    let tmp = common::Scratch::new(&format!("spec-link-split-val-order-{}", std::process::id()));
    assemble_text(&tmp, FOUR_KERNELS);
    let fake = tmp.join("fake-spirv-val");
    std::fs::write(
        &fake,
        "#!/bin/sh\n[ \"$1\" = --version ] && exit 0\nf=$(mktemp)\ncat > \"$f\"\n\
         if grep -q KernelAlpha \"$f\" && grep -q KernelDelta \"$f\"; then rm -f \"$f\"; exit 0; fi\n\
         if grep -q KernelCharlie \"$f\"; then rm -f \"$f\"; sleep 0.5; echo 'error: fake: Charlie refused' >&2; exit 1; fi\n\
         if grep -q KernelAlpha \"$f\"; then rm -f \"$f\"; echo 'error: fake: Alpha refused' >&2; exit 1; fi\n\
         rm -f \"$f\"\n",
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&fake).status().unwrap();
    std::fs::create_dir_all(tmp.join("out")).unwrap();
    for mode in ["per-kernel", "per-source"] {
        let o = Command::new(BIN)
            .current_dir(&tmp)
            .args(["in.spv", "--split", mode, "-o", "out/o.table"])
            .env("SPEC_LINK_SPIRV_VAL", &fake)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        if mode == "per-source" {
            // One image, which holds every kernel: the module's verdict.
            assert!(o.status.success(), "{stderr}");
            continue;
        }
        assert_eq!(o.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("error: image 1 of ")
                && stderr.contains("fake: Charlie refused")
                && !stderr.contains("Alpha"),
            "{stderr}"
        );
        assert!(files_in(&tmp.join("out")).is_empty(), "files left");
    }
}
