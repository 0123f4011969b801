//! Device-code split: one module in, several device images out, as DPC++'s post-link step makes
//! them (docs/split.md).
//!
//! [`split`] runs, in order: load (and link several inputs, keeping their exports), index,
//! `graph::ModuleGraph` (once), entry points and groups (`group`), the check that no
//! `device_image_scope` device global is reached from two groups, then per image: extract
//! (`extract`), compute its property sets ([`crate::properties`]), then lower its spec
//! constants and validate it with the library pipeline ([`crate::process_owned`]'s, given the
//! image's index from the property sets; numbering from 0 per image). A last image that holds
//! the whole module unchanged (`extract::Extracted::Whole`) is the module itself, with its
//! index.

mod capabilities;
mod devicelib;
pub(crate) mod extract;
pub(crate) mod graph;
pub(crate) mod group;
mod validation;

pub use group::SplitMode;

use crate::diagnostic::{self, Diagnostic};
use crate::error::{Error, Result};
use crate::module::idhash::{IdMap, IdSet};
use crate::module::index::Index;
use crate::module::inst;
use crate::module::Module;
use crate::properties::{self, Carried, Emit, EntryKind, ImageEntry, PropertySet};
use crate::{Input, ModuleOutput, Options};
use std::cell::RefCell;
use validation::Validator;

/// Options of a split.
#[derive(Clone, Debug)]
pub struct SplitOptions {
    /// How kernels are grouped into images.
    pub mode: SplitMode,
    /// Write `[SYCL/kernel names]`.
    pub emit_kernel_names: bool,
    /// Write `[SYCL/program metadata]`.
    pub emit_program_metadata: bool,
    /// SYCL_EXTERNAL functions are entry points, imports and exports are listed.
    pub allow_dependencies: bool,
    /// The inputs' property sets (`--input-prop`), in input order (may be shorter).
    pub input_props: Vec<Vec<PropertySet>>,
    /// Where the bfloat16 device library's SPIR-V files are (`--device-lib-dir`): when the code
    /// uses the library, its images are appended (see the `devicelib` module).
    pub device_lib_dir: Option<std::path::PathBuf>,
}

/// One device image.
#[derive(Debug)]
#[non_exhaustive]
pub struct Image {
    /// `N` of its files (`OUT_N.spv`, `OUT_N.esimd.spv`).
    pub number: usize,
    /// Whether the image holds the ESIMD kernels (written as `OUT_N.esimd.spv`).
    pub esimd: bool,
    /// The image's module.
    pub module: ModuleOutput,
    /// Its entry points.
    pub entries: Vec<ImageEntry>,
    /// Its property sets (the `.prop` contents).
    pub property_sets: Vec<PropertySet>,
    /// Its spec constants.
    pub spec_map: crate::specmap::SpecMap,
    /// The mode its spec constants were lowered in.
    pub mode: crate::SpecConstMode,
    /// Emulation mode: which argument of each kernel takes the spec-constant buffer.
    pub kernels: Option<Vec<crate::lower::emulation::KernelBuffer>>,
    /// The target environment `spirv-val` ran with, if it ran.
    pub validated_with: Option<String>,
}

impl Image {
    /// The symbol table (`.sym`): entry-point names, one per line.
    pub fn symbols(&self) -> String {
        self.entries
            .iter()
            .map(|e| format!("{}\n", e.name))
            .collect()
    }

    /// The `.prop` text.
    pub fn prop(&self) -> Vec<u8> {
        properties::text::write(&self.property_sets)
    }

    /// The image's spec-constant sidecar in the unsplit format (`spec-link-sidecar/1`: what
    /// `--json` writes for one module), e.g. to set an emulation buffer.
    pub fn write_spec_json<W: std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        let replaced = self.mode == crate::SpecConstMode::DefaultValues;
        crate::sidecar::json::write_to(
            w,
            &self.spec_map,
            self.mode.as_str(),
            &crate::sidecar::Sets::new(&self.spec_map, replaced),
            self.kernels.as_deref(),
            None,
        )
    }
}

/// What a split produces.
#[derive(Debug)]
#[non_exhaustive]
pub struct SplitOutput {
    /// The device images, in order.
    pub images: Vec<Image>,
    /// Notes and warnings (e.g. a validation error inherited from the input), each said once.
    pub diagnostics: Vec<Diagnostic>,
}

/// What [`load`] gives: the module, a name for messages, the input each kernel or exported
/// function name came from (by [`name_key`]), and the linker's report (its notes, the SpecIds it
/// renumbered).
type Loaded = (Module, String, IdMap<u64, usize>, crate::link::LinkReport);

/// Loads the inputs and links several (exports kept).
fn load(mut inputs: Vec<Input>, options: &Options) -> Result<Loaded> {
    let mut origin: IdMap<u64, usize> = IdMap::default();
    if inputs.len() == 1 {
        let module = inputs[0].take_module()?;
        return Ok((module, inputs[0].name.clone(), origin, Default::default()));
    }
    let mut linker = crate::link::Linker::default();
    let mut big_endian = None;
    for (k, input) in inputs.iter_mut().enumerate() {
        let module = input.take_module()?;
        let in_file = |e: Error| Error::InFile {
            file: input.name.clone(),
            source: Box::new(e),
        };
        let index = Index::build(&module).map_err(in_file)?;
        for name in index.entry_names.values() {
            origin.entry(name_key(name)).or_insert(k);
        }
        for l in index.linkage.values().filter(|l| l.kind == 0) {
            origin.entry(name_key(&l.name)).or_insert(k);
        }
        linker.add(&crate::link::LinkInput {
            name: &input.name,
            module: &module,
            index: &index,
        })?;
        big_endian.get_or_insert(module.big_endian);
    }
    let link_options = crate::link::LinkOptions {
        create_library: true,
        ..options.link
    };
    let (words, report) = linker.finish(&link_options)?;
    let name = format!("the module linked from {} inputs", inputs.len());
    let module =
        Module::from_words(words, big_endian.unwrap_or(false)).map_err(|e| Error::InFile {
            file: name.clone(),
            source: Box::new(e),
        })?;
    Ok((module, name, origin, report))
}

/// The inputs of the code, with their `--input-prop` files, and the inputs that are the bfloat16
/// device library, set apart (see [`set_libraries_apart`]).
type SetApart = (Vec<Input>, Vec<Vec<PropertySet>>, Vec<devicelib::Library>);

/// A warning for each input whose property sets name kernels (`[SYCL/kernel param opt]`,
/// `[SYCL/kernel names]`) none of which is one of its entry points: a file given for the wrong
/// input, whose per-kernel properties then apply to nothing.
fn warn_of_other_modules_props(
    carried: &Carried,
    entries: &[group::Entry],
    input_names: &[String],
    notes: &mut Vec<Diagnostic>,
) {
    for (k, name) in input_names.iter().enumerate() {
        let named: Vec<&str> = [properties::KERNEL_PARAM_OPT, properties::KERNEL_NAMES]
            .iter()
            .filter_map(|set| carried.set(k, set))
            .flat_map(|set| set.properties.iter().map(|(n, _)| n.as_str()))
            .collect();
        let names_ours = entries
            .iter()
            .any(|e| e.input == k && named.contains(&e.name.as_str()));
        if !named.is_empty() && !names_ours {
            diagnostic::push_once(
                notes,
                Diagnostic::InputPropNamesOtherKernels {
                    input: name.clone(),
                },
            );
        }
    }
}

/// A warning for each input whose property file (`--input-prop`) describes spec constants whose
/// SpecIds the module does not hold (another module's file, or a module not lowered: the images
/// carry only the constants whose `OpSpecConstant`s they hold, see
/// [`properties::spec_constants`]).
fn warn_of_spec_constants_not_held(
    carried: &Carried,
    index: &Index,
    input_names: &[String],
    notes: &mut Vec<Diagnostic>,
) {
    for (k, name) in input_names.iter().enumerate() {
        let Some(names) = carried.spec_names(k) else {
            continue;
        };
        let missing = (names.constants.iter())
            .filter(|c| !c.held_by(&index.spec_ids))
            .count();
        if missing > 0 {
            diagnostic::push_once(
                notes,
                Diagnostic::SpecConstantsNotHeld {
                    input: name.clone(),
                    count: missing,
                },
            );
        }
    }
}

/// The inputs' property sets with the SpecIds linking renumbered (`--renumber-spec-ids`) given
/// their linked numbers in `[SYCL/specialization constants]`, so that they name the module's.
fn renumber_spec_ids(
    mut sets: Vec<Vec<PropertySet>>,
    input_names: &[String],
    renumbered: &[crate::link::Renumbered],
) -> Vec<Vec<PropertySet>> {
    for (k, name) in input_names.iter().enumerate() {
        let map: IdMap<u32, u32> = (renumbered.iter())
            .filter(|r| r.input == *name)
            .map(|r| (r.from, r.to))
            .collect();
        let Some(input_sets) = sets.get_mut(k).filter(|_| !map.is_empty()) else {
            continue;
        };
        for set in input_sets
            .iter_mut()
            .filter(|s| s.name == crate::sidecar::SPEC_CONSTANTS)
        {
            for (_, value) in set.properties.iter_mut() {
                let properties::Value::Bytes { data, .. } = value else {
                    continue;
                };
                for triple in data.chunks_exact_mut(12) {
                    let id = u32::from_le_bytes([triple[0], triple[1], triple[2], triple[3]]);
                    if let Some(&to) = map.get(&id) {
                        triple[..4].copy_from_slice(&to.to_le_bytes());
                    }
                }
            }
        }
    }
    sets
}

/// The inputs that are the bfloat16 device library, set apart from the others (with their
/// `--input-prop` files), in input order; an error if nothing else is left.
fn set_libraries_apart(inputs: Vec<Input>, input_props: &[Vec<PropertySet>]) -> Result<SetApart> {
    let mut code = Vec::new();
    let mut props = Vec::new();
    let mut libraries = Vec::new();
    for (k, mut input) in inputs.into_iter().enumerate() {
        let kind = devicelib::library_kind(input.load()?);
        match kind {
            Some(native) => libraries.push(devicelib::Library {
                module: input.take_module()?,
                name: input.name,
                native,
            }),
            None => {
                code.push(input);
                props.extend(input_props.get(k).cloned());
            }
        }
    }
    if code.is_empty() {
        return Err(Error::Unsupported(
            "every input is the bfloat16 device library: there is no code to split".into(),
        ));
    }
    Ok((code, props, libraries))
}

/// The device libraries whose images follow the split's: those given as inputs, else those in
/// `--device-lib-dir`, when the code uses them (else none, with a note).
fn libraries_used(
    given: Vec<devicelib::Library>,
    index: &Index,
    split: &SplitOptions,
    notes: &mut Vec<Diagnostic>,
) -> Result<Vec<devicelib::Library>> {
    if !devicelib::uses_bf16(index) {
        for library in given {
            diagnostic::push_once(
                notes,
                Diagnostic::DeviceLibraryUnused {
                    input: library.name,
                },
            );
        }
        return Ok(Vec::new());
    }
    if !given.is_empty() {
        return Ok(given);
    }
    match &split.device_lib_dir {
        Some(dir) => devicelib::from_dir(dir),
        None => {
            diagnostic::push_once(notes, Diagnostic::DeviceLibraryNotGiven);
            Ok(Vec::new())
        }
    }
}

/// A hash of a symbol name (for the name → input map).
fn name_key(name: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut h);
    h.finish()
}

/// Splits the inputs into device images (see the module docs), all held in the output.
pub fn split(inputs: Vec<Input>, options: &Options, split: &SplitOptions) -> Result<SplitOutput> {
    let mut images = Vec::new();
    let diagnostics = split_each(inputs, options, split, &mut |image| {
        images.push(image);
        Ok(())
    })?;
    Ok(SplitOutput {
        images,
        diagnostics,
    })
}

/// [`split`] handing each image to `each` as soon as it is made (in image order), so that
/// images need not all be in memory at once; returns the notes and warnings. An error from
/// `each` ends the split with that error. An image reaches `each` while spirv-val may still be
/// validating it (see `validation`): when the split returns an error, the images `each` took
/// are not to be used (the CLI writes every file beside its destination and renames them into
/// place only once the split has returned).
pub fn split_each(
    inputs: Vec<Input>,
    options: &Options,
    split: &SplitOptions,
    each: &mut dyn FnMut(Image) -> Result<()>,
) -> Result<Vec<Diagnostic>> {
    if inputs.is_empty() {
        return Err(Error::Unsupported("no input module".into()));
    }
    let (inputs, input_props, libraries) = set_libraries_apart(inputs, &split.input_props)?;
    let input_count = inputs.len();
    let input_names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    let (mut module, name, origin, report) = load(inputs, options)?;
    let mut notes = report.notes;
    let wrap = |e: Error| Error::InFile {
        file: name.clone(),
        source: Box::new(e),
    };
    // (Indexed with its pages kept: the passes after the index read the whole module again.)
    let index = Index::build(&module).map_err(wrap)?;
    let libraries = libraries_used(libraries, &index, split, &mut notes)?;
    // (Only the last image's extraction gives pages back, behind its copy: see ImagePlan::last.)
    module.set_releasing(true);
    let (mut aux, aux_warnings) = properties::auxdata::AuxData::read(&module, &index);
    aux.follow_kernel_bodies(&index);
    let mut graph = graph::ModuleGraph::build(&module, &index);
    graph.leave_out(aux.dropped());
    let input_of = |n: &str| origin.get(&name_key(n.as_bytes())).copied().unwrap_or(0);
    let entries = group::entries(&module, &index, &graph, split.allow_dependencies, &input_of);
    let mut carried = Carried {
        inputs: renumber_spec_ids(input_props, &input_names, &report.renumbered),
        matrix_kernel: group::single_matrix_kernels(&module, &index, &graph, &entries, input_count),
        aux,
        opt_level: properties::misc::source_opt_level(&module, &index),
        id_queries_range: properties::misc::source_id_queries_range(&module, &index),
        local_memory: properties::local_args::source_local_memory(&module, &index),
        spec_names: Vec::new(),
        by_name: Vec::new(),
    };
    carried.index_inputs();
    warn_of_other_modules_props(&carried, &entries, &input_names, &mut notes);
    warn_of_spec_constants_not_held(&carried, &index, &input_names, &mut notes);
    let (groups, planned) = group::plan(&module, &index, &graph, &carried, &entries, split.mode);
    if split.mode != SplitMode::Off {
        check_device_image_scope(&module, &index, &graph, &entries, &groups)?;
    }
    let virtual_ids: IdSet<u32> = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Virtual)
        .map(|e| e.id)
        .collect();
    let exported_ids: IdSet<u32> = entries
        .iter()
        .filter(|e| e.kind == EntryKind::Exported)
        .map(|e| e.id)
        .collect();
    let image_options = Options {
        sidecars: false,
        validation: crate::Validation::Never,
        ..options.clone()
    };
    let validator = Validator::new(options, &module, &index)?;
    let emit = Emit {
        kernel_names: split.emit_kernel_names,
        program_metadata: split.emit_program_metadata,
        allow_dependencies: split.allow_dependencies,
        split_off: split.mode == SplitMode::Off,
    };
    let mut finisher = Finisher {
        name: &name,
        big_endian: module.big_endian,
        input_count,
        input_names: &input_names,
        image_options,
        carried: &carried,
        emit,
        validator,
        notes: RefCell::new(Vec::new()),
        warnings: aux_warnings,
        lowering_notes: Vec::new(),
        bound_is_sane: index.defs.is_dense(),
    };
    // The images are made while the ones before are validated: an error on the way is the
    // first failing validation's, if an image before it fails (see `validation`).
    let make_images = || -> Result<()> {
        let mut extractor = extract::Extractor::new(&module, &index, &graph);
        let first_library_number = planned.iter().map(|p| p.number + 1).max().unwrap_or(0);
        let mut last = None;
        for (k, plan) in planned.iter().enumerate() {
            let ids: Vec<u32> = plan.entries.iter().map(|&k| entries[k].id).collect();
            let own: IdSet<u32> = ids.iter().copied().collect();
            let defines_virtual = plan
                .entries
                .iter()
                .any(|&k| entries[k].kind == EntryKind::Virtual);
            // Written as declarations: ESIMD functions in a SYCL image, virtual functions in an
            // image that defines none, and SYCL_EXTERNAL functions of other images (imported).
            let declared = |f: u32| {
                !own.contains(&f)
                    && ((!plan.esimd && graph.esimd.contains(&f))
                        || (!defines_virtual && virtual_ids.contains(&f))
                        || exported_ids.contains(&f))
            };
            let extracted = extractor.extract(&extract::ImagePlan {
                entries: &ids,
                extra: &[],
                declared: &declared,
                last: k + 1 == planned.len(),
            });
            if k + 1 == planned.len() {
                last = Some((plan, extracted));
                break;
            }
            let extract::Extracted::Assembled { words, origin } = extracted else {
                return Err(Error::PostCondition(
                    "an image before the last was taken as the whole module".into(),
                ));
            };
            finisher.finish(plan, &entries, ImageModule::Assembled(words, origin), each)?;
        }
        // The last image (the only one with `off`) is lowered without the module it came from in
        // memory, unless it is that module.
        drop(extractor);
        drop(graph);
        match last {
            Some((plan, extract::Extracted::Whole)) => {
                finisher.finish(
                    plan,
                    &entries,
                    ImageModule::Source(Box::new((module, index))),
                    each,
                )?;
            }
            Some((plan, extract::Extracted::Assembled { words, origin })) => {
                drop((index, module));
                finisher.finish(plan, &entries, ImageModule::Assembled(words, origin), each)?;
            }
            None => drop((index, module)),
        }
        for (k, library) in libraries.into_iter().enumerate() {
            finisher.finish_library(first_library_number + k, library, each)?;
        }
        Ok(())
    };
    let made = make_images();
    let validated = finisher.validator.finish(&mut finisher.warnings);
    validated?;
    made?;
    let Finisher {
        validator,
        notes: notes_cell,
        warnings,
        lowering_notes,
        ..
    } = finisher;
    for n in lowering_notes {
        diagnostic::push_once(&mut notes, n);
    }
    notes.extend(validator.note);
    for n in notes_cell.into_inner() {
        diagnostic::push_once(&mut notes, n);
    }
    for w in warnings {
        diagnostic::push_once(&mut notes, w);
    }
    Ok(notes)
}

/// The module of an image, as [`Finisher::finish`] takes it.
enum ImageModule {
    /// Extracted: its words, and the module's instruction each of its instructions came from
    /// (see [`extract::Extracted::Assembled`]).
    Assembled(Vec<u32>, Vec<u32>),
    /// The split's module itself, with its index: the image holds every instruction of it,
    /// unchanged and in order (see [`extract::Extracted::Whole`]), so it is neither copied nor
    /// indexed again (a one-image split of a module whose code every kernel reaches).
    Source(Box<(Module, Index)>),
}

/// What turns an extracted image into an [`Image`]: lowering, validation, property sets.
struct Finisher<'a> {
    name: &'a str,
    big_endian: bool,
    input_count: usize,
    input_names: &'a [String],
    image_options: Options,
    carried: &'a Carried,
    emit: Emit,
    validator: Validator,
    notes: RefCell<Vec<Diagnostic>>,
    warnings: Vec<Diagnostic>,
    lowering_notes: Vec<Diagnostic>,
    /// Whether the source's id bound was small enough next to its size for a table indexed by
    /// id: then its images' is too (they keep its ids), however small they are.
    bound_is_sane: bool,
}

impl Finisher<'_> {
    /// The image's sets without the spec-constant sets carried from its inputs' files when the
    /// image's own lowering found spec constants too (a module lowered in part): its sets then
    /// describe only those, with a warning naming the inputs whose constants are left out.
    fn without_carried_spec_constants(
        &mut self,
        mut sets: Vec<PropertySet>,
        lowered: &crate::Output,
        inputs: &[usize],
    ) -> Vec<PropertySet> {
        let is_spec = |s: &PropertySet| {
            s.name == crate::sidecar::SPEC_CONSTANTS
                || s.name == crate::sidecar::SPEC_CONSTANTS_DEFAULT_VALUES
        };
        if lowered.spec_map.constants.is_empty() || !sets.iter().any(is_spec) {
            return sets;
        }
        sets.retain(|s| !is_spec(s));
        for &k in inputs {
            if self
                .carried
                .set(k, crate::sidecar::SPEC_CONSTANTS)
                .is_some()
            {
                let input = self.input_names.get(k).cloned().unwrap_or_default();
                diagnostic::push_once(
                    &mut self.warnings,
                    Diagnostic::SpecConstantsNotCarried { input },
                );
            }
        }
        sets
    }

    /// Computes the image's property sets, lowers its spec constants, validates it and hands it
    /// to `each`.
    fn finish(
        &mut self,
        plan: &group::Planned,
        entries: &[group::Entry],
        image: ImageModule,
        each: &mut dyn FnMut(Image) -> Result<()>,
    ) -> Result<()> {
        let image_name = format!(
            "image {}{} of {}",
            plan.number,
            if plan.esimd { " (ESIMD)" } else { "" },
            self.name
        );
        let in_image = |e: Error| Error::InFile {
            file: image_name.clone(),
            source: Box::new(e),
        };
        // The property sets but the spec constants' are computed first; then the image is lowered
        // with the same index (the image is not changed in between).
        let (image_module, image_index, origin) = match image {
            ImageModule::Assembled(words, origin) => {
                let (words, origin) = capabilities::prune(words, origin, plan.esimd);
                let mut image_module =
                    Module::from_words(words, self.big_endian).map_err(in_image)?;
                // (Assembled here from the checked source, whose bound passed the size rule.)
                if self.bound_is_sane {
                    image_module.trust_bound();
                }
                let image_index = Index::build_assembled(&image_module).map_err(in_image)?;
                (image_module, image_index, Some(origin))
            }
            ImageModule::Source(source) => {
                let (module, index) = *source;
                (module, index, None)
            }
        };
        let image_entries: Vec<ImageEntry> = plan
            .entries
            .iter()
            .map(|&k| ImageEntry {
                id: entries[k].id,
                name: entries[k].name.clone(),
                kind: entries[k].kind,
                input: entries[k].input,
            })
            .collect();
        let mut inputs_of_image: Vec<usize> = image_entries.iter().map(|e| e.input).collect();
        inputs_of_image.sort_unstable();
        inputs_of_image.dedup();
        if inputs_of_image.is_empty() {
            inputs_of_image = (0..self.input_count).collect();
        }
        let base_sets = {
            let facts = properties::ImageFacts::build(&image_module, &image_index);
            properties::compute(&properties::ImageContext {
                module: &image_module,
                index: &image_index,
                facts: &facts,
                entries: &image_entries,
                esimd: plan.esimd,
                spec: None,
                carried: self.carried,
                emit: self.emit,
                inputs: &inputs_of_image,
                notes: &self.notes,
            })
        };
        let lowered = crate::pipeline::process_indexed(
            Input::from_module(image_name.clone(), image_module),
            image_index,
            &self.image_options,
        )?;
        let validated_with =
            self.validator
                .start(&image_name, &lowered.module, origin, &mut self.warnings)?;
        let replaced = lowered.mode == crate::SpecConstMode::DefaultValues;
        let base_sets = self.without_carried_spec_constants(base_sets, &lowered, &inputs_of_image);
        let property_sets = properties::with_spec_constants(base_sets, &lowered.spec_map, replaced);
        for d in lowered.diagnostics {
            match d.severity() {
                diagnostic::Severity::Note => self.lowering_notes.push(d),
                diagnostic::Severity::Warning => self.warnings.push(d),
            }
        }
        each(Image {
            number: plan.number,
            esimd: plan.esimd,
            module: lowered.module,
            entries: image_entries,
            property_sets,
            spec_map: lowered.spec_map,
            mode: lowered.mode,
            kernels: lowered.kernels,
            validated_with,
        })
    }
}

impl Finisher<'_> {
    /// Hands a device library's image to `each` as image `number` (the library unchanged, see
    /// [`devicelib`]), validated as the split's images are (an error it has itself is a
    /// warning, as for any input).
    fn finish_library(
        &mut self,
        number: usize,
        library: devicelib::Library,
        each: &mut dyn FnMut(Image) -> Result<()>,
    ) -> Result<()> {
        let property_sets = devicelib::property_sets(&library)?;
        // (In the environment of its own version unless one was given: a library's version
        // need not be the code's.)
        let version = library.module.version();
        let env = self
            .validator
            .env
            .as_ref()
            .map(|env| match self.validator.env_given {
                true => env.clone(),
                false => crate::validate::default_target_env(version, true),
            });
        let module = ModuleOutput(crate::io::output::OutputRepr::Unchanged(Box::new(
            library.module,
        )));
        if let Some(env) = &env {
            let bytes = module.to_bytes()?;
            let verdict = crate::validate::check(&bytes, &[&bytes], env, &mut |_| None)?;
            self.warnings
                .extend(verdict.warning(diagnostic::Validated::Image, env));
        }
        each(Image {
            number,
            esimd: false,
            module,
            entries: Vec::new(),
            property_sets,
            spec_map: crate::specmap::SpecMap::default(),
            mode: self.image_options.mode,
            kernels: None,
            validated_with: env,
        })
    }
}

/// DPC++'s `verifyNoCrossModuleDeviceGlobalUsage`: a `device_image_scope` device global used by
/// functions reached from the entry points of two groups is an error.
fn check_device_image_scope(
    module: &Module,
    index: &Index,
    graph: &graph::ModuleGraph,
    entries: &[group::Entry],
    groups: &[Vec<usize>],
) -> Result<()> {
    if groups.len() < 2 {
        return Ok(());
    }
    let scoped: Vec<properties::device_globals::DeviceGlobal> =
        properties::device_globals::device_globals(module, index)
            .into_iter()
            .filter(|g| g.image_scope)
            .collect();
    if scoped.is_empty() {
        return Ok(());
    }
    let scoped_ids: IdSet<u32> = scoped.iter().map(|g| g.id).collect();
    let mut used_by: IdMap<u32, usize> = IdMap::default();
    let mut errors = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let mut seen_functions: IdSet<usize> = IdSet::default();
        let mut seen_globals: IdSet<u32> = IdSet::default();
        let mut vars: IdSet<u32> = IdSet::default();
        for &k in group {
            for f in group::reached_functions(index, graph, entries[k].function) {
                if !seen_functions.insert(f) {
                    continue;
                }
                // The function's uses, through constants that refer to variables too.
                let mut stack: Vec<u32> = graph.deps[f].clone();
                while let Some(id) = stack.pop() {
                    if index.function_by_id.contains_key(&id) || !seen_globals.insert(id) {
                        continue;
                    }
                    if scoped_ids.contains(&id) {
                        vars.insert(id);
                        continue;
                    }
                    if let Some(w) = index.defs.get(&id).and_then(|d| module.inst(d)) {
                        // (Debug information is not a use, as in LLVM: a record can name a
                        // global, through a parameter's number llvm-spirv writes as a literal
                        // where ids stand, or a template argument's value.)
                        if !index.is_debug_record(w) && !inst::is(w, spirv::Op::Variable) {
                            index.visit_use_ids(module, w, |u| stack.push(u));
                        }
                    }
                }
            }
        }
        for v in vars {
            match used_by.get(&v) {
                Some(&other) if other != g => {
                    if let Some(dg) = scoped.iter().find(|d| d.id == v) {
                        let message = format!(
                            "device_global variable '{}' with property \"device_image_scope\" is used in more than one device image.",
                            dg.name
                        );
                        if !errors.contains(&message) {
                            errors.push(message);
                        }
                    }
                }
                Some(_) => {}
                None => {
                    used_by.insert(v, g);
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error::Split(errors.join("\n")))
    }
}
