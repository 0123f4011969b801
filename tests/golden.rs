//! Golden tests: every `testdata/<case>/input.spvasm` (or `input.spv`, or several
//! `inputs/*.spvasm` to link, in name order) is lowered and compared with `expected.spvasm`,
//! `expected.prop` and `expected.json` beside it; every output must pass spirv-val. A case with
//! `expected.err` must fail with that message instead. `UPDATE_GOLDEN=1 cargo test --test golden`
//! rewrites the expected files.
//! A case may hold `args` (options, one per line: `--spec-const=emulation`,
//! `--emulation-layout=packed`).

mod common;

use spec_link::{process, EmulationLayout, Input, Options, SpecConstMode, Validation};

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

#[test]
fn golden_cases() {
    let pattern = common::repo().join("testdata/*");
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in glob::glob(pattern.to_str().unwrap())
        .expect("glob")
        .map(Result::unwrap)
    {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
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
        if inputs.is_empty() {
            continue;
        }
        let options = options_for(&case);
        ran += 1;
        let err_file = case.join("expected.err");
        let result = process(&inputs, &options);
        if err_file.exists() {
            match result {
                Ok(_) => failures.push(format!(
                    "{name}: expected an error ({}), but spec-link succeeded",
                    err_file.display()
                )),
                Err(e) => {
                    if let Some(d) = common::golden(&err_file, &format!("{e}\n")) {
                        failures.push(format!("{name}: {d}"));
                    }
                }
            }
            continue;
        }
        let out = match result {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{name}: spec-link failed: {e}"));
                continue;
            }
        };
        assert!(
            out.validated_with.is_some(),
            "{name}: output was not validated"
        );
        // The property sets as values (the library's other form) serialise to the same text.
        let sets = spec_link::sidecar::property_sets(
            &out.spec_map,
            out.mode == spec_link::SpecConstMode::DefaultValues,
        );
        if spec_link::sidecar::prop::write(&sets) != out.prop {
            failures.push(format!(
                "{name}: prop::write(property_sets()) differs from the streamed .prop"
            ));
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
            if let Some(d) = common::golden(&case.join(file), &actual) {
                failures.push(format!("{name}: {d}"));
            }
        }
    }
    assert!(ran > 0, "no golden cases found under testdata/");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
