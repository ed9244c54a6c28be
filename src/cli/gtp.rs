//! `othbook gtp`: a GTP engine on stdin/stdout, for GUIs, match tools and other engines.

use super::common::bad;
use anyhow::Result;
use othbook::play::spec::PlayerSpec;
use othbook::protocol::gtp::GtpServer;
use std::io::Write;
use std::time::Duration;

/// The player behind `genmove` when none is given.
pub const DEFAULT_PLAYER: &str = "engine";

/// Arguments of `othbook gtp`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Only protocol goes to stdout; diagnostics go to stderr.\n\n\
Examples:\n  othbook gtp\n  othbook gtp --player mcts:time=0.5\n  \
othbook match --black \"gtp:othbook gtp\" --white random --games 2"
)]
pub struct Args {
    /// Player answering genmove (see `othbook match --help` for the list).
    #[arg(long, default_value = DEFAULT_PLAYER)]
    player: String,
    /// Seconds per move when the controller sets no clock.
    #[arg(long, default_value_t = 0.9)]
    time: f64,
}

pub fn run(args: Args, out: &mut impl Write) -> Result<()> {
    if !(0.001..=3600.0).contains(&args.time) {
        return Err(bad("--time must be 0.001 to 3600 seconds"));
    }
    let spec: PlayerSpec = args.player.parse().map_err(|e| bad(format!("{e}")))?;
    spec.validate().map_err(|e| bad(format!("{e}")))?;
    let player = spec.build()?;
    let mut server = GtpServer::new(player, Duration::from_secs_f64(args.time));
    let stdin = std::io::stdin();
    server.serve(stdin.lock(), out, &mut std::io::stderr())?;
    Ok(())
}
