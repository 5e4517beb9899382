//! The hand evaluator against answers known exactly, and its invariants.

use napsim::bots::{bid_policy, play_policy};
use napsim::cards::{Card, CardSet, parse_hand};
use napsim::eval::hand::worlds::WorldDealer;
use napsim::eval::hand::{
    HandQuery, HandTally, PASS_INDEX, PASSED_OUT_UNITS, StopRule, TooRare, call_index,
};
use napsim::game::{Call, DealState};
use napsim::policy::Pass;
use napsim::policy::{BidPolicy, BidView, PlayPolicy};
use napsim::policy::{Uniform, play_out, settle_contract};
use napsim::rng::{base_rng, block_streams};
use napsim::rules::{BidId, Profile};
use napsim::sim::{Block, Silent, Tally};

/// Debug builds (the checked test profile) run a tenth of the worlds.
fn scaled(n: u64) -> u64 {
    if cfg!(debug_assertions) { n / 10 } else { n }
}

fn hand(text: &str) -> CardSet {
    parse_hand(text, 5).unwrap()
}

struct Setup {
    profile: Profile,
    others: Box<dyn BidPolicy>,
    play: Box<dyn PlayPolicy>,
}

impl Setup {
    fn new(profile: &str, play: &str) -> Setup {
        let profile = Profile::builtin(profile).unwrap();
        Setup {
            others: bid_policy("threshold", &profile).unwrap(),
            play: play_policy(play, &profile).unwrap(),
            profile,
        }
    }

    fn query<'a>(
        &'a self,
        players: usize,
        seat: usize,
        cards: CardSet,
        after: &'a [Call],
    ) -> HandQuery<'a> {
        HandQuery {
            profile: &self.profile,
            players,
            seat,
            hand: cards,
            after,
            others: self.others.as_ref(),
            play: self.play.as_ref(),
            dd_column: true,
            auction: false,
            session: None,
        }
    }

    /// [`Setup::query`] with every call valued in the whole auction.
    fn auction_query<'a>(
        &'a self,
        players: usize,
        seat: usize,
        cards: CardSet,
        after: &'a [Call],
    ) -> HandQuery<'a> {
        HandQuery {
            auction: true,
            ..self.query(players, seat, cards, after)
        }
    }
}

fn run(query: &HandQuery, worlds: u64, seed: u64) -> HandTally {
    query
        .run(worlds, seed, 2, &Silent)
        .unwrap()
        .expect("unconditioned worlds are never too rare")
}

#[test]
fn ace_king_queen_of_trumps_always_makes_three_double_dummy() {
    let setup = Setup::new("heather-1875", "dd");
    for (i, text) in ["AS KS QS 7D 2C", "AH KH QH 2S 3S", "AD KD QD JC 9H"]
        .iter()
        .enumerate()
    {
        let query = setup.query(4, i, hand(text), &[]);
        let tally = run(&query, scaled(20_000), 7 + i as u64);
        let three = setup.profile.bid_id("three").unwrap().index();
        assert_eq!(tally.bids[three].made, tally.worlds, "{text}");
        assert_eq!(tally.bids[three].dd_made, tally.worlds, "{text}");
    }
}

#[test]
fn top_four_trumps_and_the_two_make_nap_at_the_exact_rate() {
    // Nap fails only when one opponent holds five of the eight missing trumps:
    // 3 * C(8,5) / C(47,5) = 168 / 1533939.
    let setup = Setup::new("heather-1875", "dd");
    let query = HandQuery {
        dd_column: false,
        ..setup.query(4, 0, hand("AS KS QS JS 2S"), &[])
    };
    let n = scaled(1_000_000);
    let tally = run(&query, n, 2026);
    let nap = setup.profile.bid_id("nap").unwrap().index();
    let p = 1.0 - 168.0 / 1_533_939.0;
    let estimate = tally.bids[nap].made as f64 / n as f64;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    assert!(
        (estimate - p).abs() <= 3.0 * se,
        "estimate {estimate} vs {p} (se {se})"
    );
    // And the failures are exactly the five-trump holdings: the trick counts say so.
    assert_eq!(tally.bids[nap].tricks[5], tally.bids[nap].made);
    assert_eq!(tally.bids[nap].tricks[4], n - tally.bids[nap].made);
}

#[test]
fn p_make_never_rises_with_the_tricks_bid_on_common_worlds() {
    for play in ["heuristic", "dd"] {
        let setup = Setup::new("encyclopedia", play);
        let mut rng = base_rng(99);
        for round in 0..12 {
            let players = 3 + round % 5;
            let dealt = napsim::game::Shuffler::new(&setup.profile, players).deal(0, &mut rng);
            let cards = dealt.hands(players)[0];
            let query = HandQuery {
                dd_column: play != "dd",
                ..setup.query(players, round % players, cards, &[])
            };
            // Six and seven players cost more per world (misère above all).
            let worlds = if players <= 5 { 1_000 } else { 200 };
            let tally = run(&query, scaled(worlds), round as u64);
            let mut trick_bids: Vec<_> = setup
                .profile
                .bid_ids()
                .filter(|&id| !setup.profile.bid(id).is_misere())
                .collect();
            trick_bids.sort_by_key(|&id| setup.profile.bid(id).tricks_needed());
            for pair in trick_bids.windows(2) {
                let (lower, higher) = (&tally.bids[pair[0].index()], &tally.bids[pair[1].index()]);
                assert!(higher.made <= lower.made, "{play} {cards}: {pair:?}");
                assert!(higher.dd_made <= lower.dd_made, "{play} {cards}: {pair:?}");
            }
        }
    }
}

#[test]
fn expected_units_follow_each_profiles_payouts() {
    // pub-guide pays Nap 10 and charges 5; heather-1875 pays and charges 5. On the same worlds
    // (same seed, same pack at four players) the makes agree and the EVs differ as the payouts.
    let cards = hand("AH QH 9H 5H AC");
    let mut results = Vec::new();
    for name in ["pub-guide", "heather-1875"] {
        let setup = Setup::new(name, "dd");
        let query = setup.query(4, 0, cards, &[]);
        let tally = run(&query, scaled(20_000), 5);
        let summary = query.summarise(&tally);
        let nap = setup.profile.bid_id("nap").unwrap();
        results.push((
            summary.bids[nap.index()].clone(),
            tally.bids[nap.index()].made,
        ));
    }
    let (pub_nap, pub_made) = &results[0];
    let (heather_nap, heather_made) = &results[1];
    assert_eq!(pub_made, heather_made);
    let p = pub_nap.p_make;
    assert!(p > 0.05 && p < 0.95, "a hand whose Nap is uncertain: {p}");
    assert!((pub_nap.ev - 3.0 * (10.0 * p - 5.0 * (1.0 - p))).abs() < 1e-9);
    assert!((heather_nap.ev - 3.0 * (5.0 * p - 5.0 * (1.0 - p))).abs() < 1e-9);
    assert!((pub_nap.breakeven - 1.0 / 3.0).abs() < 1e-12);
    assert!((heather_nap.breakeven - 0.5).abs() < 1e-12);
}

#[test]
fn payouts_match_the_engines_settlement_on_every_profile() {
    let mut rng = base_rng(3);
    for name in napsim::rules::builtin_names() {
        let profile = Profile::builtin(name).unwrap();
        let players = profile.min_players().max(4).min(profile.max_players());
        let play = play_policy("heuristic", &profile).unwrap();
        let table = Uniform {
            bid: &Pass,
            play: play.as_ref(),
        };
        for id in profile.bid_ids() {
            for _ in 0..20 {
                let dealt = napsim::game::Shuffler::new(&profile, players).deal(0, &mut rng);
                let floater = dealt.floater;
                let mut state = DealState::declared(&profile, dealt.hands(players), floater, 1, id);
                settle_contract(&mut state, &table, &mut rng);
                play_out(&mut state, &table, &mut rng);
                let settled = state.settlement().unwrap();
                let bid = profile.bid(id);
                assert_eq!(settled.bid, id);
                assert_eq!(
                    settled.units,
                    bid.declarer_units(settled.made, players),
                    "{name} {}",
                    bid.name()
                );
            }
        }
    }
}

#[test]
fn the_thread_count_changes_nothing() {
    let setup = Setup::new("heather-1875", "pimc:worlds=4");
    let after = [Call::Pass];
    let query = setup.query(4, 1, hand("AH KH 9H 7D 2C"), &after);
    let one = query.run(200, 11, 1, &Silent).unwrap();
    let two = query.run(200, 11, 2, &Silent).unwrap();
    assert_eq!(one, two);
    assert!(
        one.unwrap().drawn > 200,
        "passing eldest rejects some worlds"
    );
}

#[test]
fn kept_worlds_are_those_in_which_the_earlier_seats_make_the_calls() {
    let setup = Setup::new("heather-1875", "heuristic");
    let three = Call::Bid(setup.profile.bid_id("three").unwrap());
    let after = [Call::Pass, three];
    let query = setup.query(4, 2, hand("AS KS 9H 7D 2C"), &after);
    let dealer = query.dealer();
    let (mut deal_rng, mut policy_rng) = block_streams(1, 0);
    let (mut kept, mut drawn) = (0, 0);
    while kept < scaled(2_000) {
        let world = dealer.draw(&mut deal_rng);
        drawn += 1;
        if !dealer.accepts(&world, &mut policy_rng) {
            continue;
        }
        kept += 1;
        // Every card dealt once, the evaluated hand in place.
        let all = world.hands[..4].iter().fold(CardSet::EMPTY, |acc, &h| {
            assert!((acc & h).is_empty());
            acc | h
        });
        assert_eq!(all.count(), 20);
        assert_eq!(world.hands[2], query.hand);
        // The threshold bidder (deterministic) replays the kept calls.
        let mut state = DealState::new(&setup.profile, 3, &world.hands[..4]);
        for &call in &after {
            assert_eq!(
                setup.others.call(&BidView::new(&state), &mut base_rng(0)),
                call
            );
            state.call(call).unwrap();
        }
    }
    assert!(drawn > kept, "some worlds were rejected");
    assert!(dealer.conditioned());
}

#[test]
fn conditioning_keeps_the_real_deals_of_every_profiles_auctions() {
    // Deal as the engine does, run the real auction, then check that the worlds of every later
    // seat, conditioned on the calls before it, keep the real deal (floater, spare hand, peeks
    // and all). Purchase Nap's hands are taken after buying, as `napsim hand` models them.
    let mut rng = base_rng(17);
    for name in napsim::rules::builtin_names() {
        let profile = Profile::builtin(name).unwrap();
        let threshold = bid_policy("threshold", &profile).unwrap();
        for players in profile.min_players()..=profile.max_players() {
            let mut shuffler = napsim::game::Shuffler::new(&profile, players);
            for _ in 0..if cfg!(debug_assertions) { 30 } else { 300 } {
                shuffler.reset();
                let dealt = shuffler.deal(players - 1, &mut rng);
                let mut state = DealState::from_dealt(&profile, players - 1, &dealt, players);
                while state.phase() == napsim::game::Phase::Purchase {
                    let discard = threshold.purchase(&BidView::new(&state), &mut rng);
                    state.purchase(discard).unwrap();
                }
                let mut world = napsim::eval::hand::worlds::World {
                    hands: [CardSet::EMPTY; napsim::rules::MAX_PLAYERS],
                    floater: dealt.floater,
                    spare: dealt.spare,
                };
                for seat in 0..players {
                    world.hands[seat] = state.hand(seat);
                }
                let mut calls = Vec::new();
                while state.phase() == napsim::game::Phase::Auction {
                    calls.push(napsim::policy::auction_turn(
                        &mut state,
                        threshold.as_ref(),
                        &mut rng,
                    ));
                }
                for seat in 1..players {
                    let dealer = WorldDealer::new(
                        &profile,
                        players,
                        seat,
                        world.hands[seat],
                        &calls[..seat],
                        threshold.as_ref(),
                    );
                    assert!(
                        dealer.accepts(&world, &mut base_rng(0)),
                        "{name} at {players}: seat {seat} after {:?}",
                        &calls[..seat]
                    );
                }
            }
        }
    }
}

#[test]
fn too_rare_calls_are_reported_not_sampled_forever() {
    let setup = Setup {
        others: bid_policy("pass", &Profile::default_profile()).unwrap(),
        ..Setup::new("heather-1875", "heuristic")
    };
    let three = Call::Bid(setup.profile.bid_id("three").unwrap());
    let after = [three];
    let query = setup.query(4, 1, hand("AS KS 9H 7D 2C"), &after);
    assert_eq!(query.pilot(1_000, 1), 0);
    let (mut d, mut p) = block_streams(1, 0);
    let tally = query.evaluate(5, &mut d, &mut p, 100, TooRare::Fail);
    assert!(tally.too_rare);
    let (mut d, mut p) = block_streams(1, 0);
    let kept = query.evaluate(5, &mut d, &mut p, 100, TooRare::KeepLast);
    assert!(!kept.too_rare);
    assert_eq!((kept.worlds, kept.drawn), (5, 500));
}

#[test]
fn lookahead_bids_what_its_hand_is_worth() {
    let profile = Profile::default_profile();
    let lookahead = bid_policy("lookahead:worlds=32", &profile).unwrap();
    let call_for = |cards: &str| {
        let others = ["2H 3H 4H 5H 6H", "2D 3D 4D 5D 6D", "2C 3C 4C 5C 6C"];
        let hands: Vec<CardSet> = std::iter::once(cards).chain(others).map(hand).collect();
        let state = DealState::new(&profile, 3, &hands);
        lookahead.call(&BidView::new(&state), &mut base_rng(1))
    };
    let nap = Call::Bid(profile.bid_id("nap").unwrap());
    assert_eq!(call_for("AS KS QS JS TS"), nap);
    assert_eq!(call_for("9S 7H 8D 7C 8C"), Call::Pass);
    let three = Call::Bid(profile.bid_id("three").unwrap());
    assert_eq!(call_for("AS KS QS 7D 2C"), three);
}

#[test]
fn lookahead_bidding_to_win_goes_for_the_nap_that_alone_overtakes_the_leader() {
    use napsim::game::SessionState;
    use napsim::rules::MAX_PLAYERS;
    let profile = Profile::default_profile();
    // Four is certain (+12), Nap made about a quarter of the time: units say Four.
    let others = ["2H 3H 4H 5H 6H", "3D 4D 5D 6D 7D", "2C 3C 4C 5C 6C"];
    let hands: Vec<CardSet> = std::iter::once("AS KS QS JS 2D")
        .chain(others)
        .map(hand)
        .collect();
    let mut state = DealState::new(&profile, 3, &hands);
    let call = |state: &DealState, spec: &str| {
        let policy = bid_policy(spec, &profile).unwrap();
        policy.call(&BidView::new(state), &mut base_rng(1))
    };
    let (four, nap) = (
        Call::Bid(profile.bid_id("four").unwrap()),
        Call::Bid(profile.bid_id("nap").unwrap()),
    );
    let wins = "lookahead:worlds=256,objective=wins";
    assert_eq!(call(&state, "lookahead:worlds=256,objective=units"), four);
    assert_eq!(
        call(&state, wins),
        four,
        "outside a session, wins bids as units"
    );
    // The last deal of the session: seat 0 (eldest) at -9, seat 1 at +9. A made Four leaves
    // seat 0 at +3 against +5; only a made Nap (+15, the leader to +4) wins.
    let mut balances = [0; MAX_PLAYERS];
    balances[..4].copy_from_slice(&[-9, 9, 0, 0]);
    state.set_session(SessionState {
        deal: 8,
        deals: 8,
        balances,
    });
    assert_eq!(call(&state, "lookahead:worlds=256,objective=units"), four);
    assert_eq!(call(&state, wins), nap);
    // The same at the end of a session longer than the profile's (`play --deals 20`).
    state.set_session(SessionState {
        deal: 20,
        deals: 20,
        balances,
    });
    assert_eq!(call(&state, wins), nap, "a session of 20 deals");
    // Ahead by as much instead, the certain Four keeps the lead: wins bids Four.
    balances[..4].copy_from_slice(&[9, -9, 0, 0]);
    state.set_session(SessionState {
        deal: 8,
        deals: 8,
        balances,
    });
    assert_eq!(call(&state, wins), four);
}

#[test]
fn lookahead_objectives_and_equity_files_are_checked() {
    use napsim::eval::equity::DealOutcomes;
    use napsim::rules::MAX_PLAYERS;
    let profile = Profile::default_profile();
    let refused = |spec: &str, needle: &str| {
        let error = bid_policy(spec, &profile).err().expect(spec).to_string();
        assert!(error.contains(needle), "{spec}: {error}");
    };
    refused("lookahead:objective=money", "units or wins");
    refused(
        "lookahead:objective=wins,auction=off",
        "leave out auction=off",
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("outcomes.csv");
    let mut measured = DealOutcomes::new(4);
    measured.add([9, -3, -3, -3, 0, 0, 0], 3);
    measured.add([0; MAX_PLAYERS], 5);
    std::fs::write(&file, measured.to_csv()).unwrap();
    let with_file = format!("lookahead:objective=wins,equity=({})", file.display());
    refused(&with_file.replace("wins", "units"), "for objective=wins");
    refused(
        "lookahead:objective=wins,equity=(/no/such/file.csv)",
        "cannot read it",
    );
    std::fs::write(dir.path().join("bad.csv"), "count,p0\n").unwrap();
    refused(
        &format!(
            "lookahead:objective=wins,equity=({})",
            dir.path().join("bad.csv").display()
        ),
        "not the `outcomes` of napsim equity",
    );
    let policy = bid_policy(&with_file, &profile).unwrap();
    assert!(policy.check_table(4).is_ok());
    assert!(
        policy
            .check_table(3)
            .unwrap_err()
            .contains("measured at 4 players")
    );
}

#[test]
fn lookahead_with_auction_on_calls_the_evaluators_best_call_in_the_whole_auction() {
    use rand_core::SeedableRng;
    let profile = Profile::default_profile();
    let threshold = bid_policy("threshold", &profile).unwrap();
    let heuristic = play_policy("heuristic", &profile).unwrap();
    // Three is a little below break-even as declarer, but passing is worse: a later seat then
    // declares and wins. So the two lookaheads disagree at the eldest seat.
    let cards = hand("4H 8H 2C 5H 2H");
    let others = ["2S 3S 4S 5S 6S", "2D 3D 4D 5D 6D", "3C 4C 5C 6C 7C"];
    let hands: Vec<CardSet> = std::iter::once(cards).chain(others.map(hand)).collect();
    let state = DealState::new(&profile, 3, &hands);
    let call = |spec: &str| {
        let policy = bid_policy(spec, &profile).unwrap();
        policy.call(&BidView::new(&state), &mut base_rng(1))
    };
    let three = Call::Bid(profile.bid_id("three").unwrap());
    assert_eq!(call("lookahead:worlds=2048,auction=on"), three);
    assert_eq!(call("lookahead:worlds=2048,auction=off"), Call::Pass);
    assert_eq!(call("lookahead:worlds=2048"), Call::Pass, "off by default");
    // It is the evaluator's recommendation on the worlds the bot drew.
    let mut rng = base_rng(1);
    let mut deal_rng = napsim::rng::SimRng::seed_from_u64(napsim::rng::next_u64(&mut rng));
    let mut policy_rng = napsim::rng::SimRng::seed_from_u64(napsim::rng::next_u64(&mut rng));
    let query = HandQuery {
        profile: &profile,
        players: 4,
        seat: 0,
        hand: cards,
        after: &[],
        others: threshold.as_ref(),
        play: heuristic.as_ref(),
        dd_column: false,
        auction: true,
        session: None,
    };
    let tally = query.evaluate(
        2048,
        &mut deal_rng,
        &mut policy_rng,
        1_000,
        TooRare::KeepLast,
    );
    assert_eq!(query.summarise(&tally).recommended, profile.bid_id("three"));
    assert!(bid_policy("lookahead:auction=yes", &profile).is_err());
}

/// A policy that plays as another but does not promise to look only at the play rules, so the
/// evaluator plays every bid out.
struct EveryBid(Box<dyn PlayPolicy>);

impl PlayPolicy for EveryBid {
    fn play(&self, view: &napsim::policy::PlayView, rng: &mut napsim::rng::SimRng) -> Card {
        self.0.play(view, rng)
    }
}

#[test]
fn bids_that_play_alike_are_played_once_with_the_same_result() {
    for (profile, play, players) in [
        ("heather-1875", "pimc:worlds=4", 4),
        ("pub-guide", "heuristic", 6),
        ("peep-nap", "random", 5),
    ] {
        let setup = Setup::new(profile, play);
        assert!(setup.play.plays_by_rules_only(), "{play}");
        let every = EveryBid(play_policy(play, &setup.profile).unwrap());
        assert!(!every.plays_by_rules_only());
        let cards = hand("AS KS 7S AH 3D");
        let shared = setup.query(players, 0, cards, &[]);
        let separate = HandQuery {
            play: &every,
            ..setup.query(players, 0, cards, &[])
        };
        let worlds = scaled(640);
        assert_eq!(
            run(&shared, worlds, 9),
            run(&separate, worlds, 9),
            "{profile}"
        );
    }
    let heather = Profile::builtin("heather-1875").unwrap();
    let bid = |name| heather.bid_by_name(name).unwrap();
    assert!(bid("nap").plays_like(bid("wellington")));
    assert!(!bid("four").plays_like(bid("nap")));
}

#[test]
fn paired_sums_give_the_spread_of_the_difference_world_by_world() {
    let setup = Setup::new("pub-guide", "heuristic");
    let query = setup.query(5, 1, hand("AS KS 7S AH 3D"), &[]);
    let worlds = 300;
    let (mut deal, mut policy) = block_streams(3, 0);
    let (mut deal_1, mut policy_1) = (deal.clone(), policy.clone());
    let whole = query.evaluate(worlds, &mut deal, &mut policy, 100, TooRare::Fail);
    // The same worlds one at a time: each tally's units are that world's.
    let mut merged = HandTally::default();
    let mut units: Vec<Vec<i64>> = Vec::new();
    for _ in 0..worlds {
        let one = query.evaluate(1, &mut deal_1, &mut policy_1, 100, TooRare::Fail);
        units.push(one.bids.iter().map(|b| b.units).collect());
        merged.merge(one);
    }
    assert_eq!(merged, whole);
    let n = worlds as f64;
    for a in setup.profile.bid_ids() {
        for b in setup.profile.bid_ids() {
            let d: Vec<f64> = units
                .iter()
                .map(|u| (u[a.index()] - u[b.index()]) as f64)
                .collect();
            let mean = d.iter().sum::<f64>() / n;
            let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let (m, se) = whole.paired(a, b).unwrap();
            assert!((m - mean).abs() < 1e-9, "{a:?} {b:?}");
            assert!((se - (var / n).sqrt()).abs() < 1e-9, "{a:?} {b:?}: {se}");
        }
    }
}

#[test]
fn a_dropped_bid_keeps_its_first_worlds_whatever_the_blocks_after_it_played() {
    a_dropped_bid_keeps_its_first_worlds(false);
}

#[test]
fn a_dropped_call_keeps_its_first_worlds_whatever_the_blocks_after_it_played() {
    a_dropped_bid_keeps_its_first_worlds(true);
}

fn a_dropped_bid_keeps_its_first_worlds(auction: bool) {
    // Nap (and Wellington, which plays like it) trail Four by far with this hand: an adaptive
    // run drops them at its first check (in the auction view, passing too).
    let setup = Setup::new("heather-1875", "heuristic");
    let query = HandQuery {
        auction,
        ..setup.query(4, 0, hand("AC KC 8C 4C 2S"), &[])
    };
    let rule = StopRule::new(2.0, 2560, 4);
    let block = |index: u64| {
        let (deal_rng, policy_rng) = block_streams(5, index);
        Block {
            index,
            len: 64,
            deal_rng,
            policy_rng,
            abandoned: None,
        }
    };
    let mut first = run(&query, 512, 5);
    let skip = rule.drop_trailing(&query, &mut first);
    let nap = setup.profile.bid_id("nap").unwrap().index();
    let four = setup.profile.bid_id("four").unwrap().index();
    assert!(
        skip.bids >> nap & 1 == 1 && skip.bids >> four & 1 == 0,
        "{skip:?}"
    );
    assert_eq!(
        skip.pass, auction,
        "passing trails Four in the auction view"
    );
    // Asked again at the same check (as a run resumed there is), nothing more changes.
    let mut again = first.clone();
    assert_eq!(rule.drop_trailing(&query, &mut again), skip);
    assert_eq!(again, first);
    // The rule at that check still counted them; the checks after it leave them out.
    assert!(!first.left_out(nap) && first.is_dropped(nap));
    assert_eq!(rule.reason(&query, &first), None);
    // The next blocks, played in full or skipping the dropped bids, merge to the same tally.
    let (mut full, mut skipping) = (first.clone(), first.clone());
    for index in 8..16 {
        full.merge(query.evaluate_block(block(index)));
        skipping.merge(query.evaluate_block_skipping(block(index), skip));
    }
    assert_eq!(full, skipping);
    full.check(setup.profile.bids().len()).unwrap();
    assert!(full.left_out(nap));
    // Merged whole into an empty tally (`napsim merge` of a checkpoint), it keeps its drops.
    let mut merged = HandTally::default();
    merged.merge(full.clone());
    assert_eq!(merged, full);
    // A bid played in fewer worlds than the run without being dropped is a damaged tally.
    let mut damaged = full.clone();
    damaged.dropped.clear();
    assert!(damaged.check(setup.profile.bids().len()).is_err());
    // Nap is as it was after 512 worlds; Four as in a run of 1024.
    let whole = run(&query, 1024, 5);
    assert_eq!((full.worlds, full.bid_worlds(nap)), (1024, 512));
    assert_eq!(full.bids[nap], first.bids[nap]);
    assert_eq!(full.bids[four], whole.bids[four]);
    if auction {
        let (calls, whole_calls) = (
            full.auction.as_ref().unwrap(),
            whole.auction.as_ref().unwrap(),
        );
        let first_calls = first.auction.as_ref().unwrap();
        for c in [PASS_INDEX, call_index(BidId(nap as u8))] {
            assert_eq!(calls.calls[c], first_calls.calls[c], "{c}");
            assert_eq!(calls.played[c], 512);
        }
        let four = call_index(BidId(four as u8));
        assert_eq!(calls.calls[four], whole_calls.calls[four]);
        assert_eq!(calls.played[four], 1024);
    }
    let id = |name: &str| setup.profile.bid_id(name).unwrap();
    assert_eq!(
        full.paired(id("three"), id("four")),
        whole.paired(id("three"), id("four"))
    );
    assert_eq!(full.paired(id("nap"), id("four")), None);
    // A dropped bid is reported from its own worlds, and never recommended.
    let summary = query.summarise(&full);
    assert!(summary.bids[nap].dropped && summary.bids[nap].worlds == 512);
    assert_eq!(summary.bids[four].worlds, 1024);
    assert_eq!(
        summary.bids[nap].p_make,
        first.bids[nap].made as f64 / 512.0
    );
}

/// Checks that every call `query`'s hand may make ends the auction as the contract in every
/// world and is then worth exactly its declarer units, world for world (the same sums and
/// squares), and that passing is exactly the passed-out settlement.
fn assert_calls_are_the_declarer_view(query: &HandQuery, tally: &HandTally, context: &str) {
    let auction = tally.auction.as_ref().expect("the auction tally");
    let n = tally.worlds;
    assert!(n > 0);
    let pass = &auction.calls[PASS_INDEX];
    assert_eq!(auction.played[PASS_INDEX], n, "{context}");
    assert_eq!(
        pass.contract, n,
        "{context}: every deal passed out after a pass"
    );
    assert_eq!(pass.units, PASSED_OUT_UNITS * n as i64, "{context}");
    assert_eq!(
        pass.units_sq,
        (PASSED_OUT_UNITS * PASSED_OUT_UNITS) as u128 * u128::from(n)
    );
    let mut callable = 0;
    for id in query.profile.bid_ids().filter(|&id| query.callable(id)) {
        callable += 1;
        let (call, bid) = (&auction.calls[call_index(id)], &tally.bids[id.index()]);
        let name = query.profile.bid(id).name();
        assert_eq!(call.contract, n, "{context} {name}: the hand's bid stands");
        assert_eq!(call.units, bid.units, "{context} {name}");
        assert_eq!(call.units_sq, bid.units_sq, "{context} {name}");
        let summary = query.summarise(tally);
        let row = summary
            .calls
            .iter()
            .find(|c| c.call == Call::Bid(id))
            .unwrap();
        assert_eq!(
            row.auction_ev,
            summary.bids[id.index()].ev,
            "{context} {name}"
        );
    }
    assert!(callable > 0, "{context}: some bid is callable");
}

#[test]
fn the_last_seat_after_all_passes_values_each_bid_as_declarer_and_passing_as_passed_out() {
    for name in ["heather-1875", "pub-guide", "encyclopedia", "peep-nap"] {
        let setup = Setup::new(name, "heuristic");
        for players in [3, 4, 6] {
            let seat = players - 1;
            let after = vec![Call::Pass; seat];
            // A hand that passes would be kept too: the earlier seats' hands vary.
            let dealer_hand = hand(match name {
                "peep-nap" => "AS KS QS JS TH",
                _ => "AS KS QS 7D 2C",
            });
            let query = setup.auction_query(players, seat, dealer_hand, &after);
            let tally = run(&query, scaled(1_024), 3);
            assert_calls_are_the_declarer_view(&query, &tally, &format!("{name} {players}"));
        }
    }
}

#[test]
fn when_the_others_always_pass_every_seat_values_each_bid_as_declarer() {
    let mut setup = Setup::new("heather-1875", "heuristic");
    setup.others = Box::new(Pass);
    for seat in 0..4 {
        for after in [vec![], vec![Call::Pass; seat]] {
            let query = setup.auction_query(4, seat, hand("AH KH 9H 7D 2C"), &after);
            let tally = run(&query, scaled(1_024), 5 + seat as u64);
            let context = format!("seat {seat}, {} calls given", after.len());
            assert_calls_are_the_declarer_view(&query, &tally, &context);
        }
    }
}

#[test]
fn later_seats_overcall_and_passing_costs_a_weak_eldest_hand() {
    let setup = Setup::new("heather-1875", "heuristic");
    let query = setup.auction_query(4, 0, hand("2S 3H 4D 6C 8C"), &[]);
    let tally = run(&query, scaled(4_096), 9);
    let summary = query.summarise(&tally);
    let pass = &summary.calls[0];
    assert_eq!(pass.call, Call::Pass);
    // A later seat declares and wins on average from the weak eldest hand.
    assert!(pass.auction_ev + 3.0 * pass.auction_ev_se < 0.0, "{pass:?}");
    assert!(pass.p_contract > 0.2 && pass.p_contract < 0.8, "{pass:?}");
    // The hand's Three is sometimes overcalled, so it is not always the contract, and the
    // auction value then differs from the declarer value.
    let three = setup.profile.bid_id("three").unwrap();
    let call = &tally.auction.as_ref().unwrap().calls[call_index(three)];
    assert!(call.contract < tally.worlds, "{call:?}");
    assert_ne!(call.units, tally.bids[three.index()].units);
    assert_eq!(summary.recommended, None, "a hand this weak passes");
}

#[test]
fn the_auction_values_do_not_depend_on_the_threads_and_leave_the_declarer_view_alone() {
    let setup = Setup::new("heather-1875", "pimc:worlds=4");
    let after = [Call::Pass];
    let query = setup.auction_query(4, 1, hand("AH KH 9H 7D 2C"), &after);
    let one = query.run(192, 11, 1, &Silent).unwrap().unwrap();
    let two = query.run(192, 11, 2, &Silent).unwrap().unwrap();
    assert_eq!(one, two);
    let declarer = setup.query(4, 1, hand("AH KH 9H 7D 2C"), &after);
    let alone = declarer.run(192, 11, 2, &Silent).unwrap().unwrap();
    assert_eq!(
        HandTally {
            auction: None,
            ..one
        },
        alone,
        "valuing the calls changes no declarer figure"
    );
}

#[test]
fn each_call_is_worth_what_the_engine_pays_the_hand_for_the_whole_deal() {
    // Double-dummy play and the deterministic threshold bidder: each world's auction and
    // result can be replayed independently here, call by call, and paid by the engine.
    let setup = Setup::new("heather-1875", "dd");
    for (seat, cards) in [(0, "KH QH 9D 7C 2C"), (1, "AS KS 9S 7D 2C")] {
        let query = setup.auction_query(4, seat, hand(cards), &[]);
        let worlds = 128;
        let tally = run(&query, worlds, 21);
        let auction = tally.auction.as_ref().unwrap();
        let dealer = query.dealer();
        let mut sums = vec![0i64; auction.calls.len()];
        let mut contracts = vec![0u64; auction.calls.len()];
        for index in 0..worlds / 64 {
            let (mut deal_rng, _) = block_streams(21, index);
            for _ in 0..64 {
                let world = dealer.draw(&mut deal_rng);
                for (c, sum) in sums.iter_mut().enumerate() {
                    let call = napsim::eval::hand::call_at(c);
                    if !(c == PASS_INDEX || matches!(call, Call::Bid(id) if query.callable(id))) {
                        continue;
                    }
                    let mut state = DealState::new(&setup.profile, 3, &world.hands[..4]);
                    let table = Uniform {
                        bid: setup.others.as_ref(),
                        play: setup.play.as_ref(),
                    };
                    let mut rng = base_rng(0);
                    while state.to_act() != Some(seat) {
                        napsim::policy::auction_turn(&mut state, table.bid, &mut rng);
                    }
                    let call = if state.check_call(call).is_ok() {
                        call
                    } else {
                        Call::Pass
                    };
                    state.call(call).unwrap();
                    napsim::policy::run_deal(&mut state, &table, &mut rng);
                    *sum += state.payments()[seat];
                    let ours = state.contract().map(|c| c.declarer) == Some(seat);
                    contracts[c] +=
                        u64::from(ours || (c == PASS_INDEX && state.contract().is_none()));
                }
            }
        }
        for (c, outcome) in auction.calls.iter().enumerate() {
            assert_eq!(outcome.units, sums[c], "seat {seat}, call {c}");
            assert_eq!(outcome.contract, contracts[c], "seat {seat}, call {c}");
        }
        assert!(
            contracts[PASS_INDEX] < worlds && sums.iter().any(|&s| s != 0),
            "some later seat declares"
        );
    }
}
