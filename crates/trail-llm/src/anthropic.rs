//! The Anthropic Messages API. The base URL is the host (`https://api.anthropic.com`), as in
//! Anthropic's own clients; `/v1/messages` is appended.

use serde_json::{Value, json};

use crate::http::{Call, post_json};
use trail_core::llm::{LlmError, Provider, Request, Settings, excerpt};

pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
pub const API_VERSION: &str = "2023-06-01";
/// Room for a rewritten MEMORY.md and a diary; the API requires a limit.
pub const MAX_TOKENS: u32 = 8192;

pub struct Anthropic {
    url: String,
    model: String,
    key: String,
    settings: Settings,
}

impl Anthropic {
    pub fn new(s: &Settings) -> Result<Anthropic, LlmError> {
        let base = s
            .base_url
            .clone()
            .unwrap_or_else(|| DEFAULT_BASE_URL.into());
        Ok(Anthropic {
            url: format!("{base}/v1/messages"),
            model: s.model_or_err()?,
            key: s.key_or_err()?,
            settings: s.clone(),
        })
    }
}

/// The text blocks of a Messages answer, joined.
pub fn answer_text(v: &Value) -> Option<String> {
    let blocks = v.get("content")?.as_array()?;
    let text: Vec<&str> = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    (!text.is_empty()).then(|| text.join(""))
}

impl Provider for Anthropic {
    fn describe(&self) -> String {
        format!("anthropic model {} at {}", self.model, self.url)
    }

    fn complete(
        &self,
        req: &Request<'_>,
        progress: &mut dyn FnMut(&str),
    ) -> Result<String, LlmError> {
        let body = json!({
            "model": self.model,
            "max_tokens": MAX_TOKENS,
            "temperature": 0,
            "system": req.system,
            "messages": [{"role": "user", "content": req.user}],
        });
        let headers = [
            ("x-api-key", self.key.clone()),
            ("anthropic-version", API_VERSION.to_string()),
        ];
        let what = self.describe();
        let v = post_json(
            &Call {
                what: &what,
                url: &self.url,
                headers: &headers,
                body: &body,
                timeout: self.settings.timeout,
                retries: self.settings.retries,
            },
            progress,
        )?;
        answer_text(&v).ok_or_else(|| LlmError::BadAnswer {
            what,
            detail: format!("no text content in {}", excerpt(&v.to_string())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_blocks_are_joined_and_other_blocks_ignored() {
        let v = json!({"content": [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "a"}, {"type": "text", "text": "b"}]});
        assert_eq!(answer_text(&v).as_deref(), Some("ab"));
        assert_eq!(answer_text(&json!({"content": []})), None);
        assert_eq!(answer_text(&json!({"content": "x"})), None);
        assert_eq!(answer_text(&json!(null)), None);
    }
}
