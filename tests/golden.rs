//! Golden tests: every `testdata/<case>/input.spvasm` (or `input.spv`, or several
//! `inputs/*.spvasm` to link, in name order) is lowered and compared with `expected.spvasm`,
//! `expected.prop` and `expected.json` beside it; every output must pass spirv-val. A case with
//! `expected.err` must fail with that message instead. `UPDATE_GOLDEN=1 cargo test --test golden`
//! rewrites the expected files.
//! A case may hold `args` (options, one per line: `--spec-const=emulation`,
//! `--emulation-layout=packed`).
//!
//! Each case is a test of its own (`cargo test --test golden -- <case>` runs one). A folder of
//! `testdata/` that holds no input and is not one of the data folders listed in [`DATA_FOLDERS`]
//! is an error: a case whose input was lost must not pass by being skipped.

mod common;

use libtest_mimic::{Arguments, Failed, Trial};
use spec_link::{process, EmulationLayout, Input, Options, SpecConstMode, Validation};
use std::path::Path;

/// Folders of `testdata/` that are inputs of other tests, not golden cases.
const DATA_FOLDERS: &[&str] = &[
    "auxdata-clang",
    "clang-debuginfo",
    "clang-devicelib",
    "clang-link",
    "dpcpp",
    "dpcpp-2025.3.3",
    "dpcpp-backend",
    "dpcpp-fixtures",
    "fuzz-regressions",
    "info",
    "postlink",
    "specialize-fold",
    "split",
];

fn options_for(case: &std::path::Path) -> Options {
    let mut o = Options {
        validation: Validation::Always,
        ..Options::default()
    };
    if let Ok(args) = std::fs::read_to_string(case.join("args")) {
        for a in args.lines().map(str::trim).filter(|l| !l.is_empty()) {
            match a {
                "--spec-const=native" => o.mode = SpecConstMode::Native,
                "--spec-const=emulation" => o.mode = SpecConstMode::Emulation,
                "--spec-const=default-values" => o.mode = SpecConstMode::DefaultValues,
                "--emulation-layout=packed" => o.emulation_layout = EmulationLayout::Packed,
                "--allow-partial" => o.link.allow_partial = true,
                "--create-library" => o.link.create_library = true,
                "--renumber-spec-ids" => o.link.renumber_spec_ids = true,
                other => panic!("{}: unknown option {other}", case.display()),
            }
        }
    }
    o
}

/// The inputs of a case: `input.spvasm`, `input.spv`, or `inputs/*.spvasm` (name order).
fn inputs_of(case: &Path) -> Vec<Input> {
    let mut inputs = Vec::new();
    for file in ["input.spvasm", "input.spv"] {
        let p = case.join(file);
        if p.exists() {
            let bytes = if file.ends_with("asm") {
                common::assemble(&p)
            } else {
                std::fs::read(&p).unwrap()
            };
            inputs.push(Input::from_bytes(file.replace(".spvasm", ".spv"), bytes));
        }
    }
    let many = case.join("inputs/*.spvasm");
    let mut files: Vec<_> = glob::glob(many.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
        .collect();
    files.sort();
    for p in files {
        let file = p
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".spvasm", ".spv");
        inputs.push(Input::from_bytes(file, common::assemble(&p)));
    }
    inputs
}

/// Runs one case; the failures are its golden files' diffs.
fn run_case(case: &Path, inputs: &[Input]) -> Result<(), Failed> {
    let options = options_for(case);
    let err_file = case.join("expected.err");
    let result = process(inputs, &options);
    if err_file.exists() {
        return match result {
            Ok(_) => Err(format!(
                "expected an error ({}), but spec-link succeeded",
                err_file.display()
            )
            .into()),
            Err(e) => match common::golden(&err_file, &format!("{e}\n")) {
                Some(d) => Err(d.into()),
                None => Ok(()),
            },
        };
    }
    let out = result.map_err(|e| format!("spec-link failed: {e}"))?;
    if out.validated_with.is_none() {
        return Err("output was not validated".into());
    }
    let mut failures = Vec::new();
    // The property sets as values (the library's other form) serialise to the same text.
    let sets = spec_link::sidecar::property_sets(
        &out.spec_map,
        out.mode == spec_link::SpecConstMode::DefaultValues,
    );
    if spec_link::properties::text::write(&sets) != out.prop {
        failures.push("text::write(property_sets()) differs from the streamed .prop".to_string());
    }
    let checks = [
        (
            "expected.spvasm",
            common::disassemble(&out.module.to_bytes().unwrap()),
        ),
        ("expected.prop", String::from_utf8(out.prop).unwrap()),
        ("expected.json", String::from_utf8(out.json).unwrap()),
    ];
    for (file, actual) in checks {
        failures.extend(common::golden(&case.join(file), &actual));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n\n").into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let pattern = common::repo().join("testdata/*");
    let mut trials = Vec::new();
    let mut cases = 0;
    for case in glob::glob(pattern.to_str().unwrap())
        .expect("glob")
        .map(Result::unwrap)
        .filter(|p| p.is_dir())
    {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        if DATA_FOLDERS.contains(&name.as_str()) {
            continue;
        }
        cases += 1;
        trials.push(Trial::test(name.clone(), move || {
            let inputs = inputs_of(&case);
            if inputs.is_empty() {
                return Err(format!(
                    "testdata/{name} holds no input (input.spvasm, input.spv or inputs/*.spvasm) \
                     and is not a data folder listed in tests/golden.rs"
                )
                .into());
            }
            run_case(&case, &inputs)
        }));
    }
    trials.push(Trial::test("cases_exist", move || {
        if cases == 0 {
            Err("no golden cases found under testdata/".into())
        } else {
            Ok(())
        }
    }));
    libtest_mimic::run(&args, trials).exit();
}
