//! trail-core's integration tests, as one test binary (issue 23: sixteen binaries each linked
//! the library and its dependencies again). Each module is one area; run one with its path,
//! e.g. `cargo test -p trail-core --test core gate::` or `… --test core
//! redactor_labelled::new_families_sealed9 -- --ignored --nocapture`.

mod labelled;

mod checks_labelled;
mod citations_labelled;
mod daily_memory;
mod daily_snapshots;
mod error_wording;
mod gate;
mod host_payloads;
mod index_seek;
mod long_lived_writers;
mod notes_rebuild;
mod plain_streams;
mod properties;
mod redactor_labelled;
mod rollouts;
mod tokens;
mod transcripts;
