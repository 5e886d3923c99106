//! One parser per kind of value, shared by config files and the environment, and the text form
//! each value is shown in (which parses back to the same value).
//!
//! Sizes and durations need their unit. A bare `120` once meant 120 s for `llm.timeout` in a
//! file and 120 ms in `$TRAIL_LLM_TIMEOUT`; rather than pick one reading and surprise whoever
//! expected the other, a bare number is refused with a message saying how to write it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Why a setting's text was refused, in words that say how to write it. The same value fails
/// the same way from a file or from the environment; the caller adds where it came from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadValue {
    #[error("`{0}` is not a size: write it like \"100MB\"")]
    NotASize(String),
    #[error("`{text}` has no unit: write \"{number}B\" for bytes, or use KB, MB or GB (\"100MB\")")]
    SizeWithoutUnit { text: String, number: String },
    #[error("unknown size unit `{unit}` in `{text}`: use B, KB, MB or GB")]
    SizeUnit { unit: String, text: String },
    #[error("`{0}` must be more than zero bytes")]
    NoBytes(String),
    #[error("`{0}` is not a duration: write it like \"2s\" or \"500ms\"")]
    NotADuration(String),
    #[error(
        "`{text}` has no unit: write \"{number}s\" for seconds or \"{number}ms\" for milliseconds"
    )]
    DurationWithoutUnit { text: String, number: String },
    #[error("unknown duration unit `{unit}` in `{text}`: use ms, s, m or h")]
    DurationUnit { unit: String, text: String },
    #[error("`{0}` must be more than zero")]
    NoTime(String),
    #[error("`{text}` is not a whole number of at least {min}")]
    CountBelow { text: String, min: u32 },
    #[error("`{text}` is not a whole number from {min} to {max}")]
    CountOutside { text: String, min: u32, max: u32 },
    #[error("`{0}` starts with `~` but HOME is not set")]
    TildeWithoutHome(String),
    /// A word outside a closed set: a provider, an enforcement, a confinement mode.
    #[error("unknown {what} `{text}`: use {names}")]
    Unknown {
        what: &'static str,
        text: String,
        names: &'static str,
    },
    #[error(transparent)]
    Ratio(#[from] trail_base::ratio::ThresholdError),
    /// A file gave a value of the wrong TOML type (a table where a size goes).
    #[error("give {0}")]
    WrongType(&'static str),
}

/// `100MB`, `64KB`, `1.5 GiB`, `4096B`. Units are powers of 1024 and case does not matter.
pub fn parse_size(s: &str) -> Result<u64, BadValue> {
    let (num, unit) = split_number(s);
    if num.is_empty() || num.parse::<f64>().is_err() {
        return Err(BadValue::NotASize(s.into()));
    }
    let mult: f64 = match unit.to_ascii_lowercase().as_str() {
        "" => {
            return Err(BadValue::SizeWithoutUnit {
                text: s.into(),
                number: num.into(),
            });
        }
        "b" => 1.0,
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1024.0 * 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
        u => {
            return Err(BadValue::SizeUnit {
                unit: u.into(),
                text: s.into(),
            });
        }
    };
    // `as` saturates, so an absurdly long number becomes u64::MAX rather than wrapping.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "`as` saturates: negative or absurd input becomes 0 or u64::MAX, never wraps"
    )]
    let v = (num.parse::<f64>().unwrap_or(0.0) * mult) as u64;
    if v == 0 {
        return Err(BadValue::NoBytes(s.into()));
    }
    Ok(v)
}

/// `500ms`, `2s`, `1.5s`, `1m` (or `1min`), `24h`.
pub fn parse_duration(s: &str) -> Result<Duration, BadValue> {
    let (num, unit) = split_number(s);
    let Ok(n) = num.parse::<f64>() else {
        return Err(BadValue::NotADuration(s.into()));
    };
    let ms_per_unit = match unit {
        "" => {
            return Err(BadValue::DurationWithoutUnit {
                text: s.into(),
                number: num.into(),
            });
        }
        "ms" => 1.0,
        "s" => 1000.0,
        "m" | "min" => 60_000.0,
        "h" => 3_600_000.0,
        u => {
            return Err(BadValue::DurationUnit {
                unit: u.into(),
                text: s.into(),
            });
        }
    };
    // Whole milliseconds: `Duration::from_secs_f64` panics on overflow, `as` saturates.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "`as` saturates: negative or absurd input becomes 0 or u64::MAX, never wraps"
    )]
    let ms = (n * ms_per_unit) as u64;
    Ok(Duration::from_millis(ms))
}

/// A whole number from `min` to `max`.
pub fn parse_count(s: &str, min: u32, max: u32) -> Result<u32, BadValue> {
    let text = s.into();
    match s.trim().parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ if max == u32::MAX => Err(BadValue::CountBelow { text, min }),
        _ => Err(BadValue::CountOutside { text, min, max }),
    }
}

/// A path; a leading `~/` is the home directory, which must then be known.
pub fn parse_path(s: &str, home: Option<&Path>) -> Result<PathBuf, BadValue> {
    // `~user/…` is a shell's business, and a name that merely starts with `~` is a name.
    let rest = match s.strip_prefix('~').map(|r| (r, r.strip_prefix('/'))) {
        Some(("", _)) => "",
        Some((_, Some(rest))) => rest,
        _ => return Ok(PathBuf::from(s)),
    };
    match home {
        Some(h) if rest.is_empty() => Ok(h.to_path_buf()),
        Some(h) => Ok(h.join(rest)),
        None => Err(BadValue::TildeWithoutHome(s.into())),
    }
}

/// A size in the largest unit that shows it exactly: `100MB`, `1536KB`, `1000B`.
pub fn format_size(bytes: u64) -> String {
    for (unit, size) in [("GB", 1u64 << 30), ("MB", 1 << 20), ("KB", 1 << 10)] {
        if bytes >= size && bytes.is_multiple_of(size) {
            return format!("{}{unit}", bytes / size);
        }
    }
    format!("{bytes}B")
}

/// A duration in whole hours when it is a day or more of them, whole seconds when it is one,
/// else in milliseconds: `24h`, `2s`, `1500ms`.
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms >= 86_400_000 && ms.is_multiple_of(3_600_000) {
        format!("{}h", ms / 3_600_000)
    } else if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// The number in front and the unit after it, both trimmed: `" 1.5 GiB"` → `("1.5", "GiB")`.
fn split_number(s: &str) -> (&str, &str) {
    let t = s.trim();
    let at = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(at);
    (num, unit.trim())
}

/// The LLM behind `trail dream`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmProvider {
    /// OpenAI-compatible chat completions (OpenAI, Ollama, llama.cpp server, vLLM).
    Openai,
    /// Anthropic Messages API.
    Anthropic,
    /// Any CLI: the prompt on its stdin, the answer on its stdout.
    Command,
    /// No LLM: daily facts merged and deduplicated, offline. `Default` only so that a blank
    /// `Config` sends nothing anywhere; the settings table says what the default is.
    #[default]
    Extractive,
}

impl LlmProvider {
    pub const NAMES: &'static str = "openai, anthropic, command or extractive";

    pub fn parse(s: &str) -> Option<LlmProvider> {
        match s.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-compatible" => Some(LlmProvider::Openai),
            "anthropic" => Some(LlmProvider::Anthropic),
            "command" => Some(LlmProvider::Command),
            "extractive" => Some(LlmProvider::Extractive),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            LlmProvider::Openai => "openai",
            LlmProvider::Anthropic => "anthropic",
            LlmProvider::Command => "command",
            LlmProvider::Extractive => "extractive",
        }
    }
}

impl fmt::Display for LlmProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_need_a_unit_and_show_in_the_largest_exact_one() {
        assert_eq!(parse_size("100MB"), Ok(100 << 20));
        assert_eq!(parse_size(" 1.5 GiB "), Ok(3 << 29));
        assert_eq!(parse_size("4096B"), Ok(4096));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        for bad in [
            "4096",
            "lots",
            "",
            "MB",
            "-1MB",
            "0KB",
            "2 fortnights",
            "1e9B",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(parse_size(&"9".repeat(400)).is_err());
        assert_eq!(parse_size(&format!("{}B", "9".repeat(400))), Ok(u64::MAX));
        for n in [1, 1000, 1024, 1536, 100 << 20, 3 << 30, u64::MAX] {
            assert_eq!(parse_size(&format_size(n)), Ok(n), "{}", format_size(n));
        }
        assert_eq!(format_size(100 << 20), "100MB");
    }

    #[test]
    fn durations_need_a_unit_and_show_in_seconds_when_whole() {
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("150ms"), Ok(Duration::from_millis(150)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_mins(1)));
        assert_eq!(parse_duration("0s"), Ok(Duration::ZERO));
        assert_eq!(parse_duration("24h"), Ok(Duration::from_hours(24)));
        for bad in ["120", "0", "2 fortnights", "s", "", "-1s", "1d"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        for ms in [
            0, 1, 999, 1000, 1500, 120_000, 3_600_000, 86_400_000, 90_000_000,
        ] {
            let d = Duration::from_millis(ms);
            assert_eq!(parse_duration(&format_duration(d)), Ok(d));
        }
        assert_eq!(format_duration(Duration::from_mins(2)), "120s");
        assert_eq!(format_duration(Duration::from_hours(1)), "3600s");
        assert_eq!(format_duration(Duration::from_hours(24)), "24h");
        assert_eq!(format_duration(Duration::from_hours(25)), "25h");
    }

    #[test]
    fn a_bare_number_is_refused_with_the_way_to_write_it() {
        let e = parse_duration("120").unwrap_err().to_string();
        assert_eq!(
            e,
            "`120` has no unit: write \"120s\" for seconds or \"120ms\" for milliseconds"
        );
        let e = parse_size("1048576").unwrap_err().to_string();
        assert_eq!(
            e,
            "`1048576` has no unit: write \"1048576B\" for bytes, or use KB, MB or GB (\"100MB\")"
        );
    }

    #[test]
    fn counts_and_paths() {
        assert_eq!(parse_count("10", 0, 10), Ok(10));
        assert!(parse_count("11", 0, 10).is_err());
        assert_eq!(
            parse_count("0", 1, u32::MAX),
            Err(BadValue::CountBelow {
                text: "0".into(),
                min: 1
            })
        );
        assert!(parse_count("-1", 0, 10).is_err());
        let home = Path::new("/h");
        assert_eq!(parse_path("~/x", Some(home)), Ok(PathBuf::from("/h/x")));
        assert_eq!(parse_path("~", Some(home)), Ok(PathBuf::from("/h")));
        assert_eq!(
            parse_path("~bob/x", Some(home)),
            Ok(PathBuf::from("~bob/x"))
        );
        assert_eq!(parse_path("rel/x", None), Ok(PathBuf::from("rel/x")));
        assert!(parse_path("~/x", None).is_err());
    }
}
