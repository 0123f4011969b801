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
use spec_link::properties::text;
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

/// Kernel results of one run, by kernel name.
type Results = std::collections::BTreeMap<String, serde_json::Value>;

/// A post-link reference case with a run description (`run.json`), and DPC++'s results: its own
/// `off` images (the lowered ones where it has them) run with the images of the cases it links
/// with.
struct Runnable {
    dir: PathBuf,
    name: String,
    run_json: PathBuf,
    linked: Vec<Image>,
    flags: String,
    reference: Results,
}

impl Runnable {
    /// The cases under `root` with a `run.json` whose folder `keep` accepts, in name order.
    fn all(root: &Path, keep: impl Fn(&Path) -> bool) -> Vec<Runnable> {
        let pattern = root.join("*/run.json");
        glob::glob(pattern.to_str().unwrap())
            .unwrap()
            .map(Result::unwrap)
            .filter(|run_json| keep(run_json.parent().unwrap()))
            .map(|run_json| {
                let dir = run_json.parent().unwrap().to_path_buf();
                let name = dir.file_name().unwrap().to_string_lossy().into_owned();
                let spec: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(&run_json).unwrap()).unwrap();
                let linked = sycl_run::linked_images(root, &spec);
                let mut case = Runnable {
                    flags: std::fs::read_to_string(dir.join("flags")).unwrap_or_default(),
                    dir,
                    name,
                    run_json,
                    linked,
                    reference: Results::new(),
                };
                let off = sycl_run::jit_images(&case.dir.join("off"), true);
                case.reference = case.run(off, &format!("{}/off (DPC++)", case.name));
                case
            })
            .collect()
    }

    /// The results of `images`, with the images of the cases this one links with.
    fn run(&self, mut images: Vec<Image>, what: &str) -> Results {
        images.extend(self.linked.iter().cloned());
        sycl_run::by_kernel(&sycl_run::run(&Images::List(images), &self.run_json, what))
    }

    /// Runs `split` (spec-link splitting into `table` in the mode of DPC++'s folder `folder`)
    /// and then the table's images: their results and spec-link's messages; `None` when DPC++
    /// rejects the mode, which spec-link must then reject too.
    fn split_and_run(
        &self,
        mut split: Command,
        folder: &str,
        table: &Path,
        what: &str,
    ) -> Option<(Results, String)> {
        if self
            .flags
            .contains("-fsycl-allow-device-image-dependencies")
        {
            split.arg("--allow-device-image-dependencies");
        }
        let o = split.output().unwrap();
        if self.dir.join(folder).join("error.txt").exists() {
            assert_eq!(o.status.code(), Some(1), "{what}: DPC++ rejects it");
            return None;
        }
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{what}: {stderr}");
        Some((self.run(table_images(table), what), stderr))
    }
}

#[test]
fn spec_link_split_images_run_like_dpcpp_on_the_sycl_runtime() {
    let root = common::repo().join("testdata/postlink");
    let scratch = common::Scratch::new(&format!("spec-link-split-sycl-{}", std::process::id()));
    let cases = Runnable::all(&root, |dir| !off_inputs(dir).is_empty());
    let mut image_sets = 0;
    for case in &cases {
        let inputs = off_inputs(&case.dir);
        for (folder, mode) in [
            ("off", "off"),
            ("per_kernel", "per-kernel"),
            ("per_source", "per-source"),
            ("auto", "auto"),
        ] {
            let out = scratch.join(&case.name).join(folder);
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
            let what = format!("{}/{folder} (spec-link)", case.name);
            let Some((got, _)) = case.split_and_run(cmd, folder, &table, &what) else {
                continue;
            };
            assert_eq!(
                got, case.reference,
                "{what}: spec-link's images give other results than DPC++'s off image"
            );
            image_sets += 1;
        }
    }
    assert!(
        cases.len() >= 6 && image_sets >= 20,
        "expected the runnable post-link cases: {} cases, {image_sets} image sets",
        cases.len()
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
    let cases = Runnable::all(&root, |dir| dir.join("off/image0.native.spv").exists());
    for case in &cases {
        let lowered = sycl_run::jit_images(&case.dir.join("off"), true);
        for (folder, mode) in [("per_kernel", "per-kernel"), ("auto", "auto")] {
            let out = scratch.join(&case.name).join(mode);
            std::fs::create_dir_all(&out).unwrap();
            let table = out.join("out.table");
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_spec-link"));
            for image in &lowered {
                cmd.arg(&image.spv).arg("--input-prop").arg(&image.prop);
            }
            cmd.args(["--split", mode, "-o"])
                .arg(&table)
                .args(["--emit-kernel-names", "--validate"]);
            let what = format!("{}/{mode} (spec-link, lowered input)", case.name);
            let Some((got, stderr)) = case.split_and_run(cmd, folder, &table, &what) else {
                continue;
            };
            assert!(!stderr.contains("SpecIds"), "{what}: {stderr}");
            assert_eq!(
                got, case.reference,
                "{what}: spec-link's images of the lowered input give other results than DPC++'s"
            );
        }
    }
    assert!(
        cases.len() >= 8,
        "expected the runnable lowered cases: {}",
        cases.len()
    );
}

/// Split from the SPIR-V alone (no `--input-prop`, no AuxData), the kernels that reach work-group
/// local memory give DPC++'s results: the runtime sets the appended local-memory argument only
/// where `[SYCL/implicit local arg]` names it (`scratch`: without the set the run breaks,
/// `the_runtime_reads_the_property_sets`), and spec-link reads the set from the SPIR-V. (Only
/// those kernels run: a `local_accessor` kernel's eliminated parameters are not in the SPIR-V,
/// so without `--input-prop` the runtime would set its arguments where DPC++'s kernel has none.)
#[test]
fn local_memory_kernels_split_from_the_spirv_alone_run_like_dpcpp() {
    let root = common::repo().join("testdata/postlink");
    let scratch = common::Scratch::new(&format!("spec-link-split-local-{}", std::process::id()));
    let local = ["scratch", "scratch2", "grouplocal"];
    let cases = Runnable::all(&root, |dir| {
        dir.file_name()
            .is_some_and(|n| local.iter().any(|l| n == *l))
    });
    assert_eq!(cases.len(), local.len(), "the local-memory cases");
    let mut kernels = 0;
    for case in &cases {
        // The runs of the kernels DPC++ lists in the set.
        let prop = std::fs::read(case.dir.join("off/image0.prop")).unwrap();
        let listed: Vec<String> = text::read(&prop)
            .unwrap()
            .into_iter()
            .filter(|set| set.name == "SYCL/implicit local arg")
            .flat_map(|set| set.properties.into_iter().map(|(kernel, _)| kernel))
            .collect();
        let mut spec: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&case.run_json).unwrap()).unwrap();
        if let Some(runs) = spec["runs"].as_array_mut() {
            runs.retain(|r| listed.iter().any(|k| r["kernel"] == k.as_str()));
        }
        let run_json = scratch.join(format!("{}.run.json", case.name));
        std::fs::write(&run_json, serde_json::to_vec(&spec).unwrap()).unwrap();
        let expected: Results = case
            .reference
            .iter()
            .filter(|(k, _)| listed.contains(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert!(
            !expected.is_empty(),
            "{}: no local-memory kernel ran",
            case.name
        );
        kernels += expected.len();
        for mode in ["per-kernel", "auto"] {
            let out = scratch.join(&case.name).join(mode);
            std::fs::create_dir_all(&out).unwrap();
            let table = out.join("out.table");
            let o = Command::new(env!("CARGO_BIN_EXE_spec-link"))
                .args(off_inputs(&case.dir))
                .args(["--split", mode, "-o"])
                .arg(&table)
                .args(["--emit-kernel-names", "--validate"])
                .output()
                .unwrap();
            let what = format!("{}/{mode} (spec-link, SPIR-V alone)", case.name);
            let stderr = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "{what}: {stderr}");
            let got = sycl_run::by_kernel(&sycl_run::run(
                &Images::List(table_images(&table)),
                &run_json,
                &what,
            ));
            assert_eq!(
                got, expected,
                "{what}: other results than DPC++'s off image"
            );
        }
    }
    assert!(kernels >= 9, "{kernels} local-memory kernels");
}
