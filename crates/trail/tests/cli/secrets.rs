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

/// A value that looks like a key but is a placeholder is kept, and the person is told so on
/// stderr (issue 20), by `trail redact` and by `trail remember`; a real key is not listed.
#[test]
fn a_placeholder_kept_as_written_is_said_on_stderr() {
    let env = TestEnv::new();
    let out = env.run_stdin(&["redact"], "export OPENAI_API_KEY=your-api-key-here\n");
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "export OPENAI_API_KEY=your-api-key-here\n");
    let err = stderr(&out);
    assert!(
        err.contains("`your-api-key-here`") && err.contains("placeholder"),
        "{err}"
    );
    let clean = env.run_stdin(&["redact"], "nothing to see here\n");
    assert!(
        !stderr(&clean).contains("placeholder"),
        "{}",
        stderr(&clean)
    );
    let real = env.run_stdin(
        &["redact"],
        &format!("curl -H 'Authorization: Bearer {}' x\n", SECRETS[0]),
    );
    assert!(!stderr(&real).contains("placeholder"), "{}", stderr(&real));

    let remembered = env.run(&[
        "remember",
        "the key goes in STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxx",
    ]);
    assert_eq!(code(&remembered), 0, "{}", stderr(&remembered));
    assert!(
        stderr(&remembered).contains("placeholder"),
        "{}",
        stderr(&remembered)
    );
}

/// The body of a (fake) private key, its two lines joined by a real line break.
const KEY_BODY: &str = "mdVPlW354z9gY69gmsXlO85zSLAAUkNEbCiW69DD48gKSdUkz+Pe/pIlRvnZzM6M\nr8bpf1iIFYqNfMxhM8nAuO77O0+bDq1ld7U07UGWwALKYnWKFonOWsUQO2WUheVC";

/// The `name="value"` lines of the secrets file, each value unescaped (the store writes values
/// as JSON strings).
fn kept(env: &TestEnv) -> Vec<(String, String)> {
    std::fs::read_to_string(env.secrets_file())
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (name, value) = l.split_once('=').unwrap();
            (name.to_string(), serde_json::from_str(value).unwrap())
        })
        .collect()
}

/// Found by reading `~/.secrets/trail.env` after a `cat id_rsa` ran under the hooks: PostToolUse
/// redacted the tool's response as its JSON text, so the key it printed was found with `\n` for
/// its line breaks, kept in that escaped form (useless to look up), and, under another name than
/// the same key in the command, kept twice.
#[test]
fn post_tool_use_keeps_a_secret_once_and_as_written() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let key = format!("-----BEGIN RSA PRIVATE KEY-----\n{KEY_BODY}\n-----END RSA PRIVATE KEY-----");
    hook(
        &env,
        serde_json::json!({
            "hook_event_name": "PostToolUse", "session_id": "s1", "tool_name": "Bash",
            "tool_input": {"command": format!("printf '%s\\n' '{key}' > id_rsa && cat id_rsa")},
            "tool_response": {"stdout": format!("{key}\n"), "stderr": "", "interrupted": false},
            "tool_use_id": "t1",
        }),
    );
    let kept = kept(&env);
    assert_eq!(kept.len(), 1, "one key, one line: {kept:?}");
    let (name, value) = &kept[0];
    assert_eq!(value, KEY_BODY, "kept as written, not JSON-escaped");
    let log = std::fs::read_to_string(env.cwd.join(".proof/session_log.jsonl")).unwrap();
    let line: serde_json::Value = serde_json::from_str(log.trim()).unwrap();
    let reference = format!("${{secret:{name}}}");
    for field in ["input_preview", "output_preview"] {
        let text = line[field].as_str().unwrap();
        assert!(text.contains(&reference), "{field}: {text}");
        assert!(!text.contains("mdVPlW354z9"), "{field}: {text}");
    }
}

#[test]
fn a_private_span_is_never_stored_printed_or_synced() {
    let env = TestEnv::new();
    env.ok(&[
        "pulse",
        "--proj",
        "shop",
        "--summary",
        "call the vendor <private>at home on 555-0142</private> tomorrow",
        "--fact",
        "staging is <PRIVATE>10.20.30.40",
    ]);
    let stream = String::from_utf8(stream_bytes(&env)).unwrap();
    for leaked in ["555-0142", "10.20.30.40"] {
        assert!(!stream.contains(leaked), "{leaked} reached the stream");
        assert!(
            !std::fs::read_to_string(env.secrets_file())
                .unwrap_or_default()
                .contains(leaked)
        );
    }
    assert!(
        stream.contains("call the vendor [private] tomorrow"),
        "{stream}"
    );
    let out = env.run_stdin(&["redact"], "a <private>b</private> c\n");
    assert_eq!(stdout(&out), "a [private] c\n");
}
