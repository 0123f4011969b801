//! The default command: read, link, lower, validate, then stage and commit every output.

use crate::args::{Cli, Layout, Mode, Order, ValidateMode};
use crate::inputs::{check_arguments, expand_inputs, read_input};
use crate::staging::stage;
use crate::Failure;
use spec_link::{process_owned, Error, Options, SpecConstMode, Validation};
use std::io::Write;
use std::path::Path;

/// The library options the command line asks for.
pub(crate) fn options(cli: &Cli) -> Options {
    Options {
        mode: match cli.spec_const {
            Mode::Native => SpecConstMode::Native,
            Mode::Emulation => SpecConstMode::Emulation,
            Mode::DefaultValues => SpecConstMode::DefaultValues,
        },
        emulation_layout: match cli.emulation_layout {
            Layout::Aligned => spec_link::EmulationLayout::Aligned,
            Layout::Packed => spec_link::EmulationLayout::Packed,
        },
        spec_id_order: match cli.spec_id_order {
            Order::FirstUse => spec_link::SpecIdOrder::FirstUse,
            Order::Dpcpp => spec_link::SpecIdOrder::Dpcpp,
        },
        validation: if cli.no_validate {
            Validation::Never
        } else if cli.validate == Some(ValidateMode::Strict) {
            Validation::Strict
        } else if cli.validate.is_some() {
            Validation::Always
        } else {
            Validation::Auto
        },
        target_env: cli.target_env.clone(),
        link: spec_link::link::LinkOptions {
            allow_partial: cli.allow_partial,
            create_library: cli.create_library,
            renumber_spec_ids: cli.renumber_spec_ids,
        },
        // Written below straight into their files, never held whole in memory.
        sidecars: false,
        pass_through: !cli.no_pass_through,
    }
}

pub(crate) fn run(cli: &Cli) -> Result<(), Failure> {
    let options = options(cli);
    let clock = std::time::Instant::now();
    let names = expand_inputs(&cli.inputs)?;
    check_arguments(cli, &names).map_err(Failure::Usage)?;
    // Not for standard output: a module found malformed while it is copied must not be half-written.
    // Nor for an output that is not a regular file (written in place, see `stage`).
    let special_output = std::fs::metadata(&cli.output).is_ok_and(|m| !m.is_file() && !m.is_dir());
    let lazily = names.len() == 1 && cli.output != "-" && !special_output;
    let inputs = names
        .iter()
        .map(|n| read_input(n, lazily))
        .collect::<Result<Vec<_>, _>>()?;
    let read_time = clock.elapsed();
    let mut out = process_owned(inputs, &options)?;
    out.timings.insert(0, ("read", read_time));
    let clock = std::time::Instant::now();

    // Stage every file first; rename only when all are written. At most one output is '-'
    // (checked with the arguments): it goes to standard output once the files are staged.
    let is_stdout = |p: &Path| p == Path::new("-");
    let mut staged = Vec::new();
    if cli.output != "-" {
        staged.extend(stage(Path::new(&cli.output), |w| {
            out.module.write_to_file(w)
        })?);
    }
    if let Some(p) = cli.prop.as_deref().filter(|p| !is_stdout(p)) {
        staged.extend(stage(p, |w| out.write_prop(w).map_err(Error::Write))?);
    }
    if let Some(j) = cli.json.as_deref().filter(|p| !is_stdout(p)) {
        staged.extend(stage(j, |w| out.write_json(w).map_err(Error::Write))?);
    }
    let stdout_error = |e| Error::Io {
        path: "<stdout>".into(),
        source: e,
    };
    let mut stdout = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    if cli.output == "-" {
        out.module.write_to(&mut stdout).map_err(|e| match e {
            Error::Write(e) => stdout_error(e),
            e => e,
        })?;
    } else if cli.prop.as_deref().is_some_and(is_stdout) {
        out.write_prop(&mut stdout).map_err(stdout_error)?;
    } else if cli.json.as_deref().is_some_and(is_stdout) {
        out.write_json(&mut stdout).map_err(stdout_error)?;
    }
    stdout.flush().map_err(stdout_error)?;
    for s in &staged {
        std::fs::rename(&s.tmp, &s.dest).map_err(|e| Error::Io {
            path: s.dest.display().to_string(),
            source: e,
        })?;
    }
    // Renamed: nothing left for Drop to remove (a failed remove is harmless).
    drop(staged);
    out.timings.push(("write", clock.elapsed()));

    if cli.verbose > 0 {
        eprintln!(
            "spec-link: {} marker call(s), {} spec constant(s), {} SpecId(s)",
            out.calls,
            out.spec_map.constants.len(),
            out.spec_map
                .constants
                .iter()
                .map(|c| out.spec_map.spec_ids(c).len())
                .sum::<usize>()
        );
        if out.input_released && cli.verbose > 1 {
            eprintln!(
                "spec-link: the input's pages were given back behind each pass (a module dense with marker calls)"
            );
        }
        for c in &out.spec_map.constants {
            eprintln!(
                "  \"{}\": {} ({} bytes), SpecIds {:?}",
                c.symbolic_id,
                c.type_name,
                c.size,
                out.spec_map.spec_ids(c)
            );
        }
        let steps: Vec<String> = out
            .timings
            .iter()
            .map(|(n, d)| format!("{n} {:.3}s", d.as_secs_f64()))
            .collect();
        eprintln!("spec-link: time: {}", steps.join(", "));
        if let Some(env) = &out.validated_with {
            eprintln!(
                "spec-link: spirv-val --target-env {env}: {}",
                crate::validation_outcome(&out.diagnostics)
            );
        }
    }
    crate::print_diagnostics(cli.quiet, &out.diagnostics);
    Ok(())
}
