//! Memory tiers. The context tier is [`crate::transcript`]; this module holds the daily tier
//! (`.trail/memory/YYYY-MM-DD.md`).

pub mod daily;
pub mod recall;
pub mod verify;
