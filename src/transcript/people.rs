//! Who played and where: the player and event names of a collection with their game counts,
//! and the names closest to one that matched nothing.

use super::record::GameRecord;
use std::collections::BTreeMap;

/// Player names, event names and years of a set of games, with game counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameCounts {
    /// Games per player name (as black or white).
    pub players: BTreeMap<String, u64>,
    /// Games per event name.
    pub events: BTreeMap<String, u64>,
    /// Games per year.
    pub years: BTreeMap<u16, u64>,
}

impl NameCounts {
    /// Counts one game.
    pub fn add(&mut self, g: &GameRecord) {
        let names = [g.black.as_deref(), g.white.as_deref()];
        for (i, name) in names.iter().enumerate() {
            // A player who met themself (a test game) counts once.
            if let Some(n) = name.filter(|n| i == 0 || Some(*n) != names[0]) {
                *self.players.entry(n.to_string()).or_default() += 1;
            }
        }
        if let Some(e) = &g.event {
            *self.events.entry(e.clone()).or_default() += 1;
        }
        if let Some(y) = g.year {
            *self.years.entry(y).or_default() += 1;
        }
    }
}

/// Names and counts, most games first (then by name).
#[must_use]
pub fn by_count(counts: &BTreeMap<String, u64>) -> Vec<(&str, u64)> {
    let mut v: Vec<(&str, u64)> = counts.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    v
}

/// `text` in lower case without accents, for comparing names as people type them.
#[must_use]
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'à'..='å' | 'ā' | 'ă' | 'ą' => out.push('a'),
            'æ' => out.push_str("ae"),
            'ç' | 'ć' | 'č' => out.push('c'),
            'è'..='ë' | 'ē' | 'ę' | 'ě' => out.push('e'),
            'ì'..='ï' | 'ī' => out.push('i'),
            'ñ' | 'ń' | 'ň' => out.push('n'),
            'ò'..='ö' | 'ø' | 'ō' | 'ő' => out.push('o'),
            'œ' => out.push_str("oe"),
            'ß' => out.push_str("ss"),
            'ù'..='ü' | 'ū' | 'ů' | 'ű' => out.push('u'),
            'ý' | 'ÿ' => out.push('y'),
            'š' | 'ś' => out.push('s'),
            'ž' | 'ź' | 'ż' => out.push('z'),
            'ł' => out.push('l'),
            'ř' => out.push('r'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
thread_local! {
    /// Cells of the edit-distance table computed on this thread (tests bound the work).
    static CELLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Edit distance between two strings (characters inserted, removed or changed).
fn distance(a: &[char], b: &[char]) -> usize {
    #[cfg(test)]
    CELLS.with(|c| c.set(c.get() + (a.len() * b.len()) as u64));
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Up to `k` of `names` closest to `query` (case and accents ignored): names containing it
/// first, then those whose name or one of its words is within a few edits, more games first
/// among equals. Empty when nothing is close.
#[must_use]
pub fn closest<'a>(counts: &'a BTreeMap<String, u64>, query: &str, k: usize) -> Vec<&'a str> {
    let q: Vec<char> = fold(query).chars().collect();
    let q_text: String = q.iter().collect();
    let limit = (q.len() / 3).max(1);
    let mut scored: Vec<(usize, u64, &str)> = Vec::new();
    for (name, &games) in counts {
        let folded = fold(name);
        let d = if folded.contains(&q_text) {
            0
        } else {
            // Two texts whose lengths differ by more than the limit are farther apart than
            // it: skipping them bounds the cost by the names' lengths, whatever the query's.
            std::iter::once(folded.as_str())
                .chain(folded.split(|c: char| !c.is_alphanumeric()))
                .filter(|w| !w.is_empty())
                .map(|w| w.chars().collect::<Vec<_>>())
                .filter(|w| w.len().abs_diff(q.len()) <= limit)
                .map(|w| distance(&q, &w))
                .min()
                .unwrap_or(usize::MAX)
        };
        if d <= limit {
            scored.push((d, games, name));
        }
    }
    scored.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)));
    scored.into_iter().take(k).map(|(_, _, n)| n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_ignores_case_and_accents() {
        assert_eq!(fold("Éric PÉTRÉ"), "eric petre");
        assert_eq!(fold("Müller"), "muller");
    }

    #[test]
    fn closest_names_by_part_and_by_spelling() {
        let mut m = BTreeMap::new();
        m.insert("Tamenori Hideshi".to_string(), 500);
        m.insert("Takeshi Murakami".to_string(), 900);
        m.insert("Brian Rose".to_string(), 100);
        assert_eq!(closest(&m, "tamenori", 3), vec!["Tamenori Hideshi"]);
        assert_eq!(closest(&m, "murakame", 3), vec!["Takeshi Murakami"]);
        assert_eq!(closest(&m, "Rosse", 3), vec!["Brian Rose"]);
        assert!(closest(&m, "nobodyxyz", 3).is_empty());
    }

    #[test]
    fn regression_the_closest_name_search_was_linear_in_a_huge_querys_length_per_name() {
        // Counted in cells of the edit-distance table, not in time: the cost must be bounded
        // by the names' lengths, not the query's length times each name's.
        let mut m = BTreeMap::new();
        for i in 0..400 {
            m.insert(format!("Player Number{i} Somebody"), 1);
        }
        let huge = "x".repeat(60_000);
        CELLS.with(|c| c.set(0));
        assert!(closest(&m, &huge, 5).is_empty());
        let cells = CELLS.with(std::cell::Cell::get);
        assert!(
            cells < 1_000_000,
            "{cells} cells for a 60,000-character query"
        );
        m.insert("x".repeat(30), 7);
        let near = format!("{}y", "x".repeat(29));
        assert_eq!(closest(&m, &near, 5), vec!["x".repeat(30)]);
    }
}
