//! `trail search`'s query parser on any text (the first line; the rest is a haystack): no
//! panic, every term a matcher finding its own term, the literal fast path finding exactly what
//! the regex finds, and a regex query either compiling or refused with a reason. The fast
//! timestamp reader search uses agrees with the strict one on whatever it accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use trail_core::search::query::{self, Query};
use trail_core::time::Ts;

fuzz_target!(|data: &[u8]| {
    let (line, hay) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b""[..]),
    };
    let text = String::from_utf8_lossy(line);
    if let Ok(q) = Query::lexical(&text) {
        assert_eq!(q.terms().len(), q.matchers().len());
        assert!(q.terms().len() <= query::MAX_TERMS);
        for (term, m) in q.terms().iter().zip(q.matchers()) {
            let own = format!(" {} ", term.text());
            assert!(m.is_match(own.as_bytes()), "{term:?} does not find itself");
            assert_eq!(m.ends(hay), m.regex_ends(hay), "{term:?} in {hay:?}");
        }
    }
    if let Ok(q) = Query::regex(&text) {
        assert!(!q.matchers()[0].is_match(b""));
    }
    if let Some(ts) = Ts::parse_canonical(line) {
        assert_eq!(Ok(ts), Ts::parse_strict(&text));
    }
});
