//! Any text as a command line: the gate always reaches a verdict, never panics, never hangs.
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_gate::{Context, Places, evaluate};

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
    let _ = evaluate(line, &ctx);
});
