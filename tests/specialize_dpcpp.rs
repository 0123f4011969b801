//! `spec-link specialize` on DPC++ 2026.2's own lowered images (`testdata/postlink/*/*/
//! imageN.native.spv`, named by DPC++'s `imageN.native.prop`).
//!
//! - On the real SYCL runtime (`scripts/sycl-run`, see `common/sycl_run.rs`), for every case with
//!   a `run.json`, every split folder (`auto` only where its images are not `per_source`'s), every
//!   native image and every override set of a kernel of that image: the image specialized with all the set's values it holds, registered in place
//!   of DPC++'s among the folder's other images and run with the set's other values overridden
//!   (constants read in an image it links to), gives what DPC++'s
//!   images give with the overrides; specialized with the first value only, with the others
//!   overridden through the `.prop` specialize wrote, the same; specialized with one value only
//!   and the others left at their defaults (the default-values blob specialize cut), what
//!   DPC++'s images give with that one override. An override set whose result does not differ
//!   from the defaults' is not counted (it could not fail).
//! - Statically, for every native image: specialize without values gives the image and its
//!   `.prop` byte for byte; with a non-default value for every constant, the output passes
//!   spirv-val (`--validate`), every `OpSpecConstant*` of a specialized SpecId is an ordinary
//!   constant holding the value, and the `.prop` has the input's sets without the two
//!   spec-constant ones; with one constant set, the `.prop` lists every other constant with its
//!   descriptors and default bytes unchanged.
//! - Values by type on DPC++'s half wrapper and integers of every width, and the errors of
//!   out-of-range values, wrong shapes and unknown names (exit 1, nothing written).

mod common;

use common::spec_values::{bytes_of, has_spec_id, typed};

use common::sycl_run::{self, Image, Images};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spec-link"))
}

fn run_ok(cmd: &mut Command, what: &str) -> Vec<u8> {
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

fn postlink() -> PathBuf {
    common::repo().join("testdata/postlink")
}

/// The split folders of a case DPC++ made images for.
fn folders(case: &Path) -> Vec<PathBuf> {
    ["off", "per_kernel", "per_source", "auto"]
        .iter()
        .map(|f| case.join(f))
        .filter(|d| d.is_dir() && !d.join("error.txt").exists())
        .collect()
}

/// [`folders`] but `auto` when DPC++'s `auto` images are byte for byte its `per_source` ones
/// (as in most cases): the same images run the same, and each run on the runtime costs.
fn distinct_folders(case: &Path) -> Vec<PathBuf> {
    let files = |d: &Path| -> BTreeMap<String, Vec<u8>> {
        std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&p).unwrap())
            })
            .collect()
    };
    let per_source = case.join("per_source");
    folders(case)
        .into_iter()
        .filter(|f| !(f.ends_with("auto") && per_source.is_dir() && files(f) == files(&per_source)))
        .collect()
}

/// Every DPC++ native image of testdata/postlink with its `.prop`.
fn native_images() -> Vec<(PathBuf, PathBuf)> {
    let pattern = postlink().join("*/*/image*.native.spv");
    let v: Vec<(PathBuf, PathBuf)> = glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
        .map(|spv| {
            let prop = spv.with_extension("prop");
            (spv, prop)
        })
        .collect();
    assert!(v.len() >= 90, "found only {} native images", v.len());
    v
}

/// `info --json IMAGE --input-prop PROP`: the named constants, by name, in the file's order.
fn named_constants(image: &Path, prop: &Path) -> Vec<(String, Json)> {
    let info: Json = serde_json::from_slice(&run_ok(
        bin()
            .args(["info", "--json"])
            .arg(image)
            .arg("--input-prop")
            .arg(prop),
        &image.display().to_string(),
    ))
    .unwrap();
    info["named_constants"]
        .as_array()
        .unwrap_or_else(|| panic!("{}: no named constants: {info}", image.display()))
        .iter()
        .map(|c| (c["name"].as_str().unwrap().to_string(), c.clone()))
        .collect()
}

/// `specialize IMAGE --input-prop PROP -o OUT --prop OUT.prop --set-file VALUES --validate`;
/// returns OUT.prop.
fn specialize(image: &Path, prop: &Path, values: &Json, out: &Path) -> PathBuf {
    let set_file = out.with_extension("values.json");
    std::fs::write(&set_file, values.to_string()).unwrap();
    let out_prop = out.with_extension("prop");
    run_ok(
        bin()
            .arg("specialize")
            .arg(image)
            .arg("--input-prop")
            .arg(prop)
            .arg("-o")
            .arg(out)
            .arg("--prop")
            .arg(&out_prop)
            .arg("--set-file")
            .arg(&set_file)
            .arg("--validate"),
        &format!("specialize {} {values}", image.display()),
    );
    out_prop
}

/// The buffers of the one run of `out`, per override set.
fn buffers(out: &Json) -> Vec<Json> {
    out["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["buffers"].clone())
        .collect()
}

/// One kernel run: `run` (a run.json entry) with `overrides`, on `images`.
fn run_kernel(
    images: &[Image],
    run: &Json,
    overrides: Vec<Json>,
    dir: &Path,
    what: &str,
) -> Vec<Json> {
    let mut r = run.clone();
    r["overrides"] = Json::Array(overrides);
    let run_json = dir.join("run.json");
    std::fs::write(&run_json, json!({ "runs": [r] }).to_string()).unwrap();
    buffers(&sycl_run::run(
        &Images::List(images.to_vec()),
        &run_json,
        what,
    ))
}

#[test]
fn dpcpp_images_specialized_run_like_overrides_on_the_sycl_runtime() {
    let dir = common::Scratch::new("spec-link-specialize-dpcpp-rt");
    let (mut full, mut partial, mut single) = (0, 0, 0);
    // DPC++'s results by image, kernel and overrides.
    let mut reference: BTreeMap<String, Vec<Json>> = BTreeMap::new();
    let pattern = postlink().join("*/run.json");
    for run_json in glob::glob(pattern.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
    {
        let case = run_json.parent().unwrap();
        let spec: Json = serde_json::from_slice(&std::fs::read(&run_json).unwrap()).unwrap();
        let linked = sycl_run::linked_images(&postlink(), &spec);
        for folder in distinct_folders(case) {
            let images = sycl_run::jit_images(&folder, true);
            for (k, image) in images.iter().enumerate() {
                if !image.spv.to_string_lossy().ends_with(".native.spv") {
                    continue;
                }
                let kernels = std::fs::read_to_string(&image.sym).unwrap();
                let trees: BTreeMap<String, Json> = named_constants(&image.spv, &image.prop)
                    .into_iter()
                    .map(|(n, c)| (n, c["tree"].clone()))
                    .collect();
                let with = |replacement: Image| {
                    let mut v = images.clone();
                    v[k] = replacement;
                    v.extend(linked.iter().cloned());
                    v
                };
                let mut dpcpp = images.clone();
                dpcpp.extend(linked.iter().cloned());
                for run in spec["runs"].as_array().unwrap() {
                    if !kernels
                        .lines()
                        .any(|l| l == run["kernel"].as_str().unwrap())
                    {
                        continue;
                    }
                    let sets = run.get("overrides").and_then(Json::as_array);
                    for set in sets.into_iter().flatten() {
                        let set = set.as_object().unwrap();
                        let values: serde_json::Map<String, Json> = set
                            .iter()
                            .filter_map(|(n, hex)| {
                                let tree = trees.get(n)?;
                                Some((n.clone(), typed(tree, &bytes_of(hex.as_str().unwrap()))))
                            })
                            .collect();
                        if values.is_empty() {
                            continue;
                        }
                        let what = format!(
                            "{}/{} {}",
                            folder.display(),
                            image.spv.file_name().unwrap().to_string_lossy(),
                            run["kernel"]
                        );
                        // The set's constants the image does not hold (read in an image it
                        // links to, with dependencies allowed) stay overridden.
                        let elsewhere: serde_json::Map<String, Json> = set
                            .iter()
                            .filter(|(n, _)| !values.contains_key(*n))
                            .map(|(n, v)| (n.clone(), v.clone()))
                            .collect();
                        // (values set, values overridden, DPC++'s overrides)
                        let mut trials: Vec<(Json, Json, Json, &str)> = vec![(
                            Json::Object(values.clone()),
                            Json::Object(elsewhere),
                            json!(set),
                            "full",
                        )];
                        if values.len() > 1 {
                            let first = values.keys().next().unwrap().clone();
                            let rest: serde_json::Map<String, Json> = set
                                .iter()
                                .filter(|(n, _)| **n != first)
                                .map(|(n, v)| (n.clone(), v.clone()))
                                .collect();
                            trials.push((
                                json!({ first.clone(): values[&first].clone() }),
                                Json::Object(rest),
                                json!(set),
                                "partial",
                            ));
                            for (n, v) in &values {
                                trials.push((
                                    json!({ n.clone(): v.clone() }),
                                    json!({}),
                                    json!({ n.clone(): set[n].clone() }),
                                    "single",
                                ));
                            }
                        }
                        for (set_here, overridden, theirs, kind) in trials {
                            let key = format!("{what} {theirs}");
                            let expected = reference.entry(key).or_insert_with(|| {
                                run_kernel(
                                    &dpcpp,
                                    run,
                                    vec![json!({}), theirs.clone()],
                                    &dir,
                                    &format!("{what} (DPC++)"),
                                )
                            });
                            if expected[0] == expected[1] {
                                continue;
                            }
                            let out = dir.join("specialized.spv");
                            let prop = specialize(&image.spv, &image.prop, &set_here, &out);
                            let got = run_kernel(
                                &with(Image {
                                    spv: out,
                                    prop,
                                    sym: image.sym.clone(),
                                }),
                                run,
                                vec![overridden.clone()],
                                &dir,
                                &format!("{what} (specialized)"),
                            );
                            assert_eq!(
                                got[0], expected[1],
                                "{what}: {kind}: {set_here} set, {overridden} overridden: \
                                 DPC++'s images with {theirs} give otherwise"
                            );
                            match kind {
                                "full" => full += 1,
                                "partial" => partial += 1,
                                _ => single += 1,
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!("{full} full, {partial} partial, {single} single-constant cases");
    assert!(
        full >= 40 && partial >= 20 && single >= 50,
        "{full} full, {partial} partial, {single} single-constant cases"
    );
}

/// A value of the constant's shape that differs from its default: integers + 3 (an 8-bit 0 or
/// 1, DPC++'s bool, flipped), booleans negated, floats 2.0 (or -0.5 where the default is 2.0).
/// Returns the JSON value; records each SpecId's width and expected literal bits.
fn non_default(node: &Json, bits_by_spec_id: &mut BTreeMap<u64, (u32, u64)>) -> Json {
    if let Some(members) = node.get("members").and_then(Json::as_array) {
        let items: Vec<&Json> = members.iter().filter(|m| has_spec_id(m)).collect();
        return Json::Array(
            items
                .iter()
                .map(|m| non_default(m, bits_by_spec_id))
                .collect(),
        );
    }
    let ty = node["type"].as_str().unwrap();
    let default = &node["default"];
    let (value, bits) = match ty {
        "bool" => {
            let v = !default.as_bool().unwrap();
            (json!(v), v as u64)
        }
        _ if ty.starts_with('i') => {
            let width: u32 = ty[1..].parse().unwrap();
            let d = default.as_u64().unwrap();
            let v = if width == 8 && d <= 1 {
                1 - d
            } else {
                d.wrapping_add(3) & (u64::MAX >> (64 - width))
            };
            (json!(v), v)
        }
        _ => {
            let v = if default.as_f64() == Some(2.0) {
                -0.5
            } else {
                2.0
            };
            let bits = match ty {
                "f16" if v == 2.0 => 0x4000,
                "f16" => 0xb800,
                "f32" => (v as f32).to_bits() as u64,
                _ => f64::to_bits(v),
            };
            (json!(v), bits)
        }
    };
    let width = match ty {
        "bool" => 1,
        _ => ty[1..].parse().unwrap(),
    };
    bits_by_spec_id.insert(node["spec_id"].as_u64().unwrap(), (width, bits));
    value
}

/// Result id → (opcode, literal words) of every constant and spec constant of a module.
fn constants(module: &[u8]) -> BTreeMap<u32, (u32, Vec<u32>)> {
    let words = common::words(module);
    let mut out = BTreeMap::new();
    let mut i = 5;
    while i < words.len() {
        let (count, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        // OpConstantTrue/False, OpConstant, OpSpecConstantTrue/False, OpSpecConstant
        if [41, 42, 43, 48, 49, 50].contains(&op) && count >= 3 {
            out.insert(words[i + 2], (op, words[i + 3..i + count].to_vec()));
        }
        i += count.max(1);
    }
    out
}

fn set_names(prop: &str) -> Vec<&str> {
    prop.lines().filter(|l| l.starts_with('[')).collect()
}

#[test]
fn dpcpp_images_specialize_to_what_is_left() {
    let dir = common::Scratch::new("spec-link-specialize-dpcpp-static");
    let (mut images, mut singles, mut literals) = (0, 0, 0);
    for (spv, prop) in native_images() {
        let what = spv.display().to_string();
        let input_prop = std::fs::read_to_string(&prop).unwrap();
        // No values: the image and its property sets as they are.
        let out = dir.join("same.spv");
        let out_prop = specialize(&spv, &prop, &json!({}), &out);
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(&spv).unwrap(),
            "{what}"
        );
        assert_eq!(
            std::fs::read_to_string(&out_prop).unwrap(),
            input_prop,
            "{what}"
        );

        let named = named_constants(&spv, &prop);
        let input = std::fs::read(&spv).unwrap();
        let before = constants(&input);
        // Every SpecId → the OpSpecConstant* ids that carry it (DPC++ repeats some).
        let info: Json =
            serde_json::from_slice(&run_ok(bin().args(["info", "--json"]).arg(&spv), &what))
                .unwrap();
        let mut ids_of: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
        fn collect(node: &Json, ids_of: &mut BTreeMap<u64, Vec<u32>>) {
            if let Some(s) = node.get("spec_id").and_then(Json::as_u64) {
                ids_of
                    .entry(s)
                    .or_default()
                    .push(node["id"].as_u64().unwrap() as u32);
            }
            for m in node
                .get("members")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
            {
                collect(m, ids_of);
            }
        }
        for c in info["spec_constants"].as_array().unwrap() {
            collect(c, &mut ids_of);
        }
        // All constants at once.
        let mut bits = BTreeMap::new();
        let values: serde_json::Map<String, Json> = named
            .iter()
            .map(|(n, c)| (n.clone(), non_default(&c["tree"], &mut bits)))
            .collect();
        let out = dir.join("all.spv");
        let out_prop = specialize(&spv, &prop, &Json::Object(values), &out);
        let after = constants(&std::fs::read(&out).unwrap());
        for (spec_id, (width, want)) in &bits {
            for id in &ids_of[spec_id] {
                let (op, literal) = &after[id];
                let got = match *op {
                    41 => 1,
                    42 => 0,
                    43 => literal
                        .iter()
                        .rev()
                        .fold(0u64, |acc, w| (acc << 32) | *w as u64),
                    _ => panic!("{what}: %{id} (SpecId {spec_id}) is still a spec constant"),
                };
                assert_eq!(
                    got & (u64::MAX >> (64 - width)),
                    *want,
                    "{what}: %{id} (SpecId {spec_id}) holds {got:#x}, not {want:#x}"
                );
                assert!(before.contains_key(id));
                literals += 1;
            }
        }
        let left = std::fs::read_to_string(&out_prop).unwrap();
        let expected_sets: Vec<&str> = set_names(&input_prop)
            .into_iter()
            .filter(|s| !s.starts_with("[SYCL/specialization constants"))
            .collect();
        assert_eq!(set_names(&left), expected_sets, "{what}: all set");
        // One constant at a time: the others keep descriptors and defaults.
        let all = common::spec_constant_meaning(&input_prop);
        for (name, c) in &named {
            let out = dir.join("one.spv");
            let value = non_default(&c["tree"], &mut BTreeMap::new());
            let out_prop = specialize(&spv, &prop, &json!({ name.clone(): value }), &out);
            let mut expected = all.clone();
            expected.remove(name);
            let left = std::fs::read_to_string(&out_prop).unwrap();
            assert_eq!(
                common::spec_constant_meaning(&left),
                expected,
                "{what}: {name} set"
            );
            singles += 1;
        }
        images += 1;
    }
    eprintln!("{images} images, {singles} single constants, {literals} literals checked");
    assert!(
        images >= 90 && singles >= 200 && literals >= 300,
        "{images} images, {singles} single constants, {literals} literals checked"
    );
}

/// The half constant of mixfeat (a `sycl::half` class wrapping an f16, SpecId 1, repeated as two
/// `OpSpecConstant`s) and the integers of specconst2: values by type into the literals of every
/// copy; out-of-range values and wrong shapes: `error:` naming the constant, exit 1, no file.
#[test]
fn dpcpp_values_by_type_and_range() {
    let dir = common::Scratch::new("spec-link-specialize-dpcpp-values");
    let u = "uid0123456789abcdef____ZL";
    let mixfeat = postlink().join("mixfeat/off/image0.native.spv");
    let specconst2 = postlink().join("specconst2/off/image0.native.spv");
    let out = dir.join("out").join("o.spv");
    let attempt = |image: &Path, set: &str| {
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        bin()
            .arg("specialize")
            .arg(image)
            .arg("--input-prop")
            .arg(image.with_extension("prop"))
            .arg("-o")
            .arg(&out)
            .arg("--prop")
            .arg(out.with_extension("prop"))
            .arg("--set")
            .arg(set)
            .arg("--validate")
            .output()
            .unwrap()
    };
    // SpecId → literal words of every constant that carried it, after specializing.
    let literals = |image: &Path, set: &str, spec_id: u64| -> Vec<Vec<u32>> {
        let o = attempt(image, set);
        assert!(
            o.status.success(),
            "{set}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let info: Json =
            serde_json::from_slice(&run_ok(bin().args(["info", "--json"]).arg(image), set))
                .unwrap();
        let mut ids = Vec::new();
        fn collect(node: &Json, spec_id: u64, ids: &mut Vec<u32>) {
            if node.get("spec_id").and_then(Json::as_u64) == Some(spec_id) {
                ids.push(node["id"].as_u64().unwrap() as u32);
            }
            for m in node
                .get("members")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
            {
                collect(m, spec_id, ids);
            }
        }
        for c in info["spec_constants"].as_array().unwrap() {
            collect(c, spec_id, &mut ids);
        }
        let after = constants(&std::fs::read(&out).unwrap());
        std::fs::remove_dir_all(out.parent().unwrap()).unwrap();
        ids.iter()
            .map(|id| {
                let (op, words) = &after[id];
                assert_eq!(*op, 43, "{set}: %{id} is an OpConstant");
                words.clone()
            })
            .collect()
    };
    let half = |v: &str| format!("{u}6halfId={v}");
    for (given, bits) in [
        ("2", 0x4000),
        ("[2]", 0x4000),
        ("-0.0", 0x8000),
        ("inf", 0x7c00),
        ("65504", 0x7bff),
        ("0x1p-24", 0x0001),
        ("1.00048828125", 0x3c00),
        ("1.00146484375", 0x3c02),
    ] {
        let got = literals(&mixfeat, &half(given), 1);
        assert_eq!(got, vec![vec![bits]; 2], "half {given}");
    }
    for (set, spec_id, words) in [
        (format!("{u}6charId=-128"), 7, vec![0x80]),
        (format!("{u}6charId=0xff"), 7, vec![0xff]),
        (format!("{u}7shortId=-32768"), 8, vec![0x8000]),
        (format!("{u}5intId=-1"), 0, vec![0xffff_ffff]),
        (
            format!("{u}4llId=-9223372036854775808"),
            9,
            vec![0, 0x8000_0000],
        ),
        (format!("{u}8doubleId=-0.0"), 1, vec![0, 0x8000_0000]),
    ] {
        let got = literals(&specconst2, &set, spec_id);
        assert!(!got.is_empty(), "{set}: no constant of SpecId {spec_id}");
        for w in got {
            assert_eq!(w, words, "{set}");
        }
    }
    for (image, set, expected) in [
        (&mixfeat, half("65520"), "out of range"),
        (&mixfeat, half("[[2]]"), "member 0"),
        (&mixfeat, half("true"), "not a number"),
        (&specconst2, format!("{u}6charId=256"), "out of range"),
        (&specconst2, format!("{u}6charId=-129"), "out of range"),
        (&specconst2, format!("{u}7shortId=65536"), "out of range"),
        (
            &specconst2,
            format!("{u}4llId=18446744073709551616"),
            "out of range",
        ),
        (&specconst2, format!("{u}8paddedId=[1, 2.5]"), "3 members"),
        (&specconst2, format!("{u}5arrId=[1, 2, 3, 4]"), "3 members"),
        (&specconst2, format!("{u}5arrId=[1.5, 2, 3]"), "member 0"),
        (
            &specconst2,
            "_ZL5intId=1".to_string(),
            "unknown spec constant",
        ),
    ] {
        let o = attempt(image, &set);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{set}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(expected),
            "{set}: expected '{expected}' in: {stderr}"
        );
        let name = set.split('=').next().unwrap();
        assert!(stderr.contains(name), "{set}: the error names the constant");
        assert_eq!(
            std::fs::read_dir(out.parent().unwrap()).unwrap().count(),
            0,
            "{set}: wrote something"
        );
        std::fs::remove_dir_all(out.parent().unwrap()).unwrap();
    }
}

/// The sets of a `.prop` file, by name, in file order.
fn prop_sets(path: &Path) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut sets: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            sets.push((name.to_string(), Vec::new()));
        } else if let Some(last) = sets.last_mut() {
            last.1.push(line.to_string());
        }
    }
    sets
}

/// What a specialized image's `.prop` keeps of the property sets it was named with: an
/// unlowered DPC++ image with its own `.prop` (lowered, then specialized: every set of DPC++'s
/// `.prop` but the spec-constant ones carried, those made by lowering, in DPC++'s set order), a
/// chain through the JSON sidecar (its `property_sets` read back), and names of another image
/// (a sibling per-kernel image's `.prop`, whose SpecIds also start at 0) refused.
#[test]
fn dpcpp_property_sets_go_with_the_names() {
    let dir = common::Scratch::new("spec-link-specialize-dpcpp-sets");
    let u = "uid0123456789abcdef____ZL";
    let off = postlink().join("mixfeat/off");
    let spec_sets = |s: &str| s.starts_with("SYCL/specialization constants");
    // An unlowered image and its `.prop`.
    let first = dir.join("first.spv");
    run_ok(
        bin()
            .arg("specialize")
            .arg(off.join("image0.spv"))
            .arg("--input-prop")
            .arg(off.join("image0.prop"))
            .arg("-o")
            .arg(&first)
            .arg("--prop")
            .arg(first.with_extension("prop"))
            .arg("--json")
            .arg(first.with_extension("json"))
            .args(["--set", &format!("{u}6flagId=1"), "--no-validate"]),
        "specialize an unlowered image",
    );
    let ours = prop_sets(&first.with_extension("prop"));
    let dpcpp_native = prop_sets(&off.join("image0.native.prop"));
    let names = |sets: &[(String, Vec<String>)]| -> Vec<String> {
        sets.iter().map(|s| s.0.clone()).collect()
    };
    assert_eq!(names(&ours), names(&dpcpp_native));
    let others = |sets: &[(String, Vec<String>)]| -> Vec<(String, Vec<String>)> {
        sets.iter().filter(|s| !spec_sets(&s.0)).cloned().collect()
    };
    assert_eq!(others(&ours), others(&prop_sets(&off.join("image0.prop"))));
    // Named by the JSON sidecar it wrote: the same sets (in the sidecar's order: by name, as
    // their properties).
    let second = dir.join("second.spv");
    run_ok(
        bin()
            .arg("specialize")
            .arg(&first)
            .arg("--input-prop")
            .arg(first.with_extension("json"))
            .arg("-o")
            .arg(&second)
            .arg("--prop")
            .arg(second.with_extension("prop"))
            .args(["--set", &format!("{u}6halfId=2.0"), "--no-validate"]),
        "specialize named by a sidecar",
    );
    let sorted = |mut sets: Vec<(String, Vec<String>)>| {
        sets.iter_mut().for_each(|s| s.1.sort());
        sets.sort();
        sets
    };
    assert_eq!(
        sorted(others(&prop_sets(&second.with_extension("prop")))),
        sorted(others(&ours))
    );
    // A sibling image's names: refused, nothing written; `info` says so.
    let specconst2 = postlink().join("specconst2");
    let image = specconst2.join("off/image0.native.spv");
    let sibling = specconst2.join("per_kernel/image1.native.prop");
    let out = dir.join("sibling.spv");
    let o = bin()
        .arg("specialize")
        .arg(&image)
        .arg("--input-prop")
        .arg(&sibling)
        .arg("-o")
        .arg(&out)
        .args(["--set", &format!("{u}6boolId=0"), "--no-validate"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("does not describe"), "{stderr}");
    assert!(!out.exists());
    let info = run_ok(
        bin()
            .arg("info")
            .arg(&image)
            .arg("--input-prop")
            .arg(&sibling),
        "info with a sibling's names",
    );
    assert!(String::from_utf8_lossy(&info).contains("not this module's"));
}

/// Values a literal cannot hold, and a values file that gives a name twice: exit 1, no output.
#[test]
fn dpcpp_values_out_of_range_and_twice() {
    let dir = common::Scratch::new("spec-link-specialize-dpcpp-refused");
    let u = "uid0123456789abcdef____ZL";
    let off = postlink().join("specconst2/off");
    let out = dir.join("o.spv");
    let refused = |args: &[String]| {
        let o = bin()
            .arg("specialize")
            .arg(off.join("image0.native.spv"))
            .arg("--input-prop")
            .arg(off.join("image0.native.prop"))
            .arg("-o")
            .arg(&out)
            .args(args)
            .arg("--no-validate")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?}");
        stderr
    };
    for v in ["1e5000", "-1e400"] {
        let e = refused(&["--set".into(), format!("{u}7floatId={v}")]);
        assert!(e.contains("out of range"), "{e}");
    }
    for v in ["1e309", "0x1p1024"] {
        let e = refused(&["--set".into(), format!("{u}8doubleId={v}")]);
        assert!(e.contains("out of range"), "{e}");
    }
    let file = dir.join("values.json");
    std::fs::write(&file, format!("{{\"{u}5intId\": 1, \"{u}5intId\": 2}}")).unwrap();
    let e = refused(&["--set-file".into(), file.display().to_string()]);
    assert!(e.contains("given twice"), "{e}");
}
