//! Memory tiers. The context tier is [`crate::transcript`]; the daily tier
//! (`.trail/memory/YYYY-MM-DD.md`) is [`daily`]; the core tier (`.trail/MEMORY.md`) is [`core`],
//! written by [`dream`] (by itself when [`schedule`] says one is due) and checked by [`verify`];
//! [`context`] gives core memory back at session start.

pub mod context;
pub mod core;
pub mod daily;
pub mod dream;
pub mod extractive;
pub mod flushed;
mod meaning;
pub mod recall;
pub mod schedule;
pub mod summary;
pub mod verify;
