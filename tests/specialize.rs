//! `spec-link specialize` on the Intel CPU OpenCL runtime (set up by scripts/setup.sh): for every
//! override set of the DPC++ test images' `run.json`, an image specialized with those values and
//! run without overrides computes what the unspecialized image computes with the values set
//! through `clSetProgramSpecializationConstant`; an image specialized with only some of them still
//! takes the others as overrides, through the property sets specialize wrote. Both inputs are
//! covered: a native image (spec-link's lowering, named by its JSON sidecar) and a module with
//! marker calls (lowered and specialized in one step). Every output goes through spirv-val.

mod common;

use common::spec_values::{bytes_of, typed};

use serde_json::{json, Value as Json};
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

/// Results of `scripts/ocl_run.py` on `spv` for the override sets of `entry` (a run.json image
/// entry), spec constants set through `prop`'s descriptors (`None`: none set, `--no-spec`).
fn ocl_results(
    spv: &Path,
    prop: Option<&Path>,
    entry: &Json,
    overrides: Vec<Json>,
    dir: &Path,
) -> Json {
    let mut e = entry.clone();
    e["overrides"] = Json::Array(overrides);
    e["image"] = json!(0);
    let run_json = dir.join("run.json");
    std::fs::write(&run_json, json!({ "images": [e] }).to_string()).unwrap();
    let mut cmd = common::ocl_run();
    cmd.arg("--spv").arg(spv).arg("--run-json").arg(&run_json);
    match prop {
        Some(p) => cmd.arg("--prop").arg(p),
        None => cmd.arg("--no-spec"),
    };
    let out = run_ok(&mut cmd, &format!("ocl_run {}", spv.display()));
    let results: Json = serde_json::from_slice(&out).unwrap();
    results["results"].clone()
}

/// Every run.json image entry of the fixtures and testdata/dpcpp with its input module.
fn images() -> Vec<(PathBuf, Json)> {
    let mut out = Vec::new();
    for root in [common::fixtures(), common::repo().join("testdata/dpcpp")] {
        let pattern = root.join("*/run.json");
        for run_json in glob::glob(pattern.to_str().unwrap())
            .unwrap()
            .map(Result::unwrap)
        {
            let spec: Json = serde_json::from_slice(&std::fs::read(&run_json).unwrap()).unwrap();
            for entry in spec["images"].as_array().unwrap() {
                let n = entry["image"].as_u64().unwrap();
                let input = run_json
                    .parent()
                    .unwrap()
                    .join(format!("image{n}.input.spv"));
                out.push((input, entry.clone()));
            }
        }
    }
    assert!(out.len() >= 20, "found only {} images", out.len());
    out
}

/// `specialize INPUT -o OUT --set-file VALUES --prop OUT.prop --validate [--input-prop NAMES]`.
fn specialize(
    input: &Path,
    names: Option<&Path>,
    values: &Json,
    out: &Path,
    dir: &Path,
) -> PathBuf {
    let set_file = dir.join("values.json");
    std::fs::write(&set_file, values.to_string()).unwrap();
    let prop = out.with_extension("prop");
    let mut cmd = bin();
    cmd.arg("specialize")
        .arg(input)
        .arg("-o")
        .arg(out)
        .arg("--set-file")
        .arg(&set_file)
        .arg("--prop")
        .arg(&prop)
        .arg("--validate");
    if let Some(n) = names {
        cmd.arg("--input-prop").arg(n);
    }
    run_ok(
        &mut cmd,
        &format!("specialize {} {values}", input.display()),
    );
    prop
}

/// The tree of each named constant of `image` (`info --json --input-prop names`), or `None`
/// when info could not index the image.
fn trees(image: &Path, names: &Path) -> Option<std::collections::BTreeMap<String, Json>> {
    let info: Json = serde_json::from_slice(&run_ok(
        bin()
            .args(["info", "--json"])
            .arg(image)
            .arg("--input-prop")
            .arg(names),
        &image.display().to_string(),
    ))
    .unwrap();
    info.get("error").is_none().then(|| {
        info["named_constants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["name"].as_str().unwrap().to_string(), c["tree"].clone()))
            .collect()
    })
}

/// One unspecialized image and how to specialize it.
struct Case<'a> {
    what: String,
    /// Image and property sets that ocl_run sets the overrides through.
    image: &'a Path,
    prop: &'a Path,
    /// Names of its constants for specialize (`--input-prop`).
    names: &'a Path,
    /// What specialize reads for the partial case (the un-lowered input, or the image itself),
    /// with its `--input-prop` if any.
    partial_input: (&'a Path, Option<&'a Path>),
}

/// For every override set: the image specialized with all values, run without overrides, and
/// specialized with the first value only, run with the others through the `.prop` specialize
/// wrote, give the unspecialized image's results. Returns (full, partial) cases checked.
fn check(case: &Case<'_>, entry: &Json, sets: &[Json], dir: &Path) -> (usize, usize) {
    let what = &case.what;
    let Some(trees) = trees(case.image, case.names) else {
        return (0, 0);
    };
    let expected = ocl_results(case.image, Some(case.prop), entry, sets.to_vec(), dir);
    let (mut full, mut partial) = (0, 0);
    for (k, set) in sets.iter().enumerate() {
        let set = set.as_object().unwrap();
        let values: serde_json::Map<String, Json> = set
            .iter()
            .map(|(name, hex)| {
                let tree = trees
                    .get(name)
                    .unwrap_or_else(|| panic!("{what}: no {name}"));
                (name.clone(), typed(tree, &bytes_of(hex.as_str().unwrap())))
            })
            .collect();
        let spv = dir.join("full.spv");
        let prop = specialize(
            case.image,
            Some(case.names),
            &Json::Object(values.clone()),
            &spv,
            dir,
        );
        let left = std::fs::read_to_string(&prop).unwrap();
        let remaining = common::spec_constant_meaning(&left);
        assert!(
            values.keys().all(|n| !remaining.contains_key(n)),
            "{what}: {} still lists a specialized constant",
            prop.display()
        );
        let got = ocl_results(&spv, None, entry, vec![json!({})], dir);
        assert_eq!(
            got[0]["buffers"], expected[k]["buffers"],
            "{what}: override set {k} baked in ({values:?})"
        );
        full += 1;
        if set.len() < 2 {
            continue;
        }
        let first = set.keys().next().unwrap().clone();
        let rest: serde_json::Map<String, Json> = set
            .iter()
            .filter(|(m, _)| **m != first)
            .map(|(m, v)| (m.clone(), v.clone()))
            .collect();
        let one = json!({ first.clone(): values[&first].clone() });
        let spv = dir.join("partial.spv");
        let (input, names) = case.partial_input;
        let prop = specialize(input, names, &one, &spv, dir);
        let got = ocl_results(&spv, Some(&prop), entry, vec![Json::Object(rest)], dir);
        assert_eq!(
            got[0]["buffers"], expected[k]["buffers"],
            "{what}: override set {k}, {first} baked in, the others overridden"
        );
        partial += 1;
    }
    (full, partial)
}

#[test]
fn specialized_images_compute_what_overrides_compute() {
    let dir = common::Scratch::new(&format!("spec-link-specialize-{}", std::process::id()));
    let (mut full, mut partial, mut dpcpp_full) = (0, 0, 0);
    for (input, entry) in images() {
        let sets: Vec<Json> = entry["overrides"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| !o.as_object().unwrap().is_empty())
            .cloned()
            .collect();
        if sets.is_empty() {
            continue;
        }
        // spec-link's native lowering, named by its JSON sidecar; the partial case specializes
        // the input with marker calls (lowered and specialized in one step).
        let (low, low_prop, low_json) = (
            dir.join("low.spv"),
            dir.join("low.prop"),
            dir.join("low.json"),
        );
        run_ok(
            bin()
                .arg(&input)
                .arg("-o")
                .arg(&low)
                .arg("--prop")
                .arg(&low_prop)
                .arg("--json")
                .arg(&low_json)
                .arg("--no-validate"),
            &input.display().to_string(),
        );
        let (f, p) = check(
            &Case {
                what: format!("{} (spec-link's lowering)", input.display()),
                image: &low,
                prop: &low_prop,
                names: &low_json,
                partial_input: (&input, None),
            },
            &entry,
            &sets,
            &dir,
        );
        full += f;
        partial += p;
        // DPC++'s own native image, named by DPC++'s .prop (where DPC++ computes it right).
        if entry.get("dpcpp_native_wrong").is_some() {
            continue;
        }
        let native = common::beside(&input, ".dpcpp-native.spv");
        let native_prop = common::beside(&input, ".dpcpp-native.prop");
        let (f, p) = check(
            &Case {
                what: format!("{} (DPC++'s image)", native.display()),
                image: &native,
                prop: &native_prop,
                names: &native_prop,
                partial_input: (&native, Some(&native_prop)),
            },
            &entry,
            &sets,
            &dir,
        );
        dpcpp_full += f;
        partial += p;
    }
    assert!(
        full >= 15 && dpcpp_full >= 10 && partial >= 10,
        "{full} full, {dpcpp_full} full on DPC++'s images and {partial} partial cases"
    );
}

/// `testdata/specialize-fold`: a, b and f specialized, flag left open. The integer and boolean
/// OpSpecConstantOps of constants fold to the values computed here by hand; those that still
/// depend on flag, and the float one, stay; on the runtime, the specialized module computes what
/// the original computes with the same values set as overrides, with flag at its default and
/// overridden.
#[test]
fn spec_constant_ops_of_constants_fold() {
    let dir = common::Scratch::new(&format!("spec-link-fold-{}", std::process::id()));
    let case = common::repo().join("testdata/specialize-fold");
    let input = dir.join("input.spv");
    std::fs::write(&input, common::assemble(&case.join("module.spvasm"))).unwrap();
    let names = case.join("names.json");
    let out = dir.join("out.spv");
    let o = bin()
        .arg("specialize")
        .arg(&input)
        .arg("--input-prop")
        .arg(&names)
        .args(["-o"])
        .arg(&out)
        .args([
            "--set",
            "a=7",
            "--set",
            "b=-3",
            "--set",
            "f=0x1p1",
            "--validate",
            "--prop",
        ])
        .arg(dir.join("out.prop"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("fsum = OpFAdd"),
        "the float op is reported: {stderr}"
    );
    let text = common::disassemble(&std::fs::read(&out).unwrap());
    for line in [
        "%a = OpConstant %uint 7",
        "%b = OpConstant %uint 4294967293",
        "%f = OpConstant %float 2",
        "%flag = OpSpecConstantTrue %bool",
        "%sum = OpConstant %uint 4",
        "%prod = OpConstant %uint 4294967284",
        "%quo = OpConstant %uint 4294967295",
        "%rem = OpConstant %uint 4294967295",
        "%shl = OpConstant %uint 28",
        "%sra = OpConstant %uint 4294967294",
        "%lt = OpConstantFalse %bool",
        "%ult = OpConstantTrue %bool",
        "%sel = OpConstant %uint 4294967293",
        "%and = OpSpecConstantOp %bool LogicalAnd %lt %flag",
        "%sel2 = OpSpecConstantOp %uint Select %and %uint_1 %uint_0",
        "%wide = OpConstant %ulong 18446744073709551613",
        "%fsum = OpSpecConstantOp %float FAdd %f %f",
    ] {
        assert!(text.contains(line), "no '{line}' in:\n{text}");
    }
    assert!(!text.contains("SpecId 0") && !text.contains("SpecId 1") && !text.contains("SpecId 3"));
    assert!(text.contains("OpDecorate %flag SpecId 2"));

    // The original's .prop: specialize with no value writes the names' property sets.
    let all = dir.join("all.prop");
    let o = bin()
        .arg("specialize")
        .arg(&input)
        .arg("--input-prop")
        .arg(&names)
        .arg("-o")
        .arg(dir.join("same.spv"))
        .arg("--prop")
        .arg(&all)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let entry = json!({ "kernel": "fold", "nbuf": 1 });
    let values = json!({ "a": "07000000", "b": "fdffffff", "f": "00000040" });
    let with_flag_off = json!({ "a": "07000000", "b": "fdffffff", "f": "00000040", "flag": "00" });
    let expected = ocl_results(
        &input,
        Some(&all),
        &entry,
        vec![values, with_flag_off],
        &dir,
    );
    let got = ocl_results(
        &out,
        Some(&dir.join("out.prop")),
        &entry,
        vec![json!({}), json!({ "flag": "00" })],
        &dir,
    );
    assert_eq!(got[0]["buffers"], expected[0]["buffers"]);
    assert_eq!(got[1]["buffers"], expected[1]["buffers"]);
    // The stored words: sum, prod, quo, rem, shl, sra, lt, ult, sel, sel2, wide, fsum.
    let words: Vec<u32> = bytes_of(got[0]["buffers"][0].as_str().unwrap())
        .chunks(4)
        .take(12)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(
        words,
        [
            4,
            (-12i32) as u32,
            u32::MAX,
            u32::MAX,
            28,
            (-2i32) as u32,
            0,
            1,
            (-3i32) as u32,
            0,
            (-3i32) as u32,
            4.0f32.to_bits()
        ]
    );
}

/// Bad values and names: `error:` naming the constant, exit 1, nothing written; bad arguments:
/// exit 2.
#[test]
fn errors_name_the_constant_and_write_nothing() {
    let dir = common::Scratch::new(&format!(
        "spec-link-specialize-errors-{}",
        std::process::id()
    ));
    let case = common::repo().join("testdata/specialize-fold");
    let input = dir.join("input.spv");
    std::fs::write(&input, common::assemble(&case.join("module.spvasm"))).unwrap();
    // A name whose SpecId the module does not have.
    let mut names: Json =
        serde_json::from_slice(&std::fs::read(case.join("names.json")).unwrap()).unwrap();
    names["spec_constants"].as_array_mut().unwrap().push(
        json!({"symbolic_id": "ghost", "descriptors": [{"spec_id": 9, "offset": 0, "size": 4}]}),
    );
    names["default_values"] = json!("0100000002000000010000c03f00000000");
    let names_path = dir.join("names.json");
    std::fs::write(&names_path, names.to_string()).unwrap();
    let dpcpp = common::fixtures().join("types");
    let types = dpcpp.join("image0.dpcpp-native.spv");
    let types_prop = dpcpp.join("image0.dpcpp-native.prop");
    let pad = "uid0123456789abcdef____ZL5padId";
    let unlowered = dpcpp.join("image0.input.spv");
    let cases: Vec<(Vec<String>, &Path, Option<&Path>, &str)> = vec![
        (
            vec!["nope=1".into()],
            &input,
            Some(&names_path),
            "unknown spec constant 'nope'",
        ),
        (vec!["a=1.5".into()], &input, Some(&names_path), "'a'"),
        (
            vec!["a=0x100000000".into()],
            &input,
            Some(&names_path),
            "out of range",
        ),
        (
            vec!["a=-2147483649".into()],
            &input,
            Some(&names_path),
            "out of range",
        ),
        (vec!["flag=2".into()], &input, Some(&names_path), "'flag'"),
        (vec!["f=[1]".into()], &input, Some(&names_path), "'f'"),
        (
            vec!["f=abc".into()],
            &input,
            Some(&names_path),
            "not a number",
        ),
        (vec!["ghost=1".into()], &input, Some(&names_path), "'ghost'"),
        (
            vec![format!("{pad}=[1, 2]")],
            &types,
            Some(&types_prop),
            pad,
        ),
        (vec![format!("{pad}=7")], &types, Some(&types_prop), pad),
        (
            vec![format!("{pad}=[1, 2, [3]]")],
            &types,
            Some(&types_prop),
            pad,
        ),
        (vec!["a=1".into()], &input, None, "--input-prop"),
        // A module with marker calls names its own constants.
        (
            vec!["x=1".into()],
            &unlowered,
            Some(&types_prop),
            "marker calls",
        ),
    ];
    for (sets, module, names, expected) in cases {
        let out = dir.join("out");
        std::fs::create_dir_all(&out).unwrap();
        let mut cmd = bin();
        cmd.arg("specialize")
            .arg(module)
            .arg("-o")
            .arg(out.join("o.spv"));
        cmd.arg("--prop")
            .arg(out.join("o.prop"))
            .arg("--json")
            .arg(out.join("o.json"));
        if let Some(n) = names {
            cmd.arg("--input-prop").arg(n);
        }
        for s in &sets {
            cmd.arg("--set").arg(s);
        }
        let o = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{sets:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(expected),
            "{sets:?}: expected '{expected}' in: {stderr}"
        );
        assert_eq!(
            std::fs::read_dir(&out).unwrap().count(),
            0,
            "{sets:?}: wrote something"
        );
    }
    // Usage errors.
    for args in [vec!["--set", "a"], vec!["--set", "a=1", "--set", "a=2"]] {
        let o = bin()
            .arg("specialize")
            .arg(&input)
            .args(["-o", "/dev/null", "--input-prop"])
            .arg(&names_path)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Values by type: hex integers, hex floats, inf and nan, bool words, an 8-bit integer from a
/// bool word (DPC++'s bool), a composite by members (padding members are not given), and a
/// one-member wrapper (sycl::vec) given its member's value; checked in the output's literals.
#[test]
fn values_are_parsed_by_type() {
    let dir = common::Scratch::new(&format!(
        "spec-link-specialize-values-{}",
        std::process::id()
    ));
    let case = common::repo().join("testdata/specialize-fold");
    let input = dir.join("input.spv");
    std::fs::write(&input, common::assemble(&case.join("module.spvasm"))).unwrap();
    let out = dir.join("out.spv");
    let run = |module: &Path, names: &Path, sets: &[&str]| {
        let mut cmd = bin();
        cmd.arg("specialize")
            .arg(module)
            .arg("-o")
            .arg(&out)
            .arg("--input-prop")
            .arg(names);
        for s in sets {
            cmd.arg("--set").arg(s);
        }
        run_ok(&mut cmd, &format!("{sets:?}"));
        common::disassemble(&std::fs::read(&out).unwrap())
    };
    let names = case.join("names.json");
    let text = run(&input, &names, &["a=0xFF", "b=-1", "flag=false", "f=-inf"]);
    assert!(text.contains("%a = OpConstant %uint 255"), "{text}");
    assert!(text.contains("%b = OpConstant %uint 4294967295"), "{text}");
    assert!(text.contains("%flag = OpConstantFalse %bool"), "{text}");
    assert!(text.contains("%f = OpConstant %float -0x1p+128"), "{text}");
    let text = run(&input, &names, &["f=nan", "flag=1"]);
    assert!(text.contains("%f = OpConstant %float 0x1.8p+128"), "{text}");
    assert!(text.contains("%flag = OpConstantTrue %bool"), "{text}");
    let text = run(&input, &names, &["f=0x1.8p1"]);
    assert!(text.contains("%f = OpConstant %float 3"), "{text}");

    let dpcpp = common::fixtures().join("types");
    let types = dpcpp.join("image0.dpcpp-native.spv");
    let prop = dpcpp.join("image0.dpcpp-native.prop");
    let u = "uid0123456789abcdef____ZL";
    let text = run(
        &types,
        &prop,
        &[
            &format!("{u}6boolId=false"),
            &format!("{u}5padId=[9, -8, 0.25]"),
            &format!("{u}5vecId=[11, 12]"),
            &format!("{u}4llId=0xFFFFFFFFFFFFFFFF"),
            &format!("{u}5dblId=1e300"),
        ],
    );
    for line in [
        "OpConstant %uchar 0",
        "OpConstant %uchar 9",
        "OpConstant %uint 4294967288",
        "OpConstant %double 0.25",
        "OpConstant %uint 11",
        "OpConstant %uint 12",
        "OpConstant %ulong 18446744073709551615",
        "OpConstant %double 1.0000000000000001e+300",
    ] {
        assert!(text.contains(line), "no '{line}' in the output");
    }
}
