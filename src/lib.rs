pub mod error;
pub mod layout;
pub mod markers;
pub mod module;
