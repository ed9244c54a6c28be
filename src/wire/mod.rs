//! Text on the wire shared by the engine protocols' servers (`protocol`) and the clients that
//! drive other engines (`play`): GTP commands and responses, GGF clocks, spelled seconds and
//! the longest line either side reads. Both import it downward.

pub mod ggf_clock;
pub mod gtp;
pub mod line;
pub mod nboard;
pub mod seconds;
