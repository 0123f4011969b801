//! The linker against `spirv-link` (SPIRV-Tools) on every golden link case: link only (the
//! phases, markers still there) and linked and lowered ([`crate::process`]), each compared with
//! spirv-link's output (functions, entry points, linkage) and checked with spirv-val. A unit
//! test because the link-only module is an internal stage's result.
//!
//! The module reader here ([`Summary`]) decodes the words itself rather than through the
//! crate's index: it reads spirv-link's output and ours alike.

use super::testing::TestResult;
use super::{LinkInput, LinkOptions};
use crate::module::index::Index;
use crate::module::Module;
use crate::{process, Input, Options, Validation};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const MARKER_PREFIXES: [&str; 2] = [
    "_Z37__sycl_getScalar2020SpecConstantValue",
    "_Z40__sycl_getComposite2020SpecConstantValue",
];

fn is_marker(name: &str) -> bool {
    MARKER_PREFIXES.iter().any(|p| name.starts_with(p))
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch directory under the system temp dir, made empty on creation and removed when
/// dropped — but kept, with its path printed, when dropped while the test fails.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> TestResult<Scratch> {
        let d = std::env::temp_dir().join(format!("spec-link-unit-{tag}.{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d)?;
        Ok(Scratch(d))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("(scratch directory kept: {})", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The entries of `dir` whose file name `keep` accepts, sorted by path.
fn sorted_entries(dir: &Path, keep: impl Fn(&str) -> bool) -> TestResult<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if keep(&file_name(&path)?) {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

fn file_name(path: &Path) -> TestResult<String> {
    Ok(path
        .file_name()
        .ok_or_else(|| format!("{} has no file name", path.display()))?
        .to_string_lossy()
        .into_owned())
}

/// Runs a tool; an error naming it when it cannot be started.
fn tool(name: &str, args: &[&str], stdin: Option<&[u8]>) -> TestResult<Output> {
    use std::io::Write;
    let mut child = Command::new(name)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("required tool `{name}` could not be run ({e}); run scripts/setup.sh")
        })?;
    if let Some(data) = stdin {
        child.stdin.take().ok_or("no stdin")?.write_all(data)?;
    }
    Ok(child.wait_with_output()?)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Assembles a `.spvasm` file: SPIR-V 1.4, unless a `; target-env: <env>` line at the top of the
/// file says otherwise.
fn assemble_file(path: &Path) -> TestResult<Vec<u8>> {
    let text = std::fs::read_to_string(path)?;
    let env = text
        .lines()
        .take_while(|l| l.starts_with(';'))
        .find_map(|l| l.strip_prefix("; target-env: "))
        .unwrap_or("spv1.4")
        .trim()
        .to_string();
    let file = path.display().to_string();
    let out = tool("spirv-as", &["--target-env", &env, &file, "-o", "-"], None)?;
    if !out.status.success() {
        return Err(format!("spirv-as {file} failed:\n{}", stderr(&out)).into());
    }
    Ok(out.stdout)
}

/// spirv-val's first error line, or `None` when the module is valid.
fn val_error(bytes: &[u8], env: &str) -> TestResult<Option<String>> {
    let first = |m: String| {
        let line = m.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        line.trim().to_string()
    };
    Ok(crate::validate::spirv_val(bytes, env)?.map(first))
}

/// `Ok(None)`: the output is valid. `Ok(Some(input))`: it fails spirv-val with the same (masked)
/// first error as that input already has — a producer bug spec-link did not introduce.
/// `Err`: a new error.
fn valid_or_inherited(
    bytes: &[u8],
    env: &str,
    inputs: &[(&str, &[u8])],
) -> TestResult<Result<Option<String>, String>> {
    let Some(err) = val_error(bytes, env)? else {
        return Ok(Ok(None));
    };
    for (name, input) in inputs {
        if let Some(e) = val_error(input, env)? {
            if crate::validate::error_key(&e) == crate::validate::error_key(&err) {
                return Ok(Ok(Some(format!("{name}: {e}"))));
            }
        }
    }
    Ok(Err(err))
}

/// A literal string starting at `w[0]`; returns it and the number of words it takes.
fn literal(w: &[u32]) -> (String, usize) {
    let (bytes, len) = crate::module::inst::read_string(w).unwrap_or_default();
    (String::from_utf8_lossy(&bytes).into_owned(), len)
}

const LINK_EXPORT: u32 = 0;
const LINK_IMPORT: u32 = 1;
const LINK_ONCE_ODR: u32 = 2;

/// What the comparison reads of a module.
#[derive(Debug, Default)]
struct Summary {
    /// Result ids of `OpFunction`, in order.
    functions: Vec<u32>,
    /// `OpName`s.
    names: BTreeMap<u32, String>,
    /// Entry-point names.
    entry_points: Vec<String>,
    /// `LinkageAttributes`: (target, name, linkage type).
    linkage: Vec<(u32, String, u32)>,
}

impl Summary {
    /// Reads a little-endian module.
    fn of(bytes: &[u8]) -> TestResult<Summary> {
        if bytes.get(..4) != Some(&0x0723_0203u32.to_le_bytes()[..]) {
            return Err("not a little-endian SPIR-V module".into());
        }
        let w: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let mut s = Summary::default();
        let mut i = 5;
        while i < w.len() {
            let n = (w[i] >> 16) as usize;
            let op = w[i] & 0xffff;
            if n == 0 || i + n > w.len() {
                return Err(format!("malformed module at word {i}").into());
            }
            let inst = &w[i..i + n];
            match op {
                5 => {
                    s.names.insert(inst[1], literal(&inst[2..]).0);
                }
                15 => s.entry_points.push(literal(&inst[3..]).0),
                71 if inst[2] == 41 => {
                    let (name, k) = literal(&inst[3..]);
                    s.linkage.push((inst[1], name, inst[3 + k]));
                }
                54 => s.functions.push(inst[2]),
                _ => {}
            }
            i += n;
        }
        Ok(s)
    }

    /// The `OpName`s of the functions (unnamed functions are left out).
    fn function_names(&self) -> BTreeSet<String> {
        self.functions
            .iter()
            .filter_map(|f| self.names.get(f).cloned())
            .collect()
    }

    /// Import and Export decorations as (name, "Import"/"Export"); LinkOnceODR apart.
    fn linkage_set(&self, with_markers: bool) -> BTreeSet<(String, &'static str)> {
        self.linkage
            .iter()
            .filter(|(_, name, _)| with_markers || !is_marker(name))
            .filter_map(|(_, name, t)| match *t {
                LINK_EXPORT => Some((name.clone(), "Export")),
                LINK_IMPORT => Some((name.clone(), "Import")),
                _ => None,
            })
            .collect()
    }

    /// Number of functions once duplicate import declarations of one name and duplicate
    /// `LinkOnceODR` definitions of one name count once (spirv-link keeps every copy).
    fn distinct_function_count(&self) -> usize {
        let mut per_name: BTreeMap<(&str, u32), usize> = BTreeMap::new();
        for (t, name, kind) in &self.linkage {
            if (*kind == LINK_IMPORT || *kind == LINK_ONCE_ODR) && self.functions.contains(t) {
                *per_name.entry((name.as_str(), *kind)).or_default() += 1;
            }
        }
        self.functions.len() - per_name.values().map(|n| n - 1).sum::<usize>()
    }

    fn marker_declarations(&self) -> usize {
        self.linkage
            .iter()
            .filter(|(t, name, _)| is_marker(name) && self.functions.contains(t))
            .map(|(_, name, _)| name)
            .collect::<BTreeSet<_>>()
            .len()
    }
}

/// Fails the test listing every failure found (the test gathers them to report all at once).
fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failure(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Our linker and `spirv-link` (SPIRV-Tools) on every golden link case
/// (`testdata/link-*/inputs/*.spvasm`, `args` mapped: `--allow-partial` →
/// `--allow-partial-linkage`, `--create-library` → `--create-library`; spirv-link also gets
/// `--allow-partial-linkage` when the inputs import spec-constant markers, which it cannot know
/// are consumed by lowering).
///
/// Where both link, compared:
/// - link only ([`super::link`], markers still there) against spirv-link's output: the
///   same function `OpName`s, entry points and Import/Export `LinkageAttributes`, and the same
///   number of functions once spirv-link's duplicates are counted once (it keeps one import
///   declaration per importing module and every `LinkOnceODR` copy; we keep one);
/// - the full run (linked and lowered): the same, with the markers left out on spirv-link's side.
///
/// Ours: the full run passes spirv-val; the link-only module passes it, or fails only with an
/// error an input already has (several golden inputs are invalid before linking:
/// `OpPtrCastToGeneric` to another pointee type, `LinkOnceODR` without `SPV_KHR_linkonce_odr`;
/// lowering removes both). An error case (`expected.err`) must fail in ours.
///
/// spirv-link's behaviour, SPIRV-Tools v2023.1 (Debian 12), recorded when this test was written
/// (printed again by each run, `cargo test --lib spirv_link_comparison -- --nocapture`):
///
/// | case | spirv-link | spirv-val on spirv-link's output |
/// |---|---|---|
/// | link-basic (+`--allow-partial-linkage` for the markers) | links; two marker import declarations, b's after a's kernel | NEW: "Function declarations must appear before function definitions." (checked before the inputs' own `OpPtrCastToGeneric` error) |
/// | link-library (`--create-library`, + partial) | links; same | NEW: "Function declarations must appear before function definitions." |
/// | link-linkonce | links, keeps both `odr` copies and both `LinkOnceODR` decorations, drops `Linkage` | NEW: "Operand 2 of Decorate requires one of these capabilities: Linkage" |
/// | link-partial (`--allow-partial-linkage`) | links; two `missing` declarations, the second after a definition | NEW: "Function declarations must appear before function definitions." |
/// | link-multiple-definitions | links (no error: nothing imports `helper`), two `helper`s, names and `Linkage` dropped | NEW: "No OpEntryPoint instruction was found. This is only allowed if the Linkage capability is being used." — ours: error `symbol "helper" is exported by a.spv and b.spv` |
/// | link-specid-collision | links silently: SpecId 3 on two constants | passes — ours: error naming SpecId 3 and both files |
/// | link-renumber-spec-ids | links; SpecId 3 twice (no renumbering option) | passes |
/// | link-type-mismatch | error "Type mismatch on symbol "helper" between imported variable/function %2 and exported variable/function %11." | — |
/// | link-unresolved | error "Unresolved external reference to "missing"." | — |
/// | link-pointee-mismatch | error "Type mismatch on symbol "fill" …" (no pointer-mismatch option in v2023.1) | — ours links it |
/// | link-duplicate-entry-point | error "The entry point "K", with execution model Kernel, was already defined." | — ours: error naming both files (linking it would leave a module only spirv-val rejects) |
/// | link-version (1.2 + 1.4) | error "Conflicting SPIR-V versions: 1.2 (input modules 1 through 1) vs 1.4 (input module 2)." | — ours links it (1.4) |
#[test]
fn spirv_link_comparison() -> TestResult {
    let tmp = Scratch::new("spirv-link")?;
    let mut failures = Vec::new();
    let mut table = Vec::new();
    let mut compared = BTreeSet::new();
    for case in sorted_entries(&repo().join("testdata"), |n| n.starts_with("link-"))? {
        let name = file_name(&case)?;
        let files =
            sorted_entries(&case.join("inputs"), |n| n.ends_with(".spvasm")).unwrap_or_default();
        if files.is_empty() {
            continue;
        }
        let args = std::fs::read_to_string(case.join("args")).unwrap_or_default();
        let args: Vec<&str> = args
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let mut opts = LinkOptions::default();
        for a in &args {
            match *a {
                "--allow-partial" => opts.allow_partial = true,
                "--create-library" => opts.create_library = true,
                "--renumber-spec-ids" => opts.renumber_spec_ids = true,
                _ => {}
            }
        }
        let expect_error = case.join("expected.err").exists();
        let inputs: Vec<Input> = files
            .iter()
            .map(|p| {
                Ok(Input::from_bytes(
                    file_name(p)?.replace(".spvasm", ".spv"),
                    assemble_file(p)?,
                ))
            })
            .collect::<TestResult<_>>()?;
        let case_tmp = tmp.0.join(&name);
        std::fs::create_dir_all(&case_tmp)?;
        let input_bytes: Vec<Vec<u8>> = inputs
            .iter()
            .map(|i| Ok(i.bytes()?.into_owned()))
            .collect::<TestResult<_>>()?;
        let mut paths = Vec::new();
        for (i, bytes) in inputs.iter().zip(&input_bytes) {
            let p = case_tmp.join(&i.name);
            std::fs::write(&p, bytes)?;
            paths.push(p.display().to_string());
        }
        let input_refs: Vec<(&str, &[u8])> = inputs
            .iter()
            .zip(&input_bytes)
            .map(|(i, b)| (i.name.as_str(), b.as_slice()))
            .collect();
        let mut has_markers = false;
        for bytes in &input_bytes {
            has_markers |= Summary::of(bytes)?
                .linkage
                .iter()
                .any(|(_, n, _)| is_marker(n));
        }

        // spirv-link
        let partial = opts.allow_partial || has_markers;
        let theirs_path = case_tmp.join("spirv-link.spv");
        let (theirs, theirs_note) = run_spirv_link(
            &paths,
            partial,
            opts.create_library,
            &theirs_path,
            &input_refs,
        )?;

        // ours: link only
        let linked = link_only(&inputs, &input_bytes, &opts)?;
        // ours: linked and lowered
        let full = process(
            &inputs,
            &Options {
                validation: Validation::Never,
                link: opts,
                ..Options::default()
            },
        );

        if expect_error {
            let ours_note = match &full {
                Err(e) => format!("ours: error: {e}"),
                Ok(_) => {
                    failures.push(format!(
                        "{name}: expected an error, but spec-link succeeded"
                    ));
                    "ours: succeeded (unexpected)".into()
                }
            };
            table.push(format!("{name}: {theirs_note}; {ours_note}"));
            continue;
        }
        let (words, _) = match linked {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{name}: our linker failed: {e}"));
                continue;
            }
        };
        let ours_link: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let full = match full {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{name}: spec-link failed: {e}"));
                continue;
            }
        };
        // Our outputs against spirv-val.
        let env = "spv1.4";
        let full_bytes = full.module.to_bytes()?;
        if let Some(e) = val_error(&full_bytes, env)? {
            failures.push(format!(
                "{name}: our linked and lowered output fails spirv-val: {e}"
            ));
        }
        let ours_note = match valid_or_inherited(&ours_link, env, &input_refs)? {
            Ok(None) => "ours: link-only and lowered outputs pass spirv-val".to_string(),
            Ok(Some(e)) => format!("ours: lowered passes; link-only fails as the input does ({e})"),
            Err(e) => {
                failures.push(format!(
                    "{name}: our link-only output fails spirv-val with a new error: {e}"
                ));
                format!("ours: link-only output FAILS spirv-val: {e}")
            }
        };
        table.push(format!("{name}: {theirs_note}; {ours_note}"));

        // Structure against spirv-link's.
        let Some(theirs) = theirs else { continue };
        compare_structure(
            &name,
            &theirs,
            &ours_link,
            &full_bytes,
            &opts,
            &mut failures,
        )?;
        compared.insert(name.clone());
    }
    eprintln!("spirv-link comparison:\n  {}", table.join("\n  "));
    assert_no_failures(&failures);
    for must in [
        "link-basic",
        "link-library",
        "link-linkonce",
        "link-partial",
        "link-renumber-spec-ids",
    ] {
        assert!(
            compared.contains(must),
            "{must} was not compared with spirv-link (compared: {compared:?})"
        );
    }
    Ok(())
}

/// Runs spirv-link on the input files; returns its output (when it links) and a line for the
/// comparison table about it.
fn run_spirv_link(
    paths: &[String],
    partial: bool,
    library: bool,
    out: &std::path::Path,
    input_refs: &[(&str, &[u8])],
) -> TestResult<(Option<Vec<u8>>, String)> {
    let mut args: Vec<String> = Vec::new();
    if partial {
        args.push("--allow-partial-linkage".into());
    }
    if library {
        args.push("--create-library".into());
    }
    args.extend(paths.iter().cloned());
    args.extend(["-o".into(), out.display().to_string()]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let sl = tool("spirv-link", &refs, None)?;
    let theirs = if sl.status.success() {
        Some(std::fs::read(out)?)
    } else {
        None
    };
    let note = match &theirs {
        None => format!(
            "spirv-link error: {}",
            stderr(&sl).lines().next().unwrap_or("").trim()
        ),
        Some(bytes) => match valid_or_inherited(bytes, "spv1.4", input_refs)? {
            Ok(None) => "spirv-link output passes spirv-val".to_string(),
            Ok(Some(e)) => format!("spirv-link output fails spirv-val as the input does ({e})"),
            Err(e) => format!("spirv-link output FAILS spirv-val: {e}"),
        },
    };
    Ok((theirs, note))
}

/// Our linker alone (no lowering) on the inputs.
fn link_only(
    inputs: &[Input],
    input_bytes: &[Vec<u8>],
    opts: &LinkOptions,
) -> TestResult<crate::Result<(Vec<u32>, super::LinkReport)>> {
    let modules: Vec<(Module, Index)> = input_bytes
        .iter()
        .map(|bytes| {
            let m = Module::from_bytes(bytes)?;
            let x = Index::build(&m)?;
            Ok((m, x))
        })
        .collect::<TestResult<_>>()?;
    let link_inputs: Vec<LinkInput> = inputs
        .iter()
        .zip(&modules)
        .map(|(i, (m, x))| LinkInput {
            name: &i.name,
            module: m,
            index: x,
        })
        .collect();
    Ok(super::link(&link_inputs, opts))
}

/// The structure of our link-only and lowered outputs against spirv-link's: function names,
/// entry points, linkage, function counts; no LinkOnceODR left.
fn compare_structure(
    name: &str,
    theirs: &[u8],
    ours_link: &[u8],
    full_bytes: &[u8],
    opts: &LinkOptions,
    failures: &mut Vec<String>,
) -> TestResult {
    let t = Summary::of(theirs)?;
    let o = Summary::of(ours_link)?;
    let f = Summary::of(full_bytes)?;
    let mut check = |what: &str, ok: bool, detail: String| {
        if !ok {
            failures.push(format!("{name}: {what}: {detail}"));
        }
    };
    let names_t = t.function_names();
    check(
        "function names (link only)",
        o.function_names() == names_t,
        format!("ours {:?}, spirv-link {:?}", o.function_names(), names_t),
    );
    let names_t_lowered: BTreeSet<String> =
        names_t.iter().filter(|n| !is_marker(n)).cloned().collect();
    check(
        "function names (lowered)",
        f.function_names() == names_t_lowered,
        format!(
            "ours {:?}, spirv-link without markers {:?}",
            f.function_names(),
            names_t_lowered
        ),
    );
    let eps = |s: &Summary| s.entry_points.iter().cloned().collect::<BTreeSet<_>>();
    check(
        "entry points (link only)",
        eps(&o) == eps(&t) && o.entry_points.len() == t.entry_points.len(),
        format!("ours {:?}, spirv-link {:?}", o.entry_points, t.entry_points),
    );
    check(
        "entry points (lowered)",
        eps(&f) == eps(&t) && f.entry_points.len() == t.entry_points.len(),
        format!("ours {:?}, spirv-link {:?}", f.entry_points, t.entry_points),
    );
    check(
        "linkage (link only)",
        o.linkage_set(true) == t.linkage_set(true),
        format!(
            "ours {:?}, spirv-link {:?}",
            o.linkage_set(true),
            t.linkage_set(true)
        ),
    );
    check(
        "linkage (lowered)",
        f.linkage_set(true) == t.linkage_set(false),
        format!(
            "ours {:?}, spirv-link without markers {:?}",
            f.linkage_set(true),
            t.linkage_set(false)
        ),
    );
    check(
        "function count (link only)",
        o.functions.len() == t.distinct_function_count(),
        format!(
            "ours {}, spirv-link {} ({} counting duplicates once)",
            o.functions.len(),
            t.functions.len(),
            t.distinct_function_count()
        ),
    );
    check(
        "function count (lowered)",
        f.functions.len() == t.distinct_function_count() - t.marker_declarations(),
        format!(
            "ours {}, spirv-link {} less {} marker declaration(s)",
            f.functions.len(),
            t.distinct_function_count(),
            t.marker_declarations()
        ),
    );
    // No LinkOnceODR survives a (non-library) link of ours.
    if !opts.create_library {
        check(
            "LinkOnceODR left",
            !f.linkage.iter().any(|l| l.2 == LINK_ONCE_ODR),
            format!("{:?}", f.linkage),
        );
    }
    Ok(())
}
