use super::*;
use crate::state::grants::{By, Subject};
use crate::state::protocol::{self, Met};
use crate::state::schema::Problem;
use crate::time::Ts;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/state");
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn project_with(bytes: &[u8]) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(FILE_NAME), bytes).unwrap();
    let store = Store::new(dir.path()).with_secrets_dir(dir.path().join(".secrets"));
    (dir, store)
}

fn push() -> Subject {
    Subject {
        kind: "irreversible".into(),
        reason: "pushing publishes commits".into(),
        rule: "git-push".into(),
        tool: "Bash".into(),
        action: "git push origin main".into(),
        scope: "origin main".into(),
        sensitive: None,
    }
}

#[test]
fn every_corpus_file_reads_and_older_schemas_are_reported() {
    let files = corpus();
    assert_eq!(files.len(), 6);
    for (name, bytes) in &files {
        let (_d, store) = project_with(bytes);
        let loaded = store.load().unwrap_or_else(|e| panic!("{name}: {e}"));
        // None of them is v4: each says so, and nothing else is lost on the way in.
        assert!(
            loaded.problems.iter().any(Problem::is_schema_version),
            "{name}: {:?}",
            loaded.problems
        );
        assert!(loaded.edited_elsewhere);
    }
    let (_d, store) = project_with(&files.iter().find(|(n, _)| n.contains("HEAD")).unwrap().1);
    let s = store.load().unwrap();
    assert!(
        s.problems.contains(&Problem::Mode("complete".into())),
        "{:?}",
        s.problems
    );
    assert_eq!(s.state.plan.len(), 3);
    assert!(s.state.extra.contains_key("intent"));
    let (_d, store) = project_with(&files.iter().find(|(n, _)| n.starts_with("dist")).unwrap().1);
    assert_eq!(
        store.load().unwrap().state.mode(),
        Some(Mode::Active),
        "ACTIVE is read as active"
    );
}

#[test]
fn a_rewrite_keeps_every_field_of_an_older_file() {
    for (name, bytes) in corpus() {
        let (dir, store) = project_with(&bytes);
        let before: serde_json::Value = serde_json::to_value(store.load().unwrap().state).unwrap();
        // Setting the mode is how a person migrates a file whose mode v4 does not know.
        let r = protocol::set_mode(&store, Mode::Plan, None, Ts::now());
        r.unwrap_or_else(|e| panic!("{name}: {e}"));
        let after = store.load().unwrap();
        assert!(after.problems.is_empty(), "{name}: {:?}", after.problems);
        assert!(!after.edited_elsewhere, "{name}");
        let mut after = serde_json::to_value(after.state).unwrap();
        let mut before = before;
        for v in [&mut before, &mut after] {
            let m = v.as_object_mut().unwrap();
            m.remove("mode");
            m.remove("schema_version");
        }
        assert_eq!(before, after, "{name}: a field changed on rewrite");
        // The original, comments and all, is kept once.
        let kept = dir
            .path()
            .join(".trail/state/active_context.before-trail.yaml");
        assert_eq!(std::fs::read(kept).unwrap(), bytes, "{name}");
    }
}

#[test]
fn an_unparseable_file_is_reported_with_its_line_and_never_overwritten() {
    let bad = b"schema_version: 4\nmode: plan\nplan:\n  - description: [unclosed\n";
    let (_d, store) = project_with(bad);
    let err = store.load().unwrap_err().to_string();
    assert!(err.contains("line"), "{err}");
    // The junction is trail's own record: it is kept, and the broken view is left alone.
    let met = protocol::meet(&store, &push(), Ts::now()).unwrap();
    assert!(matches!(met, Met::Pending { .. }), "{met:?}");
    assert_eq!(std::fs::read(store.path()).unwrap(), bad);
}

#[test]
fn an_invalid_result_is_not_written() {
    let (_d, store) = project_with(b"schema_version: 4\nmode: plan\n");
    let err = store
        .update(|s| {
            s.mode = Some("sideways".into());
            Ok(())
        })
        .unwrap_err();
    assert!(err.to_string().contains("sideways"), "{err}");
    assert_eq!(
        std::fs::read(store.path()).unwrap(),
        b"schema_version: 4\nmode: plan\n"
    );
}

#[test]
fn approve_opens_the_gate_exactly_once() {
    let (_d, store) = project_with(b"");
    let now = Ts::now();
    let Met::Pending { junction } = protocol::meet(&store, &push(), now).unwrap() else {
        panic!("first meeting must be a junction")
    };
    assert_eq!(
        store.load().unwrap().state.junction.as_ref(),
        Some(&*junction)
    );
    // The same action asked again is the same junction, not a second one.
    let Met::Pending { junction: again } = protocol::meet(&store, &push(), now).unwrap() else {
        panic!()
    };
    assert_eq!(again.id, junction.id);
    let wrong = protocol::approve(&store, By::Terminal, Some("j-nope"), now).unwrap_err();
    assert!(wrong.to_string().contains(&junction.id), "{wrong}");
    protocol::approve(&store, By::Terminal, Some(&junction.id), now).unwrap();
    let s = store.load().unwrap().state;
    assert!(s.junction.is_none());
    assert_eq!(s.allowances.len(), 1);
    assert_eq!(s.allowances[0].consumed, Some(false));
    // A different command is not covered by the allowance.
    let mut other = push();
    other.action = "git push --force origin main".into();
    assert!(matches!(
        protocol::meet(&store, &other, now).unwrap(),
        Met::Pending { .. }
    ));
    assert!(matches!(
        protocol::meet(&store, &push(), now).unwrap(),
        Met::Allowed { .. }
    ));
    assert!(matches!(
        protocol::meet(&store, &push(), now).unwrap(),
        Met::Pending { .. }
    ));
    assert_eq!(
        store.load().unwrap().state.allowances[0].consumed,
        Some(true)
    );
}

#[test]
fn allowances_written_into_the_file_by_hand_grant_nothing() {
    let (_d, store) = project_with(b"");
    let now = Ts::now();
    protocol::meet(&store, &push(), now).unwrap();
    let fp = push().allowance_fingerprint();
    let dfp = push().dismissal_fingerprint().unwrap();
    let mut text = std::fs::read_to_string(store.path()).unwrap();
    text = text.replace(
        "allowances: []",
        &format!("allowances:\n  - fingerprint: \"{fp}\"\n    consumed: false"),
    );
    text = text.replace(
        "dismissals: []",
        &format!(
            "dismissals:\n  - fingerprint: \"{dfp}\"\n    expires_at: \"2999-01-01T00:00:00Z\""
        ),
    );
    std::fs::write(store.path(), text).unwrap();
    assert!(store.load().unwrap().edited_elsewhere);
    assert!(matches!(
        protocol::meet(&store, &push(), now).unwrap(),
        Met::Pending { .. }
    ));
    let s = store.load().unwrap().state;
    assert!(
        s.allowances.is_empty() && s.dismissals.is_empty(),
        "forged grants are dropped"
    );
}

#[test]
fn a_dismissal_lets_the_class_through_until_it_expires() {
    let (_d, store) = project_with(b"");
    let now = Ts::now();
    protocol::meet(&store, &push(), now).unwrap();
    let d = protocol::dismiss(&store, By::Prompt, 30, None, now).unwrap();
    let mut other = push();
    other.action = "git push origin dev".into();
    assert!(matches!(
        protocol::meet(&store, &other, now).unwrap(),
        Met::Dismissed { .. }
    ));
    let later = Ts::from_micros(now.as_micros() + 31 * 60_000_000);
    assert!(matches!(
        protocol::meet(&store, &other, later).unwrap(),
        Met::Pending { .. }
    ));
    assert!(d.until.is_some());
    assert!(protocol::dismiss(&store, By::Prompt, 0, None, now).is_err());
}

#[test]
fn skip_clears_without_allowing() {
    let (_d, store) = project_with(b"");
    let now = Ts::now();
    protocol::meet(&store, &push(), now).unwrap();
    protocol::skip(&store, None).unwrap();
    assert!(store.load().unwrap().state.junction.is_none());
    assert!(matches!(
        protocol::meet(&store, &push(), now).unwrap(),
        Met::Pending { .. }
    ));
    protocol::skip(&store, None).unwrap();
    assert!(protocol::skip(&store, None).is_err(), "nothing pending");
}

#[test]
fn transitions_follow_the_spec() {
    let (_d, store) = project_with(b"");
    let now = Ts::now();
    let e = protocol::set_mode(&store, Mode::Active, None, now).unwrap_err();
    assert!(e.to_string().contains("objective"), "{e}");
    let e = protocol::set_mode(&store, Mode::Done, None, now).unwrap_err();
    assert!(e.to_string().contains("nothing to complete"), "{e}");
    let t = protocol::set_mode(&store, Mode::Active, Some("ship it"), now).unwrap();
    assert!(
        t.changed && !t.warnings.is_empty(),
        "warns about the missing plan"
    );
    // Nothing happened: the quality gate refuses and leaves a quality_gate junction.
    let t = protocol::set_mode(&store, Mode::Done, None, now).unwrap();
    assert!(!t.changed);
    assert!(
        t.issues.iter().any(|i| i.contains("little activity")),
        "{:?}",
        t.issues
    );
    let s = store.load().unwrap().state;
    assert_eq!(s.mode(), Some(Mode::Active));
    assert_eq!(s.junction.as_ref().unwrap().kind, "quality_gate");
    // A person approves going ahead anyway: the next attempt passes, once.
    protocol::approve(&store, By::Terminal, None, now).unwrap();
    let t = protocol::set_mode(&store, Mode::Done, None, now).unwrap();
    assert!(t.changed, "{t:?}");
    assert_eq!(store.load().unwrap().state.mode(), Some(Mode::Done));
    // Stop in done archives and starts over in plan.
    let c = protocol::on_stop(&store, now).unwrap();
    assert!(c.archived);
    let s = store.load().unwrap().state;
    assert_eq!(s.mode(), Some(Mode::Plan));
    assert!(s.objective.is_none());
    let archive =
        std::fs::read_to_string(store.project_root().join(".proof/archive.jsonl")).unwrap();
    assert!(archive.contains("ship it"));
}

#[test]
fn an_approved_done_that_cannot_be_written_keeps_its_approval() {
    let (d, store) = project_with(b"");
    let now = Ts::now();
    protocol::set_mode(&store, Mode::Active, Some("ship it"), now).unwrap();
    assert!(
        !protocol::set_mode(&store, Mode::Done, None, now)
            .unwrap()
            .changed
    );
    protocol::approve(&store, By::Terminal, None, now).unwrap();
    let file = d.path().join(FILE_NAME);
    let active = "schema_version: 4\nmode: active\nobjective: ship it\n";
    // An allowance without `consumed` breaks an invariant: done could not be written back.
    std::fs::write(&file, format!("{active}allowances:\n  - fingerprint: x\n")).unwrap();
    let e = protocol::set_mode(&store, Mode::Done, None, now).unwrap_err();
    assert!(matches!(e, StateError::Invalid { .. }), "{e}");
    // So the approval was not used up: once the file is fixed, it still lets done through.
    std::fs::write(&file, active).unwrap();
    let t = protocol::set_mode(&store, Mode::Done, None, now).unwrap();
    assert!(t.changed, "{t:?}");
}

#[test]
fn an_unclean_exit_is_noticed_at_the_next_start() {
    let (_d, store) = project_with(b"");
    let now = Ts::now();
    protocol::set_mode(&store, Mode::Plan, None, now).unwrap();
    let s = protocol::on_session_start(&store, Some("s1"), 0, now).unwrap();
    assert!(s.unclean_previous.is_none());
    let e = crate::proof::Entry {
        timestamp: now.to_string(),
        tool: "Edit".into(),
        input_preview: "{}".into(),
        output_preview: String::new(),
        success: true,
        file_touched: Some("/p/x.rs".into()),
        diff_hash: None,
        error: None,
        duration_ms: None,
        session_id: Some("s1".into()),
        tool_use_id: None,
        wrote: std::collections::BTreeMap::new(),
    };
    crate::proof::append(store.project_root(), &e).unwrap();
    // s1 never ended; s2 starts.
    let s = protocol::on_session_start(&store, Some("s2"), 0, now).unwrap();
    let o = s.unclean_previous.expect("unclean exit noticed");
    assert_eq!(o.files_modified, vec!["/p/x.rs".to_string()]);
    let p = store
        .load()
        .unwrap()
        .state
        .progress
        .expect("progress captured");
    assert_eq!(p.tools_used, 1);
    assert!(p.last_edit_hash.is_some_and(|h| h.len() == 64));
    assert_eq!(p.last_tool_at.as_deref(), Some(now.to_string().as_str()));
    protocol::on_session_end(&store, now).unwrap();
    let s = protocol::on_session_start(&store, Some("s3"), 0, now).unwrap();
    assert!(s.unclean_previous.is_none(), "s2 ended cleanly");
}

#[test]
fn concurrent_meetings_use_one_allowance_once() {
    let (_d, store) = project_with(b"");
    let now = Ts::now();
    protocol::meet(&store, &push(), now).unwrap();
    protocol::approve(&store, By::Terminal, None, now).unwrap();
    let allowed: usize = std::thread::scope(|s| {
        let hs: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| {
                    matches!(
                        protocol::meet(&store, &push(), Ts::now()).unwrap(),
                        Met::Allowed { .. }
                    )
                })
            })
            .collect();
        hs.into_iter().map(|h| usize::from(h.join().unwrap())).sum()
    });
    assert_eq!(allowed, 1);
}

#[test]
fn grants_added_sees_new_and_reopened_allowances() {
    let before = State::new();
    let mut after = State::new();
    after.allowances.push(schema::Allowance {
        fingerprint: "ab".repeat(32),
        consumed: Some(false),
        ..Default::default()
    });
    assert_eq!(protocol::grants_added(&before, &after).len(), 1);
    let mut used = after.clone();
    used.allowances[0].consumed = Some(true);
    assert_eq!(
        protocol::grants_added(&used, &after).len(),
        1,
        "un-consuming grants again"
    );
    assert!(protocol::grants_added(&after, &used).is_empty());
}

#[test]
fn a_state_file_cut_at_any_byte_is_read_or_refused_with_a_message() {
    // The file as trail writes it, with a junction and a grant, cut at every offset: the reader
    // never panics, and a refusal always says why.
    let (_d, store) = project_with(b"");
    let now = Ts::now();
    protocol::set_mode(&store, Mode::Active, Some("cut me"), now).unwrap();
    protocol::meet(&store, &push(), now).unwrap();
    protocol::approve(&store, By::Terminal, None, now).unwrap();
    let full = std::fs::read(store.path()).unwrap();
    let path = store.path();
    for cut in 0..full.len() {
        if let Err(e) = parse(&path, &full[..cut]) {
            assert!(
                e.to_string().contains("active_context.yaml"),
                "cut at {cut}: {e}"
            );
        }
    }
    let dist = corpus()
        .into_iter()
        .find(|(n, _)| n.starts_with("dist"))
        .unwrap()
        .1;
    for cut in 0..dist.len() {
        let _ = parse(&path, &dist[..cut]);
    }
}

#[test]
fn a_view_broken_by_hand_stops_no_decision_and_is_left_alone() {
    let (_d, store) = project_with(b"");
    let now = Ts::now();
    protocol::meet(&store, &push(), now).unwrap();
    protocol::approve(&store, By::Terminal, None, now).unwrap();
    // Someone breaks an invariant by hand before the retry.
    let text = std::fs::read_to_string(store.path()).unwrap();
    let broken = text.replace("schema_version: 4\n", "schema_version: 4\nmode: sideways\n");
    std::fs::write(store.path(), &broken).unwrap();
    // The approval is in trail's records: the retry runs once, the next asks again.
    assert!(matches!(
        protocol::meet(&store, &push(), now).unwrap(),
        Met::Allowed { .. }
    ));
    assert!(matches!(
        protocol::meet(&store, &push(), now).unwrap(),
        Met::Pending { .. }
    ));
    assert_eq!(std::fs::read_to_string(store.path()).unwrap(), broken);
}
