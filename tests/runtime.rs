//! Execution on the Intel CPU OpenCL runtime (pip `intel-opencl-rt`, set up by scripts/setup.sh):
//! each fixture's output runs with default values and with the overrides of its `run.json`, spec
//! constants set the way the SYCL runtime sets them (native: per descriptor of the `.prop`;
//! emulation: a buffer built from the JSON sidecar, in DPC++'s and in the packed layout), and
//! gives the same results as DPC++'s own image with DPC++'s own `.prop`; default-values output
//! gives the defaults' results. The un-lowered input must fail to
//! build ("Symbols not found"), proving the harness can tell.

mod common;

use spec_link::{process, EmulationLayout, Input, Options, SpecConstMode, Validation};
use std::path::{Path, PathBuf};

fn ocl_run(
    spv: &Path,
    prop: Option<&Path>,
    run_json: &Path,
    extra: &[&str],
) -> std::process::Output {
    let mut cmd = common::ocl_run();
    cmd.arg("--spv")
        .arg(spv)
        .arg("--run-json")
        .arg(run_json)
        .args(extra);
    if let Some(p) = prop {
        cmd.arg("--prop").arg(p);
    }
    cmd.output().expect("run scripts/ocl_run.py")
}

/// [`ocl_run`] that must succeed: its results (`what` names the run in the failure message).
fn ocl_results(
    spv: &Path,
    prop: Option<&Path>,
    run_json: &Path,
    args: &[&str],
    what: &str,
) -> serde_json::Value {
    let run = ocl_run(spv, prop, run_json, args);
    assert!(
        run.status.success(),
        "{what}: {} failed to run:\n{}",
        spv.display(),
        String::from_utf8_lossy(&run.stderr)
    );
    serde_json::from_slice(&run.stdout).unwrap()
}

/// The results every lowering of `image` must give: those of DPC++'s own native image
/// (`dpcpp_spv`, `dpcpp_prop`). Where its `run.json` entry names a `dpcpp_native_wrong` reason
/// (DPC++ computes some defaults wrong there, or its image crashes the runtime's compiler), they
/// are `emulation`'s instead — our emulation output with its JSON sidecar, which reads DPC++'s
/// own default blob — and DPC++'s image must still disagree, so that the exception ends with
/// the bug.
fn reference_results(
    run_json: &Path,
    image: u64,
    dpcpp: (&Path, &Path),
    emulation: (&Path, &Path),
    what: &str,
) -> serde_json::Value {
    let image_arg = image.to_string();
    let args = ["--image", image_arg.as_str()];
    let spec: serde_json::Value =
        serde_json::from_slice(&std::fs::read(run_json).unwrap()).unwrap();
    let wrong = spec["images"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["image"].as_u64() == Some(image) && i["dpcpp_native_wrong"].is_string());
    if !wrong {
        return ocl_results(dpcpp.0, Some(dpcpp.1), run_json, &args, what);
    }
    let json = emulation.1.to_str().unwrap();
    let ours = ocl_results(
        emulation.0,
        None,
        run_json,
        &["--image", image_arg.as_str(), "--emulation-json", json],
        what,
    );
    let theirs = ocl_run(dpcpp.0, Some(dpcpp.1), run_json, &args);
    assert!(
        !theirs.status.success()
            || serde_json::from_slice::<serde_json::Value>(&theirs.stdout).ok()
                != Some(ours.clone()),
        "{what}: DPC++'s image gives our emulation's results now: drop dpcpp_native_wrong from {}",
        run_json.display()
    );
    ours
}

/// Lowers `bytes` in `mode`/`layout` (validated) and writes `<tag>.spv`, `.prop` and `.json`
/// into `dir`; returns their paths.
fn lower_to_files(
    dir: &Path,
    name: &str,
    bytes: Vec<u8>,
    mode: SpecConstMode,
    layout: EmulationLayout,
    tag: &str,
) -> (PathBuf, PathBuf, PathBuf) {
    let inputs = [Input::from_bytes(name.to_string(), bytes)];
    lower_inputs_to_files(dir, name, &inputs, mode, layout, tag)
}

/// [`lower_to_files`] of several inputs, linked.
fn lower_inputs_to_files(
    dir: &Path,
    name: &str,
    inputs: &[Input],
    mode: SpecConstMode,
    layout: EmulationLayout,
    tag: &str,
) -> (PathBuf, PathBuf, PathBuf) {
    let out = process(
        inputs,
        &Options {
            mode,
            emulation_layout: layout,
            validation: Validation::Always,
            ..Options::default()
        },
    )
    .unwrap_or_else(|e| panic!("{name} {tag}: {e}"));
    let paths = (
        dir.join(format!("{name}.{tag}.spv")),
        dir.join(format!("{name}.{tag}.prop")),
        dir.join(format!("{name}.{tag}.json")),
    );
    std::fs::write(&paths.0, out.module.to_bytes().unwrap()).unwrap();
    std::fs::write(&paths.1, &out.prop).unwrap();
    std::fs::write(&paths.2, &out.json).unwrap();
    paths
}

/// The name of the directory `path` is in.
fn parent_name(path: &Path) -> String {
    path.parent()
        .and_then(Path::file_name)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// The DPC++ images that `run.json` files describe: (directory, its `run.json`, image number,
/// name for messages), for the shared fixtures and `testdata/dpcpp/`, and for the same sources
/// built by older DPC++ versions (`testdata/dpcpp-<version>/<case>`, described by
/// `testdata/dpcpp/<case>/run.json`: the images and their kernels are the same).
fn dpcpp_runs() -> Vec<(PathBuf, PathBuf, u64, String)> {
    let mut runs = Vec::new();
    let dpcpp = common::repo().join("testdata/dpcpp");
    let versions = common::repo().join("testdata/dpcpp-[0-9]*/*");
    let mut dirs: Vec<(PathBuf, PathBuf)> = Vec::new();
    for root in [common::fixtures(), dpcpp.clone()] {
        let pattern = root.join("*/run.json");
        for run_json in glob::glob(pattern.to_str().unwrap())
            .unwrap()
            .map(Result::unwrap)
        {
            dirs.push((run_json.parent().unwrap().to_path_buf(), run_json));
        }
    }
    for dir in glob::glob(versions.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
    {
        let run_json = dpcpp.join(dir.file_name().unwrap()).join("run.json");
        if run_json.exists() {
            dirs.push((dir, run_json));
        }
    }
    for (dir, run_json) in dirs {
        let spec: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&run_json).unwrap()).unwrap();
        let parent = parent_name(&dir);
        for image in spec["images"].as_array().unwrap() {
            let n = image["image"].as_u64().unwrap();
            let name = format!(
                "{parent}-{}-image{n}",
                dir.file_name().unwrap().to_string_lossy()
            );
            runs.push((dir.clone(), run_json.clone(), n, name));
        }
    }
    runs
}

#[test]
fn fixtures_run_like_dpcpp() {
    let tmp = std::env::temp_dir().join(format!("spec-link-runtime-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut n = 0;
    for (dir, run_json, image, name) in dpcpp_runs() {
        let input = dir.join(format!("image{image}.input.spv"));
        let image_arg = image.to_string();
        let ocl = |spv: &Path, prop: Option<&Path>, extra: &[&str]| {
            let mut args = vec!["--image", image_arg.as_str()];
            args.extend_from_slice(extra);
            ocl_run(spv, prop, &run_json, &args)
        };
        let lower = |mode, layout, tag: &str| {
            lower_to_files(
                &tmp,
                &name,
                std::fs::read(&input).unwrap(),
                mode,
                layout,
                tag,
            )
        };
        let (spv, prop, _) = lower(SpecConstMode::Native, EmulationLayout::Aligned, "native");

        let ours = ocl(&spv, Some(&prop), &[]);
        assert!(
            ours.status.success(),
            "{name}: our output failed to run:\n{}",
            String::from_utf8_lossy(&ours.stderr)
        );
        let (reference_spv, _, reference_json) = lower(
            SpecConstMode::Emulation,
            EmulationLayout::Aligned,
            "reference",
        );
        let theirs_v = reference_results(
            &run_json,
            image,
            (
                &dir.join(format!("image{image}.dpcpp-native.spv")),
                &dir.join(format!("image{image}.dpcpp-native.prop")),
            ),
            (&reference_spv, &reference_json),
            &name,
        );
        let ours_v: serde_json::Value = serde_json::from_slice(&ours.stdout).unwrap();
        assert_eq!(ours_v, theirs_v, "{name}: results differ from DPC++'s");
        // The overrides must change what the kernel computes, or the comparison proves nothing.
        let results = ours_v["results"].as_array().unwrap();
        assert!(results.len() >= 2, "{name}: run.json has no override set");
        assert_ne!(
            results[0]["buffers"], results[1]["buffers"],
            "{name}: overrides had no effect"
        );

        // Emulation, DPC++'s layout and the packed one: the buffer is built from our JSON
        // sidecar (default blob, overrides at each constant's offset) and bound to the argument
        // it names.
        for (layout, tag) in [
            (EmulationLayout::Aligned, "emulation"),
            (EmulationLayout::Packed, "packed"),
        ] {
            let (spv, _, json) = lower(SpecConstMode::Emulation, layout, tag);
            let run = ocl(&spv, None, &["--emulation-json", json.to_str().unwrap()]);
            assert!(
                run.status.success(),
                "{name} {tag}: failed to run:\n{}",
                String::from_utf8_lossy(&run.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
            assert_eq!(
                v, theirs_v,
                "{name} {tag}: results differ from DPC++'s native image"
            );
        }

        // Default-values mode: no spec constants to set; same results as the defaults run.
        let (spv, _, _) = lower(
            SpecConstMode::DefaultValues,
            EmulationLayout::Aligned,
            "defaults",
        );
        let run = ocl(&spv, None, &["--no-spec"]);
        assert!(
            run.status.success(),
            "{name} default-values: failed to run:\n{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
        assert_eq!(
            v["results"][0]["buffers"], theirs_v["results"][0]["buffers"],
            "{name} default-values"
        );

        let raw = ocl(&input, None, &["--no-spec"]);
        let err = String::from_utf8_lossy(&raw.stderr);
        assert_eq!(
            raw.status.code(),
            Some(3),
            "{name}: un-lowered input did not fail to build: {err}"
        );
        assert!(
            err.contains("Symbols not found"),
            "{name}: unexpected build error: {err}"
        );
        n += 1;
    }
    assert!(
        n >= 40,
        "expected the 3 shared fixtures, testdata/dpcpp and testdata/dpcpp-<version>, ran {n}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The images LLVM's SPIR-V backend makes of the `testdata/dpcpp` sources
/// (`testdata/dpcpp-backend/<case>/image.input.spv`, one unsplit image per case): every kernel
/// the case's `run.json` names runs from our native and emulation output and gives the results
/// of DPC++'s own translator-made image, with defaults and overrides. An image that calls DPC++'s
/// ITT wrappers (`-fsycl-instrument-device-code`) is first linked with DPC++'s ITT device
/// libraries, as DPC++ links its device libraries after the front end (the backend's images are
/// made from the front end's bitcode).
#[test]
fn spirv_backend_images_run_like_dpcpp() {
    let tmp = std::env::temp_dir().join(format!("spec-link-backend-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let pattern = common::repo().join("testdata/dpcpp-backend/*/image.input.spv");
    let mut n = 0;
    for input in glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
    {
        let case = parent_name(&input);
        let keys = common::repo().join("testdata/dpcpp").join(&case);
        let run_json = keys.join("run.json");
        if !run_json.exists() {
            continue;
        }
        let bytes = std::fs::read(&input).unwrap();
        let mut inputs = vec![Input::from_bytes(
            input.display().to_string(),
            bytes.clone(),
        )];
        if bytes.windows(14).any(|w| w == b"__itt_offload_") {
            for lib in ["itt-compiler-wrappers", "itt-stubs", "itt-user-wrappers"] {
                let p = common::devicelib_module(lib);
                inputs.push(Input::from_bytes(
                    p.display().to_string(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
        let name = format!("{case}-backend");
        let (native, prop, _) = lower_inputs_to_files(
            &tmp,
            &name,
            &inputs,
            SpecConstMode::Native,
            EmulationLayout::Aligned,
            "native",
        );
        let (emulation, _, json) = lower_inputs_to_files(
            &tmp,
            &name,
            &inputs,
            SpecConstMode::Emulation,
            EmulationLayout::Aligned,
            "emulation",
        );
        let spec: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&run_json).unwrap()).unwrap();
        for image in spec["images"].as_array().unwrap() {
            let image = image["image"].as_u64().unwrap().to_string();
            let ocl = |spv: &Path, prop: Option<&Path>, extra: &[&str]| {
                let mut args = vec!["--image", image.as_str()];
                args.extend_from_slice(extra);
                ocl_results(
                    spv,
                    prop,
                    &run_json,
                    &args,
                    &format!("{case} image {image}"),
                )
            };
            let theirs = reference_results(
                &run_json,
                image.parse().unwrap(),
                (
                    &keys.join(format!("image{image}.dpcpp-native.spv")),
                    &keys.join(format!("image{image}.dpcpp-native.prop")),
                ),
                (&emulation, &json),
                &format!("{case} image {image}"),
            );
            let ours = ocl(&native, Some(&prop), &[]);
            assert_eq!(
                ours, theirs,
                "{case} image {image} native: results differ from DPC++'s"
            );
            let results = ours["results"].as_array().unwrap();
            assert!(
                results.len() >= 2 && results[0]["buffers"] != results[1]["buffers"],
                "{case} image {image}: the overrides had no effect"
            );
            let ours = ocl(
                &emulation,
                None,
                &["--emulation-json", json.to_str().unwrap()],
            );
            assert_eq!(
                ours, theirs,
                "{case} image {image} emulation: results differ from DPC++'s"
            );
            n += 1;
        }
    }
    assert!(
        n >= 15,
        "expected the SPIR-V backend images with a run.json, ran {n}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

/// An AOT image built at -O0, made from the JIT one (`testdata/dpcpp/callchain-O0`, 3 kernels)
/// by adding what the front end adds for a target without native spec constants: each kernel
/// calls `kernel_handler::__init_specialization_constants_buffer` with its own buffer argument
/// (which the JIT image takes but never stores), and the function stores it into the
/// `kernel_handler`, whose field the marker calls load their RTBuffer from.
fn aot_o0_image(jit: &str) -> String {
    const INIT: &str = "%kh_init";
    let kernels: Vec<&str> = jit
        .lines()
        .filter_map(|l| l.trim().strip_prefix("OpEntryPoint Kernel "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let (mut out, mut named, mut typed, mut calls) = (Vec::new(), false, false, 0);
    let (mut current, mut params, mut slot) = ("", Vec::new(), None);
    for l in jit.lines() {
        let t = l.trim();
        if !named && t.starts_with("OpName") {
            out.push(format!("OpName {INIT} \"_ZN4sycl3_V114kernel_handler38__init_specialization_constants_bufferEPc\""));
            named = true;
        }
        if !typed && l.contains(" = OpFunction ") {
            out.push("%fn_kh_init = OpTypeFunction %void %_ptr_Generic_class_sycl___V1__kernel_handler %_ptr_Generic_uchar".into());
            typed = true;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        match words.as_slice() {
            [id, "=", "OpFunction", ..] => (current, params, slot) = (*id, Vec::new(), None),
            [id, "=", "OpFunctionParameter", ..] => params.push(*id),
            // The -O0 copy of the kernel's last (buffer) parameter into a local.
            ["OpStore", to, from, ..]
                if kernels.contains(&current) && params.last() == Some(from) =>
            {
                slot = Some(to.to_string())
            }
            _ => {}
        }
        out.push(l.to_string());
        if let [_, "=", "OpFunctionCall", "%void", "%_ZN4sycl3_V114kernel_handlerC2Ev", kh] =
            words.as_slice()
        {
            if kernels.contains(&current) {
                let slot = slot
                    .clone()
                    .expect("the kernel stores its buffer parameter");
                calls += 1;
                out.push(format!(
                    "%khl{calls} = OpLoad %_ptr_CrossWorkgroup_uchar {slot} Aligned 8"
                ));
                out.push(format!(
                    "%khg{calls} = OpPtrCastToGeneric %_ptr_Generic_uchar %khl{calls}"
                ));
                out.push(format!(
                    "%khc{calls} = OpFunctionCall %void {INIT} {kh} %khg{calls}"
                ));
            }
        }
        if t == "OpFunctionEnd" && current == "%_ZN4sycl3_V114kernel_handlerC2Ev" {
            out.push(format!("{INIT} = OpFunction %void None %fn_kh_init"));
            out.push(
                "%kh_this = OpFunctionParameter %_ptr_Generic_class_sycl___V1__kernel_handler"
                    .into(),
            );
            out.push("%kh_buf = OpFunctionParameter %_ptr_Generic_uchar".into());
            out.push("%kh_label = OpLabel".into());
            out.push("%kh_field = OpInBoundsPtrAccessChain %_ptr_Generic__ptr_Generic_uchar %kh_this %uint_0 %uint_0".into());
            out.push("OpStore %kh_field %kh_buf Aligned 8".into());
            out.push("OpReturn".into());
            out.push("OpFunctionEnd".into());
        }
    }
    assert_eq!(calls, kernels.len(), "one init call per kernel");
    out.join("\n")
}

/// Emulation of an AOT image built at -O0 (see [`aot_o0_image`]): the buffer is the kernel's
/// own argument, which the DPC++ runtime binds (no parameter appended, the JSON names it), and
/// read from the `kernel_handler` as DPC++ reads it; the kernels run like DPC++'s own image.
#[test]
fn aot_o0_images_take_the_buffer_from_the_kernel_handler() {
    let dir = common::repo().join("testdata/dpcpp/callchain-O0");
    let tmp = std::env::temp_dir().join(format!("spec-link-aot-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let jit = common::disassemble(&std::fs::read(dir.join("image0.input.spv")).unwrap());
    let text = tmp.join("aot.spvasm");
    std::fs::write(&text, aot_o0_image(&jit)).unwrap();
    let input = common::assemble(&text);
    let (spv, _, json) = lower_to_files(
        &tmp,
        "aot",
        input,
        SpecConstMode::Emulation,
        EmulationLayout::Aligned,
        "emulation",
    );
    let sidecar: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let kernels = sidecar["kernels"].as_array().unwrap();
    assert_eq!(kernels.len(), 3);
    for k in kernels {
        assert_eq!(k["spec_constants_buffer_arg"], 1, "{k}");
    }
    let out = common::disassemble(&std::fs::read(&spv).unwrap());
    assert!(
        !out.contains("_arg__specialization_constants_buffer"),
        "a parameter was appended"
    );
    // The run.json without its `buffer_arg` (the JIT image's unused buffer parameter, bound to a
    // dummy): here that argument is the spec-constant buffer.
    let mut spec: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("run.json")).unwrap()).unwrap();
    for image in spec["images"].as_array_mut().unwrap() {
        image.as_object_mut().unwrap().remove("buffer_arg");
    }
    let run_json = tmp.join("run.json");
    std::fs::write(&run_json, spec.to_string()).unwrap();
    let ours = ocl_results(
        &spv,
        None,
        &run_json,
        &["--image", "0", "--emulation-json", json.to_str().unwrap()],
        "the AOT image",
    );
    let theirs = ocl_results(
        &dir.join("image0.dpcpp-native.spv"),
        Some(&dir.join("image0.dpcpp-native.prop")),
        &dir.join("run.json"),
        &["--image", "0"],
        "DPC++'s image",
    );
    assert_eq!(ours, theirs);
    assert_ne!(ours["results"][0]["buffers"], ours["results"][1]["buffers"]);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The modes the clang cases are lowered in: (tag, mode, emulation layout).
const CLANG_MODES: [(&str, SpecConstMode, EmulationLayout); 4] = [
    ("native", SpecConstMode::Native, EmulationLayout::Aligned),
    (
        "emulation",
        SpecConstMode::Emulation,
        EmulationLayout::Aligned,
    ),
    ("packed", SpecConstMode::Emulation, EmulationLayout::Packed),
    (
        "defaults",
        SpecConstMode::DefaultValues,
        EmulationLayout::Aligned,
    ),
];

/// Runs a lowered clang case (`spv` with its `.prop` and JSON sidecar, lowered in `mode`) on
/// every image of `run_json` (`spec`, its contents) and checks that every buffer starts with the
/// image's hand-derived `expect`; returns the number of image runs.
fn check_expected_values(
    what: &str,
    (spv, prop, json): (&Path, &Path, &Path),
    mode: SpecConstMode,
    run_json: &Path,
    spec: &serde_json::Value,
) -> usize {
    let mut runs = 0;
    for image in spec["images"].as_array().unwrap() {
        let n = image["image"].as_u64().unwrap().to_string();
        let args: Vec<&str> = match mode {
            SpecConstMode::Native => vec!["--image", &n],
            SpecConstMode::Emulation => {
                vec!["--image", &n, "--emulation-json", json.to_str().unwrap()]
            }
            SpecConstMode::DefaultValues => vec!["--image", &n, "--no-spec"],
        };
        let prop_arg = (mode == SpecConstMode::Native).then_some(prop);
        let run = ocl_run(spv, prop_arg, run_json, &args);
        assert!(
            run.status.success(),
            "{what} image {n}:\n{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let got: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
        let expect = image["expect"].as_array().unwrap();
        for (k, result) in got["results"].as_array().unwrap().iter().enumerate() {
            for (b, want) in expect[k].as_array().unwrap().iter().enumerate() {
                let have = result["buffers"][b].as_str().unwrap();
                let want = want.as_str().unwrap();
                assert!(
                    have.starts_with(want),
                    "{what} image {n} override {k} buffer {b}:\n  expected {want}\n  got      {}",
                    &have[..want.len().min(have.len())]
                );
            }
        }
        runs += 1;
    }
    runs
}

/// The clang-15 + llvm-spirv-15 cases (`testdata/clang-*`, built by scripts/gen-clang-testdata.sh):
/// in every mode, the kernels compute the values derived by hand from `source.cl` (`expect` in
/// `run.json`), with defaults and with overrides.
#[test]
fn clang_cases_compute_expected_values() {
    let tmp = std::env::temp_dir().join(format!("spec-link-clang-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    // Single-module cases (multi-module ones are linked in tests/link.rs).
    let pattern = common::repo().join("testdata/clang-*/input.spv");
    let mut checked = 0;
    for input_spv in glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
    {
        let dir = input_spv.parent().unwrap();
        let run_json = dir.join("run.json");
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let spec: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&run_json).unwrap()).unwrap();
        let input = std::fs::read(dir.join("input.spv")).unwrap();
        for (tag, mode, layout) in CLANG_MODES {
            let (spv, prop, json) = lower_to_files(&tmp, &name, input.clone(), mode, layout, tag);
            checked += check_expected_values(
                &format!("{name} {tag}"),
                (&spv, &prop, &json),
                mode,
                &run_json,
                &spec,
            );
        }
    }
    assert!(checked >= 16, "only {checked} clang-case runs");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// `testdata/clang-debuginfo`: clang-scalars' source built with `-g` at -O0 and -O2, its debug
/// information in OpenCL.DebugInfo.100 and under the translator's legacy name for the same set,
/// "SPIRV.debug" (which SPIRV-Tools does not know). In every mode each lowers, runs with
/// clang-scalars' hand-derived values, and the legacy module's output is the
/// OpenCL.DebugInfo.100 one's but for the import and the source file's name: its literals (a
/// `DebugFunction`'s flags equal to a marker parameter's id at -O0) are not taken for ids, and
/// the `DebugValue` of a lowered call's result is rewritten (-O2). Before spec-link knew the
/// legacy name, -O0 failed ("parameter … is used outside the marker's declaration") and -O2
/// native failed ("cannot rewrite OpExtInst … the instruction cannot be decoded").
#[test]
fn debug_info_inputs_compute_expected_values() {
    let dir = common::repo().join("testdata/clang-debuginfo");
    let run_json = common::repo().join("testdata/clang-scalars/run.json");
    let spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run_json).unwrap()).unwrap();
    let tmp = std::env::temp_dir().join(format!("spec-link-debuginfo-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut checked = 0;
    for level in ["O0", "O2"] {
        let read = |set: &str, import: &str| {
            let name = format!("{set}-{level}.spv");
            let bytes = std::fs::read(dir.join(&name)).unwrap_or_else(|e| {
                panic!("{name}: {e} (scripts/gen-clang-testdata.sh clang-debuginfo)")
            });
            let named = format!("{import}\0");
            assert!(
                bytes.windows(named.len()).any(|w| w == named.as_bytes()),
                "{name} does not import {import}"
            );
            bytes
        };
        let ocl = read("ocl100", "OpenCL.DebugInfo.100");
        let legacy = read("legacy", "SPIRV.debug");
        for (tag, mode, layout) in CLANG_MODES {
            let mut outputs = Vec::new();
            for (set, input) in [("ocl100", &ocl), ("legacy", &legacy)] {
                let name = format!("{set}-{level}");
                let files = lower_to_files(&tmp, &name, input.clone(), mode, layout, tag);
                checked += check_expected_values(
                    &format!("{name} {tag}"),
                    (&files.0, &files.1, &files.2),
                    mode,
                    &run_json,
                    &spec,
                );
                outputs.push((
                    std::fs::read(&files.0).unwrap(),
                    std::fs::read(&files.1).unwrap(),
                ));
            }
            let (o, l) = (&outputs[0], &outputs[1]);
            assert!(
                common::without_imports_and_strings(&o.0) == common::without_imports_and_strings(&l.0),
                "{level} {tag}: the legacy module's output differs from the OpenCL.DebugInfo.100 one's beyond the import and the strings"
            );
            assert!(o.1 == l.1, "{level} {tag}: the .prop files differ");
        }
    }
    assert!(checked >= 16, "only {checked} debug-info runs");
    let _ = std::fs::remove_dir_all(&tmp);
}
