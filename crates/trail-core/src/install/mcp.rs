//! trail's MCP server registered with Claude Code: the project's `.mcp.json` (what `claude mcp
//! add --scope project` writes), `{"mcpServers": {"trail": {"type": "stdio", "command": "…",
//! "args": ["mcp"]}}}`. Merged like the hooks: every other server and key stays as it was (in
//! its order), a second install changes nothing, and uninstall removes trail's entry only.
//!
//! The entry is trail's by its name and its `args` (`["mcp"]`): an entry named `trail` that
//! runs something else is someone's own, and is left alone by both.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::InstallError;
use super::claude::{kind, load, save};

/// The server's name in the host's config: its tools reach the model as `mcp__trail__search`.
pub const SERVER_NAME: &str = "trail";

/// The project's MCP config for Claude Code.
pub fn claude_path(project_root: &Path) -> PathBuf {
    project_root.join(".mcp.json")
}

fn servers<'a>(
    config: &'a mut Map<String, Value>,
    path: &Path,
) -> Result<&'a mut Map<String, Value>, InstallError> {
    let servers = config
        .entry("mcpServers")
        .or_insert_with(|| Value::Object(Map::new()));
    let found = kind(servers);
    servers.as_object_mut().ok_or_else(|| InstallError::Shape {
        path: path.into(),
        field: "mcpServers".into(),
        found: found.into(),
    })
}

fn is_ours(entry: &Value) -> bool {
    entry.get("args") == Some(&json!(["mcp"]))
}

/// Register `program mcp` as the server `trail`. Returns whether the file changed.
pub fn install(path: &Path, program: &str) -> Result<bool, InstallError> {
    let mut config = load(path)?;
    let servers = servers(&mut config, path)?;
    let wanted = json!({ "type": "stdio", "command": program, "args": ["mcp"] });
    match servers.get(SERVER_NAME) {
        Some(v) if *v == wanted => return Ok(false),
        Some(v) if !is_ours(v) => {
            return Err(InstallError::Foreign {
                path: path.into(),
                what: "a config whose server `trail` runs something else",
            });
        }
        _ => {}
    }
    servers.insert(SERVER_NAME.into(), wanted);
    save(path, &config)?;
    Ok(true)
}

/// Remove trail's entry; the file too when nothing else was in it.
pub fn uninstall(path: &Path) -> Result<bool, InstallError> {
    if !path.exists() {
        return Ok(false);
    }
    let mut config = load(path)?;
    let servers = servers(&mut config, path)?;
    if !servers.get(SERVER_NAME).is_some_and(is_ours) {
        return Ok(false);
    }
    servers.remove(SERVER_NAME);
    let empty = servers.is_empty();
    if empty && config.len() == 1 {
        std::fs::remove_file(path).map_err(|source| InstallError::Io {
            action: "remove",
            path: path.into(),
            source,
        })?;
    } else {
        save(path, &config)?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_merges_twice_without_change_and_uninstall_removes_only_trail() {
        let dir = tempfile::tempdir().unwrap();
        let path = claude_path(dir.path());
        std::fs::write(
            &path,
            r#"{"mcpServers":{"other":{"command":"x","args":[]}},"z":1}"#,
        )
        .unwrap();
        assert!(install(&path, "/bin/trail").unwrap());
        assert!(!install(&path, "/bin/trail").unwrap());
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["mcpServers"]["trail"]["args"], json!(["mcp"]));
        assert_eq!(v["mcpServers"]["other"]["command"], "x");
        // Reinstalled from elsewhere: the entry follows the binary.
        assert!(install(&path, "/usr/bin/trail").unwrap());
        assert!(uninstall(&path).unwrap());
        assert!(!uninstall(&path).unwrap());
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(
            v,
            json!({"mcpServers":{"other":{"command":"x","args":[]}},"z":1})
        );
    }

    #[test]
    fn a_file_trail_created_goes_and_someone_elses_trail_entry_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = claude_path(dir.path());
        assert!(install(&path, "/bin/trail").unwrap());
        assert!(uninstall(&path).unwrap());
        assert!(!path.exists());
        let theirs = r#"{"mcpServers":{"trail":{"command":"npx","args":["trail-server"]}}}"#;
        std::fs::write(&path, theirs).unwrap();
        assert!(matches!(
            install(&path, "/bin/trail"),
            Err(InstallError::Foreign { .. })
        ));
        assert!(!uninstall(&path).unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
        std::fs::write(&path, "[1]").unwrap();
        assert!(matches!(
            install(&path, "/bin/trail"),
            Err(InstallError::Shape { .. })
        ));
    }
}
