//! How a book is built ([`BuildOptions`]) and which games it takes ([`GameFilter`]), checked
//! when built: every rule on them lives here, in the constructors, and a book's header is
//! decoded through the same rules, so a value of either type is valid wherever it is used.

use crate::book::option_difference::OptionDifference;
use bincode::de::{BorrowDecoder, Decoder};
use bincode::error::DecodeError;
use bincode::{BorrowDecode, Decode};

/// Deepest book the format allows (60 moves plus passes).
pub const MAX_PLIES: u8 = 120;

/// A build option or game filter that breaks a rule, named as the option is (the command
/// line adds `--`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// Plies out of range.
    #[error("plies {plies}: use 1 to {MAX_PLIES}")]
    Plies {
        /// The plies given.
        plies: u8,
    },
    /// A minimum of no games.
    #[error("min-games must be at least 1")]
    MinGames,
    /// A range of years that ends before it starts.
    #[error("years {from}-{to}: the first year is after the last")]
    Years {
        /// First year given.
        from: u16,
        /// Last year given.
        to: u16,
    },
    /// A side without the player it applies to (it would filter nothing, yet stop merges).
    #[error("player-side needs --player")]
    SideWithoutPlayer,
}

impl OptionsError {
    /// The option at fault, as the command line names it without `--`.
    #[must_use]
    pub fn option(&self) -> &'static str {
        match self {
            OptionsError::Plies { .. } => "plies",
            OptionsError::MinGames => "min-games",
            OptionsError::Years { .. } => "years",
            OptionsError::SideWithoutPlayer => "player-side",
        }
    }
}

/// A pruning minimum: positions, moves and lines seen in fewer games are left out. At
/// least 1 (1 prunes nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, bincode::Encode)]
pub struct MinGames(u32);

impl MinGames {
    /// No pruning.
    pub const ONE: MinGames = MinGames(1);

    /// `min_games`, at least 1.
    pub fn new(min_games: u32) -> Result<Self, OptionsError> {
        if min_games == 0 {
            return Err(OptionsError::MinGames);
        }
        Ok(MinGames(min_games))
    }

    /// The minimum.
    #[must_use]
    pub fn get(self) -> u32 {
        self.0
    }
}

/// How a book was built: depth, pruning and the game filters. Plies are 1 to [`MAX_PLIES`],
/// or 0 for a book without lines of games (imported, or cut to a subtree), and `min_games`
/// is at least 1.
#[derive(Clone, Debug, PartialEq, Eq, bincode::Encode)]
pub struct BuildOptions {
    /// Plies of each game taken into the book (passes count as plies).
    plies: u8,
    /// Positions, moves and lines seen in fewer games are left out (after exact counting).
    min_games: MinGames,
    /// Which games are used.
    filter: GameFilter,
}

impl BuildOptions {
    /// Options of a build: `plies` 1 to [`MAX_PLIES`], `min_games` at least 1.
    pub fn new(plies: u8, min_games: u32, filter: GameFilter) -> Result<Self, OptionsError> {
        if plies == 0 {
            return Err(OptionsError::Plies { plies });
        }
        BuildOptions::checked(plies, min_games, filter)
    }

    /// The options of a book without lines of games (imported from another program): no
    /// plies, nothing pruned, no filter.
    #[must_use]
    pub fn without_lines() -> Self {
        BuildOptions {
            plies: 0,
            min_games: MinGames::ONE,
            filter: GameFilter::default(),
        }
    }

    /// The rules every stored value keeps (plies 0 included: a book without lines).
    fn checked(plies: u8, min_games: u32, filter: GameFilter) -> Result<Self, OptionsError> {
        if plies > MAX_PLIES {
            return Err(OptionsError::Plies { plies });
        }
        Ok(BuildOptions {
            plies,
            min_games: MinGames::new(min_games)?,
            filter,
        })
    }

    /// Plies of each game taken into the book (passes count as plies); 0 for a book without
    /// lines of games.
    #[must_use]
    pub fn plies(&self) -> u8 {
        self.plies
    }

    /// Positions, moves and lines seen in fewer games are left out (after exact counting).
    #[must_use]
    pub fn min_games(&self) -> u32 {
        self.min_games.get()
    }

    /// The same minimum, as the checked value the merges take.
    #[must_use]
    pub fn pruning(&self) -> MinGames {
        self.min_games
    }

    /// Which games are used.
    #[must_use]
    pub fn filter(&self) -> &GameFilter {
        &self.filter
    }

    /// These options pruned to `min_games` instead.
    #[must_use]
    pub fn with_min_games(&self, min_games: MinGames) -> Self {
        BuildOptions {
            min_games,
            ..self.clone()
        }
    }

    /// These options for a book whose lines of games were cut away (a subtree).
    #[must_use]
    pub fn lines_cut(&self) -> Self {
        BuildOptions {
            plies: 0,
            ..self.clone()
        }
    }

    /// The options that merging must find equal (all but `min_games`, which merge applies
    /// itself) and that differ between `self` and `other`.
    #[must_use]
    pub fn differences(&self, other: &BuildOptions) -> Vec<OptionDifference> {
        let text = |t: &Option<String>| t.as_ref().map_or("not given".into(), |t| format!("{t:?}"));
        let years =
            |y: Option<Years>| y.map_or("not given".into(), |y| format!("{}-{}", y.from, y.to));
        let side = |c: PlayerColor| match c {
            PlayerColor::Either => "either",
            PlayerColor::Black => "black",
            PlayerColor::White => "white",
        };
        let flag = |b: bool| if b { "given" } else { "not given" };
        // Named field by field so that a new filter field cannot be left out of the list.
        let GameFilter {
            player: _,
            player_color: _,
            years: _,
            event: _,
            complete_only: _,
        } = self.filter;
        let (a, b) = (&self.filter, &other.filter);
        let all = [
            ("--plies", self.plies.to_string(), other.plies.to_string()),
            ("--player", text(&a.player), text(&b.player)),
            (
                "--player-side",
                side(a.player_color).into(),
                side(b.player_color).into(),
            ),
            ("--years", years(a.years), years(b.years)),
            ("--event", text(&a.event), text(&b.event)),
            (
                "--complete-only",
                flag(a.complete_only).into(),
                flag(b.complete_only).into(),
            ),
        ];
        all.into_iter()
            .filter(|(_, x, y)| x != y)
            .map(|(option, value, other)| OptionDifference {
                option,
                value,
                other,
            })
            .collect()
    }
}

/// The bytes of [`BuildOptions`] as a book's header holds them, before the rules are
/// applied (the same layout as the checked type's encoding).
#[derive(bincode::Decode)]
struct StoredOptions {
    plies: u8,
    min_games: u32,
    filter: StoredFilter,
}

/// The bytes of a [`GameFilter`] before the rules are applied.
#[derive(bincode::Decode)]
struct StoredFilter {
    player: Option<String>,
    player_color: PlayerColor,
    years: Option<(u16, u16)>,
    event: Option<String>,
    complete_only: bool,
}

impl StoredFilter {
    fn checked(self) -> Result<GameFilter, OptionsError> {
        let years = self
            .years
            .map(|(from, to)| Years::new(from, to))
            .transpose()?;
        GameFilter::new(
            self.player,
            self.player_color,
            years,
            self.event,
            self.complete_only,
        )
    }
}

/// A rule broken by decoded bytes, as bincode carries it (the header reader words it).
fn broken(e: OptionsError) -> DecodeError {
    DecodeError::OtherString(e.to_string())
}

impl<Context> Decode<Context> for BuildOptions {
    fn decode<D: Decoder<Context = Context>>(decoder: &mut D) -> Result<Self, DecodeError> {
        let s = StoredOptions::decode(decoder)?;
        let filter = s.filter.checked().map_err(broken)?;
        BuildOptions::checked(s.plies, s.min_games, filter).map_err(broken)
    }
}

impl<'de, Context> BorrowDecode<'de, Context> for BuildOptions {
    fn borrow_decode<D: BorrowDecoder<'de, Context = Context>>(
        decoder: &mut D,
    ) -> Result<Self, DecodeError> {
        BuildOptions::decode(decoder)
    }
}

impl<Context> Decode<Context> for GameFilter {
    fn decode<D: Decoder<Context = Context>>(decoder: &mut D) -> Result<Self, DecodeError> {
        StoredFilter::decode(decoder)?.checked().map_err(broken)
    }
}

impl<'de, Context> BorrowDecode<'de, Context> for GameFilter {
    fn borrow_decode<D: BorrowDecoder<'de, Context = Context>>(
        decoder: &mut D,
    ) -> Result<Self, DecodeError> {
        GameFilter::decode(decoder)
    }
}

/// A range of years, first not after last (inclusive): built only by [`Years::new`], the
/// one place of that rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, bincode::Encode)]
pub struct Years {
    from: u16,
    to: u16,
}

impl Years {
    /// `from` to `to`, or [`OptionsError::Years`] when `from` is after `to`.
    pub fn new(from: u16, to: u16) -> Result<Years, OptionsError> {
        if from > to {
            return Err(OptionsError::Years { from, to });
        }
        Ok(Years { from, to })
    }

    /// The first and the last year.
    #[must_use]
    pub fn bounds(self) -> (u16, u16) {
        (self.from, self.to)
    }

    /// Whether `year` is in the range.
    #[must_use]
    pub fn contains(self, year: u16) -> bool {
        (self.from..=self.to).contains(&year)
    }
}

/// Which games go into a book, from the game metadata: a side only with a player, years
/// in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, bincode::Encode)]
pub struct GameFilter {
    /// Only games of a player whose name contains this text (case and accents ignored).
    player: Option<String>,
    /// Which side that player must have had.
    player_color: PlayerColor,
    /// Only games played in these years (inclusive).
    years: Option<Years>,
    /// Only games of an event whose name contains this text (case and accents ignored).
    event: Option<String>,
    /// Only games played to the end.
    complete_only: bool,
}

impl GameFilter {
    /// Only games of a `player` (part of the name, case and accents ignored) who had
    /// `player_color` (which needs a player unless `Either`), played in `years`, of an
    /// `event` (part of the name), played to the end if `complete_only`.
    pub fn new(
        player: Option<String>,
        player_color: PlayerColor,
        years: Option<Years>,
        event: Option<String>,
        complete_only: bool,
    ) -> Result<Self, OptionsError> {
        if player.is_none() && player_color != PlayerColor::Either {
            return Err(OptionsError::SideWithoutPlayer);
        }
        Ok(GameFilter {
            player,
            player_color,
            years,
            event,
            complete_only,
        })
    }

    /// Only games of a player whose name contains this text (case and accents ignored).
    #[must_use]
    pub fn player(&self) -> Option<&str> {
        self.player.as_deref()
    }

    /// Which side that player must have had.
    #[must_use]
    pub fn player_color(&self) -> PlayerColor {
        self.player_color
    }

    /// Only games played in these years.
    #[must_use]
    pub fn years(&self) -> Option<Years> {
        self.years
    }

    /// The same filter for games of any year.
    #[must_use]
    pub fn without_years(&self) -> GameFilter {
        GameFilter {
            years: None,
            ..self.clone()
        }
    }

    /// Only games of an event whose name contains this text (case and accents ignored).
    #[must_use]
    pub fn event(&self) -> Option<&str> {
        self.event.as_deref()
    }

    /// Only games played to the end.
    #[must_use]
    pub fn complete_only(&self) -> bool {
        self.complete_only
    }
}

/// The side a filtered player must have had.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub enum PlayerColor {
    /// Black or white.
    #[default]
    Either,
    /// Black only.
    Black,
    /// White only.
    White,
}

/// Values that break the rules, as a damaged header may hold them: for the tests of the
/// header's decoding only.
#[cfg(test)]
impl BuildOptions {
    pub(crate) fn unchecked(plies: u8, min_games: u32, filter: GameFilter) -> Self {
        BuildOptions {
            plies,
            min_games: MinGames(min_games),
            filter,
        }
    }
}

#[cfg(test)]
impl GameFilter {
    pub(crate) fn unchecked(player_color: PlayerColor, years: Option<(u16, u16)>) -> Self {
        GameFilter {
            player_color,
            years: years.map(|(from, to)| Years { from, to }),
            ..GameFilter::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_hold_every_rule() {
        let none = GameFilter::default();
        assert!(BuildOptions::new(1, 1, none.clone()).is_ok());
        assert!(BuildOptions::new(MAX_PLIES, 1, none.clone()).is_ok());
        for plies in [0, MAX_PLIES + 1] {
            let e = BuildOptions::new(plies, 1, none.clone()).unwrap_err();
            assert_eq!(e, OptionsError::Plies { plies });
            assert_eq!(e.option(), "plies");
        }
        assert_eq!(
            BuildOptions::new(10, 0, none.clone()),
            Err(OptionsError::MinGames)
        );
        assert_eq!(MinGames::new(0), Err(OptionsError::MinGames));
        let side = GameFilter::new(None, PlayerColor::Black, None, None, false);
        assert_eq!(side, Err(OptionsError::SideWithoutPlayer));
        assert_eq!(
            Years::new(2001, 2000),
            Err(OptionsError::Years {
                from: 2001,
                to: 2000
            })
        );
        let one_year = Years::new(2000, 2000).unwrap();
        assert!(one_year.contains(2000) && !one_year.contains(2001));
        // A book without lines keeps its rules but for the plies.
        let cut = BuildOptions::new(10, 3, none).unwrap().lines_cut();
        assert_eq!((cut.plies(), cut.min_games()), (0, 3));
    }
}
