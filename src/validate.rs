//! Runs `spirv-val` on an output module, with the policy for inputs spirv-val already rejects.
//!
//! Policy: when the output fails validation, the input is validated too. If the input fails with
//! the same error (compared with numbers and ids masked), or spirv-val cannot read the input at
//! all, the error is not spec-link's: the output is accepted with a warning naming the input's
//! error. Otherwise spec-link introduced the error and the run fails.
//!
//! The validator is `spirv-val` on PATH, or the program named by `$SPEC_LINK_SPIRV_VAL` (e.g. a
//! newer SPIRV-Tools than the system's).

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

fn validator() -> String {
    std::env::var("SPEC_LINK_SPIRV_VAL").unwrap_or_else(|_| "spirv-val".into())
}

/// Whether `$SPEC_LINK_SPIRV_VAL` names the validator: one asked for by name must run (it is
/// never skipped as a missing `spirv-val` is by default).
pub fn validator_named() -> bool {
    std::env::var_os("SPEC_LINK_SPIRV_VAL").is_some()
}

/// Why the validator cannot be run, if it cannot.
pub fn unavailable() -> Option<String> {
    let v = validator();
    match Command::new(&v)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(_) => None,
        Err(e) if validator_named() => Some(format!(
            "$SPEC_LINK_SPIRV_VAL names {v}, which cannot be run ({e})"
        )),
        Err(_) => Some("spirv-val is not on PATH".into()),
    }
}

/// Validates `bytes`; `Ok(None)` if valid, `Ok(Some(message))` if spirv-val rejects it.
fn spirv_val(bytes: &[u8], target_env: &str) -> Result<Option<String>> {
    let mut child = Command::new(validator())
        .args(["--target-env", target_env, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::Validation(format!("cannot run {}: {e}", validator())))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A closed pipe shows up as a spirv-val failure below.
        let _ = stdin.write_all(bytes);
    }
    let out = child
        .wait_with_output()
        .map_err(|e| Error::Validation(format!("spirv-val did not finish: {e}")))?;
    if out.status.success() {
        return Ok(None);
    }
    if out.status.code().is_none() {
        // Killed (a crash, or the OOM killer): no verdict on the module, and none to compare.
        return Err(Error::Validation(format!(
            "{} did not finish ({}): the output could not be validated",
            validator(),
            out.status
        )));
    }
    let mut msg = String::from_utf8_lossy(&out.stderr).trim().to_string();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !stdout.trim().is_empty() {
        if !msg.is_empty() {
            msg.push('\n');
        }
        msg.push_str(stdout.trim());
    }
    Ok(Some(msg))
}

/// The first error line with numbers and ids masked, for comparing input and output errors.
pub fn error_key(msg: &str) -> String {
    let first = msg
        .lines()
        .find(|l| l.contains("error"))
        .unwrap_or(msg.lines().next().unwrap_or(""));
    let mut out = String::new();
    let mut in_number = false;
    for ch in first.chars() {
        if ch.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(ch);
        }
    }
    out
}

/// Whether spirv-val's message says it could not read the module at all (as opposed to finding
/// it invalid): unknown capabilities, opcodes or operands of newer SPIR-V.
fn is_unreadable(msg: &str) -> bool {
    [
        "Invalid capability operand",
        "Invalid opcode",
        "Invalid extended instruction",
        "Invalid SPIR-V binary version",
        "invalid operand",
        "Invalid operand",
    ]
    .iter()
    .any(|p| msg.contains(p))
}

/// What validation decided.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    /// The output is invalid in the same way as the input (or the input is unreadable): keep it.
    InheritedFromInput(String),
}

/// Validates the output; on failure applies the input policy (see the module docs) to each
/// input (several when linking: one failing the same way is enough).
pub fn check(output: &[u8], inputs: &[&[u8]], target_env: &str) -> Result<Verdict> {
    let Some(out_err) = spirv_val(output, target_env)? else {
        return Ok(Verdict::Valid);
    };
    // Refused for the environment, not for the module: the input would fail the same way, and
    // the policy below would pass anything.
    if out_err.contains("Unrecognized target env") {
        return Err(Error::Validation(format!(
            "{} does not know the target environment '{target_env}' (--target-env): {}",
            validator(),
            out_err.lines().next().unwrap_or("")
        )));
    }
    for input in inputs {
        if let Some(in_err) = spirv_val(input, target_env)? {
            if is_unreadable(&in_err) || error_key(&in_err) == error_key(&out_err) {
                return Ok(Verdict::InheritedFromInput(
                    in_err.lines().next().unwrap_or("").to_string(),
                ));
            }
        }
    }
    Err(Error::Validation(format!(
        "the output module fails spirv-val --target-env {target_env}, and the input does not fail that way:\n{out_err}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_keys_mask_numbers() {
        assert_eq!(
            error_key("error: line 25: OpVariable, <id> '12[%x]', has a disallowed storage class"),
            error_key("error: line 31: OpVariable, <id> '140[%x]', has a disallowed storage class")
        );
        assert_ne!(error_key("error: line 1: a"), error_key("error: line 1: b"));
    }
}
