use super::*;
use crate::cite::Status;
use crate::grounding::standing::Now;
use crate::notes::Active;
use crate::time::Ts;
use crate::trajectory::{Decision, Evidence};

fn d(id: &str, title: &str, decision: &str, cites: &[&str]) -> Decision {
    Decision {
        id: id.into(),
        title: title.into(),
        decision: decision.into(),
        rationale: "because".into(),
        evidence: cites
            .iter()
            .map(|c| Evidence {
                citation: (*c).into(),
                quote: None,
                status: Some(Status::Verified),
            })
            .collect(),
        tests: Vec::new(),
        bead: None,
    }
}

fn journal(ds: Vec<Decision>) -> Vec<Carried> {
    ds.into_iter()
        .map(|decision| Carried {
            ts: Ts::from_micros(0),
            decision,
        })
        .collect()
}

#[test]
fn a_decision_on_the_same_topic_that_decides_otherwise_is_a_fork() {
    let earlier = journal(vec![
        d(
            "d-3",
            "Cache the session list",
            "cache it for 5 minutes",
            &[],
        ),
        d(
            "d-2",
            "Token storage backend",
            "store refresh tokens in Redis",
            &["[${PROJECT_ROOT}/src/store.rs:10-20]"],
        ),
        d(
            "d-1",
            "Token storage backend",
            "store refresh tokens in memory",
            &[],
        ),
    ]);
    // Same title words, another store: a fork with the latest decision on the topic (d-2).
    let f = contradicted(
        &d(
            "d-9",
            "Backend for token storage",
            "store refresh tokens in Postgres",
            &[],
        ),
        &earlier,
    )
    .unwrap();
    assert_eq!(f.kind, Kind::Decision);
    assert!(
        f.journal.starts_with("[d-2] Token storage backend"),
        "{f:?}"
    );
    assert!(f.line().contains("supersedes ID"), "{}", f.line());
    // Other titles with a word in common, and the same cited lines of the same file: the same
    // topic.
    let f = contradicted(
        &d(
            "d-9",
            "Where refresh tokens live",
            "keep them in Postgres",
            &["[${PROJECT_ROOT}/src/store.rs:15]"],
        ),
        &earlier,
    );
    assert!(f.is_some());
    // A negation turns a decision around even when it only adds words.
    let f = contradicted(
        &d(
            "d-9",
            "Cache the session list",
            "do not cache it for 5 minutes",
            &[],
        ),
        &earlier,
    );
    assert!(f.is_some(), "a negation added is a contradiction");
}

#[test]
fn the_same_decision_a_refinement_a_supersession_or_another_topic_is_no_fork() {
    let earlier = journal(vec![
        d(
            "d-2",
            "Token storage backend",
            "store refresh tokens in Redis",
            &["[${PROJECT_ROOT}/src/store.rs:10-20]"],
        ),
        d("d-1", "Use JWT for the API", "sign with RS256", &[]),
    ]);
    for (what, new) in [
        (
            "the same words",
            d(
                "d-9",
                "Token storage backend",
                "Store refresh-tokens in Redis.",
                &[],
            ),
        ),
        (
            "a refinement",
            d(
                "d-9",
                "Token storage backend",
                "store refresh tokens in Redis with a 30 day TTL",
                &[],
            ),
        ),
        (
            "a narrowing",
            d("d-9", "Token storage backend", "store tokens in Redis", &[]),
        ),
        (
            "another topic sharing a word",
            d("d-9", "Token expiry", "expire after 15 minutes", &[]),
        ),
        (
            "the same file, other lines",
            d(
                "d-9",
                "Token index layout",
                "one index per tenant",
                &["[${PROJECT_ROOT}/src/store.rs:40-50]"],
            ),
        ),
        (
            "the same lines, about something else",
            d(
                "d-9",
                "Login page copy",
                "say sign in",
                &["[${PROJECT_ROOT}/src/store.rs:10-20]"],
            ),
        ),
        (
            "another file, same lines",
            d(
                "d-9",
                "Index layout",
                "one index per tenant",
                &["[${PROJECT_ROOT}/src/index.rs:10-20]"],
            ),
        ),
        (
            "an unparsable citation",
            d(
                "d-9",
                "Index layout",
                "one index per tenant",
                &["[src/store.rs]"],
            ),
        ),
    ] {
        assert_eq!(contradicted(&new, &earlier), None, "{what}");
    }
    // Naming the decision it replaces makes the change deliberate.
    let mut new = d(
        "d-9",
        "Token storage backend",
        "store refresh tokens in Postgres",
        &[],
    );
    new.rationale = "supersedes d-2: Redis is not persistent enough".into();
    assert_eq!(contradicted(&new, &earlier), None);
    // Nothing earlier, nothing to contradict; a decision is not its own fork.
    assert_eq!(contradicted(&new, &[]), None);
    let own = journal(vec![d("d-9", "Token storage backend", "in memory", &[])]);
    let same_id = d("d-9", "Token storage backend", "in Postgres", &[]);
    assert_eq!(contradicted(&same_id, &own), None);
}

fn state(objective: Option<&str>, steps: &[(&str, &str)]) -> State {
    let mut s = State::new();
    s.objective = objective.map(String::from);
    for (desc, status) in steps {
        s.plan.push(crate::state::schema::Step {
            description: (*desc).into(),
            status: Some((*status).into()),
            ..Default::default()
        });
    }
    s
}

fn task(t: &str) -> Active {
    Active {
        task: Some(t.into()),
        ..Active::default()
    }
}

#[test]
fn an_active_context_that_names_other_work_or_another_step_is_a_fork() {
    let s = state(
        Some("Rotate refresh tokens on every use"),
        &[
            ("write the rotation", "completed"),
            ("wire rotation into login", "in_progress"),
            ("expire old tokens", "pending"),
        ],
    );
    // Stale: trail wrote it when step 1 was in flight.
    let f = active_context(
        &task("Rotate refresh tokens on every use — step 1/3: write the rotation"),
        &s,
    )
    .unwrap();
    assert_eq!(f.kind, Kind::ActiveContext);
    assert!(
        f.journal
            .contains("step 2/3 \"wire rotation into login\" in flight"),
        "{f:?}"
    );
    // Other work altogether.
    assert!(active_context(&task("Migrate the billing schema to v3"), &s).is_some());
    // The plan grew: 2/2 is not 2/3.
    assert!(active_context(&task("step 2/2: wire rotation into login"), &s).is_some());
}

#[test]
fn an_active_context_that_agrees_or_says_nothing_is_no_fork() {
    let s = state(
        Some("Rotate refresh tokens on every use"),
        &[
            ("write the rotation", "completed"),
            ("wire rotation into login", "in_progress"),
        ],
    );
    for (what, notes) in [
        (
            "trail's own line",
            task("Rotate refresh tokens on every use — step 2/2: wire rotation into login"),
        ),
        ("a paraphrase", task("token rotation: login wiring")),
        ("the step only", task("wire rotation into login")),
        ("no task", Active::default()),
        (
            "only a bead",
            Active {
                bead: Some("bd-1 (login)".into()),
                ..Active::default()
            },
        ),
        ("only punctuation", task("…")),
    ] {
        assert_eq!(active_context(&notes, &s), None, "{what}");
    }
    // A state file with nothing to compare with.
    assert_eq!(
        active_context(&task("anything at all"), &state(None, &[])),
        None
    );
    let done = state(None, &[("a", "completed")]);
    assert_eq!(active_context(&task("ship the release"), &done), None);
}

fn standing(recorded: Option<Status>, now: Status, found_at: Vec<usize>) -> Standing {
    Standing {
        id: "d-1".into(),
        title: "Parse with serde".into(),
        citations: vec![Now {
            citation: "[${PROJECT_ROOT}/src/a.rs:3]".into(),
            recorded,
            now,
            found_at,
        }],
    }
}

#[test]
fn a_citation_verified_when_recorded_and_not_now_is_a_fork_and_nothing_else_is() {
    for now in [
        Status::Drifted,
        Status::QuoteNotFound,
        Status::MissingFile,
        Status::OutOfRange,
        Status::Partial,
    ] {
        let f = drifted(&[standing(Some(Status::Verified), now, vec![7])]);
        assert_eq!(f.len(), 1, "{now}");
        assert_eq!(f[0].kind, Kind::Citation);
        assert!(f[0].asserted.contains("[${PROJECT_ROOT}/src/a.rs:3]"));
    }
    let f = drifted(&[standing(Some(Status::Verified), Status::Drifted, vec![7])]);
    assert_eq!(f[0].journal, "drifted (the quote is at line 7)");
    for (recorded, now) in [
        (Some(Status::Verified), Status::Verified),
        (Some(Status::Drifted), Status::Drifted),
        (Some(Status::MissingFile), Status::Verified),
        (None, Status::QuoteNotFound),
    ] {
        assert!(
            drifted(&[standing(recorded, now, vec![])]).is_empty(),
            "{recorded:?} → {now}"
        );
    }
}

#[test]
fn forks_go_to_the_trajectory_as_fork_detected() {
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
    let f = drifted(&[standing(Some(Status::Verified), Status::Drifted, vec![7])]);
    log(dir.path(), &f, Some("s1"), &secrets).unwrap();
    let read = trajectory::journal::read(dir.path(), None).unwrap();
    assert_eq!(read.items.len(), 1);
    let Body::ForkDetected(e) = &read.items[0].1.body else {
        panic!("{:?}", read.items[0].1)
    };
    assert_eq!(e.kind, "citation");
    assert_eq!(read.items[0].1.session_id.as_deref(), Some("s1"));
}
