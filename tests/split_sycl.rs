//! spec-link's split images through the real SYCL runtime (`libsycl.so` of intel-sycl-rt 2026.2.0
//! on Intel's CPU OpenCL device, `scripts/sycl-run`; see `common/sycl_run.rs`).
//!
//! For every post-link reference case with a `run.json` (`testdata/postlink/<case>`) and every
//! split mode: spec-link splits DPC++'s `off` images (native spec constants, DPC++'s SpecId
//! order, the `off` images' `.prop` as `--input-prop`) into `OUT.table`; all images of the table
//! are registered together as the offload wrapper registers them (`.sym` lines as entries,
//! `.prop` as property sets), with the `off` images of the cases it links with (`link_with`);
//! each kernel is found by name, spec constants are set by symbolic ID through the runtime's
//! API, and the results must be those of DPC++'s own `off` image run the same way. A mode DPC++
//! rejects must fail in spec-link too.

mod common;

use common::sycl_run::{self, Image, Images};
use std::path::{Path, PathBuf};
use std::process::Command;

/// DPC++'s JIT images of `off/` before lowering (spec-link's inputs): `imageN.spv` in order.
fn off_inputs(dir: &Path) -> Vec<PathBuf> {
    (0..)
        .map(|n| dir.join(format!("off/image{n}.spv")))
        .take_while(|p| p.exists())
        .collect()
}

/// The images a `.table` lists (rows relative to its folder, or absolute).
fn table_images(table: &Path) -> Vec<Image> {
    let dir = table.parent().unwrap();
    std::fs::read_to_string(table)
        .unwrap()
        .lines()
        .skip(1)
        .map(|row| {
            let cells: Vec<PathBuf> = row.split('|').map(|c| dir.join(c)).collect();
            Image {
                spv: cells[0].clone(),
                prop: cells[1].clone(),
                sym: cells[2].clone(),
            }
        })
        .collect()
}

#[test]
fn spec_link_split_images_run_like_dpcpp_on_the_sycl_runtime() {
    let root = common::repo().join("testdata/postlink");
    let scratch = common::Scratch::new(&format!("spec-link-split-sycl-{}", std::process::id()));
    let (mut cases, mut image_sets) = (0, 0);
    let pattern = root.join("*/run.json");
    for run_json in glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
    {
        let dir = run_json.parent().unwrap();
        let case = dir.file_name().unwrap().to_string_lossy().into_owned();
        let inputs = off_inputs(dir);
        if inputs.is_empty() {
            continue;
        }
        let spec: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&run_json).unwrap()).unwrap();
        let linked = sycl_run::linked_images(&root, &spec);
        let with_linked = |mut images: Vec<Image>| {
            images.extend(linked.iter().cloned());
            Images::List(images)
        };
        let reference = sycl_run::by_kernel(&sycl_run::run(
            &with_linked(sycl_run::jit_images(&dir.join("off"), true)),
            &run_json,
            &format!("{case}/off (DPC++)"),
        ));
        let flags = std::fs::read_to_string(dir.join("flags")).unwrap_or_default();
        for (folder, mode) in [
            ("off", "off"),
            ("per_kernel", "per-kernel"),
            ("per_source", "per-source"),
            ("auto", "auto"),
        ] {
            let out = scratch.join(&case).join(folder);
            std::fs::create_dir_all(&out).unwrap();
            let table = out.join("out.table");
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_spec-link"));
            cmd.args(&inputs);
            for i in &inputs {
                cmd.arg("--input-prop").arg(i.with_extension("prop"));
            }
            cmd.args(["--split", mode, "-o"]).arg(&table).args([
                "--emit-kernel-names",
                "--emit-program-metadata",
                "--spec-id-order",
                "dpcpp",
                "--validate",
            ]);
            if flags.contains("-fsycl-allow-device-image-dependencies") {
                cmd.arg("--allow-device-image-dependencies");
            }
            let o = cmd.output().unwrap();
            if dir.join(folder).join("error.txt").exists() {
                assert_eq!(
                    o.status.code(),
                    Some(1),
                    "{case}/{folder}: DPC++ rejects it"
                );
                continue;
            }
            assert!(
                o.status.success(),
                "{case}/{folder}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let got = sycl_run::by_kernel(&sycl_run::run(
                &with_linked(table_images(&table)),
                &run_json,
                &format!("{case}/{folder} (spec-link)"),
            ));
            assert_eq!(
                got, reference,
                "{case}/{folder}: spec-link's images give other results than DPC++'s off image"
            );
            image_sets += 1;
        }
        cases += 1;
    }
    assert!(
        cases >= 6 && image_sets >= 20,
        "expected the runnable post-link cases: {cases} cases, {image_sets} image sets"
    );
}

/// Splitting DPC++'s lowered `off` images (`imageN.native.spv` with `imageN.native.prop`, as
/// `jit_images` picks them) per kernel and `auto`: every image carries the spec constants of the
/// input's file whose SpecIds it holds, and the images give the results of DPC++'s own `off`
/// image, with the run description's spec constants set by symbolic ID.
#[test]
fn split_images_of_lowered_inputs_run_like_dpcpp() {
    let root = common::repo().join("testdata/postlink");
    let scratch = common::Scratch::new(&format!("spec-link-split-lowered-{}", std::process::id()));
    let mut cases = 0;
    let pattern = root.join("*/run.json");
    for run_json in glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
    {
        let dir = run_json.parent().unwrap();
        if !dir.join("off/image0.native.spv").exists() {
            continue;
        }
        let case = dir.file_name().unwrap().to_string_lossy().into_owned();
        let spec: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&run_json).unwrap()).unwrap();
        let linked = sycl_run::linked_images(&root, &spec);
        let with_linked = |mut images: Vec<Image>| {
            images.extend(linked.iter().cloned());
            Images::List(images)
        };
        let lowered = sycl_run::jit_images(&dir.join("off"), true);
        let reference = sycl_run::by_kernel(&sycl_run::run(
            &with_linked(lowered.clone()),
            &run_json,
            &format!("{case}/off (DPC++)"),
        ));
        let flags = std::fs::read_to_string(dir.join("flags")).unwrap_or_default();
        for (folder, mode) in [("per_kernel", "per-kernel"), ("auto", "auto")] {
            let out = scratch.join(&case).join(mode);
            std::fs::create_dir_all(&out).unwrap();
            let table = out.join("out.table");
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_spec-link"));
            for image in &lowered {
                cmd.arg(&image.spv).arg("--input-prop").arg(&image.prop);
            }
            cmd.args(["--split", mode, "-o"])
                .arg(&table)
                .args(["--emit-kernel-names", "--validate"]);
            if flags.contains("-fsycl-allow-device-image-dependencies") {
                cmd.arg("--allow-device-image-dependencies");
            }
            let o = cmd.output().unwrap();
            if dir.join(folder).join("error.txt").exists() {
                assert_eq!(o.status.code(), Some(1), "{case}/{mode}: DPC++ rejects it");
                continue;
            }
            assert!(
                o.status.success(),
                "{case}/{mode}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let stderr = String::from_utf8_lossy(&o.stderr);
            assert!(!stderr.contains("SpecIds"), "{case}/{mode}: {stderr}");
            let got = sycl_run::by_kernel(&sycl_run::run(
                &with_linked(table_images(&table)),
                &run_json,
                &format!("{case}/{mode} (spec-link, lowered input)"),
            ));
            assert_eq!(
                got, reference,
                "{case}/{mode}: spec-link's images of the lowered input give other results than DPC++'s"
            );
        }
        cases += 1;
    }
    assert!(cases >= 8, "expected the runnable lowered cases: {cases}");
}
