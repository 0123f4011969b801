//! What a run produces: the output module (written from the input's words and the edits, never
//! built in memory unless bytes are asked for) and the [`Output`] around it (sidecars, spec map,
//! diagnostics, timings).

use crate::module::{self, Module};
use crate::{link, lower, sidecar, specmap, Error, Options, Result, SpecConstMode};

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
pub struct ModuleOutput(pub(crate) OutputRepr);

#[derive(Debug)]
pub(crate) enum OutputRepr {
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
    /// its errors are the input's.
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
    /// second thread. On an error, what was
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
    /// marker calls). It changes no output byte.
    pub input_released: bool,
    /// Notes and warnings, in the order they arose (the command line prints the warnings, then
    /// the notes, unless `--quiet`).
    pub diagnostics: Vec<crate::Diagnostic>,
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
    pub(crate) fn fill_sidecars(&mut self, options: &Options) {
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
