//! [`OptionDifference`]: one build option that differs between two books.

/// One build option that differs between two books, in the words of `othbook build`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDifference {
    /// The option, as `build` names it (`--plies`).
    pub option: &'static str,
    /// Its value in this book (`30`, `"Tamenori"`, `not given`).
    pub value: String,
    /// Its value in the book compared with.
    pub other: String,
}

impl OptionDifference {
    /// `--plies 20 (book 1: 30); --player not given (book 1: "Tamenori")`, where `other_name`
    /// is `book 1`.
    #[must_use]
    pub fn list(differences: &[OptionDifference], other_name: &str) -> String {
        differences
            .iter()
            .map(|d| format!("{} {} ({other_name}: {})", d.option, d.value, d.other))
            .collect::<Vec<_>>()
            .join("; ")
    }
}
