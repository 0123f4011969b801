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
pub mod diagnostic;
pub(crate) mod error;
pub mod info;
pub(crate) mod io;
pub(crate) mod layout;
pub mod link;
pub(crate) mod lower;
pub(crate) mod options;
pub(crate) mod pipeline;
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

pub use diagnostic::{Diagnostic, Severity};
pub use error::{Error, Result};
pub use io::input::Input;
pub use io::output::{ModuleOutput, Output};
pub use lower::emulation::KernelBuffer;
pub use markers::SymbolicId;
pub use options::{EmulationLayout, Options, SpecConstMode, SpecIdOrder, Validation};
pub use pipeline::{process, process_owned};
pub use specmap::{Descriptor, SpecConstant, SpecMap};

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
