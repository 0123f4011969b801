//! spec-link's device-code split against DPC++ 2026.2's own (testdata/postlink, README there).
//!
//! For every case and every split mode DPC++ was run in (`off`, `per_kernel`, `per_source`,
//! `auto`), spec-link splits DPC++'s `off` images (all of them, linked: an ESIMD case has two)
//! with their `.prop` files as `--input-prop`, in native spec-constant mode, DPC++'s SpecId order,
//! with kernel names and program metadata as the JIT flow writes them, and `--validate` (every
//! image goes through spirv-val with the library's policy for what the input already fails).
//! Then, image by image in order: the `.sym` equals DPC++'s `imageN.kernels.txt`, and every
//! property set equals DPC++'s (`imageN.native.prop` where it exists, else `imageN.prop`), set
//! by set and property by property — `[SYCL/kernel param opt]` as a map, since DPC++ writes it
//! in a hash order. A mode DPC++ rejected (`error.txt`) must fail (exit 1) leaving no file.
//! `emulation_split_equals_dpcpp` does the same in emulation mode for the cases that have DPC++'s
//! emulation images (`imageN.emulation.prop`). `$SPEC_LINK_POSTLINK_CASES` names another folder
//! of cases for these two tests.
//!
//! [`GAPS`] lists what the SPIR-V cannot give (docs/split.md, "Known gaps"); for those the test
//! compares everything else and checks that the gap still shows (a gap that closes must be
//! taken off the list). `split_with_auxdata_equals_dpcpp` gives the same cases' `off` images
//! the `NonSemantic.AuxData` the front end keeps with `--spirv-preserve-auxdata`: then nothing
//! is a gap, with or without `--input-prop`.

mod common;

use spec_link::properties::{text, PropertySet, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// DPC++'s mode folders and spec-link's `--split` values.
const MODES: [(&str, &str); 4] = [
    ("off", "off"),
    ("per_kernel", "per-kernel"),
    ("per_source", "per-source"),
    ("auto", "auto"),
];

/// What is not compared for a case in some modes.
#[derive(Clone, Copy, Debug)]
enum Gap {
    /// This property set is not compared.
    Set(&'static str),
    /// The grouping differs (it follows from aspects the SPIR-V does not show): only that every
    /// kernel is in exactly one image is checked.
    Grouping,
    /// An image's entry points are DPC++'s in another order (`.sym` compared as a set): the
    /// translator writes the functions a global's initializer names (virtual tables) first, in
    /// the globals' order, so the LLVM module's function order, which DPC++'s follows, is not
    /// in the SPIR-V for them without debug information.
    SymbolOrder,
    /// The spec constants are numbered in another order (DPC++'s follows LLVM use lists that
    /// inlining reordered): the spec-constant sets are compared by which symbolic IDs they hold
    /// and how many default bytes, not by number.
    SpecNumbering,
}

/// The spec-constant sets, which [`Gap::SpecNumbering`] compares without their numbering.
const SPEC_SETS: [&str; 2] = [
    "SYCL/specialization constants",
    "SYCL/specialization constants default values",
];

/// Known gaps: (case, DPC++ mode folders, gap, why).
const GAPS: &[(&str, &[&str], Gap, &str)] = &[
    (
        "vfunc",
        &["per_kernel"],
        Gap::Set("SYCL/virtual functions"),
        "virtual-function set names are not in SPIR-V: every function is given the one set the unsplit image names",
    ),
    (
        "vfunc",
        &["per_source", "auto"],
        Gap::Grouping,
        "virtual-function set names are not in SPIR-V: the functions of two sets share the one set the unsplit image names, and so an image",
    ),
    (
        "vfunc-run",
        &["off", "per_source", "auto"],
        Gap::SymbolOrder,
        "the translator writes virtual functions in their virtual tables' order, not the LLVM module's",
    ),
    (
        "aspects",
        &["per_kernel"],
        Gap::Set("SYCL/device requirements"),
        "device_has aspects and a half the optimiser folded away are not in SPIR-V",
    ),
    (
        "aspects",
        &["per_source", "auto"],
        Gap::Grouping,
        "device_has aspects and a half the optimiser folded away are not in SPIR-V",
    ),
    (
        "vfunc-sets",
        &["per_kernel"],
        Gap::Set("SYCL/virtual functions"),
        "virtual-function set names are not in SPIR-V: every function is given the one set the unsplit image names",
    ),
    (
        "vfunc-sets",
        &["per_source", "auto"],
        Gap::Grouping,
        "virtual-function set names are not in SPIR-V: the functions of three sets share the one set the unsplit image names, and so an image",
    ),
    (
        "kpropcombo",
        &["per_kernel"],
        Gap::Set("SYCL/device requirements"),
        "device_has aspects (attribute) are not in SPIR-V",
    ),
    (
        "kpropcombo",
        &["per_source", "auto"],
        Gap::Grouping,
        "device_has aspects (attribute) are not in SPIR-V",
    ),
    (
        "fnattrs",
        &["per_kernel"],
        Gap::Set("SYCL/device requirements"),
        "a helper's device_has aspects, which reach its caller, are not in SPIR-V",
    ),
    (
        "fnattrs",
        &["per_source", "auto"],
        Gap::Grouping,
        "a helper's device_has aspects, which reach its caller, are not in SPIR-V",
    ),
    (
        "extattrs",
        &["per_kernel"],
        Gap::Set("SYCL/device requirements"),
        "a helper's device_has aspects, which reach its caller, are not in SPIR-V",
    ),
    (
        "extattrs",
        &["per_source", "auto"],
        Gap::Grouping,
        "a helper's device_has aspects, which reach its caller, are not in SPIR-V",
    ),
    (
        "khhelper",
        &["per_kernel"],
        Gap::Set("SYCL/device requirements"),
        "device_has aspects are not in SPIR-V",
    ),
    (
        "khhelper",
        &["per_source", "auto"],
        Gap::Grouping,
        "device_has aspects are not in SPIR-V",
    ),
    (
        "nonuniform",
        &["per_kernel"],
        Gap::Set("SYCL/device requirements"),
        "aspects of non-uniform group factories (__uses_aspects__) are not in SPIR-V",
    ),
    (
        "nonuniform",
        &["per_source", "auto"],
        Gap::Grouping,
        "aspects of non-uniform group factories (__uses_aspects__) are not in SPIR-V",
    ),
    (
        "jmatrix",
        &["per_kernel"],
        Gap::Set("SYCL/device requirements"),
        "joint_matrix descriptors (function attributes of joint_matrix) are not in SPIR-V",
    ),
    (
        "jmatrix",
        &["per_source", "auto"],
        Gap::Grouping,
        "joint_matrix descriptors (function attributes of joint_matrix) are not in SPIR-V",
    ),
    (
        "specinline",
        &["off"],
        Gap::SpecNumbering,
        "an unsplit image numbers in the use-list order inlining left, which SPIR-V does not hold",
    ),
    (
        "optspec-os",
        &["off"],
        Gap::SpecNumbering,
        "an unsplit image numbers in the use-list order inlining left, which SPIR-V does not hold",
    ),
    (
        "spec112",
        &["off"],
        Gap::SpecNumbering,
        "an unsplit image numbers in the use-list order inlining left, which SPIR-V does not hold",
    ),
    (
        "spec44",
        &["off"],
        Gap::SpecNumbering,
        "an unsplit image numbers in the use-list order inlining left, which SPIR-V does not hold",
    ),
    (
        "spec44-o0",
        &["off"],
        Gap::SpecNumbering,
        "an unsplit image numbers in the use-list order inlining left (at -O0 too), which SPIR-V does not hold",
    ),
];

/// What [`Gap::SpecNumbering`] compares of the spec-constant sets: the symbolic IDs and the
/// number of default bytes.
fn spec_sets_unnumbered(sets: &[PropertySet]) -> (Vec<String>, usize) {
    let mut ids = Vec::new();
    let mut default_bytes = 0;
    for set in sets {
        if set.name == SPEC_SETS[0] {
            ids.extend(set.properties.iter().map(|(name, _)| name.clone()));
        } else if set.name == SPEC_SETS[1] {
            for (_, value) in &set.properties {
                if let Value::Bytes { data, .. } = value {
                    default_bytes += data.len();
                }
            }
        }
    }
    ids.sort();
    (ids, default_bytes)
}

fn gap(case: &str, mode: &str) -> Option<(Gap, &'static str)> {
    GAPS.iter()
        .find(|(c, modes, _, _)| *c == case && modes.contains(&mode))
        .map(|&(_, _, g, why)| (g, why))
}

/// `imageN` files of a folder in N order (`imageN.native.*` are not images of their own). (Where
/// the code uses the bfloat16 device library, DPC++'s last two images in every mode are the
/// library's: given with the `off` images, spec-link appends them as DPC++ does.)
fn images(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            let n = name
                .strip_prefix("image")?
                .strip_suffix(".spv")?
                .parse()
                .ok()?;
            Some((n, p))
        })
        .collect();
    out.sort();
    out.into_iter().map(|(_, p)| p).collect()
}

fn read_prop(path: &Path) -> Vec<PropertySet> {
    text::read(&std::fs::read(path).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The sets with `[SYCL/kernel param opt]` (DPC++'s order is a hash order) and
/// `[SYCL/imported symbols]` (DPC++'s is the LLVM module's: where a definition became a
/// declaration in the image, the SPIR-V does not keep it; the runtime reads both as sets) in
/// name order.
fn comparable(mut sets: Vec<PropertySet>) -> Vec<PropertySet> {
    for s in &mut sets {
        if s.name == "SYCL/kernel param opt" || s.name == "SYCL/imported symbols" {
            s.properties.sort_by(|a, b| a.0.cmp(&b.0));
        }
    }
    sets
}

fn show(sets: &[PropertySet]) -> String {
    let mut out = String::new();
    for s in sets {
        out.push_str(&format!("[{}]\n", s.name));
        for (n, v) in &s.properties {
            let v = match v {
                Value::Uint32(x) => format!("{x}"),
                Value::Bytes { bits, data } => format!("{bits} bits {data:02x?}"),
            };
            out.push_str(&format!("  {n} = {v}\n"));
        }
    }
    out
}

/// What the inputs of a split carry besides DPC++'s `off` images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inputs {
    /// The images with their `.prop` files as `--input-prop`.
    Props,
    /// The images with `NonSemantic.AuxData` added ([`auxdata_of`]) and their `.prop` files.
    AuxDataAndProps,
    /// The images with `NonSemantic.AuxData` added, no `--input-prop`.
    AuxDataOnly,
    /// The images alone: what the SPIR-V holds.
    SpirvOnly,
}

/// The spec-constant mode of a split and DPC++'s property sets it is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SpecMode {
    /// `--spec-const native`: `imageN.native.prop` where it exists, else `imageN.prop`.
    Native,
    /// `--spec-const emulation`: `imageN.emulation.prop` where it exists, else `imageN.prop`.
    Emulation,
}

impl SpecMode {
    /// spec-link's `--spec-const` value, which is also the infix of DPC++'s `.prop` files.
    fn name(self) -> &'static str {
        match self {
            SpecMode::Native => "native",
            SpecMode::Emulation => "emulation",
        }
    }
}

/// Runs spec-link's split of a case's `off` images in `mode`; returns the exit code, stderr and
/// the table's rows (spv, prop, sym).
fn run_split(
    case: &Path,
    mode: &str,
    out: &Path,
    inputs: Inputs,
    spec: SpecMode,
) -> (i32, String, Vec<[PathBuf; 3]>) {
    let mut offs = images(&case.join("off"));
    assert!(!offs.is_empty(), "{}: no off images", case.display());
    let props: Vec<PathBuf> = offs.iter().map(|o| o.with_extension("prop")).collect();
    if matches!(inputs, Inputs::AuxDataAndProps | Inputs::AuxDataOnly) {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let entries = auxdata_of(&name).expect("a case with AuxData");
        let dir = out.join("inputs");
        std::fs::create_dir_all(&dir).unwrap();
        for o in &mut offs {
            let words = common::words(&std::fs::read(&*o).unwrap());
            let with = common::auxdata::add(&words, &entries);
            let path = dir.join(o.file_name().unwrap());
            std::fs::write(&path, common::bytes(&with)).unwrap();
            *o = path;
        }
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_spec-link"));
    cmd.args(&offs);
    if matches!(inputs, Inputs::Props | Inputs::AuxDataAndProps) {
        for p in &props {
            cmd.arg("--input-prop").arg(p);
        }
    }
    let table = out.join("split").join("out.table");
    std::fs::create_dir_all(table.parent().unwrap()).unwrap();
    cmd.args(["--split", mode, "-o"]).arg(&table).args([
        "--emit-kernel-names",
        "--emit-program-metadata",
        "--spec-const",
        spec.name(),
        "--spec-id-order",
        "dpcpp",
        "--validate",
    ]);
    let flags = std::fs::read_to_string(case.join("flags")).unwrap_or_default();
    if flags.contains("-fsycl-allow-device-image-dependencies") {
        cmd.arg("--allow-device-image-dependencies");
    }
    let o = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let code = o.status.code().unwrap_or(-1);
    if code != 0 {
        return (code, stderr, Vec::new());
    }
    let text = std::fs::read_to_string(&table).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("[Code|Properties|Symbols]"));
    let rows = lines
        .map(|l| {
            let cells: Vec<&str> = l.split('|').collect();
            assert_eq!(cells.len(), 3, "table row {l}");
            [0, 1, 2].map(|k| PathBuf::from(cells[k]))
        })
        .collect();
    (code, stderr, rows)
}

/// Compares one case in one mode; returns the differences found (gaps excepted, for inputs
/// without AuxData) and whether a listed gap showed.
fn compare(
    case: &Path,
    dpcpp: &str,
    mode: &str,
    inputs: Inputs,
    spec: SpecMode,
) -> (Vec<String>, bool) {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let dir = case.join(dpcpp);
    let scratch = common::Scratch::new(&format!(
        "spec-link-postlink-{name}-{dpcpp}-{inputs:?}-{spec:?}-{}",
        std::process::id()
    ));
    let (code, stderr, rows) = run_split(case, mode, &scratch, inputs, spec);
    let out_dir = scratch.join("split");
    let mut problems = Vec::new();
    if dir.join("error.txt").exists() {
        if code != 1 {
            problems.push(format!(
                "DPC++ rejects it, spec-link exited {code}: {stderr}"
            ));
        }
        let left: Vec<_> = std::fs::read_dir(&out_dir).unwrap().collect();
        if !left.is_empty() {
            problems.push(format!("{} file(s) left after the error", left.len()));
        }
        return (problems, false);
    }
    if code != 0 {
        return (vec![format!("exit {code}: {stderr}")], false);
    }
    let expected = images(&dir);
    let gap = if inputs == Inputs::Props {
        gap(&name, dpcpp)
    } else {
        for row in &rows {
            let text = String::from_utf8_lossy(&std::fs::read(&row[0]).unwrap()).into_owned();
            if text.contains("NonSemantic.AuxData") {
                problems.push(format!("{} keeps the AuxData", row[0].display()));
            }
        }
        None
    };
    let mut gap_showed = false;
    if let Some((Gap::Grouping, _)) = gap {
        let kernels = |files: Vec<PathBuf>| -> BTreeMap<String, usize> {
            let mut m = BTreeMap::new();
            for f in files {
                for k in std::fs::read_to_string(f).unwrap().lines() {
                    *m.entry(k.to_string()).or_insert(0) += 1;
                }
            }
            m
        };
        let ours = kernels(rows.iter().map(|r| r[2].clone()).collect());
        let theirs = kernels(
            expected
                .iter()
                .map(|p| p.with_extension("kernels.txt"))
                .collect(),
        );
        if ours != theirs {
            problems.push(format!("kernels {ours:?} vs DPC++'s {theirs:?}"));
        }
        // (The gap: other images, or the same number holding other kernels.)
        let syms = |files: Vec<PathBuf>| -> Vec<String> {
            files
                .iter()
                .map(|f| std::fs::read_to_string(f).unwrap())
                .collect()
        };
        gap_showed = syms(rows.iter().map(|r| r[2].clone()).collect())
            != syms(
                expected
                    .iter()
                    .map(|p| p.with_extension("kernels.txt"))
                    .collect(),
            );
        return (problems, gap_showed);
    }
    if rows.len() != expected.len() {
        problems.push(format!("{} images, DPC++ {}", rows.len(), expected.len()));
    }
    for (k, (row, theirs)) in rows.iter().zip(&expected).enumerate() {
        let sym = std::fs::read_to_string(&row[2]).unwrap();
        let their_sym = std::fs::read_to_string(theirs.with_extension("kernels.txt")).unwrap();
        if sym != their_sym {
            let as_set = |s: &str| s.lines().map(String::from).collect::<BTreeSet<String>>();
            if matches!(gap, Some((Gap::SymbolOrder, _))) && as_set(&sym) == as_set(&their_sym) {
                gap_showed = true;
            } else {
                problems.push(format!("image {k}: .sym {sym:?}, DPC++ {their_sym:?}"));
            }
        }
        let lowered = theirs.with_extension(format!("{}.prop", spec.name()));
        let their_prop = if lowered.exists() {
            lowered
        } else {
            theirs.with_extension("prop")
        };
        let mut ours = comparable(read_prop(&row[1]));
        let mut theirs = comparable(read_prop(&their_prop));
        if let Some((Gap::SpecNumbering, _)) = gap {
            let (ours_spec, theirs_spec) =
                (spec_sets_unnumbered(&ours), spec_sets_unnumbered(&theirs));
            if ours_spec != theirs_spec {
                problems.push(format!(
                    "image {k}: spec constants {ours_spec:?}, DPC++ {theirs_spec:?}"
                ));
            }
            let spec = |sets: &[PropertySet]| -> Vec<PropertySet> {
                sets.iter()
                    .filter(|s| SPEC_SETS.contains(&s.name.as_str()))
                    .cloned()
                    .collect()
            };
            gap_showed |= spec(&ours) != spec(&theirs);
            ours.retain(|s| !SPEC_SETS.contains(&s.name.as_str()));
            theirs.retain(|s| !SPEC_SETS.contains(&s.name.as_str()));
        }
        if let Some((Gap::Set(set), _)) = gap {
            let before = (ours.clone(), theirs.clone());
            ours.retain(|s| s.name != set);
            theirs.retain(|s| s.name != set);
            let ours_set = before.0.iter().find(|s| s.name == set);
            let theirs_set = before.1.iter().find(|s| s.name == set);
            gap_showed |= ours_set != theirs_set;
        }
        if ours != theirs {
            problems.push(format!(
                "image {k} ({}): property sets differ\n--- spec-link\n{}--- DPC++ {}\n{}",
                sym.trim(),
                show(&ours),
                their_prop.display(),
                show(&theirs)
            ));
        }
    }
    (problems, gap_showed)
}

#[test]
fn split_equals_dpcpp() {
    split_equals_dpcpp_in(SpecMode::Native);
}

/// The same in emulation mode, for the cases with DPC++'s emulation images
/// (`imageN.emulation.prop`). Property sets and `.sym` are compared; the kernels' signatures are
/// not: where the marker calls read the buffer through the `kernel_handler`, which a JIT
/// image's front end leaves null, DPC++'s pass loads from that null pointer and spec-link
/// appends a buffer parameter (docs/lowering.md, "Emulation mode").
#[test]
fn emulation_split_equals_dpcpp() {
    split_equals_dpcpp_in(SpecMode::Emulation);
}

/// Whether a DPC++ mode folder holds an image lowered in `spec` mode.
fn has_lowered(dir: &Path, spec: SpecMode) -> bool {
    let suffix = format!(".{}.prop", spec.name());
    std::fs::read_dir(dir).is_ok_and(|mut entries| {
        entries.any(|e| e.unwrap().file_name().to_string_lossy().ends_with(&suffix))
    })
}

fn split_equals_dpcpp_in(spec: SpecMode) {
    // ($SPEC_LINK_POSTLINK_CASES: another folder of cases in the same layout, such as
    // scripts/dpcpp-random/postlink_campaign.py's.)
    let root = std::env::var_os("SPEC_LINK_POSTLINK_CASES")
        .map_or_else(|| common::repo().join("testdata/postlink"), PathBuf::from);
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("off").is_dir())
        .filter(|p| {
            spec == SpecMode::Native || MODES.iter().any(|m| has_lowered(&p.join(m.0), spec))
        })
        .collect();
    cases.sort();
    assert!(
        !cases.is_empty() && (cases.len() >= 5 || root != common::repo().join("testdata/postlink")),
        "postlink cases missing under {}",
        root.display()
    );
    let mut failures = Vec::new();
    let mut differing = 0;
    let mut compared = 0;
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        if images(&case.join("off")).is_empty() {
            // DPC++ rejected even the unsplit image: nothing to split.
            assert!(case.join("off/error.txt").exists(), "{name}: no off images");
            continue;
        }
        for (dpcpp, mode) in MODES {
            if !case.join(dpcpp).is_dir() {
                continue;
            }
            compared += 1;
            let (problems, gap_showed) = compare(case, dpcpp, mode, Inputs::Props, spec);
            let failed_before = failures.len();
            for p in &problems {
                failures.push(format!("{name}/{dpcpp}: {p}"));
            }
            match gap(&name, dpcpp) {
                Some((g, why)) if gap_showed => {
                    eprintln!("{name}/{dpcpp}: known gap {g:?} ({why}); the rest matches")
                }
                Some((g, _)) => failures.push(format!(
                    "{name}/{dpcpp}: listed gap {g:?} no longer shows: take it off GAPS"
                )),
                None if problems.is_empty() => eprintln!("{name}/{dpcpp}: matches DPC++"),
                None => {}
            }
            if failures.len() > failed_before {
                differing += 1;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{differing} of {compared} case/mode pairs differ from DPC++ ({spec:?}):\n{}",
        failures.join("\n")
    );
}

/// The `NonSemantic.AuxData` `llvm-spirv --spirv-preserve-auxdata` would write for a case's
/// device code, as its LLVM IR has it before the post-link step. Derived from the source and the
/// front end's rules, not from DPC++'s post-link output:
///
/// * every function definition: clang's `"no-trapping-math"="true"` and the TU's
///   `"sycl-optlevel"="2"` (the compile's default -O2);
/// * every kernel: `!sycl_kernel_omit_args`, one `false` per captured variable (no capture is
///   unused);
/// * `vfunc`: `indirectly-callable` = the set's type name (`void` for the default set, `SetB`)
///   on the virtual functions; `calls-indirectly` on the kernels that call
///   (`assume_indirect_calls[_to]`), and on `KConstruct`, which creates objects whose vtables
///   hold functions of both sets (`SYCLVirtualFunctionsAnalysis` adds the sets in the order of
///   the functions);
/// * `aspects`: `!sycl_used_aspects` per kernel as `SYCLPropagateAspectsUsage` records it: the
///   aspects of the types the kernel's source uses (double 6, half 5, 64-bit atomic_ref 27)
///   and, for `KDevHas`, its `[[sycl::device_has(fp16, atomic64)]]` (also as
///   `!sycl_declared_aspects`); `KViaHelper`'s double conversion is folded away before the pass
///   sees it (it records no aspect), `KBoth`'s `half` is not; `DevHasProp`'s `device_has`
///   property is only its `"sycl-device-has"` attribute.
fn auxdata_of(case: &str) -> Option<Vec<common::auxdata::Aux>> {
    use common::auxdata::{Aux, Md};
    let mut entries = vec![
        Aux::Attr("*", "no-trapping-math", "true"),
        Aux::Attr("*", "sycl-optlevel", "2"),
    ];
    let omit = |kernel: &'static str, args: usize| {
        Aux::Meta(kernel, "sycl_kernel_omit_args", vec![Md::Bool(false); args])
    };
    let used = |kernel: &'static str, aspects: &[i32]| {
        Aux::Meta(
            kernel,
            "sycl_used_aspects",
            aspects.iter().map(|&a| Md::I32(a)).collect(),
        )
    };
    match case {
        "vfunc" => entries.extend([
            Aux::Attr("_ZNK7Derived3getEv", "indirectly-callable", "_ZTSv"),
            Aux::Attr("_ZNK9OtherBase3valEv", "indirectly-callable", "_ZTS4SetB"),
            Aux::Attr("_ZTS10KConstruct", "calls-indirectly", "_ZTSv,_ZTS4SetB"),
            Aux::Attr("_ZTS5KCall", "calls-indirectly", "_ZTSv"),
            Aux::Attr("_ZTS6KCallB", "calls-indirectly", "_ZTS4SetB"),
            omit("_ZTS10KConstruct", 2),
            omit("_ZTS5KCall", 2),
            omit("_ZTS6KCallB", 2),
        ]),
        "aspects" => entries.extend([
            used("_ZTS7KDouble", &[6]),
            used("_ZTS5KHalf", &[5]),
            used("_ZTS5KBoth", &[6, 5]),
            used("_ZTS9KAtomic64", &[27]),
            used("_ZTS7KDevHas", &[5, 27]),
            Aux::Meta(
                "_ZTS7KDevHas",
                "sycl_declared_aspects",
                vec![Md::I32(5), Md::I32(27)],
            ),
            Aux::Attr("_ZTS10DevHasProp", "sycl-device-has", "5,27"),
            omit("_ZTS7KDouble", 1),
            omit("_ZTS5KHalf", 1),
            omit("_ZTS5KBoth", 2),
            omit("_ZTS9KAtomic64", 1),
            omit("_ZTS10KViaHelper", 1),
            omit("_ZTS5KNone", 1),
            omit("_ZTS7KDevHas", 1),
            omit("_ZTS10DevHasProp", 1),
        ]),
        "vfunc-sets" => entries.extend([
            Aux::Attr("_ZNK7Derived3getEv", "indirectly-callable", "_ZTSv"),
            Aux::Attr("_ZNK8ADerived1aEv", "indirectly-callable", "_ZTS4SetA"),
            Aux::Attr("_ZNK8ADerived1bEv", "indirectly-callable", "_ZTS4SetB"),
            // (The kernel constructing the objects reaches every set through their vtables.)
            Aux::Attr(
                "_ZTS5KMake",
                "calls-indirectly",
                "_ZTSv,_ZTS4SetA,_ZTS4SetB",
            ),
            Aux::Attr("_ZTS5KDef1", "calls-indirectly", "_ZTSv"),
            Aux::Attr("_ZTS5KDef2", "calls-indirectly", "_ZTSv"),
            Aux::Attr("_ZTS2KA", "calls-indirectly", "_ZTS4SetA"),
            Aux::Attr("_ZTS3KAB", "calls-indirectly", "_ZTS4SetA,_ZTS4SetB"),
            omit("_ZTS5KMake", 2),
            omit("_ZTS5KDef1", 2),
            omit("_ZTS5KDef2", 2),
            omit("_ZTS2KA", 2),
            omit("_ZTS3KAB", 2),
            omit("_ZTS5KNone", 1),
        ]),
        "vfunc-dyn" => entries.extend([
            Aux::Attr("_ZNK7Derived3getEv", "indirectly-callable", "_ZTSv"),
            Aux::Attr("_ZTS5KMake", "calls-indirectly", "_ZTSv"),
            Aux::Attr("_ZTS5KCall", "calls-indirectly", "_ZTSv"),
            omit("_ZTS5KMake", 1),
            omit("_ZTS5KCall", 2),
            omit("_ZTS4KExt", 1),
        ]),
        "khhelper" => entries.extend([
            used("_ZTS8KSpecDbl", &[6]),
            used("_ZTS5KDbl1", &[6]),
            used("_ZTS5KDbl2", &[6]),
            used("_ZTS11KHalfHelper", &[5]),
            used("_ZTS11KDevHasFp64", &[6]),
            Aux::Meta(
                "_ZTS11KDevHasFp64",
                "sycl_declared_aspects",
                vec![Md::I32(6)],
            ),
            // (The kernel_handler's spec-constant buffer: the second argument, eliminated.)
            Aux::Meta(
                "_ZTS8KSpecDbl",
                "sycl_kernel_omit_args",
                vec![Md::Bool(false), Md::Bool(true)],
            ),
            Aux::Meta(
                "_ZTS11KSpecHelper",
                "sycl_kernel_omit_args",
                vec![Md::Bool(false), Md::Bool(true)],
            ),
            omit("_ZTS11KDevHasFp64", 1),
            omit("_ZTS11KHalfHelper", 1),
            omit("_ZTS5KDbl1", 1),
            omit("_ZTS5KDbl2", 1),
        ]),
        "dynchain" => entries.extend([
            used("_ZTS2KD", &[6]),
            used("_Z5ext_dd", &[6]),
            omit("_ZTS2KA", 1),
            omit("_ZTS2KB", 1),
            omit("_ZTS2KD", 1),
            omit("_ZTS6KLocal", 1),
            omit("_ZL12local_helperi", 1),
        ]),
        "nonuniform" => entries.extend([
            used("_ZTS7KBallot", &[50]),
            used("_ZTS6KFixed", &[51]),
            used("_ZTS7KTangle", &[52]),
            used("_ZTS4KOpp", &[50]),
            omit("_ZTS7KBallot", 1),
            omit("_ZTS6KFixed", 1),
            omit("_ZTS7KTangle", 1),
            omit("_ZTS4KOpp", 1),
            omit("_ZTS8KSgPlain", 1),
        ]),
        "jmatrix" => entries.extend([
            Aux::Meta(
                "_ZTS4KMad",
                "sycl_joint_matrix",
                vec![Md::Str("matrix_type::bf16,use::a,8,16;matrix_type::bf16,use::b,16,16;matrix_type::fp32,use::accumulator,8,16")],
            ),
            Aux::Meta(
                "_ZTS4KMad",
                "sycl_joint_matrix_mad",
                vec![Md::Str("matrix_type::bf16,matrix_type::bf16,matrix_type::fp32,matrix_type::fp32,8,16,16")],
            ),
            Aux::Meta(
                "_ZTS5KFill",
                "sycl_joint_matrix",
                vec![Md::Str("matrix_type::fp32,use::accumulator,8,16")],
            ),
            omit("_ZTS4KMad", 3),
            omit("_ZTS5KFill", 1),
            omit("_ZTS7KPlainX", 1),
        ]),
        "kpropcombo" => entries.extend([
            used("_ZTS8PropsAll", &[]),
            used("_ZTS8KAttrAll", &[5, 27]),
            Aux::Meta(
                "_ZTS8KAttrAll",
                "sycl_declared_aspects",
                vec![Md::I32(5), Md::I32(27)],
            ),
            used("_ZTS12PropsHintDbl", &[6]),
            used("_ZTS12KAttrHintDbl", &[6]),
            used("_ZTS15PropsLinearAtom", &[27]),
            Aux::Meta("_ZTS8PropsAll", "work_group_num_dim", vec![Md::I32(2)]),
            Aux::Meta("_ZTS8KAttrAll", "work_group_num_dim", vec![Md::I32(2)]),
            Aux::Meta("_ZTS12PropsHintDbl", "work_group_num_dim", vec![Md::I32(1)]),
            Aux::Meta(
                "_ZTS15PropsLinearAtom",
                "max_linear_work_group_size",
                vec![Md::I32(64)],
            ),
            omit("_ZTS8PropsAll", 1),
            omit("_ZTS8KAttrAll", 1),
            omit("_ZTS12PropsHintDbl", 1),
            omit("_ZTS12KAttrHintDbl", 1),
            omit("_ZTS15PropsLinearAtom", 1),
            omit("_ZTS6KPlain", 1),
        ]),
        "fnattrs" | "extattrs" => {
            entries.extend([
                used("_ZTS12KCallsDevHas", &[5]),
                omit("_ZTS8KCallsWg", 1),
                omit("_ZTS7KSgSame", 1),
                omit("_ZTS8KSgPlain", 1),
                omit("_ZTS10KCallsHint", 1),
                omit("_ZTS12KCallsDevHas", 1),
                omit("_ZTS6KPlain", 1),
            ]);
            // (SYCL_EXTERNAL helpers keep their attributes' metadata; static ones do not.)
            if case == "extattrs" {
                entries.extend([
                    Aux::Meta(
                        "_Z6ext_wgi",
                        "reqd_work_group_size",
                        vec![Md::I32(8), Md::I32(1), Md::I32(1)],
                    ),
                    Aux::Meta("_Z6ext_wgi", "work_group_num_dim", vec![Md::I32(1)]),
                    Aux::Meta("_Z6ext_sgi", "intel_reqd_sub_group_size", vec![Md::I32(16)]),
                ]);
            }
        }
        _ => return None,
    }
    Some(entries)
}

/// The cases of [`GAPS`] but those of spec-constant numbering and entry-point order, `dynchain`
/// (a helper with an argument mask) and `vfunc-dyn`, their `off` images carrying the `NonSemantic.AuxData` the
/// front end would have kept ([`auxdata_of`]): spec-link's split equals DPC++'s in every mode, gaps included,
/// with the property files as `--input-prop` and without them; no image keeps the AuxData.
#[test]
fn split_with_auxdata_equals_dpcpp() {
    let root = common::repo().join("testdata/postlink");
    // (Not the spec-constant numbering nor the entry points' order: AuxData carries neither
    // use-list order nor the LLVM module's function order.)
    let mut cases: Vec<&str> = GAPS
        .iter()
        .filter(|g| !matches!(g.2, Gap::SpecNumbering | Gap::SymbolOrder))
        .map(|g| g.0)
        .collect();
    cases.dedup();
    // (And a case whose masks include a function that is not a kernel, and one whose kernels
    // use the virtual functions of another module, which its property file alone gives too.)
    cases.extend(["dynchain", "vfunc-dyn"]);
    let mut failures = Vec::new();
    let mut compared = 0;
    for name in cases {
        let case = root.join(name);
        for (dpcpp, mode) in MODES {
            if !case.join(dpcpp).is_dir() {
                continue;
            }
            for inputs in [Inputs::AuxDataAndProps, Inputs::AuxDataOnly] {
                compared += 1;
                let (problems, _) = compare(&case, dpcpp, mode, inputs, SpecMode::Native);
                if problems.is_empty() {
                    eprintln!("{name}/{dpcpp} ({inputs:?}): matches DPC++");
                }
                for p in problems {
                    failures.push(format!("{name}/{dpcpp} ({inputs:?}): {p}"));
                }
            }
        }
    }
    assert!(compared >= 16, "only {compared} case/mode pairs compared");
    assert!(
        failures.is_empty(),
        "{} of {compared} case/mode pairs differ from DPC++:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Without `--input-prop` or AuxData, `optLevel`, `idQueriesRange`, `[SYCL/implicit local arg]`
/// and `[SYCL/work group dynamic local mem]` come from the SPIR-V.
/// `optLevel`: 0 where a kernel of the module is `OptNone` (the front end's `-O0`; `esimd-o0`'s
/// ESIMD kernel is not, its SYCL kernel is) or the module has debug information (`-g`;
/// `esimd-only-g` has no `OptNone` kernel), else 2. `idQueriesRange`: 1 where the module assumes
/// id queries below 2^32 (`flag-idrange-uint`), else none — also where DPC++ wrote 2
/// (`flag-idrange`: `size_t`, which leaves no trace) or 1 for a module whose assumptions the
/// optimiser dropped (counted, not failed). The local-memory sets: from the parameter each kernel
/// stores into `__sycl_dynamicLocalMemoryPlaceholder_GV` and who reads it, and −1 for kernels
/// reaching a `WGLocalMem` variable (`scratch`, `scratch2`). Every `off` image of the reference cases
/// (`$SPEC_LINK_POSTLINK_CASES` too), split `off` from the images alone, has DPC++'s values —
/// or, for an image without entry points, no `optLevel`, as DPC++'s has none.
#[test]
fn properties_from_the_spirv_alone_are_dpcpps() {
    let root = std::env::var_os("SPEC_LINK_POSTLINK_CASES")
        .map_or_else(|| common::repo().join("testdata/postlink"), PathBuf::from);
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("off").is_dir() && !images(&p.join("off")).is_empty())
        .collect();
    cases.sort();
    let misc = |sets: &[PropertySet], property: &str| {
        sets.iter()
            .filter(|s| s.name == "SYCL/misc properties")
            .flat_map(|s| &s.properties)
            .find(|(name, _)| name == property)
            .map(|(_, v)| v.clone())
    };
    let (mut failures, mut seen, mut untold) = (Vec::new(), BTreeMap::new(), Vec::new());
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let out = common::Scratch::new(&format!(
            "spec-link-spirv-alone-{name}-{}",
            std::process::id()
        ));
        let (code, stderr, rows) =
            run_split(case, "off", &out, Inputs::SpirvOnly, SpecMode::Native);
        if code != 0 {
            failures.push(format!("{name}: exit {code}\n{stderr}"));
            continue;
        }
        // The note says where the level comes from (tests/auxdata.rs: not when AuxData has it).
        assert!(stderr.contains("optLevel is 0 where"), "{name}: {stderr}");
        let theirs = images(&case.join("off"));
        assert_eq!(rows.len(), theirs.len(), "{name}: image count");
        for (k, (row, image)) in rows.iter().zip(&theirs).enumerate() {
            let ours = read_prop(&out.join("split").join(&row[1]));
            let dpcpp = read_prop(&image.with_extension("prop"));
            for set in [
                "SYCL/implicit local arg",
                "SYCL/work group dynamic local mem",
            ] {
                let of = |sets: &[PropertySet]| {
                    sets.iter()
                        .find(|s| s.name == set)
                        .map(|s| s.properties.clone())
                };
                let (ours, dpcpp) = (of(&ours), of(&dpcpp));
                if let Some(properties) = &dpcpp {
                    *seen.entry(set.to_string()).or_insert(0) += properties.len();
                }
                if ours != dpcpp {
                    failures.push(format!(
                        "{name} image {k}: [{set}] {ours:?}, DPC++ {dpcpp:?}"
                    ));
                }
            }
            for property in ["optLevel", "idQueriesRange"] {
                let (ours, dpcpp) = (misc(&ours, property), misc(&dpcpp, property));
                *seen.entry(format!("{property} {dpcpp:?}")).or_insert(0) += 1;
                if ours == dpcpp {
                    continue;
                }
                if property == "idQueriesRange" && ours.is_none() {
                    untold.push(format!("{name} image {k}: DPC++ {dpcpp:?}"));
                } else {
                    failures.push(format!(
                        "{name} image {k}: {property} {ours:?}, DPC++ {dpcpp:?}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("idQueriesRange not shown by the SPIR-V: {untold:?}");
    // Both levels and a `uint` range were met.
    if root == common::repo().join("testdata/postlink") {
        for met in [
            "optLevel Some(Uint32(0))",
            "optLevel Some(Uint32(2))",
            "idQueriesRange Some(Uint32(1))",
            "SYCL/implicit local arg",
            "SYCL/work group dynamic local mem",
        ] {
            assert!(seen.contains_key(met), "{met} not met: {seen:?}");
        }
        assert!(
            untold.iter().all(|u| u.starts_with("flag-idrange ")),
            "{untold:?}"
        );
    }
}

/// The `.prop` reader is the writer's inverse on every property file in `testdata/` (DPC++'s and
/// spec-link's): `write(read(x)) == x`.
#[test]
fn every_prop_file_round_trips() {
    let pattern = common::repo().join("testdata/**/*.prop");
    let mut n = 0;
    for path in glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
    {
        let bytes = std::fs::read(&path).unwrap();
        let sets = text::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            text::write(&sets) == bytes,
            "{}: read then written differs",
            path.display()
        );
        n += 1;
    }
    assert!(n >= 200, "only {n} .prop files found");
}
