//! `trail hook claude-code|codex`: the hot path. It runs before and after every tool call of
//! every agent session, so it is dispatched from `main` before argument parsing, reads one
//! payload from stdin, and does only what the event needs — no index, no network, no regex
//! compiled unless a secret-like keyword shows up.
//!
//! Failure policy: a PreToolUse payload that cannot be read is denied (a guardrail fails
//! closed); any other event that cannot be read exits 0 with a message on stderr and changes
//! nothing. Stop never blocks.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use trail_core::config::Config;
use trail_core::gate::{self, Places, Verdict};
use trail_core::host::render::{Response, render};
use trail_core::host::{self, Event, Host, SessionSource, Tool};
use trail_core::ledger::Ledger;
use trail_core::ledger::rehydrate::{self, Level, RehydrateOptions};
use trail_core::proof;

/// Payloads are small; refuse to buffer an unbounded stdin.
const MAX_PAYLOAD: u64 = 16 << 20;

pub fn run(host_name: Option<&str>) -> ExitCode {
    let host = match host_name {
        Some("claude-code") => Host::ClaudeCode,
        Some("codex") => Host::Codex,
        other => {
            eprintln!(
                "error: `trail hook {}`: say which agent sends the payload: `trail hook claude-code` or `trail hook codex`",
                other.unwrap_or("")
            );
            return ExitCode::from(2);
        }
    };
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().take(MAX_PAYLOAD).read_to_end(&mut bytes) {
        eprintln!("trail hook: cannot read the payload: {e}");
        return ExitCode::SUCCESS;
    }
    let response = match host::decode(&bytes) {
        Ok((envelope, event)) => handle(&envelope, &event),
        Err(e) => {
            // The event name may still be readable; without it, assume the worst only when the
            // payload says PreToolUse anywhere.
            if String::from_utf8_lossy(&bytes).contains("PreToolUse") {
                Response::Deny {
                    reason: format!(
                        "trail could not read this tool call ({e}), so it is refused to be safe"
                    ),
                }
            } else {
                eprintln!("trail hook: ignored a payload it could not read: {e}");
                Response::Silent
            }
        }
    };
    if let Some(json) = render(host, &response) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{json}");
    }
    ExitCode::SUCCESS
}

fn handle(envelope: &host::Envelope, event: &Event) -> Response {
    let config = match Config::load() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("trail hook: configuration: {e}");
            return match event {
                Event::ToolRequested { .. } => Response::Deny {
                    reason: format!("trail's configuration is broken ({e}); fix it, then retry"),
                },
                _ => Response::Silent,
            };
        }
    };
    match event {
        Event::ToolRequested {
            tool: Tool::Bash,
            input,
            ..
        } => {
            let Some(command) = input.get("command").and_then(|c| c.as_str()) else {
                return Response::Deny {
                    reason: "trail could not find the command in this Bash call, so it is refused to be safe".into(),
                };
            };
            gate_bash(&config, envelope, command)
        }
        Event::ToolFinished { .. } => {
            let ledger = Ledger::open(config.home.value.clone(), config.ledger_options());
            let mut found = Vec::new();
            let redactor = match ledger.redactor() {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("trail hook: {e}");
                    return Response::Silent;
                }
            };
            if let Some(entry) =
                proof::entry_for(event, envelope.session_id.as_deref(), redactor, &mut found)
            {
                if !found.is_empty()
                    && let Err(e) = ledger.secret_store().store(&found)
                {
                    eprintln!("trail hook: {e}");
                    return Response::Silent;
                }
                if let Err(e) = proof::append(&config.project_root.value, &entry) {
                    eprintln!("trail hook: cannot append to the proof log: {e}");
                }
            }
            Response::Silent
        }
        Event::SessionStarted { source } => {
            let ledger = Ledger::open(config.home.value.clone(), config.ledger_options());
            let state = match ledger.rehydrate(&RehydrateOptions::default()) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("trail hook: cannot rehydrate: {e}");
                    return Response::Silent;
                }
            };
            if state.threads.is_empty() {
                return Response::Silent;
            }
            // After /clear or compaction the context lost more: give more back.
            let level = match source {
                SessionSource::Clear | SessionSource::Compact => Level::Standard,
                _ => Level::Brief,
            };
            Response::Context {
                event: "SessionStart",
                text: format!(
                    "trail: working state rebuilt from the pulse stream (`trail resume --level 3` for everything):\n{}",
                    rehydrate::render(&state, level)
                ),
            }
        }
        Event::CompactRequested { .. } | Event::SessionEnded { .. } => {
            flush_memory(&config, envelope, event);
            Response::Silent
        }
        // Stop must never block the session (the spec's Stop contract; `stop_hook_active` loops
        // were the original's bug). Observations are captured by a later version.
        _ => Response::Silent,
    }
}

fn gate_bash(config: &Config, envelope: &host::Envelope, command: &str) -> Response {
    let Some(home) = std::env::var_os("HOME").map(PathBuf::from) else {
        return Response::Deny {
            reason:
                "HOME is not set, so trail cannot judge paths; the command is refused to be safe"
                    .into(),
        };
    };
    let cwd = envelope
        .cwd
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| config.project_root.value.clone());
    let places = Places {
        project_root: config.project_root.value.clone(),
        home,
        cwd,
        tmpdir: std::env::var_os("TMPDIR").map(Into::into),
    };
    let d = gate::evaluate(command, &gate::Context::new(places));
    let rule = d.rule.as_deref().unwrap_or("gate");
    match d.verdict {
        Verdict::Allow => Response::Silent,
        Verdict::Block => Response::Deny {
            reason: format!(
                "trail blocked this command [{rule}]: {}. It will not run, whoever approves.",
                d.reason
            ),
        },
        Verdict::Junction => Response::Deny {
            reason: format!(
                "trail stopped this command for a person's decision [{rule}]: {}. Tell the user what you wanted to run and why; if they want it, they run it themselves in their own terminal.",
                d.reason
            ),
        },
    }
}

/// Daily memory: what the session did, before the host compacts it away or when it ends.
fn flush_memory(config: &Config, envelope: &host::Envelope, event: &Event) {
    use trail_core::memory::daily::{Trigger, flush};
    let Some(path) = &envelope.transcript_path else {
        return;
    };
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("trail hook: cannot read the transcript {}", path.display());
        return;
    };
    let trigger = match event {
        Event::CompactRequested { .. } => Trigger::Compaction,
        _ => Trigger::SessionEnd,
    };
    let ledger = Ledger::open(config.home.value.clone(), config.ledger_options());
    let Ok(redactor) = ledger.redactor() else {
        return;
    };
    let mut found = Vec::new();
    let t = trail_core::transcript::parse(&text);
    let store = ledger.secret_store();
    let mut keep = |f: &[trail_core::secrets::Found]| store.store(f).map_err(std::io::Error::other);
    if let Err(e) = flush(
        &config.project_root.value,
        &t,
        trigger,
        envelope.session_id.as_deref(),
        trail_core::time::Ts::now(),
        redactor,
        &mut found,
        &mut keep,
    ) {
        eprintln!("trail hook: cannot write daily memory: {e}");
    }
}
