//! Decisions as the stream holds them: the pulse record that carries one ([`pulse`]) and the
//! newest ones read back from the end of the stream ([`recent`]).
//!
//! This is the record format, below every feature that reads decisions (the fork check,
//! recovery, the NOTES.md rebuild). Recording a decision, with its citations checked and
//! NOTES.md updated, is [`crate::decision`]'s use case.

pub mod pulse;
pub mod recent;
