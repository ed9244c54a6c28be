//! The application: its routes, and serving it on a listener (watching the book files).

use super::state::{AppState, MAX_BODY_BYTES};
use super::{api, assets, conn, history, play, watch};
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::future::Future;
use std::sync::Arc;

/// The warning `serve` prints when it listens on `addr` and `addr` is not a loopback
/// address: other machines can then reach the explorer, which has no authentication.
#[must_use]
pub fn network_warning(addr: &std::net::SocketAddr) -> Option<String> {
    let ip = addr.ip().to_canonical();
    if ip.is_loopback() {
        return None;
    }
    let reach = if ip.is_unspecified() {
        "every network this machine is on"
    } else {
        "the network"
    };
    Some(format!(
        "othbook: warning: listening on {addr}: the explorer is open to {reach}, with no \
         authentication (anyone who reaches it can query the book and run searches); \
         --addr 127.0.0.1:PORT keeps it on this machine"
    ))
}

/// The whole application: the page, its assets and the API.
pub fn router(state: Arc<AppState>) -> Router {
    let api = Router::new()
        .route("/info", get(api::info))
        .route("/explore", get(api::explore))
        .route("/games", get(api::games))
        .route("/history", get(history::history))
        .route("/review", get(api::review_get).post(api::review_post))
        .route("/play", post(play::play))
        .route("/transcript", post(play::transcript))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed);
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/graph.js", get(assets::graph))
        .route("/history.js", get(assets::history))
        .route("/play.js", get(assets::play))
        .route("/ratings.js", get(assets::ratings))
        .route("/losses.js", get(assets::losses))
        .nest("/api/v1", api)
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

/// Serves `state` on `listener` until `shutdown` completes; requests under way are finished
/// first. A state made by [`AppState::from_file`] or [`AppState::from_files`] has its book
/// files watched meanwhile, and each new valid version of them served.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let max_connections = state.options.max_connections;
    let watchers: Vec<_> = state
        .books
        .iter()
        .enumerate()
        .filter_map(|(i, b)| Some((i, b.source.clone()?)))
        .map(|(i, path)| tokio::spawn(watch::watch(state.clone(), i, path)))
        .collect();
    let served = conn::serve(listener, router(state), max_connections, shutdown).await;
    for w in watchers {
        w.abort();
    }
    served
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_listen_without_a_warning() {
        for quiet in [
            "127.0.0.1:8080",
            "127.1.2.3:80",
            "[::1]:8080",
            "[::ffff:127.0.0.1]:80",
        ] {
            assert_eq!(network_warning(&quiet.parse().unwrap()), None, "{quiet}");
        }
        for open in [
            "0.0.0.0:8080",
            "[::]:8080",
            "192.168.1.5:80",
            "[2001:db8::1]:80",
        ] {
            let w = network_warning(&open.parse().unwrap()).unwrap_or_default();
            assert!(w.contains("open to"), "{open}: {w}");
        }
    }
}
