//! `trail search`'s query parser on any text: no panic, every term a matcher, each matcher
//! finding its own term, and a regex query either compiling or refused with a reason. The fast
//! timestamp reader search uses agrees with the strict one on whatever it accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use trail_core::search::query::{self, Query};
use trail_core::time::Ts;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(q) = Query::lexical(&text) {
        assert_eq!(q.terms().len(), q.matchers().len());
        assert!(q.terms().len() <= query::MAX_TERMS);
        for (term, re) in q.terms().iter().zip(q.matchers()) {
            let hay = format!(" {} ", term.text());
            assert!(re.is_match(hay.as_bytes()), "{term:?} does not find itself");
        }
    }
    if let Ok(q) = Query::regex(&text) {
        assert!(!q.matchers()[0].is_match(b""));
    }
    if let Some(ts) = Ts::parse_canonical(data) {
        assert_eq!(Ok(ts), Ts::parse_strict(&text));
    }
});
