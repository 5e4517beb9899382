//! Validation: a rule file's TOML, parsed into the raw [`RuleSet`], becomes a [`Profile`]
//! only when every rule holds. Every problem is reported at once, each naming its TOML key
//! (`bids[3].only_over: 'blucher' is not a lower bid of this ladder`).

use std::collections::BTreeMap;

use super::profile::{
    AllPass, Bid, BidId, BidKind, FirstDealer, Gather, HAND_SIZE, LeadRule, MAX_BIDS, MAX_PLAYERS,
    MAX_SESSION_DEALS, MAX_STAKE, Profile, Revoke, Shuffle, SpareHand, Ties, TrumpRule,
    rules_digest,
};
use super::raw::{BidRules, RuleSet};
use super::{Problem, RulesError};
use crate::cards::{CardSet, Rank};

const STAKE_LIMIT: &str = "must be at most 1000000";

impl Profile {
    /// Parses and validates TOML text; `origin` (a path or name) appears in error messages.
    pub fn from_toml(text: &str, origin: &str) -> Result<Profile, RulesError> {
        let raw: RuleSet = toml::from_str(text).map_err(|e| RulesError::Toml {
            origin: origin.to_string(),
            message: e.message().to_string() + &toml_location(text, e.span()),
        })?;
        Profile::from_raw(raw, text, origin)
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
            (1..=MAX_SESSION_DEALS).contains(&raw.session.deals),
            "session.deals",
            &format!("must be from 1 to {MAX_SESSION_DEALS}"),
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
            digest: rules_digest(text),
            builtin_rules: super::BUILTIN.iter().any(|(name, builtin)| {
                *name == raw.name && rules_digest(builtin) == rules_digest(text)
            }),
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
        profile.precompute();
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
    v.check(
        raw.len() <= MAX_BIDS,
        "bids",
        &format!("at most {MAX_BIDS} bids"),
    );
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
        v.check(
            !RESERVED_CALL_NAMES.contains(&b.name.as_str()),
            &key("name"),
            &format!(
                "'{}' is the name of a call that is not a bid (reserved: {})",
                b.name,
                RESERVED_CALL_NAMES.join(", ")
            ),
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

/// The names of the calls that are not bids (passing, taking Sir Garnet's spare hand): a bid
/// of that name could not be told apart from them in records and requests.
pub(crate) const RESERVED_CALL_NAMES: [&str; 2] = ["pass", "take-spare"];

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
    fn sessions_longer_than_napsim_values_are_refused() {
        let with_deals = |deals: u32| {
            let text = Profile::default_profile()
                .toml()
                .replace("deals = 8", &format!("deals = {deals}"));
            Profile::from_toml(&text, "t")
        };
        assert_eq!(
            with_deals(MAX_SESSION_DEALS).unwrap().session_deals(),
            1_000
        );
        let err = with_deals(MAX_SESSION_DEALS + 1).unwrap_err().to_string();
        assert!(
            err.contains("session.deals: must be from 1 to 1000"),
            "{err}"
        );
        assert!(with_deals(0).is_err());
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
