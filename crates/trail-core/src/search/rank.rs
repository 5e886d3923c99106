//! Ranking: Okapi BM25 over everything searched, the newest first among equals.
//!
//! Every document searched counts toward a term's rarity (IDF), whichever source it came from.
//! Length is normalised within a source, since a stream record is naturally longer than a line
//! of code and should not lose to it for that alone.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::scan::{Cand, Tally};

/// Term-frequency saturation and length normalisation, the usual values.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// The `limit` best candidates, best first, with their scores.
pub(crate) fn top(tally: &Tally, limit: usize) -> Vec<(usize, f64)> {
    let n = tally.documents().max(1.0);
    let idf: Vec<f64> = tally
        .df
        .iter()
        .map(|&df| {
            let df = df as f64;
            ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
        })
        .collect();
    let avgdl: Vec<f64> = tally
        .lengths
        .iter()
        .map(|&(bytes, docs)| (bytes as f64 / docs.max(1) as f64).max(1.0))
        .collect();
    let score = |i: usize, c: &Cand| -> f64 {
        let norm = K1 * (1.0 - B + B * (c.end() - c.start) as f64 / avgdl[c.source.index()]);
        tally
            .tf_of(i)
            .iter()
            .zip(&idf)
            .map(|(&tf, idf)| {
                let tf = f64::from(tf);
                idf * tf * (K1 + 1.0) / (tf + norm)
            })
            .sum()
    };
    // The best `limit` so far, the worst of them on top: one pass, no list of every score.
    let mut best: BinaryHeap<Ranked<'_>> = BinaryHeap::with_capacity(limit.min(1 << 16) + 1);
    if limit == 0 {
        return Vec::new();
    }
    for (i, c) in tally.cands.iter().enumerate() {
        let r = Ranked {
            index: i,
            score: score(i, c),
            cand: c,
        };
        if best.len() < limit {
            best.push(r);
        } else if best.peek().is_some_and(|worst| r < *worst) {
            best.pop();
            best.push(r);
        }
    }
    best.into_sorted_vec()
        .into_iter()
        .map(|r| (r.index, r.score))
        .collect()
}

/// A scored candidate, ordered best first: by score, then the newest.
struct Ranked<'a> {
    index: usize,
    score: f64,
    cand: &'a Cand,
}

impl Ord for Ranked<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .score
            .total_cmp(&self.score)
            .then_with(|| newer(self.cand, other.cand))
    }
}

impl PartialOrd for Ranked<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked<'_> {}

/// Recency, newest first: by time, then (for equal or unknown times) later in its file first.
fn newer(a: &Cand, b: &Cand) -> Ordering {
    b.time()
        .cmp(&a.time())
        .then(b.file.cmp(&a.file))
        .then(b.start.cmp(&a.start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::sources::Source;
    use crate::time::Ts;

    fn tally(docs: &[(u64, u32, i64)]) -> Tally {
        // (length, tf of the one term, time)
        let mut t = Tally {
            terms: 1,
            docs: 100,
            df: vec![docs.len() as u64],
            ..Tally::default()
        };
        t.lengths[Source::Stream.index()] = (100 * 1000, 100);
        for (i, &(len, tf, time)) in docs.iter().enumerate() {
            let start = i as u64 * 10_000;
            let span = start..start + len;
            t.cands.push(Cand::new(
                0,
                Source::Stream,
                span,
                0,
                Some(Ts::from_micros(time)),
            ));
            t.tf.push(tf);
        }
        t
    }

    #[test]
    fn more_occurrences_in_less_text_rank_higher_and_ties_go_to_the_newest() {
        let t = tally(&[(1000, 1, 1), (1000, 3, 2), (2000, 3, 3), (1000, 1, 4)]);
        let order: Vec<usize> = top(&t, 10).into_iter().map(|(i, _)| i).collect();
        assert_eq!(order, [1, 2, 3, 0]);
        let best: Vec<usize> = top(&t, 2).into_iter().map(|(i, _)| i).collect();
        assert_eq!(best, [1, 2]);
        assert!(top(&t, 0).is_empty());
    }

    #[test]
    fn a_rare_term_outweighs_a_common_one() {
        let mut t = tally(&[(1000, 0, 1), (1000, 0, 2)]);
        t.terms = 2;
        t.df = vec![2, 50];
        // Doc 0 has the rare term once; doc 1 the common one twice.
        t.tf = vec![1, 0, 0, 2];
        let order: Vec<usize> = top(&t, 10).into_iter().map(|(i, _)| i).collect();
        assert_eq!(order, [0, 1]);
    }
}
