//! The options of a run: lowering mode, emulation layout, SpecId order, validation, linking.

use crate::link;

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
    /// [`Output::write_prop`](crate::Output::write_prop) and [`Output::write_json`](crate::Output::write_json) write them either way).
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
