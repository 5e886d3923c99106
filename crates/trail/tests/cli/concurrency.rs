//! Many writers at once.

use std::process::Stdio;

use crate::common::*;

#[test]
fn sixteen_processes_times_250_pulses_make_4000_whole_ordered_records() {
    let env = TestEnv::new();
    std::thread::scope(|s| {
        for w in 0..16 {
            let env = &env;
            s.spawn(move || {
                for i in 0..250 {
                    let status = env
                        .cmd(&[
                            "pulse",
                            "--proj",
                            "load",
                            "--summary",
                            &format!("w{w}-i{i}"),
                        ])
                        .stdout(Stdio::null())
                        .status()
                        .unwrap();
                    assert!(status.success());
                }
            });
        }
    });
    let out = env.run(&["verify", "--json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["records"], 4000);
    assert_eq!(v["sealed"], 4000);
    assert_eq!(env.ok(&["log", "--count"]).trim(), "4000");
    let text = std::fs::read_to_string(env.stream()).unwrap();
    for w in 0..16 {
        for i in 0..250 {
            assert_eq!(
                occurrences(&text, &format!("\"w{w}-i{i}\"")),
                1,
                "w{w}-i{i}"
            );
        }
    }
    // Strictly increasing timestamps (verify checks this too; here it is checked directly).
    let ts: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("ts: "))
        .collect();
    assert_eq!(ts.len(), 4000);
    assert!(ts.windows(2).all(|w| w[0] < w[1]));
}
