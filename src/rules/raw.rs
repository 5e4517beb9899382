//! The rule profile exactly as written in TOML, before validation.
//!
//! Every struct denies unknown fields, so a misspelt key is an error that names it. The engine
//! never sees these types: [`crate::rules::Profile::from_raw`] validates them first.

use serde::{Deserialize, Serialize};

/// A rule profile file (`configs/rules/NAME.toml`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSet {
    /// Short name, lower case with dashes (`heather-1875`); recorded in every output.
    pub name: String,
    /// One line for `napsim rules list`.
    pub description: String,
    /// The source the profile follows.
    pub source: String,
    /// Who may sit at the table.
    pub table: TableRules,
    /// Which cards are in the pack.
    pub pack: PackRules,
    /// Shuffling, cutting and dealing.
    pub deal: DealRules,
    /// The auction.
    pub auction: AuctionRules,
    /// The play of the cards.
    pub play: PlayRules,
    /// Sessions of several deals.
    pub session: SessionRules,
    /// The bid ladder, lowest first.
    pub bids: Vec<BidRules>,
    /// A spare hand dealt face down that a player may take instead of calling (Sir Garnet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spare_hand: Option<SpareHandRules>,
    /// A kitty (pool) that carries from deal to deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kitty: Option<KittyRules>,
    /// Purchase Nap: buying fresh cards from the stock before the auction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase: Option<PurchaseRules>,
    /// Peep Nap: an extra card dealt face down that players may pay to look at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floater: Option<FloaterRules>,
}

/// `[floater]`: one extra card dealt face down after the hands. Before its own call each player
/// may pay `peek` into the kitty to look at it; bids marked `with_floater` take it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FloaterRules {
    /// Units a player pays into the kitty to look at the floater.
    pub peek: i64,
}

/// `[kitty]`: a pool that carries from deal to deal (bids with `takes_kitty` collect it).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct KittyRules {
    /// Units every player pays into the kitty before each deal.
    pub ante: i64,
}

/// `[purchase]`: before the auction each player in turn, from the dealer's left, may pay `stake`
/// into the kitty and exchange any number of cards for as many from the top of the stock.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PurchaseRules {
    /// Units a buying player pays into the kitty.
    pub stake: i64,
}

/// `[spare_hand]`: an extra hand of five cards dealt face down. In turn, instead of calling, a
/// player may take it, keep any five of the ten cards and must then play `bid`, which nobody
/// may overcall.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SpareHandRules {
    /// The bid a player commits to by taking the spare hand.
    pub bid: String,
    /// The failed payout of that bid is multiplied by this when it was taken with the spare hand
    /// (1: the ordinary stakes; 2: the doubled penalty some books give).
    pub failed_multiplier: i64,
}

/// `[table]`: table sizes.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TableRules {
    /// Fewest players.
    pub min_players: u32,
    /// Most players.
    pub max_players: u32,
}

/// `[pack]`: the cards in play.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PackRules {
    /// The lowest rank in the pack (`"2"` is the full 52-card pack, `"7"` a 32-card pack).
    pub lowest_rank: String,
    /// Per table size, a different lowest rank (`{ 3 = "9", 4 = "8" }`): reduced packs.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub lowest_rank_by_players: std::collections::BTreeMap<String, String>,
}

/// `[deal]`: how a deal is made.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DealRules {
    /// When the pack is shuffled: `"every-deal"`, or `"limited"` (gathered and cut between
    /// deals, shuffled only at the start and when `reshuffle_after_made` or
    /// `reshuffle_after_all_pass` says so).
    pub shuffle: String,
    /// With limited shuffling, how the cards are gathered: `"tricks-then-stock"` or
    /// `"stock-then-tricks"` (see `crate::rules::Gather`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gather: Option<String>,
    /// With limited shuffling, the lowest bid whose made contract makes the next dealer shuffle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reshuffle_after_made: Option<String>,
    /// With limited shuffling, whether the next dealer shuffles after an all-pass deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reshuffle_after_all_pass: Option<bool>,
    /// Whether the pack is cut before dealing.
    pub cut: bool,
    /// The fewest cards each packet of the cut must hold.
    pub min_cut_packet: u32,
    /// The rounds of the deal: `[3, 2]` gives three cards to each, then two.
    pub batches: Vec<u32>,
}

/// `[auction]`: the single round of bidding.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AuctionRules {
    /// What happens when every seat passes: `"next-dealer"` (score zero, the deal passes left).
    pub all_pass: String,
}

/// `[play]`: the play of the cards.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRules {
    /// What a revoke (failing to follow suit when able) does in a replayed game: `"illegal"`
    /// (refused) or `"settle-at-once"` (play stops; a revoking declarer pays as if lost, a
    /// revoking defender pays the declarer everything it would have collected).
    pub revoke: String,
    /// How misère bids are played: `"none"` (no trump, the default) or `"first-lead"` (the
    /// suit of the first card is trump). A misère bid's own `trump` must agree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub misere_trump: Option<String>,
}

/// `[session]`: a match of several deals.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SessionRules {
    /// Deals in a session, passed-out deals included: 1 to [`MAX_SESSION_DEALS`].
    ///
    /// [`MAX_SESSION_DEALS`]: super::MAX_SESSION_DEALS
    pub deals: u32,
    /// How the first dealer is chosen: `"random"`.
    pub first_dealer: String,
    /// How tied highest balances are treated: `"share"` (the win is split between them).
    pub ties: String,
}

/// `[[bids]]`: one rung of the bid ladder.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BidRules {
    /// Lower-case ASCII name used in specs and outputs (`three`, `nap`, `misere`).
    pub name: String,
    /// The name shown to people (`Three`, `Misère`).
    pub label: String,
    /// `"tricks"` (take at least `tricks`) or `"misere"` (take none).
    #[serde(default = "default_kind")]
    pub kind: String,
    /// Tricks the declarer must take (a `tricks` bid); omitted for misère.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tricks: Option<u32>,
    /// How trump is chosen: `"first-lead"` (the suit of the declarer's first card, the default
    /// for tricks bids) or `"none"` (the default for misère).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trump: Option<String>,
    /// Units each opponent pays the declarer when the bid is made.
    pub made: i64,
    /// Units the declarer pays each opponent when the bid fails.
    pub failed: i64,
    /// The bid that must already have been called in this auction before this one may be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_over: Option<String>,
    /// `"any"` (the default), `"lowest-of-suit"` (Bonaparte: the opening lead must be the lowest
    /// card of its suit, so the declarer's lowest trump) or `"lowest-non-trump"` (with a named
    /// trump: the opening lead must be the declarer's lowest non-trump card).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<String>,
    /// Peep Nap: whether the bid is made "with the floater" (the declarer takes the floater and
    /// discards one card before the play).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub with_floater: bool,
    /// Whether a made contract of this bid also collects the kitty (profiles with a kitty).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub takes_kitty: bool,
    /// Where a failed contract pays: `"opponents"` (`failed` to each, the default) or `"kitty"`
    /// (`failed` times the number of players, into the kitty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_to: Option<String>,
}

fn default_kind() -> String {
    "tricks".to_string()
}
