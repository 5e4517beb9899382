//! Replaying a real game: its hands, calls and card sequence instead of policies, so that a
//! table can score a game it played.

use thiserror::Error;

use crate::cards::{Card, CardError, CardSet, Suit, parse_cards};
use crate::game::{Call, DealState, IllegalCall, IllegalPlay, Phase};
use crate::rules::Profile;

/// A game as it was played.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The dealer's seat.
    pub dealer: usize,
    /// The hands as dealt, seat 0 first.
    pub hands: Vec<CardSet>,
    /// Every seat's call, in speaking order from the dealer's left.
    pub calls: Vec<Call>,
    /// Every card played, in order.
    pub plays: Vec<Card>,
    /// What the profile's extra features need (all empty for plain profiles).
    pub extras: ReplayExtras,
}

/// The parts of a game beyond hands, calls and cards, for profiles that have them.
#[derive(Clone, Debug, Default)]
pub struct ReplayExtras {
    /// The kitty before the deal (kitty profiles).
    pub kitty: i64,
    /// The floater (Peep Nap).
    pub floater: Option<Card>,
    /// The seats that paid to look at the floater.
    pub peeks: Vec<usize>,
    /// The card the declarer of a bid with the floater discarded.
    pub discard: Option<Card>,
    /// The trump suit the declarer named (bids whose trump is named).
    pub trump: Option<Suit>,
    /// Purchases (Purchase Nap): per buying seat, the cards given up and those received.
    pub buys: Vec<(usize, CardSet, Vec<Card>)>,
    /// The spare hand (Sir Garnet) and the five cards its taker kept.
    pub spare: Option<CardSet>,
    /// The five cards the taker of the spare hand kept.
    pub keep: Option<CardSet>,
}

/// Why a replay was refused.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// A call that is not `pass` or a bid of the profile.
    #[error("'{call}' is not a call of profile {profile}: use pass or one of {names}")]
    UnknownCall {
        /// The call as written.
        call: String,
        /// The profile.
        profile: String,
        /// Its bid names.
        names: String,
    },
    /// Not one call per seat.
    #[error("--calls needs one call per seat ({expected}), got {got}")]
    CallCount {
        /// Seats.
        expected: usize,
        /// Calls given.
        got: usize,
    },
    /// An illegal call.
    #[error("call {index} ('{call}' by seat {seat}) is illegal: {reason}")]
    IllegalCall {
        /// 1-based position in the auction.
        index: usize,
        /// The seat.
        seat: usize,
        /// The call.
        call: String,
        /// Why.
        reason: IllegalCall,
    },
    /// An illegal card.
    #[error("card {index} ({card} by seat {seat}) is illegal: {reason}")]
    IllegalPlay {
        /// 1-based position in the card sequence.
        index: usize,
        /// The seat.
        seat: usize,
        /// The card.
        card: Card,
        /// Why.
        reason: IllegalPlay,
    },
    /// The card sequence stops before the deal is over.
    #[error(
        "the card sequence ends after {played} cards but the deal is not over (seat {seat} is to play)"
    )]
    TooFewCards {
        /// Cards given.
        played: usize,
        /// The seat to play next.
        seat: usize,
    },
    /// Cards after the deal is over.
    #[error("the deal is over after {used} cards but {given} were given")]
    TooManyCards {
        /// Cards the deal took.
        used: usize,
        /// Cards given.
        given: usize,
    },
    /// A card that cannot be read.
    #[error(transparent)]
    Card(#[from] CardError),
    /// Something the profile's features need is missing or does not fit.
    #[error("{0}")]
    Extras(String),
}

/// Parses calls separated by commas or spaces (`pass,three,pass,pass`).
pub fn parse_calls(text: &str, profile: &Profile) -> Result<Vec<Call>, ReplayError> {
    text.split([',', ' '])
        .filter(|t| !t.is_empty())
        .map(|word| {
            Call::parse(word, profile).ok_or_else(|| ReplayError::UnknownCall {
                call: word.to_string(),
                profile: profile.name().to_string(),
                names: profile.bid_names(),
            })
        })
        .collect()
}

/// Parses the card sequence of a replay (duplicates are left to the replay to refuse).
pub fn parse_plays(text: &str) -> Result<Vec<Card>, ReplayError> {
    Ok(parse_cards(text)?)
}

/// Replays `game` under `profile` through the checked engine, returning the finished deal.
pub fn replay<'p>(profile: &'p Profile, game: &Replay) -> Result<DealState<'p>, ReplayError> {
    let players = game.hands.len();
    if game.calls.len() != players {
        return Err(ReplayError::CallCount {
            expected: players,
            got: game.calls.len(),
        });
    }
    let x = &game.extras;
    let bad = |text: String| Err(ReplayError::Extras(text));
    if profile.has_floater() != x.floater.is_some() {
        return bad(if profile.has_floater() {
            format!(
                "profile {} deals a floater: give it with --floater",
                profile.name()
            )
        } else {
            format!(
                "profile {} deals no floater: leave out --floater",
                profile.name()
            )
        });
    }
    if profile.spare_hand().is_some() != x.spare.is_some() {
        return bad(if x.spare.is_none() {
            format!(
                "profile {} deals a spare hand: give it with --spare",
                profile.name()
            )
        } else {
            format!(
                "profile {} deals no spare hand: leave out --spare",
                profile.name()
            )
        });
    }
    if profile.purchase_stake().is_none() && !x.buys.is_empty() {
        return bad(format!(
            "profile {} has no purchases: leave out --buy",
            profile.name()
        ));
    }
    let mut dealt = crate::game::Dealt {
        hands: [CardSet::EMPTY; crate::rules::MAX_PLAYERS],
        stock: profile.pack(players),
        spare: x.spare.unwrap_or(CardSet::EMPTY),
        stock_order: crate::game::StockOrder::EMPTY,
        floater: x.floater,
    };
    let mut seen = dealt.spare | x.floater.map_or(CardSet::EMPTY, Card::set);
    if let Some(floater) = x.floater
        && dealt.spare.contains(floater)
    {
        return bad(format!(
            "card {floater} is both the floater and in the spare hand"
        ));
    }
    for (seat, &hand) in game.hands.iter().enumerate() {
        if let Some(card) = (hand & seen).first() {
            return bad(format!(
                "card {card} is in hand {seat} and also the floater or in the spare hand"
            ));
        }
        seen |= hand;
        dealt.hands[seat] = hand;
    }
    if let Some(card) = (seen - profile.pack(players)).first() {
        return bad(format!("card {card} is not in the pack of this profile"));
    }
    dealt.stock = profile.pack(players) - seen;
    // The stock, top first, as the buyers drew it: what they received in turn, then the rest.
    let mut order: Vec<Card> = Vec::new();
    for i in 0..players {
        let seat = (game.dealer + 1 + i) % players;
        for (_, _, received) in x.buys.iter().filter(|(s, _, _)| *s == seat) {
            order.extend(received);
        }
    }
    let drawn: CardSet = order.iter().copied().collect();
    if drawn.count() as usize != order.len() || !(drawn - dealt.stock).is_empty() {
        return bad("the cards bought must be different cards of the stock".to_string());
    }
    order.extend(dealt.stock - drawn);
    dealt.stock_order = crate::game::StockOrder::from_slice(&order);
    // From the dealt hands, so that any ante the profile charges is paid.
    let mut state = DealState::from_dealt(profile, game.dealer, &dealt, players);
    state.set_kitty(x.kitty);
    if let Some((seat, _, _)) = x
        .buys
        .iter()
        .find(|(_, given, got)| given.count() as usize != got.len())
    {
        return bad(format!(
            "seat {seat} must receive as many cards as it gives up"
        ));
    }
    if let Some(seat) =
        (0..players).find(|&s| x.buys.iter().filter(|(b, _, _)| *b == s).count() > 1)
    {
        return bad(format!("seat {seat} can buy only once"));
    }
    while state.phase() == Phase::Purchase {
        let seat = state.to_act().expect("a seat to buy");
        let discard = x
            .buys
            .iter()
            .find(|(s, _, _)| *s == seat)
            .map_or(CardSet::EMPTY, |(_, given, _)| *given);
        if let Err(e) = state.purchase(discard) {
            return bad(format!("seat {seat}'s purchase is illegal: {e}"));
        }
    }
    for (i, &call) in game.calls.iter().enumerate() {
        let seat = state.to_act().expect("a seat to call");
        if x.peeks.contains(&seat)
            && let Err(e) = state.peek()
        {
            return bad(format!("seat {seat} cannot look at the floater: {e}"));
        }
        let result = match (call, x.keep) {
            (Call::TakeSpare, Some(keep)) => state.take_spare(keep),
            (Call::TakeSpare, None) => {
                return bad("taking the spare hand needs --keep (the five cards kept)".to_string());
            }
            _ => state.call(call),
        };
        result.map_err(|reason| ReplayError::IllegalCall {
            index: i + 1,
            seat,
            call: call.name(profile).to_string(),
            reason,
        })?;
    }
    if state.phase() == Phase::Floater {
        let Some(discard) = x.discard else {
            return bad(
                "the declarer took the floater: give its discard with --discard".to_string(),
            );
        };
        if let Err(e) = state.take_floater(discard) {
            return bad(format!("the floater discard {discard} is illegal: {e}"));
        }
    } else if x.discard.is_some() {
        return bad("--discard applies only to a contract with the floater".to_string());
    }
    if state.phase() == Phase::Trump {
        let Some(trump) = x.trump else {
            return bad(
                "the declarer names trump in this contract: give it with --trump".to_string(),
            );
        };
        if let Err(e) = state.name_trump(trump) {
            return bad(format!("trump {trump} cannot be named: {e}"));
        }
    } else if x.trump.is_some() {
        return bad("--trump applies only to a contract whose trump is named".to_string());
    }
    for (i, &card) in game.plays.iter().enumerate() {
        let Some(seat) = state.to_act() else {
            return Err(ReplayError::TooManyCards {
                used: i,
                given: game.plays.len(),
            });
        };
        state
            .play_replayed(card)
            .map_err(|reason| ReplayError::IllegalPlay {
                index: i + 1,
                seat,
                card,
                reason,
            })?;
    }
    if state.phase() != Phase::Finished {
        return Err(ReplayError::TooFewCards {
            played: game.plays.len(),
            seat: state.to_act().expect("a seat to play"),
        });
    }
    Ok(state)
}
