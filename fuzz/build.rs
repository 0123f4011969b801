//! Collects the seed modules the structure-aware `mutate` target starts from and embeds them with
//! `include_bytes!` (`$OUT_DIR/seeds.rs`):
//! - `testdata/*/input.spv`, `testdata/fuzz-regressions/*.spv` and the real DPC++ images of
//!   `testdata/dpcpp/*/image*.input.spv` and `testdata/dpcpp-backend/*/image.input.spv` under
//!   32 KiB (binary, as they are);
//! - `testdata/*/input.spvasm` and `testdata/*/inputs/*.spvasm`, assembled with `spirv-as`
//!   (`--target-env spv1.4`, or the `; target-env: <env>` header line, as the tests do); skipped with
//!   a warning when `spirv-as` is missing;
//! - the DPC++ fixtures `image0.input.spv` (`$SPEC_LINK_FIXTURES`, else `../testdata/dpcpp-fixtures`
//!   relative to this folder), when present;
//! - a sample (32, evenly spaced, each under 32 KiB) of the real-world lowering corpus
//!   (`$SPEC_LINK_LOWERING_CORPUS`, else `../corpus/lowering/modules`; made by
//!   `scripts/lowering_corpus.py make`), when present.
//!
//! Seeds are sorted by name so that a seed index means the same module on every build of the same
//! tree (the `fuzz-tool materialize` command turns a `mutate` input into the module it stands for,
//! so regression files never depend on seed indices).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let here = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let repo = here.parent().expect("fuzz/ has a parent").to_path_buf();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let seed_dir = out.join("seeds");
    std::fs::create_dir_all(&seed_dir).expect("create $OUT_DIR/seeds");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SPEC_LINK_FIXTURES");

    // (name, path of the binary module)
    let mut seeds: Vec<(String, PathBuf)> = Vec::new();
    let testdata = repo.join("testdata");
    println!("cargo:rerun-if-changed={}", testdata.display());
    for case in sorted_dir(&testdata) {
        if !case.is_dir() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", case.display());
        let case_name = file_name(&case);
        let spv = case.join("input.spv");
        if spv.is_file() {
            seeds.push((format!("testdata/{case_name}/input.spv"), spv));
        }
        let asm = case.join("input.spvasm");
        if asm.is_file() {
            if let Some(p) = assemble(&asm, &seed_dir, &format!("{case_name}.input")) {
                seeds.push((format!("testdata/{case_name}/input.spvasm"), p));
            }
        }
        let inputs = case.join("inputs");
        if inputs.is_dir() {
            println!("cargo:rerun-if-changed={}", inputs.display());
            for f in sorted_dir(&inputs) {
                let n = file_name(&f);
                if let Some(stem) = n.strip_suffix(".spvasm") {
                    if let Some(p) = assemble(&f, &seed_dir, &format!("{case_name}.inputs.{stem}")) {
                        seeds.push((format!("testdata/{case_name}/inputs/{n}"), p));
                    }
                } else if n.ends_with(".spv") {
                    seeds.push((format!("testdata/{case_name}/inputs/{n}"), f));
                }
            }
        }
        // The real DPC++ images (testdata/dpcpp/<case>/imageN.input.spv) and those of LLVM's
        // SPIR-V backend (testdata/dpcpp-backend/<case>/image.input.spv: other shapes) under
        // 32 KiB: the larger ones (-O0, -g) slow every execution down more than they add.
        if case_name == "dpcpp" || case_name == "dpcpp-backend" {
            for sub in sorted_dir(&case) {
                for f in sorted_dir(&sub) {
                    let n = file_name(&f);
                    let small = std::fs::metadata(&f).map_or(false, |m| m.len() < 32 * 1024);
                    if n.starts_with("image") && n.ends_with(".input.spv") && small {
                        let sub_name = file_name(&sub);
                        seeds.push((format!("testdata/{case_name}/{sub_name}/{n}"), f));
                    }
                }
            }
        }
        if case_name == "fuzz-regressions" {
            for f in sorted_dir(&case) {
                let n = file_name(&f);
                if n.ends_with(".spv") {
                    seeds.push((format!("testdata/fuzz-regressions/{n}"), f));
                }
            }
        }
    }
    let fixtures = std::env::var_os("SPEC_LINK_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| here.join("../testdata/dpcpp-fixtures"));
    if fixtures.is_dir() {
        println!("cargo:rerun-if-changed={}", fixtures.display());
        for case in sorted_dir(&fixtures) {
            let spv = case.join("image0.input.spv");
            if spv.is_file() {
                seeds.push((format!("fixtures/dpcpp/{}/image0.input.spv", file_name(&case)), spv));
            }
        }
    } else {
        println!(
            "cargo:warning=DPC++ fixtures not found at {} (set SPEC_LINK_FIXTURES); seeding without them",
            fixtures.display()
        );
    }
    // A sample of the real-world lowering corpus (scripts/lowering_corpus.py make: corpus modules
    // with marker calls added; git-ignored, made from Intel's wheels), when present: every k-th of
    // the modules under 32 KiB, at most LOWERING_SAMPLE of them.
    let lowering = std::env::var_os("SPEC_LINK_LOWERING_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("corpus/lowering/modules"));
    println!("cargo:rerun-if-env-changed=SPEC_LINK_LOWERING_CORPUS");
    if lowering.is_dir() {
        println!("cargo:rerun-if-changed={}", lowering.display());
        const LOWERING_SAMPLE: usize = 32;
        let small: Vec<PathBuf> = sorted_dir(&lowering)
            .into_iter()
            .filter(|f| {
                file_name(f).ends_with(".spv")
                    && std::fs::metadata(f).map_or(false, |m| m.len() < 32 * 1024)
            })
            .collect();
        let step = small.len().div_ceil(LOWERING_SAMPLE).max(1);
        for f in small.iter().step_by(step) {
            seeds.push((format!("corpus/lowering/modules/{}", file_name(f)), f.clone()));
        }
    }
    seeds.sort();
    seeds.dedup_by(|a, b| a.0 == b.0);

    let mut rs = String::from(
        "/// Seed modules, sorted by name (generated by build.rs).\npub static SEEDS: &[(&str, &[u8])] = &[\n",
    );
    for (name, path) in &seeds {
        let path = path.canonicalize().unwrap_or_else(|_| path.clone());
        writeln!(rs, "    ({name:?}, include_bytes!({:?})),", path.display().to_string()).expect("write to String");
    }
    rs.push_str("];\n");
    std::fs::write(out.join("seeds.rs"), rs).expect("write seeds.rs");
}

fn sorted_dir(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(_) => Vec::new(),
    };
    v.sort();
    v
}

fn file_name(p: &Path) -> String {
    p.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Assembles `src` into `dir/<name>.spv`; `None` (with a cargo warning) when that fails.
fn assemble(src: &Path, dir: &Path, name: &str) -> Option<PathBuf> {
    println!("cargo:rerun-if-changed={}", src.display());
    let text = std::fs::read_to_string(src).ok()?;
    let env = text
        .lines()
        .take_while(|l| l.starts_with(';'))
        .find_map(|l| l.strip_prefix("; target-env: "))
        .unwrap_or("spv1.4")
        .trim()
        .to_string();
    let dst = dir.join(format!("{name}.spv"));
    match Command::new("spirv-as").arg("--target-env").arg(&env).arg(src).arg("-o").arg(&dst).output() {
        Ok(o) if o.status.success() => Some(dst),
        Ok(o) => {
            println!(
                "cargo:warning=spirv-as failed on {}: {}",
                src.display(),
                String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or("")
            );
            None
        }
        Err(e) => {
            println!("cargo:warning=spirv-as not found ({e}); seeds from .spvasm files skipped");
            None
        }
    }
}
