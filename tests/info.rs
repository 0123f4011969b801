//! `spec-link info`: it describes every module of the test data; on real DPC++ images its
//! names, SpecIds, sizes and defaults are what DPC++'s `.prop` says (decoded here, independently),
//! and for modules with marker calls its preview is what lowering writes.

mod common;

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spec-link"))
}

/// `spec-link info --json ARGS…`, which must succeed: its JSON.
fn info_json(args: &[&Path]) -> Json {
    let o = bin().arg("info").arg("--json").args(args).output().unwrap();
    assert!(
        o.status.success(),
        "info {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

fn all_modules() -> Vec<PathBuf> {
    let pattern = common::repo().join("testdata/**/*.spv");
    let v: Vec<PathBuf> = glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        v.len() > 200,
        "found only {} modules under testdata",
        v.len()
    );
    v
}

/// Every module of the test data is described (exit 0, format spec-link-info/1); one that info
/// could not index is one that lowering refuses as well when it indexes it.
#[test]
fn info_describes_every_test_module() {
    let modules = all_modules();
    let mut not_indexed = 0;
    for chunk in modules.chunks(40) {
        let refs: Vec<&Path> = chunk.iter().map(PathBuf::as_path).collect();
        let doc = info_json(&refs);
        // (An array for several inputs, the one object for one: the last chunk may hold one.)
        let infos = match doc.as_array() {
            Some(all) => all.clone(),
            None => vec![doc],
        };
        assert_eq!(infos.len(), chunk.len());
        for (info, path) in infos.iter().zip(chunk) {
            assert_eq!(info["format"], "spec-link-info/1", "{}", path.display());
            assert_eq!(info["file"], path.to_str().unwrap());
            assert!(info["module"]["instruction_count"].as_u64().unwrap() > 0);
            if info.get("error").is_some() {
                not_indexed += 1;
                let o = bin()
                    .arg(path)
                    .args(["-o", "/dev/null", "--no-validate", "--no-pass-through"])
                    .output()
                    .unwrap();
                assert_eq!(
                    o.status.code(),
                    Some(1),
                    "{}: info could not index it ({}), lowering did",
                    path.display(),
                    info["error"]
                );
            }
        }
    }
    // (DPC++'s bitfields and oddtypes2 images define an id twice; six fuzzing regression inputs
    // use ids at or above their id bound.)
    assert!(not_indexed <= 10, "{not_indexed} modules not indexed");
}

/// A descriptor list of the JSON as `(spec_id, offset, size)`.
fn triples(v: &Json) -> Vec<(u64, u64, u64)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["spec_id"].as_u64().unwrap(),
                d["offset"].as_u64().unwrap(),
                d["size"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Runs lowering on `input` with `order` and returns its JSON sidecar.
fn lowering_sidecar(input: &Path, order: &str, dir: &Path) -> Json {
    let json = dir.join(format!("{order}.json"));
    let o = bin()
        .arg(input)
        .args([
            "-o",
            "/dev/null",
            "--no-validate",
            "--spec-id-order",
            order,
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap()
}

/// For each DPC++ input module (marker calls), info's preview equals what lowering writes in
/// both SpecId orders, and means what DPC++'s own `.prop` means.
#[test]
fn info_previews_what_lowering_writes() {
    let dir = common::Scratch::new(&format!("spec-link-info-preview-{}", std::process::id()));
    let mut compared = 0;
    for input in common::dpcpp_images() {
        let info = info_json(&[&input]);
        let lowering = &info["lowering"];
        assert!(
            lowering.get("error").is_none(),
            "{}: {}",
            input.display(),
            lowering["error"]
        );
        let first = lowering_sidecar(&input, "first-use", &dir);
        let dpcpp = lowering_sidecar(&input, "dpcpp", &dir);
        let constants = lowering["constants"].as_array().unwrap();
        let written = first["spec_constants"].as_array().unwrap();
        assert_eq!(constants.len(), written.len(), "{}", input.display());
        for (c, w) in constants.iter().zip(written) {
            let what = format!("{}: {}", input.display(), w["symbolic_id"]);
            assert_eq!(c["symbolic_id"], w["symbolic_id"], "{what}");
            assert_eq!(c["type"], w["type"], "{what}");
            assert_eq!(c["size"], w["size"], "{what}");
            assert_eq!(c["default_hex"], w["default"], "{what}");
            assert_eq!(c["spec_ids_first_use"], w["spec_ids"], "{what}");
            assert_eq!(
                triples(&c["descriptors_first_use"]),
                triples(&w["descriptors"]),
                "{what}"
            );
            let d = dpcpp["spec_constants"]
                .as_array()
                .unwrap()
                .iter()
                .find(|d| d["symbolic_id"] == w["symbolic_id"])
                .unwrap();
            assert_eq!(c["spec_ids_dpcpp"], d["spec_ids"], "{what}");
            assert_eq!(
                triples(&c["descriptors_dpcpp"]),
                triples(&d["descriptors"]),
                "{what}"
            );
            compared += 1;
        }
        let order: Vec<&Json> = dpcpp["spec_constants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| &d["symbolic_id"])
            .collect();
        let preview_order: Vec<&Json> =
            lowering["order_dpcpp"].as_array().unwrap().iter().collect();
        assert_eq!(preview_order, order, "{}", input.display());
        assert_eq!(lowering["default_blob_first_use"], first["default_values"]);
        assert_eq!(lowering["default_blob_dpcpp"], dpcpp["default_values"]);

        // What DPC++'s .prop means: each constant's data descriptors (offset, size) and the
        // default bytes they cover.
        let prop = std::fs::read_to_string(common::beside(&input, ".dpcpp-native.prop")).unwrap();
        let meaning = common::spec_constant_meaning(&prop);
        assert_eq!(meaning.len(), constants.len(), "{}", input.display());
        for c in constants {
            let name = c["symbolic_id"].as_str().unwrap();
            let m = &meaning[name];
            let data: Vec<(u32, u32)> = triples(&c["descriptors_dpcpp"])
                .into_iter()
                .filter(|t| t.0 != u32::MAX as u64)
                .map(|t| (t.1 as u32, t.2 as u32))
                .collect();
            assert_eq!(data, m.descriptors, "{}: {name}", input.display());
            let default = common_hex(c["default_hex"].as_str().unwrap());
            let covered: Vec<u8> = data
                .iter()
                .flat_map(|&(o, s)| default[o as usize..(o + s) as usize].to_vec())
                .collect();
            assert_eq!(covered, m.default, "{}: {name} default", input.display());
        }
    }
    assert!(compared >= 100, "only {compared} constants compared");
}

fn common_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(&s[k..k + 2], 16).unwrap())
        .collect()
}

/// The leaves of a constant's tree that carry SpecIds, depth first: `(offset, size, default)`.
fn leaves(node: &Json, out: &mut Vec<(u64, u64, Vec<u8>)>) {
    match node.get("members").and_then(Json::as_array) {
        Some(members) => members.iter().for_each(|m| leaves(m, out)),
        None if node.get("spec_id").is_some() => out.push((
            node["offset"].as_u64().unwrap(),
            node["size"].as_u64().unwrap(),
            common_hex(node["default_hex"].as_str().unwrap()),
        )),
        None => {}
    }
}

/// On every DPC++ native image, with DPC++'s `.prop`, each name's constant as info reads it from
/// the module — leaves' offsets and sizes (by the layout of the composite's type), their default
/// literals — is what the `.prop` says (its descriptors and default blob, decoded here).
#[test]
fn info_names_dpcpp_images_as_their_prop_says() {
    let (mut compared, mut not_indexed) = (0, 0);
    for input in common::dpcpp_images() {
        let native = common::beside(&input, ".dpcpp-native.spv");
        let prop_path = common::beside(&input, ".dpcpp-native.prop");
        let info = info_json(&[&native, Path::new("--input-prop"), &prop_path]);
        if info.get("error").is_some() {
            not_indexed += 1;
            continue;
        }
        let meaning = common::spec_constant_meaning(&std::fs::read_to_string(&prop_path).unwrap());
        let named = info["named_constants"].as_array().unwrap();
        assert_eq!(named.len(), meaning.len(), "{}", native.display());
        for c in named {
            let name = c["name"].as_str().unwrap();
            let what = format!("{}: {name}", native.display());
            let m = &meaning[name];
            let undefined = c["undefined_spec_ids"].as_array().map_or(0, Vec::len);
            if undefined == m.descriptors.len() {
                // Nothing of it in the module: no tree, no default to compare.
                assert!(
                    c.get("tree").is_none() && c.get("default_hex").is_none(),
                    "{what}"
                );
                continue;
            }
            let mut got = Vec::new();
            leaves(&c["tree"], &mut got);
            // (DPC++ describes an empty class's first byte with a SpecId its image does not
            // define: that descriptor has no leaf.)
            let described: Vec<(u32, u32)> =
                m.descriptors.iter().copied().skip(undefined).collect();
            let offsets: Vec<(u32, u32)> = got.iter().map(|l| (l.0 as u32, l.1 as u32)).collect();
            assert_eq!(offsets, described, "{what}: leaves");
            let mut expected_default = m.default.clone();
            expected_default.drain(
                ..m.descriptors
                    .iter()
                    .take(undefined)
                    .map(|d| d.1 as usize)
                    .sum::<usize>(),
            );
            let default: Vec<u8> = got.iter().flat_map(|l| l.2.clone()).collect();
            assert_eq!(default, expected_default, "{what}: default");
            assert_eq!(
                c["default_hex"], c["blob_default_hex"],
                "{what}: whole default"
            );
            compared += 1;
        }
    }
    assert!(not_indexed <= 4, "{not_indexed} images not indexed");
    assert!(compared >= 100, "only {compared} constants compared");
}

/// The terminal table, checked by golden files (`UPDATE_GOLDEN=1` rewrites them): DPC++'s
/// native image of the `types` fixture named by its `.prop`, and the `basic` fixture's module
/// with marker calls.
#[test]
fn info_table_matches_golden() {
    let fixtures = "testdata/dpcpp-fixtures";
    for (args, golden) in [
        (
            vec![
                format!("{fixtures}/types/image0.dpcpp-native.spv"),
                "--input-prop".to_string(),
                format!("{fixtures}/types/image0.dpcpp-native.prop"),
            ],
            "types.dpcpp-native.txt",
        ),
        (
            vec![format!("{fixtures}/basic/image0.input.spv")],
            "basic.input.txt",
        ),
    ] {
        let o = bin()
            .arg("info")
            .args(&args)
            .current_dir(common::repo())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let path = common::repo().join("testdata/info").join(golden);
        if let Some(diff) = common::golden(&path, &String::from_utf8(o.stdout).unwrap()) {
            panic!("{diff}");
        }
    }
}

/// A `.prop` descriptor is 12 bytes whatever span it claims: one whose offset and size are near
/// 2^32 (the name's value would span 8 GiB) makes `info` mark the name as not this module's
/// (exit 0) and `specialize` refuse it (exit 1, nothing written), both within 1 GiB of address
/// space (`ulimit -v`): nothing is allocated by the span the file claims.
#[test]
fn a_descriptor_spanning_gigabytes_allocates_nothing_by_it() {
    let image = common::repo().join("testdata/postlink/manykernels/per_kernel/image0.native.spv");
    let scratch = common::Scratch::new("info-descriptor-span");
    let prop = scratch.join("huge.prop");
    // One descriptor {SpecId 0, offset 0xfffffff0, size 0xfffffff0} (LLVM Base64 of the bit count
    // 96 and the 12 bytes).
    std::fs::write(
        &prop,
        "[SYCL/specialization constants]\nuid0123456789abcdef____ZL2kS=2|gBAAAAAAAAAAAAAAw////D////P\n",
    )
    .unwrap();
    let out = scratch.join("out.spv");
    let limited = |args: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v 1048576; exec \"$0\" {args}",))
            .arg(env!("CARGO_BIN_EXE_spec-link"))
            .arg(&image)
            .arg(&prop)
            .arg(&out)
            .output()
            .unwrap()
    };
    let info = limited("info \"$1\" --input-prop \"$2\"");
    let stderr = String::from_utf8_lossy(&info.stderr);
    assert_eq!(info.status.code(), Some(0), "info: {stderr}");
    assert!(
        String::from_utf8_lossy(&info.stdout).contains("not this module's"),
        "info does not mark the name: {}",
        String::from_utf8_lossy(&info.stdout)
    );
    let spec = limited(
        "specialize \"$1\" --input-prop \"$2\" -o \"$3\" --set uid0123456789abcdef____ZL2kS=1 --no-validate",
    );
    let stderr = String::from_utf8_lossy(&spec.stderr);
    assert_eq!(spec.status.code(), Some(1), "specialize: {stderr}");
    assert!(stderr.starts_with("error: "), "specialize: {stderr}");
    assert!(
        !out.exists(),
        "specialize wrote {} after failing",
        out.display()
    );
}

/// The names of the `[SYCL/device globals]` set of a `.prop` file (DPC++'s text format: a
/// `[set]` line, then `name=type|value` lines).
fn prop_device_globals(prop: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in prop.lines() {
        if line.starts_with('[') {
            inside = line == "[SYCL/device globals]";
        } else if let Some((name, _)) = line.split_once('=').filter(|_| inside) {
            names.push(name.to_string());
        }
    }
    names.sort();
    names
}

/// Device globals as DPC++ 2026.2 writes them (`HostAccessINTEL` under its internal number): on
/// every `off` image of `testdata/postlink`, info's device globals are the `[SYCL/device
/// globals]` of DPC++'s own `.prop` for it. Which kernel reaches which: `devglobal` as its source
/// reads them, and in `dgscope-debug` (`-g`) only `KDg` reaches `dg`, although `KPlain`'s debug
/// records name its id (a parameter's number, written as a literal among ids).
#[test]
fn info_lists_dpcpp_device_globals_and_the_kernels_reaching_them() {
    let pattern = common::repo().join("testdata/postlink/*/off/image*.prop");
    let mut compared = 0;
    for prop in glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
    {
        let name = prop.file_name().unwrap().to_string_lossy().into_owned();
        if name.contains(".native.") || name.contains(".emulation.") {
            continue;
        }
        let spv = prop.with_extension("spv");
        let expected = prop_device_globals(&std::fs::read_to_string(&prop).unwrap());
        let info = info_json(&[&spv]);
        let mut got: Vec<String> = info["device_globals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["name"].as_str().unwrap().to_string())
            .collect();
        got.sort();
        assert_eq!(got, expected, "{}", spv.display());
        compared += usize::from(!expected.is_empty());
    }
    assert!(compared >= 15, "only {compared} images with device globals");
    let reached = |case: &str| -> Vec<(String, Vec<String>)> {
        let spv = common::repo().join(format!("testdata/postlink/{case}/off/image0.spv"));
        let info = info_json(&[&spv]);
        let kernels = info["kernels"].as_array().unwrap().iter();
        kernels
            .map(|k| {
                let globals = k["device_globals"].as_array().unwrap().iter();
                let globals = globals.map(|g| g.as_str().unwrap().to_string()).collect();
                (k["name"].as_str().unwrap().to_string(), globals)
            })
            .collect()
    };
    let owned = |v: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
        v.iter()
            .map(|(k, g)| (k.to_string(), g.iter().map(|s| s.to_string()).collect()))
            .collect()
    };
    assert_eq!(
        reached("devglobal"),
        owned(&[
            ("_ZTS4KDgA", &["_Z8dg_plain", "_Z8dg_scope"]),
            ("_ZTS4KDgB", &["_Z12dg_hostwrite", "_Z8dg_plain"]),
            ("_ZTS4KDgC", &["uid0123456789abcdef____ZL11dg_scope_ro"]),
        ])
    );
    let debug = reached("dgscope-debug");
    for (kernel, globals) in &debug {
        let expected: &[&str] = if kernel == "_ZTSZ4mainE3KDg" {
            &["_Z2dg"]
        } else {
            &[]
        };
        assert_eq!(globals, expected, "dgscope-debug {kernel}");
    }
    assert_eq!(debug.len(), 4);
}
