//! What only a person may do: trail's own approvals, grants and switches, however they are
//! spelt.

use super::Cmd;

/// A person's decisions: the agent never runs them, under any name.
pub(super) const PERSON_ACTS: &[&str] = &["approve", "dismiss", "allow", "trust"];

/// The rest of a person's acts on trail: switching it off or on, deciding a junction's fate,
/// changing the mode, and speaking as the host through the hook entry point (a forged
/// `UserPromptSubmit` piped into `trail hook claude-code` is a prompt the person never typed).
pub(super) const PERSON_ONLY: &[&str] = &["uninstall", "init", "skip", "mode", "hook"];

/// `trail sync`'s flags that only a person gives: naming the remote, trusting a machine.
pub(super) const SYNC_PERSON_FLAGS: &[&str] = &["--remote", "--trust-machine"];

/// The words a host is named by after `trail hook`.
pub(super) const HOST_WORDS: &[&str] = &["claude-code", "codex"];

/// Whether a command runs one of trail's [`PERSON_ONLY`] acts: trail itself under any path,
/// another name for it running its hook entry point (`./tt hook codex`), or code in an
/// argument that runs them (`python3 -c "os.system('trail uninstall')"`).
pub(super) fn person_act(c: &Cmd<'_>) -> bool {
    if c.name == "trail" && c.sub().is_some_and(|s| PERSON_ONLY.contains(&s)) {
        return true;
    }
    // Where the ledger is sent, and whose records are taken into it (`trail sync`).
    if c.name == "trail"
        && c.sub() == Some("sync")
        && c.args.iter().filter_map(|a| a.text.as_deref()).any(|t| {
            SYNC_PERSON_FLAGS
                .iter()
                .any(|f| t == *f || t.strip_prefix(f).is_some_and(|r| r.starts_with('=')))
        })
    {
        return true;
    }
    if TEXT_TOOLS.contains(&c.name) {
        return false;
    }
    let mut ops = c.operands().filter_map(|a| a.text.as_deref());
    if ops.next() == Some("hook") && ops.next().is_some_and(|w| HOST_WORDS.contains(&w)) {
        return true;
    }
    c.args
        .iter()
        .filter_map(|a| a.text.as_deref())
        .any(|t| runs_trail_act(t, PERSON_ONLY))
}

/// Programs whose arguments are text to show or search, not commands.
pub(super) const TEXT_TOOLS: &[&str] = &[
    "echo",
    "printf",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "cat",
    "less",
    "more",
    "head",
    "tail",
    "wc",
    "man",
    "git",
    "jq",
    "sed",
    "awk-print",
];

/// Whether a command would have trail approve, dismiss or trust on a person's behalf: trail
/// itself, a copy of it under another name (`./tt approve`), a copy being made, or code in an
/// argument (`python -c`, `tmux send-keys`, `expect -c`) that runs it.
pub(super) fn self_approval(c: &Cmd<'_>) -> bool {
    let act = |w: Option<&str>| w.is_some_and(|w| PERSON_ACTS.contains(&w));
    if c.name == "trail" && act(c.sub()) {
        return true;
    }
    if TEXT_TOOLS.contains(&c.name) {
        return false;
    }
    // Another name for the binary: its first operand gives it away.
    if matches!(c.sub(), Some("approve" | "dismiss")) {
        return true;
    }
    if matches!(
        c.name,
        "cp" | "ln" | "install" | "rsync" | "mv" | "dd" | "tee" | "ditto"
    ) && c.args.iter().any(|a| names_trail_binary(&a.raw))
    {
        return true;
    }
    c.args
        .iter()
        .filter_map(|a| a.text.as_deref())
        .any(runs_person_act)
}

/// `trail`, `/usr/local/bin/trail`, `$(which trail)`, `$(command -v trail)`.
pub(super) fn names_trail_binary(raw: &str) -> bool {
    let w = raw.trim_matches(|c| c == '"' || c == '\'');
    w == "trail"
        || w.ends_with("/trail")
        || [
            "which trail",
            "-v trail",
            "type -p trail",
            "whereis trail",
            "-P trail",
        ]
        .iter()
        .any(|p| w.contains(p))
}

/// `/edge approve|dismiss|skip …` at the start of a text (as a prompt would be read): the
/// person's act a slash command carries, which no tool call may carry for them.
pub fn is_edge_decision(text: &str) -> bool {
    let Some(rest) = text.trim_start().strip_prefix("/edge") else {
        return false;
    };
    let verb = rest.split_whitespace().next().unwrap_or("");
    rest.starts_with(char::is_whitespace) && matches!(verb, "approve" | "dismiss" | "skip")
}

/// Text that runs `trail approve|dismiss|trust`: the word `trail`, then (past quotes, commas,
/// spaces and brackets) one of those acts; or an `/edge approve|dismiss` handed to a program
/// (`claude -p "/edge approve"` starts a session whose first prompt decides).
pub(crate) fn runs_person_act(text: &str) -> bool {
    if text
        .match_indices("/edge")
        .any(|(i, _)| is_edge_decision(&text[i..]))
    {
        return true;
    }
    runs_trail_act(text, PERSON_ACTS)
}

/// Text that runs `trail <act>` for one of `acts`: the word `trail`, then (past quotes, commas,
/// spaces and brackets) the act as a word; `hook` only when a host's word follows it.
pub(super) fn runs_trail_act(text: &str, acts: &[&str]) -> bool {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.';
    let mut from = 0;
    while let Some(i) = text[from..].find("trail").map(|i| i + from) {
        from = i + 5;
        if (i > 0 && word(b[i - 1]) && b[i - 1] != b'/') || b.get(i + 5).is_some_and(|&c| word(c)) {
            continue;
        }
        let rest = text[i + 5..].trim_start_matches(|c: char| {
            c.is_whitespace() || matches!(c, '\'' | '"' | ',' | '[' | ']' | '(' | ')')
        });
        let named = |a: &&&str| {
            rest.starts_with(**a) && !rest.as_bytes().get(a.len()).is_some_and(|&c| word(c))
        };
        if let Some(a) = acts.iter().find(named) {
            let after = rest[a.len()..]
                .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | ','));
            if *a != "hook" || HOST_WORDS.iter().any(|h| after.starts_with(h)) {
                return true;
            }
        }
    }
    false
}
