//! The `spec-link` command: arguments → [`spec_link::Options`], run, print, exit code.
//! Exit 0 on success, 1 on a processing error (`error: …` on stderr, no file written or
//! modified), 2 on a usage error.

use clap::{Parser, ValueEnum};
use spec_link::{process_owned, Error, Input, Options, SpecConstMode, Validation};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
  spec-link in.spv -o out.spv --validate --target-env spv1.4
      fail unless spirv-val accepts the output in that environment

Exit status: 0 success; 1 processing error (nothing written); 2 usage error.";

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Mode {
    /// OpSpecConstant* + SpecId decorations (SPIR-V JIT targets)
    Native,
    /// loads from a spec-constant buffer passed to each kernel (AOT targets)
    Emulation,
    /// the default values as ordinary constants (no spec constants left)
    DefaultValues,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Layout {
    /// each constant at the next multiple of its alignment (DPC++)
    Aligned,
    /// no padding between constants; loads use Aligned 1
    Packed,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Order {
    /// in order of first use: functions in module order, calls in order
    FirstUse,
    /// as DPC++ numbers them: marker declarations in module order, each one's calls last first
    /// (on the DPC++ 2026.2 images in testdata/dpcpp, the property sets are then DPC++'s byte for
    /// byte)
    Dpcpp,
}

/// Lower SYCL 2020 specialization-constant markers in SPIR-V and write DPC++-compatible
/// property sets.
///
/// Links the input modules (several inputs), finds every call to
/// __sycl_getScalar2020SpecConstantValue / __sycl_getComposite2020SpecConstantValue, numbers the
/// spec constants, replaces each call — with OpSpecConstant*/OpSpecConstantComposite (native), a
/// load from a spec-constant buffer passed to the kernel (emulation) or its default value
/// (default-values) — removes the markers and the globals they used, and describes the result in
/// DPC++'s [SYCL/specialization constants] property sets.
#[derive(Parser, Debug)]
#[command(name = "spec-link", version, after_help = EXAMPLES)]
struct Cli {
    /// SPIR-V modules to read: files, '-' (standard input), or glob patterns that spec-link
    /// expands itself (sorted; a pattern matching nothing is an error; an existing file whose
    /// name holds '*', '?' or '[' is read as it is). Several modules are linked into one before
    /// lowering.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,

    /// Output module ('-' = standard output). Written to a temporary file renamed into place on
    /// success; an existing non-regular file (/dev/null, a FIFO) is written in place. May be the
    /// input (lowered in place); no other output may name the same file
    #[arg(short, long, value_name = "FILE", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    output: String,

    /// How to lower spec constants
    #[arg(
        long = "spec-const",
        value_enum,
        default_value = "native",
        value_name = "MODE"
    )]
    spec_const: Mode,

    /// Layout of the emulation buffer (emulation and default-values modes)
    #[arg(long, value_enum, default_value = "aligned", value_name = "LAYOUT")]
    emulation_layout: Layout,

    /// Order in which new spec constants get their SpecIds (and their places in the emulation
    /// buffer). The runtime reads both from the property sets, so either order works
    #[arg(long, value_enum, default_value = "first-use", value_name = "ORDER")]
    spec_id_order: Order,

    /// Linking: keep imports no input exports (listed in the JSON sidecar). Imports of built-in variables (`BuiltIn`-decorated) are never unresolved; with this option they also keep their Import
    #[arg(long)]
    allow_partial: bool,

    /// Linking: keep exports (the output is a library)
    #[arg(long)]
    create_library: bool,

    /// Linking: give the later input's SpecIds that collide with an earlier input's fresh
    /// numbers (listed in the JSON sidecar) instead of failing
    #[arg(long)]
    renumber_spec_ids: bool,

    /// Write the property sets in DPC++ .prop text format
    #[arg(long, value_name = "FILE")]
    prop: Option<PathBuf>,

    /// Write the JSON sidecar (format spec-link-sidecar/1)
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,

    /// Validate the output with spirv-val; fail if spirv-val is missing
    /// [default: validate when spirv-val is on PATH]. An output that fails is an error (exit 1,
    /// nothing written) unless the input fails the same way — also once the instructions
    /// spec-link removed, where spirv-val stops in the input, are set aside — or spirv-val cannot
    /// read the input: then it is written with a warning ($SPEC_LINK_SPIRV_VAL names another
    /// validator, which must then run, --validate or not)
    #[arg(long, conflicts_with = "no_validate")]
    validate: bool,

    /// Do not run spirv-val on the output
    #[arg(long)]
    no_validate: bool,

    /// Index and search the module even when nothing in it names a marker (by default such a
    /// module is copied to the output unindexed, its instruction boundaries checked on the way):
    /// a malformed module is then reported; a valid one gives the same bytes
    #[arg(long)]
    no_pass_through: bool,

    /// Target environment for spirv-val (e.g. opencl2.2, spv1.4)
    /// [default: opencl2.2 for SPIR-V <= 1.2 Kernel modules, else spv<version>]
    #[arg(long, value_name = "ENV")]
    target_env: Option<String>,

    /// Print nothing but errors
    #[arg(short, long, conflicts_with = "verbose")]
    quiet: bool,

    /// Print what was found and done
    #[arg(short, long)]
    verbose: bool,
}

/// Reads an input; a single input is read lazily (a module without markers is then copied to
/// the output by the kernel, or as it is read, and never indexed).
fn read_input(name: &str, lazily: bool) -> Result<Input, Error> {
    if name == "-" {
        if lazily {
            return Input::read_lazily("<stdin>", Box::new(std::io::stdin()), None);
        }
        return Input::read("<stdin>", &mut std::io::stdin().lock(), None);
    }
    if !lazily {
        // Several inputs: each is opened when the linker takes it (not all in memory at once).
        return Ok(Input::deferred(Path::new(name)));
    }
    Input::open(Path::new(name), lazily)
}

/// Expands glob patterns (sorted per pattern); plain names, existing files and '-' pass through.
fn expand_inputs(args: &[String]) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    for a in args {
        // (A file whose name holds pattern characters, `k[1].spv`, is taken as it is.)
        if a == "-" || !a.contains(['*', '?', '[']) || Path::new(a).is_file() {
            out.push(a.clone());
            continue;
        }
        let paths = glob::glob(a)
            .map_err(|e| Error::Unsupported(format!("invalid input pattern '{a}': {e}")))?;
        let mut matched: Vec<String> = Vec::new();
        for p in paths {
            let p = p.map_err(|e| Error::Io {
                path: e.path().display().to_string(),
                source: std::io::Error::other(e.to_string()),
            })?;
            if p.is_file() {
                matched.push(p.display().to_string());
            }
        }
        if matched.is_empty() {
            return Err(Error::Unsupported(format!(
                "input pattern '{a}' matches no file"
            )));
        }
        matched.sort();
        out.extend(matched);
    }
    Ok(out)
}

/// A file written next to its destination and renamed into place only when everything succeeded.
struct Staged {
    tmp: PathBuf,
    dest: PathBuf,
    /// Its slot among the temporaries removed on a signal.
    on_signal: Option<usize>,
}

impl Drop for Staged {
    fn drop(&mut self) {
        // Still here means it was not committed: remove the temporary.
        let _ = std::fs::remove_file(&self.tmp);
        if let Some(slot) = self.on_signal {
            remove_on_signal::forget(slot);
        }
    }
}

/// Temporaries removed when SIGINT, SIGTERM or SIGHUP ends the process (an interrupted build
/// leaves no `.out.spv.spec-link-N.tmp` behind), as LLVM's tools do. The handler only reads
/// atomics and calls `unlink`, then dies of the same signal with the default action. A signal
/// that was ignored when spec-link started (`nohup`) stays ignored.
#[cfg(target_os = "linux")]
mod remove_on_signal {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::atomic::{AtomicPtr, Ordering};

    /// One slot per staged output (-o, --prop, --json).
    static TEMPS: [AtomicPtr<libc::c_char>; 3] =
        [const { AtomicPtr::new(std::ptr::null_mut()) }; 3];

    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    extern "C" fn handler(sig: libc::c_int) {
        for slot in &TEMPS {
            let path = slot.load(Ordering::SeqCst);
            if !path.is_null() {
                // SAFETY: a registered path is a NUL-terminated string that is never freed;
                // unlink and signal/raise are async-signal-safe.
                unsafe { libc::unlink(path) };
            }
        }
        // SAFETY: restores the default action and raises the signal again: the process ends as
        // if it had not been caught (the exit status names the signal).
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    /// Installs the handler (first thing in `main`, before any thread exists).
    pub fn install() {
        for sig in SIGNALS {
            // SAFETY: a zeroed sigaction is a valid out-parameter; a null new action only
            // queries the current one.
            let mut current: libc::sigaction = unsafe { std::mem::zeroed() };
            let queried = unsafe { libc::sigaction(sig, std::ptr::null(), &mut current) } == 0;
            if !queried || current.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            // SAFETY: installs a handler that only does async-signal-safe work (above).
            unsafe { libc::signal(sig, handler as *const () as libc::sighandler_t) };
        }
    }

    /// Registers a temporary to remove on a signal; its slot, or `None` when all are taken (it
    /// is then left behind if a signal comes) or the path holds a NUL byte.
    pub fn remember(path: &Path) -> Option<usize> {
        let raw = CString::new(path.as_os_str().as_bytes()).ok()?.into_raw();
        for (k, slot) in TEMPS.iter().enumerate() {
            let free = std::ptr::null_mut();
            if slot
                .compare_exchange(free, raw, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return Some(k);
            }
        }
        // SAFETY: `raw` came from `into_raw` above and was not published.
        drop(unsafe { CString::from_raw(raw) });
        None
    }

    /// The temporary in `slot` is gone (renamed or removed). Its string is not freed: a handler
    /// running on another thread may still be reading it (three short strings per run at most).
    pub fn forget(slot: usize) {
        if let Some(s) = TEMPS.get(slot) {
            s.store(std::ptr::null_mut(), Ordering::SeqCst);
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod remove_on_signal {
    pub fn install() {}
    pub fn remember(_: &std::path::Path) -> Option<usize> {
        None
    }
    pub fn forget(_: usize) {}
}

/// Writes a file next to `dest` with `write`, to be renamed into place later. A destination that
/// exists and is not a regular file (`/dev/null`, a FIFO, a terminal) is written directly — a
/// rename would replace it — and `None` is returned: like standard output, it cannot be unwritten.
fn stage(
    dest: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> Result<(), Error>,
) -> Result<Option<Staged>, Error> {
    let io = |e| Error::Io {
        path: dest.display().to_string(),
        source: e,
    };
    let write_error = |e| match e {
        Error::Write(e) => io(e),
        e => e,
    };
    // (Refused now, not when the temporary is renamed over it: by then an earlier output may
    // already be in place.)
    if std::fs::metadata(dest).is_ok_and(|m| m.is_dir()) {
        return Err(io(std::io::Error::other("is a directory")));
    }
    if std::fs::metadata(dest).is_ok_and(|m| !m.is_file()) {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(dest)
            .map_err(io)?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        write(&mut out).map_err(write_error)?;
        out.into_inner().map_err(|e| io(e.into_error()))?;
        return Ok(None);
    }
    let dest = &replaced_by(dest);
    let dir = dest
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut file = dest
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    // The temporary's name must fit where the output's does (255 bytes on most file systems):
    // a long name is cut (its beginning still says whose temporary it is).
    const KEEP: usize = 200;
    if file.len() > KEEP {
        let mut end = KEEP;
        while !file.is_char_boundary(end) {
            end -= 1;
        }
        file.truncate(end);
    }
    // A name of our own, created here (never truncating a file some other process left or is
    // writing: a stale temporary of a killed run, or one of another process with the same id
    // in another PID namespace sharing the directory); `Staged` removes only what it created.
    let mut attempt = 0u32;
    let (staged, file) = loop {
        let suffix = if attempt == 0 {
            String::new()
        } else {
            format!(".{attempt}")
        };
        let tmp = dir.join(format!(
            ".{file}.spec-link-{}{suffix}.tmp",
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => {
                let on_signal = remove_on_signal::remember(&tmp);
                let staged = Staged {
                    tmp,
                    dest: dest.to_path_buf(),
                    on_signal,
                };
                break (staged, f);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                attempt += 1
            }
            Err(e) => return Err(io(e)),
        }
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    write(&mut out).map_err(write_error)?;
    out.into_inner().map_err(|e| io(e.into_error()))?;
    Ok(Some(staged))
}

/// Why a run failed: a usage error (exit 2) or a processing error (exit 1).
enum Failure {
    Usage(String),
    Error(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Error(e)
    }
}

/// The path an output written to `dest` is renamed over: `dest`, or the regular file a symbolic
/// link `dest` leads to — the link stays a link, as when `cp` or `spirv-opt` write through it.
fn replaced_by(dest: &Path) -> PathBuf {
    let is_link = std::fs::symlink_metadata(dest).is_ok_and(|m| m.file_type().is_symlink());
    if is_link && std::fs::metadata(dest).is_ok_and(|m| m.is_file()) {
        if let Ok(target) = std::fs::canonicalize(dest) {
            return target;
        }
    }
    dest.to_path_buf()
}

/// The directory entry an output at `path` replaces, or an input at `path` is read from, as one
/// canonical path (`None` when its directory does not exist, or it exists and is not a regular
/// file or a link to one: such an output is written in place, or fails on its own).
fn entry_of(path: &Path) -> Option<PathBuf> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => std::fs::canonicalize(path).ok(),
        Ok(_) => None,
        // Not there (or a dangling link, which is replaced itself): its directory, resolved.
        Err(_) => {
            let dir = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            Some(std::fs::canonicalize(dir).ok()?.join(path.file_name()?))
        }
    }
}

/// Arguments that cannot work together, found before anything is read or written: standard
/// input named twice, and outputs that would overwrite each other or an input. Two outputs
/// replacing one file would leave one of them (and an error half-way through the renames); a
/// sidecar replacing an input would turn the module into text. The module's own output may
/// replace an input (lowering in place: the input is read first).
fn check_arguments(cli: &Cli, inputs: &[String]) -> Result<(), String> {
    if inputs.iter().filter(|a| *a == "-").count() > 1 {
        return Err("standard input ('-') can be read only once".into());
    }
    let mut outputs: Vec<(&str, &Path)> = Vec::new();
    if cli.output != "-" {
        outputs.push(("-o", Path::new(&cli.output)));
    }
    if let Some(p) = &cli.prop {
        outputs.push(("--prop", p));
    }
    if let Some(j) = &cli.json {
        outputs.push(("--json", j));
    }
    let entries: Vec<(&str, &Path, PathBuf)> = outputs
        .into_iter()
        .filter_map(|(flag, p)| Some((flag, p, entry_of(p)?)))
        .collect();
    for (k, (flag, path, entry)) in entries.iter().enumerate() {
        if let Some((other, _, _)) = entries[..k].iter().find(|(_, _, e)| e == entry) {
            return Err(format!(
                "{other} and {flag} name the same file ({}): each output needs a file of its own",
                path.display()
            ));
        }
    }
    // A sidecar that is (or leads to) an existing file, compared with each input by identity:
    // one `stat` an input, and none at all when no sidecar exists yet (a link may have 9,000
    // inputs).
    let sidecars: Vec<(&str, FileId)> = entries
        .iter()
        .filter(|(flag, _, _)| *flag != "-o")
        .filter_map(|(flag, path, _)| Some((*flag, file_id(path)?)))
        .collect();
    if sidecars.is_empty() {
        return Ok(());
    }
    for input in inputs.iter().filter(|i| *i != "-") {
        let Some(id) = file_id(Path::new(input)) else {
            continue;
        };
        if let Some((flag, _)) = sidecars.iter().find(|(_, s)| *s == id) {
            return Err(format!(
                "{flag} names the input {input}: the sidecar would replace the module"
            ));
        }
    }
    Ok(())
}

/// Which file a path leads to (following links), when it is a regular file.
#[cfg(unix)]
type FileId = (u64, u64);
#[cfg(not(unix))]
type FileId = PathBuf;

#[cfg(unix)]
fn file_id(path: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(path: &Path) -> Option<FileId> {
    std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    std::fs::canonicalize(path).ok()
}

fn run(cli: &Cli) -> Result<(), Failure> {
    let options = Options {
        mode: match cli.spec_const {
            Mode::Native => SpecConstMode::Native,
            Mode::Emulation => SpecConstMode::Emulation,
            Mode::DefaultValues => SpecConstMode::DefaultValues,
        },
        emulation_layout: match cli.emulation_layout {
            Layout::Aligned => spec_link::EmulationLayout::Aligned,
            Layout::Packed => spec_link::EmulationLayout::Packed,
        },
        spec_id_order: match cli.spec_id_order {
            Order::FirstUse => spec_link::SpecIdOrder::FirstUse,
            Order::Dpcpp => spec_link::SpecIdOrder::Dpcpp,
        },
        validation: if cli.no_validate {
            Validation::Never
        } else if cli.validate {
            Validation::Always
        } else {
            Validation::Auto
        },
        target_env: cli.target_env.clone(),
        link: spec_link::link::LinkOptions {
            allow_partial: cli.allow_partial,
            create_library: cli.create_library,
            renumber_spec_ids: cli.renumber_spec_ids,
        },
        // Written below straight into their files, never held whole in memory.
        sidecars: false,
        pass_through: !cli.no_pass_through,
    };
    let clock = std::time::Instant::now();
    let names = expand_inputs(&cli.inputs)?;
    check_arguments(cli, &names).map_err(Failure::Usage)?;
    // Not for standard output: a module found malformed while it is copied must not be half-written.
    // Nor for an output that is not a regular file (written in place, see `stage`).
    let special_output = std::fs::metadata(&cli.output).is_ok_and(|m| !m.is_file() && !m.is_dir());
    let lazily = names.len() == 1 && cli.output != "-" && !special_output;
    let inputs = names
        .iter()
        .map(|n| read_input(n, lazily))
        .collect::<Result<Vec<_>, _>>()?;
    let read_time = clock.elapsed();
    let mut out = process_owned(inputs, &options)?;
    out.timings.insert(0, ("read", read_time));
    let clock = std::time::Instant::now();

    // Stage every file first; rename only when all are written.
    let mut staged = Vec::new();
    if cli.output != "-" {
        staged.extend(stage(Path::new(&cli.output), |w| {
            out.module.write_to_file(w)
        })?);
    }
    if let Some(p) = &cli.prop {
        staged.extend(stage(p, |w| out.write_prop(w).map_err(Error::Write))?);
    }
    if let Some(j) = &cli.json {
        staged.extend(stage(j, |w| out.write_json(w).map_err(Error::Write))?);
    }
    if cli.output == "-" {
        let mut stdout = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
        let stdout_error = |e| Error::Io {
            path: "<stdout>".into(),
            source: e,
        };
        out.module.write_to(&mut stdout).map_err(|e| match e {
            Error::Write(e) => stdout_error(e),
            e => e,
        })?;
        stdout.flush().map_err(stdout_error)?;
    }
    for s in &staged {
        std::fs::rename(&s.tmp, &s.dest).map_err(|e| Error::Io {
            path: s.dest.display().to_string(),
            source: e,
        })?;
    }
    // Renamed: nothing left for Drop to remove (a failed remove is harmless).
    drop(staged);
    out.timings.push(("write", clock.elapsed()));

    if cli.verbose {
        eprintln!(
            "spec-link: {} marker call(s), {} spec constant(s), {} SpecId(s)",
            out.calls,
            out.spec_map.constants.len(),
            out.spec_map
                .constants
                .iter()
                .map(|c| c.spec_ids.len as usize)
                .sum::<usize>()
        );
        if out.input_released {
            eprintln!(
                "spec-link: the input's pages were given back behind each pass (a module dense with marker calls)"
            );
        }
        for c in &out.spec_map.constants {
            eprintln!(
                "  \"{}\": {} ({} bytes), SpecIds {:?}",
                c.symbolic_id,
                c.type_name,
                c.size,
                out.spec_map.spec_ids(c)
            );
        }
        let steps: Vec<String> = out
            .timings
            .iter()
            .map(|(n, d)| format!("{n} {:.3}s", d.as_secs_f64()))
            .collect();
        eprintln!("spec-link: time: {}", steps.join(", "));
        if let Some(env) = &out.validated_with {
            eprintln!("spec-link: spirv-val --target-env {env}: ok");
        }
    }
    if !cli.quiet {
        for w in &out.warnings {
            eprintln!("warning: {w}");
        }
        for n in &out.notes {
            eprintln!("note: {n}");
        }
    }
    Ok(())
}

/// Has glibc map every allocation of 128 KiB or more on its own. By default glibc raises that
/// threshold each time such a block is freed (up to 32 MiB), after which the big tables of later
/// stages live in the heap, where a vector that grows leaves its old buffer's pages resident:
/// the 101 MB dense bench module peaked at 273 MB instead of 244 MB. Mapped blocks go back to
/// the system when freed, and grow in place (`mremap`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_allocator() {
    // SAFETY: `mallopt` only sets an allocator parameter; this runs first in `main`, before any
    // other thread exists or allocates.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_allocator() {}

fn main() -> ExitCode {
    tune_allocator();
    remove_on_signal::install();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Error(e)) => {
            // Gathered errors one per line, each marked; the first of a flood are enough.
            const SHOWN: usize = 100;
            let messages = e.messages();
            for m in messages.iter().take(SHOWN) {
                eprintln!("error: {m}");
            }
            if messages.len() > SHOWN {
                eprintln!(
                    "error: … and {} more errors of this kind (the first {SHOWN} are shown)",
                    messages.len() - SHOWN
                );
            }
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary name already taken (a stale file of a killed run with this process id) is
    /// neither truncated nor removed: the output is staged under the next free name.
    #[test]
    fn staging_never_truncates_nor_removes_a_file_it_did_not_create() {
        let dir = std::env::temp_dir().join(format!("spec-link-stage-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("out.spv");
        let taken = dir.join(format!(".out.spv.spec-link-{}.tmp", std::process::id()));
        std::fs::write(&taken, b"someone else's").unwrap();
        let staged = stage(&dest, |w| w.write_all(b"ours").map_err(Error::Write))
            .unwrap()
            .unwrap();
        assert_ne!(staged.tmp, taken);
        assert_eq!(std::fs::read(&staged.tmp).unwrap(), b"ours");
        let ours = staged.tmp.clone();
        drop(staged); // not committed: its own temporary goes, the other file stays
        assert!(!ours.exists());
        assert_eq!(std::fs::read(&taken).unwrap(), b"someone else's");
        assert!(!dest.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// An output whose name is as long as a file name may be still gets a temporary (one named
    /// after the whole name would be too long), and commits.
    #[test]
    fn a_long_output_name_still_gets_a_temporary() {
        let dir = std::env::temp_dir().join(format!("spec-link-long-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // 255 bytes, two-byte characters after the first (the cut must fall between them).
        let name = format!("x{}", "é".repeat(127));
        assert_eq!(name.len(), 255);
        let dest = dir.join(&name);
        let staged = stage(&dest, |w| w.write_all(b"ours").map_err(Error::Write))
            .unwrap()
            .unwrap();
        std::fs::rename(&staged.tmp, &staged.dest).unwrap();
        drop(staged);
        assert_eq!(std::fs::read(&dest).unwrap(), b"ours");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
