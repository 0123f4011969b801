//! Temporaries removed when SIGINT, SIGTERM or SIGHUP ends the process (an interrupted build
//! leaves no `.out.spv.spec-link-N.tmp` behind), as LLVM's tools do. The handler only reads
//! atomics and calls `unlink`, then dies of the same signal with the default action. A signal
//! that was ignored when spec-link started (`nohup`) stays ignored.

pub use imp::{forget, install, remember};

#[cfg(target_os = "linux")]
mod imp {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::atomic::{AtomicPtr, Ordering};

    /// One slot per staged output: -o, --prop and --json, or a split's images (three files
    /// each), table and JSON.
    static TEMPS: [AtomicPtr<libc::c_char>; SLOTS] =
        [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

    /// Temporaries that can be removed on a signal at once (a split writing more files leaves
    /// the rest behind if a signal comes).
    pub const SLOTS: usize = 4096;

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
    /// running on another thread may still be reading it (one short string per output file).
    pub fn forget(slot: usize) {
        if let Some(s) = TEMPS.get(slot) {
            s.store(std::ptr::null_mut(), Ordering::SeqCst);
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn install() {}
    pub fn remember(_: &std::path::Path) -> Option<usize> {
        None
    }
    pub fn forget(_: usize) {}
}
