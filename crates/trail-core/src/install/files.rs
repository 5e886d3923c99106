//! The files `trail init` writes besides hook settings: the `/edge` slash command and a short,
//! marked instruction block in the project's `CLAUDE.md` / `AGENTS.md`. Both are recognised as
//! trail's by a marker, rewritten only when they differ, and removed by `trail uninstall`
//! without touching anything else in the file.

use std::path::Path;

use super::InstallError;
use crate::fsutil;

const COMMAND_MARKER: &str = "<!-- written by `trail init`; `trail uninstall` removes it -->";

/// `.claude/commands/edge.md`. The prompt itself is the channel: the UserPromptSubmit hook
/// sees `/edge approve` as the person typed it and carries it out before the model runs; this
/// file only tells the model what happened. `disable-model-invocation` keeps the agent from
/// invoking it as a tool.
pub fn edge_command() -> String {
    format!(
        "---\n\
description: Operator's Edge (trail) — status, modes, the person's decisions on junctions; checkpoint, decide, show\n\
argument-hint: \"[plan | active \\\"objective\\\" | review | done | approve [ID] | dismiss [MINUTES] | skip | checkpoint | decide [WHAT] | show ID]\"\n\
disable-model-invocation: true\n\
---\n\
{COMMAND_MARKER}\n\
The user ran `/edge $ARGUMENTS`. trail's prompt hook has already carried it out, or, for\n\
`checkpoint`, `decide` and `show`, says what to run; its words are in the context trail added to\n\
this prompt. Do what they say, then tell the user the result in one or two sentences.\n\
If a command of yours was approved, run it again exactly as before, once. Never run\n\
`trail approve`, `trail dismiss` or edit grants in active_context.yaml yourself: the gate\n\
refuses it, because decisions are the user's.\n"
    )
}

const BEGIN: &str =
    "<!-- trail:begin (managed by `trail init`; `trail uninstall` removes this block) -->";
const END: &str = "<!-- trail:end -->";

/// The instruction block: the "system prompt reference" of LedgerPulse §8 and Operator's Edge.
pub fn instructions() -> String {
    format!(
        "{BEGIN}\n\
## trail: session continuity and guardrails\n\
\n\
This project records its agent sessions with trail. Hooks already log every tool call and\n\
gate risky commands; what only you know, you write down.\n\
\n\
- **Pulses** (`trail pulse --proj NAME --topic TOPIC --summary \"…\" --next \"…\" --fact \"…\"`):\n\
  write one every 10 minutes of work, on every success or failure, on a change of focus, and\n\
  after any command that changes state, cannot be undone or ran over two minutes.\n\
- **Decisions**: when you make a choice, ``trail decide --title T --decision D --rationale R\n\
  --evidence '`quote` [${{PROJECT_ROOT}}/path:LINE]' --test \"happy: …\" --test \"edge: …\"\n\
  --test \"error: …\"``. A citation is `` `quote` [${{PROJECT_ROOT}}/path:LINE] `` (or\n\
  `:START-END`), the quote copied from those lines; the answer says which verify.\n\
- **Identifiers, not code**: keep `${{PROJECT_ROOT}}/path:45-67` in context and notes instead\n\
  of pasted code; `trail show '${{PROJECT_ROOT}}/path:45-67'` brings the lines back\n\
  (`--full-section`: the whole function).\n\
- **Before /clear**: `trail checkpoint`; when it says blocked, do its remedies and run it again.\n\
- **Focus switch**: `trail pulse --intent switch --proj OTHER --summary \"why\"`; a side trip\n\
  that must not change the intent is `--type tangent` (park it with `--defer`).\n\
- **Assumption changed**: `--shift-before \"…\" --shift-after \"…\"`.\n\
- **Resume** after /clear, compaction or a crash: `trail resume` (more: `--level 3`).\n\
- **Memory**: `trail recall QUERY` searches core and daily memory; `trail remember \"NOTE\"`\n\
  keeps a fact with its source.\n\
- **State**: `trail status` shows the mode, objective, plan and any pending junction. Keep\n\
  `objective` and `plan` in `active_context.yaml` true; mark steps completed only when done —\n\
  the quality gate compares your claims with what the hooks observed.\n\
- **Junctions**: when trail stops a command for a person's decision, do not retry or work\n\
  around it. Tell the user what you want to run and why; they answer with `/edge approve`,\n\
  `/edge dismiss` or `/edge skip`. Never run `trail approve`/`trail dismiss` yourself.\n\
{END}\n"
    )
}

fn io<'a, E: trail_base::file_error::Cause>(
    action: &'static str,
    path: &'a Path,
) -> impl FnOnce(E) -> InstallError + 'a {
    move |source| InstallError::Io {
        action,
        path: path.into(),
        source: source.cause(),
    }
}

fn read(path: &Path) -> Result<Option<String>, InstallError> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io("read", path)(e)),
    }
}

fn write(path: &Path, text: &str) -> Result<(), InstallError> {
    fsutil::ensure_dir(fsutil::parent_dir(path)).map_err(io("create the folder of", path))?;
    fsutil::atomic_write(path, text.as_bytes()).map_err(io("write", path))
}

/// Writes the slash command; a file of the same name that is not trail's is left alone.
pub fn install_command(path: &Path) -> Result<bool, InstallError> {
    let want = edge_command();
    match read(path)? {
        Some(t) if t == want => Ok(false),
        Some(t) if !t.contains(COMMAND_MARKER) => Err(InstallError::Foreign {
            path: path.into(),
            what: "a slash command that is not trail's",
        }),
        _ => write(path, &want).map(|()| true),
    }
}

pub fn uninstall_command(path: &Path) -> Result<bool, InstallError> {
    match read(path)? {
        Some(t) if t.contains(COMMAND_MARKER) => {
            std::fs::remove_file(path).map_err(io("remove", path))?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Adds (or refreshes) the block in an instruction file, creating the file if needed.
pub fn install_block(path: &Path) -> Result<bool, InstallError> {
    let block = instructions();
    let text = read(path)?.unwrap_or_default();
    let new = match span(&text) {
        Some((a, b)) if text[a..b] == block[..block.len() - 1] => return Ok(false),
        Some((a, b)) => format!("{}{}{}", &text[..a], block.trim_end(), &text[b..]),
        None if text.is_empty() => block,
        None => format!("{}\n\n{block}", text.trim_end()),
    };
    write(path, &new).map(|()| true)
}

/// Removes the block (and the file, when nothing else was in it).
pub fn uninstall_block(path: &Path) -> Result<bool, InstallError> {
    let Some(text) = read(path)? else {
        return Ok(false);
    };
    let Some((a, b)) = span(&text) else {
        return Ok(false);
    };
    let rest = format!(
        "{}{}",
        text[..a].trim_end(),
        text[b..].trim_end_matches('\n')
    );
    if rest.trim().is_empty() {
        std::fs::remove_file(path).map_err(io("remove", path))?;
    } else {
        write(path, &format!("{}\n", rest.trim_end()))?;
    }
    Ok(true)
}

/// The byte range of the block, from its begin marker to the end of its end marker.
fn span(text: &str) -> Option<(usize, usize)> {
    let a = text.find(BEGIN)?;
    let b = text[a..].find(END)? + a + END.len();
    Some((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_is_added_once_and_removed_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("CLAUDE.md");
        let original = "# Project\n\nUse tabs.\n";
        std::fs::write(&p, original).unwrap();
        assert!(install_block(&p).unwrap());
        let once = std::fs::read_to_string(&p).unwrap();
        assert!(once.starts_with(original.trim_end()) && once.contains("trail pulse"));
        assert!(!install_block(&p).unwrap(), "second run changes nothing");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), once);
        assert!(uninstall_block(&p).unwrap());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), original);
        // A file trail created is removed whole.
        let q = dir.path().join("AGENTS.md");
        install_block(&q).unwrap();
        uninstall_block(&q).unwrap();
        assert!(!q.exists());
    }

    fn tokens(s: &str) -> usize {
        tiktoken_rs::o200k_base()
            .unwrap()
            .encode_with_special_tokens(s)
            .len()
    }

    /// The block is in every session's context and the command in every `/edge` prompt: their
    /// size is a cost the user pays each time, held here (docs/GUIDE.md, "With an agent", gives the
    /// figures: 563 and 209 tokens; 408 and 168 before decide, checkpoint and show).
    #[test]
    fn the_block_and_the_command_stay_small() {
        let (block, command) = (instructions(), edge_command());
        println!(
            "block: {} characters, {} o200k tokens; /edge: {} characters, {} tokens",
            block.chars().count(),
            tokens(&block),
            command.chars().count(),
            tokens(&command)
        );
        for taught in [
            "trail decide --title",
            "`quote` [${PROJECT_ROOT}/path:LINE]",
            "trail show '${PROJECT_ROOT}/path:45-67'",
            "trail checkpoint",
        ] {
            assert!(block.contains(taught), "{taught}: {block}");
        }
        for verb in ["checkpoint", "decide", "show"] {
            assert!(command.contains(&format!("`{verb}`")), "{verb}: {command}");
        }
        assert!(tokens(&block) <= 580, "{block}");
        assert!(tokens(&command) <= 220, "{command}");
    }

    #[test]
    fn a_foreign_slash_command_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("edge.md");
        std::fs::write(&p, "my own command").unwrap();
        assert!(install_command(&p).is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "my own command");
        assert!(!uninstall_command(&p).unwrap());
        std::fs::remove_file(&p).unwrap();
        assert!(install_command(&p).unwrap());
        assert!(!install_command(&p).unwrap());
        assert!(uninstall_command(&p).unwrap());
        assert!(!p.exists());
    }
}
