use super::*;

#[test]
fn selectivity_parses_and_prints_every_level() {
    for s in Selectivity::all() {
        assert_eq!(s.to_string().parse::<Selectivity>(), Ok(s));
        assert_eq!(s.percent().to_string().parse::<Selectivity>(), Ok(s));
    }
    assert_eq!("exact".parse(), Ok(Selectivity::EXACT));
    assert_eq!("100".parse(), Ok(Selectivity::EXACT));
    assert!("90".parse::<Selectivity>().is_err());
    assert!("".parse::<Selectivity>().is_err());
    assert!(Selectivity::LOWEST < Selectivity::MIDGAME_DEFAULT);
    assert!(Selectivity::MIDGAME_DEFAULT < Selectivity::EXACT);
    assert_eq!(Selectivity::EXACT.next(), Selectivity::EXACT);
}

#[test]
fn shallow_depths_keep_the_parity_and_stay_shallower() {
    for d in MID_MIN_DEPTH..=40 {
        let (s, _) = mid_fit(30, d);
        assert!(s >= 1 && s < d, "depth {d} -> {s}");
        assert_eq!(s % 2, d % 2, "depth {d} -> {s}");
    }
    for e in END_MIN_EMPTIES..=60 {
        assert!(end_shallow(e) < e);
    }
}

/// Every entry a search can reach is a real fit of its own pair: the shallow depth the search
/// uses, a spread to cut by and a slope near one (a table of placeholders, or one fitted on
/// no positions, would have σ = 0 and cut on any prediction beyond the window).
#[test]
fn every_reachable_entry_is_a_fit_of_its_own_pair() {
    for (band, fits) in table::MIDGAME.iter().enumerate() {
        for d in MID_MIN_DEPTH..=MID_MAX_DEPTH {
            let f = fits[d as usize];
            assert_eq!(
                u32::from(f.shallow),
                mid_shallow(d),
                "band {band} depth {d}"
            );
            assert!(f.sigma > 50.0, "band {band} depth {d}: {f:?}");
            assert!((0.5..1.5).contains(&f.a), "band {band} depth {d}: {f:?}");
        }
    }
    for e in END_MIN_EMPTIES..=END_MAX_EMPTIES {
        let f = end_fit(e);
        assert_eq!(u32::from(f.shallow), end_shallow(e), "{e} empties");
        assert!(
            f.sigma > 50.0 && (0.5..1.5).contains(&f.a),
            "{e} empties: {f:?}"
        );
    }
}

/// A depth 18 search (how books are evaluated) must probe its top nodes with a fit measured
/// for their depth: the calibrated depths reach 14, so an 18-ply node probes at depth 10 with
/// the measured 14←6 fit, not from a 12-ply search with a fit six plies shallower.
#[test]
fn regression_depth_18_nodes_probed_at_depth_12_with_the_depth_12_fit() {
    for e in [26, 30, 36, 44] {
        let (shallow, fit) = mid_fit(e, 18);
        assert_eq!(shallow, 10, "{e} empties");
        assert_eq!(fit.shallow, 6, "{e} empties: {fit:?}");
        assert_eq!(fit, table::MIDGAME[mid_band(e)][MID_MAX_DEPTH as usize]);
    }
}
