//! Diagnostics: what a run tells its user beside its result — notes (facts worth knowing, nothing
//! wrong) and warnings (the output was written, but something about it needs a look).
//!
//! Each diagnostic is a typed value carrying its facts; its text is its [`std::fmt::Display`]
//! (the command line prints `note: TEXT` or `warning: TEXT`). Nothing in the crate parses the text
//! back: code that needs to know what happened matches on the variant.
//!
//! Invariant: two diagnostics saying the same thing are equal (`PartialEq`), so a list can be
//! kept free of repeats by comparing values (a split says each note once, not once per image).

use std::fmt;

/// How serious a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// A fact worth knowing; nothing is wrong.
    Note,
    /// The output was written, but something about it needs a look.
    Warning,
}

impl Severity {
    /// The word the command line prints before the text (`note`, `warning`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
        }
    }
}

/// What was validated (it names the subject in a validation diagnostic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Validated {
    /// The output module of a run (lowering, linking).
    Output,
    /// The images of a split.
    Image,
    /// The output of `specialize`.
    Specialized,
}

impl Validated {
    fn subject(self) -> &'static str {
        match self {
            Validated::Output | Validated::Specialized => "the output",
            Validated::Image => "an image",
        }
    }

    /// What was set aside in the input when its own error was looked for.
    fn set_aside(self) -> &'static str {
        match self {
            Validated::Output => {
                "the instructions spec-link removed are set aside (not an error spec-link \
                 introduced; "
            }
            Validated::Image => {
                "the instructions the image does not hold are set aside (not an error spec-link \
                 introduced; "
            }
            Validated::Specialized => "the instructions specializing rewrote are set aside (",
        }
    }
}

/// One note or warning. [`Diagnostic::severity`] says which; `Display` gives the text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Diagnostic {
    /// Note: the input already holds SpecIds (besides the ITT instrumentation flag's); new ones
    /// skip them.
    SpecIdsInUse {
        /// How many SpecIds the input uses.
        count: usize,
    },
    /// Note: validation was asked for only if possible ([`crate::Validation::Auto`]) and
    /// `spirv-val` cannot run.
    NotValidated {
        /// What was not validated.
        what: Validated,
        /// Why `spirv-val` cannot run.
        reason: String,
    },
    /// Warning: the output fails `spirv-val` with the error its input has.
    InvalidAsInput {
        /// What fails.
        what: Validated,
        /// The `--target-env` it was validated for.
        target_env: String,
        /// `spirv-val`'s error.
        error: String,
    },
    /// Warning: the output fails `spirv-val`, and so does the input once the instructions the
    /// output lacks are set aside (`spirv-val` stops at an earlier error in the input itself).
    InvalidHiddenInInput {
        /// What fails.
        what: Validated,
        /// The `--target-env` it was validated for.
        target_env: String,
        /// `spirv-val`'s error on the output.
        output: String,
        /// `spirv-val`'s first error on the input.
        input: String,
    },
    /// Note (linking): an imported variable's pointer type differs from its export's only in the
    /// pointee type; the import became a bitcast of the export.
    ImportBitcast(SymbolTypes),
    /// Note (linking): an imported function's type differs from its export's only in pointer
    /// pointee types; its calls are adapted with `OpBitcast`.
    CallsAdapted(SymbolTypes),
    /// Note (linking): inputs below and at or above SPIR-V 1.4 were linked, so entry-point
    /// interfaces now list every global variable their entry point uses.
    InterfacesExtended {
        /// The linked module's version `(major, minor)`.
        version: (u8, u8),
    },
    /// Note (linking): symbols exported by several inputs with the same definition; one copy was
    /// kept of each.
    CopiesMerged {
        /// The symbols, sorted.
        symbols: Vec<String>,
    },
    /// Note (split): the SPIR-V does not say which kernel arguments the front end eliminated, and
    /// no `--input-prop` has `[SYCL/kernel param opt]`: the set is written empty.
    KernelParamOptUnknown,
    /// Note (split): virtual-function set names are not in SPIR-V; every virtual function and
    /// every kernel using one is given the one set the input's property file names.
    VirtualFunctionSetsUnknown,
    /// Note (split): properties SPIR-V does not hold (optLevel and others) are left out, since
    /// neither an `--input-prop` nor `NonSemantic.AuxData` was given.
    ImagePropertiesLeftOut,
    /// Note (split): the images import the bfloat16 device library's conversions, but neither an
    /// input nor `--device-lib-dir` gives the library: its images are not written.
    DeviceLibraryNotGiven,
    /// Note (split): an input is the bfloat16 device library, which no image uses: left out.
    DeviceLibraryUnused {
        /// The input.
        input: String,
    },
    /// Warning (split): the property sets given for an input (`--input-prop`) name kernels, none
    /// of them the input's: another module's file (their per-kernel properties do not apply).
    InputPropNamesOtherKernels {
        /// The input.
        input: String,
    },
    /// Warning: the marker calls of one symbolic ID pass two different default values (an ODR
    /// violation, as when two linked inputs define it differently); the first call's is used.
    DefaultsDiffer {
        /// The symbolic ID.
        symbolic_id: String,
        /// The first call and one whose default differs, as `call %R in F`.
        calls: [String; 2],
    },
    /// Warning (split): the property file given for an input (`--input-prop`) describes spec
    /// constants whose SpecIds the module does not hold: the images leave them out.
    SpecConstantsNotHeld {
        /// The input.
        input: String,
        /// How many constants.
        count: usize,
    },
    /// Warning (split): an image whose input's property file (`--input-prop`) describes spec
    /// constants the image holds also has marker calls to lower (a module lowered in part): its
    /// sets describe only the constants the split lowers.
    SpecConstantsNotCarried {
        /// The input.
        input: String,
    },
    /// Warning (split): a `NonSemantic.AuxData` entry that does not decode was ignored.
    AuxDataIgnored {
        /// The instruction's position in the module (instructions counted from 0).
        position: usize,
        /// Why it does not decode.
        reason: &'static str,
    },
}

/// The two sides of a linked symbol whose types differ (a linking note's facts).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SymbolTypes {
    /// The symbol, as shown (its linkage name).
    pub symbol: String,
    /// The input that imports it.
    pub import_input: String,
    /// The import's type, described.
    pub import_type: String,
    /// The input that exports it.
    pub export_input: String,
    /// The export's type, described.
    pub export_type: String,
}

impl fmt::Display for SymbolTypes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\": imported by {} as {}, exported by {} as {}",
            self.symbol, self.import_input, self.import_type, self.export_input, self.export_type
        )
    }
}

impl Diagnostic {
    /// Whether this is a note or a warning.
    pub fn severity(&self) -> Severity {
        match self {
            Diagnostic::InvalidAsInput { .. }
            | Diagnostic::InvalidHiddenInInput { .. }
            | Diagnostic::AuxDataIgnored { .. }
            | Diagnostic::InputPropNamesOtherKernels { .. }
            | Diagnostic::SpecConstantsNotCarried { .. }
            | Diagnostic::SpecConstantsNotHeld { .. }
            | Diagnostic::DefaultsDiffer { .. } => Severity::Warning,
            _ => Severity::Note,
        }
    }
}

/// How many merged symbols a [`Diagnostic::CopiesMerged`] names before "and N more".
const MERGED_SHOWN: usize = 4;

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Diagnostic::SpecIdsInUse { count } => write!(
                f,
                "the input already uses {count} SpecId(s); new SpecIds skip them"
            ),
            Diagnostic::NotValidated { what, reason } => match what {
                Validated::Image => write!(f, "{reason}: the images were not validated"),
                Validated::Output | Validated::Specialized => {
                    write!(f, "{reason}: the output was not validated")
                }
            },
            Diagnostic::InvalidAsInput {
                what,
                target_env,
                error,
            } => write!(
                f,
                "{} fails spirv-val --target-env {target_env} as the input does (not an error \
                 spec-link introduced): {error}",
                what.subject()
            ),
            Diagnostic::InvalidHiddenInInput {
                what,
                target_env,
                output,
                input,
            } => write!(
                f,
                "{} fails spirv-val --target-env {target_env} ({output}), and so does the input \
                 once {}spirv-val stops earlier in the input itself: {input})",
                what.subject(),
                what.set_aside()
            ),
            Diagnostic::ImportBitcast(types) => write!(
                f,
                "{types}: the pointers differ only in pointee type; the import is a bitcast of \
                 the export"
            ),
            Diagnostic::CallsAdapted(types) => write!(
                f,
                "{types}: the types differ only in pointer pointee types; calls are adapted \
                 with OpBitcast"
            ),
            Diagnostic::InterfacesExtended { version } => write!(
                f,
                "inputs of SPIR-V versions below and at or above 1.4 were linked into {}.{}: \
                 entry-point interfaces now list every global variable their entry point uses",
                version.0, version.1
            ),
            Diagnostic::CopiesMerged { symbols } => {
                let shown: Vec<String> = (symbols.iter().take(MERGED_SHOWN))
                    .map(|n| format!("\"{n}\""))
                    .collect();
                write!(
                    f,
                    "{} symbol(s) exported by several inputs with the same definition, one copy \
                     kept: {}",
                    symbols.len(),
                    shown.join(", ")
                )?;
                match symbols.len().saturating_sub(MERGED_SHOWN) {
                    0 => Ok(()),
                    more => write!(f, " and {more} more"),
                }
            }
            Diagnostic::KernelParamOptUnknown => write!(
                f,
                "[{}]: the SPIR-V does not say which kernel arguments the front end eliminated; \
                 without an --input-prop that has the set or NonSemantic.AuxData \
                 sycl_kernel_omit_args, it is written empty (correct only when no argument was \
                 eliminated)",
                crate::properties::KERNEL_PARAM_OPT
            ),
            Diagnostic::VirtualFunctionSetsUnknown => write!(
                f,
                "[{}]: the virtual-function set names are not in SPIR-V; every virtual \
                 function, and every kernel that calls through a function pointer or uses a \
                 virtual table, is given the set the input's property file names (exact for a \
                 module of one set; NonSemantic.AuxData would tell each function's)",
                crate::properties::VIRTUAL_FUNCTIONS
            ),
            Diagnostic::ImagePropertiesLeftOut => f.write_str(
                "the SPIR-V does not hold work_group_num_dim, max_linear_work_group_size or \
                 virtual-function sets: without the input's property file (--input-prop) or \
                 NonSemantic.AuxData (llvm-spirv --spirv-preserve-auxdata) they are left out; \
                 optLevel is 0 where an entry point is OptNone (-O0) or the module has debug \
                 information (-g), else 2, and idQueriesRange is 1 where the code assumes ids \
                 below 2^32 (-fsycl-id-queries-range=uint), else left out",
            ),
            Diagnostic::DeviceLibraryNotGiven => f.write_str(
                "the images import the device library's bfloat16 conversions \
                 (__devicelib_ConvertFToBF16INTEL and the like), whose own images the runtime \
                 needs: give --device-lib-dir (libsycl-fallback-bfloat16.spv and \
                 libsycl-native-bfloat16.spv) or the library's modules as inputs to have them \
                 written",
            ),
            Diagnostic::DeviceLibraryUnused { input } => write!(
                f,
                "{input} is the bfloat16 device library, which no image uses: left out"
            ),
            Diagnostic::DefaultsDiffer { symbolic_id, calls } => write!(
                f,
                "spec constant \"{symbolic_id}\" has two default values ({} and {}): the \
                 first one's is used",
                calls[0], calls[1]
            ),
            Diagnostic::SpecConstantsNotHeld { input, count } => write!(
                f,
                "the property sets given for {input} (--input-prop) describe {count} spec \
                 constant(s) whose SpecIds {input} does not hold: the images leave them out (is \
                 the file another module's?)"
            ),
            Diagnostic::SpecConstantsNotCarried { input } => write!(
                f,
                "the property sets given for {input} (--input-prop) describe spec constants an \
                 image holds, but the image also has marker calls to lower: its spec-constant \
                 sets describe only those (lower the module in one step)"
            ),
            Diagnostic::InputPropNamesOtherKernels { input } => write!(
                f,
                "the property sets given for {input} (--input-prop) name kernels, none of them \
                 {input}'s: is the file another module's? (the kernels' argument masks and \
                 other per-kernel properties it holds do not apply)"
            ),
            Diagnostic::AuxDataIgnored { position, reason } => write!(
                f,
                "NonSemantic.AuxData instruction {position} ignored: {reason} (the properties it \
                 would give are left out)"
            ),
        }
    }
}

/// Adds `d` unless an equal diagnostic is already there.
pub(crate) fn push_once(diagnostics: &mut Vec<Diagnostic>, d: Diagnostic) {
    if !diagnostics.contains(&d) {
        diagnostics.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_copies_name_four_symbols_then_count_the_rest() {
        let symbols: Vec<String> = (0..6).map(|k| format!("s{k}")).collect();
        let d = Diagnostic::CopiesMerged { symbols };
        assert_eq!(
            d.to_string(),
            "6 symbol(s) exported by several inputs with the same definition, one copy kept: \
             \"s0\", \"s1\", \"s2\", \"s3\" and 2 more"
        );
        assert_eq!(d.severity(), Severity::Note);
    }

    #[test]
    fn validation_failures_are_warnings_naming_their_subject() {
        let d = |what| Diagnostic::InvalidAsInput {
            what,
            target_env: "opencl2.0".into(),
            error: "E".into(),
        };
        assert_eq!(d(Validated::Image).severity(), Severity::Warning);
        assert!(d(Validated::Image)
            .to_string()
            .starts_with("an image fails"));
        assert!(d(Validated::Output)
            .to_string()
            .starts_with("the output fails"));
        let hidden = |what| Diagnostic::InvalidHiddenInInput {
            what,
            target_env: "t".into(),
            output: "O".into(),
            input: "I".into(),
        };
        assert_eq!(
            hidden(Validated::Specialized).to_string(),
            "the output fails spirv-val --target-env t (O), and so does the input once the \
             instructions specializing rewrote are set aside (spirv-val stops earlier in the \
             input itself: I)"
        );
    }
}
