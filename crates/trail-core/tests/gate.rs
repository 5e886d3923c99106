//! The gate against its rule table, a labelled corpus of commands, and the property that
//! wrapping or chaining a command never lowers its verdict.

use std::path::Path;

use proptest::prelude::*;
use trail_core::gate::rules::RULES;
use trail_core::gate::{Context, Places, Verdict, evaluate, findings};

fn ctx() -> Context {
    Context {
        places: Places {
            project_root: "/work/proj".into(),
            home: "/home/dev".into(),
            cwd: "/work/proj".into(),
            tmpdir: Some("/run/user/1000/tmp".into()),
            trail_home: None,
            secrets_dir: None,
        },
        // Stands in for `git check-ignore`: build output is ignored.
        ignored: |places, path| {
            path.strip_prefix(&places.project_root).is_ok_and(|rel| {
                rel.components().next().is_some_and(|c| {
                    matches!(
                        c.as_os_str().to_str(),
                        Some("target" | "build" | "dist" | "node_modules")
                    )
                })
            })
        },
        extra: Vec::new(),
    }
}

fn labels() -> Vec<(Verdict, String)> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gate-labels.txt"),
    )
    .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (v, cmd) = l.split_once('\t').unwrap();
            let v = match v {
                "block" => Verdict::Block,
                "junction" => Verdict::Junction,
                "allow" => Verdict::Allow,
                other => panic!("bad label {other}"),
            };
            (v, cmd.replace("\\n", "\n"))
        })
        .collect()
}

#[test]
fn every_rule_matches_its_examples_and_only_them() {
    let ctx = ctx();
    for rule in RULES {
        for ex in rule.must_match {
            let f = findings(ex, &ctx);
            assert!(
                f.iter().any(|d| d.rule.as_deref() == Some(rule.id)),
                "rule {} should match {ex:?}; found {f:?}",
                rule.id
            );
            assert!(evaluate(ex, &ctx).verdict >= rule.verdict, "{ex}");
        }
        for ex in rule.must_not_match {
            let f = findings(ex, &ctx);
            assert!(
                !f.iter().any(|d| d.rule.as_deref() == Some(rule.id)),
                "rule {} should not match {ex:?}",
                rule.id
            );
        }
    }
}

#[test]
fn labelled_commands_get_their_verdicts() {
    let ctx = ctx();
    let all = labels();
    assert!(all.len() >= 150, "only {} labelled commands", all.len());
    let mut wrong = Vec::new();
    for (want, cmd) in &all {
        let got = evaluate(cmd, &ctx);
        if got.verdict != *want {
            wrong.push(format!(
                "{cmd:?}: want {want:?}, got {:?} ({:?}: {})",
                got.verdict, got.rule, got.reason
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        all.len(),
        wrong.join("\n")
    );
}

#[test]
fn verdicts_say_why() {
    let d = evaluate("git push origin main", &ctx());
    assert_eq!(d.verdict, Verdict::Junction);
    assert!(d.reason.contains("remote"), "{}", d.reason);
    let d = evaluate("echo 'unterminated", &ctx());
    assert_eq!(d.rule.as_deref(), Some("unparseable"));
}

fn wrap(cmd: &str, how: usize) -> String {
    let q = cmd.replace('\'', r"'\''");
    // A prefix wrapper runs one simple command: a compound one goes through a shell, as a
    // person would write it (`sudo if …` is a syntax error in bash).
    let compound = ["if ", "for ", "while ", "until ", "case ", "{", "(", "!"]
        .iter()
        .any(|k| cmd.starts_with(k))
        || cmd.contains([';', '|', '&']);
    let simple = if compound {
        format!("bash -c '{q}'")
    } else {
        cmd.to_string()
    };
    match how {
        0 => format!("sudo {simple}"),
        1 => format!("bash -c '{q}'"),
        2 => format!("echo start; {cmd}"),
        3 => format!("true && {cmd}"),
        4 => format!("( {cmd} )"),
        5 => format!("{{ {cmd}; }}"),
        6 => format!("echo $( {cmd} )"),
        7 => format!("nice -n 5 {simple}"),
        8 => format!("if true; then {cmd}; fi"),
        9 => format!("timeout 30 {simple}"),
        10 => format!("env A=1 {simple}"),
        11 => format!("ls | {simple}"),
        12 => format!("sh -c '{q}' && echo done"),
        _ => format!("for i in 1; do {cmd}; done"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn wrapping_or_chaining_never_lowers_a_verdict(
        pick in any::<prop::sample::Index>(),
        layers in prop::collection::vec(0usize..14, 1..3),
    ) {
        let ctx = ctx();
        let risky: Vec<(Verdict, String)> = labels()
            .into_iter()
            // Heredocs, syntax errors and function definitions do not survive having words put in
            // front of them (bash itself rejects `sudo f() { …; }`); the labels cover them.
            .filter(|(v, c)| {
                *v != Verdict::Allow
                    && !c.contains('\n')
                    && !c.contains("()")
                    && !c.contains("unterminated")
                    && c != "if then fi"
            })
            .collect();
        let (_, cmd) = &risky[pick.index(risky.len())];
        let base = evaluate(cmd, &ctx).verdict;
        let mut wrapped = cmd.clone();
        for how in layers {
            wrapped = wrap(&wrapped, how);
        }
        let got = evaluate(&wrapped, &ctx).verdict;
        prop_assert!(got >= base, "{cmd:?} is {base:?} but {wrapped:?} is {got:?}");
    }
}
