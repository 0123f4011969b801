//! `spec-link info INPUT... [--input-prop FILE] [--json]`: what is in each module (see
//! [`spec_link::info`]), as a table for a terminal or as JSON (`spec-link-info/1`). Reads,
//! writes nothing.

use crate::inputs::expand_inputs;
use crate::Failure;
use clap::Parser;
use spec_link::info::constants::ConstNode;
use spec_link::info::names::SymbolNames;
use spec_link::info::{self, Info};
use spec_link::Error;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  spec-link info image.spv
      module facts, kernels, spec constants (and, for a module with marker calls, what
      lowering would make of them)
  spec-link info image.spv --input-prop image.prop
      the same, each spec constant with its symbolic name (DPC++'s or spec-link's .prop, or
      spec-link's JSON sidecar)
  spec-link info 'images/*.spv' --json
      one JSON document (format spec-link-info/1, see docs/info.md) per module, in an array

Exit status: 0 success; 1 a module or the names could not be read; 2 usage error.";

/// Tell what is in SPIR-V modules: module facts, kernels (parameters, execution modes, the spec
/// constants and device globals each reaches), spec constants (SpecIds, types, defaults,
/// composites as trees; with names from the image's property sets), and, for a module with
/// SYCL spec-constant marker calls, what lowering would produce. Nothing is written.
#[derive(Parser, Debug)]
#[command(name = "spec-link info", bin_name = "spec-link info", version, after_help = EXAMPLES)]
pub(crate) struct InfoCli {
    /// SPIR-V modules: files, '-' (standard input) or glob patterns (as for lowering). Each is
    /// described on its own (nothing is linked)
    #[arg(required = true, value_name = "INPUT")]
    pub(crate) inputs: Vec<String>,

    /// The image's property sets, to name its spec constants: a .prop file (DPC++'s or
    /// spec-link's) or spec-link's JSON sidecar (one input only)
    #[arg(long, value_name = "FILE")]
    pub(crate) input_prop: Option<PathBuf>,

    /// Print JSON (format spec-link-info/1): an object for one input, an array for several
    #[arg(long)]
    pub(crate) json: bool,
}

/// Reads a module's bytes from a file or standard input.
pub(crate) fn read_module(name: &str) -> Result<Vec<u8>, Error> {
    let io = |e| Error::Io {
        path: name.to_string(),
        source: e,
    };
    let bytes = if name == "-" {
        let mut b = Vec::new();
        std::io::stdin().lock().read_to_end(&mut b).map_err(io)?;
        b
    } else {
        std::fs::read(name).map_err(io)?
    };
    Ok(bytes)
}

/// Reads names from a `.prop` file or a JSON sidecar (told apart by their first character).
pub(crate) fn read_names(path: &std::path::Path) -> Result<SymbolNames, Error> {
    let name = path.display().to_string();
    let text = std::fs::read(path).map_err(|e| Error::Io {
        path: name.clone(),
        source: e,
    })?;
    if text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        return SymbolNames::from_sidecar_json(&name, &text);
    }
    SymbolNames::from_prop_text(&name, &text)
}

pub(crate) fn run(cli: &InfoCli) -> Result<(), Failure> {
    let names = expand_inputs(&cli.inputs)?;
    if cli.input_prop.is_some() && names.len() > 1 {
        return Err(Failure::Usage(
            "--input-prop names the constants of one image: give one input".into(),
        ));
    }
    let symbols = cli.input_prop.as_deref().map(read_names).transpose()?;
    let mut infos = Vec::new();
    for n in &names {
        let module = read_module(n)?;
        let info = info::analyse(n, &module, symbols.as_ref()).map_err(|e| Error::InFile {
            file: n.clone(),
            source: Box::new(e),
        })?;
        infos.push(info);
    }
    let text = if cli.json {
        let mut t = if let [one] = infos.as_slice() {
            serde_json::to_string_pretty(one)
        } else {
            serde_json::to_string_pretty(&infos)
        }
        .map_err(|e| Error::Unsupported(format!("cannot write JSON: {e}")))?;
        t.push('\n');
        t
    } else {
        infos.iter().map(table).collect::<Vec<_>>().join("\n")
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| Error::Io {
            path: "<stdout>".into(),
            source: e,
        })?;
    Ok(())
}

/// Rows of cells as aligned columns, two spaces apart, indented by two.
fn columns(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|k| {
            rows.iter()
                .map(|r| r.get(k).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::from("  ");
        for (k, c) in r.iter().enumerate() {
            line.push_str(c);
            if k + 1 < r.len() {
                let pad = widths[k] - c.chars().count() + 2;
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A constant's default as `{7, 2.5, {8, 9}}`; a constituent without a scalar value by its
/// instruction (`OpConstantNull`).
fn value_text(n: &ConstNode) -> String {
    if !n.members.is_empty() {
        let inner: Vec<String> = n.members.iter().map(value_text).collect();
        return format!("{{{}}}", inner.join(", "));
    }
    match (&n.default, &n.operation) {
        (Some(v), _) => v.to_string(),
        (None, Some(op)) => format!("{op}(…)"),
        (None, None) => n.op.trim_start_matches("Op").to_string(),
    }
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "-".into()
    } else {
        items.join(", ")
    }
}

/// SpecIds as runs: `0, 2-5`.
fn spec_id_runs(ids: &[u32]) -> String {
    let mut runs: Vec<String> = Vec::new();
    let mut k = 0;
    while k < ids.len() {
        let mut j = k;
        while j + 1 < ids.len() && ids[j + 1] == ids[j].wrapping_add(1) {
            j += 1;
        }
        runs.push(if j == k {
            ids[k].to_string()
        } else {
            format!("{}-{}", ids[k], ids[j])
        });
        k = j + 1;
    }
    list(&runs)
}

/// The terminal table of one module.
fn table(info: &Info) -> String {
    let m = &info.module;
    let mut s = String::new();
    let _ = writeln!(s, "{}", info.file);
    let symbols = |v: &[info::Symbol]| -> Vec<String> {
        v.iter()
            .map(|x| format!("{} ({})", x.name, x.kind))
            .collect()
    };
    s.push_str(&columns(&[
        vec![
            "module".into(),
            format!(
                "SPIR-V {}, generator 0x{:08x}, id bound {}, {} bytes ({}-endian), {} instructions, {} functions",
                m.version, m.generator, m.id_bound, m.size_bytes, m.byte_order, m.instruction_count, m.functions
            ),
        ],
        vec![
            "memory model".into(),
            format!(
                "{} {}",
                m.addressing_model.as_deref().unwrap_or("-"),
                m.memory_model.as_deref().unwrap_or("-")
            ),
        ],
        vec!["capabilities".into(), list(&m.capabilities)],
        vec!["extensions".into(), list(&m.extensions)],
        vec!["ext imports".into(), list(&m.ext_inst_imports)],
        vec!["imports".into(), list(&symbols(&m.imports))],
        vec!["exports".into(), list(&symbols(&m.exports))],
    ]));
    if let Some(e) = &info.error {
        let _ = writeln!(s, "  not indexed: {e}");
    }
    if let Some(named) = &info.named_constants {
        let _ = writeln!(
            s,
            "\nnamed spec constants ({}, from {})",
            named.len(),
            info.names_source.as_deref().unwrap_or("-")
        );
        let mut rows = vec![vec![
            "NAME".into(),
            "SPECIDS".into(),
            "TYPE".into(),
            "SIZE".into(),
            "DEFAULT".into(),
        ]];
        for c in named {
            let mut ids = spec_id_runs(&c.spec_ids);
            if !c.undefined_spec_ids.is_empty() {
                let _ = write!(
                    ids,
                    " ({} not in the module)",
                    spec_id_runs(&c.undefined_spec_ids)
                );
            }
            if let Some(m) = &c.mismatch {
                let _ = write!(ids, " (not this module's: {m})");
            }
            rows.push(vec![
                c.name.clone(),
                ids,
                c.ty.clone().unwrap_or_else(|| "?".into()),
                c.size.to_string(),
                c.tree.as_ref().map_or_else(|| "?".into(), value_text),
            ]);
        }
        s.push_str(&columns(&rows));
    }
    let _ = writeln!(s, "\nspec constants ({})", info.spec_constants.len());
    if !info.spec_constants.is_empty() {
        let mut rows = vec![vec![
            "ID".into(),
            "SPECIDS".into(),
            "OP".into(),
            "TYPE".into(),
            "DEFAULT".into(),
        ]];
        for c in &info.spec_constants {
            rows.push(vec![
                format!("%{}", c.id),
                spec_id_runs(&c.leaf_spec_ids()),
                c.op.clone(),
                c.ty.clone(),
                value_text(c),
            ]);
        }
        s.push_str(&columns(&rows));
    }
    if !info.device_globals.is_empty() {
        let _ = writeln!(s, "\ndevice globals ({})", info.device_globals.len());
        let rows: Vec<Vec<String>> = info
            .device_globals
            .iter()
            .map(|g| vec![g.name.clone(), format!("%{}", g.id), g.ty.clone()])
            .collect();
        s.push_str(&columns(&rows));
    }
    let _ = writeln!(s, "\nkernels ({})", info.kernels.len());
    for k in &info.kernels {
        let _ = writeln!(s, "  {} ({}, %{})", k.name, k.execution_model, k.function);
        let params: Vec<String> = k
            .parameters
            .iter()
            .map(|p| match &p.name {
                Some(n) => format!("{} {n}", p.ty),
                None => format!("{} %{}", p.ty, p.id),
            })
            .collect();
        let modes: Vec<String> = k
            .execution_modes
            .iter()
            .map(|m| {
                if m.operands.is_empty() {
                    m.mode.clone()
                } else {
                    let ops: Vec<String> = m.operands.iter().map(u32::to_string).collect();
                    format!("{} {}", m.mode, ops.join(" "))
                }
            })
            .collect();
        let mut rows = vec![
            vec!["parameters".into(), list(&params)],
            vec!["execution modes".into(), list(&modes)],
            vec!["spec constants".into(), {
                let mut t = format!("SpecIds {}", spec_id_runs(&k.spec_ids));
                if !k.spec_constants.is_empty() {
                    let _ = write!(t, ": {}", k.spec_constants.join(", "));
                }
                t
            }],
        ];
        if !k.marker_constants.is_empty() {
            rows.push(vec!["marker calls".into(), list(&k.marker_constants)]);
        }
        rows.push(vec!["device globals".into(), list(&k.device_globals)]);
        s.push_str(
            &columns(&rows)
                .replace("\n  ", "\n    ")
                .replacen("  ", "    ", 1),
        );
    }
    if let Some(l) = &info.lowering {
        let _ = writeln!(s, "\nlowering would make ({} marker calls)", l.marker_calls);
        if let Some(e) = &l.error {
            let _ = writeln!(s, "  error: {e}");
        }
        let mut rows = vec![vec![
            "SYMBOLIC ID".into(),
            "SPECIDS (first-use)".into(),
            "SPECIDS (dpcpp)".into(),
            "TYPE".into(),
            "SIZE".into(),
            "DEFAULT (hex)".into(),
        ]];
        for c in &l.constants {
            rows.push(vec![
                c.symbolic_id.clone(),
                spec_id_runs(&c.spec_ids_first_use),
                spec_id_runs(&c.spec_ids_dpcpp),
                c.ty.clone(),
                c.size.to_string(),
                c.default_hex.clone(),
            ]);
        }
        if !l.constants.is_empty() {
            s.push_str(&columns(&rows));
        }
    }
    s
}
