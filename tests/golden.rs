//! Golden tests: every `testdata/<case>/input.spvasm` (or `input.spv`) is lowered and compared
//! with `expected.spvasm`, `expected.prop` and `expected.json` beside it; every output must pass
//! spirv-val. `UPDATE_GOLDEN=1 cargo test --test golden` rewrites the expected files.
//! A case may hold `args` (options, one per line: `--spec-const=emulation`,
//! `--emulation-layout=packed`).

mod common;

use spec_link::{process, EmulationLayout, Input, Options, SpecConstMode, Validation};

fn options_for(case: &std::path::Path) -> Options {
    let mut o = Options { validation: Validation::Always, ..Options::default() };
    if let Ok(args) = std::fs::read_to_string(case.join("args")) {
        for a in args.lines().map(str::trim).filter(|l| !l.is_empty()) {
            match a {
                "--spec-const=native" => o.mode = SpecConstMode::Native,
                "--spec-const=emulation" => o.mode = SpecConstMode::Emulation,
                "--spec-const=default-values" => o.mode = SpecConstMode::DefaultValues,
                "--emulation-layout=packed" => o.emulation_layout = EmulationLayout::Packed,
                other => panic!("{}: unknown option {other}", case.display()),
            }
        }
    }
    o
}

#[test]
fn golden_cases() {
    let pattern = common::repo().join("testdata/*/input.sp*");
    let mut failures = Vec::new();
    let mut ran = 0;
    for entry in glob::glob(pattern.to_str().unwrap()).expect("glob") {
        let input = entry.expect("glob entry");
        let case = input.parent().unwrap().to_path_buf();
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = match input.extension().and_then(|e| e.to_str()) {
            Some("spvasm") => common::assemble(&input),
            Some("spv") => std::fs::read(&input).unwrap(),
            _ => continue,
        };
        let options = options_for(&case);
        ran += 1;
        let out = match process(&[Input { name: name.clone(), bytes }], &options) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{name}: spec-link failed: {e}"));
                continue;
            }
        };
        assert!(out.validated_with.is_some(), "{name}: output was not validated");
        let checks = [
            ("expected.spvasm", common::disassemble(&out.module)),
            ("expected.prop", String::from_utf8(out.prop).unwrap()),
            ("expected.json", String::from_utf8(out.json).unwrap()),
        ];
        for (file, actual) in checks {
            if let Some(d) = common::golden(&case.join(file), &actual) {
                failures.push(format!("{name}: {d}"));
            }
        }
    }
    assert!(ran > 0, "no golden cases found under testdata/");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
