//! Helpers shared by subcommands: reading positions and move lists from arguments.

use anyhow::Result;
use othbook::board::{parse_moves, Move, Position};
use othbook::engine::{Depth, HashSize, ThreadCount};
use othbook::report::query::{QueryError, Target};
use std::path::Path;

/// An error in what the user typed: reported with exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Shorthand for a [`BadInput`] error.
/// The `--input-format` option, if given: a format name or a usage error.
pub fn input_format(arg: Option<&str>) -> Result<Option<othbook::transcript::Format>> {
    arg.map(|f| f.parse().map_err(|e| bad(format!("--input-format: {e}"))))
        .transpose()
}

pub fn bad(msg: impl Into<String>) -> anyhow::Error {
    BadInput(msg.into()).into()
}

/// What makes two paths one file: device and inode for a file that exists, so that `./a`,
/// an absolute path, a symlink and a hard link to the same file all compare equal; the real
/// folder and the name for one that does not exist yet.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum FileKey {
    Inode(u64, u64),
    Path(std::path::PathBuf),
}

fn file_key(p: &Path) -> Option<FileKey> {
    #[cfg(unix)]
    if let Ok(m) = std::fs::metadata(p) {
        use std::os::unix::fs::MetadataExt;
        return Some(FileKey::Inode(m.dev(), m.ino()));
    }
    if let Ok(real) = std::fs::canonicalize(p) {
        return Some(FileKey::Path(real));
    }
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(FileKey::Path(
        std::fs::canonicalize(dir).ok()?.join(p.file_name()?),
    ))
}

/// Refuses inputs that name the same file twice, and an output that is one of the inputs or
/// another output: either would count games twice or destroy a file. `-` (standard input or
/// output) is not a file; standard input can be read once.
pub fn distinct_files(inputs: &[std::path::PathBuf], outputs: &[&Path]) -> Result<()> {
    let mut seen = std::collections::HashMap::new();
    let mut stdin = None;
    for p in inputs {
        if p.as_os_str() == "-" {
            if stdin.replace(p).is_some() {
                return Err(bad(
                    "standard input (-) is given twice: it can be read once",
                ));
            }
            continue;
        }
        let Some(id) = file_key(p) else {
            continue;
        };
        if let Some(first) = seen.insert(id, p.as_path()) {
            return Err(bad(format!(
                "{} and {} are the same file: its games would count twice",
                first.display(),
                p.display()
            )));
        }
    }
    let mut written = std::collections::HashMap::new();
    for out in outputs.iter().filter(|o| o.as_os_str() != "-") {
        let Some(id) = file_key(out) else {
            continue;
        };
        if let Some(input) = seen.get(&id) {
            return Err(bad(format!(
                "the output {} is the input {}: writing it would destroy the input",
                out.display(),
                input.display()
            )));
        }
        if let Some(other) = written.insert(id, out) {
            return Err(bad(format!(
                "the outputs {} and {} are the same file",
                other.display(),
                out.display()
            )));
        }
    }
    Ok(())
}

/// An error naming every input file that could not be read and why (`after` says what
/// became of the output), so that a quiet run still tells the reason.
pub fn unreadable_inputs(summary: &othbook::transcript::IngestSummary, after: &str) -> Result<()> {
    let failed: Vec<(&str, &str)> = summary.failed_files().collect();
    if failed.is_empty() {
        return Ok(());
    }
    let mut msg = format!(
        "{} input file{} could not be read; {after}",
        failed.len(),
        if failed.len() == 1 { "" } else { "s" }
    );
    for (path, why) in failed {
        msg.push_str(&format!("\n  {path}: {why}"));
    }
    Err(anyhow::anyhow!(msg))
}

/// One OBF record (the FFO suite's form): a board, then `MOVE:score` fields separated by
/// `;`, scores in discs for the side to move.
pub fn parse_obf_line(line: &str) -> Result<(Position, Vec<(Move, i32)>), String> {
    let mut parts = line.split(';');
    let board = parts.next().unwrap_or("").trim();
    let position: Position = board.parse().map_err(|e| format!("{e}"))?;
    let mut scored = Vec::new();
    for field in parts.map(str::trim).filter(|f| !f.is_empty()) {
        let (mv, score) = field
            .split_once(':')
            .ok_or_else(|| format!("expected MOVE:score, found {field:?}"))?;
        let mv = parse_moves(mv)
            .ok()
            .filter(|m| m.len() == 1)
            .ok_or_else(|| format!("bad move {mv:?}"))?[0];
        // A score for a move that cannot be played is a mistake in the file, not something
        // the solve could confirm or refute.
        position
            .board
            .play_move(mv)
            .map_err(|e| format!("{mv} is not a legal move here ({e})"))?;
        let score: i32 = score
            .trim()
            .trim_start_matches('+')
            .parse()
            .map_err(|_| format!("bad score {score:?}"))?;
        if !(-64..=64).contains(&score) {
            return Err(format!("score {score} is outside -64..64"));
        }
        scored.push((mv, score));
    }
    Ok((position, scored))
}

/// The position given by `--position` (or the start), after the moves of `moves`.
pub fn position_from_args(position: Option<&str>, moves: Option<&str>) -> Result<Position> {
    Ok(line_from_args(position, moves)?.2)
}

/// The start (`--position` or the standard start), the moves played from it (passes the input
/// left out included) and the position they reach.
pub fn line_from_args(
    position: Option<&str>,
    moves: Option<&str>,
) -> Result<(Position, Vec<Move>, Position)> {
    let t = Target::parse(position, moves).map_err(|e| match e {
        QueryError::Position(e) => bad(format!("invalid --position: {e}")),
        e => bad(e.to_string()),
    })?;
    Ok((t.start, t.line, t.pos))
}

/// The deepest named opening along the moves from `start`.
pub fn opening_along(start: &Position, moves: &[Move]) -> Option<othbook::report::OpeningRef> {
    othbook::report::OpeningRef::along_from(
        othbook::openings::Openings::standard(),
        &start.board,
        moves,
    )
}

/// The `--threads` value (default: all cores), checked, and capped at what the machine can
/// use (saying so on stderr).
pub fn threads_arg(threads: Option<usize>) -> Result<ThreadCount> {
    let Some(n) = threads else {
        return Ok(ThreadCount::cores());
    };
    let count = ThreadCount::new(n).map_err(|e| bad(format!("--{e}")))?;
    if count.capped() {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        eprintln!(
            "othbook: --threads {n} is more than {cores} core{} can use: searching with {}",
            if cores == 1 { "" } else { "s" },
            count.used()
        );
    }
    Ok(count)
}

/// Most empties an exact or win/draw/loss solve takes without `--force`: each empty square
/// multiplies the work by two to three, so 36 empties already take days and the start
/// position (60) would run for ever.
pub const SOLVE_REFUSE_ABOVE: u32 = 36;
/// Above this many empties a solve is allowed but may take hours: the user is warned.
pub const SOLVE_WARN_ABOVE: u32 = 30;

/// Refuses a full solve of more than [`SOLVE_REFUSE_ABOVE`] empties unless `force`, and warns
/// on stderr above [`SOLVE_WARN_ABOVE`]; `what` names the position in messages.
pub fn check_solve_size(empties: u32, force: bool, what: &str) -> Result<()> {
    if empties > SOLVE_REFUSE_ABOVE && !force {
        return Err(bad(format!(
            "{what} has {empties} empties: an exact solve would not finish (days at 36, \
             for ever at 60). Solve positions of at most {SOLVE_REFUSE_ABOVE} empties, search \
             with --depth or --time, or pass --force to try anyway"
        )));
    }
    if empties > SOLVE_WARN_ABOVE {
        eprintln!("othbook: warning: {what} has {empties} empties: the solve may take hours");
    }
    Ok(())
}

/// `--years`: `1990-2000` or `1995`.
pub fn years_arg(text: &str) -> Result<othbook::book::Years> {
    othbook::report::query::parse_years(text).map_err(|e| bad(format!("--years {e}")))
}

/// A search `--depth` in plies (1 to the engine's maximum), checked.
pub fn depth_arg(depth: Option<u32>) -> Result<Option<Depth>> {
    depth
        .map(|d| othbook::report::query::depth(d, Depth::MAX).map_err(|e| bad(format!("--{e}"))))
        .transpose()
}

/// A search request the engine refused, said in the command line's terms: the option that
/// is out of range, or the finished game's disc counts.
pub fn request_error(
    e: othbook::engine::RequestError,
    pos: Option<&othbook::board::Position>,
) -> anyhow::Error {
    use othbook::engine::RequestError;
    match (&e, pos) {
        (
            RequestError::Depth { .. } | RequestError::Time { .. } | RequestError::Multipv { .. },
            _,
        ) => bad(format!("--{e}")),
        (RequestError::GameOver, Some(pos)) => bad(format!(
            "the game is over (black {} - white {}): nothing to analyse",
            pos.black().count(),
            pos.white().count()
        )),
        _ => bad(e.to_string()),
    }
}

/// A `--hash` size in MiB, checked once into the engine's [`HashSize`].
pub fn check_hash(mb: usize) -> Result<HashSize> {
    HashSize::new(mb).map_err(|e| bad(format!("--{e}")))
}

/// Output styles of the book queries.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// Aligned columns for people.
    #[default]
    Table,
    /// Tab-separated values with a header line.
    Tsv,
    /// One JSON document.
    Json,
}

/// Books up to this size are checked completely when opened (a few milliseconds); larger
/// ones block by block as queries read them, to keep queries fast. The default book with its
/// game table (15.5 MB) is above it: a query that does not read the games does not check
/// their 9 MB (1.7 ms of a 5.5 ms `explore`, measured), and one that reads them checks them.
pub const VERIFY_ALL_UP_TO: u64 = 8 << 20;

/// Opens `--book` (or the default book, see [`othbook::book::default_path`]). Small books are
/// checked completely; large ones block by block as read (a damaged block read by the query is
/// still an error).
pub fn open_book(path: Option<&std::path::Path>) -> Result<othbook::book::Book> {
    open_book_checking(path, VERIFY_ALL_UP_TO)
}

/// The book a searching command consults before its search: none with `--no-book`, the
/// `--book` file, or the default book when there is one (opened before the search, so that a
/// bad file fails at once).
pub fn search_book(
    no_book: bool,
    path: Option<&std::path::Path>,
) -> Result<Option<std::sync::Arc<othbook::book::Book>>> {
    Ok(if no_book {
        None
    } else if path.is_some() {
        Some(std::sync::Arc::new(open_book(path)?))
    } else {
        othbook::play::book_choice::BookSetting::Default.open()?
    })
}

/// [`open_book`] with the size up to which books are checked completely (tests open small
/// books lazily with 0).
pub fn open_book_checking(
    path: Option<&std::path::Path>,
    verify_all_up_to: u64,
) -> Result<othbook::book::Book> {
    let path = path.map_or_else(othbook::book::default_path, std::path::Path::to_path_buf);
    let small = std::fs::metadata(&path).is_ok_and(|m| m.len() <= verify_all_up_to);
    Ok(if small {
        othbook::book::Book::open(&path)?
    } else {
        othbook::book::Book::open_lazy(&path)?
    })
}

/// Writes `report` as one line of JSON (serde_json's compact form).
pub fn write_json(out: &mut impl std::io::Write, report: &impl serde::Serialize) -> Result<()> {
    serde_json::to_writer(&mut *out, report)?;
    writeln!(out)?;
    Ok(())
}

/// A TSV number with two decimals, or `null` (the form the TSV columns always had).
pub fn tsv_num(x: Option<f64>) -> String {
    x.map_or_else(|| "null".to_string(), |v| format!("{v:.2}"))
}

/// `12.3%`-style percentages of black wins, draws, white wins (dashes without results).
pub fn percent_cells(s: &othbook::report::Results) -> [String; 3] {
    match s.percentages() {
        Some((b, d, w)) => [b, d, w].map(|p| format!("{p:.1}")),
        None => ["-".into(), "-".into(), "-".into()],
    }
}

/// The opening line of a table: `opening: Tiger (f5d6c3d3c4)`, or nothing.
pub fn write_opening(
    out: &mut impl std::io::Write,
    opening: Option<&othbook::report::OpeningRef>,
) -> std::io::Result<()> {
    match opening {
        Some(o) => writeln!(
            out,
            "opening: {} ({})",
            o.name,
            othbook::board::format_moves(&o.moves)
        ),
        None => Ok(()),
    }
}

/// Average disc difference with a sign, or a dash.
pub fn diff_cell(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:+.1}"))
}

/// Footnotes for a book table of a symmetric position, which lists each set of equivalent
/// moves once: "f5 stands for d3, c4, e6 too: the position is symmetric".
pub fn write_equivalent_moves(
    out: &mut impl std::io::Write,
    board: &othbook::board::Board,
    listed: impl IntoIterator<Item = othbook::board::Move>,
) -> std::io::Result<()> {
    for mv in listed {
        let same: Vec<String> = othbook::book::key::equivalent_moves(board, mv)
            .iter()
            .filter(|m| **m != mv)
            .map(ToString::to_string)
            .collect();
        if !same.is_empty() {
            writeln!(
                out,
                "{mv} stands for {} too: the position is symmetric",
                same.join(", ")
            )?;
        }
    }
    Ok(())
}
