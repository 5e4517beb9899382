//! The flags that describe a real game (`--calls`, `--plays`, the profiles' extras), read
//! into a [`Replay`]: what `deal` replays and `review` judges.

use crate::analysis::replay::{Replay, ReplayExtras, parse_calls, parse_plays};
use crate::cards::{CardSet, Suit};
use crate::error::Error;
use crate::rules::{self, Profile};

/// A real game as the replay flags give it, beside its hands and dealer.
#[derive(Clone, Debug, Default)]
pub struct ReplayText {
    /// Every seat's call in speaking order; with it, the other fields apply.
    pub calls: Option<String>,
    /// Every card played, in order.
    pub plays: Option<String>,
    /// Kitty profiles: the kitty before the deal.
    pub kitty: i64,
    /// Peep Nap: the floater.
    pub floater: Option<String>,
    /// Peep Nap: the seats that paid to look at the floater (`1,3`).
    pub peeks: Option<String>,
    /// Peep Nap: the card the declarer of a bid with the floater discarded.
    pub discard: Option<String>,
    /// The trump suit the declarer named.
    pub trump: Option<String>,
    /// Purchase Nap: the purchases, `SEAT:GIVEN>RECEIVED`.
    pub buy: Vec<String>,
    /// Sir Garnet: the spare hand.
    pub spare: Option<String>,
    /// Sir Garnet: the five cards the taker of the spare hand kept.
    pub keep: Option<String>,
}

impl ReplayText {
    /// The game: `hands` by seat, `dealer` (default the last seat, so that seat 0 speaks
    /// first) and these flags, read under `profile`.
    pub fn game(
        &self,
        profile: &Profile,
        dealer: Option<usize>,
        hands: Vec<CardSet>,
    ) -> Result<Replay, Error> {
        let players = hands.len();
        let Some(calls) = &self.calls else {
            return Err(Error::input(
                "a replay needs `calls` (and `hands`, `plays`)",
            ));
        };
        Ok(Replay {
            dealer: dealer.unwrap_or(players - 1),
            calls: parse_calls(calls, profile)?,
            plays: parse_plays(self.plays.as_deref().unwrap_or(""))?,
            extras: extras(self, players)?,
            hands,
        })
    }
}

/// The replay flags for the profiles' extra features, parsed.
fn extras(args: &ReplayText, players: usize) -> Result<ReplayExtras, Error> {
    let card = |text: &str| -> Result<crate::cards::Card, Error> { Ok(text.trim().parse()?) };
    let cards = |text: &str, n: usize| crate::cards::parse_hand(text, n).map_err(Error::from);
    let mut extras = ReplayExtras {
        kitty: args.kitty,
        ..ReplayExtras::default()
    };
    extras.floater = args.floater.as_deref().map(card).transpose()?;
    extras.discard = args.discard.as_deref().map(card).transpose()?;
    extras.spare = args
        .spare
        .as_deref()
        .map(|t| cards(t, rules::HAND_SIZE))
        .transpose()?;
    extras.keep = args
        .keep
        .as_deref()
        .map(|t| cards(t, rules::HAND_SIZE))
        .transpose()?;
    extras.trump = args.trump.as_deref().map(parse_suit_arg).transpose()?;
    if let Some(text) = &args.peeks {
        for word in text.split(',').filter(|w| !w.trim().is_empty()) {
            let seat: usize = word
                .trim()
                .parse()
                .ok()
                .filter(|&s| s < players)
                .ok_or_else(|| {
                    Error::input(format!(
                        "`peeks`: '{word}' is not a seat (0 to {})",
                        players - 1
                    ))
                })?;
            extras.peeks.push(seat);
        }
    }
    for text in &args.buy {
        let parsed = text.split_once(':').and_then(|(seat, rest)| {
            let (given, received) = rest.split_once('>')?;
            Some((seat.trim().parse::<usize>().ok()?, given, received))
        });
        let Some((seat, given, received)) = parsed.filter(|(s, _, _)| *s < players) else {
            return Err(Error::input(format!(
                "`buy` '{text}' is not SEAT:GIVEN>RECEIVED (e.g. 2:3C 4D>AS KS)"
            )));
        };
        let given: crate::cards::CardSet = crate::cards::parse_cards(given)?.into_iter().collect();
        let received = crate::cards::parse_cards(received)?;
        extras.buys.push((seat, given, received));
    }
    Ok(extras)
}

/// Parses `--trump`: one suit letter or symbol.
pub(super) fn parse_suit_arg(text: &str) -> Result<Suit, Error> {
    let mut chars = text.trim().chars();
    match (chars.next().and_then(Suit::from_char), chars.next()) {
        (Some(suit), None) => Ok(suit),
        _ => Err(Error::input(format!(
            "`trump` '{text}' is not a suit: use C, D, H or S"
        ))),
    }
}
