//! No secret reaches disk: not the stream, not the index, not an archive.

use crate::common::*;

const SECRETS: &[&str] = &[
    "ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ",
    "AKIAIOSFODNN7EXAMPLQ",
    "sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm-_Q1w2E3r4T5y6U7i8O9p0AaSsDdFfGg",
    "xoxb-2814567890123-2814567890456-AbCdEfGhIjKlMnOpQrStUvWx",
    "glpat-Ab3De5Gh7Jk9Mn1Pq3St",
];

#[test]
fn secrets_in_every_field_are_redacted_everywhere_and_kept_in_the_secrets_file() {
    let env = TestEnv::new().env("TRAIL_ROTATE_BYTES", "3KB");
    let s = |i: usize| SECRETS[i % SECRETS.len()];
    for round in 0..3 {
        let summary = format!("deploy with token {}", s(round));
        let next = format!("rotate {}", s(round + 1));
        let defer = format!("revoke {}", s(round + 2));
        let fact = format!("export GITLAB_TOKEN={}", s(round + 3));
        let file = format!("/tmp/{}.txt", s(round + 4));
        let topic = format!("topic {}", s(round));
        let shift_b = format!("key {}", s(round + 1));
        env.ok(&[
            "pulse",
            "--proj",
            "p",
            "--topic",
            &topic,
            "--intent",
            "continue",
            "--summary",
            &summary,
            "--next",
            &next,
            "--defer",
            &defer,
            "--fact",
            &fact,
            "--file",
            &file,
            "--tag",
            s(round + 2),
            "--shift-before",
            &shift_b,
            "--shift-after",
            "fine",
        ]);
        let stdin = format!(
            "---\nschema: ledgerpulse/v1\ntype: pulse\nfocus:\n  - proj: p\n    topic: \"{}\"\nnext: [\"{}\"]\n---\nbody line with {}\n",
            s(round + 3),
            s(round + 4),
            s(round)
        );
        let out = env.run_stdin(&["pulse", "--stdin"], &stdin);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    env.ok(&["log", "--count"]); // writes the index
    env.ok(&["rotate", "--force"]);
    env.ok(&["log", "--count"]);
    let files = files_under(&env.trail_home);
    assert!(
        files
            .iter()
            .any(|p| p.to_string_lossy().contains("archive")),
        "{files:?}"
    );
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        for secret in SECRETS {
            assert!(!text.contains(secret), "{} holds {secret}", f.display());
        }
    }
    let stream = std::fs::read_to_string(env.stream()).unwrap()
        + &files
            .iter()
            .filter(|p| p.to_string_lossy().ends_with(".log.md"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect::<String>();
    assert!(stream.contains("${secret:"), "no references written");
    let kept = std::fs::read_to_string(env.secrets_file()).unwrap();
    for secret in SECRETS {
        assert!(
            kept.contains(secret),
            "{secret} not kept in {}",
            env.secrets_file().display()
        );
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(env.secrets_file())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);
    let mode = std::fs::metadata(env.home.join(".secrets"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o700);
}

#[test]
fn redact_filters_stdin_to_stdout() {
    let env = TestEnv::new();
    let input = format!(
        "line one\ncurl -H 'Authorization: Bearer {}' x\n",
        SECRETS[0]
    );
    let out = env.run_stdin(&["redact"], &input);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(
        !text.contains(SECRETS[0]) && text.contains("${secret:") && text.starts_with("line one\n"),
        "{text}"
    );
    assert!(
        std::fs::read_to_string(env.secrets_file())
            .unwrap()
            .contains(SECRETS[0])
    );
    let clean = env.run_stdin(&["redact"], "nothing to see here\n");
    assert_eq!(stdout(&clean), "nothing to see here\n");
}
