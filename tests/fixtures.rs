//! The real DPC++ images in `../shared/fixtures/dpcpp/`: our spec-constant property sets must
//! equal DPC++'s (`image*.dpcpp-native.prop`) and our output must pass spirv-val — DPC++'s own
//! output does not.

mod common;

use spec_link::{process, Input, Options, SpecConstMode, Validation};

fn images() -> Vec<std::path::PathBuf> {
    let pattern = common::fixtures().join("*/image*.input.spv");
    let v: Vec<_> = glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!v.is_empty(), "no fixture images found");
    v
}

#[test]
fn property_sets_equal_dpcpp() {
    check_property_sets(SpecConstMode::Native, ".dpcpp-native.prop");
}

#[test]
fn emulation_property_sets_equal_dpcpp() {
    check_property_sets(SpecConstMode::Emulation, ".dpcpp-emulation.prop");
}

/// Default-values mode: no spec constant and no marker left; the sidecar still lists every
/// constant (emulation layout, as DPC++'s default-values image beside an AOT image) and marks
/// the image `specConstsReplacedWithDefault`.
#[test]
fn default_values_mode_leaves_no_spec_constants() {
    for input in images() {
        let bytes = std::fs::read(&input).unwrap();
        let opts = Options {
            mode: SpecConstMode::DefaultValues,
            validation: Validation::Always,
            ..Options::default()
        };
        let out = process(
            &[Input::from_bytes(input.display().to_string(), bytes)],
            &opts,
        )
        .unwrap();
        let dis = common::disassemble(&out.module.to_bytes().unwrap());
        assert!(
            !dis.contains("OpSpecConstant"),
            "{}: spec constants left",
            input.display()
        );
        assert!(
            !dis.contains("SpecConstantValue"),
            "{}: marker left",
            input.display()
        );
        let prop = String::from_utf8(out.prop).unwrap();
        let emulation = std::fs::read_to_string(
            input
                .to_str()
                .unwrap()
                .replace(".input.spv", ".dpcpp-emulation.prop"),
        )
        .unwrap();
        assert!(
            prop.starts_with(&common::spec_constant_sections(&emulation)),
            "{}",
            input.display()
        );
        assert!(prop.ends_with("[SYCL/misc properties]\nspecConstsReplacedWithDefault=1|1\n"));
    }
}

fn check_property_sets(mode: SpecConstMode, reference_suffix: &str) {
    let mut failures = Vec::new();
    for input in images() {
        let reference = input
            .to_str()
            .unwrap()
            .replace(".input.spv", reference_suffix);
        let bytes = std::fs::read(&input).unwrap();
        let opts = Options {
            mode,
            validation: Validation::Always,
            ..Options::default()
        };
        let out = match process(
            &[Input::from_bytes(input.display().to_string(), bytes)],
            &opts,
        ) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{}: {e}", input.display()));
                continue;
            }
        };
        let ours = String::from_utf8(out.prop).unwrap();
        let theirs = common::spec_constant_sections(&std::fs::read_to_string(&reference).unwrap());
        assert!(!theirs.is_empty(), "{reference} has no spec-constant sets");
        if ours != theirs {
            let diff = similar::TextDiff::from_lines(theirs.as_str(), ours.as_str());
            failures.push(format!(
                "{}: .prop differs from DPC++'s:\n{}",
                input.display(),
                diff.unified_diff().header("dpcpp", "spec-link")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn outputs_pass_spirv_val_where_dpcpp_does_not() {
    for input in images() {
        let bytes = std::fs::read(&input).unwrap();
        let opts = Options {
            validation: Validation::Never,
            ..Options::default()
        };
        let out = process(
            &[Input::from_bytes(input.display().to_string(), bytes)],
            &opts,
        )
        .unwrap();
        common::spirv_val(
            &out.module.to_bytes().unwrap(),
            "spv1.4",
            &format!("spec-link's output for {}", input.display()),
        );
        // DPC++'s own lowering keeps the Generic-storage-class string variables: spirv-val rejects it.
        let dpcpp = std::fs::read(
            input
                .to_str()
                .unwrap()
                .replace(".input.spv", ".dpcpp-native.spv"),
        )
        .unwrap();
        let v = common::tool("spirv-val", &["--target-env", "spv1.4", "-"], Some(&dpcpp));
        assert!(
            !v.status.success(),
            "DPC++'s output for {} passes spirv-val now?",
            input.display()
        );
    }
}

#[test]
fn output_is_deterministic() {
    for input in images() {
        for mode in [
            SpecConstMode::Native,
            SpecConstMode::Emulation,
            SpecConstMode::DefaultValues,
        ] {
            let bytes = std::fs::read(&input).unwrap();
            let opts = Options {
                mode,
                validation: Validation::Never,
                ..Options::default()
            };
            let a = process(&[Input::from_bytes("a", bytes.clone())], &opts).unwrap();
            let b = process(&[Input::from_bytes("a", bytes)], &opts).unwrap();
            assert_eq!(a.module.to_bytes().unwrap(), b.module.to_bytes().unwrap());
            assert_eq!(a.prop, b.prop);
            assert_eq!(a.json, b.json);
        }
    }
}

/// Idempotence: spec-link run on its own output changes nothing and finds no new spec constants.
#[test]
fn running_on_own_output_changes_nothing() {
    for input in images() {
        for mode in common::MODES {
            let opts = common::unvalidated(mode);
            let first = process(
                &[Input::from_bytes("a", std::fs::read(&input).unwrap())],
                &opts,
            )
            .unwrap();
            let second = process(
                &[Input::from_bytes("b", first.module.to_bytes().unwrap())],
                &opts,
            )
            .unwrap();
            assert_eq!(
                second.module.to_bytes().unwrap(),
                first.module.to_bytes().unwrap(),
                "{} {mode:?}: second run changed the module",
                input.display()
            );
            assert!(
                second.spec_map.constants.is_empty(),
                "{} {mode:?}",
                input.display()
            );
            assert!(second.prop.is_empty());
        }
    }
}
