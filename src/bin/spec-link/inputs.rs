//! Input names → [`Input`]s (glob expansion, standard input, lazy reading), and the checks of
//! input and output paths made before anything is read or written.

use crate::args::Cli;
use crate::staging::entry_of;
use spec_link::{Error, Input};
use std::path::{Path, PathBuf};

/// Reads an input; a single input is read lazily (a module without markers is then copied to
/// the output by the kernel, or as it is read, and never indexed).
pub(crate) fn read_input(name: &str, lazily: bool) -> Result<Input, Error> {
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
pub(crate) fn expand_inputs(args: &[String]) -> Result<Vec<String>, Error> {
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

/// Arguments that cannot work together, found before anything is read or written: standard
/// input named twice, and outputs that would overwrite each other or an input. Two outputs
/// replacing one file would leave one of them (and an error half-way through the renames); a
/// sidecar replacing an input would turn the module into text. The module's own output may
/// replace an input (lowering in place: the input is read first).
pub(crate) fn check_arguments(cli: &Cli, inputs: &[String]) -> Result<(), String> {
    if inputs.iter().filter(|a| *a == "-").count() > 1 {
        return Err("standard input ('-') can be read only once".into());
    }
    let mut outputs: Vec<(&str, &Path)> = vec![("-o", Path::new(&cli.output))];
    if let Some(p) = &cli.prop {
        outputs.push(("--prop", p));
    }
    if let Some(j) = &cli.json {
        outputs.push(("--json", j));
    }
    // '-' is standard output, for one output only.
    let stdout: Vec<&str> = outputs
        .iter()
        .filter(|(_, p)| *p == Path::new("-"))
        .map(|(flag, _)| *flag)
        .collect();
    if stdout.len() > 1 {
        return Err(format!(
            "{} all name standard output ('-'): only one output can go there",
            stdout.join(" and ")
        ));
    }
    outputs.retain(|(_, p)| *p != Path::new("-"));
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
