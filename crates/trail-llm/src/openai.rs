//! OpenAI-compatible chat completions: OpenAI itself, Ollama, llama.cpp's server, vLLM.
//!
//! The base URL follows the OpenAI convention and includes the version (`https://api.openai.com/v1`,
//! `http://localhost:11434/v1`); `/chat/completions` is appended.

use serde_json::{Value, json};

use crate::http::{Call, post_json};
use trail_core::llm::{LlmError, Provider, Request, Settings, excerpt};

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

pub struct OpenAi {
    url: String,
    model: String,
    key: Option<String>,
    settings: Settings,
}

/// Local servers (Ollama, llama.cpp) take no key; a remote one without a key would only answer
/// 401 after the whole prompt was sent.
fn is_local(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split('/').next().unwrap_or("");
    let host = match authority.find(']') {
        Some(i) if authority.starts_with('[') => &authority[..=i],
        _ => authority.split(':').next().unwrap_or(""),
    };
    host == "localhost"
        || host == "[::1]"
        || host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl OpenAi {
    pub fn new(s: &Settings) -> Result<OpenAi, LlmError> {
        let base = s
            .base_url
            .clone()
            .unwrap_or_else(|| DEFAULT_BASE_URL.into());
        let model = s.model_or_err()?;
        let key = match &s.api_key {
            Some(k) => Some(k.clone()),
            None if is_local(&base) => None,
            None => Some(s.key_or_err()?),
        };
        Ok(OpenAi {
            url: format!("{base}/chat/completions"),
            model,
            key,
            settings: s.clone(),
        })
    }
}

/// The text of the first choice.
pub fn answer_text(v: &Value) -> Option<String> {
    let content = v.pointer("/choices/0/message/content")?;
    match content {
        Value::String(s) => Some(s.clone()),
        // Some servers send content parts.
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(""),
        ),
        _ => None,
    }
}

impl Provider for OpenAi {
    fn describe(&self) -> String {
        format!("openai model {} at {}", self.model, self.url)
    }

    fn complete(
        &self,
        req: &Request<'_>,
        progress: &mut dyn FnMut(&str),
    ) -> Result<String, LlmError> {
        let body = json!({
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": req.system},
                {"role": "user", "content": req.user},
            ],
        });
        let mut headers = Vec::new();
        if let Some(k) = &self.key {
            headers.push(("Authorization", format!("Bearer {k}")));
        }
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
            detail: format!(
                "no choices[0].message.content in {}",
                excerpt(&v.to_string())
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_servers_need_no_key() {
        assert!(is_local("http://localhost:11434/v1"));
        assert!(is_local("http://127.0.0.1:8080/v1"));
        assert!(is_local("http://[::1]:8080/v1"));
        assert!(!is_local("https://api.openai.com/v1"));
        assert!(!is_local("https://localhost.evil.example/v1"));
        assert!(!is_local("https://127.0.0.1.evil.example/v1"));
        assert!(!is_local("[::1"));
    }

    #[test]
    fn answers_are_read_from_strings_or_parts_and_nothing_else() {
        let v = json!({"choices": [{"message": {"content": "hi"}}]});
        assert_eq!(answer_text(&v).as_deref(), Some("hi"));
        let v = json!({"choices": [{"message": {"content": [{"type": "text", "text": "a"}, {"text": "b"}]}}]});
        assert_eq!(answer_text(&v).as_deref(), Some("ab"));
        assert_eq!(answer_text(&json!({"choices": []})), None);
        assert_eq!(
            answer_text(&json!({"choices": [{"message": {"content": null}}]})),
            None
        );
        assert_eq!(answer_text(&json!([1, 2])), None);
    }
}
