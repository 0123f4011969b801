//! Linked DPC++ 2026.2 images through the real SYCL runtime (`libsycl.so` of intel-sycl-rt
//! 2026.2.0 on Intel's CPU OpenCL device, `scripts/sycl-run`; see `common/sycl_run.rs`).
//!
//! spec-link links DPC++'s `off` images (`testdata/postlink/<case>/off`, markers not lowered) with
//! the modules that define what they import, splits the result (`--split`, native spec
//! constants, DPC++'s SpecId order, every input's `.prop` as `--input-prop`), and the table's
//! images, registered alone, give every run of the case's `run.json` its `expect`ed buffers
//! (for every override set: spec constants are set by symbolic ID):
//!
//! 1. `images_linked_with_their_providers_run`: a case with another translation unit
//!    (`link_with`: dynlink, dynchain, dgdynlink) linked with that unit's image, in every split
//!    mode: the imports are resolved (no `[SYCL/imported symbols]` left), so the provider's image
//!    need not be registered.
//! 2. `split_images_link_back_together_and_run`: DPC++'s own `per_kernel` and `per_source`
//!    images of a case built with `-fsycl-allow-device-image-dependencies` (each image carries
//!    copies of the helpers it shares with others and imports what another image defines),
//!    with the provider's image where the case has one, linked back into one module: the
//!    copies merge (device globals too, whose initializers are spec-constant operations: dgdynlink,
//!    dgprops-dyn), every import resolves.
//! 3. `unrelated_images_linked_together_run`: four cases' images in one module (their spec
//!    constants numbered in one sequence; device globals), each runnable case's runs on it.
//! 4. `images_linked_with_device_libraries_run`: images that import `__devicelib_assert_fail`
//!    linked with the SPIR-V device library that defines it (`libsycl-fallback-cassert` of
//!    `.devicelib`, fetched by scripts/setup.sh); and `bf16`'s kernel image given with a bfloat16
//!    library (the `.devicelib` file, or DPC++'s own library image), which the split keeps as an
//!    image of its own, as DPC++ does (src/split/devicelib.rs).
//!
//! spec-link runs with `--validate` (spirv-val; a missing spirv-val fails the run).

mod common;

use common::sycl_run::{self, Images};
use common::{devicelib_module, Scratch};
use std::path::{Path, PathBuf};
use std::process::Command;

fn postlink() -> PathBuf {
    common::repo().join("testdata/postlink")
}

/// DPC++'s `off` image N of `case` (markers not lowered).
fn off_image(case: &str, n: usize) -> PathBuf {
    postlink().join(format!("{case}/off/image{n}.spv"))
}

/// One spec-link input: the module and, for a DPC++ image, its `.prop`.
struct Input {
    spv: PathBuf,
    prop: Option<PathBuf>,
}

fn dpcpp(case: &str, n: usize) -> Input {
    let spv = off_image(case, n);
    Input {
        prop: Some(spv.with_extension("prop")),
        spv,
    }
}

fn library(name: &str) -> Input {
    Input {
        spv: devicelib_module(name),
        prop: None,
    }
}

/// Links and splits `inputs` into `dir/out.table` (failing the test with spec-link's stderr if it
/// fails) and returns the table.
fn link_and_split(inputs: &[Input], split: &str, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let table = dir.join("out.table");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_spec-link"));
    for i in inputs {
        cmd.arg(&i.spv);
    }
    // `--input-prop` pairs with the inputs in order: only the first inputs may have one.
    let props: Vec<&PathBuf> = inputs.iter().map_while(|i| i.prop.as_ref()).collect();
    assert!(
        inputs[props.len()..].iter().all(|i| i.prop.is_none()),
        "inputs with a .prop must come first"
    );
    for p in props {
        cmd.arg("--input-prop").arg(p);
    }
    cmd.args(["--split", split, "-o"]).arg(&table).args([
        "--emit-kernel-names",
        "--emit-program-metadata",
        "--spec-id-order",
        "dpcpp",
        "--validate",
    ]);
    let o = cmd.output().expect("run spec-link");
    assert!(
        o.status.success(),
        "{}: spec-link failed:\n{}",
        dir.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    table
}

/// Runs `case`'s `run.json` on the images of `table` alone; every run's buffers must start with
/// its `expect`ed hex, for every override set. Returns the number of buffers compared.
fn check_case_runs(case: &str, table: &Path, what: &str) -> usize {
    let run_json = postlink().join(format!("{case}/run.json"));
    let spec: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&run_json).unwrap()).unwrap();
    let out = sycl_run::run(&Images::Table(table.to_path_buf()), &run_json, what);
    let results = sycl_run::by_kernel(&out);
    let mut compared = 0;
    for run in spec["runs"].as_array().unwrap() {
        let kernel = run["kernel"].as_str().unwrap();
        let got = results
            .get(kernel)
            .unwrap_or_else(|| panic!("{what}: no results for {kernel}"));
        let expect = run["expect"].as_array().unwrap();
        let got = got.as_array().unwrap();
        assert_eq!(got.len(), expect.len(), "{what} {kernel}: override sets");
        for (k, (e, r)) in expect.iter().zip(got).enumerate() {
            for (arg, prefix) in e.as_object().unwrap() {
                let prefix = prefix.as_str().unwrap();
                let have = r["buffers"][arg.as_str()].as_str().unwrap_or("");
                assert!(
                    have.starts_with(prefix),
                    "{what} {kernel} override {k} argument {arg}:\n  expected {prefix}…\n  got      {have}"
                );
                compared += 1;
            }
        }
    }
    compared
}

/// DPC++'s images of `case`'s `folder` (`off`, `per_kernel`, …) in order, with their `.prop`.
fn dpcpp_images(case: &str, folder: &str) -> Vec<Input> {
    (0..)
        .map(|n| postlink().join(format!("{case}/{folder}/image{n}.spv")))
        .take_while(|p| p.exists())
        .map(|spv| Input {
            prop: Some(spv.with_extension("prop")),
            spv,
        })
        .collect()
}

/// Fails the test when an image of `table` still imports a symbol.
fn assert_no_imports(table: &Path, what: &str) {
    for prop in table_props(table) {
        let text = std::fs::read_to_string(&prop).unwrap();
        assert!(
            !text.contains("[SYCL/imported symbols]"),
            "{what}: {} still imports:\n{text}",
            prop.display()
        );
    }
}

/// The `.prop` files a table lists.
fn table_props(table: &Path) -> Vec<PathBuf> {
    let dir = table.parent().unwrap();
    std::fs::read_to_string(table)
        .unwrap()
        .lines()
        .skip(1)
        .map(|row| dir.join(row.split('|').nth(1).unwrap()))
        .collect()
}

#[test]
fn images_linked_with_their_providers_run() {
    let scratch = Scratch::new(&format!(
        "spec-link-link-sycl-providers-{}",
        std::process::id()
    ));
    let mut compared = 0;
    for case in ["dynlink", "dynchain", "dgdynlink"] {
        let spec: serde_json::Value = serde_json::from_slice(
            &std::fs::read(postlink().join(format!("{case}/run.json"))).unwrap(),
        )
        .unwrap();
        let provider = format!("{case}-provider");
        assert_eq!(
            spec["link_with"],
            serde_json::json!([provider]),
            "{case}: run.json names its provider"
        );
        for split in ["off", "per-kernel", "per-source"] {
            let what = format!("{case} + {provider}, --split {split}");
            let table = link_and_split(
                &[dpcpp(case, 0), dpcpp(&provider, 0)],
                split,
                &scratch.join(case).join(split),
            );
            assert_no_imports(&table, &what);
            compared += check_case_runs(case, &table, &what);
        }
    }
    assert!(compared >= 20, "compared only {compared} buffers");
}

#[test]
fn split_images_link_back_together_and_run() {
    let scratch = Scratch::new(&format!(
        "spec-link-link-sycl-relink-{}",
        std::process::id()
    ));
    let mut compared = 0;
    for case in [
        "dynlink",
        "dynchain",
        "funcptr-dyn",
        "optspec-os",
        "dgdynlink",
        "dgprops-dyn",
    ] {
        let flags = std::fs::read_to_string(postlink().join(format!("{case}/flags"))).unwrap();
        assert!(
            flags.contains("-fsycl-allow-device-image-dependencies"),
            "{case}: {flags}"
        );
        for folder in ["per_kernel", "per_source"] {
            let mut inputs = dpcpp_images(case, folder);
            let images = inputs.len();
            assert!(images >= 1, "{case}/{folder}: no images");
            let provider = format!("{case}-provider");
            if postlink().join(&provider).is_dir() {
                inputs.push(dpcpp(&provider, 0));
            }
            let what = format!("{case}/{folder}: {images} images linked back");
            let table = link_and_split(&inputs, "off", &scratch.join(case).join(folder));
            assert_no_imports(&table, &what);
            compared += check_case_runs(case, &table, &what);
        }
    }
    assert!(compared >= 30, "compared only {compared} buffers");
}

#[test]
fn unrelated_images_linked_together_run() {
    let scratch = Scratch::new(&format!(
        "spec-link-link-sycl-unrelated-{}",
        std::process::id()
    ));
    let inputs: Vec<Input> = ["specconst2", "mixfeat", "devglobal", "specconst"]
        .iter()
        .map(|c| dpcpp(c, 0))
        .collect();
    let table = link_and_split(&inputs, "off", &scratch.join("off"));
    let prop = std::fs::read_to_string(&table_props(&table)[0]).unwrap();
    // Every input's spec constants are in the one image's set.
    for name in ["____ZL5intId", "____ZL6flagId", "____ZL8sharedId"] {
        assert!(prop.contains(name), "{name} missing:\n{prop}");
    }
    let mut compared = 0;
    for case in ["specconst2", "mixfeat"] {
        compared += check_case_runs(case, &table, &format!("{case} in 4 linked cases"));
    }
    assert!(compared >= 10, "compared only {compared} buffers");
}

#[test]
fn images_linked_with_device_libraries_run() {
    let scratch = Scratch::new(&format!(
        "spec-link-link-sycl-devicelib-{}",
        std::process::id()
    ));
    let cases: [(&str, Vec<Input>); 4] = [
        (
            "printassert",
            vec![dpcpp("printassert", 0), library("fallback-cassert")],
        ),
        (
            "assertext",
            vec![dpcpp("assertext", 0), library("fallback-cassert")],
        ),
        ("bf16", vec![dpcpp("bf16", 0), library("fallback-bfloat16")]),
        // DPC++'s own bfloat16 library image (the fallback: `bfloat16=1|0`).
        ("bf16", vec![dpcpp("bf16", 0), dpcpp("bf16", 1)]),
    ];
    for (k, (case, inputs)) in cases.iter().enumerate() {
        let table = link_and_split(inputs, "off", &scratch.join(format!("{k}")));
        let what = format!(
            "{case} with {}",
            inputs[1].spv.file_name().unwrap().to_string_lossy()
        );
        assert!(check_case_runs(case, &table, &what) >= 1, "{what}");
    }
}
