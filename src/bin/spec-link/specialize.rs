//! `spec-link specialize INPUT -o OUT [--input-prop IN.prop] --set NAME=VALUE... [--set-file
//! FILE.json] [--prop OUT.prop] [--json OUT.json]`: the named spec constants become ordinary
//! constants (see [`spec_link::specialize`]); every output is staged and renamed only when all
//! are written.

use crate::info::read_names;
use crate::staging::{entry_of, stage};
use crate::Failure;
use clap::Parser;
use spec_link::specialize::parse::Given;
use spec_link::specialize::{self, RunOptions};
use spec_link::{Error, Validation};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

const EXAMPLES: &str = "\
Examples:
  spec-link specialize image.spv -o fast.spv --input-prop image.prop --prop fast.prop \\
      --set 'uid…____ZL5width=64' --set 'uid…____ZL4mode=[1, 2.5]'
      bake two constants in; the others stay specializable (fast.prop lists them)
  spec-link specialize input.spv -o out.spv --set-file values.json --prop out.prop
      a module with marker calls is lowered and specialized in one step

Exit status: 0 success; 1 processing error (nothing written); 2 usage error.";

/// Give spec constants of a SPIR-V image fixed values by symbolic name: their OpSpecConstant*
/// become ordinary constants, OpSpecConstantOp and OpSpecConstantComposite instructions that are
/// then constant are folded, and the other spec constants keep their SpecIds. The property sets
/// written describe what is left.
#[derive(Parser, Debug)]
#[command(name = "spec-link specialize", bin_name = "spec-link specialize", version, after_help = EXAMPLES)]
pub(crate) struct SpecializeCli {
    /// The SPIR-V module: a native image (spec constants with SpecIds; its names come from
    /// --input-prop) or a module with marker calls (lowered first; its names are the symbolic
    /// IDs)
    #[arg(value_name = "INPUT")]
    pub(crate) input: String,

    /// Output module ('-' = standard output)
    #[arg(short, long, value_name = "FILE", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub(crate) output: String,

    /// The input image's property sets (DPC++'s or spec-link's .prop, or spec-link's JSON
    /// sidecar): they name its spec constants; for a module with marker calls, its other sets,
    /// carried into --prop and --json
    #[arg(long, value_name = "FILE")]
    pub(crate) input_prop: Option<PathBuf>,

    /// NAME=VALUE: a scalar (integer in decimal or 0x hex, float in decimal, hex float, inf or
    /// nan, bool true/false/1/0) or a composite as a JSON array of its members in order
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,

    /// A JSON object: name → value (number, string, bool, or array for a composite)
    #[arg(long, value_name = "FILE")]
    pub(crate) set_file: Option<PathBuf>,

    /// Write the property sets left (DPC++ .prop text format)
    #[arg(long, value_name = "FILE")]
    pub(crate) prop: Option<PathBuf>,

    /// Write the JSON sidecar of what is left (format spec-link-sidecar/1)
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,

    /// Validate the output with spirv-val; fail if spirv-val is missing (as for lowering)
    #[arg(long, conflicts_with = "no_validate")]
    pub(crate) validate: bool,

    /// Do not run spirv-val on the output
    #[arg(long)]
    pub(crate) no_validate: bool,

    /// Target environment for spirv-val (as for lowering)
    #[arg(long, value_name = "ENV")]
    pub(crate) target_env: Option<String>,

    /// Print nothing but errors
    #[arg(short, long, conflicts_with = "verbose")]
    pub(crate) quiet: bool,

    /// Print what was done
    #[arg(short, long)]
    pub(crate) verbose: bool,
}

/// The values asked for, in order: `--set`s, then `--set-file`'s entries.
fn values(cli: &SpecializeCli) -> Result<Vec<(String, Given)>, Failure> {
    let mut out: Vec<(String, Given)> = Vec::new();
    for s in &cli.set {
        let (name, value) = s
            .split_once('=')
            .ok_or_else(|| Failure::Usage(format!("--set {s}: expected NAME=VALUE")))?;
        out.push((name.to_string(), Given::Text(value.to_string())));
    }
    if let Some(path) = &cli.set_file {
        let name = path.display().to_string();
        let text = std::fs::read(path).map_err(|e| Error::Io {
            path: name.clone(),
            source: e,
        })?;
        let doc: serde_json::Value = serde_json::from_slice(&text)
            .map_err(|e| Error::Unsupported(format!("{name}: not a JSON document: {e}")))?;
        if !doc.is_object() {
            return Err(Error::Unsupported(format!(
                "{name}: expected a JSON object of name → value"
            ))
            .into());
        }
        // (Read again as entries in file order: a JSON object value keeps one of two equal keys.)
        let Entries(entries) = serde_json::from_slice(&text)
            .map_err(|e| Error::Unsupported(format!("{name}: not a JSON document: {e}")))?;
        for (k, (key, _)) in entries.iter().enumerate() {
            if entries[..k].iter().any(|(earlier, _)| earlier == key) {
                return Err(Error::Unsupported(format!("{name}: '{key}' is given twice")).into());
            }
        }
        out.extend(entries.into_iter().map(|(k, v)| (k, Given::Json(v))));
    }
    for (k, (name, _)) in out.iter().enumerate() {
        if out[..k].iter().any(|(n, _)| n == name) {
            return Err(Failure::Usage(format!("'{name}' is given a value twice")));
        }
    }
    Ok(out)
}

/// The entries of a JSON object in file order, equal keys included.
struct Entries(Vec<(String, serde_json::Value)>);

impl<'de> serde::Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Entries;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Entries, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, serde_json::Value>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// Outputs that name the input or each other are usage errors.
fn check_paths(cli: &SpecializeCli) -> Result<(), Failure> {
    let mut outputs: Vec<(&str, &Path)> = Vec::new();
    if cli.output != "-" {
        outputs.push(("-o", Path::new(&cli.output)));
    }
    if let Some(p) = &cli.prop {
        outputs.push(("--prop", p));
    }
    if let Some(p) = &cli.json {
        outputs.push(("--json", p));
    }
    let input = (cli.input != "-")
        .then(|| entry_of(Path::new(&cli.input)))
        .flatten();
    let input_prop = cli.input_prop.as_deref().and_then(entry_of);
    for (k, (flag, path)) in outputs.iter().enumerate() {
        let Some(entry) = entry_of(path) else {
            continue;
        };
        if input_prop.as_ref() == Some(&entry) || (input.as_ref() == Some(&entry) && *flag != "-o")
        {
            return Err(Failure::Usage(format!(
                "{flag} {} names an input",
                path.display()
            )));
        }
        if outputs[..k]
            .iter()
            .any(|(_, other)| entry_of(other).as_ref() == Some(&entry))
        {
            return Err(Failure::Usage(format!(
                "{flag} {} names the same file as another output",
                path.display()
            )));
        }
    }
    Ok(())
}

pub(crate) fn run(cli: &SpecializeCli) -> Result<(), Failure> {
    let values = values(cli)?;
    check_paths(cli)?;
    let names = cli.input_prop.as_deref().map(read_names).transpose()?;
    let bytes = if cli.input == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut b)
            .map_err(|e| Error::Io {
                path: "<stdin>".into(),
                source: e,
            })?;
        b
    } else {
        std::fs::read(&cli.input).map_err(|e| Error::Io {
            path: cli.input.clone(),
            source: e,
        })?
    };
    let options = RunOptions {
        validation: if cli.no_validate {
            Validation::Never
        } else if cli.validate {
            Validation::Always
        } else {
            Validation::Auto
        },
        target_env: cli.target_env.clone(),
    };
    let run = specialize::run(&cli.input, bytes, names, &values, &options)?;
    let out = &run.specialized;
    let mut staged = Vec::new();
    if cli.output != "-" {
        staged.extend(stage(Path::new(&cli.output), |w| {
            w.write_all(&out.bytes).map_err(Error::Write)
        })?);
    }
    if let Some(p) = &cli.prop {
        let text = spec_link::properties::text::write(&specialize::property_sets(&out.remaining));
        staged.extend(stage(p, |w| w.write_all(&text).map_err(Error::Write))?);
    }
    if let Some(p) = &cli.json {
        let text = specialize::sidecar_json(&out.remaining);
        staged.extend(stage(p, |w| w.write_all(&text).map_err(Error::Write))?);
    }
    if cli.output == "-" {
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(&out.bytes)
            .and_then(|_| stdout.flush())
            .map_err(|e| Error::Io {
                path: "<stdout>".into(),
                source: e,
            })?;
    }
    for s in &staged {
        std::fs::rename(&s.tmp, &s.dest).map_err(|e| Error::Io {
            path: s.dest.display().to_string(),
            source: e,
        })?;
    }
    drop(staged);
    if cli.verbose {
        eprintln!(
            "spec-link: {} spec constant(s) set{}, {} OpSpecConstant* replaced, {} OpSpecConstantOp folded, {} left specializable",
            values.len(),
            if run.lowered_first { " (after lowering)" } else { "" },
            out.replaced,
            out.folded,
            out.remaining.constants.len()
        );
        if let Some(env) = &run.validated_with {
            eprintln!(
                "spec-link: spirv-val --target-env {env}: {}",
                crate::validation_outcome(&run.diagnostics)
            );
        }
    }
    crate::print_diagnostics(cli.quiet, &run.diagnostics);
    if !cli.quiet && !out.not_folded.is_empty() {
        eprintln!(
            "note: {} OpSpecConstantOp of constants left as they are (operation not folded): {}",
            out.not_folded.len(),
            out.not_folded.join(", ")
        );
    }
    Ok(())
}
