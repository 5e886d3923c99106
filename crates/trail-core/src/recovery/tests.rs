use std::path::Path;

use super::*;
use crate::ledger::rehydrate::{self, Thread};

use crate::testing::o200k;

fn data(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(rel),
    )
    .unwrap()
}

fn state_of(rel: &str) -> State {
    let text = data(rel);
    crate::state::parse(Path::new(rel), text.as_bytes()).unwrap()
}

fn decision(i: usize, title: &str) -> Decision {
    Decision {
        ts: crate::time::Ts::parse_strict(&format!("2026-11-2{i}T10:3{i}:00.000000Z")).unwrap(),
        decision: crate::trajectory::Decision {
            id: format!("d-{i:04x}a9"),
            title: title.into(),
            decision: format!("do it the way the title says ({i})"),
            rationale: format!(
                "rationale {i}: because the journal is the truth and files are views"
            ),
            evidence: vec![crate::trajectory::Evidence {
                citation: format!("[${{PROJECT_ROOT}}/crates/trail-core/src/heal/mod.rs:{i}0]"),
                quote: Some("fn heal()".into()),
                status: Some(crate::cite::Status::Verified),
            }],
            tests: Vec::new(),
            bead: None,
        },
    }
}

/// Decisions as an agent writes them: long titles, identifiers, citations.
fn decisions() -> Vec<Decision> {
    [
        "Read files back from git with cat-file blob, never checkout, so smudge filters never run",
        "Count tokens with an estimate held above o200k by tests; tiktoken-rs only in dev-dependencies",
        "A one-word ghost feature with no synonym is UNVERIFIED: its two queries would be the same",
        "Red zone in strict mode refuses Edit/Write/MultiEdit/apply_patch until a checkpoint passes",
        "NOTES.md is a view; the Decision Log is rebuilt from decision records in the pulse stream",
    ]
    .iter()
    .enumerate()
    .map(|(i, t)| decision(i, t))
    .rev()
    .collect()
}

/// Threads as a busy stream gives them back.
fn threads_at(level: Level) -> String {
    let thread = |i: usize| Thread {
        proj: "trail".into(),
        topic: format!("topic {i} with a longer name"),
        last_ts: "2026-11-26T10:00:00.000000Z".into(),
        intent: Some(crate::ledger::Intent {
            primary: "continue".into(),
            summary: format!("wire the attention budget into the prompt hook, part {i}"),
        }),
        status: None,
        next: vec![format!(
            "write the CLI test for trail budget at the red zone ({i})"
        )],
        deferred: vec![],
        model_shifts: vec![],
        facts: vec![format!(
            "fact {i}: the transcript's latest usage is the context size"
        )],
        files: vec!["crates/trail/src/hook/prompt.rs".into()],
    };
    let state = rehydrate::State {
        threads: (0..6).map(thread).collect(),
        parked: vec![],
        records_read: 6,
        skipped_damaged: 0,
        stopped: rehydrate::StopReason::Start,
        latest_ts: None,
    };
    rehydrate::render(&state, level)
}

fn threads() -> String {
    threads_at(Level::Standard)
}

/// Every realistic state: the corpus state files and NOTES.md files, alone and together.
fn states() -> Vec<(String, Option<State>, Active)> {
    let mut out = Vec::new();
    let notes_files = [
        "loa/loa_loa-grimoire_NOTES.md",
        "loa/henlo_faucet_grimoires_loa_NOTES.md",
        "loa/loa_.claude_templates_NOTES.md.template",
    ];
    let state_files = [
        "state/active_context.HEAD-18329552.yaml",
        "state/active_context.first-commit-e29d5145.yaml",
        "state/active_context.mid-c0cc3516.yaml",
        "state/dist_.claude_active_context.yaml",
        "state/templates_active_context_v2.yaml",
        "state/templates_active_context_v7.yaml",
    ];
    // The template filled in the way its guidelines ask, with long values.
    let filled = data(notes_files[2])
        .replace("[Task ID] - [Description]", "Sprint-3 Task 3.4 - Implement the synthesis checkpoint with all seven steps and their remedies")
        .replace("- **Blocked By**: None", "- **Blocked By**: branch decide must merge trail checkpoint before the red zone can be lifted")
        .replace("[Specific next step to take]", "write the CLI test for the strict red zone refusing an Edit")
        .replace("[Where we left off, what's next]", "grounding and negative grounding done; EDD verification and the handoff entry remain");
    let mut notes_texts: Vec<(String, String)> = notes_files
        .iter()
        .map(|f| (f.to_string(), data(f)))
        .collect();
    notes_texts.push(("template, filled".into(), filled));
    for (nname, ntext) in &notes_texts {
        let active = crate::notes::active::read(ntext);
        out.push((nname.clone(), None, active.clone()));
        for s in state_files {
            out.push((format!("{s} + {nname}"), Some(state_of(s)), active.clone()));
        }
    }
    out
}

#[test]
fn level_one_is_at_most_100_o200k_tokens_on_realistic_states() {
    let decisions = decisions();
    let threads = threads();
    let mut checked = 0;
    for (name, state, active) in states() {
        let b = brief(state.as_ref(), &active, None, &decisions);
        for threads in [threads.as_str(), ""] {
            let text = render(
                Level::Brief,
                &Parts {
                    brief: &b,
                    more: &[],
                    query: None,
                    bead: None,
                    threads,
                },
            );
            let (est, real) = (estimate(&text), o200k(&text));
            assert!(real <= 100, "{name}: {real} o200k tokens:\n{text}");
            assert!(est <= 100, "{name}: estimated {est}:\n{text}");
            // It says what matters first, and spends its budget.
            assert!(text.contains("decisions: ["), "{name}:\n{text}");
            if let Some(o) = &b.objective {
                let start: String = o.chars().take(10).collect();
                assert!(text.contains(&start), "{name}: objective lost:\n{text}");
            }
            assert!(
                real > 40,
                "{name}: level 1 wastes its budget ({real}):\n{text}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * 4 * 7);
}

#[test]
fn the_brief_reads_plan_notes_and_decisions_with_the_state_file_first() {
    let state = state_of("state/active_context.HEAD-18329552.yaml");
    let active = crate::notes::active::read(&data("loa/henlo_faucet_grimoires_loa_NOTES.md"));
    let b = brief(Some(&state), &active, None, &decisions());
    assert_eq!(
        b.objective.as_deref(),
        Some("Smart Forking v1.2 - Full-session summaries and comprehensive index coverage")
    );
    // Henlo's Blockers & Dependencies list has one open item.
    assert_eq!(
        b.blockers,
        ["WalletConnect project ID needed before deploy (Task 4.3)"]
    );
    assert_eq!(b.decisions.len(), 3);
    assert!(
        b.decisions[0].starts_with("[d-0004a9] NOTES.md is a view"),
        "{:?}",
        b.decisions
    );
    assert!(
        b.decisions[1].starts_with("[d-0003a9] Red zone"),
        "{:?}",
        b.decisions
    );
    // Without a state file, NOTES.md's Active Context speaks.
    let prd = "### Active Context\n- **Current Task**: wire heal\n- **Reasoning State**: tests pass\n- **Next Action**: SessionStart\n";
    let b = brief(None, &crate::notes::active::read(prd), None, &[]);
    assert_eq!(
        (
            b.objective.as_deref(),
            b.current_step.as_deref(),
            b.next_step.as_deref()
        ),
        (Some("wire heal"), Some("tests pass"), Some("SessionStart"))
    );
}

#[test]
fn plan_steps_give_the_current_and_the_next() {
    let mut s = State::new();
    s.objective = Some("ship".into());
    for (d, st) in [
        ("one", "completed"),
        ("two", "in_progress"),
        ("three", "blocked"),
        ("four", "pending"),
    ] {
        s.plan.push(crate::state::schema::Step {
            description: d.into(),
            status: Some(st.into()),
            ..Default::default()
        });
    }
    let b = brief(Some(&s), &Active::default(), None, &[]);
    assert_eq!(b.current_step.as_deref(), Some("2/4 two"));
    assert_eq!(b.next_step.as_deref(), Some("4/4 four"));
    assert_eq!(b.blockers, ["three"]);
}

#[test]
fn level_two_retrieves_decisions_for_a_query_within_500_o200k_tokens() {
    let all = decisions();
    let found = retrieve(&all, "git checkout smudge", 5);
    assert_eq!(found.len(), 1);
    assert!(
        found[0]
            .decision
            .title
            .starts_with("Read files back from git")
    );
    assert!(retrieve(&all, "zebra", 5).is_empty());
    let bead = Shown {
        id: "bd-x7y8".into(),
        program: "br".into(),
        text: "bd-x7y8 [in_progress] Attention budget\n".repeat(40),
    };
    for (name, state, active) in states() {
        let b = brief(state.as_ref(), &active, None, &all);
        let more = retrieve(&all, "token estimate o200k zone", 5);
        let text = render(
            Level::Standard,
            &Parts {
                brief: &b,
                more: &more,
                query: Some("token estimate o200k zone"),
                bead: Some(&bead),
                threads: &threads(),
            },
        );
        let real = o200k(&text);
        assert!(real <= 500, "{name}: {real}:\n{text}");
        assert!(
            text.contains("decisions for \"token estimate o200k zone\":"),
            "{name}:\n{text}"
        );
        assert!(text.contains("bead bd-x7y8 (`br show`)"), "{name}:\n{text}");
        assert!(real > 250, "{name}: level 2 wastes its budget ({real})");
    }
}

#[test]
fn level_three_holds_everything() {
    let all = decisions();
    let more: Vec<&Decision> = all.iter().collect();
    let b = brief(None, &Active::default(), None, &all);
    let text = render(
        Level::Full,
        &Parts {
            brief: &b,
            more: &more,
            query: None,
            bead: None,
            threads: &threads_at(Level::Full),
        },
    );
    for d in &all {
        for f in d.facts() {
            assert!(text.contains(f.as_str()), "{f}");
        }
    }
    assert!(text.contains("topic 5 with a longer name"));
}
