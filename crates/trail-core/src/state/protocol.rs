//! The protocol's operations on the state (§2–§8): junctions met by allowances and dismissals,
//! a person's approve / dismiss / skip, mode transitions with the quality gate, observations at
//! stop, archive on done, and the session's start and end.
//!
//! Every operation is one [`Store::update`] transaction, so two hooks racing for the same
//! allowance cannot both use it.

use std::collections::HashSet;
use std::path::Path;

use serde::Serialize;

use super::grants::{self, By, Grant, Journal, Subject};
use super::observe;
use super::pending::{self, Pending};
use super::schema::{Allowance, Dismissal, Junction, Mode, Observations, Session, State};
use super::{Refusal, StateError, Store};
use crate::secrets::key::Key;
use crate::time::Ts;

/// Default dismissal length (§4).
pub const DEFAULT_DISMISS_MINUTES: u64 = 60;

fn journal(store: &Store, key: Option<&Key>) -> Result<Journal, StateError> {
    let dir = store.state_dir();
    Ok(Journal::read(&dir, key)?)
}

fn record(store: &Store, g: &Grant, key: &Key) -> Result<(), StateError> {
    let dir = store.state_dir();
    Ok(grants::append(&dir, g, key)?)
}

/// Fails when the state, put in mode `to`, could not be written back: checked before a mode
/// change journals the use of an approval, so the journal never records a use the state file
/// then fails to follow.
fn writable_in(store: &Store, state: &State, to: Mode) -> Result<(), StateError> {
    let mut s = state.clone();
    s.mode = Some(to.as_str().into());
    s.schema_version = Some(super::schema::SCHEMA_VERSION.into());
    let problems = s.problems();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(StateError::Invalid {
            path: store.path(),
            problems,
        })
    }
}

/// The pending junction trail recorded (a forged one is reported by [`pending_found`]).
fn read_pending(store: &Store, key: Option<&Key>) -> Result<pending::Found, StateError> {
    Ok(pending::read(&store.state_dir(), key)?)
}

fn write_pending(store: &Store, p: &Pending, key: &Key) -> Result<(), StateError> {
    Ok(pending::write(&store.state_dir(), p, key)?)
}

fn clear_pending(store: &Store) -> Result<(), StateError> {
    Ok(pending::clear(&store.state_dir())?)
}

/// Trail's records of one project, read under the state lock with the person's key.
struct Records {
    key: Key,
    journal: Journal,
}

/// Reads trail's records (making the key if there is none yet) and makes the view agree.
fn records(store: &Store, view: Option<&mut State>) -> Result<Records, StateError> {
    let key = store.key_or_create()?;
    let journal = journal(store, Some(&key))?;
    let pending = match read_pending(store, Some(&key))? {
        pending::Found::Valid(p) => Some(p),
        _ => None,
    };
    if let Some(state) = view {
        reconcile(state, &journal, pending.as_ref());
    }
    Ok(Records { key, journal })
}

/// The pending junction as trail recorded it, for showing to a person.
pub fn pending_found(store: &Store) -> Result<pending::Found, StateError> {
    let key = store.key()?;
    read_pending(store, key.as_ref())
}

/// Makes the view agree with trail's records: the pending junction is trail's (whatever the
/// file says), allowances and dismissals no person granted are dropped, and `consumed` flags
/// follow the journal. Returns how many grants in the view were forged.
pub fn reconcile(state: &mut State, j: &Journal, pending: Option<&Pending>) -> usize {
    state.junction = pending.map(Pending::view);
    let before = state.allowances.len() + state.dismissals.len();
    state.allowances.retain(|a| j.granted(&a.fingerprint));
    state.dismissals.retain(|d| {
        d.expires_at
            .as_deref()
            .is_some_and(|e| j.dismissed(&d.fingerprint, e))
    });
    for a in &mut state.allowances {
        if a.consumed == Some(false) && j.open_allowance(&a.fingerprint).is_none() {
            a.consumed = Some(true);
        }
    }
    before - state.allowances.len() - state.dismissals.len()
}

/// What a junction verdict came to.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Met {
    /// A person approved exactly this action; the allowance is now used up.
    Allowed { allowance: String },
    /// A person said "stop asking about this" until `until`.
    Dismissed { until: String },
    /// A person must decide: this junction is now the pending one.
    Pending { junction: Box<Junction> },
}

/// Uses up the person's open allowance `id` for `fp`: journaled (signed), mirrored in the view,
/// and the pending junction cleared when it was for this action.
fn use_up(
    store: &Store,
    view: Option<&mut State>,
    id: &str,
    fp: &str,
    key: &Key,
    now: Ts,
) -> Result<(), StateError> {
    record(
        store,
        &Grant::Consume {
            at: now.to_string(),
            id: id.to_string(),
            fingerprint: fp.to_string(),
        },
        key,
    )?;
    if let pending::Found::Valid(p) = read_pending(store, Some(key))?
        && p.subject.allowance_fingerprint() == fp
    {
        clear_pending(store)?;
    }
    if let Some(state) = view {
        for a in state.allowances.iter_mut().filter(|a| a.fingerprint == fp) {
            a.consumed = Some(true);
        }
        if state.junction.as_ref().is_some_and(|p| p.fingerprint == fp) {
            state.junction = None;
        }
    }
    Ok(())
}

/// Makes `subject` the junction waiting for a person (the same action keeps its id), signed
/// in trail's records and shown in the view.
fn make_pending(
    store: &Store,
    view: Option<&mut State>,
    subject: &Subject,
    key: &Key,
    now: Ts,
) -> Result<Junction, StateError> {
    let p = match read_pending(store, Some(key))? {
        pending::Found::Valid(p) if p.subject == *subject => p,
        _ => Pending {
            id: grants::new_id("j"),
            created_at: now.to_string(),
            subject: subject.clone(),
        },
    };
    write_pending(store, &p, key)?;
    let junction = p.view();
    if let Some(state) = view {
        state.junction = Some(junction.clone());
    }
    Ok(junction)
}

/// A risky action meets the state: an unconsumed allowance lets it through once, an active
/// dismissal lets it through, otherwise it becomes the pending junction (replacing an older
/// one: the agent has moved on, and the person approves what it asks now).
pub fn meet(store: &Store, subject: &Subject, now: Ts) -> Result<Met, StateError> {
    store.transact(|mut view| {
        let r = records(store, view.as_deref_mut())?;
        answer(store, view, &r, subject, now, |_| Ok(()))
    })
}

/// What the person's records say to `subject`, within a transaction: [`meet`], and `done` with a
/// failed quality gate. `before_use` runs before an allowance is journaled as used, and may
/// refuse, so the journal never records a use the caller then fails to follow.
fn answer(
    store: &Store,
    view: Option<&mut State>,
    r: &Records,
    subject: &Subject,
    now: Ts,
    before_use: impl FnOnce(Option<&State>) -> Result<(), StateError>,
) -> Result<Met, StateError> {
    let fp = subject.allowance_fingerprint();
    if let Some(id) = r.journal.open_allowance(&fp) {
        before_use(view.as_deref())?;
        use_up(store, view, id, &fp, &r.key, now)?;
        return Ok(Met::Allowed {
            allowance: id.to_string(),
        });
    }
    let dfp = subject.dismissal_fingerprint();
    if let Some(until) = dfp
        .as_deref()
        .and_then(|d| r.journal.active_dismissal(d, now))
    {
        return Ok(Met::Dismissed {
            until: until.to_string(),
        });
    }
    let junction = make_pending(store, view, subject, &r.key, now)?;
    Ok(Met::Pending {
        junction: Box::new(junction),
    })
}

/// A person's decision on the pending junction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decided {
    pub decision: &'static str,
    pub junction: Junction,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
}

/// The junction a person decides on: trail's own record, never the view's copy. A record trail
/// did not write is removed and refused, so the person is never asked about the agent's words.
fn take_pending(store: &Store, key: &Key, expect: Option<&str>) -> Result<Pending, StateError> {
    let p = match read_pending(store, Some(key))? {
        pending::Found::Valid(p) => p,
        pending::Found::None => {
            return Err(Refusal::NothingPending.into());
        }
        pending::Found::Forged(why) => {
            clear_pending(store)?;
            return Err(Refusal::ForgedPending { why }.into());
        }
    };
    if let Some(id) = expect
        && id != p.id
    {
        return Err(Refusal::NotThePending {
            pending: p.id,
            action: p.subject.action,
            asked: id.to_string(),
        }
        .into());
    }
    Ok(p)
}

/// `approve`: a one-time allowance for exactly the pending action.
pub fn approve(
    store: &Store,
    by: By,
    expect: Option<&str>,
    now: Ts,
) -> Result<Decided, StateError> {
    store.transact(|mut view| {
        let key = records(store, view.as_deref_mut())?.key;
        let p = take_pending(store, &key, expect)?;
        let fingerprint = p.subject.allowance_fingerprint();
        record(
            store,
            &Grant::Allow {
                at: now.to_string(),
                id: grants::new_id("a"),
                fingerprint: fingerprint.clone(),
                by,
                action: Some(p.subject.action.clone()),
            },
            &key,
        )?;
        clear_pending(store)?;
        if let Some(state) = view {
            state.junction = None;
            state.allowances.push(Allowance {
                fingerprint,
                granted_at: Some(now.to_string()),
                consumed: Some(false),
                command: Some(p.subject.action.clone()),
                extra: serde_json::Map::new(),
            });
        }
        Ok(Decided {
            decision: "approve",
            junction: p.view(),
            until: None,
        })
    })
}

/// `dismiss [MIN]`: stop asking about this class of action, on this target class, until the
/// time is up.
pub fn dismiss(
    store: &Store,
    by: By,
    minutes: u64,
    expect: Option<&str>,
    now: Ts,
) -> Result<Decided, StateError> {
    if minutes == 0 || minutes > grants::MAX_DISMISS_MINUTES {
        return Err(Refusal::DismissalLength {
            minutes,
            max: grants::MAX_DISMISS_MINUTES,
        }
        .into());
    }
    store.transact(|mut view| {
        let key = records(store, view.as_deref_mut())?.key;
        let p = take_pending(store, &key, expect)?;
        let Some(dfp) = p.subject.dismissal_fingerprint() else {
            let why = p
                .subject
                .sensitive
                .clone()
                .unwrap_or_else(|| "it is about this one action".into());
            return Err(Refusal::NotDismissable { id: p.id, why }.into());
        };
        let until = Ts::from_micros(
            now.as_micros()
                + i64::try_from(minutes)
                    .unwrap_or(i64::MAX)
                    .saturating_mul(60_000_000),
        )
        .to_string();
        record(
            store,
            &Grant::Dismiss {
                at: now.to_string(),
                fingerprint: dfp.clone(),
                expires_at: until.clone(),
                by,
                rule: Some(p.subject.rule.clone()),
            },
            &key,
        )?;
        clear_pending(store)?;
        if let Some(state) = view {
            state.junction = None;
            state.dismissals.push(Dismissal {
                fingerprint: dfp,
                expires_at: Some(until.clone()),
                dismissed_at: Some(now.to_string()),
                rule: Some(p.subject.rule.clone()),
                extra: serde_json::Map::new(),
            });
        }
        Ok(Decided {
            decision: "dismiss",
            junction: p.view(),
            until: Some(until),
        })
    })
}

/// `skip`: clear the junction; nothing is allowed.
pub fn skip(store: &Store, expect: Option<&str>) -> Result<Decided, StateError> {
    store.transact(|mut view| {
        let key = records(store, view.as_deref_mut())?.key;
        let p = take_pending(store, &key, expect)?;
        clear_pending(store)?;
        if let Some(state) = view {
            state.junction = None;
        }
        Ok(Decided {
            decision: "skip",
            junction: p.view(),
            until: None,
        })
    })
}

/// The result of a mode change.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Transition {
    pub from: String,
    pub to: Mode,
    /// Whether the mode changed (false when the quality gate stopped it).
    pub changed: bool,
    pub warnings: Vec<String>,
    /// What the quality gate found (empty when it passed or did not run).
    pub issues: Vec<String>,
    /// Into review: what the proof log must still show before done ([`proof_missing`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub proof_missing: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub junction: Option<Junction>,
}

/// Changes mode as §6 allows. Before the quality gate runs, observations are read again from the
/// project's proof log, so it judges what happened rather than what was last captured.
pub fn set_mode(
    store: &Store,
    to: Mode,
    objective: Option<&str>,
    now: Ts,
) -> Result<Transition, StateError> {
    store.update(|state| {
        let from = state.mode().unwrap_or(Mode::Plan);
        let mut t = Transition {
            from: state.mode.clone().unwrap_or_else(|| "plan".into()),
            to,
            changed: true,
            warnings: Vec::new(),
            issues: Vec::new(),
            proof_missing: Vec::new(),
            junction: None,
        };
        if let Some(o) = objective.map(str::trim).filter(|o| !o.is_empty()) {
            state.objective = Some(o.to_string());
        }
        match to {
            Mode::Plan => {}
            Mode::Active => to_active(state, &mut t)?,
            Mode::Review => to_review(store, state, &mut t)?,
            Mode::Done => to_done(store, state, from, now, &mut t)?,
        }
        if t.changed {
            state.mode = Some(to.as_str().into());
        }
        Ok(t)
    })
}

/// Active needs an objective; a missing plan is only worth a warning.
fn to_active(state: &State, t: &mut Transition) -> Result<(), StateError> {
    if !state.has_objective() {
        return Err(Refusal::NeedsObjective.into());
    }
    if state.plan.is_empty() {
        t.warnings
            .push("no plan yet: add steps to `plan:` in active_context.yaml".into());
    }
    Ok(())
}

/// Review should have finished work to verify (a warning when there is none), and asks for
/// proof: what done would still miss, judged on the proof log as it is now.
fn to_review(store: &Store, state: &mut State, t: &mut Transition) -> Result<(), StateError> {
    refresh_observations(store, state)?;
    let done = state.plan.iter().any(|s| s.status_is("completed"));
    let touched = state
        .observations
        .as_ref()
        .is_some_and(|o| !o.files_modified.is_empty());
    if !done && !touched {
        t.warnings
            .push("nothing to review yet: no completed steps, no files modified".into());
    }
    t.proof_missing = missing(state);
    Ok(())
}

/// §2 REVIEW ("encourage proof generation"): what the proof log must still show before done,
/// on this session's observations read afresh: the quality gate's issues, and a test run (the
/// gate does not ask for one, but a review that ran no test proved little). Empty when nothing
/// is missing.
pub fn proof_missing(store: &Store, state: &State) -> Result<Vec<String>, StateError> {
    let mut state = state.clone();
    refresh_observations(store, &mut state)?;
    Ok(missing(&state))
}

/// [`proof_missing`] on observations already fresh.
fn missing(state: &State) -> Vec<String> {
    let mut missing = observe::quality_gate(state);
    if !state.observations.as_ref().is_some_and(|o| o.tests_run) {
        missing.push("No test run observed this session".into());
    }
    missing
}

/// Done comes after active or review, once the quality gate passes on fresh observations or a
/// person approved going on despite exactly these issues. Otherwise the gate's junction becomes
/// the pending one and the mode stays (`t.changed` is false).
fn to_done(
    store: &Store,
    state: &mut State,
    from: Mode,
    now: Ts,
    t: &mut Transition,
) -> Result<(), StateError> {
    if from == Mode::Plan {
        return Err(Refusal::PlanToDone.into());
    }
    if from == Mode::Done {
        return Ok(());
    }
    refresh_observations(store, state)?;
    let issues = observe::quality_gate(state);
    if issues.is_empty() {
        return Ok(());
    }
    // The view is not reconciled here: a mode change rewrites only what it decides.
    let key = store.key_or_create()?;
    let r = Records {
        journal: journal(store, Some(&key))?,
        key,
    };
    let subject = quality_subject(&issues);
    let writable =
        |view: Option<&State>| view.map_or(Ok(()), |s| writable_in(store, s, Mode::Done));
    match answer(store, Some(state), &r, &subject, now, writable)? {
        // A quality gate is never dismissed (its subject has no dismissal fingerprint).
        Met::Allowed { .. } | Met::Dismissed { .. } => t.warnings.push(format!(
            "quality gate overridden by approval: {}",
            issues.join("; ")
        )),
        Met::Pending { junction } => {
            t.changed = false;
            t.issues = issues;
            t.junction = Some(*junction);
        }
    }
    Ok(())
}

fn quality_subject(issues: &[String]) -> Subject {
    Subject {
        kind: "quality_gate".into(),
        reason: format!("the quality gate failed: {}", issues.join("; ")),
        rule: "quality_gate".into(),
        tool: "mode".into(),
        action: format!("done despite: {}", issues.join("; ")),
        scope: String::new(),
        sensitive: None,
    }
}

fn refresh_observations(store: &Store, state: &mut State) -> Result<(), StateError> {
    let session = state.session.as_ref().and_then(|s| s.id.clone());
    let root = store.project_root();
    let (obs, progress) =
        observe::derive_with_progress(root, state.proof_offset(), session.as_deref())?;
    state.observations = Some(obs);
    state.progress = Some(progress);
    Ok(())
}

/// What Stop did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Captured {
    pub mode: String,
    pub observations: Option<Observations>,
    pub archived: bool,
}

/// Stop (§5, §7): plan captures nothing, active and review capture observations, done archives.
/// Never refuses: the caller lets the session stop whatever this returns.
pub fn on_stop(store: &Store, now: Ts) -> Result<Captured, StateError> {
    if !store.path().exists() {
        return Ok(Captured {
            mode: "plan".into(),
            observations: None,
            archived: false,
        });
    }
    store.update(|state| {
        let mode = state.mode().unwrap_or(Mode::Plan);
        match mode {
            Mode::Plan => Ok(Captured {
                mode: mode.to_string(),
                observations: None,
                archived: false,
            }),
            Mode::Active | Mode::Review => {
                refresh_observations(store, state)?;
                Ok(Captured {
                    mode: mode.to_string(),
                    observations: state.observations.clone(),
                    archived: false,
                })
            }
            Mode::Done => {
                archive(store.project_root(), state, now)?;
                Ok(Captured {
                    mode: mode.to_string(),
                    observations: None,
                    archived: true,
                })
            }
        }
    })
}

/// Done: the session's record goes to `.proof/archive.jsonl` (appended, synced) and the state
/// starts over in plan mode, keeping memory and whatever else the file holds.
fn archive(root: &Path, state: &mut State, now: Ts) -> Result<(), StateError> {
    let path = crate::layout::Layout::new(root).proof_archive();
    let entry = serde_json::json!({
        "archived_at": now.to_string(),
        "objective": state.objective,
        "plan": state.plan,
        "session": state.session,
        "observations": state.observations,
    });
    let err = |source| StateError::Io {
        path: path.clone(),
        source,
    };
    let mut line = entry.to_string();
    line.push('\n');
    // Never through a symlink (DESIGN, principle 10).
    crate::fsutil::append_in(root, &path, line.as_bytes())
        .map_err(|e| e.source)
        .map_err(err)?;
    state.mode = Some(Mode::Plan.as_str().into());
    state.objective = None;
    state.plan.clear();
    state.current_step = None;
    state.observations = None;
    state.junction = None;
    state.allowances.retain(|a| a.consumed == Some(false));
    Ok(())
}

/// What SessionStart found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Started {
    /// Observations of the previous session, which ended without Stop/SessionEnd.
    pub unclean_previous: Option<Observations>,
    pub mode: Option<String>,
    pub objective: Option<String>,
    pub junction: Option<Junction>,
}

/// SessionStart (§8): notice an unclean previous exit (and capture what it did), record the new
/// session and where its proof lines begin, drop expired dismissals and used allowances.
pub fn on_session_start(
    store: &Store,
    session_id: Option<&str>,
    proof_len: u64,
    now: Ts,
) -> Result<Started, StateError> {
    if !store.path().exists() {
        return Ok(Started::default());
    }
    let start_hash = crate::fsutil::read_in(
        store.project_root(),
        &store.path(),
        crate::fsutil::MAX_PROJECT_FILE,
    )
    .ok()
    .map(|b| super::hex(&b));
    store.update(|state| {
        let mut out = Started::default();
        let same = state
            .session
            .as_ref()
            .and_then(|s| s.id.as_deref())
            .is_some()
            && state.session.as_ref().and_then(|s| s.id.as_deref()) == session_id;
        if !same {
            if let Some(prev) = &state.session
                && prev.id.is_some()
                && prev.ended_at.is_none()
            {
                refresh_observations(store, state)?;
                out.unclean_previous.clone_from(&state.observations);
            }
            let mut s = Session {
                id: session_id.map(String::from),
                started_at: Some(now.to_string()),
                start_hash: start_hash.clone(),
                ended_at: None,
                extra: serde_json::Map::new(),
            };
            s.set_proof_offset(proof_len);
            state.session = Some(s);
        }
        let key = store.key()?;
        let j = journal(store, key.as_ref())?;
        let pending = match read_pending(store, key.as_ref())? {
            pending::Found::Valid(p) => Some(p),
            _ => None,
        };
        reconcile(state, &j, pending.as_ref());
        state.dismissals.retain(|d| {
            d.expires_at
                .as_deref()
                .and_then(|e| Ts::parse_loose(e).ok())
                .is_some_and(|e| e > now)
        });
        out.mode.clone_from(&state.mode);
        out.objective.clone_from(&state.objective);
        out.junction.clone_from(&state.junction);
        Ok(out)
    })
}

/// SessionEnd: the exit was clean; used allowances are cleaned up (§4).
pub fn on_session_end(store: &Store, now: Ts) -> Result<(), StateError> {
    if !store.path().exists() {
        return Ok(());
    }
    store.update(|state| {
        if let Some(s) = &mut state.session {
            s.ended_at = Some(now.to_string());
        }
        state.allowances.retain(|a| a.consumed == Some(false));
        Ok(())
    })
}

/// Whether an edit of the state file, as the agent proposes it, would grant something: new
/// allowances, allowances made unused again, or new dismissals. Returns what it would grant.
pub fn grants_added(before: &State, after: &State) -> Vec<String> {
    let open = |s: &State| -> HashSet<String> {
        s.allowances
            .iter()
            .filter(|a| a.consumed != Some(true))
            .map(|a| a.fingerprint.clone())
            .collect()
    };
    let dismissals = |s: &State| -> HashSet<(String, String)> {
        s.dismissals
            .iter()
            .map(|d| {
                (
                    d.fingerprint.clone(),
                    d.expires_at.clone().unwrap_or_default(),
                )
            })
            .collect()
    };
    let mut out = Vec::new();
    let was = open(before);
    for fp in open(after) {
        if !was.contains(&fp) {
            out.push(format!("an allowance {}", &fp[..fp.len().min(12)]));
        }
    }
    let was = dismissals(before);
    for (fp, e) in dismissals(after) {
        if !was.contains(&(fp.clone(), e.clone())) {
            out.push(format!("a dismissal {} until {e}", &fp[..fp.len().min(12)]));
        }
    }
    out
}
