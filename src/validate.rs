//! Runs `spirv-val` on an output module.

use crate::error::{Error, Result};
use std::io::Write;
use std::process::{Command, Stdio};

/// The `--target-env` spirv-val gets by default: `opencl2.2` for SPIR-V ≤ 1.2 modules that
/// declare the `Kernel` capability, else the universal environment of the module's version.
pub fn default_target_env(version: (u8, u8), kernel: bool) -> String {
    if kernel && version <= (1, 2) {
        "opencl2.2".into()
    } else {
        format!("spv{}.{}", version.0, version.1.min(6))
    }
}

/// Whether `spirv-val` can be run.
pub fn spirv_val_available() -> bool {
    Command::new("spirv-val")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// Validates `bytes` with `spirv-val --target-env <env>` (module on stdin).
pub fn run_spirv_val(bytes: &[u8], target_env: &str) -> Result<()> {
    let mut child = Command::new("spirv-val")
        .args(["--target-env", target_env, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::Validation(format!("cannot run spirv-val: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A closed pipe shows up as a spirv-val failure below.
        let _ = stdin.write_all(bytes);
    }
    let out = child
        .wait_with_output()
        .map_err(|e| Error::Validation(format!("spirv-val did not finish: {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    let mut msg = String::from_utf8_lossy(&out.stderr).trim().to_string();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !stdout.trim().is_empty() {
        msg.push('\n');
        msg.push_str(stdout.trim());
    }
    Err(Error::Validation(format!(
        "the output module fails spirv-val --target-env {target_env}:\n{msg}"
    )))
}
