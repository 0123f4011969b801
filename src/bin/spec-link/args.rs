//! The command line: clap definitions and their translation into [`spec_link::Options`].

use clap::{ArgAction, Parser, ValueEnum};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  spec-link kernels.spv -o kernels.lowered.spv
      lower every spec-constant marker to OpSpecConstant + SpecId
  spec-link in.spv -o out.spv --prop out.prop --json out.json
      also write DPC++'s .prop property sets and the JSON sidecar
  cat in.spv | spec-link - -o - > out.spv
      read standard input, write standard output
  spec-link kernel.spv 'lib/*.spv' -o out.spv --prop out.prop
      link the kernel module with every module in lib/ (sorted), then lower
  spec-link in.spv -o out.spv --spec-const emulation --json out.json
      lower to loads from a spec-constant buffer; out.json names each kernel's buffer argument
  spec-link app.spv --split per-kernel -o out/app.table --input-prop app.prop
      one device image per kernel: out/app_N.spv, .prop, .sym and the file table
  spec-link in.spv -o out.spv --validate=strict --target-env spv1.4
      fail unless spirv-val accepts the output in that environment

Subcommands (each has its own --help):
  spec-link info INPUT... [--input-prop FILE] [--json]
      what is in a module: facts, kernels, spec constants (by name with the image's .prop), and
      what lowering would make of a module with marker calls; writes nothing
  spec-link specialize INPUT -o OUT [--input-prop IN.prop] --set NAME=VALUE... [--set-file FILE.json]
                       [--prop OUT.prop] [--json OUT.json]
      give named spec constants fixed values; the others stay specializable

Exit status: 0 success; 1 processing error (nothing written); 2 usage error.";

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum Mode {
    /// OpSpecConstant* + SpecId decorations (SPIR-V JIT targets)
    Native,
    /// loads from a spec-constant buffer passed to each kernel (AOT targets)
    Emulation,
    /// the default values as ordinary constants (no spec constants left)
    DefaultValues,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum Layout {
    /// each constant at the next multiple of its alignment (DPC++)
    Aligned,
    /// no padding between constants; loads use Aligned 1
    Packed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ValidateMode {
    /// fail on errors spec-link introduced; write, with a warning, an output that fails as its
    /// input does
    Policy,
    /// fail on any spirv-val error in the output
    Strict,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Split {
    /// one image (ESIMD kernels still get an image of their own)
    Off,
    /// one image per kernel
    #[value(alias = "per_kernel")]
    PerKernel,
    /// kernels grouped by input module and by DPC++'s category (aspects, required sizes, …)
    #[value(alias = "per_source")]
    PerSource,
    /// as per-source (DPC++'s default)
    Auto,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum Order {
    /// in order of first use: functions in module order, calls in order
    FirstUse,
    /// as DPC++ numbers them: marker declarations in module order, each one's calls last first
    /// (on the DPC++ 2026.2 images in testdata/dpcpp, the property sets are then DPC++'s byte for
    /// byte)
    Dpcpp,
}

/// The post-link step of a SYCL compiler, on SPIR-V: link, lower spec constants, split into
/// device images, write DPC++'s property sets.
///
/// Links the input modules (several inputs), finds every call to
/// __sycl_getScalar2020SpecConstantValue / __sycl_getComposite2020SpecConstantValue, numbers the
/// spec constants, replaces each call — with OpSpecConstant*/OpSpecConstantComposite (native), a
/// load from a spec-constant buffer passed to the kernel (emulation) or its default value
/// (default-values) — removes the markers and the globals they used, and describes the result in
/// DPC++'s [SYCL/specialization constants] property sets. With --split, the device code is split
/// into images (OUT_N.spv, .prop, .sym and the file table OUT.table), each with every property
/// set the SYCL runtime reads.
#[derive(Parser, Debug)]
#[command(name = "spec-link", version, after_help = EXAMPLES)]
pub(crate) struct Cli {
    /// SPIR-V modules to read: files, '-' (standard input), or glob patterns that spec-link
    /// expands itself (sorted; a pattern matching nothing is an error; an existing file whose
    /// name holds '*', '?' or '[' is read as it is). Several modules are linked into one before
    /// lowering.
    #[arg(required = true, value_name = "INPUT")]
    pub(crate) inputs: Vec<String>,

    /// Output module ('-' = standard output). Written to a temporary file renamed into place on
    /// success; an existing non-regular file (/dev/null, a FIFO) is written in place. May be the
    /// input (lowered in place); no other output may name the same file
    #[arg(short, long, value_name = "FILE", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub(crate) output: String,

    /// How to lower spec constants
    #[arg(
        long = "spec-const",
        value_enum,
        default_value = "native",
        value_name = "MODE"
    )]
    pub(crate) spec_const: Mode,

    /// Layout of the emulation buffer (emulation and default-values modes)
    #[arg(long, value_enum, default_value = "aligned", value_name = "LAYOUT")]
    pub(crate) emulation_layout: Layout,

    /// Order in which new spec constants get their SpecIds (and their places in the emulation
    /// buffer). The runtime reads both from the property sets, so either order works
    #[arg(long, value_enum, default_value = "first-use", value_name = "ORDER")]
    pub(crate) spec_id_order: Order,

    /// Linking: keep imports no input exports (listed in the JSON sidecar). Imports of built-in variables (`BuiltIn`-decorated), of LLVM intrinsics (`llvm.*`) and of the device library's entry points (`__devicelib_*`), which the environment provides, are never unresolved; with this option built-ins also keep their Import
    #[arg(long)]
    pub(crate) allow_partial: bool,

    /// Linking: keep exports (the output is a library)
    #[arg(long)]
    pub(crate) create_library: bool,

    /// Linking: give the later input's SpecIds that collide with an earlier input's fresh
    /// numbers (listed in the JSON sidecar) instead of failing
    #[arg(long)]
    pub(crate) renumber_spec_ids: bool,

    /// Write the property sets in DPC++ .prop text format ('-' = standard output)
    #[arg(long, value_name = "FILE")]
    pub(crate) prop: Option<PathBuf>,

    /// Write the JSON sidecar (format spec-link-sidecar/1; '-' = standard output)
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,

    /// Validate the output with spirv-val; fail if spirv-val is missing
    /// [default: validate when spirv-val is on PATH]. `--validate` (= `--validate=policy`): an
    /// output that fails is an error (exit 1, nothing written) unless the input fails the same way
    /// — also once the instructions spec-link removed, where spirv-val stops in the input, are set
    /// aside — or spirv-val cannot read the input: then it is written with a warning.
    /// `--validate=strict`: any spirv-val error in the output is an error. ($SPEC_LINK_SPIRV_VAL
    /// names another validator, which must then run, --validate or not)
    #[arg(
        long,
        value_enum,
        value_name = "MODE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "policy",
        conflicts_with = "no_validate"
    )]
    pub(crate) validate: Option<ValidateMode>,

    /// Do not run spirv-val on the output
    #[arg(long)]
    pub(crate) no_validate: bool,

    /// Index and search the module even when nothing in it names a marker (by default such a
    /// module is copied to the output unindexed, its instruction boundaries checked on the way):
    /// a malformed module is then reported; a valid one gives the same bytes
    #[arg(long)]
    pub(crate) no_pass_through: bool,

    /// Target environment for spirv-val (e.g. opencl2.2, spv1.4)
    /// [default: opencl2.2 for SPIR-V <= 1.2 Kernel modules, else spv<version>]
    #[arg(long, value_name = "ENV")]
    pub(crate) target_env: Option<String>,

    /// Split the device code into images as DPC++'s post-link step does; -o then names the file
    /// table (OUT.table), and OUT_N.spv, OUT_N.prop and OUT_N.sym (OUT_N.esimd.* for an ESIMD
    /// image) are written beside it
    #[arg(long, value_enum, value_name = "MODE")]
    pub(crate) split: Option<Split>,

    /// Property sets of an input (.prop), for what its SPIR-V does not hold (kernel argument
    /// masks, optLevel, …); one per input, in input order (--split)
    #[arg(long = "input-prop", value_name = "FILE")]
    pub(crate) input_prop: Vec<PathBuf>,

    /// Write [SYCL/kernel names] in each image's property sets (--split)
    #[arg(long)]
    pub(crate) emit_kernel_names: bool,

    /// Write [SYCL/program metadata] in each image's property sets (--split)
    #[arg(long)]
    pub(crate) emit_program_metadata: bool,

    /// SYCL_EXTERNAL functions are entry points; imported and exported symbols are listed
    /// (--split)
    #[arg(long)]
    pub(crate) allow_device_image_dependencies: bool,

    /// Folder of the bfloat16 device library's SPIR-V (libsycl-fallback-bfloat16.spv and
    /// libsycl-native-bfloat16.spv): when the code converts to or from bfloat16 through the
    /// library, an image of each is written after the split's, as DPC++'s -device-lib-dir does
    /// (the library's modules given as inputs are used instead) (--split)
    #[arg(long, value_name = "DIR")]
    pub(crate) device_lib_dir: Option<PathBuf>,

    /// Print nothing but errors
    #[arg(short, long, conflicts_with = "verbose")]
    pub(crate) quiet: bool,

    /// Print what was found and done: counts, spec constants, time per step (-vv: also how
    /// memory was managed)
    #[arg(short, long, action = ArgAction::Count)]
    pub(crate) verbose: u8,
}
