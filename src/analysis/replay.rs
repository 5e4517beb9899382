//! Replaying a real game: its hands, calls and card sequence instead of policies, so that a
//! table can score a game it played.

use thiserror::Error;

use crate::cards::{Card, CardError, CardSet, Suit, parse_cards};
use crate::error::InputError;
use crate::game::{Call, DealState, IllegalCall, IllegalPlay, IllegalPurchase, Phase};
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
    #[error("`calls` needs one call per seat ({expected}), got {got}")]
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
        reason: String,
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
    /// The profile deals a floater, and none was given.
    #[error("profile {profile} deals a floater: give it with `floater`")]
    FloaterMissing {
        /// The profile's name.
        profile: String,
    },
    /// A floater given to a profile without one.
    #[error("profile {profile} deals no floater: leave out `floater`")]
    NoFloater {
        /// The profile's name.
        profile: String,
    },
    /// The profile deals a spare hand, and none was given.
    #[error("profile {profile} deals a spare hand: give it with `spare`")]
    SpareMissing {
        /// The profile's name.
        profile: String,
    },
    /// A spare hand given to a profile without one.
    #[error("profile {profile} deals no spare hand: leave out `spare`")]
    NoSpare {
        /// The profile's name.
        profile: String,
    },
    /// Purchases given to a profile without them.
    #[error("profile {profile} has no purchases: leave out `buy`")]
    NoPurchases {
        /// The profile's name.
        profile: String,
    },
    /// The floater is also in the spare hand.
    #[error("card {card} is both the floater and in the spare hand")]
    FloaterInSpare {
        /// The card.
        card: Card,
    },
    /// A card of a hand that is also the floater or in the spare hand.
    #[error("card {card} is in hand {seat} and also the floater or in the spare hand")]
    CardTwice {
        /// The card.
        card: Card,
        /// The hand holding it.
        seat: usize,
    },
    /// A card outside the profile's pack.
    #[error("card {card} is not in the pack of this profile")]
    OutsidePack {
        /// The card.
        card: Card,
    },
    /// Cards bought twice, or not from the stock.
    #[error("the cards bought must be different cards of the stock")]
    BoughtCards,
    /// A purchase receiving another number of cards than it gives up.
    #[error("seat {seat} must receive as many cards as it gives up")]
    PurchaseCount {
        /// The buying seat.
        seat: usize,
    },
    /// Two purchases by one seat.
    #[error("seat {seat} can buy only once")]
    PurchaseTwice {
        /// The buying seat.
        seat: usize,
    },
    /// A purchase the engine refuses.
    #[error("seat {seat}'s purchase is illegal: {reason}")]
    IllegalPurchase {
        /// The buying seat.
        seat: usize,
        /// Why.
        #[source]
        reason: IllegalPurchase,
    },
    /// A look at the floater the engine refuses.
    #[error("seat {seat} cannot look at the floater: {reason}")]
    IllegalPeek {
        /// The seat.
        seat: usize,
        /// Why.
        #[source]
        reason: IllegalCall,
    },
    /// The spare hand taken without the cards kept.
    #[error("taking the spare hand needs `keep` (the five cards kept)")]
    KeepMissing,
    /// The floater taken without the discard.
    #[error("the declarer took the floater: give its discard with `discard`")]
    DiscardMissing,
    /// A discard the engine refuses.
    #[error("the floater discard {card} is illegal: {reason}")]
    IllegalDiscard {
        /// The discard.
        card: Card,
        /// Why.
        #[source]
        reason: IllegalCall,
    },
    /// A discard given to a contract without the floater.
    #[error("`discard` applies only to a contract with the floater")]
    NoDiscard,
    /// A contract whose trump is named, without the suit.
    #[error("the declarer names trump in this contract: give it with `trump`")]
    TrumpMissing,
    /// A trump suit the engine refuses.
    #[error("trump {suit} cannot be named: {reason}")]
    IllegalTrump {
        /// The suit.
        suit: Suit,
        /// Why.
        #[source]
        reason: IllegalCall,
    },
    /// A trump suit given to a contract whose trump is not named.
    #[error("`trump` applies only to a contract whose trump is named")]
    NoTrump,
}

impl InputError for ReplayError {}

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
    let mut state = replay_auction(profile, game)?;
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

/// Replays `game` up to its first card (its purchases, calls and the declarer's choices)
/// through the checked engine: the deal in its play phase, or finished when every seat passed.
/// `game.plays` is not read.
pub fn replay_auction<'p>(
    profile: &'p Profile,
    game: &Replay,
) -> Result<DealState<'p>, ReplayError> {
    let players = game.hands.len();
    if game.calls.len() != players {
        return Err(ReplayError::CallCount {
            expected: players,
            got: game.calls.len(),
        });
    }
    let x = &game.extras;
    let name = || profile.name().to_string();
    if profile.has_floater() != x.floater.is_some() {
        return Err(if profile.has_floater() {
            ReplayError::FloaterMissing { profile: name() }
        } else {
            ReplayError::NoFloater { profile: name() }
        });
    }
    if profile.spare_hand().is_some() != x.spare.is_some() {
        return Err(if x.spare.is_none() {
            ReplayError::SpareMissing { profile: name() }
        } else {
            ReplayError::NoSpare { profile: name() }
        });
    }
    if profile.purchase_stake().is_none() && !x.buys.is_empty() {
        return Err(ReplayError::NoPurchases { profile: name() });
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
        return Err(ReplayError::FloaterInSpare { card: floater });
    }
    for (seat, &hand) in game.hands.iter().enumerate() {
        if let Some(card) = (hand & seen).first() {
            return Err(ReplayError::CardTwice { card, seat });
        }
        seen |= hand;
        dealt.hands[seat] = hand;
    }
    if let Some(card) = (seen - profile.pack(players)).first() {
        return Err(ReplayError::OutsidePack { card });
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
        return Err(ReplayError::BoughtCards);
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
        return Err(ReplayError::PurchaseCount { seat: *seat });
    }
    if let Some(seat) =
        (0..players).find(|&s| x.buys.iter().filter(|(b, _, _)| *b == s).count() > 1)
    {
        return Err(ReplayError::PurchaseTwice { seat });
    }
    while state.phase() == Phase::Purchase {
        let seat = state.to_act().expect("a seat to buy");
        // A purchase given is charged even when it gives up no card.
        let result = match x.buys.iter().find(|(s, _, _)| *s == seat) {
            Some((_, given, _)) => state.buy_in(*given),
            None => state.purchase(CardSet::EMPTY),
        };
        if let Err(reason) = result {
            return Err(ReplayError::IllegalPurchase { seat, reason });
        }
    }
    for (i, &call) in game.calls.iter().enumerate() {
        let seat = state.to_act().expect("a seat to call");
        if x.peeks.contains(&seat)
            && let Err(reason) = state.peek()
        {
            return Err(ReplayError::IllegalPeek { seat, reason });
        }
        let result = match (call, x.keep) {
            (Call::TakeSpare, Some(keep)) => state.take_spare(keep),
            (Call::TakeSpare, None) => {
                return Err(ReplayError::KeepMissing);
            }
            _ => state.call(call),
        };
        result.map_err(|reason| ReplayError::IllegalCall {
            index: i + 1,
            seat,
            call: call.name(profile).to_string(),
            reason: reason.explain(profile),
        })?;
    }
    if state.phase() == Phase::Floater {
        let Some(discard) = x.discard else {
            return Err(ReplayError::DiscardMissing);
        };
        if let Err(reason) = state.take_floater(discard) {
            return Err(ReplayError::IllegalDiscard {
                card: discard,
                reason,
            });
        }
    } else if x.discard.is_some() {
        return Err(ReplayError::NoDiscard);
    }
    if state.phase() == Phase::Trump {
        let Some(trump) = x.trump else {
            return Err(ReplayError::TrumpMissing);
        };
        if let Err(reason) = state.name_trump(trump) {
            return Err(ReplayError::IllegalTrump {
                suit: trump,
                reason,
            });
        }
    } else if x.trump.is_some() {
        return Err(ReplayError::NoTrump);
    }
    Ok(state)
}
