//! What `trail status`, `/edge status` and the MCP `status` tool report, gathered once: the
//! state file's mode, objective, plan, allowances and dismissals, the pending junction from
//! trail's own signed record (never the state file's copy, which the agent can edit), and what
//! trail injected into the session's context. The front ends word and render it.

use serde::{Serialize, Serializer};

use super::schema::{Allowance, Dismissal, Junction, Observations, Problem};
use super::{StateError, Store, observe, pending, protocol};

/// Everything a status shows.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// The project the state file belongs to (worktrees of one repository are one).
    pub project: crate::project::Named,
    pub path: String,
    pub exists: bool,
    pub mode: Option<String>,
    pub objective: Option<String>,
    pub plan: Vec<PlanLine>,
    pub current_step: Option<serde_json::Value>,
    pub junction: Option<Junction>,
    pub allowances: Vec<Allowance>,
    pub dismissals: Vec<Dismissal>,
    pub observations: Option<Observations>,
    /// What `done` would be refused for (empty: the quality gate passes).
    pub quality_gate: Vec<String>,
    pub edited_elsewhere: bool,
    /// The state file's broken invariants, in the file's own terms (a front end adds how to
    /// fix them).
    #[serde(serialize_with = "as_text")]
    pub problems: Vec<Problem>,
    /// A pending-junction record trail did not write (ignored; never decided on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forged_junction: Option<String>,
    /// What trail injected into this session's context (the state file's session, else the
    /// last one trail injected into); `null` before any.
    pub context: Option<ContextUse>,
}

/// A plan step and its status (`pending` when the file gives none).
#[derive(Clone, Debug, Serialize)]
pub struct PlanLine {
    pub description: String,
    pub status: String,
}

/// What a session received from trail, and the cap it is held to.
#[derive(Clone, Debug, Serialize)]
pub struct ContextUse {
    #[serde(flatten)]
    pub tally: crate::injected::Tally,
    /// Tokens per context window (`context.cap_tokens`); `null`: no cap, or not known here.
    pub cap: Option<u64>,
}

impl Status {
    /// The unused one-time allowances.
    pub fn unused_allowances(&self) -> impl Iterator<Item = &Allowance> {
        self.allowances.iter().filter(|a| a.consumed == Some(false))
    }
}

fn as_text<S: Serializer>(problems: &[Problem], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(problems.iter().map(ToString::to_string))
}

/// The status of the project `store` keeps the state of.
pub fn gather(store: &Store) -> Result<Status, StateError> {
    let l = store.load()?;
    let s = &l.state;
    let (junction, forged_junction) = match protocol::pending_found(store)? {
        pending::Found::Valid(p) => (Some(p.view()), None),
        pending::Found::Forged(why) => (None, Some(why)),
        pending::Found::None => (None, None),
    };
    let root = store.project_root();
    let session = s
        .session
        .as_ref()
        .and_then(|x| x.id.clone())
        .filter(|id| {
            let key = crate::injected::session_key(id);
            crate::layout::Layout::new(root).injected(&key).exists()
        })
        .or_else(|| crate::injected::latest_session(root));
    let context = session.and_then(|id| {
        crate::injected::tally(root, &id)
            .ok()
            .map(|tally| ContextUse { tally, cap: None })
    });
    Ok(Status {
        context,
        project: crate::project::Project::discover(root).named(),
        forged_junction,
        path: store.path().display().to_string(),
        exists: l.exists,
        mode: s.mode.clone().or(Some("plan".into())),
        objective: s.objective.clone(),
        plan: s
            .plan
            .iter()
            .map(|p| PlanLine {
                description: p.description.clone(),
                status: p.status.clone().unwrap_or_else(|| "pending".into()),
            })
            .collect(),
        current_step: s.current_step.clone(),
        junction,
        allowances: s.allowances.clone(),
        dismissals: s.dismissals.clone(),
        observations: s.observations.clone(),
        quality_gate: observe::quality_gate(s),
        edited_elsewhere: l.exists && l.edited_elsewhere,
        problems: l.problems.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state file's broken invariant is kept typed (the front ends word it) and serialized
    /// in the file's own terms; a plan step without a status is pending; no junction without
    /// trail's own record.
    #[test]
    fn a_status_keeps_problems_typed_and_plan_steps_pending() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("active_context.yaml"),
            "schema_version: 4\nmode: complete\nplan:\n  - description: write it\n",
        )
        .unwrap();
        let store = Store::new(dir.path()).with_secrets_dir(dir.path().join(".secrets"));
        let st = gather(&store).unwrap();
        assert_eq!(st.problems, vec![Problem::Mode("complete".into())]);
        assert_eq!(st.plan[0].status, "pending");
        assert!(st.junction.is_none() && st.forged_junction.is_none());
        let json = serde_json::to_value(&st).unwrap();
        assert_eq!(
            json["problems"],
            serde_json::json!(["mode `complete` is not one of plan, active, review, done"])
        );
    }
}
