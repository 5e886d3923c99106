//! Helpers for this crate's unit tests.

pub(crate) use trail_testkit::git::git_ok as git;

/// The real o200k count, for tests that hold the estimate (or a budget) to it.
pub(crate) fn o200k(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton()
        .encode_with_special_tokens(text)
        .len()
}
