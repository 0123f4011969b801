//! The pipeline: one named, timed call per step (see the crate docs for the list).

use crate::diagnostic::{Diagnostic, Validated};
use crate::io::input::InputData;
use crate::io::output::OutputRepr;
use crate::module::ids::IdAllocator;
use crate::module::index::Index;
use crate::module::intern::Intern;
use crate::module::{self, Module};
use crate::{cleanup, link, lower, markers, specmap, validate};
use crate::{
    EmulationLayout, Error, Input, ModuleOutput, Options, Output, Result, SpecConstMode, Validation,
};

/// About what the later stages build per marker call (spec map, lowering, cleanup's tables;
/// measured on the bench's dense modules: ~480 bytes).
const PER_CALL_BYTES: usize = 512;

/// The resident memory of the process beside the module and its tables: code, shared libraries,
/// runtime (measured on x86-64 Linux, release build: 5.4–5.7 MiB on a 112-byte module).
const PROCESS_BYTES: usize = 6 << 20;

/// Runs every step on the inputs (see the crate docs).
pub fn process(inputs: &[Input], options: &Options) -> Result<Output> {
    process_owned(
        inputs.iter().map(Input::try_clone).collect::<Result<_>>()?,
        options,
    )
}

/// [`process`] taking ownership of the inputs, so that a single input's bytes are freed as soon as
/// they are words (the command line uses this: peak memory stays near twice the module).
pub fn process_owned(inputs: Vec<Input>, options: &Options) -> Result<Output> {
    process_with(inputs, options, None)
}

/// [`process_owned`] of one input whose module `index` indexes as it is (a split image, indexed
/// for its property sets): the pipeline takes that index instead of building its own.
pub(crate) fn process_indexed(input: Input, index: Index, options: &Options) -> Result<Output> {
    process_with(vec![input], options, Some(index))
}

fn process_with(
    mut inputs: Vec<Input>,
    options: &Options,
    indexed: Option<Index>,
) -> Result<Output> {
    if inputs.is_empty() {
        return Err(Error::Unsupported("no input module".into()));
    }
    let mut clock = Clock::start();
    let validator = Validator::probe(options.validation);
    if let Some(streamed) = stream_through(&mut inputs, options, &validator) {
        let run = Run::unchanged(streamed, false, numbering(options));
        return finish(run, &inputs, options, &validator, clock);
    }
    let (mut module, link_report, name) =
        load_and_link(&mut inputs, &options.link, validator.runs)?;
    clock.lap("load");
    let in_file = |e: Error| Error::InFile {
        file: name.clone(),
        source: Box::new(e),
    };
    if link_report.is_none() && options.pass_through && !markers::may_have_markers(&module) {
        let run = Run::unindexed(module, numbering(options)).map_err(in_file)?;
        return finish(run, &inputs, options, &validator, clock);
    }
    let index = match indexed {
        Some(index) if link_report.is_none() => index,
        _ => {
            release_input_when_small(&mut module);
            Index::build(&module).map_err(in_file)?
        }
    };
    clock.lap("index");
    release_input_when_dense(&mut module, &index);
    let markers = markers::find_markers(&module, &index).map_err(in_file)?;
    clock.lap("find markers");
    // (What it read of the global section, again and again, too.)
    module.release_input(0..module.word_count());
    let map = specmap::build(
        &module,
        &index,
        &markers,
        numbering(options),
        options.spec_id_order,
    )
    .map_err(in_file)?;
    clock.lap("assign");
    let mut notes: Vec<Diagnostic> = link_report
        .iter()
        .flat_map(|r| r.notes.iter().cloned())
        .collect();
    notes.extend(spec_ids_in_use(&index, &map));
    notes.extend(
        map.default_conflicts
            .iter()
            .map(|c| Diagnostic::DefaultsDiffer {
                symbolic_id: c.symbolic_id.clone(),
                calls: c.calls.clone(),
            }),
    );
    let calls = markers.calls.len();
    let kernels = lower_and_clean(&mut module, &index, markers, &map, options, &mut clock)
        .map_err(in_file)?;
    let mut run = Run::edited(module, &index, map, calls, link_report);
    (run.kernels, run.notes) = (kernels, notes);
    finish(run, &inputs, options, &validator, clock)
}

/// The numbering the mode and layout ask for.
fn numbering(options: &Options) -> specmap::Numbering {
    match (options.mode, options.emulation_layout) {
        (SpecConstMode::Native, _) => specmap::Numbering::Native,
        (_, EmulationLayout::Aligned) => specmap::Numbering::EmulationAligned,
        (_, EmulationLayout::Packed) => specmap::Numbering::EmulationPacked,
    }
}

/// Per-step wall times, in order.
struct Clock {
    last: std::time::Instant,
    timings: Vec<(&'static str, std::time::Duration)>,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            last: std::time::Instant::now(),
            timings: Vec::new(),
        }
    }

    /// Records the time since the previous lap as step `name`.
    fn lap(&mut self, name: &'static str) {
        let now = std::time::Instant::now();
        self.timings.push((name, now - self.last));
        self.last = now;
    }
}

/// Whether `spirv-val` will run, found out once (finding out spawns it).
struct Validator {
    /// Why it cannot run, when it cannot (and validation is asked for).
    missing: Option<String>,
    /// It will run on the output (so the inputs are kept for the validation policy).
    runs: bool,
}

impl Validator {
    fn probe(validation: Validation) -> Validator {
        let missing = match validation {
            Validation::Never => None,
            Validation::Always | Validation::Strict | Validation::Auto => validate::unavailable(),
        };
        let runs = match validation {
            Validation::Never => false,
            Validation::Always | Validation::Strict => true,
            Validation::Auto => validate::validator_named() || missing.is_none(),
        };
        Validator { missing, runs }
    }
}

/// A single input read lazily whose prefix names no marker, when nothing asks to read it whole
/// (pass-through on, no validation): its output is a copy streamed from it, never read further.
fn stream_through(
    inputs: &mut [Input],
    options: &Options,
    validator: &Validator,
) -> Option<ModuleOutput> {
    let [one] = inputs else { return None };
    if !options.pass_through || validator.runs {
        return None;
    }
    match std::mem::replace(&mut one.data, InputData::Bytes(Vec::new())) {
        InputData::Lazy(prefix) => Some(ModuleOutput(OutputRepr::Streamed(
            std::cell::RefCell::new(Some((one.name.clone(), prefix))),
        ))),
        other => {
            one.data = other;
            None
        }
    }
}

/// Every word was read by now. The input's pages go, and go again behind each later pass, when
/// the memory built from here on would otherwise come on top of the whole input: when the
/// per-call tables come to a quarter of the module or more (a module dense with marker calls),
/// or when the module, the process's own memory and the tables together would pass twice the
/// module (a small module: the process's fixed part weighs on it; [`release_input_when_small`]
/// found that before the index). Otherwise keeping the pages saves the time of mapping them
/// again (on a 100 MB module, ~10% more system time).
fn release_input_when_dense(module: &mut Module, index: &Index) {
    let calls = markers::count_marker_calls(index).saturating_mul(PER_CALL_BYTES);
    module.set_releasing(calls >= module.word_count() || over_twice(module, calls));
    module.release_input(0..module.word_count());
}

/// Before the index: when the module, the process's own memory and the tables would pass twice
/// the module even without marker calls, the input's pages go now (the load read them all) and
/// behind the index's passes (see [`Index::build`]), so that the index's tables are not built on
/// top of the whole input (on an 8.5 MB module of real device code, the peak was 2.2 times the
/// module that way).
fn release_input_when_small(module: &mut Module) {
    module.set_releasing(over_twice(module, 0));
    module.release_input(0..module.word_count());
}

/// Whether the module, the process's own memory, the index's and the later stages' tables and
/// `per_call` bytes (what the marker calls add) together come to more than twice the module.
fn over_twice(module: &Module, per_call: usize) -> bool {
    let bytes = module.word_count().saturating_mul(4);
    // The index and the other per-instruction tables: ~0.6 of the module (peak RSS of a native
    // run on the 100 MB real-shaped bench modules: 1.6 times the input).
    let tables = (bytes / 5).saturating_mul(3);
    PROCESS_BYTES
        .saturating_add(per_call)
        .saturating_add(tables)
        > bytes
}

/// The note that new SpecIds skip those the input already uses (not for the ITT
/// instrumentation flag's SpecId alone, which DPC++ images carry and numbering never comes near).
fn spec_ids_in_use(index: &Index, map: &specmap::SpecMap) -> Option<Diagnostic> {
    let used = index
        .spec_ids
        .iter()
        .filter(|&&s| s != specmap::ITT_SPEC_ID)
        .count();
    (used > 0 && !map.constants.is_empty()).then_some(Diagnostic::SpecIdsInUse { count: used })
}

/// The `lower` and `cleanup` steps (when there are marker calls): lowers in the options' mode,
/// then removes the markers and applies the call-result replacements as cleanup counts uses.
/// Returns, in emulation, which argument of each kernel takes the buffer.
fn lower_and_clean(
    module: &mut Module,
    index: &Index,
    markers: markers::Markers,
    map: &specmap::SpecMap,
    options: &Options,
    clock: &mut Clock,
) -> Result<Option<Vec<lower::emulation::KernelBuffer>>> {
    if markers.functions.is_empty() {
        return Ok(None);
    }
    let mut kernels = None;
    let mut ids = IdAllocator::new(module);
    let mut intern = Intern::new(module, index);
    let repl = match options.mode {
        SpecConstMode::Native => {
            let kind = lower::native::ConstKind::Spec;
            lower::native::lower_native(module, &markers, map, &mut ids, &mut intern, kind)?
        }
        SpecConstMode::DefaultValues => {
            let kind = lower::native::ConstKind::Default;
            lower::native::lower_native(module, &markers, map, &mut ids, &mut intern, kind)?
        }
        SpecConstMode::Emulation => {
            kernels = Some(lower::emulation::lower_emulation(
                module,
                index,
                &markers,
                map,
                &mut ids,
                &mut intern,
            )?);
            lower::Replacements::default()
        }
    };
    ids.finish(module);
    // What lowering needed goes before cleanup's tables come (peak memory).
    drop(intern);
    clock.lap("lower");
    // (Cleanup drops the per-call data early.)
    cleanup::cleanup(module, index, markers, &repl)?;
    drop(repl);
    clock.lap("cleanup");
    Ok(kernels)
}

/// What the steps before validation made.
struct Run {
    output: ModuleOutput,
    /// The module declares the Kernel capability (for the validator's default environment).
    kernel: bool,
    input_released: bool,
    spec_map: specmap::SpecMap,
    calls: usize,
    kernels: Option<Vec<lower::emulation::KernelBuffer>>,
    link_report: Option<link::LinkReport>,
    /// Notes and warnings so far.
    notes: Vec<Diagnostic>,
}

impl Run {
    /// A lowered (or at least indexed) module.
    fn edited(
        module: Module,
        index: &Index,
        spec_map: specmap::SpecMap,
        calls: usize,
        link_report: Option<link::LinkReport>,
    ) -> Run {
        Run {
            kernel: (index.capabilities.iter())
                .any(|&(c, _)| c == spirv::Capability::Kernel as u32),
            input_released: module.releases_input(),
            output: ModuleOutput(OutputRepr::Edited(
                Box::new(module),
                (index.names_end, index.annotation_end, index.globals_end),
            )),
            spec_map,
            calls,
            kernels: None,
            link_report,
            notes: Vec::new(),
        }
    }

    /// A module that names no marker, passed through without being indexed: only the id checks
    /// the index makes are run on it.
    fn unindexed(module: Module, numbering: specmap::Numbering) -> Result<Run> {
        module::idcheck::check_module(&module)?;
        let kernel = module.declares_capability(spirv::Capability::Kernel);
        let output = ModuleOutput(OutputRepr::Unchanged(Box::new(module)));
        Ok(Run::unchanged(output, kernel, numbering))
    }

    /// A run that changes nothing (no marker): the input, an empty spec map. Its sidecars are
    /// empty in every mode (emulation lists kernels only when it lowers calls).
    fn unchanged(output: ModuleOutput, kernel: bool, numbering: specmap::Numbering) -> Run {
        Run {
            output,
            kernel,
            input_released: false,
            spec_map: specmap::SpecMap::new(numbering),
            calls: 0,
            kernels: None,
            link_report: None,
            notes: Vec::new(),
        }
    }
}

/// The `validate` and `sidecars` steps: the [`Output`] of a run.
fn finish(
    mut run: Run,
    inputs: &[Input],
    options: &Options,
    validator: &Validator,
    mut clock: Clock,
) -> Result<Output> {
    let validated_with = validate_output(
        &run.output,
        inputs,
        run.kernel,
        options,
        validator.missing.as_deref(),
        &mut run.notes,
    )?;
    clock.lap("validate");
    let mut out = Output {
        module: run.output,
        prop: Vec::new(),
        json: Vec::new(),
        mode: options.mode,
        spec_map: run.spec_map,
        calls: run.calls,
        kernels: run.kernels,
        link_report: run.link_report,
        validated_with,
        input_released: run.input_released,
        diagnostics: run.notes,
        timings: clock.timings,
    };
    out.fill_sidecars(options);
    Ok(out)
}

/// Loads one module, or loads and links several; returns the module, the link report and a name
/// for messages. A single input is taken out of `inputs`; linked inputs stay (for validation).
fn load_and_link(
    inputs: &mut [Input],
    options: &link::LinkOptions,
    keep_inputs: bool,
) -> Result<(Module, Option<link::LinkReport>, String)> {
    if let [one] = inputs {
        let module = one.take_module()?;
        return Ok((module, None, one.name.clone()));
    }
    let in_file = |name: &str| {
        let name = name.to_string();
        move |e: Error| Error::InFile {
            file: name.clone(),
            source: Box::new(e),
        }
    };
    // Each input is dropped once its instructions are in the linker, unless the output is to be
    // validated (the policy compares with the inputs).
    let mut linker = link::Linker::default();
    let mut big_endian = None;
    for input in inputs.iter_mut() {
        let module = input.take_module()?;
        let index = Index::build(&module).map_err(in_file(&input.name))?;
        linker.add(&link::LinkInput {
            name: &input.name,
            module: &module,
            index: &index,
        })?;
        big_endian.get_or_insert(module.big_endian);
        if keep_inputs {
            input.data = InputData::Module(Box::new(module));
        }
    }
    let (words, report) = linker.finish(options)?;
    let big_endian = big_endian.unwrap_or(false);
    let name = format!("the module linked from {} inputs", inputs.len());
    let module = Module::from_words(words, big_endian).map_err(in_file(&name))?;
    Ok((module, Some(report), name))
}

/// Runs spirv-val on the output as `options` say, with the policy for errors the input already
/// has (see [`validate`]); returns the target environment used, if it ran.
fn validate_output(
    output: &ModuleOutput,
    inputs: &[Input],
    kernel: bool,
    options: &Options,
    missing_validator: Option<&str>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Option<String>> {
    if matches!(options.validation, Validation::Never) {
        return Ok(None);
    }
    if let Some(why) = missing_validator {
        diagnostics.push(validate::when_unavailable(
            options.validation,
            why.to_string(),
            Validated::Output,
        )?);
        return Ok(None);
    }
    let module = match &output.0 {
        OutputRepr::Edited(m, _) | OutputRepr::Unchanged(m) => m,
        OutputRepr::Streamed(_) => {
            return Err(Error::PostCondition(
                "an output streamed from its input cannot be validated".into(),
            ))
        }
    };
    let env = options
        .target_env
        .clone()
        .unwrap_or_else(|| validate::default_target_env(module.version(), kernel));
    // A single input was taken out of `inputs`; its words are still the module's.
    let originals: Vec<std::borrow::Cow<[u8]>> = if inputs.len() == 1 {
        vec![std::borrow::Cow::Owned(module.original_bytes())]
    } else {
        inputs.iter().map(|i| i.bytes()).collect::<Result<_>>()?
    };
    let originals: Vec<&[u8]> = originals.iter().map(|b| b.as_ref()).collect();
    // Which instructions of input `k` lowering removed or rewrote (asked only when the output
    // fails as no input does): a single input was lowered in place; each of several is lowered
    // alone for this (a linked output's ids are not the inputs').
    // (An input passed through unchanged lost nothing: its control can still differ from it,
    // by the extensions other inputs bring.)
    let gone = |output: &ModuleOutput, same_ids: bool| match &output.0 {
        OutputRepr::Edited(m, _) => Some(validate::Lowered {
            gone: (0..m.len()).map(|i| !m.survives(i)).collect(),
            same_ids,
        }),
        OutputRepr::Unchanged(_) | OutputRepr::Streamed(_) => Some(validate::Lowered {
            gone: Vec::new(),
            same_ids,
        }),
    };
    let mut lowered = |k: usize| -> Option<validate::Lowered> {
        if inputs.len() == 1 {
            return gone(output, true);
        }
        let alone = Options {
            validation: Validation::Never,
            sidecars: false,
            ..options.clone()
        };
        let input = Input::from_bytes(inputs[k].name.clone(), originals[k].to_vec());
        gone(&process_owned(vec![input], &alone).ok()?.module, false)
    };
    let verdict = validate::check(&output.to_bytes()?, &originals, &env, &mut lowered)?;
    if options.validation == Validation::Strict {
        let error = match &verdict {
            validate::Verdict::Valid => None,
            validate::Verdict::InheritedFromInput(e) => Some(e.clone()),
            validate::Verdict::HiddenInInput { output, .. } => Some(output.clone()),
        };
        if let Some(e) = error {
            return Err(Error::Validation(format!(
                "the output fails spirv-val --target-env {env} (strict validation; the input fails too, so the error is not spec-link's): {e}"
            )));
        }
    }
    diagnostics.extend(verdict.warning(Validated::Output, &env));
    Ok(Some(env))
}
