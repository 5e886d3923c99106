//! The model providers of `trail dream` that speak HTTP: OpenAI-compatible chat completions
//! ([`openai`]) and the Anthropic Messages API ([`anthropic`]).
//!
//! This is the only crate of trail that links an HTTP client or TLS. trail-core holds what every
//! provider shares ([`trail_core::llm`]: the [`Provider`] trait, settings, errors, and the
//! `command` provider, which only runs a process); the hooks, the gate and the ledger never
//! reach this crate, and `cargo tree -p trail-core` shows no HTTP or TLS.

pub mod anthropic;
mod http;
pub mod openai;

use trail_core::config::LlmProvider;
use trail_core::llm::command::CommandProvider;
use trail_core::llm::{LlmError, Provider, Settings};

/// The model these settings describe, or what is missing; `None` for `extractive`, which needs
/// no model (the dream's own merge, `trail_core::memory::extractive`, stands in).
pub fn model_provider(settings: &Settings) -> Result<Option<Box<dyn Provider>>, LlmError> {
    Ok(match settings.provider {
        LlmProvider::Openai => Some(Box::new(openai::OpenAi::new(settings)?)),
        LlmProvider::Anthropic => Some(Box::new(anthropic::Anthropic::new(settings)?)),
        LlmProvider::Command => Some(Box::new(CommandProvider::new(settings)?)),
        LlmProvider::Extractive => None,
    })
}

/// The provider a dream runs with: the configured model, or without one (`extractive`) the
/// dream's own merge.
pub fn dream_provider(settings: &Settings) -> Result<Box<dyn Provider>, LlmError> {
    Ok(model_provider(settings)?
        .unwrap_or_else(|| Box::new(trail_core::memory::extractive::Extractive)))
}
