//! Rules a project or person adds in configuration (`[[gate.rules]]` in `.trail/config.toml` or
//! `~/.config/trail/config.toml`). They can only add restrictions — block or junction, never
//! allow — and, like the built-in ones, carry examples that must and must not match, checked by
//! [`check`] whenever a person runs `trail config` or `trail gate` (never on the hook path, where
//! a rule whose examples fail is still applied: it can only add restrictions).
//!
//! ```toml
//! [[gate.rules]]
//! id = "terraform-apply"
//! verdict = "junction"
//! reason = "terraform apply changes real infrastructure"
//! command = "terraform"
//! subcommand = "apply"
//! must_match = ["terraform apply", "sudo terraform apply -auto-approve"]
//! must_not_match = ["terraform plan"]
//! ```

use super::paths::Places;
use super::rules::Cmd;

pub use trail_zones::custom::{RuleCheckError, UserRule, UserVerdict};

/// Whether configured rule `rule` names command `c`.
pub(crate) fn matches(rule: &UserRule, c: &Cmd<'_>) -> bool {
    if c.name != rule.command {
        return false;
    }
    if let Some(sub) = &rule.subcommand
        && c.sub() != Some(sub.as_str())
    {
        return false;
    }
    rule.args_any.is_empty() || c.any_word_ci(&rule.args_any)
}

/// Checks a rule's examples through the whole gate (wrappers, chains and shells included): each
/// `must_match` example must trigger it, no `must_not_match` example may.
pub fn check(rule: &UserRule) -> Result<(), RuleCheckError> {
    if rule.id.trim().is_empty() || rule.command.trim().is_empty() {
        return Err(RuleCheckError::Incomplete);
    }
    if rule.must_match.is_empty() {
        return Err(RuleCheckError::NoExample {
            id: rule.id.clone(),
        });
    }
    let ctx = super::Context {
        places: Places {
            project_root: "/nonexistent/project".into(),
            home: "/nonexistent/home".into(),
            cwd: "/nonexistent/project".into(),
            tmpdir: None,
            trail_home: None,
            secrets_dir: None,
        },
        ignored: |_, _| false,
        extra: vec![rule.clone()],
        trusted_installers: Vec::new(),
        confined: false,
        line: super::Line::default(),
    };
    let hits = |ex: &str| {
        super::findings(ex, &ctx)
            .iter()
            .any(|d| d.rule.as_deref() == Some(rule.id.as_str()))
    };
    for ex in &rule.must_match {
        if !hits(ex) {
            return Err(RuleCheckError::Missed {
                id: rule.id.clone(),
                example: ex.clone(),
            });
        }
    }
    for ex in &rule.must_not_match {
        if hits(ex) {
            return Err(RuleCheckError::Caught {
                id: rule.id.clone(),
                example: ex.clone(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terraform() -> UserRule {
        UserRule {
            id: "terraform-apply".into(),
            verdict: UserVerdict::Junction,
            reason: "changes real infrastructure".into(),
            command: "terraform".into(),
            subcommand: Some("apply".into()),
            args_any: vec![],
            must_match: vec![
                "terraform apply".into(),
                "cd infra && sudo terraform apply -auto-approve".into(),
                "bash -c 'terraform apply'".into(),
            ],
            must_not_match: vec!["terraform plan".into(), "echo terraform apply".into()],
        }
    }

    #[test]
    fn a_configured_rule_is_checked_and_applied_through_wrappers() {
        assert_eq!(check(&terraform()), Ok(()));
        let mut wrong = terraform();
        wrong
            .must_not_match
            .push("terraform apply -target=x".into());
        assert_eq!(
            check(&wrong),
            Err(RuleCheckError::Caught {
                id: "terraform-apply".into(),
                example: "terraform apply -target=x".into()
            })
        );
        let mut none = terraform();
        none.must_match.clear();
        assert_eq!(
            check(&none).map_err(|e| e.to_string()),
            Err(
                "gate rule `terraform-apply` has no `must_match` example: give at least one \
                 command it must catch"
                    .into()
            )
        );
        let mut narrow = terraform();
        narrow.args_any = vec!["-AUTO-APPROVE".into()];
        narrow.must_match = vec!["terraform apply -auto-approve".into()];
        narrow.must_not_match = vec!["terraform apply".into()];
        assert_eq!(check(&narrow), Ok(()));
    }

    #[test]
    fn verdicts_can_only_tighten() {
        let r: Result<UserRule, _> = toml::from_str(
            "id='x'\nverdict='allow'\nreason='r'\ncommand='ls'\nmust_match=['ls']\n",
        );
        assert!(r.is_err(), "allow is not a verdict a rule may give");
    }
}
