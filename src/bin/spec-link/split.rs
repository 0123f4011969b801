//! The `--split` command: read (and link) the inputs, split them into device images, then stage
//! every image's `.spv`, `.prop` and `.sym`, the file table and the JSON sidecar, and rename them
//! into place only when all are written (on any error no file of the set is left).

use crate::args::{Cli, Split};
use crate::inputs::{expand_inputs, read_input};
use crate::staging::{stage, Staged};
use crate::Failure;
use spec_link::properties::{text, PropertySet, Value};
use spec_link::split::{split_each, Image, SplitMode, SplitOptions};
use spec_link::Error;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options that mean something only with `--split`: a usage error without it.
pub(crate) fn check_no_split_options(cli: &Cli) -> Result<(), Failure> {
    let given = [
        (!cli.input_prop.is_empty(), "--input-prop"),
        (cli.emit_kernel_names, "--emit-kernel-names"),
        (cli.emit_program_metadata, "--emit-program-metadata"),
        (
            cli.allow_device_image_dependencies,
            "--allow-device-image-dependencies",
        ),
        (cli.device_lib_dir.is_some(), "--device-lib-dir"),
    ];
    match given.iter().find(|(on, _)| *on) {
        Some((_, flag)) => Err(Failure::Usage(format!("{flag} needs --split"))),
        None => Ok(()),
    }
}

/// Refuses outputs that would replace an input or each other: the table, the JSON sidecar, and
/// any file named as an image's (`OUT_N[.esimd].spv|prop|sym` beside the table).
fn check_outputs(cli: &Cli, inputs: &[String]) -> Result<(), String> {
    let table = Path::new(&cli.output);
    let entry = |p: &Path| crate::staging::entry_of(p);
    let table_entry = entry(table);
    if let (Some(j), Some(t)) = (&cli.json, &table_entry) {
        if entry(j).as_ref() == Some(t) {
            return Err(
                "-o and --json name the same file: each output needs a file of its own".into(),
            );
        }
    }
    let stem = table
        .with_extension("")
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let table_dir = table_entry
        .as_ref()
        .and_then(|t| t.parent().map(Path::to_path_buf));
    let is_image_name = |name: &str| {
        let Some(rest) = name.strip_prefix(&stem).and_then(|r| r.strip_prefix('_')) else {
            return false;
        };
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = rest.strip_prefix(".esimd").unwrap_or(rest);
        matches!(rest, ".spv" | ".prop" | ".sym")
    };
    let outputs: Vec<(String, PathBuf)> = [
        ("-o", Some(table.to_path_buf())),
        ("--json", cli.json.clone()),
    ]
    .into_iter()
    .filter_map(|(flag, p)| Some((flag.to_string(), entry(&p?)?)))
    .collect();
    let read: Vec<PathBuf> = inputs
        .iter()
        .filter(|i| *i != "-")
        .map(PathBuf::from)
        .chain(cli.input_prop.iter().cloned())
        .collect();
    for path in &read {
        let input = path.display();
        let Some(e) = entry(path) else {
            continue;
        };
        if let Some((flag, _)) = outputs.iter().find(|(_, o)| *o == e) {
            return Err(format!("{flag} names the input {input}"));
        }
        let beside = e.parent().map(Path::to_path_buf) == table_dir;
        let name = e
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if beside && is_image_name(&name) {
            return Err(format!(
                "the input {input} has the name of an image file -o {} would write: choose another -o",
                cli.output
            ));
        }
    }
    Ok(())
}

/// Reads a `--input-prop` file.
fn read_prop(path: &Path) -> Result<Vec<PropertySet>, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::Io {
        path: path.display().to_string(),
        source: e,
    })?;
    text::read(&bytes).map_err(|e| {
        Error::Unsupported(format!(
            "{}: not a property file (.prop): {e}",
            path.display()
        ))
    })
}

/// The file of image `n` with extension `ext` beside the table `OUT.table`: `OUT_n[.esimd].ext`.
fn image_path(prefix: &Path, number: usize, esimd: bool, ext: &str) -> PathBuf {
    let mut name = prefix.as_os_str().to_owned();
    name.push(format!(
        "_{number}{}.{ext}",
        if esimd { ".esimd" } else { "" }
    ));
    PathBuf::from(name)
}

pub(crate) fn run(cli: &Cli) -> Result<(), Failure> {
    let mode = match cli.split {
        Some(Split::Off) => SplitMode::Off,
        Some(Split::PerKernel) => SplitMode::PerKernel,
        Some(Split::PerSource) | Some(Split::Auto) | None => SplitMode::PerSource,
    };
    if cli.output == "-" {
        return Err(Failure::Usage(
            "--split writes several files: -o must name the file table (OUT.table), not '-'".into(),
        ));
    }
    if cli.prop.is_some() {
        return Err(Failure::Usage(
            "--prop does not go with --split: each image's property sets are written beside the table (OUT_N.prop)".into(),
        ));
    }
    let names = expand_inputs(&cli.inputs)?;
    if names.iter().filter(|a| *a == "-").count() > 1 {
        return Err(Failure::Usage(
            "standard input ('-') can be read only once".into(),
        ));
    }
    check_outputs(cli, &names).map_err(Failure::Usage)?;
    if cli.input_prop.len() > names.len() {
        return Err(Failure::Usage(format!(
            "{} --input-prop files for {} inputs: give at most one per input, in input order",
            cli.input_prop.len(),
            names.len()
        )));
    }
    let input_props = cli
        .input_prop
        .iter()
        .map(|p| read_prop(p))
        .collect::<Result<Vec<_>, _>>()?;
    let options = crate::lower::options(cli);
    let inputs = names
        .iter()
        .map(|n| read_input(n, false))
        .collect::<Result<Vec<_>, _>>()?;
    let table = PathBuf::from(&cli.output);
    let prefix = table.with_extension("");
    let mut staged: Vec<Staged> = Vec::new();
    let mut rows = String::from("[Code|Properties|Symbols]\n");
    let mut described = Vec::new();
    let mut verbose_lines = Vec::new();
    // Each image is staged as soon as it is made (images are not all held in memory); nothing
    // is renamed into place before every file of the set is written.
    let diagnostics = split_each(
        inputs,
        &options,
        &SplitOptions {
            mode,
            emit_kernel_names: cli.emit_kernel_names,
            emit_program_metadata: cli.emit_program_metadata,
            allow_dependencies: cli.allow_device_image_dependencies,
            input_props,
            device_lib_dir: cli.device_lib_dir.clone(),
        },
        &mut |image: Image| {
            let [spv, prop, sym] = ["spv", "prop", "sym"]
                .map(|ext| image_path(&prefix, image.number, image.esimd, ext));
            staged.extend(stage(&spv, |w| image.module.write_to_file(w))?);
            staged.extend(stage(&prop, |w| {
                w.write_all(&image.prop()).map_err(Error::Write)
            })?);
            staged.extend(stage(&sym, |w| {
                w.write_all(image.symbols().as_bytes())
                    .map_err(Error::Write)
            })?);
            let [a, b, c] = [&spv, &prop, &sym].map(|p| row_path(&table, p));
            rows.push_str(&format!("{a}|{b}|{c}\n"));
            if cli.json.is_some() {
                described.push(describe(&image, [&spv, &prop, &sym]));
            }
            if cli.verbose > 0 {
                let names: Vec<&str> = image.entries.iter().map(|e| e.name.as_str()).collect();
                verbose_lines.push(format!(
                    "spec-link: {}: {} spec constant(s); {}",
                    spv.display(),
                    image.spec_map.constants.len(),
                    names.join(", ")
                ));
            }
            Ok(())
        },
    )?;
    staged.extend(stage(&table, |w| {
        w.write_all(rows.as_bytes()).map_err(Error::Write)
    })?);
    // '-' is standard output, written once every file is in place.
    let json = cli.json.as_ref().map(|j| (j, sidecar(described, &options)));
    if let Some((j, json)) = json.as_ref().filter(|(j, _)| j.as_os_str() != "-") {
        staged.extend(stage(j, |w| w.write_all(json).map_err(Error::Write))?);
    }
    commit(staged)?;
    if let Some((_, json)) = json.as_ref().filter(|(j, _)| j.as_os_str() == "-") {
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(json)
            .and_then(|()| stdout.flush())
            .map_err(|e| Error::Io {
                path: "<stdout>".into(),
                source: e,
            })?;
    }
    crate::print_diagnostics(cli.quiet, &diagnostics);
    for line in verbose_lines {
        eprintln!("{line}");
    }
    Ok(())
}

/// A file as the table names it: its full path when the table's is absolute (as DPC++ writes
/// them, and readers resolving against either the working directory or the table's folder
/// agree), else its name alone, relative to the table's folder (where the images are).
fn row_path(table: &Path, file: &Path) -> String {
    if table.is_absolute() {
        return file.display().to_string();
    }
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Renames every staged file into place; if one rename fails, the files already renamed are
/// removed again (all or nothing).
fn commit(staged: Vec<Staged>) -> Result<(), Error> {
    let mut done: Vec<&Path> = Vec::new();
    for s in &staged {
        if let Err(e) = std::fs::rename(&s.tmp, &s.dest) {
            for d in done {
                let _ = std::fs::remove_file(d);
            }
            return Err(Error::Io {
                path: s.dest.display().to_string(),
                source: e,
            });
        }
        done.push(&s.dest);
    }
    Ok(())
}

/// One image in the JSON sidecar: its files, entry points, spec constants (and, in emulation
/// mode, each kernel's buffer argument) and property sets.
fn describe(image: &Image, [spv, prop, sym]: [&PathBuf; 3]) -> serde_json::Value {
    use serde_json::json;
    let value = |v: &Value| match v {
        Value::Uint32(x) => json!({"type": "uint32", "value": x}),
        Value::Bytes { bits, data } => json!({
            "type": "byte_array",
            "bits": bits,
            "hex": spec_link::sidecar::json::hex(data),
        }),
    };
    json!({
        "number": image.number,
        "esimd": image.esimd,
        "files": {
            "code": spv.display().to_string(),
            "properties": prop.display().to_string(),
            "symbols": sym.display().to_string(),
        },
        "entry_points": image.entries.iter().map(|e| json!({
            "name": e.name,
            "kind": format!("{:?}", e.kind).to_lowercase(),
            "input": e.input,
        })).collect::<Vec<_>>(),
        "spec_constants": image.spec_map.constants.iter().map(|c| json!({
            "symbolic_id": c.symbolic_id.to_string(),
            "type": c.type_name.to_string(),
            "size": c.size,
            "spec_ids": image.spec_map.spec_ids(c),
        })).collect::<Vec<_>>(),
        "kernels": image.kernels.as_ref().map(|ks| ks.iter().map(|k| json!({
            "name": k.name,
            "spec_constants_buffer_arg": k.arg,
        })).collect::<Vec<_>>()),
        "property_sets": image.property_sets.iter().map(|s| json!({
            "name": s.name,
            "properties": s.properties.iter().map(|(n, v)| {
                let mut o = value(v);
                o["name"] = json!(n);
                o
            }).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "validated_with": image.validated_with,
    })
}

/// The JSON sidecar of a split (format `spec-link-split/1`, docs/split.md).
fn sidecar(images: Vec<serde_json::Value>, options: &spec_link::Options) -> Vec<u8> {
    let doc = serde_json::json!({
        "format": "spec-link-split/1",
        "spec_const_mode": options.mode.as_str(),
        "images": images,
    });
    let mut bytes = serde_json::to_vec_pretty(&doc).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
