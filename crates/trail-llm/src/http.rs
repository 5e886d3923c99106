//! One JSON POST with a deadline and bounded retries, shared by the HTTP providers.

use std::time::Duration;

use serde_json::Value;

use trail_core::llm::{LlmError, excerpt};

/// The longest wait trail accepts from a `Retry-After` header or its own backoff: a dream is
/// run by a person at a terminal (or a nightly job), not a queue that may sleep for hours.
pub(crate) const MAX_WAIT: Duration = Duration::from_secs(30);

/// The wait before retry number `attempt` (1-based): `Retry-After` when the service gave one
/// (capped), else 1 s, 2 s, 4 s, … (capped).
pub(crate) fn backoff(attempt: u32, retry_after: Option<&str>) -> Duration {
    if let Some(secs) = retry_after.and_then(|v| v.trim().parse::<f64>().ok())
        && secs.is_finite()
        && secs >= 0.0
    {
        return Duration::from_secs_f64(secs.min(MAX_WAIT.as_secs_f64()));
    }
    let exp = attempt.saturating_sub(1).min(16);
    Duration::from_secs(1u64 << exp).min(MAX_WAIT)
}

fn retryable(status: u16) -> bool {
    status == 429 || (500..=599).contains(&status)
}

pub(crate) struct Call<'a> {
    /// `openai model m at URL`, for messages.
    pub what: &'a str,
    pub url: &'a str,
    pub headers: &'a [(&'a str, String)],
    pub body: &'a Value,
    pub timeout: Duration,
    pub retries: u32,
}

/// POST `call.body` and return the parsed JSON of a 2xx answer.
pub(crate) fn post_json(
    call: &Call<'_>,
    progress: &mut dyn FnMut(&str),
) -> Result<Value, LlmError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(call.timeout))
        // Error statuses come back as responses: their bodies say what went wrong.
        .http_status_as_error(false)
        .user_agent(concat!("trail/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let body = serde_json::to_string(call.body).map_err(|e| LlmError::BadAnswer {
        what: call.what.into(),
        detail: e.to_string(),
    })?;
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let mut req = agent.post(call.url);
        for (k, v) in call.headers {
            req = req.header(*k, v.as_str());
        }
        let sent = req.content_type("application/json").send(body.as_str());
        let mut res = match sent {
            Ok(r) => r,
            Err(e) => return Err(transport(call, e)),
        };
        let status = res.status().as_u16();
        let retry_after = res
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let text = res
            .body_mut()
            .read_to_string()
            .map_err(|e| transport(call, e))?;
        if (200..300).contains(&status) {
            return serde_json::from_str(&text).map_err(|e| LlmError::BadAnswer {
                what: call.what.into(),
                detail: format!("not JSON ({e}): {}", excerpt(&text)),
            });
        }
        if retryable(status) && attempt <= call.retries {
            let wait = backoff(attempt, retry_after.as_deref());
            progress(&format!(
                "HTTP {status} from {}; retry {attempt} of {} in {:.1} s",
                call.url,
                call.retries,
                wait.as_secs_f64()
            ));
            std::thread::sleep(wait);
            continue;
        }
        return Err(LlmError::Status {
            what: call.what.into(),
            status,
            attempts: attempt,
            detail: excerpt(&text),
        });
    }
}

fn transport(call: &Call<'_>, e: ureq::Error) -> LlmError {
    let timed_out = match &e {
        ureq::Error::Timeout(_) => true,
        ureq::Error::Io(io) => io.kind() == std::io::ErrorKind::TimedOut,
        _ => false,
    };
    if timed_out {
        return LlmError::Timeout {
            what: call.what.into(),
            after: call.timeout,
        };
    }
    LlmError::Connect {
        url: call.url.into(),
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_honoured_up_to_the_cap_and_backoff_doubles() {
        assert_eq!(backoff(1, Some("0")), Duration::ZERO);
        assert_eq!(backoff(1, Some("2")), Duration::from_secs(2));
        assert_eq!(backoff(1, Some("86400")), MAX_WAIT);
        assert_eq!(backoff(1, Some("-1")), Duration::from_secs(1));
        assert_eq!(backoff(1, Some("NaN")), Duration::from_secs(1));
        assert_eq!(
            backoff(3, Some("Wed, 21 Oct 2015 07:28:00 GMT")),
            Duration::from_secs(4)
        );
        assert_eq!(backoff(2, None), Duration::from_secs(2));
        assert_eq!(backoff(40, None), MAX_WAIT);
        assert!(retryable(429) && retryable(503) && retryable(529));
        assert!(!retryable(400) && !retryable(401) && !retryable(404));
    }
}
