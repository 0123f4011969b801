//! Running device images through the real SYCL runtime (`libsycl.so` of the `intel-sycl-rt`
//! wheel in the venv of scripts/setup.sh) with `scripts/sycl-run/sycl_run.cpp`: all images of a
//! set registered together as DPC++'s offload wrapper registers them, kernels found by name, spec
//! constants set by symbolic ID through the runtime's API. The host program is built once per
//! test binary into `target/<profile>/sycl-run/` (rebuilt when its source is newer); a missing g++
//! or runtime fails the test that needs it, naming it.
//!
//! Run descriptions are the JSON that `sycl_run.cpp`'s header documents:
//! `{"runs": [{"kernel", "launch", "args", "overrides", ...}]}`; results come back as
//! `{"runs": [{"kernel", "results": [{"override": i, "buffers": {"<arg index>": hex}}]}]}`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// One image as the offload wrapper sees it: code, property sets, symbol table.
#[derive(Clone, Debug)]
pub struct Image {
    pub spv: PathBuf,
    pub prop: PathBuf,
    pub sym: PathBuf,
}

/// Where images come from: a `.table` (`[Code|Properties|Symbols]`, rows relative to its folder)
/// or explicit triples.
#[derive(Clone, Debug)]
pub enum Images {
    Table(PathBuf),
    List(Vec<Image>),
}

/// The built host program (built on first use in this process).
pub fn host() -> &'static Path {
    static HOST: OnceLock<PathBuf> = OnceLock::new();
    HOST.get_or_init(|| {
        let repo = super::repo();
        let src = repo.join("scripts/sycl-run/sycl_run.cpp");
        let script = repo.join("scripts/sycl-run/build.sh");
        // target/<profile>/deps/<test binary> -> target/<profile>/sycl-run/sycl_run
        let exe = std::env::current_exe().expect("the test binary's path");
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("the test binary lives in target/<profile>/deps");
        let out = profile_dir.join("sycl-run/sycl_run");
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        let stale = match modified(&out) {
            None => true,
            Some(built) => [&src, &script]
                .iter()
                .any(|p| modified(p).is_none_or(|m| m > built)),
        };
        if stale {
            let r = Command::new("bash")
                .arg(&script)
                .arg(&out)
                .output()
                .expect("run bash scripts/sycl-run/build.sh");
            assert!(
                r.status.success(),
                "building the SYCL host program failed (needs g++ and intel-sycl-rt in .venv: \
                 scripts/setup.sh):\n{}",
                String::from_utf8_lossy(&r.stderr)
            );
        }
        out
    })
}

/// Runs `run_json` on `images` through the SYCL runtime: the parsed results, or the exit code
/// and stderr of a failed run.
pub fn try_run(
    images: &Images,
    run_json: &Path,
) -> Result<serde_json::Value, (Option<i32>, String)> {
    let repo = super::repo();
    let icd = repo.join(".ocl-icd");
    assert!(
        icd.join("intel-cpu.icd").exists(),
        "{} is missing: run scripts/setup.sh (Intel's CPU OpenCL runtime)",
        icd.join("intel-cpu.icd").display()
    );
    let mut cmd = Command::new(host());
    match images {
        Images::Table(t) => {
            cmd.arg("--table").arg(t);
        }
        Images::List(list) => {
            for i in list {
                cmd.arg("--image").arg(&i.spv).arg(&i.prop).arg(&i.sym);
            }
        }
    }
    let out = cmd
        .arg("--run")
        .arg(run_json)
        .env("OCL_ICD_VENDORS", &icd)
        .env_remove("ONEAPI_DEVICE_SELECTOR")
        .output()
        .expect("start the SYCL host program");
    if !out.status.success() {
        return Err((
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| (Some(0), format!("bad JSON output: {e}")))
}

/// [`try_run`] that must succeed (`what` names the run in the failure message).
pub fn run(images: &Images, run_json: &Path, what: &str) -> serde_json::Value {
    try_run(images, run_json).unwrap_or_else(|(code, err)| {
        panic!("{what}: the SYCL host program failed (exit {code:?}):\n{err}")
    })
}

/// Runs a `.table` (e.g. spec-link's `--split … -o OUT.table` output): every image of it
/// registered together.
pub fn run_table(table: &Path, run_json: &Path) -> serde_json::Value {
    run(
        &Images::Table(table.to_path_buf()),
        run_json,
        &table.display().to_string(),
    )
}

/// DPC++'s JIT images of a folder (`imageN.spv` or, with `native`, `imageN.native.spv` where it
/// exists; `imageN[.native].prop`; `imageN.kernels.txt` = the `.sym`), in image order.
pub fn jit_images(dir: &Path, native: bool) -> Vec<Image> {
    let mut v = Vec::new();
    for n in 0.. {
        let plain = dir.join(format!("image{n}.spv"));
        if !plain.exists() {
            break;
        }
        let lowered = dir.join(format!("image{n}.native.spv"));
        let (spv, prop) = if native && lowered.exists() {
            (lowered, dir.join(format!("image{n}.native.prop")))
        } else {
            (plain, dir.join(format!("image{n}.prop")))
        };
        v.push(Image {
            spv,
            prop,
            sym: dir.join(format!("image{n}.kernels.txt")),
        });
    }
    v
}

/// The `off` images (DPC++'s native ones) of the cases a run description's `link_with` names
/// (other translation units a case links with), to register beside every image set of the case.
pub fn linked_images(cases: &Path, spec: &serde_json::Value) -> Vec<Image> {
    spec["link_with"]
        .as_array()
        .map(|v| v.as_slice())
        .unwrap_or_default()
        .iter()
        .flat_map(|c| jit_images(&cases.join(c.as_str().unwrap()).join("off"), true))
        .collect()
}
/// The `results` of each kernel of a host-program output, by kernel name.
pub fn by_kernel(out: &serde_json::Value) -> std::collections::BTreeMap<String, serde_json::Value> {
    out["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .map(|r| {
            (
                r["kernel"].as_str().unwrap().to_string(),
                r["results"].clone(),
            )
        })
        .collect()
}
