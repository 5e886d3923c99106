//! `trail init` / `trail uninstall`: trail's hooks in the agent's settings, the `/edge` slash
//! command, and the instruction block in `CLAUDE.md` / `AGENTS.md`. Idempotent both ways: a
//! second run changes nothing; uninstall removes only what init added.

use std::path::{Path, PathBuf};

use serde::Serialize;
use trail_core::blame::trailer::Hook;
use trail_core::config::Config;
use trail_core::install::claude::{self, HostSpec};
use trail_core::install::{InstallError, codex, files, plugin, shared};

use crate::cli::InitArgs;
use crate::error::{CliError, CliResult};
use crate::output;

/// One file init or uninstall looked at.
#[derive(Serialize)]
struct FileChange {
    path: PathBuf,
    what: &'static str,
    changed: bool,
}

#[derive(Serialize)]
struct Report {
    agent: String,
    #[serde(skip)]
    global: bool,
    /// The team's mode: hooks in the committed settings, run through this machine's link.
    shared: bool,
    hooks: trail_core::install::Change,
    files: Vec<FileChange>,
    /// The `Trail-Session:` trailer's git hook, when asked about (or removed by uninstall).
    #[serde(skip_serializing_if = "Option::is_none")]
    trailer: Option<Hook>,
}

/// Where a host keeps its hook settings: (project root, home, global) → file.
type SettingsPath = fn(&Path, &Path, bool) -> PathBuf;

const GITIGNORE: &str = "# trail's locks, hashes and grants journal, and what the agent queued while \
                         confined: machine-local\nstate/\noutbox/\n# daily memory: the person's \
                         prompts and the session's commands, private\nmemory/\n";

/// What earlier versions of trail wrote as `.trail/.gitignore`: still trail's (upgraded by init,
/// removed by the last uninstall).
const GITIGNORE_BEFORE: &[&str] = &[
    "# trail's locks, hashes and grants journal, and what the agent \
                                     queued while confined: machine-local\nstate/\noutbox/\n",
];

/// `.proof/.gitignore`: the proof log holds every command the agent ran and what it printed.
const PROOF_GITIGNORE: &str =
    "# trail's proof log: every tool call and its output, private to this machine\n*\n";

pub fn run(args: &InitArgs, install: bool) -> CliResult {
    if let Some(dir) = &args.plugin {
        return plugin(dir, install, args.json);
    }
    let (host, settings) = host_of(&args.agent)?;
    if install && args.mcp && (host.word != "claude-code" || args.global) {
        return Err(CliError::usage(
            "--mcp registers the server in this project's .mcp.json, for Claude Code",
        )
        .with_hint(if host.word == "codex" {
            "for Codex: `codex mcp add trail -- trail mcp` (or [mcp_servers.trail] in ~/.codex/config.toml, see the README)"
        } else {
            "for every project of this user: `claude mcp add --scope user trail -- trail mcp`"
        }));
    }
    let config = Config::load()?;
    let root = config.project_root.value.clone();
    let strict = preflight(args, install, &root)?;
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .ok_or_else(|| CliError::usage("HOME is not set"))?;
    let local = settings(&root, &home, args.global);
    let claude_project = host.word == "claude-code" && !args.global;
    if args.shared && !claude_project {
        return Err(CliError::usage(
            "--shared is for Claude Code in a project: its hooks go in the committed \
             .claude/settings.json",
        )
        .with_hint(if host.word == "codex" {
            "for Codex, each teammate runs `trail init --agent codex` in their own clone"
        } else {
            "leave out --global"
        }));
    }
    // The team's mode: asked for, or already committed by a teammate (then this machine only
    // needs its link; hooks in the local file as well would run trail twice per event).
    let shared = claude_project && (args.shared || (install && shared_hooks_committed(&root)));
    // An older init wrote hooks and deny rules into the committed settings: taken out first,
    // whichever way (a settings file that cannot be read stops init before it writes anything).
    let moved = if claude_project {
        out_of_shared_settings(&config, &root)?
    } else {
        Vec::new()
    };
    let mut files = Vec::new();
    let (hooks, path) = place_hooks(
        host,
        &config,
        &local,
        shared,
        args.shared,
        install,
        &mut files,
    )?;
    files.extend(change_files(host, &root, &home, args.global, install)?);
    if host.word == "claude-code" {
        files.push(deny_rules(&config, &local, install)?);
        files.extend(moved);
        if install && !args.global {
            files.extend(ignored_locally(&root, &local));
        }
    } else if install && !args.global {
        // Codex reads a project's hooks only from `.codex/hooks.json`, which names this
        // machine's binary too: kept out of git in this clone.
        files.extend(ignored_locally(&root, &local));
    }
    // Uninstall takes trail's server out whether or not --mcp is given: it removes what any
    // init added.
    if (install && args.mcp) || (!install && host.word == "claude-code" && !args.global) {
        files.push(mcp_server(&root, install)?);
    }
    if install && !args.global {
        files.push(notes_file(&config, &root)?);
    }
    if let Some(plan) = strict {
        files.push(write_strict(&root, plan)?);
    }
    if !install && !args.global {
        files.extend(tidy(&root, host));
    }
    let trailer = if args.global {
        None
    } else {
        trailer_hook(&root, install && args.trailer, install && !args.no_trailer)?
    };
    let report = Report {
        global: args.global,
        shared,
        agent: host.word.to_string(),
        hooks,
        files,
        trailer,
    };
    if args.json {
        return output::json(&report);
    }
    let mut text = report.describe(&path, install);
    if !install && claude_project && !args.shared && shared_hooks_committed(&root) {
        text.push_str(
            "The team's hooks stay in the committed .claude/settings.json (they run trail on \
             every teammate's machine that has it linked); `trail uninstall --shared` takes them \
             out.\n",
        );
    }
    if install && !args.global {
        // Read again: --strict may just have changed it.
        text.push_str(&enforcement_line(&Config::load()?, &root));
    }
    output::text(&text)
}

/// trail's hooks put in (or taken out of) the file they belong to: this machine's settings, or
/// in the team's mode the committed ones, with this machine's link. Returns the change and the
/// file; what else changed goes to `files`.
fn place_hooks(
    host: &HostSpec,
    config: &Config,
    local: &Path,
    shared: bool,
    also_team: bool,
    install: bool,
    files: &mut Vec<FileChange>,
) -> CliResult<(trail_core::install::Change, PathBuf)> {
    let team = claude::shared_settings(&config.project_root.value);
    if install && shared {
        let stale = claude::uninstall_for(host, local)?;
        if stale.written {
            files.push(FileChange {
                path: local.to_path_buf(),
                what: "this machine's own hooks taken out (the team's hooks run trail here)",
                changed: true,
            });
        }
        let hooks = claude::install_for(host, &team, &shared::command(host.word))?;
        files.push(link(config)?);
        return Ok((hooks, team));
    }
    if install {
        let hooks = claude::install_for(host, local, &hook_command(host)?)?;
        return Ok((hooks, local.to_path_buf()));
    }
    if also_team {
        let removed = claude::uninstall_for(host, &team)?;
        files.push(FileChange {
            path: team,
            what: "the team's hooks (committed settings)",
            changed: removed.written,
        });
    }
    Ok((claude::uninstall_for(host, local)?, local.to_path_buf()))
}

/// What the person gets from grounding enforcement here, and how to switch (issue 21: the
/// default, warn, was nowhere said).
fn enforcement_line(config: &Config, root: &Path) -> String {
    match trail_core::grounding::enforcement_at(config, root) {
        Ok((trail_core::grounding::Enforcement::Strict, from)) => format!(
            "Grounding enforcement: strict (from {from}): a failing checkpoint, a compaction \
             before one passes and new edits at a red attention budget are held until it passes.\n"
        ),
        Ok((e, from)) => format!(
            "Grounding enforcement: {} (from {from}): the checkpoint, the compaction hold and the \
             red-zone hold warn and do not block. To make them block: `trail init --strict` \
             (this project), or grounding.enforcement = \"strict\" in \
             ~/.config/trail/config.toml (every project).\n",
            e.as_str()
        ),
        Err(e) => format!("Grounding enforcement cannot be read: {e}\n"),
    }
}

/// `grounding.enforcement = "strict"` for the project's `.trail/config.toml`: the file's new
/// text when it says nothing of it, `None` when it already says strict. A file that chose
/// another value, or whose `[grounding]` table would need editing inside, is the person's: an
/// error says what to change.
fn plan_strict(root: &Path, install: bool) -> CliResult<Option<String>> {
    let path = trail_core::config::project_config_path(root);
    if !install {
        return Err(CliError::usage(
            "--strict is for init: uninstall leaves the project's configuration as it is",
        )
        .with_hint(format!(
            "remove `enforcement = \"strict\"` from {} to go back to warn",
            path.display()
        )));
    }
    let current = match trail_core::fsutil::read_string_in(root, &path, 1 << 20) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            return Err(CliError::failed(format!(
                "cannot read {}: {e}",
                path.display()
            )));
        }
    };
    let parsed: toml::Table = current.parse().map_err(|e| {
        CliError::usage(format!("{} is not valid TOML: {e}", path.display()))
            .with_hint("fix it (`trail config` shows where), then run `trail init --strict` again")
    })?;
    let by_hand = |why: String| {
        CliError::usage(format!("{}: {why}; it was not changed", path.display())).with_hint(
            "set `enforcement = \"strict\"` under [grounding] there yourself, or leave out \
             --strict",
        )
    };
    match parsed.get("grounding") {
        None => {}
        Some(toml::Value::Table(g)) => match g.get("enforcement") {
            Some(toml::Value::String(v)) if v == "strict" => return Ok(None),
            Some(v) => {
                let said = v
                    .as_str()
                    .map_or_else(|| format!("{v:?}"), |s| format!("\"{s}\""));
                return Err(by_hand(format!("it sets grounding.enforcement = {said}")));
            }
            None => {
                return Err(by_hand(
                    "its [grounding] table would have to be edited inside".into(),
                ));
            }
        },
        Some(_) => return Err(by_hand("its `grounding` is not a table".into())),
    }
    let mut text = current;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(
        "# trail init --strict: a failing checkpoint, a compaction before one passes and new\n\
         # edits at a red attention budget are held until `trail checkpoint` passes.\n\
         [grounding]\nenforcement = \"strict\"\n",
    );
    Ok(Some(text))
}

/// Writes what [`plan_strict`] planned.
fn write_strict(root: &Path, plan: Option<String>) -> CliResult<FileChange> {
    let path = trail_core::config::project_config_path(root);
    if let Some(text) = &plan {
        trail_core::fsutil::ensure_dir(trail_core::fsutil::parent_dir(&path))
            .and_then(|()| trail_core::fsutil::atomic_write_in(root, &path, text.as_bytes()))
            .map_err(|e| CliError::failed(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(FileChange {
        path,
        what: "strict grounding enforcement for this project (commit it)",
        changed: plan.is_some(),
    })
}

/// Claude Code's permission deny rules over the key, the secret store and the personal ledger
/// (a second layer under the gate, kept by the host for its own file tools).
fn deny_rules(config: &Config, path: &Path, install: bool) -> CliResult<FileChange> {
    let rules = claude::deny_rules(&config.secrets_dir.value, &config.home.value);
    let changed = if install {
        claude::install_denies(path, &rules)?
    } else {
        claude::uninstall_denies(path, &rules)?
    };
    Ok(FileChange {
        path: path.to_path_buf(),
        what: "permission deny rules for trail's key and records",
        changed,
    })
}

/// What uninstall leaves empty behind it: a settings file that now says nothing (`{}`), and
/// the folders init made that now hold nothing.
fn tidy(root: &Path, host: &HostSpec) -> Vec<FileChange> {
    let mut out = Vec::new();
    let (local, dirs) = if host.word == "codex" {
        (
            codex::hooks_path(root, Path::new(""), false),
            vec![root.join(".codex")],
        )
    } else {
        (
            claude::local_settings(root),
            vec![root.join(".claude/commands"), root.join(".claude")],
        )
    };
    let empty = std::fs::read_to_string(&local)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|v| v.as_object().is_some_and(serde_json::Map::is_empty));
    if empty && std::fs::remove_file(&local).is_ok() {
        out.push(FileChange {
            path: local,
            what: "the machine-local settings, empty now",
            changed: true,
        });
    }
    for dir in dirs {
        // `remove_dir` removes only an empty directory.
        if std::fs::remove_dir(&dir).is_ok() {
            out.push(FileChange {
                path: dir,
                what: "an empty folder init made",
                changed: true,
            });
        }
    }
    out
}

/// What [`out_of_shared_settings`] reports. Its change is a removal whether trail is being
/// installed or removed, so its line says "moved out", never "installed" (found by the
/// snapshot of `trail init`'s report in an older init's project).
const OUT_OF_SHARED: &str =
    "trail's machine-local entries (an older init put them in the committed settings)";

/// trail's hooks and deny rules taken out of the project's committed `.claude/settings.json`,
/// where an older `trail init` wrote them with this machine's paths in them.
fn out_of_shared_settings(config: &Config, root: &Path) -> CliResult<Vec<FileChange>> {
    let shared = claude::shared_settings(root);
    if !shared.exists() {
        return Ok(Vec::new());
    }
    let hooks = claude::uninstall_machine_local(&claude::CLAUDE, &shared)?;
    let rules = claude::deny_rules(&config.secrets_dir.value, &config.home.value);
    let denies = claude::uninstall_denies(&shared, &rules)?;
    Ok(vec![FileChange {
        path: shared,
        what: OUT_OF_SHARED,
        changed: hooks.written || denies,
    }])
}

/// Whether the project's committed settings already run trail for the team.
fn shared_hooks_committed(root: &Path) -> bool {
    std::fs::read_to_string(claude::shared_settings(root))
        .is_ok_and(|t| shared::committed_in(&t, claude::CLAUDE.word))
}

/// This machine's link to trail, which the team's committed hooks run.
fn link(config: &Config) -> CliResult<FileChange> {
    let dir = config.user_dir.clone().ok_or_else(|| {
        CliError::usage("no config folder for trail: neither XDG_CONFIG_HOME nor HOME is set")
    })?;
    let changed = shared::link(&dir, &this_binary()?)?;
    Ok(FileChange {
        path: shared::link_path(&dir),
        what: "this machine's link to trail, which the team's hooks run",
        changed,
    })
}

/// `.claude/settings.local.json` kept out of git on this machine (`.git/info/exclude`) when the
/// project's ignore files do not already: it names this machine's paths.
fn ignored_locally(root: &Path, local: &Path) -> Option<FileChange> {
    let rel = local.strip_prefix(root).ok()?.to_str()?.to_string();
    let ignored = trail_core::git::command(root)
        .args(["check-ignore", "-q", "--", &rel])
        .status()
        .ok()?;
    // 0: ignored; 1: not ignored; anything else: no repository (nothing to keep it out of).
    if ignored.code() != Some(1) {
        return None;
    }
    let out = trail_core::git::command(root)
        .args(["rev-parse", "--git-path", "info/exclude"])
        .output()
        .ok()?;
    let exclude = root.join(String::from_utf8(out.stdout).ok()?.trim());
    let mut text = std::fs::read_to_string(&exclude).unwrap_or_default();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&format!("# trail: machine-local agent settings\n/{rel}\n"));
    let written = std::fs::create_dir_all(exclude.parent()?)
        .and_then(|()| std::fs::write(&exclude, text))
        .is_ok();
    Some(FileChange {
        path: exclude,
        what: "git-ignore (this clone only) for the machine-local settings",
        changed: written,
    })
}

/// NOTES.md with its Session Continuity section (FR-10): made from the template, or the section
/// added to a NOTES.md that lacks it (nothing else in the file changes). Uninstall leaves it:
/// it holds the project's decisions.
fn notes_file(config: &Config, root: &Path) -> CliResult<FileChange> {
    let loc = super::notes::location(config, root)?;
    let done = trail_core::notes::update(root, &loc, trail_core::notes::continuity::ensure)
        .map_err(|e| CliError::failed(e.to_string()))?;
    Ok(FileChange {
        path: loc.path,
        what: "NOTES.md session continuity",
        changed: done.written,
    })
}

/// The host `--agent` names, and where it keeps its hook settings.
fn host_of(agent: &str) -> Result<(&'static HostSpec, SettingsPath), CliError> {
    match agent {
        "claude-code" | "claude" => Ok((&claude::CLAUDE, claude::settings_path)),
        "codex" => Ok((&codex::CODEX, codex::hooks_path)),
        other => Err(CliError::usage(format!(
            "--agent {other}: trail knows claude-code and codex"
        ))),
    }
}

/// What `trail init --plugin` reports.
#[derive(Serialize)]
struct PluginReport {
    plugin: PathBuf,
    files: Vec<plugin::FileChange>,
    /// The commands that install it into each host (after `trail init --plugin`).
    #[serde(skip_serializing_if = "Option::is_none")]
    install: Option<PluginInstall>,
}

#[derive(Serialize)]
struct PluginInstall {
    claude_code: String,
    codex: Vec<String>,
}

/// `trail init --plugin DIR` / `trail uninstall --plugin DIR`: the plugin's files, and no
/// settings of any host (the host's own `plugin install` enables it).
fn plugin(dir: &Path, install: bool, json: bool) -> CliResult {
    // Relative to where the person is: the hosts keep the marketplace's absolute path.
    let dir =
        std::path::absolute(dir).map_err(|e| CliError::usage(format!("{}: {e}", dir.display())))?;
    let files = if install {
        plugin::install(&dir, &this_binary()?)?
    } else {
        plugin::uninstall(&dir)?
    };
    let shown = shell_word(&dir.display().to_string());
    let report = PluginReport {
        install: install.then(|| PluginInstall {
            claude_code: format!(
                "claude plugin install {} --marketplace {shown}",
                plugin::NAME
            ),
            codex: vec![
                format!("codex plugin marketplace add {shown}"),
                format!("codex plugin add {}@{}", plugin::NAME, plugin::MARKETPLACE),
            ],
        }),
        plugin: dir,
        files,
    };
    if json {
        return output::json(&report);
    }
    let verb = if install { "written" } else { "removed" };
    let mut text = String::new();
    for f in &report.files {
        text.push_str(&format!(
            "{}: {} {}\n",
            f.what,
            if f.changed { verb } else { "unchanged" },
            f.path.display()
        ));
    }
    match &report.install {
        Some(i) => text.push_str(&format!(
            "Install it in Claude Code:  {}\nIn Codex:                   {}\n                            {}\n\
             Use the plugin or `trail init` in a project, not both: the hooks would run twice.\n",
            i.claude_code, i.codex[0], i.codex[1]
        )),
        None if report.files.is_empty() => text.push_str(&format!(
            "nothing to remove: {} holds no trail plugin\n",
            report.plugin.display()
        )),
        None => text.push_str(&format!(
            "Remove it from the hosts too: `claude plugin uninstall {n}@{m}`, `codex plugin remove {n}@{m}`.\n",
            n = plugin::NAME,
            m = plugin::MARKETPLACE
        )),
    }
    output::text(&text)
}

/// A path as one shell word, quoted only when it needs to be.
fn shell_word(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+~".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// This binary, by its canonical path: what hooks and the MCP server run.
fn this_binary() -> std::io::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    Ok(exe.canonicalize().unwrap_or(exe))
}

/// trail's MCP server in the project's `.mcp.json`, run as this binary's `mcp` command.
fn mcp_server(root: &Path, install: bool) -> Result<FileChange, CliError> {
    use trail_core::install::mcp;
    let path = mcp::claude_path(root);
    let changed = if install {
        mcp::install(&path, &this_binary()?.display().to_string())?
    } else {
        mcp::uninstall(&path)?
    };
    Ok(FileChange {
        path,
        what: "the MCP server",
        changed,
    })
}

/// What the host runs for each hook: this binary by its canonical path (quoted when the path
/// holds whitespace, as the host hands the command to a shell), then `hook <host>`.
fn hook_command(host: &HostSpec) -> std::io::Result<String> {
    let exe = this_binary()?.display().to_string();
    let program = if exe.contains(char::is_whitespace) {
        format!("\"{exe}\"")
    } else {
        exe
    };
    Ok(format!("{program} hook {}", host.word))
}

/// The files besides the hook settings: the `/edge` slash command (Claude Code only), and, in a
/// project, the instruction block and the git-ignore for `.trail/state`.
fn change_files(
    host: &HostSpec,
    root: &Path,
    home: &Path,
    global: bool,
    install: bool,
) -> Result<Vec<FileChange>, InstallError> {
    let mut changed = Vec::new();
    let claude_host = host.word == "claude-code";
    if claude_host {
        let base = if global { home } else { root }.join(".claude");
        let path = base.join("commands").join("edge.md");
        changed.push(FileChange {
            changed: if install {
                files::install_command(&path)?
            } else {
                files::uninstall_command(&path)?
            },
            path,
            what: "the /edge slash command",
        });
    }
    if global {
        return Ok(changed);
    }
    let path = root.join(if claude_host {
        "CLAUDE.md"
    } else {
        "AGENTS.md"
    });
    changed.push(FileChange {
        changed: if install {
            files::install_block(&path)?
        } else {
            files::uninstall_block(&path)?
        },
        path,
        what: "the instruction block",
    });
    // Shared by every agent's install: it goes only with the last one (issue 22: uninstalling
    // Codex removed what the Claude Code install still needed).
    let others = !install && other_agent_installed(host, root);
    let layout = trail_core::layout::Layout::new(root);
    for (path, text, before, what) in [
        (
            layout.gitignore(),
            GITIGNORE,
            GITIGNORE_BEFORE,
            "git-ignore for .trail/state, .trail/outbox and daily memory",
        ),
        (
            layout.proof_dir().join(".gitignore"),
            PROOF_GITIGNORE,
            &[][..],
            "git-ignore for the proof log (.proof/)",
        ),
        (
            layout.trail_dir().join(".gitattributes"),
            TRAIL_GITATTRIBUTES,
            &[][..],
            "the trajectory's merge (both clones' lines kept)",
        ),
    ] {
        let written = !others && ignore_file(root, &path, text, before, install)?;
        changed.push(FileChange {
            changed: written,
            path,
            what,
        });
    }
    if !others {
        changed.extend(notes_merge(root, install)?);
    }
    Ok(changed)
}

/// `.trail/.gitattributes`: the trajectory is append-only, one JSON object per line, each
/// unique, so git's own union driver merges two clones' files losslessly.
const TRAIL_GITATTRIBUTES: &str = "# trail: the trajectory is append-only; two clones' lines are all kept when they merge\ntrajectory/*.jsonl merge=union\n";

/// The line trail keeps in the project's `.gitattributes`, after its comment.
const NOTES_ATTR_COMMENT: &str =
    "# trail: two clones' NOTES.md decisions merge without conflicts (`trail merge-notes`)";

/// NOTES.md merged by `trail merge-notes` when two clones meet: the line naming the driver in
/// the project's `.gitattributes` (committed: it is the team's), and the driver itself in this
/// clone's `.git/config` (each teammate's `trail init` sets it; without it git merges as usual).
fn notes_merge(root: &Path, install: bool) -> Result<Vec<FileChange>, InstallError> {
    let path = root.join(".gitattributes");
    if !root.join(".git").exists() {
        return Ok(Vec::new());
    }
    let notes = trail_core::notes::recorded(root).unwrap_or_else(|| "NOTES.md".into());
    let line = format!("/{} merge=trail-notes", notes.trim_start_matches('/'));
    let io = |action: &'static str| {
        let path = path.clone();
        move |source| InstallError::Io {
            action,
            path,
            source,
        }
    };
    let current = match trail_core::fsutil::read_string_in(root, &path, 1 << 20) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io("read")(e.source)),
    };
    let has = current.lines().any(|l| l == line);
    let text = if install && !has {
        let mut t = current.clone();
        if !t.is_empty() && !t.ends_with('\n') {
            t.push('\n');
        }
        t.push_str(&format!("{NOTES_ATTR_COMMENT}\n{line}\n"));
        Some(t)
    } else if !install && has {
        let kept: Vec<&str> = current
            .lines()
            .filter(|l| *l != line && *l != NOTES_ATTR_COMMENT)
            .collect();
        Some(if kept.is_empty() {
            String::new()
        } else {
            format!("{}\n", kept.join("\n"))
        })
    } else {
        None
    };
    if let Some(t) = &text {
        if t.is_empty() {
            std::fs::remove_file(&path).map_err(io("remove"))?;
        } else {
            trail_core::fsutil::atomic_write_in(root, &path, t.as_bytes())
                .map_err(|e| e.source)
                .map_err(io("write"))?;
        }
    }
    let configured = clone_driver(root, install);
    // `trail blame`'s notes follow a commit the person amends or rebases (git copies them to
    // the new commit when `notes.rewriteRef` names their ref).
    let notes_ref = trail_core::blame::note::NOTES_REF;
    let pattern = format!("^{notes_ref}$");
    let rewrite: Vec<&str> = if install {
        vec![
            "config",
            "--local",
            "--replace-all",
            "notes.rewriteRef",
            notes_ref,
            &pattern,
        ]
    } else {
        vec![
            "config",
            "--local",
            "--unset-all",
            "notes.rewriteRef",
            &pattern,
        ]
    };
    let _ = trail_core::git::command(root).args(&rewrite).output();
    Ok(vec![
        FileChange {
            changed: text.is_some(),
            path,
            what: "NOTES.md's merge driver, for the team (.gitattributes)",
        },
        FileChange {
            changed: configured,
            path: root.join(".git").join("config"),
            what: "NOTES.md's merge driver, for this clone",
        },
    ])
}

/// This clone's NOTES.md merge driver set (or removed), and whether that changed anything.
/// Best effort: a clone without it merges NOTES.md as git always did.
fn clone_driver(root: &Path, install: bool) -> bool {
    let exe = std::env::current_exe().map_or_else(|_| "trail".into(), |p| p.display().to_string());
    let driver = format!("'{}' merge-notes %O %A %B", exe.replace('\'', "'\\''"));
    let args: Vec<&str> = if install {
        vec!["config", "--local", "merge.trail-notes.driver", &driver]
    } else {
        vec!["config", "--local", "--remove-section", "merge.trail-notes"]
    };
    // Already this driver: nothing is written, and init says so (a second init said
    // "installed" again, found by the snapshot of its report). Asked only when installing.
    let current = || {
        trail_core::git::command(root)
            .args(["config", "--local", "--get", "merge.trail-notes.driver"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim_end().to_string())
    };
    if install && current().as_deref() == Some(driver.as_str()) {
        return false;
    }
    trail_core::git::command(root)
        .args(&args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What is checked before anything is written, so that a refusal leaves every file as it was:
/// `--strict`'s plan, and that `--trailer` has a repository to put its hook in.
fn preflight(args: &InitArgs, install: bool, root: &Path) -> CliResult<Option<Option<String>>> {
    if install && args.trailer && !trail_core::git::is_repository(root) {
        return Err(CliError::usage(format!(
            "--trailer adds a git hook, and {} is not in a git repository",
            root.display()
        ))
        .with_hint("run `git init` first, or leave out --trailer"));
    }
    args.strict.then(|| plan_strict(root, install)).transpose()
}

/// The trailer's git hook put in (`on`), or taken out unless `keep` (`--no-trailer`, uninstall);
/// `None` when nothing was asked and nothing changed.
fn trailer_hook(root: &Path, on: bool, keep: bool) -> CliResult<Option<Hook>> {
    if !on && keep {
        return Ok(None);
    }
    match trail_core::blame::trailer::set(root, on) {
        Ok(h) => Ok(Some(h)),
        Err(e) if on => Err(CliError::failed(e.to_string())),
        // Taking it out of a directory that is not a repository: there is nothing to take.
        Err(_) => Ok(None),
    }
}

/// Whether another agent host still runs trail's hooks in this project.
fn other_agent_installed(host: &HostSpec, root: &Path) -> bool {
    let runs = |path: PathBuf, spec: &HostSpec| {
        std::fs::read_to_string(path).is_ok_and(|t| claude::enforced_in(&t, spec) > 0)
    };
    match host.word {
        "codex" => {
            runs(claude::local_settings(root), &claude::CLAUDE)
                || runs(claude::shared_settings(root), &claude::CLAUDE)
        }
        _ => runs(codex::hooks_path(root, Path::new(""), false), &codex::CODEX),
    }
}

/// One line for what became of the trailer's hook.
fn describe_trailer(hook: &Hook, agent: &str) -> String {
    match hook {
        Hook::On { path, changed } => format!(
            "the Trail-Session trailer: {} git hook {} (the agent's commits from its shell get \
             `Trail-Session: <session>`{}; off: trail init --no-trailer)\n",
            if *changed { "installed" } else { "unchanged" },
            path.display(),
            if agent == "codex" {
                "; Claude Code hands the session to the shell, Codex does not, so Codex's \
                 commits get none"
            } else {
                ""
            }
        ),
        Hook::Off {
            path,
            changed: true,
        } => format!(
            "the Trail-Session trailer: removed git hook {}\n",
            path.display()
        ),
        Hook::Off {
            path,
            changed: false,
        } => format!(
            "the Trail-Session trailer: no git hook of trail's at {}\n",
            path.display()
        ),
        Hook::Taken { path, add_line } => format!(
            "the Trail-Session trailer: not installed: {} is another program's hook, left alone. \
             To add the trailer, put this line in it:\n  {add_line}\n",
            path.display()
        ),
    }
}

impl Report {
    /// One line for the hooks in `settings`, one per other file, and for Codex what the person
    /// still has to do before it runs them.
    fn describe(&self, settings: &Path, install: bool) -> String {
        let verb = if install { "installed" } else { "removed" };
        let mut text = if self.hooks.events.is_empty() {
            format!(
                "hooks: nothing to change in {} (trail's hooks were already {})\n",
                settings.display(),
                if install { "there" } else { "absent" }
            )
        } else {
            format!(
                "hooks: {verb} trail's hooks for {} in {}\n",
                self.hooks.events.join(", "),
                settings.display()
            )
        };
        for f in &self.files {
            text.push_str(&format!(
                "{}: {} {}\n",
                f.what,
                match (f.changed, f.what == OUT_OF_SHARED) {
                    (false, _) => "unchanged",
                    (true, true) => "moved out of",
                    (true, false) => verb,
                },
                f.path.display()
            ));
        }
        if let Some(t) = &self.trailer {
            text.push_str(&describe_trailer(t, &self.agent));
        }
        if install && self.shared {
            text.push_str(
                "Team mode: commit .claude/settings.json (trail's hooks for everyone, by a command \
                 that names no machine's path) with CLAUDE.md, .claude/commands/edge.md, \
                 .trail/.gitignore, .trail/.gitattributes, .gitattributes, .trail/notes-location and \
                 NOTES.md. Each teammate installs \
                 trail and runs `trail init` here once (it links their trail); until then their \
                 sessions say so at start and nothing is blocked. Never commit \
                 .claude/settings.local.json, .trail/state/ or .trail/outbox/.\n",
            );
        } else if install && self.agent == "claude-code" && !self.global {
            text.push_str(
                "Commit with the project: CLAUDE.md, .claude/commands/edge.md, .trail/.gitignore, \
                 .trail/.gitattributes, .gitattributes, .trail/notes-location and NOTES.md. Never commit .claude/settings.local.json \
                 (it runs this machine's trail by its path; each teammate runs `trail init`), \
                 .trail/state/ or .trail/outbox/.\n",
            );
        }
        if !install && !self.global {
            text.push_str(
                "Left on purpose, as yours: NOTES.md (the decisions), .trail/ (trajectory, memory, \
                 notes-location) and .proof/ (the proof log) in the project, and the ledger in \
                 TRAIL_HOME. Keep what you need, then `rm -rf .trail .proof` (and NOTES.md) \
                 removes them too.\n",
            );
        }
        if install && self.agent == "codex" {
            text.push_str("Codex runs these hooks only in a trusted project with reviewed hooks: open `codex` here once and trust the project and its hooks (or set [projects.\"<dir>\"] trust_level = \"trusted\" in ~/.codex/config.toml and review them with /hooks).\n");
        }
        text
    }
}

/// One of trail's ignore files: written when missing (or still an older trail's), removed
/// when it is exactly trail's. A file a person changed is left as it is.
fn ignore_file(
    root: &Path,
    p: &Path,
    text: &str,
    before: &[&str],
    install: bool,
) -> Result<bool, InstallError> {
    let io = |action: &'static str| {
        move |source| InstallError::Io {
            action,
            path: p.into(),
            source,
        }
    };
    // A symlinked `.trail` is refused here, at install, with what to do about it.
    let current = match trail_core::fsutil::read_string_in(root, p, 4096) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io("read")(e.source)),
    };
    let ours = |t: &str| t == text || before.contains(&t);
    if install {
        match current.as_deref() {
            Some(t) if t == text || !ours(t) => return Ok(false),
            _ => {}
        }
        trail_core::fsutil::atomic_write_in(root, p, text.as_bytes())
            .map_err(|e| e.source)
            .map_err(io("write"))?;
        Ok(true)
    } else if current.as_deref().is_some_and(ours) {
        std::fs::remove_file(p).map_err(io("remove"))?;
        Ok(true)
    } else {
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(agent: &str, events: &[&str], changed: bool) -> Report {
        Report {
            global: false,
            shared: false,
            agent: agent.into(),
            hooks: trail_core::install::Change {
                path: "/p/hooks.json".into(),
                events: events.iter().map(ToString::to_string).collect(),
                written: !events.is_empty(),
            },
            files: vec![FileChange {
                path: "/p/AGENTS.md".into(),
                what: "the instruction block",
                changed,
            }],
            trailer: None,
        }
    }

    #[test]
    fn the_report_names_each_file_and_tells_codex_users_to_trust_the_project() {
        let text = report("codex", &["SessionStart", "Stop"], true)
            .describe(Path::new("/p/hooks.json"), true);
        assert!(text.starts_with(
            "hooks: installed trail's hooks for SessionStart, Stop in /p/hooks.json\n\
             the instruction block: installed /p/AGENTS.md\n\
             Codex runs these hooks only in a trusted project"
        ));
        let text = report("claude-code", &[], false).describe(Path::new("/p/hooks.json"), false);
        assert!(
            text.starts_with(
                "hooks: nothing to change in /p/hooks.json (trail's hooks were already absent)\n\
                 the instruction block: unchanged /p/AGENTS.md\n\
                 Left on purpose, as yours: NOTES.md"
            ),
            "{text}"
        );
    }
}
