//! A small library for the citation corpus.

use std::collections::HashMap;

/// The store.
pub struct Store {
    items: HashMap<String, u64>,
}

impl Store {
    pub fn new() -> Store {
        Store {
            items: HashMap::new(),
        }
    }

    pub fn insert(&mut self, key: &str, value: u64) -> Option<u64> {
        self.items.insert(key.to_string(), value)
    }

    pub fn get(&self, key: &str) -> Option<u64> {
        self.items.get(key).copied()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn inserts() {
        let mut s = super::Store::new();
        assert_eq!(s.insert("a", 1), None);
    }
}
