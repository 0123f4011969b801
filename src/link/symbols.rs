//! Phase 4: resolve imports to exports.
//!
//! Algorithm:
//! 1. collect the linkage decorations by name. Imports of built-in variables (decorated
//!    `BuiltIn`: `__spirv_BuiltInGlobalInvocationId` in every DPC++ image and device library)
//!    name no symbol another module defines: the environment provides them. As in spirv-link,
//!    they are not resolved and never unresolved; they are set apart, keyed by name and
//!    built-in, and merge into one variable per name, built-in and type (first, so that copies of
//!    one function using them compare equal);
//! 2. exports of one name that are copies of one another merge ([`super::copies`]);
//! 3. per name: two different exports are an error; the definition is the export, else the
//!    first `LinkOnceODR` (the others merge into it); each import of the definition's type is
//!    replaced by it; an import whose type differs only in pointee types is recorded for the
//!    adapt phase (with a note); any other difference is an error. A name without definition is
//!    an error unless it is a marker (consumed by lowering), or the environment provides it (an
//!    LLVM intrinsic `llvm.*` such as ESIMD's `llvm.genx.*`, or a device-library entry point
//!    `__devicelib_*`; kept as an import), or `allow_partial` keeps it (it is reported); either
//!    way its repeated declarations merge;
//! 4. without `create_library`, every export (and kept `LinkOnceODR`) loses its linkage;
//! 5. the definitions of resolved imports and merged duplicates are dropped (whole functions).
//!
//! Preconditions: phases 2–3 done. Postconditions: `defs` is filled; every import is resolved
//! (in `replace`), kept, or an error; the errors of the kind are reported together (the
//! unresolved ones followed by one line on how to keep them).

// Slots are addressed by index in several parallel arrays (words, sections, drop marks).
#![allow(clippy::needless_range_loop)]

use super::error::LinkError;
use super::state::{is_decoration, AdaptedCall, AdaptedVariable, State};
use super::types::{describe_type, differ_only_in_pointees, same_storage_pointers, type_of};
use super::LinkOptions;
use crate::error::{Error, Result};
use crate::markers::is_marker_name;
use crate::module::assemble::Section;
use crate::module::idhash::IdMap;
use crate::module::index::Defs;
use crate::module::inst;
use spirv::{Decoration, LinkageType, Op};
use std::collections::BTreeMap;

/// `LinkageType::Export` as the decoration's operand.
pub(super) const EXPORT: u32 = LinkageType::Export as u32;
/// `LinkageType::Import` as the decoration's operand.
const IMPORT: u32 = LinkageType::Import as u32;
/// `LinkageType::LinkOnceODR` as the decoration's operand.
const LINK_ONCE_ODR: u32 = LinkageType::LinkOnceODR as u32;

/// A linkage decoration: the symbol's id, its input, its kind (the `LinkageType` operand, kept
/// raw: an input may carry any number) and the decoration's slot.
pub(super) struct Sym {
    pub id: u32,
    pub input: usize,
    pub kind: u32,
    pub decoration: usize,
}

/// The linkage decorations of the inputs.
struct SymbolTable {
    /// By name (built-in imports excepted).
    by_name: BTreeMap<Vec<u8>, Vec<Sym>>,
    /// Imports of built-in variables, by name and built-in.
    builtin_imports: BTreeMap<(Vec<u8>, u32), Vec<Sym>>,
}

/// Resolves imports to exports (see the module docs).
pub(super) fn resolve_symbols(state: &mut State, options: &LinkOptions) -> Result<()> {
    let table = collect_symbols(state);
    state.defs = definitions(state);
    merge_builtin_imports(state, &table.builtin_imports, options);
    super::copies::merge_copies(state, &table.by_name);
    let mut errors = Vec::new();
    for (name, syms) in &table.by_name {
        resolve_name(state, name, syms, options, &mut errors);
    }
    if !errors.is_empty() {
        let count = errors
            .iter()
            .filter(|e| matches!(e, LinkError::Unresolved { .. }))
            .count();
        if count > 0 {
            // The way out, once, after the list.
            errors.push(LinkError::UnresolvedHint { count });
        }
        return Err(Error::Link(errors));
    }
    if !options.create_library {
        // Exports nobody imports lose their linkage too (spirv-link's behaviour).
        for syms in table.by_name.values() {
            for s in syms
                .iter()
                .filter(|s| s.kind != IMPORT && !state.removed_symbols.contains(&s.id))
            {
                state.drop.insert(s.decoration);
            }
        }
    }
    remove_resolved_definitions(state);
    Ok(())
}

/// The linkage decorations, by name; built-in imports apart.
fn collect_symbols(state: &State) -> SymbolTable {
    let (insts, sections) = (&state.insts, &state.sections);
    let builtin_of: IdMap<u32, u32> = (0..insts.len())
        .filter(|&n| sections[n] == Section::Annotation)
        .map(|n| insts.words(n))
        .filter(|w| is_decoration(w, Decoration::BuiltIn))
        .map(|w| (w[1], w[3]))
        .collect();
    let mut table = SymbolTable {
        by_name: BTreeMap::new(),
        builtin_imports: BTreeMap::new(),
    };
    for n in 0..insts.len() {
        let w = insts.words(n);
        if sections[n] == Section::Annotation && is_decoration(w, Decoration::LinkageAttributes) {
            if let Some((name, len)) = inst::read_string(&w[3..]) {
                let kind = w.get(3 + len).copied().unwrap_or(EXPORT);
                let sym = Sym {
                    id: w[1],
                    input: insts.input(n),
                    kind,
                    decoration: n,
                };
                match builtin_of.get(&w[1]) {
                    Some(&builtin) if kind == IMPORT => table
                        .builtin_imports
                        .entry((name, builtin))
                        .or_default()
                        .push(sym),
                    _ => table.by_name.entry(name).or_default().push(sym),
                }
            }
        }
    }
    table
}

/// The defining slot of each result id.
fn definitions(state: &State) -> Defs {
    let insts = &state.insts;
    let mut defs = Defs::with_bound(state.ids.bound(), insts.word_count(), false);
    for n in 0..insts.len() {
        if let Some(r) = insts.result(n) {
            defs.insert(r, n);
        }
    }
    defs
}

/// Built-in imports: one variable per name, built-in and type; without `allow_partial` the
/// output keeps no import, so they lose their linkage too (spirv-link does the same).
fn merge_builtin_imports(
    state: &mut State,
    builtin_imports: &BTreeMap<(Vec<u8>, u32), Vec<Sym>>,
    options: &LinkOptions,
) {
    for syms in builtin_imports.values() {
        let imports: Vec<&Sym> = syms.iter().collect();
        merge_same_type_imports(state, &imports);
        if !options.allow_partial {
            for s in syms {
                state.drop.insert(s.decoration);
            }
        }
    }
}

/// Step 3 of the module docs for one name.
fn resolve_name(
    state: &mut State,
    name: &[u8],
    syms: &[Sym],
    options: &LinkOptions,
    errors: &mut Vec<LinkError>,
) {
    let shown = String::from_utf8_lossy(name);
    // (Copies merged before are gone.)
    let exports: Vec<&Sym> = syms
        .iter()
        .filter(|s| s.kind == EXPORT && !state.removed_symbols.contains(&s.id))
        .collect();
    let odr: Vec<&Sym> = syms.iter().filter(|s| s.kind == LINK_ONCE_ODR).collect();
    let imports: Vec<&Sym> = syms.iter().filter(|s| s.kind == IMPORT).collect();
    if exports.len() > 1 {
        errors.push(LinkError::ExportedTwice {
            symbol: shown.into_owned(),
            inputs: exports
                .iter()
                .map(|s| state.inputs[s.input].clone())
                .collect(),
        });
        return;
    }
    // The definition imports resolve to: the Export, else the first LinkOnceODR.
    let definition = exports.first().copied().or(odr.first().copied());
    for dup in odr
        .iter()
        .filter(|s| Some(s.id) != definition.map(|d| d.id))
    {
        state
            .replace
            .insert(dup.id, definition.map_or(dup.id, |d| d.id));
        state.removed_symbols.insert(dup.id);
        state.drop.insert(dup.decoration);
    }
    let Some(def) = definition else {
        // Marker imports are consumed by lowering, and the environment provides LLVM intrinsics
        // and the device library's entry points; other imports stay only with --allow-partial
        // (and are reported). Either way repeated declarations merge.
        let consumed =
            is_marker_name(name) || is_provided_by_environment(name) || imports.is_empty();
        if consumed || options.allow_partial {
            merge_same_type_imports(state, &imports);
            if !consumed {
                state.report.unresolved.push(shown.into_owned());
            }
            return;
        }
        errors.push(LinkError::Unresolved {
            symbol: shown.into_owned(),
            importers: imports
                .iter()
                .map(|s| state.inputs[s.input].clone())
                .collect(),
        });
        return;
    };
    for imp in &imports {
        if let Err(e) = bind_import(state, &shown, imp, def) {
            errors.push(e);
        }
    }
    if !options.create_library && !imports.is_empty() {
        state.drop.insert(def.decoration);
    }
}

/// Whether the environment provides `name` when no input defines it, so that its import stays:
/// an LLVM intrinsic the translator leaves for the back end (ESIMD's `llvm.genx.*`, which
/// Intel's vector-compute back end implements), or a device-library entry point
/// `__devicelib_*` (`__devicelib_assert_fail`, which `assert` reaches through the library's
/// `__assert_fail`: the device compiler implements it, or the runtime links the library's
/// fallback image). DPC++'s images keep both as imports.
fn is_provided_by_environment(name: &[u8]) -> bool {
    name.starts_with(b"llvm.") || name.starts_with(b"__devicelib_")
}

/// Replaces import `imp` of `shown` by its definition `def`, or records the adaptation its type
/// needs; a type that cannot be adapted is an error.
fn bind_import(
    state: &mut State,
    shown: &str,
    imp: &Sym,
    def: &Sym,
) -> std::result::Result<(), LinkError> {
    let def_ty = type_of(state, def.id);
    let imp_ty = type_of(state, imp.id);
    if imp_ty == def_ty {
        state.replace.insert(imp.id, def.id);
        state.removed_symbols.insert(imp.id);
        state.drop.insert(imp.decoration);
        return Ok(());
    }
    let (import_input, export_input) = (
        state.inputs[imp.input].clone(),
        state.inputs[def.input].clone(),
    );
    let (import_type, export_type) = (describe_type(state, imp_ty), describe_type(state, def_ty));
    let types = || crate::diagnostic::SymbolTypes {
        symbol: shown.to_string(),
        import_input: import_input.clone(),
        import_type: import_type.clone(),
        export_input: export_input.clone(),
        export_type: export_type.clone(),
    };
    if let (Some(it), Some(dt)) = (imp_ty, def_ty) {
        if same_storage_pointers(state, it, dt) {
            state
                .report
                .notes
                .push(crate::Diagnostic::ImportBitcast(types()));
            state.adapted.variables.push(AdaptedVariable {
                import: imp.id,
                import_type: it,
                export: def.id,
            });
            if let Some(n) = state.defs.get(&imp.id) {
                state.drop.insert(n);
            }
            state.drop.insert(imp.decoration);
            return Ok(());
        }
        if differ_only_in_pointees(state, it, dt) {
            state
                .report
                .notes
                .push(crate::Diagnostic::CallsAdapted(types()));
            state.adapted.calls.push(AdaptedCall {
                import: imp.id,
                import_type: it,
                export_type: dt,
            });
            state.replace.insert(imp.id, def.id);
            state.removed_symbols.insert(imp.id);
            state.drop.insert(imp.decoration);
            return Ok(());
        }
    }
    Err(LinkError::TypeMismatch {
        symbol: shown.to_string(),
        import_input,
        import_type,
        export_input,
        export_type,
    })
}

/// Repeated imports of one name with one type become one declaration.
fn merge_same_type_imports(state: &mut State, imports: &[&Sym]) {
    let Some(first) = imports.first() else { return };
    let first_ty = type_of(state, first.id);
    for imp in &imports[1..] {
        if type_of(state, imp.id) == first_ty {
            state.replace.insert(imp.id, first.id);
            state.removed_symbols.insert(imp.id);
            state.drop.insert(imp.decoration);
        }
    }
}

/// Drops the definitions of the removed symbols: a variable's slot, or a function from
/// `OpFunction` to `OpFunctionEnd` (the ids it defines join `removed_symbols`).
fn remove_resolved_definitions(state: &mut State) {
    let State {
        insts,
        removed_symbols,
        drop,
        ..
    } = state;
    let mut n = 0;
    while n < insts.len() {
        let op = inst::opcode(insts.words(n));
        if let Some(r) = insts.result(n) {
            if removed_symbols.contains(&r) {
                if op == Op::Function as u32 {
                    while n < insts.len() {
                        let end = inst::is(insts.words(n), Op::FunctionEnd);
                        if let Some(p) = insts.result(n) {
                            removed_symbols.insert(p);
                        }
                        drop.insert(n);
                        n += 1;
                        if end {
                            break;
                        }
                    }
                    continue;
                }
                drop.insert(n);
            }
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::state::resolve;
    use super::super::testing::{
        kept, link_errors, named, state_of, TestResult, G_EXPORTED, KERNEL_CALLING_G,
    };
    use super::*;

    /// Phases 2–4 on `inputs`.
    fn resolved(inputs: &[(&str, &str)], options: &LinkOptions) -> TestResult<Result<State>> {
        let mut state = state_of(inputs)?;
        super::super::merge::merge_module_level(&mut state)?;
        super::super::dedup::deduplicate_types_and_constants(&mut state);
        Ok(resolve_symbols(&mut state, options).map(|()| state))
    }

    #[test]
    fn an_import_resolves_to_the_export() -> TestResult {
        let options = LinkOptions::default();
        let state = resolved(&[("a", KERNEL_CALLING_G), ("b", G_EXPORTED)], &options)??;
        let (import, export) = (named(&state, 0, "g"), named(&state, 1, "g"));
        assert_eq!(import.map(|i| resolve(&state.replace, i)), export);
        assert!(import.is_some_and(|i| state.removed_symbols.contains(&i)));
        // The declaration is gone; no linkage is left (not a library).
        assert_eq!(kept(&state, Op::Function).len(), 2);
        assert!(!kept(&state, Op::Decorate)
            .iter()
            .any(|w| is_decoration(w, Decoration::LinkageAttributes)));
        Ok(())
    }

    #[test]
    fn an_unresolved_import_is_an_error_unless_partial_links_are_allowed() -> TestResult {
        let errors = link_errors(resolved(
            &[("a", KERNEL_CALLING_G)],
            &LinkOptions::default(),
        )?);
        assert_eq!(
            errors,
            vec![
                LinkError::Unresolved {
                    symbol: "g".into(),
                    importers: vec!["a".into()]
                },
                LinkError::UnresolvedHint { count: 1 }
            ]
        );
        assert_eq!(
            errors[0].to_string(),
            "unresolved symbol \"g\" (imported by a)"
        );
        assert_eq!(
            errors[1].to_string(),
            "1 unresolved symbol: add the inputs that export it, or pass --allow-partial to keep \
             unresolved imports in the output (for a library linked again later, or functions \
             a driver provides)"
        );
        let partial = LinkOptions {
            allow_partial: true,
            ..LinkOptions::default()
        };
        let state = resolved(&[("a", KERNEL_CALLING_G)], &partial)??;
        assert_eq!(state.report.unresolved, vec!["g".to_string()]);
        Ok(())
    }

    #[test]
    fn an_import_of_another_type_is_an_error() -> TestResult {
        let g_int = r#"
OpDecorate %g LinkageAttributes "g" Export
%void = OpTypeVoid
%int = OpTypeInt 32 0
%fn = OpTypeFunction %void %int
%g = OpFunction %void None %fn
%p = OpFunctionParameter %int
%l = OpLabel
OpReturn
OpFunctionEnd
"#;
        let errors = link_errors(resolved(
            &[("a", KERNEL_CALLING_G), ("b", g_int)],
            &LinkOptions::default(),
        )?);
        assert_eq!(
            errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
            vec!["type mismatch for \"g\": imported by a as void (), exported by b as void (i32)"]
        );
        Ok(())
    }

    #[test]
    fn copies_of_an_export_merge_and_different_definitions_conflict() -> TestResult {
        let options = LinkOptions::default();
        let inputs = [
            ("a", KERNEL_CALLING_G),
            ("b", G_EXPORTED),
            ("c", G_EXPORTED),
        ];
        let state = resolved(&inputs, &options)??;
        assert_eq!(
            (state.report.notes.iter())
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            vec![
                "1 symbol(s) exported by several inputs with the same definition, one copy kept: \"g\""
            ]
        );
        assert_eq!(kept(&state, Op::Function).len(), 2);
        let other = G_EXPORTED.replace("OpReturn", "OpUnreachable");
        let inputs = [("a", KERNEL_CALLING_G), ("b", G_EXPORTED), ("c", &other)];
        let errors = link_errors(resolved(&inputs, &options)?);
        assert_eq!(
            errors,
            vec![LinkError::ExportedTwice {
                symbol: "g".into(),
                inputs: vec!["b".into(), "c".into()]
            }]
        );
        assert_eq!(errors[0].to_string(), "symbol \"g\" is exported by b and c");
        Ok(())
    }
}
