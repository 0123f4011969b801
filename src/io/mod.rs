//! Input and output of a run: how modules come in (bytes, words, a mapped or lazily read file,
//! a file opened when the linker takes it) and how the result goes out (the output module
//! written from the input's words and the edits, or copied through unchanged).

pub(crate) mod input;
pub(crate) mod output;
