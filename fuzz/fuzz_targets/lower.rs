//! cargo-fuzz target `lower`: see `spec_link_fuzz::run_lower`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    spec_link_fuzz::run_lower(data);
});
