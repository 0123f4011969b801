//! The real DPC++ images (the shared fixtures and `testdata/dpcpp/`): our spec-constant property
//! sets must equal DPC++'s (`image*.dpcpp-native.prop`, `.dpcpp-emulation.prop`) byte for byte
//! in DPC++'s SpecId order and mean the same in ours, and our output must pass spirv-val — DPC++'s
//! own output does not. The images LLVM's SPIR-V backend makes of the same sources
//! (`testdata/dpcpp-backend/`) must mean the same.

mod common;

use spec_link::{
    process, Diagnostic, Input, Options, Severity, SpecConstMode, SpecIdOrder, Validation,
};

fn images() -> Vec<std::path::PathBuf> {
    common::dpcpp_images()
}

/// The shared fixtures alone: the hidden-error tests below edit their disassembly in ways made
/// for them (an added global and a load in their one kernel, which spirv-val must reach only
/// after the symbolic-ID strings; images built with -g stop earlier, at their debug
/// information).
fn shared_fixture_images() -> Vec<std::path::PathBuf> {
    let images: Vec<_> = images()
        .into_iter()
        .filter(|p| p.starts_with(common::fixtures()))
        .collect();
    assert!(images.len() >= 3, "expected the 3 shared fixtures");
    images
}

/// Lowers every DPC++ image in native and emulation mode, numbering in `order`, with spirv-val
/// on (an output that fails where its input does not is an error), and calls `check` with the
/// image, the mode, our `.prop` text and DPC++'s; returns the failures (errors and what `check`
/// reports).
fn compare_with_dpcpp(
    order: SpecIdOrder,
    mut check: impl FnMut(&std::path::Path, SpecConstMode, &str, &str) -> Option<String>,
) -> Vec<String> {
    let mut failures = Vec::new();
    for input in images() {
        for (mode, suffix) in [
            (SpecConstMode::Native, ".dpcpp-native.prop"),
            (SpecConstMode::Emulation, ".dpcpp-emulation.prop"),
        ] {
            let opts = Options {
                mode,
                spec_id_order: order,
                validation: Validation::Always,
                ..Options::default()
            };
            let bytes = std::fs::read(&input).unwrap();
            let ours = match process(
                &[Input::from_bytes(input.display().to_string(), bytes)],
                &opts,
            ) {
                Ok(out) => String::from_utf8(out.prop).unwrap(),
                Err(e) => {
                    failures.push(format!("{}: {e}", input.display()));
                    continue;
                }
            };
            let theirs = std::fs::read_to_string(common::beside(&input, suffix)).unwrap();
            assert!(
                theirs.contains("[SYCL/specialization constants]"),
                "{} {mode:?}: DPC++'s .prop has no spec-constant sets",
                input.display()
            );
            failures.extend(check(&input, mode, &ours, &theirs));
        }
    }
    failures
}

/// `--spec-id-order dpcpp`: the spec-constant sets are DPC++'s, byte for byte, in both modes.
#[test]
fn property_sets_in_dpcpp_order_equal_dpcpp() {
    let failures = compare_with_dpcpp(SpecIdOrder::Dpcpp, |input, mode, ours, theirs| {
        let (ours, theirs) = (
            common::spec_constant_sections(ours),
            common::spec_constant_sections(theirs),
        );
        (ours != theirs).then(|| {
            let diff = similar::TextDiff::from_lines(theirs.as_str(), ours.as_str());
            format!(
                "{} {mode:?}: .prop differs from DPC++'s:\n{}",
                input.display(),
                diff.unified_diff().header("dpcpp", "spec-link")
            )
        })
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The default order (first use) numbers differently wherever DPC++'s order is not first use,
/// but every constant must mean what DPC++'s does: the same descriptors (offsets, sizes) and
/// default bytes under the same symbolic ID. And the order must differ somewhere, or the test
/// above would not need its option.
#[test]
fn property_sets_in_first_use_order_mean_what_dpcpp_s_mean() {
    let mut reordered = 0;
    let failures = compare_with_dpcpp(SpecIdOrder::FirstUse, |input, mode, ours, theirs| {
        if common::spec_constant_sections(ours) != common::spec_constant_sections(theirs) {
            reordered += 1;
        }
        let (ours, theirs) = (
            common::spec_constant_meaning(ours),
            common::spec_constant_meaning(theirs),
        );
        (ours != theirs).then(|| {
            format!(
                "{} {mode:?}: constants differ from DPC++'s:\n  dpcpp:     {theirs:?}\n  spec-link: {ours:?}",
                input.display()
            )
        })
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        reordered > 0,
        "no image where first use differs from DPC++'s order"
    );
}

/// Default-values mode: no spec constant added and no marker left (the ITT instrumentation flag,
/// a spec constant already in images built with -fsycl-instrument-device-code, stays, as in
/// DPC++'s default-values image); the sidecar still lists every constant (emulation layout, as
/// DPC++'s default-values image beside an AOT image) and marks the image
/// `specConstsReplacedWithDefault`.
#[test]
fn default_values_mode_leaves_no_spec_constants() {
    let spec_constants = |dis: &str| dis.matches("OpSpecConstant").count();
    for input in images() {
        let bytes = std::fs::read(&input).unwrap();
        let before = spec_constants(&common::disassemble(&bytes));
        let opts = Options {
            mode: SpecConstMode::DefaultValues,
            spec_id_order: SpecIdOrder::Dpcpp,
            validation: Validation::Always,
            ..Options::default()
        };
        let out = process(
            &[Input::from_bytes(input.display().to_string(), bytes)],
            &opts,
        )
        .unwrap();
        let dis = common::disassemble(&out.module.to_bytes().unwrap());
        assert_eq!(
            spec_constants(&dis),
            before,
            "{}: spec constants added",
            input.display()
        );
        assert!(
            !dis.contains("SpecConstantValue"),
            "{}: marker left",
            input.display()
        );
        let prop = String::from_utf8(out.prop).unwrap();
        let emulation =
            std::fs::read_to_string(common::beside(&input, ".dpcpp-emulation.prop")).unwrap();
        assert!(
            prop.starts_with(&common::spec_constant_sections(&emulation)),
            "{}",
            input.display()
        );
        assert!(prop.ends_with("[SYCL/misc properties]\nspecConstsReplacedWithDefault=1|1\n"));
    }
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
            &[Input::from_bytes(
                input.display().to_string(),
                bytes.clone(),
            )],
            &opts,
        )
        .unwrap();
        let ours = out.module.to_bytes().unwrap();
        let dpcpp = std::fs::read(common::beside(&input, ".dpcpp-native.spv")).unwrap();
        let theirs = common::tool("spirv-val", &["--target-env", "spv1.4", "-"], Some(&dpcpp));
        assert!(
            !theirs.status.success(),
            "DPC++'s output for {} passes spirv-val now?",
            input.display()
        );
        // Built with -g, DPC++'s translator writes debug information (NonSemantic.Shader.
        // DebugInfo.200) that names a member's composite before defining it: spirv-val stops
        // there on the input and on DPC++'s output, and so on ours. Everything else must pass.
        let debug_forward_reference = |v: &std::process::Output| {
            let e = String::from_utf8_lossy(&v.stderr);
            e.contains("has not been defined") && e.contains("OpExtInst")
        };
        let ours_val = common::tool("spirv-val", &["--target-env", "spv1.4", "-"], Some(&ours));
        if !ours_val.status.success()
            && debug_forward_reference(&ours_val)
            && common::disassemble(&bytes)
                .contains("OpExtInstImport \"NonSemantic.Shader.DebugInfo")
        {
            assert!(
                debug_forward_reference(&theirs),
                "{}: our output fails at a debug-information forward reference, DPC++'s does not:\n{}",
                input.display(),
                String::from_utf8_lossy(&theirs.stderr)
            );
            continue;
        }
        common::spirv_val(
            &ours,
            "spv1.4",
            &format!("spec-link's output for {}", input.display()),
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

/// `text` (a fixture's disassembly) with an error spirv-val finds only after the symbolic-ID
/// strings: a `CrossWorkgroup` variable the kernel loads but its `OpEntryPoint` does not list
/// (SPIR-V 1.4 wants every global an entry point uses listed; some real images miss one). With
/// `first_thing`, the load comes first in the kernel, before its `Function` variables: an error
/// spirv-val finds before that one, and one that linking (which lists every global an entry
/// point uses) keeps.
fn with_unlisted_global(text: &str, first_thing: bool) -> String {
    let entry = text
        .lines()
        .find(|l| l.contains("OpEntryPoint Kernel"))
        .expect("an OpEntryPoint");
    let kernel = entry
        .split_whitespace()
        .nth(2)
        .expect("the entry point's function");
    let uint = text
        .lines()
        .find(|l| l.trim_end().ends_with("= OpTypeInt 32 0"))
        .and_then(|l| l.split_whitespace().next())
        .expect("a 32-bit integer type");
    let mut out = String::new();
    let (mut globals_done, mut in_kernel, mut loaded) = (false, false, false);
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if !globals_done && words.get(2) == Some(&"OpFunction") {
            globals_done = true;
            out.push_str(&format!(
                "%unlisted_init = OpConstant {uint} 17\n\
                 %unlisted_ptr = OpTypePointer CrossWorkgroup {uint}\n\
                 %unlisted = OpVariable %unlisted_ptr CrossWorkgroup %unlisted_init\n"
            ));
        }
        if words.first() == Some(&kernel) && words.get(2) == Some(&"OpFunction") {
            in_kernel = true;
        }
        let load = format!("%unlisted_value = OpLoad {uint} %unlisted\n");
        if in_kernel && !loaded && !first_thing && words.first() == Some(&"OpReturn") {
            out.push_str(&load);
            loaded = true;
        }
        out.push_str(line);
        out.push('\n');
        if in_kernel && !loaded && first_thing && words.get(2) == Some(&"OpLabel") {
            out.push_str(&load);
            loaded = true;
        }
    }
    assert!(loaded, "no OpReturn in the kernel {kernel}");
    out
}

/// Fixture image `input` with [`with_unlisted_global`]'s error, assembled (in `scratch`).
fn hidden_image(scratch: &std::path::Path, input: &std::path::Path, first_thing: bool) -> Vec<u8> {
    let text = common::disassemble(&std::fs::read(input).unwrap());
    let path = scratch.join("hidden.spvasm");
    std::fs::write(&path, with_unlisted_global(&text, first_thing)).unwrap();
    common::assemble(&path)
}

/// spirv-val stops at a DPC++ image's symbolic-ID strings (`Generic` module-scope variables),
/// which lowering removes; an error further on in the image then shows first in the output. The
/// validation policy must find it in the input (its control module) and keep the output, in
/// every mode, naming both errors. (Without the added error the outputs pass spirv-val:
/// `outputs_pass_spirv_val_where_dpcpp_does_not`.)
#[test]
fn errors_behind_the_symbolic_id_strings_are_the_inputs() {
    let scratch = common::Scratch::new("hidden-errors");
    let mut failures = Vec::new();
    for input in shared_fixture_images() {
        let bytes = hidden_image(&scratch, &input, false);
        let premise = common::tool("spirv-val", &["--target-env", "spv1.4", "-"], Some(&bytes));
        let premise = String::from_utf8_lossy(&premise.stderr).to_string();
        assert!(
            premise.contains("storage class cannot be Generic"),
            "{}: spirv-val should stop at a symbolic-ID string first, says: {premise}",
            input.display()
        );
        for mode in [
            SpecConstMode::Native,
            SpecConstMode::Emulation,
            SpecConstMode::DefaultValues,
        ] {
            let opts = Options {
                mode,
                validation: Validation::Always,
                ..Options::default()
            };
            let what = format!("{} ({mode:?}, an unlisted global added)", input.display());
            let out = match process(&[Input::from_bytes(what.clone(), bytes.clone())], &opts) {
                Ok(out) => out,
                Err(e) => {
                    failures.push(format!("{what}: refused: {e}"));
                    continue;
                }
            };
            let val = common::tool(
                "spirv-val",
                &["--target-env", "spv1.4", "-"],
                Some(&out.module.to_bytes().unwrap()),
            );
            let val = String::from_utf8_lossy(&val.stderr).to_string();
            if !val.contains("but is not listed as an interface") {
                failures.push(format!(
                    "{what}: the output should fail as the input hides: {val}"
                ));
            }
            let warned = out.diagnostics.iter().any(|d| {
                matches!(d, Diagnostic::InvalidHiddenInInput { output, input, .. }
                    if output.contains("but is not listed as an interface")
                        && input.contains("storage class cannot be Generic"))
            });
            if !warned {
                failures.push(format!(
                    "{what}: no warning naming both errors: {:?}",
                    out.diagnostics
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A library for the fixtures to be linked with: one exported function.
const LIBRARY: &str = "OpCapability Addresses\nOpCapability Kernel\nOpCapability Linkage\n\
    OpMemoryModel Physical64 OpenCL\n\
    OpDecorate %helper LinkageAttributes \"spec_link_test_helper\" Export\n\
    %uint = OpTypeInt 32 0\n%one = OpConstant %uint 1\n%fn = OpTypeFunction %uint\n\
    %helper = OpFunction %uint None %fn\n%entry = OpLabel\nOpReturnValue %one\nOpFunctionEnd\n";

/// Linked with a library, the image's hidden error is found in its control module (the image
/// lowered alone tells which of its instructions lowering removes).
#[test]
fn errors_behind_the_symbolic_id_strings_are_found_in_linked_inputs() {
    let scratch = common::Scratch::new("hidden-errors-linked");
    let lib_asm = scratch.join("library.spvasm");
    std::fs::write(&lib_asm, LIBRARY).unwrap();
    let library = common::assemble(&lib_asm);
    let mut failures = Vec::new();
    for input in shared_fixture_images() {
        let bytes = hidden_image(&scratch, &input, true);
        for mode in [SpecConstMode::Native, SpecConstMode::Emulation] {
            let opts = Options {
                mode,
                validation: Validation::Always,
                ..Options::default()
            };
            let what = format!("{} ({mode:?}) linked with a library", input.display());
            let inputs = [
                Input::from_bytes(what.clone(), bytes.clone()),
                Input::from_bytes("library", library.clone()),
            ];
            match process(&inputs, &opts) {
                Ok(out)
                    if out.diagnostics.iter().any(|d| {
                        matches!(d, Diagnostic::InvalidHiddenInInput { input, .. }
                            if input.contains("All OpVariable instructions"))
                    }) => {}
                Ok(out) => failures.push(format!("{what}: no warning: {:?}", out.diagnostics)),
                Err(e) => failures.push(format!("{what}: refused: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The same inputs, with an error spec-link would introduce: a stand-in validator that runs
/// spirv-val but first rejects any module holding a spec constant. The control module holds
/// none, so it does not fail that way: exit 1, nothing written.
#[test]
fn errors_spec_link_adds_are_refused_behind_the_symbolic_id_strings() {
    let scratch = common::Scratch::new("hidden-errors-introduced");
    let fake = scratch.join("fake-spirv-val");
    std::fs::write(
        &fake,
        "#!/bin/sh\n[ \"$1\" = --version ] && exit 0\nm=$(mktemp)\ncat > \"$m\"\n\
         if spirv-dis \"$m\" | grep -q OpSpecConstant; then\n\
           echo 'error: line 1: fake: a spec constant' >&2; rm -f \"$m\"; exit 1\nfi\n\
         spirv-val \"$1\" \"$2\" \"$m\"; s=$?; rm -f \"$m\"; exit $s\n",
    )
    .unwrap();
    let chmod = std::process::Command::new("chmod")
        .arg("+x")
        .arg(&fake)
        .status()
        .unwrap();
    assert!(chmod.success());
    let library = scratch.join("library.spvasm");
    std::fs::write(&library, LIBRARY).unwrap();
    let library_spv = scratch.join("library.spv");
    std::fs::write(&library_spv, common::assemble(&library)).unwrap();
    for input in shared_fixture_images() {
        let spv = scratch.join("hidden.spv");
        std::fs::write(&spv, hidden_image(&scratch, &input, true)).unwrap();
        // Alone, and linked with the library.
        for others in [&[][..], &[&library_spv][..]] {
            let what = format!("{} (with {} more inputs)", input.display(), others.len());
            let out_path = scratch.join("out.spv");
            let _ = std::fs::remove_file(&out_path);
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_spec-link"))
                .arg(&spv)
                .args(others)
                .arg("-o")
                .arg(&out_path)
                .arg("--validate")
                .env("SPEC_LINK_SPIRV_VAL", &fake)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{what}: {stderr}");
            assert!(
                stderr.contains("the input does not fail that way")
                    && stderr.contains("fake: a spec constant"),
                "{what}: {stderr}"
            );
            assert!(!out_path.exists(), "{what}: an output was written");
        }
    }
}

/// Linking the images of a per-kernel split (what `sycl::link` does with separately built
/// bundles) gives one module whose spec constants mean what the unsplit image's do (the same
/// source built with `-fsycl-device-code-split=off`, against DPC++'s own `.prop`), which passes
/// spirv-val, in native and emulation mode.
#[test]
fn linked_per_kernel_images_are_the_unsplit_image() {
    let split = common::repo().join("testdata/dpcpp/shared-per-kernel");
    let whole = common::repo().join("testdata/dpcpp/shared-off/image0.input.spv");
    let parts: Vec<_> = (0..3)
        .map(|n| split.join(format!("image{n}.input.spv")))
        .collect();
    for (mode, suffix) in [
        (SpecConstMode::Native, ".dpcpp-native.prop"),
        (SpecConstMode::Emulation, ".dpcpp-emulation.prop"),
    ] {
        let inputs: Vec<Input> = parts
            .iter()
            .map(|p| Input::from_bytes(p.display().to_string(), std::fs::read(p).unwrap()))
            .collect();
        let opts = Options {
            mode,
            validation: Validation::Always,
            ..Options::default()
        };
        let out = process(&inputs, &opts).unwrap();
        common::spirv_val(
            &out.module.to_bytes().unwrap(),
            "spv1.4",
            &format!("the linked per-kernel images ({mode:?})"),
        );
        let ours = common::spec_constant_meaning(&String::from_utf8(out.prop).unwrap());
        let theirs = common::spec_constant_meaning(
            &std::fs::read_to_string(common::beside(&whole, suffix)).unwrap(),
        );
        assert_eq!(ours, theirs, "{mode:?}");
        assert_eq!(ours.len(), 3, "{mode:?}: the source has 3 spec constants");
    }
}

/// Images made from the same sources by LLVM's own SPIR-V backend instead of the translator
/// (`testdata/dpcpp-backend/<case>/image.input.spv`, by `scripts/gen-backend-testdata.sh`: what
/// DPC++ does with `-fsycl-use-spirv-backend-for-spirv-gen`; one unsplit image per case). Other
/// shapes around the calls (casts in other blocks than the call, `OpConstantNull` indices, SPIR-V
/// 1.4 interfaces, a default-value variable without initializer where LLVM's was `undef`) must
/// lower to constants that mean what DPC++'s translator-made images' do: per symbolic ID, over
/// all of the case's DPC++ images. spirv-val rejects every output: the backend indexes structs
/// with `OpConstantNull`, which it rejects in the input too; spec-link must find the input
/// failing the same way (only that warning is allowed).
#[test]
fn spirv_backend_images_mean_what_dpcpp_s_do() {
    let root = common::repo().join("testdata/dpcpp-backend");
    let pattern = root.join("*/image.input.spv");
    let inputs: Vec<_> = glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        inputs.len() >= 20,
        "expected the SPIR-V backend images, found {}",
        inputs.len()
    );
    let mut failures = Vec::new();
    for input in &inputs {
        let case = input.parent().unwrap().file_name().unwrap().to_owned();
        let keys = common::repo().join("testdata/dpcpp").join(&case);
        for (mode, suffix) in [
            (SpecConstMode::Native, "dpcpp-native.prop"),
            (SpecConstMode::Emulation, "dpcpp-emulation.prop"),
        ] {
            let mut theirs = std::collections::BTreeMap::new();
            let pattern = keys.join(format!("image*.{suffix}"));
            for prop in glob::glob(pattern.to_str().unwrap()).unwrap() {
                let prop = prop.unwrap();
                for (id, meaning) in
                    common::spec_constant_meaning(&std::fs::read_to_string(&prop).unwrap())
                {
                    if let Some(other) = theirs.insert(id.clone(), meaning.clone()) {
                        assert_eq!(
                            other,
                            meaning,
                            "{}: {id} differs between images",
                            prop.display()
                        );
                    }
                }
            }
            assert!(
                !theirs.is_empty(),
                "{}: no DPC++ answer key",
                keys.display()
            );
            let opts = Options {
                mode,
                validation: Validation::Always,
                ..Options::default()
            };
            let bytes = std::fs::read(input).unwrap();
            let out = match process(
                &[Input::from_bytes(input.display().to_string(), bytes)],
                &opts,
            ) {
                Ok(out) => out,
                Err(e) => {
                    failures.push(format!("{} {mode:?}: {e}", input.display()));
                    continue;
                }
            };
            for d in &out.diagnostics {
                let hidden = matches!(d, Diagnostic::InvalidHiddenInInput { .. });
                if d.severity() == Severity::Warning && !hidden {
                    failures.push(format!("{} {mode:?}: warning: {d}", input.display()));
                }
            }
            let ours = common::spec_constant_meaning(&String::from_utf8(out.prop).unwrap());
            if ours != theirs {
                failures.push(format!(
                    "{} {mode:?}: constants differ from DPC++'s:\n  dpcpp:     {theirs:?}\n  spec-link: {ours:?}",
                    input.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
