//! `othbook gtp`: a GTP engine on stdin/stdout, for GUIs, match tools and other engines.

use super::common::bad;
use anyhow::Result;
use othbook::play::spec::PlayerSpec;
use othbook::protocol::gtp::GtpServer;
use othbook::wire::seconds::Seconds;
use std::io::Write;

/// The player behind `genmove` when none is given.
pub const DEFAULT_PLAYER: &str = "engine";

/// Arguments of `othbook gtp`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Only protocol goes to stdout; diagnostics go to stderr.\n\n\
Examples:\n  othbook gtp\n  othbook gtp --player mcts:time=0.5\n  \
othbook gtp --player engine:book-randomness=2   (an evaluated book's moves within 2 discs)\n  \
othbook match --black \"gtp:othbook gtp\" --white random --games 2"
)]
pub struct Args {
    /// Player answering genmove (see `othbook match --help` for the list).
    #[arg(long, default_value = DEFAULT_PLAYER)]
    player: String,
    /// Seconds per move when the controller sets no clock (0.001-3600).
    #[arg(long, default_value = "0.9", allow_hyphen_values = true)]
    time: Seconds,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    let time = args
        .time
        .within(0.001, 3600.0)
        .map_err(|e| bad(format!("--time: {e}")))?;
    let spec: PlayerSpec = args.player.parse().map_err(|e| bad(format!("{e}")))?;
    let player = spec.build()?;
    let mut server = GtpServer::new(player, time.duration());
    let stdin = std::io::stdin();
    server.serve(stdin.lock(), out, &mut std::io::stderr())?;
    Ok(())
}
