//! `othbook serve`: the opening explorer as a local web page, with its JSON API.

use super::common::bad;
use anyhow::{Context, Result};
use othbook::serve::{self, AppState, BookSpec, FilesError, ServeOptions};
use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;

fn parse_book(text: &str) -> Result<BookSpec, String> {
    BookSpec::parse(text).map_err(|e| e.to_string())
}

/// The books of `args` (the default book when none is given), opened: those that fail are
/// reported on stderr and left out; an error when none opens or two share a name.
fn open_books(books: Vec<BookSpec>, options: ServeOptions) -> Result<(AppState, Vec<BookSpec>)> {
    let books = if books.is_empty() {
        let path = othbook::book::default_path();
        vec![BookSpec {
            name: BookSpec::name_of(&path),
            path,
        }]
    } else {
        books
    };
    match AppState::from_files(&books, options) {
        Ok((state, failed)) => {
            for (spec, e) in &failed {
                eprintln!(
                    "othbook: serve: cannot open book {} ({}), serving the others: {}",
                    spec.name,
                    spec.path.display(),
                    othbook::serve::reason(e)
                );
            }
            Ok((state, books))
        }
        Err(FilesError::Names(e)) => Err(bad(e.to_string())),
        Err(FilesError::Load(e)) => Err(e.into()),
        Err(e @ FilesError::NoBook) => Err(anyhow::anyhow!(e)),
    }
}

/// Arguments of `othbook serve`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Open the printed address in a browser: click moves on the board, \
see every reply with its games, results and values, the games that reached the position, \
and step through them. The JSON API under /api/v1 is described in docs/api.md.\n\n\
The server listens on this machine only unless --addr says otherwise; Ctrl-C stops it.\n\n\
Several books: give --book once per book, each NAME=PATH or a PATH named after its file \
name without extension (wthor.book: wthor); the page has a selector and the API a `book` \
parameter; the first book is the default. A book that does not open is reported and left out \
while the others are served (only when none opens does the server stop).\n\n\
Each book is read into memory. When its file changes (a rebuilt book renamed over it, or \
written in place), the server reads it again once it has stopped changing, and serves it if \
it is a valid book; otherwise it keeps serving the copy it has and says why on stderr.\n\n\
Examples:\n  othbook serve\n  othbook serve --book my.book --addr 127.0.0.1:9000 --open\n  \
othbook serve --book books/wthor.book --book mine=games/my.book"
)]
pub struct Args {
    /// A book to serve, NAME=PATH or PATH (named after its file stem); repeat for several,
    /// the first the default (default: the default book: $OTHBOOK_BOOK, else
    /// books/wthor.book here, in the data folder or in the source tree).
    #[arg(long = "book", value_name = "[NAME=]PATH", value_parser = parse_book)]
    books: Vec<BookSpec>,
    /// Address and port to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Deepest engine search a client may ask for (1-60).
    #[arg(long, default_value_t = serve::DEFAULT_MAX_DEPTH)]
    max_depth: u32,
    /// Engine searches running at once, one thread each (default: cores, at most 4).
    #[arg(long)]
    max_searches: Option<usize>,
    /// Answers kept for repeated queries.
    #[arg(long, default_value_t = 4096)]
    cache: usize,
    /// Longest the engine thinks about one move of a game played in the page, in seconds
    /// (0.01-600); a request asking for more is refused, and a depth is cut short by it.
    #[arg(long, value_name = "SECONDS", default_value_t = serve::DEFAULT_PLAY_MAX_TIME.as_secs_f64())]
    play_max_time: f64,
}

/// Connections the server keeps open at once: as many as the process may open files, less
/// a reserve for the book, the runtime and the engine, at most [`MAX_OPEN`]. The soft limit on
/// open files (often 1,024) is raised to the hard one first, as servers do, so that a burst of
/// idle clients, whose connections the server closes after a few seconds anyway, does not
/// turn others away.
fn connection_cap() -> usize {
    /// Never more than this many connections, whatever the limit.
    const MAX_OPEN: u64 = 16_384;
    /// Files kept for everything else.
    const RESERVE: u64 = 64;
    #[cfg(target_os = "linux")]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the one struct we pass.
        let files = unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return serve::MAX_CONNECTIONS;
            }
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                ..limit
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit.rlim_max
            } else {
                limit.rlim_cur
            }
        };
        let cap = files.min(MAX_OPEN).saturating_sub(RESERVE).max(1);
        usize::try_from(cap).unwrap_or(serve::MAX_CONNECTIONS)
    }
    #[cfg(not(target_os = "linux"))]
    {
        serve::MAX_CONNECTIONS
    }
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let searches = args.max_searches.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(4)
    });
    let options = ServeOptions::new(args.max_depth, searches, args.cache)
        .map_err(|e| bad(e.to_string()))?
        .with_max_connections(connection_cap());
    let play_time = std::time::Duration::try_from_secs_f64(args.play_max_time).map_err(|_| {
        bad(format!(
            "--play-max-time {} is out of range: use 0.01 to 600 seconds",
            args.play_max_time
        ))
    })?;
    let options = options
        .with_play_max_time(play_time)
        .map_err(|e| bad(format!("--play-max-time: {e}")))?;
    // Read into memory and checked whole, not mapped (another program that rewrites a
    // file in place can then neither change the answers nor kill the server with SIGBUS);
    // the server watches the files and serves each new valid version of them.
    let (state, books) = open_books(args.books, options)?;
    let state = Arc::new(state);
    let exploring = match books.as_slice() {
        [one] => one.path.display().to_string(),
        several => several
            .iter()
            .map(|b| format!("{}={}", b.name, b.path.display()))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let local = listener.local_addr()?;
        if let Some(warning) = serve::network_warning(&local) {
            eprintln!("{warning}");
        }
        let url = format!("http://{local}/");
        writeln!(
            out,
            "othbook: exploring {exploring} at {url} (Ctrl-C stops)"
        )?;
        out.flush()?;
        if args.open {
            open_browser(&url);
        }
        let stop = async {
            // Without a signal handler the server runs until killed; still a working server.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        serve::serve(listener, state, stop).await?;
        writeln!(out, "othbook: stopped")?;
        Ok(())
    })
}

/// Asks the desktop to open `url`; a failure is only a warning (the address is printed).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("othbook: cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
