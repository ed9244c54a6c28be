//! Reports of game collections: `games stats` (games, results, lengths, first moves and
//! skipped games per format) and `games players` / `games events` (names with counts).

use crate::board::Move;
use crate::transcript::{GameRecord, IngestSummary};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Everything `games stats` answers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameStatsReport {
    /// Figures per format (by name, in name order), then `total` for all games.
    #[serde(with = "ordered_groups")]
    pub groups: Vec<(String, FormatStats)>,
    /// Games found in all files.
    pub read: u64,
    /// Games accepted.
    pub accepted: u64,
    /// Bad games skipped.
    pub skipped: u64,
    /// Good games dropped as duplicates (`--dedupe`).
    pub duplicates: u64,
    /// Accepted games with a doubtful point, by reason.
    pub warnings: BTreeMap<String, u64>,
    /// Files that could not be read, with why.
    pub failed_files: Vec<FailedFile>,
}

/// A file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedFile {
    /// The file as named on the command line.
    pub path: String,
    /// Why it could not be read.
    pub error: String,
}

/// Figures for one group of games (a format, or all of them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormatStats {
    /// Games accepted.
    pub games: u64,
    /// Games played to the end.
    pub complete: u64,
    /// Games stopped before the end.
    pub incomplete: u64,
    /// Results of the games.
    pub results: ResultCounts,
    /// Games by number of moves played (passes not counted).
    pub lengths: BTreeMap<usize, u64>,
    /// Games by first move (`pass` for a game starting with one).
    pub first_moves: BTreeMap<String, u64>,
    /// Games skipped, by reason.
    pub skipped: BTreeMap<String, u64>,
}

/// Games by result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultCounts {
    /// Won by black.
    pub black: u64,
    /// Drawn.
    pub draw: u64,
    /// Won by white.
    pub white: u64,
    /// Without a recorded result.
    pub unknown: u64,
}

impl FormatStats {
    /// Counts one game.
    pub fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        if g.complete {
            self.complete += 1;
        } else {
            self.incomplete += 1;
        }
        match g.result.as_ref().map(|r| r.disc_diff.signum()) {
            Some(1) => self.results.black += 1,
            Some(0) => self.results.draw += 1,
            Some(_) => self.results.white += 1,
            None => self.results.unknown += 1,
        }
        let played = g.moves.iter().filter(|m| !m.is_pass()).count();
        *self.lengths.entry(played).or_default() += 1;
        if !g.moves.is_empty() {
            let first = g
                .moves
                .iter()
                .find_map(|m| m.square())
                .map_or_else(|| Move::Pass.to_string(), |s| s.to_string());
            *self.first_moves.entry(first).or_default() += 1;
        }
    }
}

/// Collects `games stats` while the games stream past.
#[derive(Default)]
pub struct GameStatsBuilder {
    groups: BTreeMap<String, FormatStats>,
    total: FormatStats,
}

impl GameStatsBuilder {
    /// Counts games read as `format`.
    pub fn add(&mut self, format: &str, games: &[GameRecord]) {
        let group = self.groups.entry(format.to_string()).or_default();
        for g in games {
            group.add(g);
            self.total.add(g);
        }
    }

    /// The report, with the skipped games and files of `summary`.
    #[must_use]
    pub fn finish(mut self, summary: &IngestSummary) -> GameStatsReport {
        for f in &summary.files {
            let Some(fmt) = f.format else { continue };
            let group = self.groups.entry(fmt.name().to_string()).or_default();
            for (reason, n) in &f.skipped {
                *group.skipped.entry(reason.name().to_string()).or_default() += n;
                *self
                    .total
                    .skipped
                    .entry(reason.name().to_string())
                    .or_default() += n;
            }
        }
        let mut groups: Vec<(String, FormatStats)> = self.groups.into_iter().collect();
        groups.push(("total".to_string(), self.total));
        GameStatsReport {
            groups,
            read: summary.read,
            accepted: summary.accepted,
            skipped: summary.skipped,
            duplicates: summary.duplicates,
            warnings: summary
                .warnings
                .iter()
                .map(|(r, t)| (r.name().to_string(), t.count))
                .collect(),
            failed_files: summary
                .failed_files()
                .map(|(path, error)| FailedFile {
                    path: path.to_string(),
                    error: error.to_string(),
                })
                .collect(),
        }
    }
}

/// Serde adapter: the groups as one JSON object, formats first and `total` last.
mod ordered_groups {
    use super::FormatStats;
    use serde::de::{MapAccess, Visitor};
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(g: &[(String, FormatStats)], s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(g.iter().map(|(k, v)| (k, v)))
    }

    struct Groups;

    impl<'de> Visitor<'de> for Groups {
        type Value = Vec<(String, FormatStats)>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object of format names")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(entry) = map.next_entry()? {
                out.push(entry);
            }
            Ok(out)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(String, FormatStats)>, D::Error> {
        d.deserialize_map(Groups)
    }
}

/// Player or event names with their number of games (`games players`, `games events`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamesReport {
    /// Player names, most games first (`games players`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<NameCount>>,
    /// Event names, most games first (`games events`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<NameCount>>,
    /// Names matching, before `--limit`.
    pub total: usize,
}

/// A name and its number of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameCount {
    /// The name as the files spell it.
    pub name: String,
    /// Games with it.
    pub games: u64,
}

impl NamesReport {
    /// The first `shown` of `list` (names with counts, most games first), as players or
    /// events.
    #[must_use]
    pub fn new(players: bool, list: &[(&str, u64)], shown: usize) -> NamesReport {
        let names: Vec<NameCount> = list[..shown.min(list.len())]
            .iter()
            .map(|(n, g)| NameCount {
                name: (*n).to_string(),
                games: *g,
            })
            .collect();
        let (players, events) = if players {
            (Some(names), None)
        } else {
            (None, Some(names))
        };
        NamesReport {
            players,
            events,
            total: list.len(),
        }
    }

    /// The names listed.
    #[must_use]
    pub fn names(&self) -> &[NameCount] {
        self.players
            .as_deref()
            .or(self.events.as_deref())
            .unwrap_or(&[])
    }
}
