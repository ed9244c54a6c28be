//! The evaluation graph of a review as a standalone SVG picture: black's score after every
//! ply, the zero line, the losses marked, move numbers and the players in the title. Any
//! browser or image viewer shows it; nothing of othbook is needed to read it.

use super::report::{Mark, Review};
use std::fmt::Write;

/// Picture size in pixels.
const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 320.0;
/// Room for the title (top), the score labels (left) and the move numbers (bottom).
const TOP: f64 = 62.0;
const LEFT: f64 = 46.0;
const RIGHT: f64 = 16.0;
const BOTTOM: f64 = 40.0;

/// The colour of a mark's dot.
fn mark_colour(m: Mark) -> &'static str {
    match m {
        Mark::Inaccuracy => "#d9a400",
        Mark::Mistake => "#e06c00",
        Mark::Blunder => "#c8102e",
    }
}

/// `text` safe inside an XML element or a double-quoted attribute.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 text.
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The half-height of the score axis in discs: the largest score rounded up to a multiple
/// of 8, at least 8 and at most 64.
fn scale(r: &Review) -> i32 {
    let most = r
        .series
        .iter()
        .map(|p| p.black.discs().abs().ceil() as i32)
        .max()
        .unwrap_or(0);
    (((most + 7) / 8) * 8).clamp(8, 64)
}

/// The title: the players (when the record names them), the event and the year.
fn title(r: &Review) -> String {
    let g = &r.game;
    let name = |n: &Option<String>| n.as_deref().unwrap_or("?").to_string();
    let mut t = format!("Black {} – White {}", name(&g.black), name(&g.white));
    if let Some(e) = &g.event {
        let _ = write!(t, ", {e}");
    }
    if let Some(y) = g.year {
        let _ = write!(t, " {y}");
    }
    t
}

/// How the scores were found, under the title.
fn subtitle(r: &Review) -> String {
    let s = &r.settings;
    let effort = match (s.depth, s.time) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(t)) => format!("{t} s a move"),
        (None, None) => String::new(),
    };
    let mut t = format!(
        "score after each move, black − white in discs ({effort}, exact from {} empties)",
        s.exact_from
    );
    if let Some(f) = r.final_black {
        let _ = write!(t, "; final {f:+}");
    }
    t
}

/// The picture of `r`'s series as an SVG document.
#[must_use]
pub fn svg(r: &Review) -> String {
    let plies = r.moves.last().map_or(1, |m| m.ply).max(1);
    let m = scale(r);
    let (w, h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let x = |ply: usize| LEFT + w * ply as f64 / plies as f64;
    let y = |discs: f64| TOP + h * (f64::from(m) - discs) / f64::from(2 * m);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(s, "<title>{}</title>", escape(&title(r)));
    let _ = writeln!(
        s,
        "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>\n\
         <text x=\"{LEFT}\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{}</text>\n\
         <text x=\"{LEFT}\" y=\"34\" fill=\"#555555\">{}</text>",
        escape(&title(r)),
        escape(&subtitle(r))
    );
    // Black's half of the score axis shaded, white's plain.
    let _ = writeln!(
        s,
        "<rect class=\"black-ahead\" x=\"{LEFT}\" y=\"{TOP}\" width=\"{w}\" height=\"{:.1}\" \
         fill=\"#ececec\"/>\n<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{w}\" height=\"{h}\" \
         fill=\"none\" stroke=\"#999999\"/>",
        h / 2.0
    );
    axes(&mut s, plies, m, &x, &y);
    exact_boundary(&mut s, r, &x);
    score_line(&mut s, r, &x, &y);
    legend(&mut s);
    s.push_str("</svg>\n");
    s
}

/// Score labels every quarter of the axis, the zero line, and move numbers every 10 plies.
fn axes(s: &mut String, plies: usize, m: i32, x: &dyn Fn(usize) -> f64, y: &dyn Fn(f64) -> f64) {
    for k in -2..=2 {
        let v = m * k / 2;
        let yy = y(f64::from(v));
        let (stroke, dash) = if v == 0 {
            ("#333333", " stroke-dasharray=\"4 3\" class=\"zero\"")
        } else {
            ("#dddddd", "")
        };
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{yy:.1}\" x2=\"{:.1}\" y2=\"{yy:.1}\" stroke=\"{stroke}\"{dash}/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            WIDTH - RIGHT,
            LEFT - 6.0,
            yy + 4.0,
            if v == 0 { "0".to_string() } else { format!("{v:+}") }
        );
    }
    let base = HEIGHT - BOTTOM;
    let step = if plies > 30 { 10 } else { 5 };
    for ply in (0..=plies).step_by(step) {
        let xx = x(ply);
        let _ = writeln!(
            s,
            "<line x1=\"{xx:.1}\" y1=\"{base}\" x2=\"{xx:.1}\" y2=\"{:.1}\" stroke=\"#333333\"/>\n\
             <text class=\"ply\" x=\"{xx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{ply}</text>",
            base + 4.0,
            base + 16.0
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#555555\">move</text>",
        LEFT + (WIDTH - LEFT - RIGHT) / 2.0,
        base + 32.0
    );
}

/// A dotted line where the exact solver took over.
fn exact_boundary(s: &mut String, r: &Review, x: &dyn Fn(usize) -> f64) {
    if let Some(e) = &r.exact_phase {
        let xx = x(e.from_ply.saturating_sub(1));
        let _ = writeln!(
            s,
            "<line x1=\"{xx:.1}\" y1=\"{TOP}\" x2=\"{xx:.1}\" y2=\"{:.1}\" stroke=\"#2a6fb0\" \
             stroke-dasharray=\"1 3\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#2a6fb0\">exact</text>",
            HEIGHT - BOTTOM,
            xx + 3.0,
            TOP + 12.0
        );
    }
}

/// The score line, one vertex a ply, and a dot on each marked move.
fn score_line(s: &mut String, r: &Review, x: &dyn Fn(usize) -> f64, y: &dyn Fn(f64) -> f64) {
    let points: Vec<String> = r
        .series
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.ply), y(p.black.discs())))
        .collect();
    let _ = writeln!(
        s,
        "<polyline class=\"score\" fill=\"none\" stroke=\"#1a1a1a\" stroke-width=\"2\" \
         points=\"{}\"/>",
        points.join(" ")
    );
    for p in &r.series {
        let Some(mark) = p.mark else { continue };
        let row = r.moves.iter().find(|m| m.ply == p.ply);
        let what = row.map_or(String::new(), |m| {
            let loss = m.verdict.as_ref().map_or(0.0, |v| v.loss.discs());
            format!(" {} ({}), lost {loss:.2} discs", m.mv, m.side)
        });
        let _ = writeln!(
            s,
            "<circle class=\"mark mark-{mark}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{}\" \
             stroke=\"#ffffff\"><title>{}</title></circle>",
            x(p.ply),
            y(p.black.discs()),
            mark_colour(mark),
            escape(&format!("{}.{what}: {mark}", p.ply))
        );
    }
}

/// Which colour is which mark.
fn legend(s: &mut String) {
    let mut xx = WIDTH - RIGHT - 250.0;
    for m in [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder] {
        let _ = writeln!(
            s,
            "<circle cx=\"{xx:.1}\" cy=\"48\" r=\"5\" fill=\"{}\"/>\n\
             <text x=\"{:.1}\" y=\"52\">{m}</text>",
            mark_colour(m),
            xx + 8.0
        );
        xx += 84.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{parse_moves, Position};
    use crate::engine::{Engine, EngineOptions, ThreadCount};
    use crate::review::{review, Effort, ReviewInput, ReviewOptions};

    /// Checks that every element opened is closed in order and every `&` starts an entity:
    /// enough of XML's rules to catch a broken picture.
    fn assert_well_formed(doc: &str) {
        let mut open: Vec<String> = Vec::new();
        let mut rest = doc;
        while let Some(at) = rest.find('<') {
            let text = &rest[..at];
            for (i, _) in text.match_indices('&') {
                let tail = &text[i..];
                assert!(
                    ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                        .iter()
                        .any(|e| tail.starts_with(e)),
                    "a bare & in {text:?}"
                );
            }
            let end = rest[at..].find('>').expect("a tag is closed") + at;
            let tag = &rest[at + 1..end];
            rest = &rest[end + 1..];
            if tag.starts_with('?') {
                continue;
            }
            assert!(!tag.contains('<'), "a < inside a tag: {tag}");
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(open.pop().as_deref(), Some(name), "closing {name}");
            } else if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().unwrap_or("").to_string());
            }
        }
        assert!(open.is_empty(), "left open: {open:?}");
    }

    fn reviewed() -> Review {
        let moves = parse_moves("f5d6c3d3c4f4f6f3e6e7d7c6b5").unwrap();
        let mut input = ReviewInput::new(Position::START, moves);
        input.info.black = Some("Tamenori <A&B>".into());
        input.info.white = Some("O'Neil \"X\"".into());
        let opts = ReviewOptions::new(Effort::Depth(crate::engine::Depth::of(2)), 0).unwrap();
        let engine = Engine::new(EngineOptions {
            threads: ThreadCount::ONE,
            hash_mb: crate::engine::HashSize::of(1),
        });
        review(&input, &engine, None, &opts, |_, _| {}).unwrap()
    }

    #[test]
    fn the_picture_has_one_vertex_a_ply_and_a_dot_a_mark() {
        let mut r = reviewed();
        assert_eq!(r.series.len(), r.moves.len());
        for p in &mut r.series {
            p.mark = None;
        }
        r.series[3].mark = Some(Mark::Blunder);
        r.series[6].mark = Some(Mark::Inaccuracy);
        let doc = svg(&r);
        assert_well_formed(&doc);
        let line = doc.split("points=\"").nth(1).unwrap();
        let line = &line[..line.find('"').unwrap()];
        assert_eq!(line.split_whitespace().count(), r.moves.len());
        assert_eq!(doc.matches("class=\"mark mark-blunder\"").count(), 1);
        assert_eq!(doc.matches("class=\"mark mark-inaccuracy\"").count(), 1);
        assert_eq!(doc.matches("class=\"mark ").count(), 2);
        assert_eq!(doc.matches("class=\"zero\"").count(), 1);
        // Move numbers 0, 5, 10 for a game of 13 plies.
        assert_eq!(doc.matches("class=\"ply\"").count(), 3);
    }

    #[test]
    fn names_are_escaped() {
        let doc = svg(&reviewed());
        assert_well_formed(&doc);
        assert!(doc.contains("Tamenori &lt;A&amp;B&gt;"), "{doc}");
        assert!(doc.contains("O&apos;Neil &quot;X&quot;"));
        assert!(!doc.contains("<A&B>"));
    }

    #[test]
    fn the_score_axis_fits_the_largest_score() {
        let mut r = reviewed();
        r.series[0].black = crate::review::Discs(2050);
        assert_eq!(scale(&r), 24);
        r.series[0].black = crate::review::Discs(-9000);
        assert_eq!(scale(&r), 64);
    }
}
