//! PostToolUse / PostToolUseFailure: one proof-log line per tool call, from the host's own
//! report; and a pulse (LedgerPulse §8) after a failure, a state-changing tool (a file edit, a
//! git command that moves history or branches), a tool that ran longer than two minutes, or ten
//! minutes of work without one (`timer.rs`). Irreversible commands get theirs in PreToolUse,
//! where the person's approval lets them through.

use std::time::{Duration, SystemTime};

use serde_json::Value;
use trail_core::host::render::Response;
use trail_core::host::{Event, Tool, ToolInput};
use trail_core::ledger::record::RecordType;
use trail_core::proof;

use super::{Cx, report, timer};

/// A tool that runs longer than this is worth a pulse (§8: "~2 minutes").
const LONG: Duration = Duration::from_mins(2);

/// Git subcommands that change the repository's history or branches.
const GIT_STATE: &[&str] = &[
    "commit",
    "merge",
    "rebase",
    "tag",
    "cherry-pick",
    "revert",
    "am",
    "switch",
    "checkout",
];

pub(super) fn handle(cx: &Cx<'_>, event: &Event) -> Response {
    let corrected;
    let event = match codex_outcome(cx, event) {
        Some(e) => {
            corrected = e;
            &corrected
        }
        None => event,
    };
    let Event::ToolFinished {
        tool,
        input,
        ok,
        duration,
        error,
        ..
    } = event
    else {
        return Response::Silent;
    };
    let secrets = cx.secrets();
    let entry = match proof::entry_for(event, cx.envelope.session_id.as_deref(), secrets) {
        Ok(Some(entry)) => entry,
        Ok(None) => return Response::Silent,
        Err(e) => {
            report::error(&e);
            return Response::Silent;
        }
    };
    // Redacted before it is cut to fit a fact, so that no part of a secret is left to show;
    // the ledger redacts the pulse again, which changes nothing.
    let redacted_line = |text: &str| {
        one_line(
            &secrets.redact_anyway(text, &mut |e| report::error(&e)),
            160,
        )
    };
    let previous = match proof::append(cx.root(), &entry) {
        Ok(previous) => Some(previous),
        Err(e) => {
            report::failed("cannot append to the proof log", &e);
            None
        }
    };
    // The pulse carries the redacted preview, never the raw input; an edit is named by its files.
    let what = match input.files() {
        files if tool.edits_files() && !files.is_empty() => {
            format!("{} {}", entry.tool, redacted_line(&files.join(", ")))
        }
        _ => format!("{} {}", entry.tool, one_line(&entry.input_preview, 160)),
    };
    let mut facts = Vec::new();
    let mut tags = Vec::new();
    if !ok {
        let why = error
            .as_deref()
            .map(|e| format!(": {}", redacted_line(e)))
            .unwrap_or_default();
        facts.push(format!("failed: {what}{why}"));
        tags.push("failure");
    } else if let Some(kind) = consequential(tool, input) {
        facts.push(format!("{kind}: {what}"));
        tags.push(kind);
    }
    if duration.is_some_and(|d| d >= LONG) {
        facts.push(format!(
            "long-running ({} s): {what}",
            duration.map_or(0, |d| d.as_secs())
        ));
        tags.push("long");
    }
    let commit = if *ok { committed(cx, input) } else { None };
    if let Some(sha) = &commit {
        facts.insert(0, format!("committed {sha}: {what}"));
        tags.push("commit");
    }
    if !facts.is_empty() {
        let commit_tag = commit.as_ref().map(|c| format!("commit:{c}"));
        tags.extend(commit_tag.as_deref());
        let appended = cx.pulse_appended(RecordType::Checkpoint, &facts, &[], &tags);
        if let (Some(sha), Some(a)) = (commit, appended) {
            record_commit(cx, sha, &entry, &a);
        }
    } else if previous.is_some_and(|p| timer::ticked(p, SystemTime::now())) {
        timer::pulse_if_due(cx);
    }
    Response::Silent
}

/// The commit `HEAD` names after a shell command that committed (`git commit`, amend
/// included): read from git's files, no process.
fn committed(cx: &Cx<'_>, input: &ToolInput) -> Option<String> {
    let ToolInput::Bash {
        command: Some(command),
    } = input
    else {
        return None;
    };
    let commits = command.split(['&', ';', '|', '\n']).any(|part| {
        let words: Vec<&str> = part.split_whitespace().collect();
        words
            .iter()
            .position(|w| *w == "git" || w.ends_with("/git"))
            .is_some_and(|g| words[g + 1..].iter().take(6).any(|w| *w == "commit"))
    });
    if !commits {
        return None;
    }
    let dir = cx.envelope.cwd.as_deref().unwrap_or_else(|| cx.root());
    trail_core::project::head_commit(dir)
}

/// The commit's link for `trail blame` ([`trail_core::blame::link`]): the session, the tool
/// call, and where its pulse sits in the chain.
fn record_commit(
    cx: &Cx<'_>,
    commit: String,
    entry: &proof::Entry,
    a: &trail_core::ledger::append::Appended,
) {
    let link = trail_core::blame::link::Link {
        at: a.ts,
        commit,
        session: cx.envelope.session_id.clone(),
        tool_use_id: entry.tool_use_id.clone(),
        command: one_line(&entry.input_preview, 300),
        record: trail_core::blame::link::RecordRef {
            ts: a.ts.to_string(),
            digest: trail_core::ledger::frame::hex(&a.digest),
        },
    };
    if let Err(e) = trail_core::blame::link::append(cx.root(), &link) {
        report::failed("cannot record the commit for trail blame", &e);
    }
}

/// Whether a successful tool changed state, or showed that tests pass: a file edit, or a shell
/// command ([`changes`]). (An irreversible command only runs under a person's
/// approval or dismissal, and PreToolUse writes that pulse; the gate is not run again here,
/// which keeps the shell parser off this hook's path.)
fn consequential(tool: &Tool, input: &ToolInput) -> Option<&'static str> {
    if tool.edits_files() {
        return Some("state-changing");
    }
    let ToolInput::Bash {
        command: Some(command),
    } = input
    else {
        return None;
    };
    // Each command of a line (`cd x && npm ci`), by its words: no shell parser on this path.
    command
        .split(['&', ';', '|', '\n'])
        .find_map(|part| changes(&part.split_whitespace().collect::<Vec<_>>()))
}

/// What one command changed, by its program and subcommand (issue 21: passing tests and
/// state-changing commands other than git wrote no pulse, so the morning brief's thread was
/// often bare): `tests-passed`, or `state-changing` for history, dependencies, services,
/// migrations and files moved in numbers.
fn changes(words: &[&str]) -> Option<&'static str> {
    // Past a runner's own words (`npx`, `uv run`, `python -m`, `bundle exec`, `sudo`).
    let runners = [
        "sudo", "npx", "pnpx", "bunx", "exec", "run", "-m", "python", "python3", "uv", "poetry",
        "bundle", "env",
    ];
    let start = words
        .iter()
        .position(|w| !runners.contains(w) && !w.contains('='))
        .unwrap_or(words.len());
    let w = &words[start..];
    let (program, rest) = w.split_first()?;
    let program = program.rsplit('/').next().unwrap_or(program);
    let sub = rest
        .iter()
        .find(|a| !a.starts_with('-'))
        .copied()
        .unwrap_or("");
    let tests = [
        "pytest", "jest", "vitest", "rspec", "phpunit", "mocha", "ctest", "tox", "nox",
    ];
    if tests.contains(&program)
        || matches!(sub, "test" | "tests" | "nextest")
        || (program == "npm" && matches!(sub, "t" | "test"))
    {
        return Some("tests-passed");
    }
    if program == "git" && GIT_STATE.contains(&sub) {
        return Some("state-changing");
    }
    let packages = [
        "npm", "pnpm", "yarn", "bun", "pip", "pip3", "uv", "poetry", "cargo", "go", "gem",
        "composer", "apt", "apt-get", "brew", "dnf", "yum", "pacman", "mix", "dotnet",
    ];
    let dependency = matches!(
        sub,
        "install"
            | "i"
            | "ci"
            | "add"
            | "remove"
            | "rm"
            | "uninstall"
            | "update"
            | "upgrade"
            | "sync"
            | "get"
    );
    let containers = &["run", "rm", "up", "down", "compose", "build", "push"][..];
    let services = [
        ("docker", containers),
        ("podman", containers),
        ("docker-compose", &["up", "down", "rm", "build"][..]),
        (
            "kubectl",
            &[
                "apply", "delete", "rollout", "scale", "create", "replace", "patch",
            ][..],
        ),
        ("helm", &["install", "upgrade", "uninstall", "rollback"][..]),
        ("terraform", &["apply", "destroy", "import"][..]),
        (
            "systemctl",
            &["start", "stop", "restart", "enable", "disable"][..],
        ),
    ];
    // A migration names itself early (`alembic upgrade`, `rails db:migrate`, `sqlx migrate
    // run`, `manage.py migrate`); a reader searching for the word (`grep migrate`) is not one.
    let readers = [
        "grep", "rg", "cat", "ls", "find", "less", "head", "tail", "sed", "awk", "echo",
    ];
    let migration = !readers.contains(&program)
        && w.iter()
            .take(3)
            .any(|a| a.contains("migrate") || a.contains("migration") || *a == "alembic");
    let moves = program == "mv" && rest.iter().filter(|a| !a.starts_with('-')).count() >= 3;
    ((packages.contains(&program) && dependency)
        || services
            .iter()
            .any(|(p, subs)| program == *p && subs.contains(&sub))
        || migration
        || moves)
        .then_some("state-changing")
}

use trail_core::text::one_line;

/// Codex reports no exit code in PostToolUse (and has no PostToolUseFailure): take the outcome
/// from its rollout file, or from an `apply_patch` answer's `Exit code: N`.
fn codex_outcome(cx: &Cx<'_>, event: &Event) -> Option<Event> {
    use trail_core::host::{Host, codex};
    if cx.host != Host::Codex {
        return None;
    }
    let Event::ToolFinished {
        response,
        tool_use_id,
        ok: true,
        ..
    } = event
    else {
        return None;
    };
    let from_patch = response
        .as_ref()
        .and_then(Value::as_str)
        .and_then(codex::patch_exit)
        .map(|c| (c == 0, (c != 0).then(|| format!("exit code {c}"))));
    let (ok, why) = from_patch
        .or_else(|| codex::outcome(cx.envelope.transcript_path.as_ref()?, tool_use_id.as_ref()?))?;
    if ok {
        return None;
    }
    let mut e = event.clone();
    if let Event::ToolFinished { ok, error, .. } = &mut e {
        *ok = false;
        *error = why;
    }
    Some(e)
}

#[cfg(test)]
mod tests {
    use super::changes;

    #[test]
    fn commands_that_change_state_or_pass_tests_are_named() {
        let of = |c: &str| changes(&c.split_whitespace().collect::<Vec<_>>());
        for c in [
            "cargo test -p shop",
            "uv run pytest -q",
            "python -m pytest",
            "npm test",
            "go test ./...",
            "mix test",
        ] {
            assert_eq!(of(c), Some("tests-passed"), "{c}");
        }
        for c in [
            "npm install",
            "pnpm add zod",
            "pip install -r requirements.txt",
            "docker compose up -d",
            "kubectl apply -f k8s/",
            "python manage.py migrate",
            "npx prisma migrate deploy",
            "alembic upgrade head",
            "mv a.rs b.rs c.rs src/",
            "git commit -m x",
        ] {
            assert_eq!(of(c), Some("state-changing"), "{c}");
        }
        for c in [
            "ls -la",
            "grep -r migrate src",
            "npm run build",
            "cargo build",
            "mv a b",
            "git status",
            "cat docker-compose.yml",
        ] {
            assert_eq!(of(c), None, "{c}");
        }
    }
}
