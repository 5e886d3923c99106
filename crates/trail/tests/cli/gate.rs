//! `trail gate`: a verdict per command line, no state touched.

use crate::common::*;

#[test]
fn gate_prints_verdicts_and_touches_no_state() {
    let env = TestEnv::new();
    let cases = [
        ("rm -rf ~", "block", Some("rm-recursive-critical")),
        ("git push --force origin main", "junction", Some("git-push")),
        ("echo \"rm -rf /\"", "allow", None),
        ("bash -c 'trail approve'", "block", Some("self-approval")),
    ];
    for (cmd, verdict, rule) in cases {
        let out = env.run(&["gate", "--json", "--", cmd]);
        assert_eq!(code(&out), 0, "{cmd}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["verdict"], verdict, "{cmd}: {v}");
        assert_eq!(v["rule"].as_str(), rule, "{cmd}: {v}");
    }
    // Words after `--` are one command line too.
    let out = env.ok(&["gate", "--", "rm", "-rf", "/"]);
    assert!(out.starts_with("block"), "{out}");
    assert!(!env.trail_home.exists(), "the gate wrote state");
    assert_eq!(code(&env.run(&["gate"])), 2);
}
