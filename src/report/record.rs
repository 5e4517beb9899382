//! The JSON record of one finished deal (`napsim deal --json`, one object per line), and
//! reading records back as games to replay or review.

use serde::{Deserialize, Serialize};

use crate::analysis::replay::{Replay, ReplayExtras};
use crate::cards::{Card, CardSet, Suit, parse_cards, parse_hand};
use crate::error::Error;
use crate::game::{Call, DealState};
use crate::rules::{HAND_SIZE, Profile, TrumpRule};

/// One call of the auction.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct AuctionEntry {
    /// The seat that spoke.
    pub seat: usize,
    /// `pass` or the bid's lowercase name.
    pub call: String,
}

/// The contract of a deal.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ContractRecord {
    /// The declarer's seat.
    pub declarer: usize,
    /// The bid's lowercase name.
    pub bid: String,
    /// Tricks needed (0 for misère).
    pub tricks: u8,
}

/// One trick.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct TrickRecord {
    /// The seat that led.
    pub leader: usize,
    /// The cards in play order, starting with the leader (`AS`, `TD`).
    pub cards: Vec<String>,
    /// The seat that won it.
    pub winner: usize,
}

/// A finished deal, as written by `napsim deal --json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct DealRecord {
    /// The profile's `name`.
    pub profile: String,
    /// The digest of the profile's rules when they are not the built-in profile's of that name
    /// ([`crate::rules::Profile::record_digest`]): absent for a built-in profile as shipped.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub profile_digest: Option<String>,
    /// Table size.
    pub players: usize,
    /// The dealer's seat.
    pub dealer: usize,
    /// The hands as dealt, by seat: `"AS TS 7H 4D 2C"`.
    pub hands: Vec<String>,
    /// The calls in speaking order.
    pub auction: Vec<AuctionEntry>,
    /// The contract, or null when every seat passed.
    pub contract: Option<ContractRecord>,
    /// The trump suit letter (`C D H S`), or null.
    pub trump: Option<String>,
    /// The tricks in order.
    pub tricks: Vec<TrickRecord>,
    /// Tricks taken by the declarer (0 when passed out).
    pub declarer_tricks: u8,
    /// Whether the contract was made (null when passed out).
    pub made: Option<bool>,
    /// Units won (+) or paid (-) by each seat.
    pub payments: Vec<i64>,
    /// A revoke that ended a replayed deal (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub revoke: Option<RevokeRecord>,
    /// The kitty before the deal, for profiles with a kitty.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub kitty_before: Option<i64>,
    /// The kitty after the deal: payments plus the change of the kitty sum to zero.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub kitty_after: Option<i64>,
    /// The floater, for profiles that deal one (Peep Nap).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub floater: Option<String>,
    /// The seats that paid to look at the floater, in speaking order.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub peeks: Vec<usize>,
    /// The spare hand as dealt, for profiles that deal one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub spare: Option<String>,
    /// Cards exchanged before the play, in order: purchases (a seat that paid and discarded
    /// nothing has empty strings), taking the spare hand, taking the floater.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub exchanges: Vec<ExchangeRecord>,
}

/// Cards a seat exchanged before the play.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ExchangeRecord {
    /// The seat.
    pub seat: usize,
    /// The cards it gave up.
    pub discarded: String,
    /// The cards it took.
    pub received: String,
}

/// The exchanges of a deal: purchases in turn from the dealer's left, then a spare-hand take.
fn exchanges(state: &DealState) -> Vec<ExchangeRecord> {
    let players = state.players();
    let record =
        |seat, discarded: crate::cards::CardSet, received: crate::cards::CardSet| ExchangeRecord {
            seat,
            discarded: discarded.to_string(),
            received: received.to_string(),
        };
    let mut list: Vec<ExchangeRecord> = (0..players)
        .map(|i| (state.dealer() + 1 + i) % players)
        .filter_map(|seat| {
            let (discarded, received) = state.bought(seat);
            state
                .bought_in(seat)
                .then(|| record(seat, discarded, received))
        })
        .collect();
    if let Some((seat, discarded, received)) = state.spare_exchange() {
        list.push(record(seat, discarded, received));
    }
    if let (Some(discard), Some(floater), Some(c)) =
        (state.floater_discard(), state.floater(), state.contract())
    {
        list.push(record(c.declarer, discard.set(), floater.set()));
    }
    list
}

/// A revoke in a replayed deal.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct RevokeRecord {
    /// The seat that failed to follow suit.
    pub seat: usize,
    /// The card it played.
    pub card: String,
    /// The cards already played to the interrupted trick, leader first.
    pub trick: Vec<String>,
}

impl DealRecord {
    /// The record of a finished deal.
    pub fn from_state(state: &DealState) -> DealRecord {
        let profile = state.profile();
        let players = state.players();
        DealRecord {
            profile: profile.name().to_string(),
            profile_digest: profile.record_digest(),
            players,
            dealer: state.dealer(),
            hands: (0..players).map(|s| state.dealt(s).to_string()).collect(),
            auction: state
                .calls()
                .iter()
                .enumerate()
                .map(|(i, call)| AuctionEntry {
                    seat: state.caller(i),
                    call: call.name(profile).to_string(),
                })
                .collect(),
            contract: state.contract().map(|c| ContractRecord {
                declarer: c.declarer,
                bid: profile.bid(c.bid).name().to_string(),
                tricks: profile.bid(c.bid).tricks_needed(),
            }),
            trump: state.trump().map(|s| s.letter().to_string()),
            tricks: (0..state.tricks_done())
                .map(|t| TrickRecord {
                    leader: state.trick_leader(t),
                    cards: state.trick_cards(t).iter().map(|c| c.to_string()).collect(),
                    winner: state.trick_winner(t),
                })
                .collect(),
            declarer_tricks: state.declarer_tricks(),
            made: state.made(),
            payments: state.payments()[..players].to_vec(),
            revoke: state.revoke().map(|(seat, card)| RevokeRecord {
                seat,
                card: card.to_string(),
                trick: state
                    .current_trick()
                    .iter()
                    .map(|c| c.to_string())
                    .collect(),
            }),
            kitty_before: profile.has_kitty().then(|| state.kitty_before()),
            kitty_after: profile.has_kitty().then(|| state.kitty_after()),
            floater: state.floater().map(|c| c.to_string()),
            peeks: (0..players)
                .map(|i| (state.dealer() + 1 + i) % players)
                .filter(|&seat| state.peeked(seat))
                .collect(),
            spare: profile.spare_hand().map(|_| state.spare().to_string()),
            exchanges: exchanges(state),
        }
    }
}

/// Reads `deal --json` records, one JSON object per line (blank lines skipped); `source` names
/// the input in errors, with the line.
pub fn read_records(text: &str, source: &str) -> Result<Vec<DealRecord>, Error> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| {
                Error::input(format!(
                    "{source} line {}: not a deal record (a JSON line of `napsim deal`): {e}",
                    i + 1
                ))
            })
        })
        .collect()
}

impl DealRecord {
    /// The game this record describes, to replay under `profile` (the profile it names): its
    /// hands, calls, cards and the profile's extras (kitty, floater, purchases, spare hand,
    /// named trump), all read back from the record.
    pub fn to_replay(&self, profile: &Profile) -> Result<Replay, Error> {
        if self.profile != profile.name() {
            return Err(Error::input(format!(
                "the record is of profile {}, not {}: give `rules` {}",
                self.profile,
                profile.name(),
                self.profile
            )));
        }
        profile.check_players(self.players)?;
        if self.hands.len() != self.players || self.dealer >= self.players {
            return Err(Error::input(format!(
                "the record has {} hands and dealer {} for {} players",
                self.hands.len(),
                self.dealer,
                self.players
            )));
        }
        let hands = self
            .hands
            .iter()
            .map(|h| parse_hand(h, HAND_SIZE))
            .collect::<Result<Vec<CardSet>, _>>()?;
        let calls = self
            .auction
            .iter()
            .map(|entry| {
                Call::parse(&entry.call, profile).ok_or_else(|| {
                    Error::input(format!(
                        "'{}' is not a call of profile {}",
                        entry.call,
                        profile.name()
                    ))
                })
            })
            .collect::<Result<Vec<Call>, Error>>()?;
        let mut plays = Vec::new();
        for trick in &self.tricks {
            plays.extend(parse_each(&trick.cards)?);
        }
        if let Some(revoke) = &self.revoke {
            plays.extend(parse_each(&revoke.trick)?);
            plays.push(revoke.card.parse()?);
        }
        let mut extras = ReplayExtras {
            kitty: self.kitty_before.unwrap_or(0),
            floater: self.floater.as_deref().map(str::parse).transpose()?,
            peeks: self.peeks.clone(),
            spare: self
                .spare
                .as_deref()
                .map(|t| parse_hand(t, HAND_SIZE))
                .transpose()?,
            ..ReplayExtras::default()
        };
        let named = self
            .contract
            .as_ref()
            .and_then(|c| profile.bid_by_name(&c.bid));
        if named.is_some_and(|bid| bid.trump() == TrumpRule::Named) {
            extras.trump = match self.trump.as_deref() {
                Some(letter) => letter.chars().next().and_then(Suit::from_char),
                None => None,
            };
        }
        for exchange in &self.exchanges {
            let discarded: CardSet = parse_cards(&exchange.discarded)?.into_iter().collect();
            let received = parse_cards(&exchange.received)?;
            let seat = exchange.seat.min(self.players - 1);
            let received_set: CardSet = received.iter().copied().collect();
            if extras.floater.is_some_and(|f| received_set == f.set()) {
                extras.discard = discarded.first();
            } else if profile.spare_hand().is_some() {
                extras.keep = Some((hands[seat] - discarded) | received_set);
            } else {
                extras.buys.push((exchange.seat, discarded, received));
            }
        }
        Ok(Replay {
            dealer: self.dealer,
            hands,
            calls,
            plays,
            extras,
        })
    }
}

/// Parses each card of a record's list.
fn parse_each(cards: &[String]) -> Result<Vec<Card>, Error> {
    cards
        .iter()
        .map(|c| c.parse().map_err(Error::from))
        .collect()
}
