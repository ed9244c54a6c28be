//! Training labels from the engine's searches: the labelling rule, the labels file round trip
//! through the command, and training on labels (pulled toward the prior, lower error,
//! deterministic).

mod common;

use common::{need, othbook};
use othbook::engine::{Engine, EngineOptions, Evaluator, Limits, PatternEval, SCALE};
use othbook::train::label::{self, LabelOptions};
use othbook::train::{train_labels, TrainOptions};
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

#[test]
fn labels_are_exact_solves_near_the_end_and_mean_depths_above() {
    let opts = LabelOptions {
        every: 16,
        per_game: 2,
        empties: (10, 24),
        exact: 14,
        depth: 3,
        ..LabelOptions::default()
    };
    let games = games();
    let labels = label::label(&games, &mut engine(), &opts, |_| {}).expect("labels");
    assert!(labels.len() >= 20, "{} labels", labels.len());
    let mut check = engine();
    let (mut exact, mut searched) = (0, 0);
    for l in &labels {
        check.clear();
        let e = l.board.empty_count();
        assert!((10..=24).contains(&e));
        let want = if e <= 14 {
            exact += 1;
            (check.analyze(&l.board, &Limits::exact()).unwrap().score / SCALE) as f32
        } else {
            searched += 1;
            let a = check.analyze(&l.board, &Limits::depth(3)).unwrap().score;
            let b = check.analyze(&l.board, &Limits::depth(4)).unwrap().score;
            (a + b) as f32 / 2.0 / SCALE as f32
        };
        assert!(
            (l.value - want).abs() < 1e-4,
            "{:?}: {} vs {want}",
            l.board,
            l.value
        );
    }
    assert!(exact > 0 && searched > 0);
    // Same games and options: the same labels.
    assert_eq!(
        label::label(&games, &mut engine(), &opts, |_| {}).unwrap(),
        labels
    );
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
    let opts = TrainOptions {
        holdout: 0,
        ..TrainOptions::default()
    };
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
    let opts = TrainOptions {
        phase_width: 7,
        holdout: 0,
        ..TrainOptions::default()
    };
    assert!(train_labels(&labels, &opts, &PatternEval::default(), |_| {}).is_err());
}
