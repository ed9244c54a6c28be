//! Answers kept for repeated queries: a bounded map from the query's canonical text to the
//! JSON sent, the oldest answer dropped first when it is full.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// A bounded cache of JSON answers.
pub struct Cache {
    capacity: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    answers: HashMap<String, Arc<[u8]>>,
    /// Keys in the order they were stored: the front is dropped first.
    order: VecDeque<String>,
}

impl Cache {
    /// A cache of at most `capacity` answers (0: none kept).
    pub fn new(capacity: usize) -> Cache {
        Cache {
            capacity,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// The answer stored under `key`.
    pub fn get(&self, key: &str) -> Option<Arc<[u8]>> {
        // A panic elsewhere while the lock was held leaves a usable map: take it back.
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.answers.get(key).cloned()
    }

    /// Stores `answer` under `key`, dropping the oldest answers beyond the capacity.
    pub fn put(&self, key: String, answer: Arc<[u8]>) {
        if self.capacity == 0 {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if inner.answers.insert(key.clone(), answer).is_none() {
            inner.order.push_back(key);
        }
        while inner.order.len() > self.capacity {
            if let Some(old) = inner.order.pop_front() {
                inner.answers.remove(&old);
            }
        }
    }

    /// Answers stored.
    pub fn len(&self) -> usize {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.answers.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_at_most_its_capacity_dropping_the_oldest() {
        let c = Cache::new(2);
        for k in ["a", "b", "a", "c"] {
            c.put(k.into(), Arc::from(k.as_bytes()));
        }
        assert_eq!(c.len(), 2);
        assert!(c.get("a").is_none());
        assert_eq!(c.get("b").as_deref(), Some(&b"b"[..]));
        assert_eq!(c.get("c").as_deref(), Some(&b"c"[..]));
        let none = Cache::new(0);
        none.put("a".into(), Arc::from(&b"a"[..]));
        assert!(none.get("a").is_none());
    }
}
