//! The validated rule profile the engine plays.

use std::collections::BTreeMap;

use super::raw::{BidRules, RuleSet};
use super::{Problem, RulesError};
use crate::cards::{CardSet, Rank};

/// The most seats the engine supports; arrays indexed by seat have this length.
pub const MAX_PLAYERS: usize = 7;
/// Cards in a hand, and tricks in a deal.
pub const HAND_SIZE: usize = 5;

/// The largest payout, ante, peek price or stake a profile may set: far beyond any real table,
/// and small enough that no settlement or tally can overflow.
pub const MAX_STAKE: i64 = 1_000_000;
const STAKE_LIMIT: &str = "must be at most 1000000";

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
    name: String,
    label: String,
    kind: BidKind,
    trump: TrumpRule,
    made: i64,
    failed: i64,
    only_over: Option<BidId>,
    takes_kitty: bool,
    failed_to_kitty: bool,
    lead: LeadRule,
    with_floater: bool,
}

/// A constraint on the declarer's opening lead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeadRule {
    /// Any card.
    Any,
    /// The lowest card of the suit led (Bonaparte: "must lead your lowest trump").
    LowestOfSuit,
    /// The lowest card outside the named trump suit; ties between suits go to the lower suit
    /// in the order clubs, diamonds, hearts, spades (Peep Nap's Wellington). A hand of trumps
    /// only may lead any card (the source does not say).
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
    /// The declarer's units from a contract of this bid at a table of `players`, counting the
    /// payouts only (no kitty, antes or spare hand): `made` from each opponent, or `failed` to
    /// each opponent (to the kitty for every player, where the bid says so).
    pub fn declarer_units(&self, made: bool, players: usize) -> i64 {
        let (each, into_kitty_each) = self.stakes(made);
        let players = players as i64;
        each * (players - 1) - into_kitty_each * players
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
    name: String,
    description: String,
    source: String,
    toml: String,
    min_players: usize,
    max_players: usize,
    lowest_rank: Rank,
    lowest_rank_by_players: BTreeMap<usize, Rank>,
    /// The pack by table size, precomputed from the two fields above.
    packs: [CardSet; MAX_PLAYERS + 1],
    shuffle: Shuffle,
    cut: bool,
    min_cut_packet: usize,
    batches: Vec<u8>,
    all_pass: AllPass,
    revoke: Revoke,
    session_deals: usize,
    first_dealer: FirstDealer,
    ties: Ties,
    bids: Vec<Bid>,
    spare_hand: Option<SpareHand>,
    /// Units each player pays into the kitty before each deal (None: no kitty).
    ante: Option<i64>,
    /// The price of a look at the floater (None: no floater).
    peek: Option<i64>,
    /// The stake to buy cards before the auction (None: no purchase).
    purchase_stake: Option<i64>,
    /// Indexed by the highest bid on the table (0: none, i + 1: bid i): whether any bid can
    /// still be called over it. Precomputed because the auction asks it at every seat.
    can_overcall: Vec<bool>,
}

impl Profile {
    /// Parses and validates TOML text; `origin` (a path or name) appears in error messages.
    pub fn from_toml(text: &str, origin: &str) -> Result<Profile, RulesError> {
        let raw: RuleSet = toml::from_str(text).map_err(|e| RulesError::Toml {
            origin: origin.to_string(),
            message: e.message().to_string() + &toml_location(text, e.span()),
        })?;
        Profile::from_raw(raw, text, origin)
    }

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

    /// Validates a parsed rule set, reporting every problem at once.
    pub fn from_raw(raw: RuleSet, text: &str, origin: &str) -> Result<Profile, RulesError> {
        let mut v = Validator::default();
        v.check(
            !raw.name.is_empty() && raw.name.bytes().all(is_name_byte),
            "name",
            "must be lower-case ASCII letters, digits and dashes",
        );
        let (min_players, max_players) = (raw.table.min_players as usize, raw.table.max_players);
        v.check(min_players >= 3, "table.min_players", "must be at least 3");
        v.check(
            (max_players as usize) <= MAX_PLAYERS,
            "table.max_players",
            &format!("must be at most {MAX_PLAYERS} (the engine seats at most {MAX_PLAYERS})"),
        );
        v.check(
            min_players <= max_players as usize,
            "table.max_players",
            "must not be below table.min_players",
        );
        let max_players = (max_players as usize).min(MAX_PLAYERS);

        let lowest_rank = v
            .rank(&raw.pack.lowest_rank, "pack.lowest_rank")
            .unwrap_or(Rank::Two);
        let mut lowest_rank_by_players = BTreeMap::new();
        for (players, rank) in &raw.pack.lowest_rank_by_players {
            let key = format!("pack.lowest_rank_by_players.{players}");
            let Ok(n) = players.parse::<usize>() else {
                v.problem(&key, "the key must be a number of players");
                continue;
            };
            if let Some(rank) = v.rank(rank, &key) {
                lowest_rank_by_players.insert(n, rank);
            }
        }

        let shuffle_kind = v.choice(
            &raw.deal.shuffle,
            "deal.shuffle",
            &[("every-deal", false), ("limited", true)],
        );
        let all_pass = v.choice(
            &raw.auction.all_pass,
            "auction.all_pass",
            &[("next-dealer", AllPass::NextDealer)],
        );
        let revoke = v.choice(
            &raw.play.revoke,
            "play.revoke",
            &[
                ("illegal", Revoke::Illegal),
                ("settle-at-once", Revoke::SettleAtOnce),
            ],
        );
        let first_dealer = v.choice(
            &raw.session.first_dealer,
            "session.first_dealer",
            &[("random", FirstDealer::Random)],
        );
        let ties = v.choice(&raw.session.ties, "session.ties", &[("share", Ties::Share)]);
        v.check(
            raw.session.deals >= 1,
            "session.deals",
            "must be at least 1",
        );
        v.check(
            !raw.deal.batches.is_empty()
                && raw
                    .deal
                    .batches
                    .iter()
                    .all(|&b| (1..=HAND_SIZE as u32).contains(&b))
                && raw.deal.batches.iter().map(|&b| b as usize).sum::<usize>() == HAND_SIZE,
            "deal.batches",
            &format!("must be rounds of at least one card adding up to {HAND_SIZE}, e.g. [3, 2]"),
        );
        v.check(
            raw.deal.min_cut_packet >= 1,
            "deal.min_cut_packet",
            "must be at least 1",
        );

        let misere_trump = v
            .choice(
                raw.play.misere_trump.as_deref().unwrap_or("none"),
                "play.misere_trump",
                &[
                    ("none", TrumpRule::NoTrump),
                    ("first-lead", TrumpRule::FirstLead),
                ],
            )
            .unwrap_or(TrumpRule::NoTrump);
        let bids = validate_bids(&raw.bids, misere_trump, &mut v);
        let shuffle = validate_shuffle(&raw.deal, shuffle_kind, &bids, &mut v);
        if let Some(kitty) = &raw.kitty {
            v.check(kitty.ante >= 0, "kitty.ante", "cannot be below zero");
            v.check(kitty.ante <= MAX_STAKE, "kitty.ante", STAKE_LIMIT);
        }
        if let Some(purchase) = &raw.purchase {
            v.check(
                purchase.stake >= 0,
                "purchase.stake",
                "cannot be below zero",
            );
            v.check(purchase.stake <= MAX_STAKE, "purchase.stake", STAKE_LIMIT);
        }
        if let Some(floater) = &raw.floater {
            v.check(floater.peek >= 0, "floater.peek", "cannot be below zero");
            v.check(floater.peek <= MAX_STAKE, "floater.peek", STAKE_LIMIT);
        }
        for (i, b) in raw.bids.iter().enumerate() {
            v.check(
                raw.floater.is_some() || !b.with_floater,
                &format!("bids[{i}].with_floater"),
                "the profile deals no floater (add a [floater] section)",
            );
        }
        let kitty = raw.kitty.is_some() || raw.purchase.is_some() || raw.floater.is_some();
        for (i, (bid, raw_bid)) in bids.iter().zip(&raw.bids).enumerate() {
            v.check(
                kitty || !(bid.takes_kitty || bid.failed_to_kitty),
                &format!(
                    "bids[{i}].{}",
                    if raw_bid.takes_kitty {
                        "takes_kitty"
                    } else {
                        "failed_to"
                    }
                ),
                "the profile has no kitty (add a [kitty] or [purchase] section)",
            );
        }
        let spare_hand = raw.spare_hand.as_ref().and_then(|spare| {
            v.check(
                (1..=10).contains(&spare.failed_multiplier),
                "spare_hand.failed_multiplier",
                "must be 1 to 10",
            );
            let bid = bids.iter().position(|b| b.name == spare.bid);
            if bid.is_none() {
                v.problem(
                    "spare_hand.bid",
                    &format!("'{}' is not a bid of this ladder", spare.bid),
                );
            }
            bid.map(|b| SpareHand {
                bid: BidId(b as u8),
                failed_multiplier: spare.failed_multiplier,
            })
        });

        let mut profile = Profile {
            name: raw.name.clone(),
            description: raw.description.clone(),
            source: raw.source.clone(),
            toml: text.to_string(),
            min_players,
            max_players,
            lowest_rank,
            lowest_rank_by_players,
            packs: [CardSet::EMPTY; MAX_PLAYERS + 1],
            shuffle,
            cut: raw.deal.cut,
            min_cut_packet: raw.deal.min_cut_packet as usize,
            batches: raw.deal.batches.iter().map(|&b| b.min(255) as u8).collect(),
            all_pass: all_pass.unwrap_or(AllPass::NextDealer),
            revoke: revoke.unwrap_or(Revoke::Illegal),
            session_deals: raw.session.deals as usize,
            first_dealer: first_dealer.unwrap_or(FirstDealer::Random),
            ties: ties.unwrap_or(Ties::Share),
            can_overcall: Vec::new(),
            bids,
            spare_hand,
            ante: raw.kitty.as_ref().map(|k| k.ante),
            peek: raw.floater.as_ref().map(|f| f.peek),
            purchase_stake: raw.purchase.as_ref().map(|p| p.stake),
        };
        profile.can_overcall = (0..=profile.bids.len())
            .map(|on_table| {
                let current = on_table.checked_sub(1);
                profile.bids.iter().enumerate().any(|(i, bid)| {
                    current.is_none_or(|c| i > c)
                        && bid
                            .only_over
                            .is_none_or(|r| current.is_some_and(|c| c >= r.index()))
                })
            })
            .collect();
        for players in 0..=MAX_PLAYERS {
            let lowest = profile
                .lowest_rank_by_players
                .get(&players)
                .copied()
                .unwrap_or(profile.lowest_rank);
            profile.packs[players] = CardSet::from_lowest_rank(lowest);
        }
        // Table sizes the pack cannot serve are profile errors, not run-time surprises.
        for players in profile.min_players..=profile.max_players {
            let pack = profile.pack(players).count() as usize;
            let key = if profile.lowest_rank_by_players.contains_key(&players) {
                format!("pack.lowest_rank_by_players.{players}")
            } else {
                "table.max_players".to_string()
            };
            let spare = if profile.spare_hand.is_some() {
                HAND_SIZE
            } else {
                0
            };
            let needed = players * HAND_SIZE + spare + usize::from(profile.peek.is_some());
            v.check(
                needed <= pack,
                &key,
                &format!("{players} players need {needed} cards but the pack has {pack}"),
            );
            if profile.cut {
                v.check(
                    2 * profile.min_cut_packet <= pack,
                    "deal.min_cut_packet",
                    &format!("a pack of {pack} cards cannot be cut into two such packets"),
                );
            }
        }
        for &n in profile.lowest_rank_by_players.keys() {
            v.check(
                (profile.min_players..=profile.max_players).contains(&n),
                &format!("pack.lowest_rank_by_players.{n}"),
                "names a table size outside table.min_players..table.max_players",
            );
        }
        if v.problems.is_empty() {
            profile.batches.shrink_to_fit();
            Ok(profile)
        } else {
            Err(RulesError::Invalid {
                origin: origin.to_string(),
                problems: v.problems,
            })
        }
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
}

fn validate_shuffle(
    deal: &super::raw::DealRules,
    limited: Option<bool>,
    bids: &[Bid],
    v: &mut Validator,
) -> Shuffle {
    let limited_only = "applies only with shuffle = \"limited\"";
    if limited != Some(true) {
        v.check(deal.gather.is_none(), "deal.gather", limited_only);
        v.check(
            deal.reshuffle_after_made.is_none(),
            "deal.reshuffle_after_made",
            limited_only,
        );
        v.check(
            deal.reshuffle_after_all_pass.is_none(),
            "deal.reshuffle_after_all_pass",
            limited_only,
        );
        return Shuffle::EveryDeal;
    }
    let gather = match deal.gather.as_deref() {
        Some(text) => v.choice(
            text,
            "deal.gather",
            &[
                ("tricks-then-stock", Gather::TricksThenStock),
                ("stock-then-tricks", Gather::StockThenTricks),
            ],
        ),
        None => {
            v.problem("deal.gather", "limited shuffling needs a gathering model: \"tricks-then-stock\" or \"stock-then-tricks\"");
            None
        }
    };
    let after_made = deal.reshuffle_after_made.as_ref().and_then(|name| {
        let found = bids.iter().position(|b| &b.name == name);
        if found.is_none() {
            v.problem(
                "deal.reshuffle_after_made",
                &format!("'{name}' is not a bid of this ladder"),
            );
        }
        found.map(|i| BidId(i as u8))
    });
    Shuffle::Limited {
        gather: gather.unwrap_or(Gather::TricksThenStock),
        after_made,
        after_all_pass: deal.reshuffle_after_all_pass.unwrap_or(false),
    }
}

fn validate_bids(raw: &[BidRules], misere_trump: TrumpRule, v: &mut Validator) -> Vec<Bid> {
    v.check(!raw.is_empty(), "bids", "the ladder needs at least one bid");
    v.check(raw.len() <= 64, "bids", "at most 64 bids");
    let mut bids: Vec<Bid> = Vec::new();
    for (i, b) in raw.iter().enumerate() {
        let key = |field: &str| format!("bids[{i}].{field}");
        v.check(
            !b.name.is_empty() && b.name.bytes().all(is_name_byte),
            &key("name"),
            "must be lower-case ASCII letters, digits and dashes",
        );
        v.check(
            !bids.iter().any(|other| other.name == b.name),
            &key("name"),
            &format!("'{}' is used by an earlier bid", b.name),
        );
        let kind = match (b.kind.as_str(), b.tricks) {
            ("tricks", Some(n)) if (1..=HAND_SIZE as u32).contains(&n) => BidKind::Tricks(n as u8),
            ("tricks", _) => {
                v.problem(&key("tricks"), "a tricks bid needs tricks = 1 to 5");
                BidKind::Tricks(1)
            }
            ("misere", None) => BidKind::Misere,
            ("misere", Some(_)) => {
                v.problem(
                    &key("tricks"),
                    "a misère bid takes no tricks; leave tricks out",
                );
                BidKind::Misere
            }
            (other, _) => {
                v.problem(
                    &key("kind"),
                    &format!("'{other}' is not a bid kind; use \"tricks\" or \"misere\""),
                );
                BidKind::Tricks(1)
            }
        };
        let default_trump = if kind == BidKind::Misere {
            if misere_trump == TrumpRule::NoTrump {
                "none"
            } else {
                "first-lead"
            }
        } else {
            "first-lead"
        };
        let trump = v
            .choice(
                b.trump.as_deref().unwrap_or(default_trump),
                &key("trump"),
                &[
                    ("first-lead", TrumpRule::FirstLead),
                    ("none", TrumpRule::NoTrump),
                    ("named", TrumpRule::Named),
                ],
            )
            .unwrap_or(TrumpRule::FirstLead);
        v.check(b.made >= 0, &key("made"), "a payout cannot be below zero");
        v.check(b.made <= MAX_STAKE, &key("made"), STAKE_LIMIT);
        v.check(b.failed <= MAX_STAKE, &key("failed"), STAKE_LIMIT);
        v.check(
            b.failed >= 0,
            &key("failed"),
            "a payout cannot be below zero",
        );
        let only_over = b.only_over.as_ref().and_then(|name| {
            let found = bids.iter().position(|earlier| &earlier.name == name);
            if found.is_none() {
                v.problem(
                    &key("only_over"),
                    &format!("'{name}' is not a lower bid of this ladder"),
                );
            }
            found.map(|i| BidId(i as u8))
        });
        let failed_to_kitty = v
            .choice(
                b.failed_to.as_deref().unwrap_or("opponents"),
                &key("failed_to"),
                &[("opponents", false), ("kitty", true)],
            )
            .unwrap_or(false);
        v.check(
            kind != BidKind::Misere || trump == misere_trump,
            &key("trump"),
            if misere_trump == TrumpRule::NoTrump {
                "a misère has no trump in this profile (play.misere_trump = \"none\")"
            } else {
                "a misère is played with a trump in this profile (play.misere_trump = \"first-lead\")"
            },
        );
        let lead = v
            .choice(
                b.lead.as_deref().unwrap_or("any"),
                &key("lead"),
                &[
                    ("any", LeadRule::Any),
                    ("lowest-of-suit", LeadRule::LowestOfSuit),
                    ("lowest-non-trump", LeadRule::LowestNonTrump),
                ],
            )
            .unwrap_or(LeadRule::Any);
        v.check(
            lead != LeadRule::LowestNonTrump || trump == TrumpRule::Named,
            &key("lead"),
            "\"lowest-non-trump\" needs trump = \"named\"",
        );
        bids.push(Bid {
            name: b.name.clone(),
            lead,
            with_floater: b.with_floater,
            label: b.label.clone(),
            kind,
            trump,
            made: b.made,
            failed: b.failed,
            takes_kitty: b.takes_kitty,
            failed_to_kitty,
            only_over,
        });
    }
    bids
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'
}

/// Turns a byte span of the TOML text into " (line N)".
fn toml_location(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    match span {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!(" (line {line})")
        }
        None => String::new(),
    }
}

/// Collects problems so that validation reports all of them at once.
#[derive(Default)]
struct Validator {
    problems: Vec<Problem>,
}

impl Validator {
    fn problem(&mut self, key: &str, message: &str) {
        self.problems.push(Problem {
            key: key.to_string(),
            message: message.to_string(),
        });
    }

    fn check(&mut self, ok: bool, key: &str, message: &str) {
        if !ok {
            self.problem(key, message);
        }
    }

    fn rank(&mut self, text: &str, key: &str) -> Option<Rank> {
        let rank = Rank::parse(text);
        if rank.is_none() {
            self.problem(
                key,
                &format!("'{text}' is not a rank (2-9, T or 10, J, Q, K, A)"),
            );
        }
        rank
    }

    fn choice<T: Copy>(&mut self, text: &str, key: &str, options: &[(&str, T)]) -> Option<T> {
        let found = options
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, v)| *v);
        if found.is_none() {
            let accepted: Vec<String> = options.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            self.problem(
                key,
                &format!("'{text}' is not accepted; use {}", accepted.join(" or ")),
            );
        }
        found
    }
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

    #[test]
    fn every_problem_is_reported_with_its_key() {
        let text = Profile::default_profile()
            .toml()
            .replace("max_players = 7", "max_players = 11")
            .replace("made = 4", "made = -4")
            .replace("only_over = \"nap\"", "only_over = \"blucher\"")
            .replace("batches = [3, 2]", "batches = [3, 3]");
        let err = Profile::from_toml(&text, "test").unwrap_err();
        let RulesError::Invalid { problems, .. } = err else {
            panic!("{err}")
        };
        let keys: Vec<&str> = problems.iter().map(|p| p.key.as_str()).collect();
        for key in [
            "table.max_players",
            "deal.batches",
            "bids[1].made",
            "bids[3].only_over",
        ] {
            assert!(keys.contains(&key), "{key} missing from {keys:?}");
        }
    }

    #[test]
    fn unknown_keys_are_rejected_by_name() {
        let text = Profile::default_profile()
            .toml()
            .replace("[table]", "[table]\ncolour = 1");
        let err = Profile::from_toml(&text, "t").unwrap_err().to_string();
        assert!(err.contains("colour"), "{err}");
    }

    #[test]
    fn pack_too_small_for_the_table() {
        let text = Profile::default_profile()
            .toml()
            .replace("lowest_rank = \"2\"", "lowest_rank = \"8\"");
        let err = Profile::from_toml(&text, "t").unwrap_err().to_string();
        assert!(
            err.contains("table.max_players: 6 players need 30 cards but the pack has 28"),
            "{err}"
        );
    }
}
