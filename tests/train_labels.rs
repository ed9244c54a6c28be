//! Training labels from the engine's searches: the labelling rule at each selectivity, runs in
//! parts, the labels file round trip through the command (and standard input), training on
//! labels (pulled toward the prior, lower error, deterministic) and the joint fit of game
//! results and labels.

mod common;

use common::{need, othbook};
use othbook::engine::{
    Depth, Engine, EngineOptions, Evaluator, Limits, PatternEval, Selectivity, SCALE,
};
use othbook::train::label::{self, LabelOptions, LabelSettings};
use othbook::train::{train, train_joint, train_labels, LabelWeight, TrainSettings};
use othbook::transcript::{ingest, IngestOptions};
use std::path::PathBuf;

const WTHOR_2021: &str = "../shared/data/wthor/WTH_2021.wtb";

fn games() -> Vec<othbook::transcript::GameRecord> {
    ingest(
        &[PathBuf::from(need(WTHOR_2021))],
        &IngestOptions {
            dedupe: true,
            ..IngestOptions::default()
        },
    )
    .expect("reads WTHOR 2021")
    .games
}

fn engine() -> Engine {
    Engine::try_with_evaluator(EngineOptions::default(), PatternEval::default()).expect("engine")
}

/// Checks that `labels` follow the rule of `opts` (solves up to `opts.exact`, the mean of
/// depth `opts.depth` and `+1` at `opts.selectivity` above) and returns (solved, searched).
fn check_rule(labels: &[label::Labelled], opts: &LabelOptions) -> (usize, usize) {
    let mut check = engine();
    let (mut exact, mut searched) = (0, 0);
    for l in labels {
        check.clear();
        let e = l.board.empty_count();
        assert!((opts.empties.0..=opts.empties.1).contains(&e));
        let want = if e <= opts.exact {
            exact += 1;
            (check.analyze(&l.board, &Limits::exact()).unwrap().score / SCALE) as f32
        } else {
            searched += 1;
            let at = |d| Limits::depth(Depth::of(d)).selectivity(opts.selectivity);
            let a = check.analyze(&l.board, &at(opts.depth)).unwrap().score;
            let b = check.analyze(&l.board, &at(opts.depth + 1)).unwrap().score;
            (a + b) as f32 / 2.0 / SCALE as f32
        };
        assert!(
            (l.value - want).abs() < 1e-4,
            "{:?}: {} vs {want}",
            l.board,
            l.value
        );
    }
    (exact, searched)
}

#[test]
fn labels_are_exact_solves_near_the_end_and_mean_depths_above() {
    let games = games();
    let mut by_level = Vec::new();
    for selectivity in [Selectivity::EXACT, Selectivity::LOWEST] {
        let opts = LabelSettings {
            every: 16,
            per_game: 2,
            empties: (10, 24),
            exact: 14,
            depth: 5,
            selectivity,
            ..LabelSettings::default()
        }
        .check()
        .unwrap();
        let labels = label::label(&games, &mut engine(), &opts, |_| {}).expect("labels");
        assert!(labels.len() >= 20, "{} labels", labels.len());
        let (exact, searched) = check_rule(&labels, &opts);
        assert!(exact > 0 && searched > 0);
        // Same games and options: the same labels.
        assert_eq!(
            label::label(&games, &mut engine(), &opts, |_| {}).unwrap(),
            labels
        );
        by_level.push(labels);
    }
    // The solves are exact at every selectivity; ProbCut changes some searched values.
    let (full, cut) = (&by_level[0], &by_level[1]);
    assert_eq!(full.len(), cut.len());
    let mut changed = 0;
    for (a, b) in full.iter().zip(cut) {
        assert_eq!(a.board, b.board);
        if a.board.empty_count() <= 14 {
            assert_eq!(a.value, b.value, "a solve depends on the selectivity");
        } else if a.value != b.value {
            changed += 1;
        }
    }
    assert!(changed > 0, "73% gave the full-width values everywhere");
}

/// Cheap labels of one game in 40 (shallow searches, solves from 12 empties).
fn quick() -> LabelOptions {
    LabelSettings {
        every: 40,
        empties: (10, 30),
        exact: 12,
        depth: 2,
        ..LabelSettings::default()
    }
    .check()
    .unwrap()
}

#[test]
fn parts_of_a_label_run_hold_the_whole_runs_positions() {
    let games = games();
    let opts = quick();
    let key = |l: &label::Labelled| (l.board.player().0, l.board.opponent().0, l.value.to_bits());
    let mut whole: Vec<_> = label::label(&games, &mut engine(), &opts, |_| {})
        .unwrap()
        .iter()
        .map(key)
        .collect();
    let mut parts = Vec::new();
    for k in 0..3 {
        let part = LabelSettings {
            part: (k, 3),
            ..*opts
        }
        .check()
        .unwrap();
        let labels = label::label(&games, &mut engine(), &part, |_| {}).unwrap();
        assert!(!labels.is_empty() && labels.len() < whole.len());
        parts.extend(labels.iter().map(key));
    }
    whole.sort_unstable();
    parts.sort_unstable();
    assert_eq!(parts, whole);
    let bad = LabelSettings {
        part: (3, 3),
        ..*opts
    };
    assert!(bad.check().is_err());
}

#[test]
fn a_resumed_label_run_keeps_the_labels_it_is_given_and_ends_as_the_whole_run() {
    use std::ops::ControlFlow;
    let games = games();
    let opts = LabelSettings {
        theoretical: true,
        ..*quick()
    }
    .check()
    .unwrap();
    let whole = label::label(&games, &mut engine(), &opts, |_| {}).unwrap();
    let stop_at = whole.len() / 2;
    let first = label::label_from(&games, &mut engine(), &opts, &[], |l| {
        if l.len() == stop_at {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert!(first.stopped);
    assert_eq!(first.labels[..], whole[..stop_at]);
    // Values the search would not give: a resumed run keeps them, and searches only after.
    let mut kept = first.labels.clone();
    for l in &mut kept {
        l.value += 100.0;
    }
    let mut searched = 0;
    let rest = label::label_from(&games, &mut engine(), &opts, &kept, |_| {
        searched += 1;
        ControlFlow::Continue(())
    })
    .unwrap();
    assert!(!rest.stopped);
    assert_eq!(searched, whole.len() - stop_at);
    assert_eq!(rest.labels[..stop_at], kept[..]);
    assert_eq!(rest.labels[stop_at..], whole[stop_at..]);
    // Labels from other options are refused, naming the first position that differs.
    let mut other = first.labels.clone();
    other[3].board = other[4].board;
    let err = label::label_from(&games, &mut engine(), &opts, &other, |_| {
        ControlFlow::Continue(())
    })
    .unwrap_err();
    assert!(err.to_string().contains("position 4 "), "{err}");
    let mut longer = whole.clone();
    longer.push(whole[0]);
    let err = label::label_from(&games, &mut engine(), &opts, &longer, |_| {
        ControlFlow::Continue(())
    })
    .unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("position {} ", whole.len() + 1)),
        "{err}"
    );
}

// libc is a dependency on Linux only.
#[cfg(target_os = "linux")]
#[test]
fn regression_an_interrupted_label_run_lost_its_labels() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let wthor = std::fs::canonicalize(need(WTHOR_2021)).unwrap();
    let run = |out: &str| -> Vec<String> {
        [
            "train",
            "label",
            wthor.to_str().unwrap(),
            "--every",
            "1",
            "--per-game",
            "2",
            "--depth",
            "9",
            "--selectivity",
            "exact",
            "--exact",
            "12",
            "--empties",
            "13-40",
            "--limit",
            "400",
            "--out",
            out,
        ]
        .iter()
        .map(|a| a.to_string())
        .collect()
    };
    let args = run("stopped.txt");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Stopped after 1.5 s, or later if a loaded machine had not labelled a position by then.
    let labelled = |p: &std::path::Path| label::load(p).is_ok_and(|l| !l.is_empty());
    let (code, _, err) = common::interrupted_after_work(
        d,
        &args,
        std::time::Duration::from_millis(1500),
        &d.join("stopped.txt"),
        labelled,
    );
    assert_eq!(
        code,
        Some(130),
        "the run ended before the signal: make it longer\n{err}"
    );
    assert!(err.contains("--resume"), "{err}");
    let saved = label::load(&d.join("stopped.txt")).expect("the stopped run's labels load");
    assert!(!saved.is_empty() && saved.len() < 400, "{}", saved.len());
    // Other options whose very first position differs: how many labels a loaded machine saved
    // before the signal must not matter (with another --holdout the first games' labels are
    // the same, so a short stopped file was accepted).
    let mut other: Vec<&str> = args
        .iter()
        .map(|&a| if a == "13-40" { "14-40" } else { a })
        .collect();
    other.push("--resume");
    let (code, _, err) = common::run_in(d, &other);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("is not the one these games and options give"),
        "{err}"
    );
    let mut resumed = args.clone();
    resumed.push("--resume");
    let out = othbook().current_dir(d).args(&resumed).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        text.contains(&format!("{} labels kept", saved.len())),
        "{text}"
    );
    let whole = run("whole.txt");
    let whole: Vec<&str> = whole.iter().map(String::as_str).collect();
    othbook().current_dir(d).args(&whole).assert().success();
    let (a, b) = (
        std::fs::read(d.join("stopped.txt")).unwrap(),
        std::fs::read(d.join("whole.txt")).unwrap(),
    );
    assert!(
        a == b,
        "the resumed run's file differs from an uninterrupted run's"
    );
}

#[test]
fn theoretical_labels_are_the_wthor_scores_at_24_empties() {
    let games = games();
    let only = LabelSettings {
        every: 8,
        per_game: 0,
        theoretical: true,
        ..LabelSettings::default()
    }
    .check()
    .unwrap();
    let labels = label::label(&games, &mut engine(), &only, |_| {}).expect("labels");
    let expected: Vec<label::Labelled> = games
        .iter()
        .enumerate()
        .filter(|(i, _)| !othbook::train::holdout::is_held_out(*i, only.holdout))
        .map(|(_, g)| g)
        .step_by(only.every)
        .filter_map(othbook::train::holdout::scored_at_24)
        .map(|s| label::Labelled {
            board: s.position.board,
            value: s.exact as f32,
        })
        .collect();
    assert!(labels.len() >= 30, "{} labels", labels.len());
    assert_eq!(labels, expected);
    // The free labels are the solver's: two of them solved here.
    for l in labels.iter().take(2) {
        let a = engine().analyze(&l.board, &Limits::exact()).expect("solve");
        assert_eq!((a.score / SCALE) as f32, l.value, "{:?}", l.board);
    }
    // Beside searched positions, a game's theoretical label replaces its searched one at 24.
    let mixed = LabelSettings {
        every: 40,
        per_game: 3,
        empties: (22, 26),
        exact: 12,
        depth: 2,
        ..*only
    }
    .check()
    .unwrap();
    let both = label::label(&games, &mut engine(), &mixed, |_| {}).expect("labels");
    let searched = label::label(
        &games,
        &mut engine(),
        &LabelSettings {
            theoretical: false,
            ..*mixed
        }
        .check()
        .unwrap(),
        |_| {},
    )
    .expect("labels");
    let at_24 = |ls: &[label::Labelled]| ls.iter().filter(|l| l.board.empty_count() == 24).count();
    assert!(at_24(&both) > at_24(&searched));
    assert_eq!(both.len() - at_24(&both), searched.len() - at_24(&searched));
    let none = LabelSettings {
        theoretical: false,
        ..*only
    };
    assert!(none.check().is_err());
}

/// Regression: `train label` wrote an empty labels file, with success, when nothing could
/// be labelled (theoretical labels of games that carry no theoretical score).
#[test]
fn regression_train_label_wrote_an_empty_file_with_success() {
    let dir = tempfile::tempdir().unwrap();
    let lab = dir.path().join("labels.txt");
    let pgn = need("../shared/data/pgn/WTH_2021.pgn");
    let runs: [&[&str]; 2] = [&["--per-game", "0", "--theoretical"], &["--limit", "0"]];
    for (extra, reason) in runs.iter().zip(["theoretical score", "no position"]) {
        let out = othbook()
            .args(["train", "label", pgn, "--out", lab.to_str().unwrap()])
            .args(*extra)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(reason) && err.contains("not written"), "{err}");
        assert!(!lab.exists(), "an empty labels file was written");
    }
    // A labels file with no position (made some other way) is refused for what it is, not
    // as a lack of finished games.
    std::fs::write(&lab, "# othbook labels 1\n").unwrap();
    let w = dir.path().join("w.bin");
    let out = othbook()
        .args(["train", "--labels", lab.to_str().unwrap()])
        .args(["--out", w.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no labelled position to train on (0 labels"),
        "{err}"
    );
    assert!(!w.exists());
}

#[test]
fn joint_fit_is_deterministic_and_weighs_the_labels() {
    let games = games();
    let lab_opts = LabelSettings {
        every: 8,
        empties: (14, 40),
        exact: 14,
        depth: 2,
        ..LabelSettings::default()
    }
    .check()
    .unwrap();
    let labels = label::label(&games, &mut engine(), &lab_opts, |_| {}).expect("labels");
    let opts = TrainSettings {
        iterations: 10,
        ..TrainSettings::default()
    }
    .check()
    .unwrap();
    // Without labels, the joint fit is the game-result fit, byte for byte.
    let plain = train(&games, &opts, |_| {}).expect("trains");
    let none =
        train_joint(&games, &[], LabelWeight::new(3.0).unwrap(), &opts, |_| {}).expect("trains");
    assert_eq!(plain.eval.to_bytes(), none.eval.to_bytes());
    let mae = |e: &PatternEval| {
        labels
            .iter()
            .map(|l| {
                let v = e.eval(l.board.player().0, l.board.opponent().0) as f32 / SCALE as f32;
                f64::from((v - l.value).abs())
            })
            .sum::<f64>()
            / labels.len() as f64
    };
    let joint = |weight: f64| {
        train_joint(
            &games,
            &labels,
            LabelWeight::new(weight).unwrap(),
            &opts,
            |_| {},
        )
        .expect("trains")
    };
    let (light, heavy, again) = (joint(1.0), joint(50.0), joint(50.0));
    assert_eq!(
        heavy.eval.to_bytes(),
        again.eval.to_bytes(),
        "deterministic"
    );
    let (p, l, h) = (mae(&plain.eval), mae(&light.eval), mae(&heavy.eval));
    assert!(
        h < l && l <= p,
        "label error: plain {p}, weight 1 {l}, weight 50 {h}"
    );
    assert!(LabelWeight::new(0.0).is_err());
    assert!(LabelWeight::new(f64::NAN).is_err());
}

#[test]
fn label_command_writes_a_file_that_trains_toward_its_labels() {
    let dir = tempfile::tempdir().unwrap();
    let lab = dir.path().join("labels.txt");
    let lab_s = lab.to_str().unwrap();
    othbook()
        .args([
            "train",
            "label",
            need(WTHOR_2021),
            "--every",
            "2",
            "--depth",
            "2",
        ])
        .args(["--exact", "12", "--out", lab_s])
        .assert()
        .success();
    let labels = label::load(&lab).expect("the command's file loads");
    assert!(labels.len() > 300, "{}", labels.len());
    assert_eq!(
        label::to_text(&labels),
        std::fs::read_to_string(&lab).unwrap()
    );

    let prior = PatternEval::default();
    let opts = TrainSettings {
        holdout: 0,
        ..TrainSettings::default()
    }
    .check()
    .unwrap();
    let a = train_labels(&labels, &opts, &prior, |_| {}).expect("trains");
    let b = train_labels(&labels, &opts, &prior, |_| {}).expect("trains");
    assert_eq!(a.eval.to_bytes(), b.eval.to_bytes(), "deterministic");
    let mae = |e: &PatternEval| {
        labels
            .iter()
            .map(|l| {
                let v = e.eval(l.board.player().0, l.board.opponent().0) as f32 / SCALE as f32;
                f64::from((v - l.value).abs())
            })
            .sum::<f64>()
            / labels.len() as f64
    };
    assert!(
        mae(&a.eval) < 0.9 * mae(&prior),
        "trained {} vs prior {}",
        mae(&a.eval),
        mae(&prior)
    );

    // The command does the same and refuses a labels file that is not one.
    let out = dir.path().join("eval.bin");
    othbook()
        .args(["train", "--labels", lab_s, "--holdout", "0", "--out"])
        .arg(&out)
        .assert()
        .success();
    assert_eq!(std::fs::read(&out).unwrap(), a.eval.to_bytes());
    // `--labels -` reads standard input (it used to look for a file named `-`).
    let piped = dir.path().join("piped.bin");
    othbook()
        .args(["train", "--labels", "-", "--holdout", "0", "--out"])
        .arg(&piped)
        .write_stdin(std::fs::read(&lab).unwrap())
        .assert()
        .success();
    assert_eq!(std::fs::read(&piped).unwrap(), a.eval.to_bytes());
    let junk = dir.path().join("junk.txt");
    std::fs::write(&junk, "hello\n").unwrap();
    let err = othbook()
        .args(["train", "--labels", junk.to_str().unwrap(), "--out"])
        .arg(&out)
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&err).contains("junk.txt:1:"));
}

#[test]
fn a_prior_of_another_phase_width_is_refused() {
    let labels = vec![label::Labelled {
        board: othbook::board::Board::START,
        value: 0.0,
    }];
    let opts = TrainSettings {
        phase_width: 7,
        holdout: 0,
        ..TrainSettings::default()
    }
    .check()
    .unwrap();
    assert!(train_labels(&labels, &opts, &PatternEval::default(), |_| {}).is_err());
}

#[test]
fn the_parity_correction_shifts_every_bias_and_closes_the_odd_even_gap() {
    use othbook::train::parity;
    let games = games();
    let positions = parity::positions_from_games(&games, 20, 12);
    assert_eq!(positions.len(), 12);
    assert!(positions
        .iter()
        .all(|b| (20..=40).contains(&b.empty_count())));
    let eval = PatternEval::default();
    let shifted = parity::shift_biases(&eval, 1.5);
    for b in &positions {
        let (p, o) = (b.player().0, b.opponent().0);
        assert_eq!(shifted.eval(p, o) - eval.eval(p, o), 3 * SCALE / 2);
    }
    let before = parity::odd_minus_even(&eval, &positions).unwrap();
    let after_shift = parity::odd_minus_even(&shifted, &positions).unwrap();
    // Every leaf of a search has one parity: +1.5 discs at the leaves moves odd depths down
    // and even ones up by 1.5 (ProbCut's shallow searches keep the parity too).
    assert!(
        (after_shift - before + 3.0).abs() < 0.5,
        "{before} -> {after_shift}"
    );
    let (corrected, gap, shift) = parity::correct(&shifted, &positions).unwrap();
    assert_eq!(gap, after_shift);
    assert_eq!(shift, gap / 2.0);
    let left = parity::odd_minus_even(&corrected, &positions).unwrap();
    assert!(
        left.abs() < 0.5 && left.abs() < gap.abs(),
        "{gap} -> {left}"
    );
}
