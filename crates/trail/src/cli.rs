//! Arguments, defined once. Tests and outside checks call exactly these flags.

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "trail",
    version,
    about = "Lossless, crash-safe session continuity and guardrails for AI coding agents",
    long_about = "trail keeps an append-only, sealed ledger of agent sessions (the pulse stream) \
                  and rebuilds the working state from it after /clear, compaction, a crash or a \
                  new machine. Installed into Claude Code or Codex (`trail init`), it gates every \
                  tool call: catastrophic commands never run, risky ones wait for a person's \
                  `/edge approve` or `trail approve`.\n\nStart with `trail demo`.",
    after_help = crate::cmd::config::env_help()
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Write one record to the pulse stream and print its timestamp.
    Pulse(Box<PulseArgs>),
    /// Rebuild the working state from the newest records.
    Resume(ResumeArgs),
    /// List records, newest first.
    Log(LogArgs),
    /// What the agents did: a summary here, or a self-contained HTML timeline with --html FILE.
    Report(ReportArgs),
    /// Which session, prompt, tool call and approval produced a line or a commit.
    Blame(BlameArgs),
    /// Check every record, seal and the hash chain; exit 1 on any damage.
    Verify(VerifyArgs),
    /// Archive the stream and start a new one (when past the size threshold, or with --force).
    Rotate(RotateArgs),
    /// Send this machine's ledger to a git remote you own and take your other machines' back
    /// (`trail sync --remote URL` once, then `trail sync`; README "Using trail on several
    /// machines").
    Sync(SyncArgs),
    /// The merge driver `trail init` sets up for NOTES.md: git runs it with the common
    /// ancestor, our version (where the result goes) and theirs.
    #[command(hide = true)]
    MergeNotes {
        base: std::path::PathBuf,
        ours: std::path::PathBuf,
        theirs: std::path::PathBuf,
    },
    /// Replace secrets in stdin by ${secret:NAME} references and print the result.
    Redact,
    /// Show the merged configuration and where each value came from.
    Config(ConfigArgs),
    /// Trust this project's .trail/config.toml as it is now, so its settings that run commands
    /// or move secrets count. A person's command: it shows what you trust first.
    Trust(TrustArgs),
    /// Run a realistic session on a throwaway ledger and show each step.
    Demo(DemoArgs),
    /// Show the gate's verdict on a shell command (block, junction or allow), touching no state.
    Gate(GateArgs),
    /// Daily memory (`.trail/memory/`): `trail memory flush --transcript PATH`.
    #[command(subcommand)]
    Memory(MemoryCommand),
    /// Print completions for a shell: `trail completions bash >
    /// ~/.local/share/bash-completion/completions/trail` (zsh: a file `_trail` in a directory of
    /// `$fpath`; fish: `~/.config/fish/completions/trail.fish`).
    Completions { shell: clap_complete::Shell },
    /// Print the man page (roff): `trail man > ~/.local/share/man/man1/trail.1`, then `man
    /// trail`.
    Man,
    /// Which NOTES.md trail keeps and what chose it; `trail notes move PATH` moves it (a
    /// person's command, confirmed at the terminal).
    #[command(subcommand)]
    Notes(NotesCommand),
    /// Add a note to today's daily memory (redacted); prints its source reference.
    Remember {
        /// The note.
        note: String,
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
    /// Search the stream, the proof log, the trajectory, NOTES.md and memory (--code: the project
    /// tree too); ranked hits with an id to retrieve each by.
    Search(SearchArgs),
    /// Write the search cache's missing parts. A search that finds some missing starts this
    /// detached, handing it the builder's lock; run by hand, it builds now, unless a builder is
    /// running.
    #[command(name = "build-search-cache", hide = true)]
    BuildSearchCache {
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
    /// Backfill the stream, proof logs and daily memory from the Claude Code transcripts or
    /// Codex rollouts already on this machine; run it again and nothing is added twice.
    Import(ImportArgs),
    /// Search core and daily memory; every hit with its source.
    Recall {
        query: String,
        #[arg(long, default_value_t = 10, value_name = "N")]
        limit: usize,
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
    /// Read a Claude Code transcript or Codex rollout: messages, tool calls, context size, summary.
    Transcript(TranscriptArgs),
    /// Consolidate the latest daily memory into MEMORY.md; every bullet checked against its source.
    Dream(DreamArgs),
    /// Show the Operator's Edge state: mode, objective, plan, pending junction, grants, observations.
    Status {
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
    /// Change mode: plan, active (with an OBJECTIVE), review or done (done runs the quality gate).
    Mode {
        /// plan, active, review or done
        mode: String,
        /// The objective (active mode needs one).
        objective: Option<String>,
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
    /// Approve the pending junction: its exact action may run once. A person's command: the
    /// gate refuses it from the agent.
    Approve {
        /// The junction's id, to be sure you approve what you looked at (`trail status`).
        id: Option<String>,
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
    /// Dismiss the pending junction: actions of its kind run without asking for MINUTES (60).
    Dismiss {
        #[arg(default_value_t = 60)]
        minutes: u64,
        /// The junction's id.
        #[arg(long)]
        id: Option<String>,
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
    /// Drop the pending junction without allowing anything.
    Skip {
        /// The junction's id.
        id: Option<String>,
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
    /// Install trail's hooks into the agent's settings (merging; run it twice, nothing changes).
    Init(InitArgs),
    /// Remove what `trail init` added, and nothing else.
    Uninstall(InitArgs),
    /// Check everything that silently disables or weakens trail (hooks, settings, the stream,
    /// permissions, config, versions, the build); each problem with its fix. Exit 1 with problems.
    Doctor(DoctorArgs),
    /// Citations (`[${PROJECT_ROOT}/path:LINE]`) checked against the project's files.
    #[command(subcommand)]
    Cite(CiteCommand),
    /// The grounding ratio: decisions with a verified citation over all decisions.
    Ground(GroundArgs),
    /// The trajectory journal (`.trail/trajectory/`), oldest entry first.
    Trajectory(TrajectoryArgs),
    /// The attention budget's zone: how full the context is and how many tokens were added
    /// since the last checkpoint (green, yellow, orange, red).
    Budget(BudgetArgs),
    /// Negative grounding: is each ghost feature (documented, said to be missing) really absent
    /// from the code? Two different queries each; verdicts for a person to read.
    Ghosts(GhostsArgs),
    /// Bring back missing or whitespace-only NOTES.md, active_context.yaml, .trail/MEMORY.md,
    /// trajectory files and .beads/ files: from git, then the journals, then a template.
    Heal(HealArgs),
    /// Serve trail over MCP on stdin/stdout for any MCP client (runs `trail-mcp`, installed
    /// next to trail): search, timeline, get, resume, decide, checkpoint, show, remember, recall,
    /// status; resources and prompts. `trail init --mcp` registers it with Claude Code.
    Mcp,
    /// Record a decision (title, decision, rationale, cited evidence, test scenarios) in the
    /// journals and NOTES.md's Decision Log; each citation is checked as it is recorded.
    Decide(DecideArgs),
    /// The synthesis checkpoint before /clear: grounding, negative grounding, decision log,
    /// plan and bead, trajectory handoff, raw output decayed to identifiers, test scenarios.
    Checkpoint(CheckpointArgs),
    /// Print the lines an identifier names (`${PROJECT_ROOT}/path:45-67`), redacted: retrieve
    /// evidence when needed instead of keeping it in context.
    Show(ShowArgs),
    /// Handle one hook payload from an agent on stdin: `trail hook claude-code` or `trail hook codex`.
    #[command(hide = true)]
    Hook {
        /// claude-code or codex
        host: String,
    },
}

#[derive(Args, Debug)]
pub struct PulseArgs {
    /// Record type: pulse, checkpoint, tangent, compaction or handoff.
    #[arg(long = "type", value_name = "T", default_value = "pulse")]
    pub kind: String,
    /// A project in focus (repeat for several); pair with --topic.
    #[arg(long = "proj", value_name = "P")]
    pub proj: Vec<String>,
    /// The topic of the --proj just before it.
    #[arg(long = "topic", value_name = "T")]
    pub topic: Vec<String>,
    /// Primary intent (e.g. continue, switch, pause, done).
    #[arg(long, value_name = "PRIMARY")]
    pub intent: Option<String>,
    /// One-line summary of the intent.
    #[arg(long, value_name = "S")]
    pub summary: Option<String>,
    /// A next step (repeatable).
    #[arg(long, value_name = "X")]
    pub next: Vec<String>,
    /// A deferred item (repeatable; tangents use it instead of --next).
    #[arg(long, value_name = "X")]
    pub defer: Vec<String>,
    /// A fact established (repeatable).
    #[arg(long, value_name = "F")]
    pub fact: Vec<String>,
    /// A file touched (repeatable).
    #[arg(long, value_name = "PATH")]
    pub file: Vec<String>,
    /// A tag (repeatable).
    #[arg(long, value_name = "T")]
    pub tag: Vec<String>,
    /// Confidence: low, medium or high.
    #[arg(long, value_name = "C")]
    pub confidence: Option<String>,
    /// Mark the work as blocked.
    #[arg(long)]
    pub blocked: bool,
    /// The assumption that no longer holds (with --shift-after).
    #[arg(long, value_name = "B", requires = "shift_after")]
    pub shift_before: Option<String>,
    /// What replaced it (with --shift-before).
    #[arg(long, value_name = "A", requires = "shift_before")]
    pub shift_after: Option<String>,
    /// Read one whole record in the spec's Markdown form from stdin instead of flags.
    #[arg(long, conflicts_with_all = ["proj", "topic", "intent", "summary", "next", "defer", "fact", "file", "tag", "confidence", "blocked", "shift_before"])]
    pub stdin: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ResumeArgs {
    /// Only this project's threads.
    #[arg(long, value_name = "P")]
    pub proj: Option<String>,
    /// Include tangents, listed as parked threads.
    #[arg(long)]
    pub tangents: bool,
    /// Detail: 1 (≤ 100 tokens: objective, current and next step, blockers, the last three
    /// decisions), 2 (≤ 500 tokens: with decisions for --query and the current bead), 3
    /// (everything).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub level: u8,
    /// At level 2 and 3, the decisions that answer this (words, any case).
    #[arg(long, value_name = "Q")]
    pub query: Option<String>,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "The HTML file needs nothing else: no network, no script, no font; open it \
                  from disk. Every text in it is redacted and escaped. Sessions, their events \
                  and the gate's stops come from the pulse stream (every machine's); tool calls, \
                  prompts, context fill, decisions and approvals from this project's own \
                  journals."
)]
pub struct ReportArgs {
    /// Write the report as one HTML file (and print the summary).
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    /// Only what happened at or after this time (RFC 3339 or YYYY-MM-DD, UTC).
    #[arg(long, value_name = "TS")]
    pub since: Option<String>,
    /// Only this project (by the name the stream gives it).
    #[arg(long, value_name = "P")]
    pub proj: Option<String>,
    /// The latest events shown per session (the others are counted).
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub events: usize,
    /// The most recent sessions shown per project (older ones are counted).
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub sessions: usize,
    /// Print the report as one JSON document instead of the summary.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "A line's origin: agent (an edit of the agent's wrote it, in a commit whose \
                  trail note verifies), person (in the agent's commit, but not written by its \
                  edits), unknown (the commit has no trail note: committed without trail, or the \
                  note was lost when the commit was rewritten). Notes live on refs/notes/trail, \
                  signed with the machine's key (believed on another machine of yours once it \
                  trusts this one); each names its pulse in the stream, which blame checks."
)]
pub struct BlameArgs {
    /// FILE, FILE:LINE, or a commit.
    #[arg(value_name = "FILE[:LINE]|COMMIT")]
    pub target: String,
    /// Print the answer as one JSON document.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct LogArgs {
    /// Show at most N records.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: usize,
    /// Only records at or after this time (RFC 3339 or YYYY-MM-DD, UTC).
    #[arg(long, value_name = "TS")]
    pub since: Option<String>,
    /// Only records of this type.
    #[arg(long = "type", value_name = "T")]
    pub kind: Option<String>,
    /// Only records focused on this project.
    #[arg(long, value_name = "P")]
    pub proj: Option<String>,
    /// Print the number of records (all segments) instead.
    #[arg(long)]
    pub count: bool,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Words match at a word start (`test` finds `tests`, not `latest`); a word \
                        in lower case matches any case, one with a capital matches exactly. \
                        Hits are ranked by BM25, the newest first among equals. Ids: a record's \
                        ts, or ${PROJECT_ROOT}/path:LINE."
)]
pub struct SearchArgs {
    /// Words to find, "a phrase" (quoted inside the argument), or with --regex one regex.
    pub query: String,
    /// The query is one regex (Rust syntax, case-sensitive unless it says `(?i)`).
    #[arg(long, conflicts_with_all = ["semantic", "hybrid"])]
    pub regex: bool,
    /// Search by meaning through ck (github.com/BeaconBay/ck); without ck, lexical, and says so.
    #[arg(long, conflicts_with = "hybrid")]
    pub semantic: bool,
    /// ck's fusion of meaning and keywords; without ck, lexical, and says so.
    #[arg(long)]
    pub hybrid: bool,
    /// Search the project tree too, as ripgrep does (.gitignore respected, hidden files not).
    #[arg(long)]
    pub code: bool,
    /// Only hits at or after this time (RFC 3339 or YYYY-MM-DD, UTC).
    #[arg(long, value_name = "TS")]
    pub since: Option<String>,
    /// Only hits before this time (RFC 3339 or YYYY-MM-DD, UTC).
    #[arg(long, value_name = "TS")]
    pub until: Option<String>,
    /// Only this source (stream, proof, trajectory, notes, memory, code) or kind (a record type,
    /// a trajectory phase, a tool, daily, core). Repeat or separate with commas.
    #[arg(long = "type", value_name = "T", value_delimiter = ',')]
    pub kind: Vec<String>,
    /// Only records focused on this project (its files are searched only if it is this one).
    #[arg(long, value_name = "P")]
    pub proj: Option<String>,
    /// Show at most N hits (the total counts them all).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: usize,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
    /// Answer from the scan alone: the search cache is neither read nor built (how
    /// `bench/run.sh search` shows what the cache wins).
    #[arg(long, hide = true)]
    pub no_cache: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Per session: a handoff record in the stream at the session's own time (what \
                  was asked, files changed, commands and how they ended, open next steps), a \
                  proof line per tool call and a daily-memory block in the project it ran in, \
                  when that directory is on this machine. Subagents, outputs the host kept in \
                  files of their own, and sessions continued in another file count with their \
                  session. Everything is redacted. Imported records live in stream/imported/, \
                  joined to the stream so that `trail verify` checks them; `trail search` finds \
                  them.\nExit codes: 0 done, 1 a file could not be written, 2 bad input."
)]
pub struct ImportArgs {
    /// Whose sessions: claude-code or codex.
    #[arg(value_parser = ["claude-code", "codex"])]
    pub host: String,
    /// Where they are (default: ~/.claude/projects; for codex $CODEX_HOME/sessions, else
    /// ~/.codex/sessions). One project's directory works too.
    pub dir: Option<PathBuf>,
    /// Only sessions active at or after this time (RFC 3339 or YYYY-MM-DD, UTC).
    #[arg(long, value_name = "TS")]
    pub since: Option<String>,
    /// Only sessions of this project: a directory (its worktrees count too), or a project's name
    /// as the stream calls it.
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    /// Read everything and count what would be added; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct SyncArgs {
    /// The git remote the ledger syncs through, named once (any git URL: a bare repository on
    /// a server you own, or a local path). A person's command: it runs at your terminal only.
    #[arg(long, value_name = "URL")]
    pub remote: Option<String>,
    /// Take machine ID's records from now on. A person's command: it shows the key the remote
    /// offers for ID, and you type the end of its fingerprint to confirm.
    #[arg(long, value_name = "ID")]
    pub trust_machine: Option<String>,
    /// Show what a sync would send (records per project, and bytes) and send nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
    /// Print nothing, and do nothing when a sync is already running (how trail starts one by
    /// itself after a session).
    #[arg(long, hide = true)]
    pub background: bool,
}

#[derive(Args, Debug)]
pub struct DoctorArgs {
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct RotateArgs {
    /// Rotate even when the stream is below the threshold.
    #[arg(long)]
    pub force: bool,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(after_help = crate::cmd::config::settings_help())]
pub struct ConfigArgs {
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
    /// Print the settings as the guide's Markdown table (docs/GUIDE.md) instead.
    #[arg(long, hide = true, conflicts_with = "json")]
    pub markdown: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = format!(
        "{} The trust is kept in ~/.config/trail/trusted.json with the file's sha256: any \
         change to the file voids it.\nExit codes: 0 done, 1 the store could not be written, 2 \
         nothing to trust or not confirmed.",
        crate::cmd::config::trust_note()
    )
)]
pub struct TrustArgs {
    /// Forget the trust in this project's config.
    #[arg(long, conflicts_with_all = ["list", "yes"])]
    pub revoke: bool,
    /// List every trusted project config and whether it is unchanged.
    #[arg(long, conflicts_with = "yes")]
    pub list: bool,
    /// Trust without asking (the settings are still shown). Needed when stdin is not a terminal.
    #[arg(long)]
    pub yes: bool,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Keep the demo's ledger in this directory instead of a temporary one.
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum NotesCommand {
    /// Where NOTES.md is, what chose it, and where Loa's config would put it.
    Where {
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
    /// Move NOTES.md, with its content, to PATH (relative to the project root) and record it
    /// there. A person's command: it asks at the terminal.
    Move {
        /// The new place, a `.md` file inside the project that does not exist or is empty.
        path: String,
    },
}

#[derive(Subcommand, Debug)]
pub enum MemoryCommand {
    /// Append what a session did to today's daily memory (extractive; a repeat adds nothing).
    Flush {
        /// The Claude Code transcript or Codex rollout to flush (default: this project's newest,
        /// under ~/.claude/projects/ or $CODEX_HOME/sessions/).
        #[arg(long, value_name = "PATH")]
        transcript: Option<PathBuf>,
        /// Record it as trimmed context (as before a compaction) instead of a session end.
        #[arg(long)]
        trimmed: bool,
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
    /// Print core memory (`.trail/MEMORY.md`) and today's daily file.
    Show,
    /// Check every bullet of MEMORY.md against daily memory; exit 1 if any is unsupported.
    Verify {
        /// Print the result as one JSON document (pretty on a terminal).
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args, Debug)]
#[command(
    after_help = crate::cmd::config::llm_help()
)]
pub struct DreamArgs {
    /// How many of the latest daily files to consolidate (clamped to 1–30).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 3,
        allow_negative_numbers = true
    )]
    pub lookback: i64,
    /// Run even when the daily content is unchanged since the last dream.
    #[arg(long)]
    pub force: bool,
    /// Ask and verify, show what would change, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// When the rewrite would lose more than a quarter of MEMORY.md's supported entries, show
    /// them and ask whether to write it anyway (a person's command: it asks at the terminal).
    #[arg(long, conflicts_with = "dry_run")]
    pub accept_loss: bool,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
    /// The dream a session's end starts by itself (detached, silent): runs only when one is
    /// due and none is running, and leaves what it did for the next SessionStart.
    #[arg(long, hide = true, conflicts_with_all = ["force", "dry_run", "json"])]
    pub background: bool,
}

#[derive(Args, Debug)]
pub struct TranscriptArgs {
    /// The transcript (`~/.claude/projects/<slug>/<session>.jsonl`) or rollout
    /// (`~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl`).
    pub path: PathBuf,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct InitArgs {
    /// Use the user's settings (~/.claude/settings.json) instead of the project's.
    #[arg(long)]
    pub global: bool,
    /// The agent host: claude-code or codex.
    #[arg(long, default_value = "claude-code", value_name = "AGENT")]
    pub agent: String,
    /// Write trail as a Claude Code and Codex plugin into DIR (a local marketplace too) instead
    /// of touching any settings; install it with `claude plugin install trail --marketplace DIR`.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["global", "agent"])]
    pub plugin: Option<PathBuf>,
    /// Also register trail's MCP server (`trail mcp`) in the project's `.mcp.json`.
    #[arg(long)]
    pub mcp: bool,
    /// Team mode (Claude Code): trail's hooks go in the committed .claude/settings.json, by a
    /// command that names no machine's path. Each teammate installs trail and runs `trail init`
    /// once; until then their sessions say so at start and nothing is blocked. With uninstall:
    /// take the team's hooks out of .claude/settings.json too.
    #[arg(long, conflicts_with = "global")]
    pub shared: bool,
    /// Make grounding enforcement strict for this project (`grounding.enforcement = "strict"`
    /// in its .trail/config.toml, committed with it): a failing checkpoint, a compaction before
    /// one passes and new edits at a red attention budget are held.
    #[arg(long, conflicts_with = "global")]
    pub strict: bool,
    /// Add a `Trail-Session: <id>` trailer to the commits the agent makes from its shell (Claude
    /// Code): installs a git `prepare-commit-msg` hook in this repository. The signed note on
    /// refs/notes/trail stays the evidence; the trailer is for people reading `git log`.
    #[arg(long, conflicts_with_all = ["global", "no_trailer"])]
    pub trailer: bool,
    /// Take the `Trail-Session:` trailer's git hook out again (uninstall does too).
    #[arg(long, conflicts_with = "global")]
    pub no_trailer: bool,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct GateArgs {
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
    /// The command line to judge (put it after `--`).
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "COMMAND"
    )]
    pub command: Vec<String>,
}

#[derive(Subcommand, Debug)]
pub enum CiteCommand {
    /// Check every citation of FILE: verified, partial, drifted (and where), quote-not-found,
    /// out-of-range, missing-file, outside-root, relative-path or malformed.
    #[command(
        after_help = "The root is --root, else $PROJECT_ROOT, else the project.\nExit \
                            codes: 0 every citation verified, 1 some are not, 2 error."
    )]
    Check(CiteCheckArgs),
}

#[derive(Args, Debug)]
pub struct CiteCheckArgs {
    /// The project root citations are resolved under.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
    /// The document to check (`-`: stdin).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Decisions come from the trajectory (`decision` and `cite` entries, Loa's \
                        too) and from --notes. Threshold and enforcement: --threshold, else \
                        grounding.* in trail's config when set, else .loa.config.yaml, else \
                        0.95 and warn.\nExit codes: 0 pass, 1 fail, 2 error (an error is never \
                        a pass)."
)]
pub struct GroundArgs {
    /// The lowest passing ratio, as a decimal (`0.95`), compared exactly.
    #[arg(long, value_name = "T")]
    pub threshold: Option<String>,
    /// A NOTES.md whose Decision Log counts too (read only).
    #[arg(long, value_name = "PATH")]
    pub notes: Option<PathBuf>,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct TrajectoryArgs {
    /// Only entries at or after this time (RFC 3339 or YYYY-MM-DD, UTC).
    #[arg(long, value_name = "TS")]
    pub since: Option<String>,
    /// Only entries of this phase (cite, decision, session_handoff, …).
    #[arg(long, value_name = "P")]
    pub phase: Option<String>,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Zones count tokens added since the last checkpoint that passed (else the \
                  session's first answer; a compaction starts again): attention.yellow (5000), \
                  attention.orange (10000), attention.red (15000). Fill is the context over \
                  attention.window. The prompt hook acts on a zone (at red under strict \
                  grounding enforcement, edits wait for a passing checkpoint); this command \
                  only looks. Exit 0, or 2 when no session file can be read."
)]
pub struct BudgetArgs {
    /// The Claude Code transcript or Codex rollout (default: the project's newest).
    #[arg(long, value_name = "PATH")]
    pub transcript: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Ghosts come from FEATURE arguments, else NOTES.md (--notes, else the \
                  project's), every item under a heading that names ghosts (`## Ghost \
                  Features`). Write other names as `NAME (also: A, B)`. Each feature gets two \
                  queries (its words as prose, its names as code identifiers) with trail's \
                  lexical search, or ck when installed. No code match and fewer than \
                  grounding.ghost_mentions doc mentions: [CONFIRMED GHOST]; more: [HIGH \
                  AMBIGUITY]; a code match: [NOT A GHOST]; not checkable: [UNVERIFIED \
                  GHOST].\nExit codes: 0 every ghost verified, 1 one needs a person, 2 usage."
)]
pub struct GhostsArgs {
    /// Ghost features to check (instead of NOTES.md's, unless --notes is given too).
    #[arg(value_name = "FEATURE")]
    pub features: Vec<String>,
    /// The NOTES.md that lists ghost features.
    #[arg(long, value_name = "PATH")]
    pub notes: Option<std::path::PathBuf>,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "A citation is `quote` [${PROJECT_ROOT}/path:LINE] or :START-END: the quote \
                  word for word from those lines. Each is checked now (verified, partial, \
                  drifted, quote-not-found, …) and the answer lists those not verified. The \
                  decision goes to .trail/trajectory/ and the pulse stream first, then to the \
                  Decision Log of NOTES.md (notes.path, else Loa's, else ./NOTES.md).\nExit \
                  codes: 0 recorded, 1 recorded but NOTES.md not updated, 2 bad input (nothing \
                  recorded)."
)]
pub struct DecideArgs {
    /// A short title.
    #[arg(long, value_name = "T")]
    pub title: String,
    /// What was decided.
    #[arg(long, value_name = "D")]
    pub decision: String,
    /// Why.
    #[arg(long, value_name = "R")]
    pub rationale: String,
    /// A citation with its quote: '`code` [${PROJECT_ROOT}/path:LINE]' (repeatable).
    #[arg(long, value_name = "CITATION")]
    pub evidence: Vec<String>,
    /// A test scenario: happy path, edge case, error (repeatable; three make EDD).
    #[arg(long, value_name = "TEXT")]
    pub test: Vec<String>,
    /// The bead (br/bd issue) this decision belongs to.
    #[arg(long, value_name = "ID")]
    pub bead: Option<String>,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Sources, in order: git show HEAD:, git checkout (the index), the journals, a \
                  template. A file that is there and not blank is never touched.\nExit codes: 0 \
                  nothing missing, 1 something missing (with --check-only: would be healed; \
                  without: could not be), 2 usage."
)]
pub struct HealArgs {
    /// Say what is missing and where it would come from; write nothing.
    #[arg(long)]
    pub check_only: bool,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Each step says pass, fail, skipped or error, and what to do when it did not \
                  pass. A failed step blocks only under strict enforcement (grounding.enforcement, \
                  or grounding_enforcement in .loa.config.yaml); under warn it is a warning. The \
                  result is journalled: a session_handoff and a checkpoint entry in \
                  .trail/trajectory/, a checkpoint pulse, and NOTES.md's Active Context.\nExit \
                  codes: 0 pass, 1 blocked, 2 error (never a pass)."
)]
pub struct CheckpointArgs {
    /// Where the reasoning stands, for NOTES.md's Reasoning State and the next session.
    #[arg(long, value_name = "TEXT")]
    pub reasoning: Option<String>,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "The path is resolved under the project root ($PROJECT_ROOT, else the project): \
                  `..` above it and symlinks leaving it are refused. Every line is redacted.\n\
                  Exit codes: 0 shown, 2 the identifier names nothing readable."
)]
pub struct ShowArgs {
    /// `${PROJECT_ROOT}/path:LINE` or `:START-END` (brackets allowed).
    #[arg(value_name = "IDENTIFIER")]
    pub identifier: String,
    /// Grow the range to the function or type around it (tree-sitter: Rust, Python, TypeScript,
    /// Go, when built in); otherwise the lines as asked, and why.
    #[arg(long)]
    pub full_section: bool,
    /// Print the result as one JSON document (pretty on a terminal).
    #[arg(long)]
    pub json: bool,
}

/// The commands by task, as `trail --help` lists them (issue 22: one list of 40 was hard to
/// find a way through). Every visible command is in exactly one group (a test holds it).
pub const GROUPS: &[(&str, &[&str])] = &[
    ("Start", &["demo", "init", "doctor", "uninstall"]),
    (
        "Daily use",
        &[
            "status", "resume", "log", "report", "blame", "search", "pulse", "mode", "gate",
        ],
    ),
    (
        "A person's decisions",
        &["approve", "dismiss", "skip", "trust"],
    ),
    (
        "Memory",
        &[
            "remember",
            "recall",
            "memory",
            "dream",
            "notes",
            "import",
            "transcript",
        ],
    ),
    (
        "Grounding",
        &[
            "decide",
            "checkpoint",
            "cite",
            "ground",
            "ghosts",
            "trajectory",
            "show",
            "heal",
            "budget",
        ],
    ),
    (
        "Administration",
        &[
            "verify",
            "rotate",
            "sync",
            "redact",
            "config",
            "mcp",
            "completions",
            "man",
        ],
    ),
];

/// The command line's definition. The root help lists commands by task only when help is asked
/// for: building that listing cost every invocation ~430,000 instructions, most of a `trail
/// resume` (found by `trail-bench resume --compare`, 1.65 → 2.0 ms).
pub fn command() -> clap::Command {
    let cmd = Cli::command();
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let asks = args.is_empty()
        || args.first().is_some_and(|a| a == "help")
        || args.iter().any(|a| a == "-h" || a == "--help");
    if asks { with_groups(cmd) } else { cmd }
}

/// The root help with the commands under their groups.
pub fn with_groups(cmd: clap::Command) -> clap::Command {
    let listing = grouped(&cmd);
    cmd.help_template(format!(
        "{{before-help}}{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{listing}\n\
         Options:\n{{options}}{{after-help}}"
    ))
}

/// `text` wrapped at `cols` columns, its lines after the first indented by `indent`, as clap
/// wraps its own help.
fn wrapped(text: &str, indent: usize, cols: usize) -> String {
    let mut out = String::new();
    let mut col = indent;
    for word in text.split_whitespace() {
        if col > indent && col + 1 + word.len() > cols {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            col = indent;
        } else if col > indent {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += word.chars().count();
    }
    out
}

/// The subcommands under their groups' headings, each with its one-line about.
fn grouped(cmd: &clap::Command) -> String {
    let width = GROUPS
        .iter()
        .flat_map(|(_, names)| names.iter())
        .map(|n| n.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for (heading, names) in GROUPS {
        out.push_str(&format!("{heading}:\n"));
        for name in *names {
            let about = cmd
                .find_subcommand(name)
                .and_then(clap::Command::get_about)
                .map(ToString::to_string)
                .unwrap_or_default();
            let first = about.split(". ").next().unwrap_or(&about);
            out.push_str(&format!("  {name:<width$}  "));
            out.push_str(&wrapped(first, width + 4, 100));
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `trail --help` lists commands by task: every visible command in exactly one group, and
    /// no group names a command that is gone.
    #[test]
    fn every_visible_command_is_in_one_group() {
        let cmd = Cli::command();
        let visible: Vec<&str> = cmd
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(clap::Command::get_name)
            .collect();
        let grouped: Vec<&str> = GROUPS.iter().flat_map(|(_, n)| n.iter().copied()).collect();
        for name in &visible {
            assert_eq!(
                grouped.iter().filter(|g| *g == name).count(),
                1,
                "{name} must be in exactly one group"
            );
        }
        for name in &grouped {
            assert!(
                visible.contains(name),
                "{name} is grouped but not a visible command"
            );
        }
        let help = with_groups(Cli::command()).render_help().to_string();
        assert!(help.contains("A person's decisions:\n  approve"), "{help}");
        assert!(
            !help.contains("  hook "),
            "internal commands are hidden: {help}"
        );
    }
}
