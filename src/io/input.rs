//! Input modules: bytes, a module read into words, a file opened lazily (only its prefix read
//! until a marker shows), or a file to be opened when the linker takes it.
//!
//! Invariant: an [`Input`] is loaded at most once into a [`Module`]; after
//! [`Input::take_module`] it holds nothing.

use crate::module::{self, Module};
use crate::{markers, Error, Result};

/// One input module: bytes to be parsed by [`process`](crate::process), or a module already read into words by
/// [`Input::read`] (no copy of its bytes is ever held).
pub struct Input {
    /// File name for messages (`-` or `<stdin>` for standard input).
    pub name: String,
    pub(crate) data: InputData,
}

pub(crate) enum InputData {
    Bytes(Vec<u8>),
    Module(Box<Module>),
    /// Only the prefix was read: it names no marker ([`Input::read_lazily`]).
    Lazy(Box<module::stream::Prefix>),
    /// A file not opened yet ([`Input::open`] of one of several inputs: each is opened when the
    /// linker takes it, so that they are not all in memory at once).
    Deferred(std::path::PathBuf),
}

/// Input files smaller than this are read into memory rather than mapped (when read whole, not
/// lazily: see [`Input::open`]).
const MAP_MIN_BYTES: u64 = 256 << 10;

impl Input {
    /// An input from its bytes (parsed, and any error reported, by [`process`](crate::process)).
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Input {
        Input {
            name: name.into(),
            data: InputData::Bytes(bytes),
        }
    }

    /// An input already read into a module.
    pub(crate) fn from_module(name: impl Into<String>, module: Module) -> Input {
        Input {
            name: name.into(),
            data: InputData::Module(Box::new(module)),
        }
    }

    /// Reads a module from `reader` straight into words; `size_hint` (e.g. the file's length)
    /// avoids regrowing. Errors: the read's (as [`Error::Io`]) and the module's (as [`Error::InFile`]).
    pub fn read(
        name: impl Into<String>,
        reader: &mut impl std::io::Read,
        size_hint: Option<u64>,
    ) -> Result<Input> {
        let name = name.into();
        let module = Module::read_from(reader, size_hint)
            .map_err(|e| Error::Io {
                path: name.clone(),
                source: e,
            })?
            .map_err(|e| Error::InFile {
                file: name.clone(),
                source: Box::new(e),
            })?;
        Ok(Input {
            name,
            data: InputData::Module(Box::new(module)),
        })
    }

    /// Like [`Input::read`], but a module whose prefix names no marker is not read further:
    /// if [`process`](crate::process) passes it through, its rest is copied from the reader to the output by
    /// [`ModuleOutput::write_to`](crate::ModuleOutput::write_to) without being held in memory.
    pub fn read_lazily(
        name: impl Into<String>,
        reader: Box<dyn std::io::Read + Send>,
        size_hint: Option<u64>,
    ) -> Result<Input> {
        Self::lazily(name.into(), reader, size_hint, None)
    }

    /// Opens a module file: mapped rather than read when the file is a little-endian module on a
    /// little-endian host (without `lazily`, only from 256 KiB up: a small
    /// file is cheaper to read), read otherwise; with `lazily`, only its prefix is looked at (in
    /// the mapping, or read as [`Input::read_lazily`] does): a module without markers is then
    /// neither split nor indexed, and [`ModuleOutput::write_to_file`](crate::ModuleOutput::write_to_file) has the kernel copy it.
    pub fn open(path: &std::path::Path, lazily: bool) -> Result<Input> {
        let name = path.display().to_string();
        let io = |e| Error::Io {
            path: name.clone(),
            source: e,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if lazily {
            let reader = file.try_clone().map_err(io)?;
            return Self::lazily(name.clone(), Box::new(reader), Some(size), Some(&file));
        }
        Self::load_file(&name, path).map(|module| Input {
            name,
            data: InputData::Module(Box::new(module)),
        })
    }

    /// An input file to be opened only when [`process`](crate::process) takes it (for linking many files: they
    /// are then never all in memory at once). Errors are reported then, naming the file.
    pub fn deferred(path: &std::path::Path) -> Input {
        Input {
            name: path.display().to_string(),
            data: InputData::Deferred(path.to_path_buf()),
        }
    }

    /// Maps or reads a module file.
    fn load_file(name: &str, path: &std::path::Path) -> Result<Module> {
        let io = |e| Error::Io {
            path: name.to_string(),
            source: e,
        };
        let mut file = std::fs::File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        // A small file is read: mapping it costs more (the mapping, its page faults, the unmap)
        // than copying it, which matters when a link reads thousands of them.
        if size >= MAP_MIN_BYTES {
            if let Some(module) = Module::map_file(&file) {
                return module.map_err(|e| Error::InFile {
                    file: name.to_string(),
                    source: Box::new(e),
                });
            }
        }
        match Input::read(name.to_string(), &mut file, Some(size))?.data {
            InputData::Module(m) => Ok(*m),
            _ => Err(Error::PostCondition("input not loaded".into())),
        }
    }

    fn lazily(
        name: String,
        reader: Box<dyn std::io::Read + Send>,
        size_hint: Option<u64>,
        file: Option<&std::fs::File>,
    ) -> Result<Input> {
        let in_file = |e: Error| Error::InFile {
            file: name.clone(),
            source: Box::new(e),
        };
        let (ends, matches) = (markers::ends_names_and_annotations, markers::names_marker);
        let lazy = match file.and_then(|f| module::stream::map_lazily(f, ends, matches)) {
            Some(lazy) => lazy.map_err(in_file)?,
            None => module::stream::read_lazily(reader, size_hint, ends, matches)
                .map_err(|e| Error::Io {
                    path: name.clone(),
                    source: e,
                })?
                .map_err(in_file)?,
        };
        let data = match lazy {
            module::stream::Lazy::Whole(m) => InputData::Module(Box::new(m)),
            module::stream::Lazy::Prefix(mut p) => {
                if let Some(source) = file.and_then(|f| f.try_clone().ok()) {
                    p.set_source(source);
                }
                InputData::Lazy(Box::new(p))
            }
            module::stream::Lazy::Matched(p) => {
                let module = match file.and_then(Module::map_file) {
                    Some(m) => m.map_err(in_file)?,
                    None => p
                        .into_module()
                        .map_err(|e| Error::Io {
                            path: name.clone(),
                            source: e,
                        })?
                        .map_err(in_file)?,
                };
                InputData::Module(Box::new(module))
            }
        };
        Ok(Input { name, data })
    }

    /// The input's bytes (rebuilt from its words if it was read by [`Input::read`]).
    pub fn bytes(&self) -> Result<std::borrow::Cow<'_, [u8]>> {
        match &self.data {
            InputData::Bytes(b) => Ok(std::borrow::Cow::Borrowed(b)),
            InputData::Module(m) => Ok(std::borrow::Cow::Owned(m.original_bytes())),
            InputData::Lazy(_) => Err(self.lazy_error()),
            InputData::Deferred(p) => {
                std::fs::read(p)
                    .map(std::borrow::Cow::Owned)
                    .map_err(|e| Error::Io {
                        path: self.name.clone(),
                        source: e,
                    })
            }
        }
    }

    pub(crate) fn lazy_error(&self) -> Error {
        Error::Unsupported(format!(
            "{}: an input read lazily can be processed only once, by process_owned",
            self.name
        ))
    }

    /// A copy (an input read lazily cannot be copied).
    pub(crate) fn try_clone(&self) -> Result<Input> {
        let data = match &self.data {
            InputData::Bytes(b) => InputData::Bytes(b.clone()),
            InputData::Module(m) => InputData::Module(m.clone()),
            InputData::Deferred(p) => InputData::Deferred(p.clone()),
            InputData::Lazy(_) => return Err(self.lazy_error()),
        };
        Ok(Input {
            name: self.name.clone(),
            data,
        })
    }

    /// Makes the input a module (parsing bytes, reading the rest of a lazy input).
    pub(crate) fn load(&mut self) -> Result<&Module> {
        let in_file = |name: &str, e: Error| Error::InFile {
            file: name.to_string(),
            source: Box::new(e),
        };
        let data = std::mem::replace(&mut self.data, InputData::Bytes(Vec::new()));
        let module = match data {
            InputData::Bytes(b) => Module::from_bytes(&b).map_err(|e| in_file(&self.name, e))?,
            InputData::Module(m) => *m,
            InputData::Lazy(p) => p
                .into_module()
                .map_err(|e| Error::Io {
                    path: self.name.clone(),
                    source: e,
                })?
                .map_err(|e| in_file(&self.name, e))?,
            InputData::Deferred(p) => Self::load_file(&self.name, &p)?,
        };
        self.data = InputData::Module(Box::new(module));
        match &self.data {
            InputData::Module(m) => Ok(m),
            _ => Err(Error::PostCondition("input not loaded".into())),
        }
    }

    /// Takes the module out (the input keeps nothing).
    pub(crate) fn take_module(&mut self) -> Result<Module> {
        self.load()?;
        match std::mem::replace(&mut self.data, InputData::Bytes(Vec::new())) {
            InputData::Module(m) => Ok(*m),
            _ => Err(Error::PostCondition("input not loaded".into())),
        }
    }
}
