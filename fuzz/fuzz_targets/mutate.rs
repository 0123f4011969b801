//! cargo-fuzz target `mutate`: see `spec_link_fuzz::run_mutate`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    spec_link_fuzz::run_mutate(data);
});
