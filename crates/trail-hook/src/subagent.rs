//! SubagentStart: a subagent hears from trail only the primer `subagent.primer` names, and
//! nothing when it is unset (the default). A subagent has one task and its parent's
//! instructions; replaying the session's memory into each one is what made other memory tools
//! cost ~12k tokens per subagent. trail's gate guards a subagent's tool calls whatever it knows.

use trail_core::host::render::Response;

use super::{Cx, report};

/// The value of `subagent.primer` that selects [`BUILTIN`].
const BUILTIN_NAME: &str = "builtin";

/// trail's own primer: what a subagent must not get wrong in a project trail guards.
const BUILTIN: &str = "trail guards this project. If trail denies one of your commands for a \
person's decision (a junction), do not retry it or work around it: stop and report it to the \
agent that started you, which asks the user. `trail recall QUERY` searches the project's memory \
and `trail search QUERY` its session journals, when your task needs history.";

/// A configured primer longer than this is cut: it is meant to be short.
const MAX_CHARS: usize = 1_500;

pub(super) fn start(cx: &Cx<'_>) -> Response {
    let Some(primer) = cx.config.subagent_primer.value.as_deref() else {
        return Response::Silent;
    };
    let text = if primer.trim() == BUILTIN_NAME {
        BUILTIN.to_string()
    } else {
        let cut: String = primer.trim().chars().take(MAX_CHARS).collect();
        redact(cx, &cut)
    };
    if text.is_empty() {
        return Response::Silent;
    }
    Response::Context {
        event: "SubagentStart",
        text,
    }
}

/// The primer comes from a config file: redacted like everything trail lets out, the originals
/// kept in the secret store.
fn redact(cx: &Cx<'_>, text: &str) -> String {
    cx.secrets()
        .redact_anyway(text, &mut |e| report::error(&e))
        .into_owned()
}
