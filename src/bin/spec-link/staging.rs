//! Outputs written to temporaries beside their destinations and renamed into place only when
//! every output of the run is written: a failed run leaves no output file created or modified.
//!
//! Where the file system allows it (Linux, `O_TMPFILE`, `/proc` mounted), the temporary has no
//! name while it is written: a process killed then (SIGKILL, a crash, a power cut) leaves nothing
//! behind. Once written, it is linked under a temporary name beside the destination (`linkat` of
//! `/proc/self/fd/N`), to be renamed over the destination with the other outputs. Elsewhere it is
//! a named temporary from the start; the signal handler removes it on SIGINT, SIGTERM, SIGHUP.

use crate::signals as remove_on_signal;
use spec_link::Error;
use std::path::{Path, PathBuf};

/// A file written next to its destination and renamed into place only when everything succeeded.
pub(crate) struct Staged {
    pub(crate) tmp: PathBuf,
    pub(crate) dest: PathBuf,
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

/// Writes a file next to `dest` with `write`, to be renamed into place later. A destination that
/// exists and is not a regular file (`/dev/null`, a FIFO, a terminal) is written directly — a
/// rename would replace it — and `None` is returned: like standard output, it cannot be unwritten.
pub(crate) fn stage(
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
    let tmp_name = |attempt: u32| {
        let suffix = if attempt == 0 {
            String::new()
        } else {
            format!(".{attempt}")
        };
        dir.join(format!(
            ".{file}.spec-link-{}{suffix}.tmp",
            std::process::id()
        ))
    };
    if let Some(unnamed) = unnamed::create(dir) {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, unnamed);
        write(&mut out).map_err(write_error)?;
        let unnamed = out.into_inner().map_err(|e| io(e.into_error()))?;
        let mut attempt = 0u32;
        loop {
            let tmp = tmp_name(attempt);
            match unnamed::link(&unnamed, &tmp) {
                Ok(()) => {
                    let on_signal = remove_on_signal::remember(&tmp);
                    return Ok(Some(Staged {
                        tmp,
                        dest: dest.to_path_buf(),
                        on_signal,
                    }));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                    attempt += 1
                }
                Err(e) => return Err(io(e)),
            }
        }
    }
    let mut attempt = 0u32;
    let (staged, file) = loop {
        let tmp = tmp_name(attempt);
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

/// Unnamed temporaries: `O_TMPFILE`, linked into the directory by `/proc/self/fd/N`.
#[cfg(target_os = "linux")]
mod unnamed {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    use std::path::{Path, PathBuf};

    fn proc_path(file: &std::fs::File) -> PathBuf {
        PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()))
    }

    /// An unnamed file in `dir` (mode 0666 less the umask, as a named one), or `None` when the
    /// file system or kernel has no `O_TMPFILE` or `/proc` cannot name it for [`link`].
    pub fn create(dir: &Path) -> Option<std::fs::File> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .mode(0o666)
            .custom_flags(libc::O_TMPFILE)
            .open(dir)
            .ok()?;
        // `/proc/self/fd/N` must lead to it (no /proc: fall back before anything is written).
        std::fs::metadata(proc_path(&file)).ok()?;
        Some(file)
    }

    /// Gives `file` (from [`create`]) the name `path` (an error if `path` exists).
    pub fn link(file: &std::fs::File, path: &Path) -> std::io::Result<()> {
        let from = std::ffi::CString::new(proc_path(file).as_os_str().as_bytes())?;
        let to = std::ffi::CString::new(path.as_os_str().as_bytes())?;
        // SAFETY: two NUL-terminated paths that live across the call.
        let r = unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        };
        if r == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod unnamed {
    use std::path::Path;

    pub fn create(_: &Path) -> Option<std::fs::File> {
        None
    }

    pub fn link(_: &std::fs::File, _: &Path) -> std::io::Result<()> {
        Err(std::io::ErrorKind::Unsupported.into())
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
pub(crate) fn entry_of(path: &Path) -> Option<PathBuf> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

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
