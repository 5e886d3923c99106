//! Any text as a PowerShell command line: the reader and the translator always reach a
//! verdict, never panic, never hang (issue 23: no fuzz target reached `powershell::translate`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_gate::{Context, Places, powershell};

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else { return };
    let ctx = Context {
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
    };
    let _ = powershell::evaluate(line, &ctx);
});
