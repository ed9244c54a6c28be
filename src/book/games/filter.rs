//! Query-time filters: a [`GameFilter`] (the one `build` applies) checked against a game
//! table. Each distinct name is matched once, so testing a game costs a few array reads.

use super::index::{USED_AS_EVENT, USED_AS_PLAYER};
use super::{GameTable, StoredGame};
use crate::book::build::{name_matches, NameField};
use crate::book::GameFilter;
use crate::transcript::people::{closest, NameCounts};

/// Which names a filter text was looked up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// Player names (`--player`).
    Player,
    /// Event names (`--event`).
    Event,
}

/// Why a filter cannot be applied to a book's games.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    /// No name of the book contains the text.
    #[error("{}", unknown_text(*kind, query, closest))]
    UnknownName {
        /// Player or event.
        kind: NameKind,
        /// The text given.
        query: String,
        /// The closest names with their game counts, closest first (may be empty).
        closest: Vec<(String, u64)>,
    },
    /// No game of the book records a name of that kind (games read from bare move lists):
    /// told without counting the names of every game for suggestions.
    #[error("{}", unnamed_text(*kind, query))]
    Unnamed {
        /// Player or event.
        kind: NameKind,
        /// The text given.
        query: String,
    },
}

impl FilterError {
    /// Whether the filter named a player or an event.
    #[must_use]
    pub fn kind(&self) -> NameKind {
        match self {
            FilterError::UnknownName { kind, .. } | FilterError::Unnamed { kind, .. } => *kind,
        }
    }
}

fn option_and_noun(kind: NameKind) -> (&'static str, &'static str) {
    match kind {
        NameKind::Player => ("--player", "player"),
        NameKind::Event => ("--event", "event"),
    }
}

fn unnamed_text(kind: NameKind, query: &str) -> String {
    let (option, what) = option_and_noun(kind);
    format!("{option} {query:?}: the book's games record no {what} names, so none can match")
}

fn unknown_text(kind: NameKind, query: &str, near: &[(String, u64)]) -> String {
    let (option, what) = option_and_noun(kind);
    let mut s = format!("{option} {query:?}: no {what} of the book's games has that name");
    if near.is_empty() {
        s.push_str(", and none is close");
    } else {
        let list: Vec<String> = near
            .iter()
            .map(|(n, g)| format!("{n} ({g} game{})", if *g == 1 { "" } else { "s" }))
            .collect();
        s.push_str(&format!("; the closest are {}", list.join(", ")));
    }
    s
}

/// A filter ready to test the games of one table.
#[derive(Clone, Debug)]
pub struct GameSelection {
    filter: GameFilter,
    /// Per name of the table: contains the player text.
    player: Vec<bool>,
    /// Per name of the table: contains the event text.
    event: Vec<bool>,
    /// With a floor on the players (a rating): per name of the table, above it.
    rated: Option<Vec<bool>>,
}

impl GameSelection {
    /// `filter` for the games of `table`. A player or event text that no name of the
    /// table contains is an error naming the closest names.
    pub fn new(filter: &GameFilter, table: &GameTable) -> Result<GameSelection, FilterError> {
        GameSelection::for_names(filter, &table.names, &table.name_uses(), || {
            table.name_counts()
        })
    }

    /// `filter` for the games of a table with these `names`, used as `uses` says
    /// ([`GameTable::name_uses`]); `counts` gives the games per name for an error's
    /// suggestions.
    pub(crate) fn for_names(
        filter: &GameFilter,
        names: &[String],
        uses: &[u8],
        counts: impl FnOnce() -> NameCounts,
    ) -> Result<GameSelection, FilterError> {
        let per_name = |text: Option<&str>| -> Vec<bool> {
            match text {
                Some(t) => names.iter().map(|n| name_matches(n, t)).collect(),
                None => Vec::new(),
            }
        };
        let selection = GameSelection {
            filter: filter.clone(),
            player: per_name(filter.player()),
            event: per_name(filter.event()),
            rated: None,
        };
        let checks = [
            (
                NameKind::Player,
                filter.player(),
                &selection.player,
                USED_AS_PLAYER,
            ),
            (
                NameKind::Event,
                filter.event(),
                &selection.event,
                USED_AS_EVENT,
            ),
        ];
        for (kind, text, hits, bit) in checks {
            let Some(text) = text else { continue };
            let used = |i: usize| uses.get(i).is_some_and(|u| u & bit != 0);
            if !(0..names.len()).any(used) {
                return Err(FilterError::Unnamed {
                    kind,
                    query: text.to_string(),
                });
            }
            if !hits.iter().enumerate().any(|(i, &hit)| hit && used(i)) {
                let counts = counts();
                let names = match kind {
                    NameKind::Player => &counts.players,
                    NameKind::Event => &counts.events,
                };
                return Err(FilterError::UnknownName {
                    kind,
                    query: text.to_string(),
                    closest: closest(names, text, 5)
                        .into_iter()
                        .map(|n| (n.to_string(), names[n]))
                        .collect(),
                });
            }
        }
        Ok(selection)
    }

    /// The same selection keeping only games whose two players both pass: `players` says,
    /// per name of the table, whether that player passes (a rating floor:
    /// [`Ratings::at_least`](super::ratings::Ratings::at_least)).
    #[must_use]
    pub fn with_players(mut self, players: Vec<bool>) -> GameSelection {
        self.rated = Some(players);
        self
    }

    /// Whether the filter selects nothing out (every game passes).
    #[must_use]
    pub fn is_everything(&self) -> bool {
        self.filter == GameFilter::default() && self.rated.is_none()
    }

    /// Whether testing a game needs more of its record than its year (which the table's
    /// order answers for a book with an index): a name, a rating or whether it was finished.
    #[must_use]
    pub fn reads_records(&self) -> bool {
        self.rated.is_some() || self.filter.without_years() != GameFilter::default()
    }

    /// The filter.
    #[must_use]
    pub fn filter(&self) -> &GameFilter {
        &self.filter
    }

    /// Whether game `g` of the table passes.
    #[inline]
    #[must_use]
    pub fn accepts(&self, g: &StoredGame) -> bool {
        let hit = |list: &[bool], n: u32| list.get(n as usize).copied().unwrap_or(false);
        if let Some(rated) = &self.rated {
            if !(hit(rated, g.black) && hit(rated, g.white)) {
                return false;
            }
        }
        self.filter
            .accepts_parts(g.complete, g.year, |field| match field {
                NameField::Black => hit(&self.player, g.black),
                NameField::White => hit(&self.player, g.white),
                NameField::Event => hit(&self.event, g.event),
            })
    }
}
