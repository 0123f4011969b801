//! cargo-fuzz target `link`: see `spec_link_fuzz::run_link`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    spec_link_fuzz::run_link(data);
});
