//! The gate's context every gate fuzz target runs in: a project, a home, no temporary
//! directory, one trusted installer.
use trail_gate::{Context, Places};

pub fn context() -> Context {
    Context {
        places: Places {
            project_root: "/work/proj".into(),
            home: "/home/dev".into(),
            cwd: "/work/proj".into(),
            tmpdir: None,
            trail_home: None,
            secrets_dir: None,
        },
        ignored: |_, _| false,
        extra: Vec::new(),
        trusted_installers: vec!["sh.rustup.rs".into()],
        line: Default::default(),
        confined: false,
    }
}
