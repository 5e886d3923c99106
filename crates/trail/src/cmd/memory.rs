//! `trail memory flush`: a session's work into today's daily memory.

use trail_core::config::Config;
use trail_core::memory::daily::{Trigger, flush};
use trail_core::memory::flushed;
use trail_core::time::Local;

use crate::cli::MemoryCommand;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, cmd: &MemoryCommand) -> CliResult {
    let (transcript, trimmed, json) = match cmd {
        MemoryCommand::Flush {
            transcript,
            trimmed,
            json,
        } => (transcript, trimmed, json),
        MemoryCommand::Show => return show(),
        MemoryCommand::Verify { json } => return verify(*json),
    };
    let config = Config::load()?;
    let transcript = match transcript {
        Some(t) => t.clone(),
        None => newest_transcript(&config.project_root.value)?,
    };
    let transcript = &transcript;
    let text = std::fs::read_to_string(transcript)
        .map_err(|e| CliError::usage(format!("cannot read {}: {e}", transcript.display())))?;
    let root = &config.project_root.value;
    // Only what no earlier flush of this transcript (by a hook or by hand) covered.
    let format = trail_core::conversation::Format::of(text.as_bytes());
    let t = format.parse(flushed::unflushed(root, transcript, &text));
    let session = transcript
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned());
    // Whoever runs this command chose the transcript (the agent can write one), unlike the
    // hooks, which flush the host's own `transcript_path`: its asks are kept as unverified.
    let trigger = Trigger::HandedIn { trimmed: *trimmed };
    let done = flush(
        &config.project_root.value,
        &t,
        trigger,
        session.as_deref(),
        &Local::now(),
        &ctx.secrets,
    )?;
    flushed::mark(root, transcript, &text)?;
    // The agent's next SessionStart or prompt gets this block back, once.
    trail_core::memory::summary::mark(root, &done)?;
    if *json {
        return output::json(&done);
    }
    output::text(&if done.written {
        format!("flushed to {}\n", done.path.display())
    } else {
        format!(
            "nothing new: this content is already in {}\n",
            done.path.display()
        )
    })
}

fn show() -> CliResult {
    let config = Config::load()?;
    let root = &config.project_root.value;
    let core = trail_core::layout::Layout::new(root).core_memory();
    let mut s = match read_project(root, &core) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            format!("no core memory yet ({} does not exist)\n", core.display())
        }
        Err(e) => return Err(e.into()),
    };
    let (today, _) = Local::now().day_and_minute();
    let daily = trail_core::memory::daily::memory_dir(root).join(format!("{today}.md"));
    if let Ok(t) = read_project(root, &daily) {
        s.push('\n');
        s.push_str(&t);
    }
    output::text(&s)
}

pub fn remember(ctx: &Context, note: &str, json: bool) -> CliResult {
    if note.trim().is_empty() {
        return Err(CliError::usage(
            "the note is empty: `trail remember \"what to keep\"`",
        ));
    }
    super::redact::say_placeholders(ctx, note);
    // The workspace's root, as the MCP `remember` tool writes it (the configuration is loaded
    // once, with the context).
    let src = trail_core::lookup::remember(ctx, note)?;
    if json {
        return output::json(&serde_json::json!({ "source": src }));
    }
    output::text(&format!("remembered ({src})\n"))
}

pub fn recall(ctx: &Context, query: &str, limit: usize, json: bool) -> CliResult {
    let hits = trail_core::lookup::recall(ctx, query, limit)?;
    if json {
        return output::json(&hits);
    }
    if hits.is_empty() {
        return output::text("nothing in memory matches\n");
    }
    let s: String = hits
        .iter()
        .flat_map(|h| [h.source.as_str(), "  ", h.text.as_str(), "\n"])
        .collect();
    output::text(&s)
}

fn verify(json: bool) -> CliResult {
    use trail_core::memory::verify::{Source, Verdict, verify};
    let config = Config::load()?;
    let root = &config.project_root.value;
    let core = trail_core::layout::Layout::new(root).core_memory();
    let memory = read_project(root, &core).map_err(|e| {
        CliError::usage(format!("cannot read {}: {e}", core.display())).with_hint(
            "core memory is written by `trail dream`; daily memory by hooks and `trail remember`",
        )
    })?;
    let dir = trail_core::memory::daily::memory_dir(root);
    let mut files: Vec<(String, String)> = Vec::new();
    if let Ok(rd) = std::fs::read_dir(&dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "md") {
                let name = format!(
                    "memory/{}",
                    p.file_name().unwrap_or_default().to_string_lossy()
                );
                files.push((name, read_project(root, &p)?));
            }
        }
    }
    files.sort();
    let sources: Vec<Source<'_>> = files
        .iter()
        .map(|(n, t)| Source { name: n, text: t })
        .collect();
    let checks = verify(&memory, &sources);
    let bad = checks
        .iter()
        .filter(|c| c.verdict == Verdict::Unsupported)
        .count();
    if json {
        output::json(&checks)?;
    } else {
        let mut s = String::new();
        for c in &checks {
            let what = match c.verdict {
                Verdict::Verified => "verified".to_string(),
                Verdict::Sourced => format!("supported by {}", c.source.as_deref().unwrap_or("?")),
                Verdict::Unsupported => format!("UNSUPPORTED: {}", c.why.as_deref().unwrap_or("")),
            };
            s.push_str(&format!("MEMORY.md:{}  {what}  — {}\n", c.line, c.text));
        }
        s.push_str(&format!("{} bullets, {} unsupported\n", checks.len(), bad));
        output::text(&s)?;
    }
    if bad > 0 {
        Err(CliError::CheckFailed)
    } else {
        Ok(())
    }
}

/// The project's newest session file: Claude Code's transcripts are kept in
/// `~/.claude/projects/<the project path, every character but letters and digits as '-'>/`,
/// Codex's rollouts in `$CODEX_HOME/sessions/` (`~/.codex`), which name the directory they ran in.
pub(crate) fn newest_transcript(project: &std::path::Path) -> CliResult<std::path::PathBuf> {
    let home = std::env::var_os("HOME")
        .map(std::path::PathBuf::from)
        .ok_or_else(|| CliError::usage("HOME is not set: pass --transcript PATH"))?;
    let slug: String = project
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = home.join(".claude").join("projects").join(&slug);
    let claude = std::fs::read_dir(&dir)
        .ok()
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .map(|e| e.path());
    let codex_home = std::env::var_os("CODEX_HOME")
        .map_or_else(|| home.join(".codex"), std::path::PathBuf::from);
    let codex = trail_core::rollout::newest_for(project, &codex_home);
    let newest = claude
        .chain(codex)
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .max();
    newest.map(|(_, p)| p).ok_or_else(|| {
        CliError::usage(format!(
            "no Claude Code transcript for this project in {}, and no Codex rollout in {}",
            dir.display(),
            codex_home.join("sessions").display()
        ))
        .with_hint("pass --transcript PATH (the hooks name it in `transcript_path`)")
    })
}

/// A memory file's text, never through a symlink and never a FIFO (DESIGN, principle 10): a
/// linked MEMORY.md would print whatever file it points at to whoever asked, the agent included.
fn read_project(root: &std::path::Path, path: &std::path::Path) -> std::io::Result<String> {
    Ok(trail_core::fsutil::read_string_in(
        root,
        path,
        trail_core::fsutil::MAX_PROJECT_FILE,
    )?)
}
