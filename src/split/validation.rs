//! Validation of a split's images against the module they were split from, with the library's
//! policy ([`crate::validate`]): an image may fail spirv-val only as the module does, also once
//! the instructions the image does not hold as they were (not extracted, or rewritten by
//! lowering) are set aside.
//!
//! Each image is validated in the background while the next ones are made: [`Validator::start`]
//! hands the image's bytes to a thread that runs spirv-val (and the policy, when it fails), as
//! many at once as the machine has cores (at most [`MOST_IN_FLIGHT`]); the oldest is waited
//! for when one more would exceed that. A split of many small images is mostly spirv-val's
//! time (the 40 images of `testdata/postlink/kernels40`: ~100 of ~120 ms), which one validation
//! at a time keeps on one core. An image that fails is judged with the module's own spirv-val
//! report, found once ([`crate::validate::judge`]).
//!
//! Postconditions: [`Validator::finish`] has waited for every image started; its error is the
//! first image's, in image order, whose validation failed (the error a validation of one image
//! at a time, stopping at the first failure, gives); each image's warnings stand in
//! `warnings` where they stood had the image been validated when it was started.

use super::extract;
use crate::diagnostic::{Diagnostic, Validated};
use crate::error::{Error, Result};
use crate::module::index::Index;
use crate::module::Module;
use crate::{ModuleOutput, Options};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Most images validated at once, whatever the cores: spirv-val takes ~20 times the size of
/// the module it reads.
const MOST_IN_FLIGHT: usize = 8;

/// What every image's validation reads: the split's module, and its own spirv-val report.
struct Source {
    /// The module's bytes (the policy's input), made once.
    bytes: Vec<u8>,
    /// The module's number of instructions.
    len: usize,
    /// The module's own spirv-val report (`Some(None)`: it passes), found once, when an image
    /// first fails: every image is compared with it without validating the module again.
    error: Mutex<Option<Option<String>>>,
}

/// An image being validated: its thread, and where its warnings go.
struct Pending {
    /// The length `warnings` had when the image was started, moved on by the warnings of the
    /// images before it inserted since.
    at: usize,
    /// The image's name in errors.
    name: String,
    thread: JoinHandle<Result<Vec<Diagnostic>>>,
}

/// The split's validation (see the module docs).
pub(super) struct Validator {
    /// The target environment, when spirv-val runs.
    pub env: Option<String>,
    /// Whether `env` was given (`--target-env`), not derived from the module's version.
    pub env_given: bool,
    source: Arc<Source>,
    /// Why it does not run (said once).
    pub note: Option<Diagnostic>,
    pending: VecDeque<Pending>,
    /// How many images are validated at once: the machine's cores, at most [`MOST_IN_FLIGHT`].
    in_flight: usize,
}

impl Validator {
    pub fn new(options: &Options, module: &Module, index: &Index) -> Result<Validator> {
        use crate::validate;
        let in_flight = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MOST_IN_FLIGHT);
        let off = |note| Validator {
            env: None,
            env_given: false,
            source: Arc::new(Source {
                bytes: Vec::new(),
                len: module.len(),
                error: Mutex::new(None),
            }),
            note,
            pending: VecDeque::new(),
            in_flight,
        };
        if options.validation == crate::Validation::Never {
            return Ok(off(None));
        }
        if let Some(why) = validate::unavailable() {
            return Ok(off(Some(validate::when_unavailable(
                options.validation,
                why,
                Validated::Image,
            )?)));
        }
        let kernel = index
            .capabilities
            .iter()
            .any(|&(c, _)| c == spirv::Capability::Kernel as u32);
        let env = options
            .target_env
            .clone()
            .unwrap_or_else(|| validate::default_target_env(module.version(), kernel));
        Ok(Validator {
            env: Some(env),
            env_given: options.target_env.is_some(),
            source: Arc::new(Source {
                bytes: module.original_bytes(),
                len: module.len(),
                error: Mutex::new(None),
            }),
            ..off(None)
        })
    }

    /// Starts validating one image (`name`: for its errors), whose instruction `j` came from the module's `origin[j]`
    /// (with [`extract::CHANGED`] when changed; no `origin`: the module's `j`); its warnings
    /// will stand at the end of `warnings` as it is now. Returns the environment used, if
    /// spirv-val runs. Waits for the oldest image first when as many as
    /// the machine has cores are being validated (an error: that image's).
    pub fn start(
        &mut self,
        name: &str,
        image: &ModuleOutput,
        origin: Option<Vec<u32>>,
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<Option<String>> {
        let Some(env) = self.env.clone() else {
            return Ok(None);
        };
        while self.pending.len() >= self.in_flight {
            self.collect_oldest(warnings)?;
        }
        let bytes = image.to_bytes()?;
        // Which of the image's instructions are still as they were extracted, for the policy's
        // control module: known only from the edited module, which goes on to the caller.
        let survives: Option<Vec<bool>> = match &image.0 {
            crate::io::output::OutputRepr::Edited(m, _) => {
                let len = origin.as_ref().map_or(self.source.len, |o| o.len());
                Some((0..len).map(|j| m.survives(j)).collect())
            }
            _ => None,
        };
        let source = Arc::clone(&self.source);
        let thread_env = env.clone();
        let thread = std::thread::Builder::new()
            .name("spirv-val".into())
            .spawn(move || {
                check(
                    &source,
                    &thread_env,
                    &bytes,
                    origin.as_deref(),
                    survives.as_deref(),
                )
            })
            .map_err(|e| Error::Validation(format!("cannot start a validation thread: {e}")))?;
        self.pending.push_back(Pending {
            at: warnings.len(),
            name: name.to_string(),
            thread,
        });
        Ok(Some(env))
    }

    /// Waits for every image started; the error is the first failing image's, in image order
    /// (every validation is waited for even then).
    pub fn finish(&mut self, warnings: &mut Vec<Diagnostic>) -> Result<()> {
        let mut first = Ok(());
        while !self.pending.is_empty() {
            let collected = self.collect_oldest(warnings);
            if first.is_ok() {
                first = collected;
            }
        }
        first
    }

    /// Waits for the oldest image started and puts its warnings in their place.
    fn collect_oldest(&mut self, warnings: &mut Vec<Diagnostic>) -> Result<()> {
        let Some(oldest) = self.pending.pop_front() else {
            return Ok(());
        };
        let found = oldest
            .thread
            .join()
            .map_err(|_| {
                Error::PostCondition("the thread validating an image stopped unexpectedly".into())
            })?
            .map_err(|e| Error::InFile {
                file: oldest.name,
                source: Box::new(e),
            })?;
        let at = oldest.at.min(warnings.len());
        let n = found.len();
        warnings.splice(at..at, found);
        for later in &mut self.pending {
            later.at += n;
        }
        Ok(())
    }
}

/// Validates one image (see [`Validator::start`]; `survives[j]`: whether the image's
/// instruction `j` is as it was extracted, `None`: all are); returns its warnings.
fn check(
    source: &Source,
    env: &str,
    bytes: &[u8],
    origin: Option<&[u32]>,
    survives: Option<&[bool]>,
) -> Result<Vec<Diagnostic>> {
    use crate::validate;
    let Some(image_error) = validate::spirv_val(bytes, env)? else {
        return Ok(Vec::new());
    };
    // The module's own report, found once: every image failing is judged against it without
    // validating the module again.
    let mut original_error = |_k: usize| -> Result<Option<String>> {
        let mut found = source
            .error
            .lock()
            .map_err(|_| Error::PostCondition("a validation thread stopped unexpectedly".into()))?;
        match &*found {
            Some(e) => Ok(e.clone()),
            None => {
                let e = validate::spirv_val(&source.bytes, env)?;
                *found = Some(e.clone());
                Ok(e)
            }
        }
    };
    let mut lowered = |_k: usize| {
        let mut gone = vec![true; source.len];
        let whole: Vec<u32>;
        let origin = match origin {
            Some(origin) => origin,
            None => {
                whole = (0..source.len as u32).collect();
                &whole
            }
        };
        for (j, &i) in origin.iter().enumerate() {
            let survived = survives.is_none_or(|s| s.get(j).copied().unwrap_or(false));
            if i & extract::CHANGED == 0 && survived {
                if let Some(g) = gone.get_mut(i as usize) {
                    *g = false;
                }
            }
        }
        Some(validate::Lowered {
            gone,
            same_ids: true,
        })
    };
    let verdict = validate::judge(
        bytes,
        &image_error,
        &[&source.bytes],
        &mut original_error,
        env,
        &mut lowered,
    )?;
    Ok(verdict.warning(Validated::Image, env).into_iter().collect())
}
