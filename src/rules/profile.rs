//! The validated rule profile the engine plays: the model, its accessors and the tables
//! precomputed from it. Turning a TOML file into one lives in `validate.rs`.

use std::collections::BTreeMap;

use super::RulesError;
use crate::cards::{CardSet, Rank};

/// The most seats the engine supports; arrays indexed by seat have this length.
pub const MAX_PLAYERS: usize = 7;
/// Cards in a hand, and tricks in a deal.
pub const HAND_SIZE: usize = 5;
/// Most bids a profile's ladder may have.
pub const MAX_BIDS: usize = 64;

/// The largest payout, ante, peek price or stake a profile may set: far beyond any real table,
/// and small enough that no settlement or tally can overflow.
pub const MAX_STAKE: i64 = 1_000_000;

/// The most deals a profile's session may have (`session.deals`), and so the longest session
/// napsim values: far beyond any real session, and its sampled futures stay a few megabytes.
pub const MAX_SESSION_DEALS: u32 = 1_000;

/// A bid's position in its profile's ladder (0 is the lowest bid).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BidId(pub u8);

impl BidId {
    /// The index into [`Profile::bids`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a bid undertakes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BidKind {
    /// Take at least this many tricks.
    Tricks(u8),
    /// Take no trick at all.
    Misere,
}

/// How the trump suit of a contract is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrumpRule {
    /// The suit of the declarer's first card is trump.
    FirstLead,
    /// No trump: every trick goes to the highest card of the suit led.
    NoTrump,
    /// The declarer names the trump suit before the opening lead.
    Named,
}

/// One rung of the bid ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bid {
    pub(super) name: String,
    pub(super) label: String,
    pub(super) kind: BidKind,
    pub(super) trump: TrumpRule,
    pub(super) made: i64,
    pub(super) failed: i64,
    pub(super) only_over: Option<BidId>,
    pub(super) takes_kitty: bool,
    pub(super) failed_to_kitty: bool,
    pub(super) lead: LeadRule,
    pub(super) with_floater: bool,
}

/// A constraint on the declarer's opening lead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeadRule {
    /// Any card.
    Any,
    /// The lowest card of the suit led (Bonaparte: "must lead your lowest trump").
    LowestOfSuit,
    /// The lowest card outside the named trump suit (Peep Nap's Wellington); when two suits
    /// tie for the lowest rank, either card is that lowest card. A hand of trumps only may
    /// lead any card (the source does not say).
    LowestNonTrump,
}

impl Bid {
    /// Lower-case ASCII name (`three`, `misere`).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The name for people (`Three`, `Misère`).
    pub fn label(&self) -> &str {
        &self.label
    }
    /// What the bid undertakes.
    pub fn kind(&self) -> BidKind {
        self.kind
    }
    /// How trump is chosen.
    pub fn trump(&self) -> TrumpRule {
        self.trump
    }
    /// Units each opponent pays the declarer when the bid is made.
    pub fn made(&self) -> i64 {
        self.made
    }
    /// Units the declarer pays each opponent when the bid fails.
    pub fn failed(&self) -> i64 {
        self.failed
    }
    /// The bid that must already have been called before this one may be.
    pub fn only_over(&self) -> Option<BidId> {
        self.only_over
    }
    /// The constraint on the opening lead.
    pub fn lead(&self) -> LeadRule {
        self.lead
    }
    /// Whether the bid is made with the floater (the declarer takes it and discards one card).
    pub fn with_floater(&self) -> bool {
        self.with_floater
    }
    /// Whether a made contract of this bid also collects the kitty.
    pub fn takes_kitty(&self) -> bool {
        self.takes_kitty
    }
    /// Whether a failed contract pays `failed` times the number of players into the kitty
    /// (instead of `failed` to each opponent).
    pub fn failed_to_kitty(&self) -> bool {
        self.failed_to_kitty
    }
    /// Tricks the declarer needs: 0 for misère (which needs none taken).
    pub fn tricks_needed(&self) -> u8 {
        match self.kind {
            BidKind::Tricks(n) => n,
            BidKind::Misere => 0,
        }
    }
    /// Whether taking `declarer_tricks` tricks makes the bid.
    pub fn is_made(&self, declarer_tricks: u8) -> bool {
        match self.kind {
            BidKind::Tricks(n) => declarer_tricks >= n,
            BidKind::Misere => declarer_tricks == 0,
        }
    }
    /// Whether this is a misère bid.
    pub fn is_misere(&self) -> bool {
        self.kind == BidKind::Misere
    }
    /// Whether a contract of this bid is played under the same rules as one of `other`: the
    /// same undertaking (tricks needed, or misère), trump rule, opening-lead rule and use of the
    /// floater. Such bids differ only in name, place in the ladder and payouts (Nap and
    /// Wellington), so the cards of their play are the same wherever the players look only at
    /// the rules ([`crate::policy::PlayPolicy::plays_by_rules_only`]).
    pub fn plays_like(&self, other: &Bid) -> bool {
        self.kind == other.kind
            && self.trump == other.trump
            && self.lead == other.lead
            && self.with_floater == other.with_floater
    }
    /// The declarer's units from a contract of this bid at a table of `players`, counting the
    /// payouts only (no kitty, antes or spare hand): `made` from each opponent, or `failed` to
    /// each opponent (to the kitty for every player, where the bid says so).
    pub fn declarer_units(&self, made: bool, players: usize) -> i64 {
        let (each, into_kitty_each) = self.stakes(made);
        let players = players as i64;
        each * (players - 1) - into_kitty_each * players
    }
    /// A defender's units from a contract of this bid, counting the payouts only (as
    /// [`Bid::declarer_units`]): it pays `made` when the bid is made, and receives `failed`
    /// when it fails (nothing where the failure pays the kitty).
    pub fn defender_units(&self, made: bool) -> i64 {
        -self.stakes(made).0
    }
    /// The stakes of a contract of this bid, made or failed: the units each opponent pays the
    /// declarer (negative: the declarer pays each opponent), and the units the declarer pays
    /// into the kitty for each player. A deal's settlement builds on this.
    #[inline]
    pub(crate) fn stakes(&self, made: bool) -> (i64, i64) {
        if made {
            (self.made, 0)
        } else if self.failed_to_kitty {
            (0, self.failed)
        } else {
            (-self.failed, 0)
        }
    }
    /// The success rate at which bidding this breaks even on payouts: the loss over the win
    /// plus the loss.
    pub fn breakeven(&self, players: usize) -> f64 {
        let win = self.declarer_units(true, players) as f64;
        let loss = -self.declarer_units(false, players) as f64;
        loss / (win + loss)
    }
}

/// When the pack is shuffled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shuffle {
    /// A fresh shuffle before every deal.
    EveryDeal,
    /// The traditional practice: between deals the cards are gathered (in the order `gather`
    /// says) and cut, and the pack is shuffled only at the start of a session or block, after a
    /// made contract of `after_made` or higher, and (if `after_all_pass`) after an all-pass deal.
    Limited {
        /// How the cards are gathered.
        gather: Gather,
        /// The lowest bid whose made contract triggers a shuffle (None: never).
        after_made: Option<BidId>,
        /// Whether an all-pass deal triggers a shuffle.
        after_all_pass: bool,
    },
}

/// How the cards of a finished deal are gathered into the pack for the next one (no source
/// says; these are the two natural models). The first card listed ends up on top of the pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gather {
    /// The tricks in the order they were played, each trick's cards in play order, then any
    /// cards still in hand (seats from the dealer's left), then the undealt stock.
    TricksThenStock,
    /// The undealt stock on top, then the tricks and cards in hand as above.
    StockThenTricks,
}

/// What an all-pass auction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllPass {
    /// Nobody scores; the deal passes left.
    NextDealer,
}

/// The spare hand of Sir Garnet: taking it commits the taker to `bid`, which nobody may
/// overcall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpareHand {
    /// The bid the taker must play.
    pub bid: BidId,
    /// Multiplier on that bid's failed payout when it was taken with the spare hand.
    pub failed_multiplier: i64,
}

/// What a revoke does (only a replayed game can contain one: policies play legally).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revoke {
    /// A revoke is an illegal play and is refused.
    Illegal,
    /// Play stops and the deal is settled at once: a revoking declarer pays every opponent as
    /// if the contract were lost; a revoking defender alone pays the declarer what it would
    /// have collected from all the defenders; the other defenders pay nothing.
    SettleAtOnce,
}

/// How the first dealer of a session is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstDealer {
    /// Uniformly at random.
    Random,
}

/// How tied highest session balances are scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// The win is shared equally between the tied seats.
    Share,
}

/// A validated rule profile: everything the engine needs to deal, bid, play and settle.
#[derive(Clone, Debug)]
pub struct Profile {
    pub(super) name: String,
    pub(super) description: String,
    pub(super) source: String,
    pub(super) toml: String,
    /// [`rules_digest`] of `toml`.
    pub(super) digest: u64,
    /// Whether the rules are those of the built-in profile of the same name.
    pub(super) builtin_rules: bool,
    pub(super) min_players: usize,
    pub(super) max_players: usize,
    pub(super) lowest_rank: Rank,
    pub(super) lowest_rank_by_players: BTreeMap<usize, Rank>,
    /// The pack by table size, precomputed from the two fields above.
    pub(super) packs: [CardSet; MAX_PLAYERS + 1],
    pub(super) shuffle: Shuffle,
    pub(super) cut: bool,
    pub(super) min_cut_packet: usize,
    pub(super) batches: Vec<u8>,
    pub(super) all_pass: AllPass,
    pub(super) revoke: Revoke,
    pub(super) session_deals: usize,
    pub(super) first_dealer: FirstDealer,
    pub(super) ties: Ties,
    pub(super) bids: Vec<Bid>,
    pub(super) spare_hand: Option<SpareHand>,
    /// Units each player pays into the kitty before each deal (None: no kitty).
    pub(super) ante: Option<i64>,
    /// The price of a look at the floater (None: no floater).
    pub(super) peek: Option<i64>,
    /// The stake to buy cards before the auction (None: no purchase).
    pub(super) purchase_stake: Option<i64>,
    /// Indexed by the highest bid on the table (0: none, i + 1: bid i): whether any bid can
    /// still be called over it. Precomputed because the auction asks it at every seat.
    pub(super) can_overcall: Vec<bool>,
}

impl Profile {
    /// A built-in profile by name.
    pub fn builtin(name: &str) -> Result<Profile, RulesError> {
        let (_, text) = super::BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| RulesError::UnknownProfile {
                name: name.to_string(),
                known: super::builtin_names().collect::<Vec<_>>().join(", "),
            })?;
        Profile::from_toml(text, name)
    }

    /// The default profile (`heather-1875`).
    pub fn default_profile() -> Profile {
        Profile::builtin(super::DEFAULT_PROFILE).expect("the default profile is valid")
    }

    /// The profile's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// One-line description.
    pub fn description(&self) -> &str {
        &self.description
    }
    /// The source the profile follows.
    pub fn source(&self) -> &str {
        &self.source
    }
    /// The TOML text the profile was read from.
    pub fn toml(&self) -> &str {
        &self.toml
    }

    /// A digest of the rules ([`rules_digest`]: comments and layout aside), 16 hex digits.
    pub fn digest(&self) -> String {
        format!("{:016x}", self.digest)
    }

    /// The digest a deal record carries: None when the rules are those of the built-in profile
    /// of this name (its name alone says them), else [`Profile::digest`] (a profile of a file,
    /// or a built-in one edited under its own name), so that a review can tell them apart.
    pub fn record_digest(&self) -> Option<String> {
        (!self.builtin_rules).then(|| self.digest())
    }
    /// Fewest players.
    pub fn min_players(&self) -> usize {
        self.min_players
    }
    /// Most players.
    pub fn max_players(&self) -> usize {
        self.max_players
    }
    /// Checks that `players` may play this profile.
    pub fn check_players(&self, players: usize) -> Result<(), RulesError> {
        if (self.min_players..=self.max_players).contains(&players) {
            Ok(())
        } else {
            Err(RulesError::Players {
                profile: self.name.clone(),
                players,
                min: self.min_players,
                max: self.max_players,
            })
        }
    }
    /// The pack used at a table of `players`.
    pub fn pack(&self, players: usize) -> CardSet {
        self.packs[players.min(MAX_PLAYERS)]
    }
    /// A description of the pack at `players`, for messages (`52 cards, 2 to A`).
    pub fn pack_description(&self, players: usize) -> String {
        let pack = self.pack(players);
        let lowest = pack.first().map(|c| c.rank().letter()).unwrap_or('?');
        format!("{} cards, ranks {lowest} to A", pack.count())
    }
    /// When the pack is shuffled.
    pub fn shuffle(&self) -> Shuffle {
        self.shuffle
    }
    /// Whether the pack is cut before the deal.
    pub fn cut(&self) -> bool {
        self.cut
    }
    /// Fewest cards in each packet of the cut.
    pub fn min_cut_packet(&self) -> usize {
        self.min_cut_packet
    }
    /// Rounds of the deal, e.g. `[3, 2]`.
    pub fn batches(&self) -> &[u8] {
        &self.batches
    }
    /// What an all-pass auction does.
    pub fn all_pass(&self) -> AllPass {
        self.all_pass
    }
    /// Whether the profile has a kitty (a pool carried from deal to deal).
    pub fn has_kitty(&self) -> bool {
        self.ante.is_some() || self.purchase_stake.is_some() || self.peek.is_some()
    }
    /// Whether a floater is dealt (Peep Nap).
    pub fn has_floater(&self) -> bool {
        self.peek.is_some()
    }
    /// The price of a look at the floater.
    pub fn peek_price(&self) -> i64 {
        self.peek.unwrap_or(0)
    }
    /// Units each player pays into the kitty before each deal.
    pub fn ante(&self) -> i64 {
        self.ante.unwrap_or(0)
    }
    /// The stake to buy cards before the auction, for Purchase Nap profiles.
    pub fn purchase_stake(&self) -> Option<i64> {
        self.purchase_stake
    }
    /// The spare hand, for profiles that deal one.
    pub fn spare_hand(&self) -> Option<SpareHand> {
        self.spare_hand
    }
    /// What a revoke does.
    pub fn revoke(&self) -> Revoke {
        self.revoke
    }
    /// Deals in a session.
    pub fn session_deals(&self) -> usize {
        self.session_deals
    }
    /// How the first dealer is chosen.
    pub fn first_dealer(&self) -> FirstDealer {
        self.first_dealer
    }
    /// How tied session winners are scored.
    pub fn ties(&self) -> Ties {
        self.ties
    }
    /// The bid ladder, lowest first.
    pub fn bids(&self) -> &[Bid] {
        &self.bids
    }
    /// The bid `id`.
    pub fn bid(&self, id: BidId) -> &Bid {
        &self.bids[id.index()]
    }
    /// The ids of every bid, lowest first.
    pub fn bid_ids(&self) -> impl DoubleEndedIterator<Item = BidId> + use<> {
        (0..self.bids.len()).map(|i| BidId(i as u8))
    }
    /// The id of the bid named `name`.
    pub fn bid_id(&self, name: &str) -> Option<BidId> {
        self.bids
            .iter()
            .position(|b| b.name == name)
            .map(|i| BidId(i as u8))
    }
    /// The bid named `name`.
    pub fn bid_by_name(&self, name: &str) -> Option<&Bid> {
        self.bids.iter().find(|b| b.name == name)
    }
    /// Whether any bid may be called when `highest` is the highest bid on the table.
    #[inline]
    pub fn can_overcall(&self, highest: Option<BidId>) -> bool {
        self.can_overcall[highest.map_or(0, |b| b.index() + 1)]
    }

    /// The bid names, comma-separated, for messages.
    pub fn bid_names(&self) -> String {
        self.bids
            .iter()
            .map(|b| b.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Fills the tables precomputed from the rules: whether any bid can be called over each
    /// bid, and the pack at each table size.
    pub(super) fn precompute(&mut self) {
        self.can_overcall = (0..=self.bids.len())
            .map(|on_table| {
                let current = on_table.checked_sub(1);
                self.bids.iter().enumerate().any(|(i, bid)| {
                    current.is_none_or(|c| i > c)
                        && bid
                            .only_over
                            .is_none_or(|r| current.is_some_and(|c| c >= r.index()))
                })
            })
            .collect();
        for players in 0..=MAX_PLAYERS {
            let lowest = self
                .lowest_rank_by_players
                .get(&players)
                .copied()
                .unwrap_or(self.lowest_rank);
            self.packs[players] = CardSet::from_lowest_rank(lowest);
        }
    }
}

/// A digest of a profile: the 64-bit FNV-1a hash of its rule set as napsim writes it back (in
/// one order, comments and layout dropped), so that a file and its written-back copy have the
/// same digest. Its description and source count, and so does an optional key spelled out at
/// its default: such a copy of a built-in profile is taken as edited.
pub fn rules_digest(text: &str) -> u64 {
    let canonical = toml::from_str::<super::raw::RuleSet>(text)
        .ok()
        .and_then(|rules| toml::to_string(&rules).ok())
        .unwrap_or_else(|| text.to_string());
    crate::files::fnv1a64(canonical.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_profile_is_the_first_source() {
        let p = Profile::default_profile();
        assert_eq!(p.name(), "heather-1875");
        assert_eq!((p.min_players(), p.max_players()), (3, 7));
        assert_eq!(p.pack(4).count(), 52);
        let ladder: Vec<(&str, u8, i64, i64)> = p
            .bids()
            .iter()
            .map(|b| (b.name(), b.tricks_needed(), b.made(), b.failed()))
            .collect();
        assert_eq!(
            ladder,
            [
                ("three", 3, 3, 3),
                ("four", 4, 4, 4),
                ("nap", 5, 5, 5),
                ("wellington", 5, 10, 10)
            ]
        );
        assert_eq!(
            p.bid_by_name("wellington").unwrap().only_over(),
            p.bid_id("nap")
        );
        assert_eq!(p.batches(), [3, 2]);
        assert_eq!(p.session_deals(), 8);
    }
}
