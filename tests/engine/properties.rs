//! Property tests of the engine's invariants over random seeds, table sizes and policies.

use napsim::bots::{bid_policy, play_policy};
use napsim::cards::{Card, CardSet, Rank, Suit, parse_cards};
use napsim::game::{DealState, Phase, Shuffler, play_session};
use napsim::policy::Spec;
use napsim::policy::{Table, run_deal};
use napsim::rng::block_streams;
use napsim::rules::{BUILTIN, MAX_PLAYERS, Profile};
use proptest::prelude::*;

/// `text` with the first `key = ...` line set to `key = value`.
fn set_first(text: &str, key: &str, value: &str) -> String {
    let prefix = format!("{key} = ");
    let mut done = false;
    text.lines()
        .map(|line| {
            if !done && line.starts_with(&prefix) {
                done = true;
                format!("{prefix}{value}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every built-in profile.
fn profiles() -> Vec<Profile> {
    BUILTIN
        .iter()
        .map(|(name, _)| Profile::builtin(name).unwrap())
        .collect()
}

/// Bid policy specs that exercise `profile`: the defaults, passing, eldest opening at its lowest
/// and at its highest openable bid, and an aggressive threshold bidder that reaches every rung.
fn bid_specs(profile: &Profile) -> Vec<String> {
    let openable: Vec<&str> = profile
        .bids()
        .iter()
        .filter(|b| b.only_over().is_none())
        .map(|b| b.name())
        .collect();
    let aggressive: Vec<String> = profile
        .bids()
        .iter()
        .enumerate()
        .map(|(i, b)| format!("{}={}", b.name(), 6 + 2 * i))
        .collect();
    vec![
        "threshold".to_string(),
        "pass".to_string(),
        format!("always:bid={}", openable[0]),
        format!("always:bid={}", openable[openable.len() - 1]),
        format!("threshold:{}", aggressive.join(",")),
    ]
}

const BIDS: usize = 5;
const PLAYS: &[&str] = &["random", "heuristic", "expert"];

/// Plays one deal of block `block` and returns the finished state.
fn play_one<'p>(
    profile: &'p Profile,
    players: usize,
    seed: u64,
    block: u64,
    bid: &str,
    play: &str,
) -> DealState<'p> {
    let bid = bid_policy(bid, profile).unwrap();
    let play = play_policy(play, profile).unwrap();
    let table = Table::uniform(bid.as_ref(), play.as_ref());
    let (mut deal_rng, mut policy_rng) = block_streams(seed, block);
    let dealer = (seed % players as u64) as usize;
    let dealt = Shuffler::new(profile, players).deal(dealer, &mut deal_rng);
    let mut state = DealState::from_dealt(profile, dealer, &dealt, players);
    run_deal(&mut state, &table, &mut policy_rng);
    state
}

/// The winner of a trick by the rules, computed from ranks and suits only.
fn rules_winner(cards: &[Card], leader: usize, players: usize, trump: Option<Suit>) -> usize {
    let led = cards[0].suit();
    let key = |c: &Card| {
        let class = if Some(c.suit()) == trump {
            2
        } else if c.suit() == led {
            1
        } else {
            0
        };
        (class, c.rank())
    };
    let best = (0..cards.len()).max_by_key(|&i| key(&cards[i])).unwrap();
    (leader + best) % players
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn deals_conserve_cards_play_legally_and_balance(
        seed in any::<u64>(), block in 0u64..1000, which in 0..BUILTIN.len(), table in 0usize..5,
        bid in 0..BIDS, play in 0..PLAYS.len(),
    ) {
        let profile = &profiles()[which];
        let players = profile.min_players() + table % (profile.max_players() - profile.min_players() + 1);
        let bid_spec = &bid_specs(profile)[bid];
        let state = play_one(profile, players, seed, block, bid_spec, PLAYS[play]);
        prop_assert_eq!(state.phase(), Phase::Finished);

        // Every card dealt once: five each, no overlaps, all from the pack.
        let mut seen = CardSet::EMPTY;
        for seat in 0..players {
            let hand = state.dealt(seat);
            prop_assert_eq!(hand.count(), 5);
            prop_assert!((hand & seen).is_empty(), "a card dealt twice");
            seen |= hand;
        }
        prop_assert!((seen & state.spare()).is_empty(), "the spare hand overlaps a hand");
        seen |= state.spare();
        prop_assert!((seen - profile.pack(players)).is_empty());

        // Every play legal: the same calls and cards replay through the checked API.
        if let Some(floater) = state.floater() {
            prop_assert!(!seen.contains(floater), "the floater is also in a hand");
            seen.insert(floater);
            prop_assert!(profile.pack(players).contains(floater));
        }
        let mut dealt = napsim::game::Dealt {
            hands: [CardSet::EMPTY; 7],
            stock: CardSet::EMPTY,
            spare: state.spare(),
            stock_order: napsim::game::StockOrder::from_slice(state.stock_order()),
            floater: state.floater(),
        };
        for seat in 0..players {
            dealt.hands[seat] = state.dealt(seat);
        }
        let mut replay = DealState::from_dealt(profile, state.dealer(), &dealt, players);
        replay.set_kitty(state.kitty_before());
        for i in 0..players {
            if replay.phase() != Phase::Purchase {
                break;
            }
            let seat = (state.dealer() + 1 + i) % players;
            prop_assert!(replay.purchase(state.bought(seat).0).is_ok());
        }
        for (i, &call) in state.calls().iter().enumerate() {
            if state.peeked(state.caller(i)) {
                prop_assert!(replay.peek().is_ok());
            }
            let result = match (call, state.spare_exchange()) {
                (napsim::game::Call::TakeSpare, Some((seat, discarded, received))) => {
                    replay.take_spare((state.dealt(seat) - discarded) | received)
                }
                _ => replay.call(call),
            };
            prop_assert!(result.is_ok(), "illegal call {:?}", call);
        }
        if let Some(discard) = state.floater_discard() {
            prop_assert!(replay.take_floater(discard).is_ok());
        }
        if replay.phase() == Phase::Trump {
            prop_assert!(replay.name_trump(state.trump().unwrap()).is_ok());
        }
        for &card in state.history() {
            prop_assert!(replay.play(card).is_ok(), "illegal play {}", card);
        }
        prop_assert_eq!(replay.payments(), state.payments());
        prop_assert_eq!(state.calls().len(), players, "every seat speaks once");

        // Trick winners by the rules; the declarer's count matches.
        let mut declarer_tricks = 0;
        for t in 0..state.tricks_done() {
            let winner = rules_winner(state.trick_cards(t), state.trick_leader(t), players, state.trump());
            prop_assert_eq!(winner, state.trick_winner(t), "trick {}", t);
            if Some(winner) == state.contract().map(|c| c.declarer) {
                declarer_tricks += 1;
            }
        }
        prop_assert_eq!(declarer_tricks, state.declarer_tricks());
        match state.contract() {
            Some(c) => {
                // A lost misère ends at the first trick the declarer takes.
                let misere_lost = profile.bid(c.bid).is_misere() && declarer_tricks > 0;
                if misere_lost {
                    prop_assert_eq!(state.trick_winner(state.tricks_done() - 1), c.declarer);
                    prop_assert_eq!(declarer_tricks, 1);
                } else {
                    prop_assert_eq!(state.tricks_done(), 5);
                }
                match profile.bid(c.bid).trump() {
                    napsim::rules::TrumpRule::FirstLead => {
                        prop_assert_eq!(state.trump(), Some(state.trick_cards(0)[0].suit()))
                    }
                    napsim::rules::TrumpRule::NoTrump => prop_assert_eq!(state.trump(), None),
                    napsim::rules::TrumpRule::Named => prop_assert!(state.trump().is_some()),
                }
                prop_assert_eq!(state.trick_leader(0), c.declarer);
            }
            None => prop_assert_eq!(state.history().len(), 0),
        }

        // Payments sum to zero.
        // Payments plus the change of the kitty sum to zero.
        let kitty_change = state.kitty_after() - state.kitty_before();
        prop_assert_eq!(state.payments().iter().sum::<i64>() + kitty_change, 0);
        prop_assert!(state.kitty_after() >= 0);
        // The simulation's one-pass settlement agrees with the full one.
        match (state.contract(), state.settlement()) {
            (Some(c), Some(s)) => {
                prop_assert_eq!(s.units, state.payments()[c.declarer]);
                prop_assert_eq!(s.kitty_after, state.kitty_after());
                prop_assert_eq!(Some(s.made), state.made());
                prop_assert_eq!((s.declarer, s.bid), (c.declarer, c.bid));
            }
            (None, None) => {}
            (c, s) => prop_assert!(false, "contract {:?} but settlement {:?}", c, s),
        }
    }

    #[test]
    fn consecutive_deals_conserve_the_pack_under_every_profile(seed in any::<u64>(), which in 0..BUILTIN.len()) {
        let profile = &profiles()[which];
        let players = profile.min_players() + (seed % 3) as usize;
        let bid = bid_policy("threshold", profile).unwrap();
        let play = play_policy("heuristic", profile).unwrap();
        let table = Table::uniform(bid.as_ref(), play.as_ref());
        let (mut deal_rng, mut policy_rng) = block_streams(seed, 0);
        let mut shuffler = Shuffler::new(profile, players);
        let mut kitty = 0;
        for k in 0..12 {
            let dealer = k % players;
            let dealt = shuffler.deal(dealer, &mut deal_rng);
            prop_assert!((dealt.stock & dealt.spare).is_empty());
            let mut all = dealt.stock | dealt.spare | dealt.floater.map_or(CardSet::EMPTY, |c| c.set());
            for hand in dealt.hands(players) {
                prop_assert_eq!(hand.count(), 5);
                prop_assert!((all & *hand).is_empty());
                all |= *hand;
            }
            prop_assert!((all - profile.pack(players)).is_empty(), "a card outside the pack");
            let mut state = DealState::from_dealt(profile, dealer, &dealt, players);
            state.set_kitty(kitty);
            run_deal(&mut state, &table, &mut policy_rng);
            prop_assert_eq!(kitty, state.kitty_before());
            let kitty_change = state.kitty_after() - state.kitty_before();
            prop_assert_eq!(state.payments().iter().sum::<i64>() + kitty_change, 0);
            // A deal where nobody peeked, bought or took the spare hand pays what the session
            // equity's settlement of its ending says (the ante, the stakes and the kitty).
            let extras = (0..players).any(|s| state.peeked(s) || !state.bought(s).0.is_empty())
                || state.spare_taken();
            if !extras {
                let ending = state.contract().map(|c| (c.declarer, c.bid, state.made().unwrap()));
                let expected = napsim::game::contract_payments(profile, players, kitty, ending);
                prop_assert_eq!(expected, (state.payments(), state.kitty_after()));
            }
            kitty = state.kitty_after();
            // Purchases give up held cards for cards from the stock.
            for seat in 0..players {
                let (discarded, received) = state.bought(seat);
                prop_assert!((discarded - dealt.hands[seat]).is_empty());
                prop_assert!((received - dealt.stock).is_empty());
                prop_assert_eq!(discarded.count(), received.count());
            }
            shuffler.collect(&state);
            // The gathered pack holds every card of the pack exactly once.
            let order = shuffler.order();
            let as_set: CardSet = order.iter().copied().collect();
            prop_assert_eq!(order.len(), profile.pack(players).count() as usize);
            prop_assert_eq!(as_set, profile.pack(players));
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_deal(seed in any::<u64>(), block in 0u64..1_000_000, players in 3usize..=7) {
        let profile = Profile::default_profile();
        let a = play_one(&profile, players, seed, block, "threshold", "random");
        let b = play_one(&profile, players, seed, block, "threshold", "random");
        prop_assert_eq!(a.history(), b.history());
        for seat in 0..players {
            prop_assert_eq!(a.dealt(seat), b.dealt(seat));
        }
        // The cards do not depend on the policies (they draw from their own stream).
        let c = play_one(&profile, players, seed, block, "pass", "heuristic");
        for seat in 0..players {
            prop_assert_eq!(a.dealt(seat), c.dealt(seat));
        }
    }

    #[test]
    fn sessions_conserve_units_and_share_the_win(seed in any::<u64>(), which in 0..BUILTIN.len(), table in 0usize..5) {
        let profile = &profiles()[which];
        let players = profile.min_players() + table % (profile.max_players() - profile.min_players() + 1);
        let bid = bid_policy("threshold", profile).unwrap();
        let play = play_policy("heuristic", profile).unwrap();
        let table = Table::uniform(bid.as_ref(), play.as_ref());
        let (mut deal_rng, mut policy_rng) = block_streams(seed, 0);
        let mut shuffler = Shuffler::new(profile, players);
        // Every deal sees its number and the balances of the deals before it (kept here from
        // the payments, independently of the session's own tally).
        let mut seen = Vec::new();
        let mut kept = [0i64; MAX_PLAYERS];
        let result = play_session(profile, &mut shuffler, players, &mut deal_rng, |state| {
            seen.push((*state.session().expect("a session's deal"), kept));
            napsim::policy::run_deal(state, &table, &mut policy_rng);
            for (balance, pay) in kept.iter_mut().zip(state.payments()) {
                *balance += pay;
            }
        });
        prop_assert_eq!(seen.len(), profile.session_deals());
        for (i, (session, balances)) in seen.iter().enumerate() {
            prop_assert_eq!(session.deal as usize, i + 1);
            prop_assert_eq!(session.deals as usize, profile.session_deals());
            prop_assert_eq!(session.deals_after() as usize, profile.session_deals() - i - 1);
            prop_assert_eq!(&session.balances, balances);
        }
        prop_assert_eq!(&result.balances, &kept);
        prop_assert_eq!(result.deals, profile.session_deals());
        prop_assert_eq!(result.balances.iter().sum::<i64>() + result.kitty, 0);
        prop_assert_eq!(result.win_share_420[..players].iter().sum::<u32>(), 420);
        let top = *result.balances[..players].iter().max().unwrap();
        for seat in 0..players {
            prop_assert_eq!(result.win_share_420[seat] > 0, result.balances[seat] == top);
        }
    }

    #[test]
    fn raw_bits_never_make_a_set_holding_non_cards(
        raw in any::<u64>(), only_cards in any::<bool>(), lane in any::<u16>(), suit in 0usize..4,
    ) {
        // Half the cases hold card bits only, so that the checked constructor accepts some.
        let bits = if only_cards { raw & CardSet::FULL.bits() } else { raw };
        let suit = Suit::ALL[suit];
        // The cards among the bits, found one bit at a time through `Card`'s own check.
        let cards: Vec<Card> = (0..64u8)
            .filter(|&i| bits >> i & 1 == 1)
            .filter_map(Card::try_from_index)
            .collect();
        let truncated = CardSet::from_bits_truncate(bits);
        let from_lane = CardSet::from_lane(suit, lane);
        let checked = CardSet::from_bits(bits);
        prop_assert_eq!(truncated.to_vec(), cards.clone());
        prop_assert_eq!(checked.is_some(), cards.len() == bits.count_ones() as usize);
        for set in [truncated, from_lane].into_iter().chain(checked) {
            // Every member is a card that reads back, and the set is exactly its members.
            prop_assert_eq!(set.into_iter().count(), set.count() as usize);
            for card in set {
                prop_assert_eq!(Card::try_from_index(card.index()), Some(card));
                prop_assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
            }
            prop_assert_eq!(set.bits(), set.into_iter().fold(0u64, |a, c| a | 1 << c.index()));
            prop_assert_eq!(set - CardSet::FULL, CardSet::EMPTY);
            prop_assert_eq!(!!set, set);
            prop_assert_eq!(CardSet::from_bits(set.bits()), Some(set));
            let lanes = Suit::ALL.iter().fold(CardSet::EMPTY, |a, &s| a | CardSet::from_lane(s, set.lane(s)));
            prop_assert_eq!(lanes, set);
        }
        if let Some(set) = checked {
            prop_assert_eq!(set, truncated);
        }
        // A lane holds the ranks whose bits are set, of its suit only.
        let ranks: Vec<Card> = Rank::ALL.iter().filter(|r| lane >> r.value() & 1 == 1).map(|&r| Card::new(r, suit)).collect();
        prop_assert_eq!(from_lane.to_vec(), ranks.clone());
        prop_assert_eq!(from_lane.lane(suit), ranks.iter().fold(0u16, |a, c| a | 1 << c.rank().value()));
    }

    #[test]
    fn card_notation_round_trips(bits in any::<u64>()) {
        let set = CardSet::from_bits_truncate(bits);
        let parsed: CardSet = parse_cards(&set.to_string()).unwrap().into_iter().collect();
        prop_assert_eq!(parsed, set);
        for card in set {
            prop_assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
            let symbol = format!("{}{}", if card.rank() == Rank::Ten { "10".to_string() } else { card.rank().to_string().to_lowercase() }, card.suit().symbol());
            prop_assert_eq!(symbol.parse::<Card>().unwrap(), card);
        }
    }

    #[test]
    fn mutated_profiles_are_refused_or_play_without_panicking(
        which in 0..BUILTIN.len(),
        field in 0usize..8,
        value in prop_oneof![any::<i64>(), -3i64..40],
        seed in any::<u64>(),
    ) {
        let text = BUILTIN[which].1;
        let mutated = match field {
            0 => set_first(text, "made", &value.to_string()),
            1 => set_first(text, "batches", &format!("[{}, {}]", value, 5i64.wrapping_sub(value))),
            2 => set_first(text, "min_players", &value.to_string()),
            3 => set_first(text, "max_players", &value.to_string()),
            4 => set_first(text, "min_cut_packet", &value.to_string()),
            5 => set_first(text, "failed", &value.to_string()),
            6 => set_first(text, "deals", &value.to_string()),
            _ => set_first(text, "tricks", &value.to_string()),
        };
        // Either refused with a message, or valid and playable.
        if let Ok(profile) = Profile::from_toml(&mutated, "mutated") {
            let players = profile.min_players();
            let state = play_one(&profile, players, seed, 0, "threshold", "random");
            prop_assert_eq!(state.phase(), Phase::Finished);
        }
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}") {
        let _ = parse_cards(&text);
        let _ = text.parse::<Spec>();
        let profile = Profile::default_profile();
        let _ = bid_policy(&text, &profile);
        let _ = play_policy(&text, &profile);
        let _ = Profile::from_toml(&text, "fuzz");
    }
}
