//! `NonSemantic.AuxData` in `--split` inputs, on a clang-15 + llvm-spirv-15 module with AuxData
//! written by hand as `llvm-spirv --spirv-preserve-auxdata` writes it
//! (`testdata/auxdata-clang/input.spvasm`; the DPC++ cases are in `tests/postlink.rs`):
//!
//! * the properties come from it: `Plain`'s `device_has`-like aspects (5, 27) that its code does
//!   not show, its `sycl_kernel_omit_args` mask (original argument 0 eliminated), both kernels'
//!   `sycl-optlevel` 1; the attributes sit on the exported kernel bodies (the translator's
//!   entry-point wrappers have none) and are found from the kernels;
//! * per-source grouping follows the kernels' `sycl_used_aspects`;
//! * the notes name only what AuxData cannot give;
//! * no image keeps the AuxData, and every image passes spirv-val;
//! * two inputs with AuxData linked (ids renumbered) still get their properties;
//! * entries that do not decode are ignored with a warning each, the others still used; an
//!   entry naming an id nothing defines makes the module malformed: error, exit 1, no file.

mod common;

use common::auxdata::{Aux, RawOp};
use spec_link::properties::{text, PropertySet, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn input() -> Vec<u8> {
    common::assemble(&common::repo().join("testdata/auxdata-clang/input.spvasm"))
}

/// An image: its module, property sets and symbols.
type Image = (Vec<u8>, Vec<PropertySet>, String);

/// Splits `module` in `mode` (no --input-prop); returns the run and its images.
fn split(dir: &Path, module: &[u8], mode: &str) -> (Output, Vec<Image>) {
    let input = dir.join(format!("input-{mode}.spv"));
    std::fs::write(&input, module).unwrap();
    let out_dir = dir.join(mode);
    std::fs::create_dir_all(&out_dir).unwrap();
    let table = out_dir.join("out.table");
    let out = Command::new(env!("CARGO_BIN_EXE_spec-link"))
        .arg(&input)
        .args(["--split", mode, "-o"])
        .arg(&table)
        .args(["--validate", "-v"])
        .output()
        .unwrap();
    if !out.status.success() {
        return (out, Vec::new());
    }
    let rows = std::fs::read_to_string(&table).unwrap();
    let images = rows
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<PathBuf> = l.split('|').map(|c| out_dir.join(c)).collect();
            let spv = std::fs::read(&cells[0]).unwrap();
            let sets = text::read(&std::fs::read(&cells[1]).unwrap()).unwrap();
            (spv, sets, std::fs::read_to_string(&cells[2]).unwrap())
        })
        .collect();
    (out, images)
}

fn property<'a>(sets: &'a [PropertySet], set: &str, name: &str) -> Option<&'a Value> {
    sets.iter()
        .find(|s| s.name == set)?
        .properties
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
}

fn aspects(sets: &[PropertySet]) -> Vec<u32> {
    match property(sets, "SYCL/device requirements", "aspects") {
        Some(Value::Bytes { data, .. }) => data
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        other => panic!("aspects: {other:?}"),
    }
}

/// Every image passes spirv-val and keeps no AuxData.
fn check_images(images: &[Image]) {
    for (spv, _, sym) in images {
        common::spirv_val(spv, "opencl2.2", sym.trim());
        let text = common::disassemble(spv);
        assert!(!text.contains("AuxData"), "{sym}: AuxData kept:\n{text}");
        assert!(
            !text.contains("sycl_used_aspects"),
            "{sym}: AuxData strings kept"
        );
    }
}

#[test]
fn properties_come_from_auxdata() {
    let dir = common::Scratch::new(&format!("spec-link-auxdata-{}", std::process::id()));
    let (out, images) = split(&dir, &input(), "per-kernel");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(images.len(), 2, "{stderr}");
    check_images(&images);
    let by_kernel = |k: &str| {
        &images
            .iter()
            .find(|(_, _, sym)| sym.trim() == k)
            .unwrap_or_else(|| panic!("no image for {k}"))
            .1
    };
    let (scale, plain) = (by_kernel("Scale"), by_kernel("Plain"));
    assert_eq!(aspects(scale), [6]);
    assert_eq!(aspects(plain), [5, 27]);
    for sets in [scale, plain] {
        assert_eq!(
            property(sets, "SYCL/misc properties", "optLevel"),
            Some(&Value::Uint32(1))
        );
    }
    assert_eq!(
        property(plain, "SYCL/kernel param opt", "Plain"),
        Some(&Value::Bytes {
            bits: 2,
            data: vec![0b01]
        })
    );
    assert_eq!(property(scale, "SYCL/kernel param opt", "Scale"), None);
    // (Nothing the images need is left out: the local-memory sets come from the SPIR-V.)
    assert!(!stderr.contains("left out"), "{stderr}");
    assert!(!stderr.contains("optLevel is 0 where"), "{stderr}");
    assert!(!stderr.contains("kernel param opt]"), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
}

#[test]
fn per_source_groups_by_the_kernels_used_aspects() {
    let dir = common::Scratch::new(&format!("spec-link-auxdata-ps-{}", std::process::id()));
    let (out, images) = split(&dir, &input(), "per-source");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_images(&images);
    // Categories end in the aspects "-6" and "-5-27": descending order puts Scale first.
    let symbols: Vec<&str> = images.iter().map(|(_, _, s)| s.trim()).collect();
    assert_eq!(symbols, ["Scale", "Plain"]);
}

#[test]
fn entries_that_do_not_decode_are_ignored_with_a_warning() {
    let dir = common::Scratch::new(&format!("spec-link-auxdata-bad-{}", std::process::id()));
    let words = common::words(&input());
    let bad = common::auxdata::add(
        &words,
        &[
            Aux::Raw(1, vec![RawOp::Void, RawOp::Str("a")]),
            Aux::Raw(1, vec![RawOp::Function]),
            Aux::Raw(0, vec![RawOp::Function, RawOp::I32(3)]),
            Aux::Raw(1, vec![RawOp::Function, RawOp::Str("a"), RawOp::I32(3)]),
        ],
    );
    let (out, images) = split(&dir, &common::bytes(&bad), "per-kernel");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for why in [
        "its target is not a function",
        "fewer than two operands",
        "its name is not an OpString",
        "the attribute value is not an OpString",
    ] {
        assert!(
            stderr.contains("warning: NonSemantic.AuxData instruction") && stderr.contains(why),
            "no warning for {why}:\n{stderr}"
        );
    }
    check_images(&images);
    let plain = &images
        .iter()
        .find(|(_, _, s)| s.trim() == "Plain")
        .unwrap()
        .1;
    assert_eq!(aspects(plain), [5, 27]);
}

#[test]
fn an_undefined_operand_is_a_malformed_module() {
    let dir = common::Scratch::new(&format!("spec-link-auxdata-undef-{}", std::process::id()));
    let words = common::words(&input());
    let bad = common::auxdata::add(
        &words,
        &[Aux::Raw(
            0,
            vec![RawOp::Function, RawOp::Str("a"), RawOp::Undefined],
        )],
    );
    let (out, images) = split(&dir, &common::bytes(&bad), "per-kernel");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: ") && stderr.contains("is never defined"),
        "{stderr}"
    );
    assert!(images.is_empty());
    let left: Vec<_> = std::fs::read_dir(dir.join("per-kernel")).unwrap().collect();
    assert!(left.is_empty(), "files left: {left:?}");
}

/// Two inputs with AuxData, linked then split per source: each input's entries still reach its
/// functions (the linker renumbers ids).
#[test]
fn linked_inputs_keep_their_auxdata() {
    let dir = common::Scratch::new(&format!("spec-link-auxdata-link-{}", std::process::id()));
    let vfunc = common::repo().join("testdata/postlink/vfunc/off/image0.spv");
    let vfunc = common::auxdata::add(
        &common::words(&std::fs::read(vfunc).unwrap()),
        &[
            Aux::Attr("_ZNK7Derived3getEv", "indirectly-callable", "_ZTSv"),
            Aux::Attr("_ZNK9OtherBase3valEv", "indirectly-callable", "_ZTS4SetB"),
            Aux::Attr("_ZTS5KCall", "calls-indirectly", "_ZTSv"),
            Aux::Attr("_ZTS6KCallB", "calls-indirectly", "_ZTS4SetB"),
            Aux::Attr("_ZTS10KConstruct", "calls-indirectly", "_ZTSv,_ZTS4SetB"),
        ],
    );
    let first = dir.join("clang.spv");
    let second = dir.join("vfunc.spv");
    std::fs::write(&first, input()).unwrap();
    std::fs::write(&second, common::bytes(&vfunc)).unwrap();
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_spec-link"))
        .args([&first, &second])
        .args(["--split", "per-kernel", "-o"])
        .arg(out_dir.join("out.table"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let rows = std::fs::read_to_string(out_dir.join("out.table")).unwrap();
    let mut seen = 0;
    for row in rows.lines().skip(1) {
        let cells: Vec<PathBuf> = row.split('|').map(|c| out_dir.join(c)).collect();
        let sym = std::fs::read_to_string(&cells[2]).unwrap();
        let sets = text::read(&std::fs::read(&cells[1]).unwrap()).unwrap();
        let vf = |name| property(&sets, "SYCL/virtual functions", name).cloned();
        let bytes = |s: &str| {
            Some(Value::Bytes {
                bits: s.len() as u64 * 8,
                data: s.as_bytes().to_vec(),
            })
        };
        match sym.trim() {
            "Plain" => assert_eq!(aspects(&sets), [5, 27]),
            "Scale" => assert_eq!(aspects(&sets), [6]),
            "_ZTS5KCall" => assert_eq!(vf("uses-virtual-functions-set"), bytes("_ZTSv")),
            "_ZTS6KCallB" => assert_eq!(vf("uses-virtual-functions-set"), bytes("_ZTS4SetB")),
            "_ZNK9OtherBase3valEv" => {
                assert_eq!(vf("virtual-functions-set"), bytes("_ZTS4SetB"))
            }
            _ => continue,
        }
        seen += 1;
    }
    assert_eq!(seen, 5, "{rows}");
}

/// The device requirements only metadata gives: `sycl_fixed_targets` (Scale: 27 and 5; Plain:
/// an empty list) and `sycl_joint_matrix(_mad)` (Scale's strings; Plain's empty, which does not
/// count) come out as DPC++'s `computeDeviceRequirements` writes them: `fixed_target` the sorted
/// union, only when not empty; `joint_matrix(_mad)` the last non-empty string; keys in name order.
#[test]
fn fixed_targets_and_joint_matrix_come_from_auxdata() {
    let dir = common::Scratch::new(&format!("spec-link-auxdata-jm-{}", std::process::id()));
    let source =
        std::fs::read_to_string(common::repo().join("testdata/auxdata-clang/input.spvasm"))
            .unwrap();
    let strings = "%106 = OpString \"nounwind\"\n";
    let entries = "%127 = OpExtInst %2 %100 0 %19 %105 %111 %112\n";
    assert!(source.contains(strings) && source.contains(entries));
    let source = source
        .replace(
            strings,
            &format!(
                "{strings}%130 = OpString \"sycl_fixed_targets\"\n\
                 %131 = OpString \"sycl_joint_matrix\"\n\
                 %132 = OpString \"matrix_type::fp16,use::a,8,16\"\n\
                 %133 = OpString \"sycl_joint_matrix_mad\"\n\
                 %134 = OpString \"matrix_type::fp32,8,16,16\"\n\
                 %135 = OpString \"\"\n"
            ),
        )
        .replace(
            entries,
            &format!(
                "{entries}%140 = OpExtInst %2 %100 0 %7 %130 %115 %113\n\
                 %141 = OpExtInst %2 %100 0 %7 %131 %132\n\
                 %142 = OpExtInst %2 %100 0 %7 %133 %134\n\
                 %143 = OpExtInst %2 %100 0 %19 %130\n\
                 %144 = OpExtInst %2 %100 0 %19 %131 %135\n"
            ),
        );
    let asm = dir.join("input.spvasm");
    std::fs::write(&asm, source).unwrap();
    let module = common::assemble(&asm);
    let bytes = |b: &[u8]| Value::Bytes {
        bits: b.len() as u64 * 8,
        data: b.to_vec(),
    };
    let joint = bytes(b"matrix_type::fp16,use::a,8,16");
    let joint_mad = bytes(b"matrix_type::fp32,8,16,16");
    let targets: Vec<u8> = [5u32, 27].iter().flat_map(|v| v.to_le_bytes()).collect();
    let requirements = |sets: &[PropertySet]| -> Vec<(String, Value)> {
        sets.iter()
            .find(|s| s.name == "SYCL/device requirements")
            .map(|s| s.properties.clone())
            .unwrap_or_default()
    };
    for mode in ["per-kernel", "off"] {
        let (out, images) = split(&dir, &module, mode);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{mode}: {stderr}");
        check_images(&images);
        for (_, sets, sym) in &images {
            let found = requirements(sets);
            let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
            let holds_scale = sym.lines().any(|l| l == "Scale");
            let want: Vec<&str> = if holds_scale {
                vec![
                    "aspects",
                    "fixed_target",
                    "joint_matrix",
                    "joint_matrix_mad",
                ]
            } else {
                vec!["aspects"]
            };
            assert_eq!(names, want, "{mode} {sym}");
            if holds_scale {
                assert_eq!(found[1].1, bytes(&targets), "{mode}");
                assert_eq!(found[2].1, joint, "{mode}");
                assert_eq!(found[3].1, joint_mad, "{mode}");
            }
        }
    }
}
