//! Tools by name, and what a tool call was given, typed once where the wire ends.
//!
//! [`Tool`] is the one mapping between a host's tool names and trail's: the hook, the proof
//! log, daily memory and the guard all ask it, and its [`Tool::name`] is the stable text stored
//! in records. [`ToolInput`] is a call's `tool_input` decoded for the tools trail judges or
//! records (shell commands, file edits, reads); every other tool keeps its input as sent.
//!
//! Decoding never fails: hosts change their inputs, and a field that is missing or has another
//! shape decodes to `None`. Whoever reads a `None` decides what it means: the guard refuses a
//! command it cannot read and lets an edit it cannot apply go to the tool, which fails on it.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// The tools trail treats differently; the rest keep their name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Claude Code's shell tool, and Codex CLI's (`shell`, `local_shell`, reported as `Bash`).
    Bash,
    /// Claude Code's background commands, run by the same shell as Bash.
    Monitor,
    /// Claude Code's shell on Windows.
    PowerShell,
    Edit,
    MultiEdit,
    Write,
    NotebookEdit,
    /// Codex CLI's file edits: a patch naming the files it touches.
    ApplyPatch,
    Read,
    TodoWrite,
    /// `mcp__<server>__<tool>`.
    Mcp {
        server: String,
        tool: String,
    },
    Other(String),
}

/// Every tool trail knows, with its name as hosts send it and as trail's records store it.
static NAMES: [(Tool, &str); 10] = [
    (Tool::Bash, "Bash"),
    (Tool::Monitor, "Monitor"),
    (Tool::PowerShell, "PowerShell"),
    (Tool::Edit, "Edit"),
    (Tool::MultiEdit, "MultiEdit"),
    (Tool::Write, "Write"),
    (Tool::NotebookEdit, "NotebookEdit"),
    (Tool::ApplyPatch, "apply_patch"),
    (Tool::Read, "Read"),
    (Tool::TodoWrite, "TodoWrite"),
];

/// Other names for a known tool: Codex CLI's shell tools (its hooks report them as `Bash`).
/// They are stored under the tool's own name.
static ALIASES: [(&str, Tool); 2] = [("shell", Tool::Bash), ("local_shell", Tool::Bash)];

impl Tool {
    /// The tool a host means by `name`.
    pub fn from_name(name: &str) -> Tool {
        let known = NAMES
            .iter()
            .map(|(t, n)| (*n, t))
            .chain(ALIASES.iter().map(|(n, t)| (*n, t)))
            .find(|(n, _)| *n == name);
        if let Some((_, tool)) = known {
            return tool.clone();
        }
        match name.strip_prefix("mcp__").and_then(|r| r.split_once("__")) {
            Some((server, tool)) => Tool::Mcp {
                server: server.into(),
                tool: tool.into(),
            },
            None => Tool::Other(name.into()),
        }
    }

    /// The tool's name as its host writes it: what records, junctions and the proof log store.
    pub fn name(&self) -> Cow<'_, str> {
        match self {
            Tool::Mcp { server, tool } => Cow::Owned(format!("mcp__{server}__{tool}")),
            Tool::Other(name) => Cow::Borrowed(name),
            known => Cow::Borrowed(
                NAMES
                    .iter()
                    .find(|(t, _)| t == known)
                    .map_or("", |(_, n)| *n),
            ),
        }
    }

    /// Whether the tool changes files.
    pub fn edits_files(&self) -> bool {
        matches!(
            self,
            Tool::Edit | Tool::MultiEdit | Tool::Write | Tool::NotebookEdit | Tool::ApplyPatch
        )
    }
}

impl std::fmt::Display for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// One replacement of an Edit or MultiEdit: `old` by `new`, every occurrence when `all`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replace {
    pub old: String,
    pub new: String,
    pub all: bool,
}

/// What a tool call was given, for the tools trail reads.
///
/// A file tool's `path` is the first of `file_path`, `notebook_path` and `path` that is text
/// (hosts and versions differ in which they send).
#[derive(Clone, Debug, PartialEq)]
pub enum ToolInput {
    /// Bash (and Codex's shell): the command line. `None` when `command` is missing or not
    /// text (a list of arguments, say): a command nobody can read, which the guard refuses.
    Bash { command: Option<String> },
    /// Monitor: a command run in the background by the same shell as Bash.
    Monitor { command: Option<String> },
    /// PowerShell: a command in PowerShell's language.
    PowerShell { command: Option<String> },
    /// Edit: one replacement in one file (`None` when the replacement is unreadable).
    Edit {
        path: Option<String>,
        replace: Option<Replace>,
    },
    /// MultiEdit: replacements applied in order (`None` when any of them is unreadable).
    MultiEdit {
        path: Option<String>,
        edits: Option<Vec<Replace>>,
    },
    /// Write: a file's whole new content.
    Write {
        path: Option<String>,
        content: Option<String>,
    },
    /// NotebookEdit: a cell's new source.
    NotebookEdit {
        path: Option<String>,
        source: Option<String>,
    },
    /// apply_patch (Codex CLI): the patch text, from `command`.
    ApplyPatch { patch: Option<String> },
    /// Read: the file read.
    Read { path: Option<String> },
    /// Any other tool, its input as sent (TodoWrite's too: see [`ToolInput::open_todos`]).
    Other(Value),
}

impl ToolInput {
    /// Decode `input`, as the host sent it for `tool`.
    pub fn decode(tool: &Tool, input: Value) -> ToolInput {
        let mut fields = match input {
            Value::Object(m) => m,
            other => match tool {
                Tool::Mcp { .. } | Tool::Other(_) | Tool::TodoWrite => {
                    return ToolInput::Other(other);
                }
                _ => Map::new(),
            },
        };
        let f = &mut fields;
        match tool {
            Tool::Bash => ToolInput::Bash {
                command: text(f, "command"),
            },
            Tool::Monitor => ToolInput::Monitor {
                command: text(f, "command"),
            },
            Tool::PowerShell => ToolInput::PowerShell {
                command: text(f, "command"),
            },
            Tool::ApplyPatch => ToolInput::ApplyPatch {
                patch: text(f, "command"),
            },
            Tool::Edit => ToolInput::Edit {
                path: path(f),
                replace: replace(f),
            },
            Tool::MultiEdit => ToolInput::MultiEdit {
                path: path(f),
                edits: match f.remove("edits") {
                    Some(Value::Array(edits)) => edits
                        .into_iter()
                        .map(|e| match e {
                            Value::Object(mut m) => replace(&mut m),
                            _ => None,
                        })
                        .collect(),
                    _ => None,
                },
            },
            Tool::Write => ToolInput::Write {
                path: path(f),
                content: text(f, "content"),
            },
            Tool::NotebookEdit => ToolInput::NotebookEdit {
                path: path(f),
                source: text(f, "new_source"),
            },
            Tool::Read => ToolInput::Read { path: path(f) },
            Tool::TodoWrite | Tool::Mcp { .. } | Tool::Other(_) => {
                ToolInput::Other(Value::Object(fields))
            }
        }
    }

    /// The files the call names: a file tool's path, or every file a patch touches, as written.
    pub fn files(&self) -> Vec<&str> {
        match self {
            ToolInput::ApplyPatch { patch } => patch
                .as_deref()
                .map(super::codex::patch_paths)
                .unwrap_or_default(),
            ToolInput::Edit { path, .. }
            | ToolInput::MultiEdit { path, .. }
            | ToolInput::Write { path, .. }
            | ToolInput::NotebookEdit { path, .. }
            | ToolInput::Read { path } => path.as_deref().into_iter().collect(),
            _ => Vec::new(),
        }
    }

    /// What a call that is neither a command nor an edit reads: Read's and NotebookRead's
    /// file, a search's directory (Grep, Glob: the tree beneath it, narrowed by its file-name
    /// glob), a listing's directory (LS), and any path an MCP or other tool's input carries
    /// (a field named for a path, or a value written as one: `/…`, `~/…`, `$HOME/…`,
    /// `file://…`). Judged by the guard through the same zones as the shell.
    pub fn reaches<'a>(&'a self, tool: &Tool) -> Vec<Reach<'a>> {
        let at = |path: &'a str, beneath, filter| Reach {
            path: path.trim_start_matches("file://"),
            beneath,
            filter,
        };
        match self {
            ToolInput::Read { path } => path
                .as_deref()
                .map(|p| at(p, false, None))
                .into_iter()
                .collect(),
            ToolInput::Other(v) => {
                let field = |k: &str| v.get(k).and_then(Value::as_str);
                match tool.name().as_ref() {
                    // A search reads every file beneath its directory (the working directory
                    // when none is given) that its glob lets through.
                    "Grep" => vec![at(field("path").unwrap_or("."), true, field("glob"))],
                    "Glob" => {
                        let pattern = field("pattern").unwrap_or("*");
                        let (dir, name) = glob_base(pattern);
                        let base = field("path").unwrap_or(".");
                        let mut out = vec![at(base, true, Some(name))];
                        if !dir.is_empty() {
                            out.push(at(dir, true, Some(name)));
                        }
                        out
                    }
                    _ => {
                        let mut out = Vec::new();
                        path_values(v, None, &mut |p| out.push(at(p, false, None)));
                        out
                    }
                }
            }
            _ => Vec::new(),
        }
    }

    /// The whole change an edit tool makes, as text: a Write's content, an Edit's or
    /// MultiEdit's replacements (`-old`, `+new`, and whether every occurrence), a notebook
    /// cell's source, a patch. `None` for other tools, or when the change is unreadable. What a
    /// person's approval of an edit is bound to.
    pub fn change(&self) -> Option<String> {
        let replace = |r: &Replace| {
            let all = if r.all { " (every occurrence)" } else { "" };
            format!("replace{all}:\n{}\nwith:\n{}\n", r.old, r.new)
        };
        match self {
            ToolInput::Write { content, .. } => content.clone(),
            ToolInput::NotebookEdit { source, .. } => source.clone(),
            ToolInput::ApplyPatch { patch } => patch.clone(),
            ToolInput::Edit { replace: r, .. } => r.as_ref().map(replace),
            ToolInput::MultiEdit { edits, .. } => {
                edits.as_ref().map(|es| es.iter().map(replace).collect())
            }
            _ => None,
        }
    }

    /// The items of a TodoWrite list that are not completed. TodoWrite's input stays as sent
    /// ([`ToolInput::Other`]): the guard reads every text in it.
    pub fn open_todos(&self) -> Vec<&str> {
        let ToolInput::Other(v) = self else {
            return Vec::new();
        };
        let Some(items) = v.get("todos").and_then(Value::as_array) else {
            return Vec::new();
        };
        items
            .iter()
            .filter(|t| t.get("status").and_then(Value::as_str) != Some("completed"))
            .filter_map(|t| t.get("content").and_then(Value::as_str))
            .collect()
    }
}

/// A place a tool call reads, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach<'a> {
    pub path: &'a str,
    /// Whether every file beneath `path` is read (a search), not only `path` itself.
    pub beneath: bool,
    /// The file-name glob a search is narrowed by.
    pub filter: Option<&'a str>,
}

/// A glob pattern's literal directory (before its first component with a wildcard) and its
/// last component: `../x/**/*.key` → (`../x`, `*.key`).
fn glob_base(pattern: &str) -> (&str, &str) {
    let name = pattern.rsplit('/').next().unwrap_or(pattern);
    let wild = pattern.find(['*', '?', '[', '{']).unwrap_or(pattern.len());
    let dir = pattern[..wild].rfind('/').map_or("", |i| &pattern[..i]);
    (
        if dir.is_empty() && pattern.starts_with('/') {
            "/"
        } else {
            dir
        },
        name,
    )
}

/// Every text in `v` that names a path: under a key that says so (`path`, `file_path`,
/// `paths`, `directory`, `root`…), or written as one (`/…`, `~/…`, `$HOME/…`, `file://…`).
fn path_values<'a>(v: &'a Value, key: Option<&str>, out: &mut dyn FnMut(&'a str)) {
    match v {
        Value::String(s) => {
            let named = key.is_some_and(|k| {
                let k = k.to_ascii_lowercase();
                ["path", "file", "dir", "folder", "root", "cwd"]
                    .iter()
                    .any(|n| k.contains(n))
            });
            let written = ["/", "~", "$HOME", "${HOME}", "file://"]
                .iter()
                .any(|p| s.starts_with(p));
            if (named || written) && !s.contains('\n') {
                out(s);
            }
        }
        Value::Array(items) => items.iter().for_each(|x| path_values(x, key, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| path_values(x, Some(k), out)),
        _ => {}
    }
}

/// Field `key`, taken out of `fields` when it is text.
fn text(fields: &mut Map<String, Value>, key: &str) -> Option<String> {
    match fields.remove(key) {
        Some(Value::String(s)) => Some(s),
        _ => None,
    }
}

/// A file tool's path: the first of its path fields that is text.
fn path(fields: &mut Map<String, Value>) -> Option<String> {
    ["file_path", "notebook_path", "path"]
        .iter()
        .find_map(|k| text(fields, k))
}

/// An Edit's (or one MultiEdit entry's) replacement, when `old_string` and `new_string` are
/// both text.
fn replace(fields: &mut Map<String, Value>) -> Option<Replace> {
    let old = text(fields, "old_string")?;
    let new = text(fields, "new_string")?;
    Some(Replace {
        old,
        new,
        all: fields.get("replace_all").and_then(Value::as_bool) == Some(true),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn decoded(name: &str, input: Value) -> ToolInput {
        ToolInput::decode(&Tool::from_name(name), input)
    }

    #[test]
    fn every_tool_name_maps_to_its_variant_and_back() {
        for (tool, name) in &NAMES {
            assert_eq!(&Tool::from_name(name), tool);
            assert_eq!(tool.name(), *name);
            assert_eq!(tool.to_string(), *name);
        }
        for (alias, tool) in &ALIASES {
            assert_eq!(&Tool::from_name(alias), tool);
        }
        assert_eq!(Tool::from_name("shell").name(), "Bash");
        let mcp = Tool::from_name("mcp__github__create_issue");
        assert_eq!(
            mcp,
            Tool::Mcp {
                server: "github".into(),
                tool: "create_issue".into()
            }
        );
        assert_eq!(mcp.name(), "mcp__github__create_issue");
        assert_eq!(Tool::from_name("Grep"), Tool::Other("Grep".into()));
        assert_eq!(Tool::from_name("Grep").name(), "Grep");
        assert_eq!(
            Tool::from_name("mcp__solo"),
            Tool::Other("mcp__solo".into())
        );
        assert_eq!(Tool::from_name("bash"), Tool::Other("bash".into()));
    }

    #[test]
    fn command_tools_decode_their_command() {
        // Claude Code sends a description and more beside the command; Codex the command alone.
        let claude =
            json!({"command": "gh issue view 445", "description": "Check issue", "timeout": 60000});
        assert_eq!(
            decoded("Bash", claude),
            ToolInput::Bash {
                command: Some("gh issue view 445".into())
            }
        );
        assert_eq!(
            decoded("local_shell", json!({"command": "ls"})),
            ToolInput::Bash {
                command: Some("ls".into())
            }
        );
        assert_eq!(
            decoded(
                "Monitor",
                json!({"command": "tail -f log", "description": "watch"})
            ),
            ToolInput::Monitor {
                command: Some("tail -f log".into())
            }
        );
        assert_eq!(
            decoded("PowerShell", json!({"command": "Get-ChildItem"})),
            ToolInput::PowerShell {
                command: Some("Get-ChildItem".into())
            }
        );
    }

    #[test]
    fn a_command_that_is_not_text_decodes_to_none() {
        for input in [
            json!({"command": ["bash", "-lc", "rm -rf ~"]}),
            json!({"command": 7}),
            json!({"cmd": "ls"}),
            json!({}),
            json!("rm -rf ~"),
            Value::Null,
        ] {
            for name in ["Bash", "shell", "Monitor", "PowerShell"] {
                let typed = decoded(name, input.clone());
                let command = match &typed {
                    ToolInput::Bash { command }
                    | ToolInput::Monitor { command }
                    | ToolInput::PowerShell { command } => command,
                    other => panic!("{name} {input}: {other:?}"),
                };
                assert_eq!(command, &None, "{name} {input}");
            }
        }
    }

    #[test]
    fn file_edits_decode_their_path_and_change() {
        let edit = json!({"file_path": "/p/a.rs", "old_string": "a", "new_string": "b", "replace_all": true});
        assert_eq!(
            decoded("Edit", edit),
            ToolInput::Edit {
                path: Some("/p/a.rs".into()),
                replace: Some(Replace {
                    old: "a".into(),
                    new: "b".into(),
                    all: true
                })
            }
        );
        let multi = json!({"file_path": "/p/a.rs", "edits": [
            {"old_string": "a", "new_string": "b"},
            {"old_string": "c", "new_string": "d", "replace_all": false}
        ]});
        let ToolInput::MultiEdit {
            path,
            edits: Some(edits),
        } = decoded("MultiEdit", multi)
        else {
            panic!("MultiEdit not decoded");
        };
        assert_eq!(path.as_deref(), Some("/p/a.rs"));
        assert_eq!(
            edits
                .iter()
                .map(|e| (&e.old[..], e.all))
                .collect::<Vec<_>>(),
            [("a", false), ("c", false)]
        );
        assert_eq!(
            decoded(
                "Write",
                json!({"file_path": "/p/b.rs", "content": "fn main() {}"})
            ),
            ToolInput::Write {
                path: Some("/p/b.rs".into()),
                content: Some("fn main() {}".into())
            }
        );
        assert_eq!(
            decoded(
                "NotebookEdit",
                json!({"notebook_path": "/p/n.ipynb", "cell_id": "c1", "new_source": "x = 1"})
            ),
            ToolInput::NotebookEdit {
                path: Some("/p/n.ipynb".into()),
                source: Some("x = 1".into())
            }
        );
        assert_eq!(
            decoded("Read", json!({"file_path": "/etc/hosts", "limit": 10})),
            ToolInput::Read {
                path: Some("/etc/hosts".into())
            }
        );
    }

    #[test]
    fn unreadable_parts_of_an_edit_decode_to_none_and_the_rest_stays() {
        assert_eq!(
            decoded(
                "Edit",
                json!({"file_path": "/p/a.rs", "old_string": 1, "new_string": "b"})
            ),
            ToolInput::Edit {
                path: Some("/p/a.rs".into()),
                replace: None
            }
        );
        // One unreadable entry makes the whole list unreadable: the edits apply in order.
        assert_eq!(
            decoded(
                "MultiEdit",
                json!({"file_path": "/p/a.rs", "edits": [{"old_string": "a", "new_string": "b"}, "x"]})
            ),
            ToolInput::MultiEdit {
                path: Some("/p/a.rs".into()),
                edits: None
            }
        );
        assert_eq!(
            decoded("MultiEdit", json!({"edits": {"old_string": "a"}})),
            ToolInput::MultiEdit {
                path: None,
                edits: None
            }
        );
        assert_eq!(
            decoded("Write", json!({"file_path": "/p/a.rs"})),
            ToolInput::Write {
                path: Some("/p/a.rs".into()),
                content: None
            }
        );
        // A path field that is not text gives way to the next one.
        assert_eq!(
            decoded(
                "Write",
                json!({"file_path": 3, "path": "/p/c.rs", "content": ""})
            ),
            ToolInput::Write {
                path: Some("/p/c.rs".into()),
                content: Some(String::new())
            }
        );
        assert_eq!(
            decoded("Edit", json!("oops")),
            ToolInput::Edit {
                path: None,
                replace: None
            }
        );
    }

    #[test]
    fn a_codex_patch_names_its_files() {
        let patch = "*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** Update File: src/a.rs\n*** Move to: src/b.rs\n@@\n-x\n+y\n*** End Patch\n";
        let input = decoded("apply_patch", json!({ "command": patch }));
        assert_eq!(
            input,
            ToolInput::ApplyPatch {
                patch: Some(patch.into())
            }
        );
        assert_eq!(input.files(), ["notes.txt", "src/a.rs", "src/b.rs"]);
        let unreadable = decoded("apply_patch", json!({ "patch": patch }));
        assert_eq!(unreadable, ToolInput::ApplyPatch { patch: None });
        assert!(unreadable.files().is_empty());
    }

    #[test]
    fn reads_name_what_they_reach_and_searches_the_tree_beneath() {
        let reach = |name: &str, input: Value| -> Vec<(String, bool, Option<String>)> {
            let tool = Tool::from_name(name);
            ToolInput::decode(&tool, input)
                .reaches(&tool)
                .into_iter()
                .map(|r| (r.path.to_string(), r.beneath, r.filter.map(String::from)))
                .collect()
        };
        let r = |p: &str, b: bool, f: Option<&str>| (p.to_string(), b, f.map(String::from));
        assert_eq!(
            reach("Read", json!({"file_path": "/k"})),
            [r("/k", false, None)]
        );
        assert_eq!(
            reach("Grep", json!({"pattern": "/etc", "glob": "*.rs"})),
            [r(".", true, Some("*.rs"))]
        );
        assert_eq!(
            reach("Glob", json!({"pattern": "../h/.s*/*.key", "path": "/p"})),
            [r("/p", true, Some("*.key")), r("../h", true, Some("*.key"))]
        );
        assert_eq!(
            reach(
                "mcp__fs__read",
                json!({"paths": ["a", "b"], "note": "~/x", "q": "text"})
            ),
            [
                r("a", false, None),
                r("b", false, None),
                r("~/x", false, None)
            ]
        );
        assert_eq!(
            reach("mcp__db__query", json!({"sql": "select 1"})),
            Vec::<(String, bool, Option<String>)>::new()
        );
    }

    #[test]
    fn an_edit_names_its_whole_change() {
        let one = decoded(
            "Edit",
            json!({"file_path": "/p", "old_string": "a", "new_string": "b"}),
        );
        let all = decoded(
            "Edit",
            json!({"file_path": "/p", "old_string": "a", "new_string": "b", "replace_all": true}),
        );
        assert_eq!(one.change().as_deref(), Some("replace:\na\nwith:\nb\n"));
        assert_ne!(one.change(), all.change());
        assert_eq!(
            decoded("Write", json!({"file_path": "/p", "content": "x"})).change(),
            Some("x".into())
        );
        assert_eq!(decoded("Read", json!({"file_path": "/p"})).change(), None);
        assert_eq!(decoded("Edit", json!({"file_path": "/p"})).change(), None);
    }

    #[test]
    fn other_tools_keep_their_input_as_sent() {
        let wakeup = json!({"delaySeconds": 60, "prompt": "/edge approve", "reason": "x"});
        assert_eq!(
            decoded("ScheduleWakeup", wakeup.clone()),
            ToolInput::Other(wakeup)
        );
        let mcp = json!({"title": "bug"});
        assert_eq!(
            decoded("mcp__github__create_issue", mcp.clone()),
            ToolInput::Other(mcp)
        );
        assert_eq!(
            decoded("Grep", json!("not an object")),
            ToolInput::Other(json!("not an object"))
        );
        assert_eq!(decoded("Grep", Value::Null), ToolInput::Other(Value::Null));
    }

    #[test]
    fn a_todo_list_gives_its_open_items() {
        let todos = decoded(
            "TodoWrite",
            json!({"todos": [
                {"content": "done", "status": "completed", "activeForm": "Doing"},
                {"content": "next", "status": "pending"},
                {"content": 3, "status": "pending"},
                {"content": "now", "status": "in_progress"}
            ]}),
        );
        assert!(matches!(todos, ToolInput::Other(_)));
        assert_eq!(todos.open_todos(), ["next", "now"]);
        assert!(
            decoded("TodoWrite", json!({"todos": "x"}))
                .open_todos()
                .is_empty()
        );
        assert!(
            decoded("Bash", json!({"command": "ls"}))
                .open_todos()
                .is_empty()
        );
    }
}
