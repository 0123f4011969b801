//! spec-link: the link-stage work a SYCL compiler does for specialization constants, done on
//! SPIR-V binaries. It links several modules into one, lowers the SYCL 2020 spec-constant marker
//! calls (to SPIR-V spec constants, to loads from an emulation buffer, or to their default
//! values), splits a module into device images (per kernel, per source), describes a module
//! (kernels, spec constants, what lowering would do), specializes a lowered module to given
//! values, and writes the property sets DPC++'s runtime reads (`.prop`) and a JSON sidecar.
//!
//! ```
//! use spec_link::{process, Input, Options, Validation};
//!
//! // A module with two spec constants (a `float3` and an `int`) compiled by clang and
//! // llvm-spirv, with SYCL 2020 marker calls.
//! let bytes = include_bytes!("../testdata/clang-float3/input.spv").to_vec();
//! let out = process(
//!     &[Input::from_bytes("input.spv", bytes)],
//!     &Options { validation: Validation::Never, ..Default::default() },
//! )?;
//! // The lowered module: `OpSpecConstant`s with SpecIds instead of marker calls.
//! let module: Vec<u8> = out.module.to_bytes()?;
//! assert_eq!(module[..4], 0x0723_0203u32.to_le_bytes());
//! assert_eq!(out.calls, 2);
//! // The property sets the runtime reads: one entry per symbolic name.
//! let prop = String::from_utf8_lossy(&out.prop);
//! assert!(prop.starts_with("[SYCL/specialization constants]\n"));
//! # Ok::<(), spec_link::Error>(())
//! ```
//!
//! Entry points:
//! - [`process`] and [`process_owned`] (taking the inputs by value): load, link (several
//!   inputs), lower, validate; the result is an [`Output`] (module, `.prop`, JSON).
//! - [`split::split`] and [`split::split_each`] (one image at a time): the same, then split into
//!   device images with their property sets.
//! - [`info::analyse`]: what a module holds and what lowering would produce.
//! - [`specialize::run`]: replace a lowered module's spec constants by given values.
//! - [`properties::text`]: read and write `.prop` text ([`properties::text::read`],
//!   [`properties::text::write`]).
//! - [`sidecar::contract`]: the JSON sidecar as `serde` types ([`sidecar::contract::Sidecar`]).
//!
//! Validation with `spirv-val` is off unless asked for: [`Options::default()`] has
//! [`Validation::Never`]; [`Validation::Auto`], [`Validation::Always`] and
//! [`Validation::Strict`] run it (the command line uses `Auto` unless told otherwise).
//!
//! [`process`] runs the named steps in order:
//! 1. `load` — bytes → `module::Module` (words + index, either byte order);
//! 2. `find markers` — `markers::find_markers`;
//! 3. `assign` — `specmap::build`: SpecIds, descriptors, default bytes;
//! 4. `lower` — `lower::native::lower_native` (its call-result replacements are applied by
//!    cleanup's use count);
//! 5. `cleanup` — `cleanup::cleanup` (post-condition: no marker survives);
//! 6. `validate` — `spirv-val` on the output (see [`Validation`]);
//! 7. `sidecars` — the `.prop` and JSON sidecars in memory when [`Options::sidecars`] asks for
//!    them; [`Output::write_prop`] and [`Output::write_json`] write them one property at a time
//!    instead (the command line does). The module is never built: [`ModuleOutput`] writes it from
//!    the input's words and the edits.
//!
//! Library code never prints and never exits; the binary does.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![warn(missing_docs)]

pub(crate) mod cleanup;
pub(crate) mod error;
pub mod info;
pub(crate) mod layout;
pub mod link;
pub(crate) mod lower;
pub mod properties;
pub mod sidecar;
pub mod specialize;
pub mod split;

/// Not part of the API: the stage benchmark's and the fuzz targets' view of the pipeline's stages
/// (the `internals` feature, off by default).
#[cfg(feature = "internals")]
pub mod internals;
pub(crate) mod markers;
pub(crate) mod module;
pub(crate) mod specmap;
pub(crate) mod validate;

pub use error::{Error, Result};
pub use lower::emulation::KernelBuffer;
pub use markers::SymbolicId;
pub use specmap::{Descriptor, SpecConstant, SpecMap};

use module::ids::IdAllocator;
use module::index::Index;
use module::intern::Intern;
use module::Module;

/// How marker calls are lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecConstMode {
    /// SPIR-V spec constants with SpecIds.
    Native,
    /// Loads from a buffer passed to the kernel.
    Emulation,
    /// The default values as ordinary constants.
    DefaultValues,
}

/// Layout of the emulation buffer (and of the default-values mode's sidecar).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EmulationLayout {
    /// Each constant at the next multiple of its alignment (DPC++ today).
    #[default]
    Aligned,
    /// No padding; loads use `Aligned 1` (seed 000's layout).
    Packed,
}

/// The order in which new spec constants get their SpecIds (and, in emulation, their place in
/// the buffer). Either order is self-consistent: the runtime reads SpecIds and offsets from the
/// property sets, never assumes an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SpecIdOrder {
    /// First use: functions in module order, calls in instruction order (dpcpp-reference §10).
    #[default]
    FirstUse,
    /// DPC++'s order: marker declarations in module order, and each declaration's calls last
    /// first (the LLVM use-list order `SpecConstantsPass` walks, as it comes out of DPC++'s
    /// front end and translator). Gives DPC++ 2026.2's property sets byte for byte on the images
    /// in `testdata/dpcpp/`.
    Dpcpp,
}

impl SpecConstMode {
    /// The mode's command-line spelling (`native`, `emulation`, `default-values`).
    pub fn as_str(self) -> &'static str {
        match self {
            SpecConstMode::Native => "native",
            SpecConstMode::Emulation => "emulation",
            SpecConstMode::DefaultValues => "default-values",
        }
    }
}

/// When to run `spirv-val` on the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validation {
    /// When `spirv-val` is on PATH.
    Auto,
    /// Always; a missing `spirv-val` is an error. An output that fails as its input does is
    /// written with a warning (see the validation policy in `docs/`).
    Always,
    /// Always; any `spirv-val` error in the output is an error, inherited from the input or not.
    Strict,
    /// Never.
    Never,
}

/// Options of one run.
#[derive(Clone, Debug)]
pub struct Options {
    /// How marker calls are lowered.
    pub mode: SpecConstMode,
    /// Layout of the emulation buffer (emulation and default-values modes).
    pub emulation_layout: EmulationLayout,
    /// The order in which new spec constants get their SpecIds.
    pub spec_id_order: SpecIdOrder,
    /// When to run `spirv-val` on the output ([`Validation::Never`] by default).
    pub validation: Validation,
    /// `--target-env` for spirv-val; derived from the module when `None`.
    pub target_env: Option<String>,
    /// How several inputs are linked.
    pub link: link::LinkOptions,
    /// Build the `.prop` and JSON sidecars in memory (`Output::prop`/`json` stay empty otherwise;
    /// [`Output::write_prop`] and [`Output::write_json`] write them either way).
    pub sidecars: bool,
    /// A single module that names no marker is written back unchanged without being indexed
    /// (copied by the kernel when it is a file). Off: every module is indexed and searched,
    /// so that a malformed one is reported (a valid one gives the same bytes either way).
    pub pass_through: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: SpecConstMode::Native,
            emulation_layout: EmulationLayout::Aligned,
            spec_id_order: SpecIdOrder::FirstUse,
            validation: Validation::Never,
            target_env: None,
            link: link::LinkOptions::default(),
            sidecars: true,
            pass_through: true,
        }
    }
}

/// One input module: bytes to be parsed by [`process`], or a module already read into words by
/// [`Input::read`] (no copy of its bytes is ever held).
pub struct Input {
    /// File name for messages (`-` or `<stdin>` for standard input).
    pub name: String,
    data: InputData,
}

enum InputData {
    Bytes(Vec<u8>),
    Module(Box<Module>),
    /// Only the prefix was read: it names no marker ([`Input::read_lazily`]).
    Lazy(Box<module::stream::Prefix>),
    /// A file not opened yet ([`Input::open`] of one of several inputs: each is opened when the
    /// linker takes it, so that they are not all in memory at once).
    Deferred(std::path::PathBuf),
}

/// Input files smaller than this are read into memory rather than mapped (when read whole, not
/// lazily: see [`Input::open`]).
const MAP_MIN_BYTES: u64 = 256 << 10;

impl Input {
    /// An input from its bytes (parsed, and any error reported, by [`process`]).
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Input {
        Input {
            name: name.into(),
            data: InputData::Bytes(bytes),
        }
    }

    /// An input already read into a module.
    pub(crate) fn from_module(name: impl Into<String>, module: Module) -> Input {
        Input {
            name: name.into(),
            data: InputData::Module(Box::new(module)),
        }
    }

    /// Reads a module from `reader` straight into words; `size_hint` (e.g. the file's length)
    /// avoids regrowing. Errors: the read's (as [`Error::Io`]) and the module's (as [`Error::InFile`]).
    pub fn read(
        name: impl Into<String>,
        reader: &mut impl std::io::Read,
        size_hint: Option<u64>,
    ) -> Result<Input> {
        let name = name.into();
        let module = Module::read_from(reader, size_hint)
            .map_err(|e| Error::Io {
                path: name.clone(),
                source: e,
            })?
            .map_err(|e| Error::InFile {
                file: name.clone(),
                source: Box::new(e),
            })?;
        Ok(Input {
            name,
            data: InputData::Module(Box::new(module)),
        })
    }

    /// Like [`Input::read`], but a module whose prefix names no marker is not read further:
    /// if [`process`] passes it through, its rest is copied from the reader to the output by
    /// [`ModuleOutput::write_to`] without being held in memory (see [`module::stream`]).
    pub fn read_lazily(
        name: impl Into<String>,
        reader: Box<dyn std::io::Read + Send>,
        size_hint: Option<u64>,
    ) -> Result<Input> {
        Self::lazily(name.into(), reader, size_hint, None)
    }

    /// Opens a module file: mapped rather than read when the file is a little-endian module on a
    /// little-endian host ([`Module::map_file`]; without `lazily`, only from 256 KiB up: a small
    /// file is cheaper to read), read otherwise; with `lazily`, only its prefix is looked at (in
    /// the mapping, or read as [`Input::read_lazily`] does): a module without markers is then
    /// neither split nor indexed, and [`ModuleOutput::write_to_file`] has the kernel copy it.
    pub fn open(path: &std::path::Path, lazily: bool) -> Result<Input> {
        let name = path.display().to_string();
        let io = |e| Error::Io {
            path: name.clone(),
            source: e,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if lazily {
            let reader = file.try_clone().map_err(io)?;
            return Self::lazily(name.clone(), Box::new(reader), Some(size), Some(&file));
        }
        Self::load_file(&name, path).map(|module| Input {
            name,
            data: InputData::Module(Box::new(module)),
        })
    }

    /// An input file to be opened only when [`process`] takes it (for linking many files: they
    /// are then never all in memory at once). Errors are reported then, naming the file.
    pub fn deferred(path: &std::path::Path) -> Input {
        Input {
            name: path.display().to_string(),
            data: InputData::Deferred(path.to_path_buf()),
        }
    }

    /// Maps or reads a module file.
    fn load_file(name: &str, path: &std::path::Path) -> Result<Module> {
        let io = |e| Error::Io {
            path: name.to_string(),
            source: e,
        };
        let mut file = std::fs::File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        // A small file is read: mapping it costs more (the mapping, its page faults, the unmap)
        // than copying it, which matters when a link reads thousands of them.
        if size >= MAP_MIN_BYTES {
            if let Some(module) = Module::map_file(&file) {
                return module.map_err(|e| Error::InFile {
                    file: name.to_string(),
                    source: Box::new(e),
                });
            }
        }
        match Input::read(name.to_string(), &mut file, Some(size))?.data {
            InputData::Module(m) => Ok(*m),
            _ => Err(Error::PostCondition("input not loaded".into())),
        }
    }

    fn lazily(
        name: String,
        reader: Box<dyn std::io::Read + Send>,
        size_hint: Option<u64>,
        file: Option<&std::fs::File>,
    ) -> Result<Input> {
        let in_file = |e: Error| Error::InFile {
            file: name.clone(),
            source: Box::new(e),
        };
        let (ends, matches) = (markers::ends_names_and_annotations, markers::names_marker);
        let lazy = match file.and_then(|f| module::stream::map_lazily(f, ends, matches)) {
            Some(lazy) => lazy.map_err(in_file)?,
            None => module::stream::read_lazily(reader, size_hint, ends, matches)
                .map_err(|e| Error::Io {
                    path: name.clone(),
                    source: e,
                })?
                .map_err(in_file)?,
        };
        let data = match lazy {
            module::stream::Lazy::Whole(m) => InputData::Module(Box::new(m)),
            module::stream::Lazy::Prefix(mut p) => {
                if let Some(source) = file.and_then(|f| f.try_clone().ok()) {
                    p.set_source(source);
                }
                InputData::Lazy(Box::new(p))
            }
            module::stream::Lazy::Matched(p) => {
                let module = match file.and_then(Module::map_file) {
                    Some(m) => m.map_err(in_file)?,
                    None => p
                        .into_module()
                        .map_err(|e| Error::Io {
                            path: name.clone(),
                            source: e,
                        })?
                        .map_err(in_file)?,
                };
                InputData::Module(Box::new(module))
            }
        };
        Ok(Input { name, data })
    }

    /// The input's bytes (rebuilt from its words if it was read by [`Input::read`]).
    pub fn bytes(&self) -> Result<std::borrow::Cow<'_, [u8]>> {
        match &self.data {
            InputData::Bytes(b) => Ok(std::borrow::Cow::Borrowed(b)),
            InputData::Module(m) => Ok(std::borrow::Cow::Owned(m.original_bytes())),
            InputData::Lazy(_) => Err(self.lazy_error()),
            InputData::Deferred(p) => {
                std::fs::read(p)
                    .map(std::borrow::Cow::Owned)
                    .map_err(|e| Error::Io {
                        path: self.name.clone(),
                        source: e,
                    })
            }
        }
    }

    fn lazy_error(&self) -> Error {
        Error::Unsupported(format!(
            "{}: an input read lazily can be processed only once, by process_owned",
            self.name
        ))
    }

    /// A copy (an input read lazily cannot be copied).
    fn try_clone(&self) -> Result<Input> {
        let data = match &self.data {
            InputData::Bytes(b) => InputData::Bytes(b.clone()),
            InputData::Module(m) => InputData::Module(m.clone()),
            InputData::Deferred(p) => InputData::Deferred(p.clone()),
            InputData::Lazy(_) => return Err(self.lazy_error()),
        };
        Ok(Input {
            name: self.name.clone(),
            data,
        })
    }

    /// Makes the input a module (parsing bytes, reading the rest of a lazy input).
    fn load(&mut self) -> Result<&Module> {
        let in_file = |name: &str, e: Error| Error::InFile {
            file: name.to_string(),
            source: Box::new(e),
        };
        let data = std::mem::replace(&mut self.data, InputData::Bytes(Vec::new()));
        let module = match data {
            InputData::Bytes(b) => Module::from_bytes(&b).map_err(|e| in_file(&self.name, e))?,
            InputData::Module(m) => *m,
            InputData::Lazy(p) => p
                .into_module()
                .map_err(|e| Error::Io {
                    path: self.name.clone(),
                    source: e,
                })?
                .map_err(|e| in_file(&self.name, e))?,
            InputData::Deferred(p) => Self::load_file(&self.name, &p)?,
        };
        self.data = InputData::Module(Box::new(module));
        match &self.data {
            InputData::Module(m) => Ok(m),
            _ => Err(Error::PostCondition("input not loaded".into())),
        }
    }

    /// Takes the module out (the input keeps nothing).
    fn take_module(&mut self) -> Result<Module> {
        self.load()?;
        match std::mem::replace(&mut self.data, InputData::Bytes(Vec::new())) {
            InputData::Module(m) => Ok(*m),
            _ => Err(Error::PostCondition("input not loaded".into())),
        }
    }
}

/// Names the input in an error from copying a module streamed from it.
fn streamed_error(name: String, e: Error) -> Error {
    match e {
        Error::Write(e) => Error::Write(e),
        Error::Io { source, .. } => Error::Io { path: name, source },
        e => Error::InFile {
            file: name,
            source: Box::new(e),
        },
    }
}

/// The output module. It is not built in memory: [`ModuleOutput::write_to`] writes it from the
/// input's words and the edits (or copies a lazily read input through); [`ModuleOutput::to_bytes`]
/// builds it when bytes are wanted.
#[derive(Debug)]
pub struct ModuleOutput(OutputRepr);

#[derive(Debug)]
enum OutputRepr {
    /// The edited module with `(names_end, annotation_end, globals_end)`.
    Edited(Box<Module>, (usize, usize, usize)),
    /// The input, unchanged.
    Unchanged(Box<Module>),
    /// The input, unchanged, still to be read (written once).
    Streamed(std::cell::RefCell<Option<(String, Box<module::stream::Prefix>)>>),
}

impl ModuleOutput {
    /// Writes the module (in the input's byte order). Write errors are [`Error::Write`]. A module
    /// passed through from an input read lazily is copied here, once, and checked as it passes:
    /// its errors are the input's (see [`module::stream`]).
    pub fn write_to<W: std::io::Write>(&self, out: &mut W) -> Result<()> {
        match &self.0 {
            OutputRepr::Edited(m, (n, a, g)) => m.write_to(out, *n, *a, *g).map_err(Error::Write),
            OutputRepr::Unchanged(m) => m.write_original(out).map_err(Error::Write),
            OutputRepr::Streamed(cell) => {
                let Some((name, mut prefix)) = cell.borrow_mut().take() else {
                    return Err(Error::Unsupported(
                        "a streamed output can be written only once".into(),
                    ));
                };
                prefix
                    .copy_to(out)
                    .map(|_| ())
                    .map_err(|e| streamed_error(name, e))
            }
        }
    }

    /// Like [`ModuleOutput::write_to`], to a new empty file (through its buffer): a module passed
    /// through from an input file is copied by the kernel while its boundaries are checked on a
    /// second thread (see [`module::stream::Prefix::copy_file_to`]). On an error, what was
    /// written is to be discarded.
    pub fn write_to_file(&self, out: &mut std::io::BufWriter<std::fs::File>) -> Result<()> {
        if let OutputRepr::Streamed(cell) = &self.0 {
            let mut slot = cell.borrow_mut();
            if let Some((name, prefix)) = slot.as_mut() {
                std::io::Write::flush(out).map_err(Error::Write)?;
                match prefix.copy_file_to(out.get_ref()) {
                    Ok(true) => {
                        *slot = None;
                        return Ok(());
                    }
                    Ok(false) => {}
                    Err(e) => {
                        let name = name.clone();
                        *slot = None;
                        return Err(streamed_error(name, e));
                    }
                }
            }
        }
        self.write_to(out)
    }

    /// The module's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write_to(&mut out)?;
        Ok(out)
    }
}

/// About what the later stages build per marker call (spec map, lowering, cleanup's tables;
/// measured on the bench's dense modules: ~480 bytes).
const PER_CALL_BYTES: usize = 512;

/// What a run produces. Nothing is written to disk by the library.
#[derive(Debug)]
#[non_exhaustive]
pub struct Output {
    /// The output module, in the input's byte order.
    pub module: ModuleOutput,
    /// `.prop` text, when [`Options::sidecars`] (else empty; [`Output::write_prop`] writes it
    /// without holding it in memory).
    pub prop: Vec<u8>,
    /// JSON sidecar, when [`Options::sidecars`] (else empty; see [`Output::write_json`]).
    pub json: Vec<u8>,
    /// The mode the markers were lowered in.
    pub mode: SpecConstMode,
    /// The spec constants found.
    pub spec_map: specmap::SpecMap,
    /// Number of marker calls lowered.
    pub calls: usize,
    /// What linking did (several inputs).
    pub link_report: Option<link::LinkReport>,
    /// Emulation mode: which argument of each kernel takes the spec-constant buffer.
    pub kernels: Option<Vec<lower::emulation::KernelBuffer>>,
    /// Whether spirv-val ran on the output (and with which environment).
    pub validated_with: Option<String>,
    /// Whether the input's pages were given back behind the passes (a mapped input dense with
    /// marker calls; see [`module::Module::release_input`]). It changes no output byte.
    pub input_released: bool,
    /// Notes (printed unless `--quiet`).
    pub notes: Vec<String>,
    /// Warnings (printed as `warning: …` unless `--quiet`).
    pub warnings: Vec<String>,
    /// Wall time of each step, in order (printed by `--verbose`).
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

impl Output {
    /// The spec-constant property sets of this output.
    pub(crate) fn property_sets(&self) -> sidecar::Sets<'_> {
        sidecar::Sets::new(&self.spec_map, self.mode == SpecConstMode::DefaultValues)
    }

    /// Writes the `.prop` property sets, one property at a time.
    pub fn write_prop<W: std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        sidecar::prop::write_sets(w, &self.property_sets())
    }

    /// Writes the JSON sidecar, one constant and property at a time.
    pub fn write_json<W: std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        sidecar::json::write_to(
            w,
            &self.spec_map,
            self.mode.as_str(),
            &self.property_sets(),
            self.kernels.as_deref(),
            self.link_report.as_ref(),
        )
    }

    /// Fills `prop` and `json` when the options ask for the sidecars in memory.
    fn fill_sidecars(&mut self, options: &Options) {
        if !options.sidecars {
            return;
        }
        let clock = std::time::Instant::now();
        let (mut prop, mut json) = (Vec::new(), Vec::new());
        // Writing to a Vec cannot fail.
        let _ = self.write_prop(&mut prop);
        let _ = self.write_json(&mut json);
        (self.prop, self.json) = (prop, json);
        self.timings.push(("sidecars", clock.elapsed()));
    }
}

/// Runs every step on the inputs (see the crate docs).
pub fn process(inputs: &[Input], options: &Options) -> Result<Output> {
    process_owned(
        inputs.iter().map(Input::try_clone).collect::<Result<_>>()?,
        options,
    )
}

/// [`process`] taking ownership of the inputs, so that a single input's bytes are freed as soon as
/// they are words (the command line uses this: peak memory stays near twice the module).
pub fn process_owned(mut inputs: Vec<Input>, options: &Options) -> Result<Output> {
    if inputs.is_empty() {
        return Err(Error::Unsupported("no input module".into()));
    }
    let numbering = match (options.mode, options.emulation_layout) {
        (SpecConstMode::Native, _) => specmap::Numbering::Native,
        (_, EmulationLayout::Aligned) => specmap::Numbering::EmulationAligned,
        (_, EmulationLayout::Packed) => specmap::Numbering::EmulationPacked,
    };
    let mut timings = Vec::new();
    let mut clock = std::time::Instant::now();
    let mut lap = |name: &'static str, timings: &mut Vec<(&'static str, std::time::Duration)>| {
        let now = std::time::Instant::now();
        timings.push((name, now - clock));
        clock = now;
    };
    // Pass-through: a single module that names no marker is written back unchanged, unindexed,
    // in every mode (its sidecars are empty: emulation lists kernels only when it lowers calls).
    // Whether the validator can run is found out once (it spawns it).
    let missing_validator = match options.validation {
        Validation::Never => None,
        Validation::Always | Validation::Strict | Validation::Auto => validate::unavailable(),
    };
    let validating = match options.validation {
        Validation::Never => false,
        Validation::Always | Validation::Strict => true,
        Validation::Auto => validate::validator_named() || missing_validator.is_none(),
    };
    let missing_validator = missing_validator.as_deref();
    // An input read lazily is not even read further, unless the output is to be validated.
    if let [one] = inputs.as_mut_slice() {
        if options.pass_through && !validating {
            match std::mem::replace(&mut one.data, InputData::Bytes(Vec::new())) {
                InputData::Lazy(prefix) => {
                    let output = ModuleOutput(OutputRepr::Streamed(std::cell::RefCell::new(Some(
                        (one.name.clone(), prefix),
                    ))));
                    return pass_through(
                        output,
                        &inputs,
                        false,
                        options,
                        missing_validator,
                        numbering,
                        timings,
                    );
                }
                other => one.data = other,
            }
        }
    }
    // load, and link when there are several inputs
    let (module, link_report, name) = load_and_link(&mut inputs, &options.link, validating)?;
    lap("load", &mut timings);
    let wrap = |e: Error| Error::InFile {
        file: name.clone(),
        source: Box::new(e),
    };
    if link_report.is_none() && options.pass_through && !markers::may_have_markers(&module) {
        // Not indexed: the id checks the index makes, on their own.
        module::idcheck::check_module(&module).map_err(wrap)?;
        let kernel = module.declares_capability(spirv::Capability::Kernel);
        let output = ModuleOutput(OutputRepr::Unchanged(Box::new(module)));
        return pass_through(
            output,
            &inputs,
            kernel,
            options,
            missing_validator,
            numbering,
            timings,
        );
    }
    let mut module = module;
    let index = Index::build(&module).map_err(wrap)?;
    lap("index", &mut timings);
    // Every word was read by now. When the per-call tables built from here on come to a quarter
    // of the module or more (a module dense with marker calls), the input's pages go, and go
    // again behind each later pass, so that those tables do not come on top of the whole input
    // (peak memory); otherwise keeping them saves the time of mapping them again.
    let dense = markers::count_marker_calls(&index).saturating_mul(PER_CALL_BYTES);
    module.set_releasing(dense >= module.word_count());
    module.release_input(0..module.word_count());
    // find markers
    let markers = markers::find_markers(&module, &index).map_err(wrap)?;
    let calls = markers.calls.len();
    lap("find markers", &mut timings);
    // (What it read of the global section, again and again, too.)
    module.release_input(0..module.word_count());
    // assign
    let map = specmap::build(&module, &index, &markers, numbering, options.spec_id_order)
        .map_err(wrap)?;
    lap("assign", &mut timings);
    let mut notes: Vec<String> = link_report
        .iter()
        .flat_map(|r| r.notes.iter().cloned())
        .collect();
    let mut warnings = Vec::new();
    // (Not for the ITT instrumentation flag's SpecId alone, which DPC++ images carry and
    // numbering never comes near.)
    let used = index
        .spec_ids
        .iter()
        .filter(|&&s| s != specmap::ITT_SPEC_ID)
        .count();
    if used > 0 && !map.constants.is_empty() {
        notes.push(format!(
            "the input already uses {used} SpecId(s); new SpecIds skip them"
        ));
    }
    // lower
    let mut kernels = None;
    if !markers.functions.is_empty() {
        let mut ids = IdAllocator::new(&module);
        let mut intern = Intern::new(&module, &index);
        let repl = match options.mode {
            SpecConstMode::Native | SpecConstMode::DefaultValues => {
                let kind = if options.mode == SpecConstMode::Native {
                    lower::native::ConstKind::Spec
                } else {
                    lower::native::ConstKind::Default
                };
                lower::native::lower_native(
                    &mut module,
                    &markers,
                    &map,
                    &mut ids,
                    &mut intern,
                    kind,
                )
                .map_err(wrap)?
            }
            SpecConstMode::Emulation => {
                kernels = Some(
                    lower::emulation::lower_emulation(
                        &mut module,
                        &index,
                        &markers,
                        &map,
                        &mut ids,
                        &mut intern,
                    )
                    .map_err(wrap)?,
                );
                lower::Replacements::default()
            }
        };
        ids.finish(&mut module);
        // What lowering needed goes before cleanup's tables come (peak memory).
        drop(intern);
        lap("lower", &mut timings);
        // cleanup (it applies the replacements as it counts uses; it drops the per-call data
        // early)
        cleanup::cleanup(&mut module, &index, markers, &repl).map_err(wrap)?;
        drop(repl);
        lap("cleanup", &mut timings);
    }
    // validate
    let kernel = index
        .capabilities
        .iter()
        .any(|&(c, _)| c == spirv::Capability::Kernel as u32);
    let sections = (index.names_end, index.annotation_end, index.globals_end);
    let input_released = module.releases_input();
    let output = ModuleOutput(OutputRepr::Edited(Box::new(module), sections));
    let validated_with = validate_output(
        &output,
        &inputs,
        kernel,
        options,
        missing_validator,
        &mut notes,
        &mut warnings,
    )?;
    lap("validate", &mut timings);
    let mut out = Output {
        module: output,
        prop: Vec::new(),
        json: Vec::new(),
        mode: options.mode,
        calls,
        kernels,
        link_report,
        spec_map: map,
        validated_with,
        input_released,
        notes,
        warnings,
        timings,
    };
    out.fill_sidecars(options);
    Ok(out)
}

/// The output of a run that changes nothing (no marker): the input, empty sidecars.
fn pass_through(
    output: ModuleOutput,
    inputs: &[Input],
    kernel: bool,
    options: &Options,
    missing_validator: Option<&str>,
    numbering: specmap::Numbering,
    mut timings: Vec<(&'static str, std::time::Duration)>,
) -> Result<Output> {
    let map = specmap::SpecMap::new(numbering);
    let clock = std::time::Instant::now();
    let mut notes = Vec::new();
    let mut warnings = Vec::new();
    let validated_with = validate_output(
        &output,
        inputs,
        kernel,
        options,
        missing_validator,
        &mut notes,
        &mut warnings,
    )?;
    timings.push(("validate", clock.elapsed()));
    let mut out = Output {
        module: output,
        prop: Vec::new(),
        json: Vec::new(),
        mode: options.mode,
        spec_map: map,
        calls: 0,
        kernels: None,
        link_report: None,
        validated_with,
        input_released: false,
        notes,
        warnings,
        timings,
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
    notes: &mut Vec<String>,
    warnings: &mut Vec<String>,
) -> Result<Option<String>> {
    if matches!(options.validation, Validation::Never) {
        return Ok(None);
    }
    if let Some(why) = missing_validator {
        let auto = matches!(options.validation, Validation::Auto);
        if validate::validator_named() {
            // Asked for by name: never skipped.
            return Err(Error::Validation(why.into()));
        }
        if auto {
            notes.push(format!("{why}: the output was not validated"));
            return Ok(None);
        }
        return Err(Error::Validation(format!(
            "--validate was given but {why} (install SPIRV-Tools)"
        )));
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
    let gone = |output: &ModuleOutput, same_ids: bool| match &output.0 {
        OutputRepr::Edited(m, _) => Some(validate::Lowered {
            gone: (0..m.len()).map(|i| !m.survives(i)).collect(),
            same_ids,
        }),
        _ => None,
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
    match verdict {
        validate::Verdict::Valid => {}
        validate::Verdict::InheritedFromInput(e) => warnings.push(format!(
            "the output fails spirv-val --target-env {env} as the input does (not an error spec-link introduced): {e}"
        )),
        validate::Verdict::HiddenInInput { output, input } => warnings.push(format!(
            "the output fails spirv-val --target-env {env} ({output}), and so does the input once \
             the instructions spec-link removed are set aside (not an error spec-link introduced; \
             spirv-val stops earlier in the input itself: {input})"
        )),
    }
    Ok(Some(env))
}

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
