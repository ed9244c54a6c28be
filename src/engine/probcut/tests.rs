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
