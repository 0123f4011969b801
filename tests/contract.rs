//! The JSON sidecar's contract: every sidecar spec-link writes — the golden cases' and those of
//! the DPC++ images in every mode — reads into `spec_link::sidecar::contract::Sidecar` without
//! losing a field, and passes the format's JSON Schema (`docs/schema/`, checked with Python's
//! `jsonschema`, Debian's python3-jsonschema).

mod common;

use spec_link::sidecar::contract::Sidecar;
use spec_link::{process, Input};

/// Every sidecar to check: (name, JSON text).
fn sidecars() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let golden = common::repo().join("testdata/*/expected.json");
    for p in glob::glob(golden.to_str().unwrap())
        .unwrap()
        .map(Result::unwrap)
    {
        out.push((
            p.display().to_string(),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    for image in common::dpcpp_images().into_iter().take(12) {
        let bytes = std::fs::read(&image).unwrap();
        for mode in common::MODES {
            let input = Input::from_bytes(image.display().to_string(), bytes.clone());
            let o = process(&[input], &common::unvalidated(mode)).unwrap();
            out.push((
                format!("{} ({})", image.display(), mode.as_str()),
                String::from_utf8(o.json).unwrap(),
            ));
        }
    }
    assert!(
        out.len() > 40,
        "expected the golden and DPC++ sidecars, found {}",
        out.len()
    );
    out
}

#[test]
fn every_sidecar_reads_into_the_typed_contract_without_loss() {
    for (name, text) in sidecars() {
        let typed: Sidecar = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{name}: does not read as a Sidecar: {e}"));
        let original: serde_json::Value = serde_json::from_str(&text).unwrap();
        let again = serde_json::to_value(&typed).unwrap();
        assert_eq!(
            again, original,
            "{name}: the typed sidecar lost or changed a field"
        );
    }
}

#[test]
fn every_sidecar_passes_the_json_schema() {
    let dir = common::Scratch::new(&format!("spec-link-contract-{}", std::process::id()));
    let mut listed = Vec::new();
    for (k, (name, text)) in sidecars().into_iter().enumerate() {
        let p = dir.join(format!("{k}.json"));
        std::fs::write(&p, text).unwrap();
        listed.push(format!("{}\t{name}", p.display()));
    }
    let list = dir.join("list.tsv");
    std::fs::write(&list, listed.join("\n")).unwrap();
    let schema = common::repo().join("docs/schema/spec-link-sidecar-1.schema.json");
    let script = r#"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
bad = 0
n = 0
for line in open(sys.argv[2]):
    path, name = line.rstrip("\n").split("\t", 1)
    n += 1
    for e in v.iter_errors(json.load(open(path))):
        bad += 1
        print(f"{name}: {e.message} at {list(e.absolute_path)}")
# A schema that accepts anything would pass every sidecar: it must refuse a broken one.
broken = json.load(open(path))
broken["mode"] = "nonsense"
broken["spec_constants"] = [{"symbolic_id": 1}]
if v.is_valid(broken):
    print("the schema accepts a broken sidecar")
    bad += 1
print(f"{n} checked")
sys.exit(1 if bad else 0)
"#;
    let out = common::tool(
        "/usr/bin/python3",
        &[
            "-c",
            script,
            schema.to_str().unwrap(),
            list.to_str().unwrap(),
        ],
        None,
    );
    assert!(
        out.status.success(),
        "/usr/bin/python3 with jsonschema (Debian's python3-jsonschema) failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
