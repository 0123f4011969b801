//! The bfloat16 device library's images (DPC++'s `sycl-post-link -device-lib-dir`).
//!
//! Code that converts to or from `bfloat16` through the device library declares
//! `__devicelib_ConvertFToBF16INTEL` and the like (imported, see
//! [`crate::properties::symbols`]). After the images of such a split DPC++ appends one image of
//! each implementation of the library — the fallback (`libsycl-fallback-bfloat16`) and the
//! native one (`libsycl-native-bfloat16`, which uses `SPV_INTEL_bfloat16_conversion`) — and the
//! runtime links the one the device supports. Their property sets: `[SYCL/exported symbols]`, the
//! library's `__devicelib_*` function definitions in module order, and
//! `[SYCL/devicelib metadata]` `bfloat16` = 0 (fallback) or 1 (native); their `.sym` is empty.
//!
//! spec-link takes the libraries from the inputs that are one (DPC++'s own images of them, or the
//! library's files given as inputs: not linked with the others), else from `--device-lib-dir`
//! (`libsycl-fallback-bfloat16.spv` and `libsycl-native-bfloat16.spv` there), and appends them
//! only when the split's code declares a conversion, as DPC++ does.

use crate::error::{Error, Result};
use crate::module::index::Index;
use crate::module::{inst, Module};
use crate::properties::symbols::is_bf16_devicelib;
use crate::properties::{PropertySet, Value};
use spirv::{Capability, Decoration, Op};

/// A bfloat16 device library, as an image to be.
pub(crate) struct Library {
    /// For messages: the input or file it came from.
    pub name: String,
    pub module: Module,
    /// The native implementation (else the fallback).
    pub native: bool,
}

/// The library files `--device-lib-dir` names, fallback first (DPC++'s order).
const FILES: [(&str, bool); 2] = [
    ("libsycl-fallback-bfloat16.spv", false),
    ("libsycl-native-bfloat16.spv", true),
];

/// Whether `module` is a bfloat16 device library, and which: no entry point, and every symbol it
/// exports is one of the conversions (at least one). `Some(true)`: the native one (it declares
/// the `Bfloat16ConversionINTEL` capability).
pub(crate) fn library_kind(module: &Module) -> Option<bool> {
    let mut exports = 0usize;
    let mut native = false;
    for i in 0..module.len() {
        let w = module.inst(i)?;
        let op = inst::opcode(w);
        if op == Op::EntryPoint as u32 {
            return None;
        }
        if op == Op::Capability as u32
            && w.get(1) == Some(&(Capability::BFloat16ConversionINTEL as u32))
        {
            native = true;
        }
        if op == Op::Function as u32 {
            // (The decorations are all before the first function.)
            break;
        }
        if op == Op::Decorate as u32 && w.get(2) == Some(&(Decoration::LinkageAttributes as u32)) {
            let (name, len) = w.get(3..).and_then(inst::read_string)?;
            // (The linkage type follows the name: 0 Export.)
            if w.get(3 + len) == Some(&0) {
                if !is_bf16_devicelib(&name) {
                    return None;
                }
                exports += 1;
            }
        }
    }
    (exports > 0).then_some(native)
}

/// Whether the code declares one of the conversions (DPC++'s `isSYCLDeviceLibBF16Used`).
pub(crate) fn uses_bf16(index: &Index) -> bool {
    index
        .functions
        .iter()
        .filter(|f| f.is_declaration)
        .any(|f| {
            index
                .linkage
                .get(&f.id)
                .is_some_and(|l| is_bf16_devicelib(&l.name))
        })
}

/// The libraries in `dir` (`--device-lib-dir`), fallback first.
pub(crate) fn from_dir(dir: &std::path::Path) -> Result<Vec<Library>> {
    FILES
        .iter()
        .map(|&(file, native)| {
            let path = dir.join(file);
            let name = format!("{} (--device-lib-dir)", path.display());
            let bytes = std::fs::read(&path).map_err(|e| Error::Io {
                path: name.clone(),
                source: e,
            })?;
            let in_file = |e: Error| Error::InFile {
                file: name.clone(),
                source: Box::new(e),
            };
            let module = Module::from_bytes(&bytes).map_err(in_file)?;
            if library_kind(&module) != Some(native) {
                return Err(in_file(Error::Unsupported(format!(
                    "not the {} bfloat16 device library (--device-lib-dir)",
                    if native { "native" } else { "fallback" }
                ))));
            }
            Ok(Library {
                name,
                module,
                native,
            })
        })
        .collect()
}

/// A library image's property sets (see the module docs).
pub(crate) fn property_sets(library: &Library) -> Result<Vec<PropertySet>> {
    let index = Index::build(&library.module).map_err(|e| Error::InFile {
        file: library.name.clone(),
        source: Box::new(e),
    })?;
    let mut exported = PropertySet::new(crate::properties::EXPORTED_SYMBOLS);
    for f in index.functions.iter().filter(|f| !f.is_declaration) {
        if let Some(l) = index.linkage.get(&f.id).filter(|l| l.kind == 0) {
            if l.name.starts_with(b"__devicelib_") {
                exported.insert(&String::from_utf8_lossy(&l.name), Value::Uint32(1));
            }
        }
    }
    let mut metadata = PropertySet::new(crate::properties::DEVICELIB_METADATA);
    metadata.insert("bfloat16", Value::Uint32(library.native as u32));
    Ok(vec![exported, metadata])
}
