//! The output of `napsim hand`: a table for people, JSON, or CSV (one row per bid).

use serde::Serialize;

use crate::cards::CardSet;
use crate::eval::hand::{BidSummary, HandSummary, StopReason, StopRule};
use crate::rules::Profile;

/// Everything `napsim hand` reports: the question and the answer.
pub struct HandReport<'a> {
    /// The rules.
    pub profile: &'a Profile,
    /// The hand.
    pub hand: CardSet,
    /// Table size.
    pub players: usize,
    /// The hand's position in the auction.
    pub seat: usize,
    /// The play policy spec.
    pub play: &'a str,
    /// The earlier calls the worlds were conditioned on (names), and the policy assumed.
    pub after: &'a [String],
    /// The bid policy assumed for the earlier seats.
    pub others_bid: &'a str,
    /// The seed.
    pub seed: u64,
    /// The result.
    pub summary: &'a HandSummary,
    /// A run that stopped early: its rule, and why it stopped where it did.
    pub stopping: Option<(StopRule, StopReason)>,
}

/// How an adaptive run stopped, in the JSON.
#[derive(Serialize)]
struct StoppingJson {
    precision: f64,
    max_worlds: u64,
    reason: &'static str,
}

/// One bid in the JSON.
#[derive(Serialize)]
struct BidJson<'a> {
    bid: &'a str,
    tricks_needed: u8,
    callable: bool,
    p_make: f64,
    ci95: [f64; 2],
    ev: f64,
    ev_se: f64,
    breakeven: f64,
    dd_p_make: Option<f64>,
    /// The worlds after which an adaptive run dropped it (absent: played in every world).
    #[serde(skip_serializing_if = "Option::is_none")]
    dropped_after: Option<u64>,
}

/// The JSON document.
#[derive(Serialize)]
struct HandJson<'a> {
    hand: String,
    players: usize,
    seat: usize,
    profile: &'a str,
    play: &'a str,
    after: &'a [String],
    others_bid: &'a str,
    worlds: u64,
    worlds_drawn: u64,
    seed: u64,
    tricks: [f64; 6],
    bids: Vec<BidJson<'a>>,
    recommended: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopping: Option<StoppingJson>,
}

/// One CSV row: one bid, with the question and the trick distribution (`tricks_N`: P of N
/// tricks) repeated so that rows stand alone. `worlds` is the bid's own: fewer than the run's
/// for a bid an adaptive run dropped.
#[derive(Serialize)]
struct HandRow<'a> {
    hand: String,
    players: usize,
    seat: usize,
    profile: &'a str,
    play: &'a str,
    after: String,
    others_bid: &'a str,
    worlds: u64,
    worlds_drawn: u64,
    seed: u64,
    tricks_0: f64,
    tricks_1: f64,
    tricks_2: f64,
    tricks_3: f64,
    tricks_4: f64,
    tricks_5: f64,
    bid: &'a str,
    tricks_needed: u8,
    callable: bool,
    p_make: f64,
    ci95_low: f64,
    ci95_high: f64,
    ev: f64,
    ev_se: f64,
    breakeven: f64,
    dd_p_make: Option<f64>,
    recommended: &'a str,
}

impl HandReport<'_> {
    fn bid_name(&self, bid: &BidSummary) -> &str {
        self.profile.bid(bid.id).name()
    }

    fn recommended(&self) -> &str {
        self.summary
            .recommended
            .map_or("pass", |id| self.profile.bid(id).name())
    }

    /// The JSON document (one line, no newline).
    pub fn json(&self) -> String {
        let doc = HandJson {
            hand: self.hand.to_string(),
            players: self.players,
            seat: self.seat,
            profile: self.profile.name(),
            play: self.play,
            after: self.after,
            others_bid: self.others_bid,
            worlds: self.summary.worlds,
            worlds_drawn: self.summary.worlds_drawn,
            seed: self.seed,
            tricks: self.summary.tricks,
            bids: self
                .summary
                .bids
                .iter()
                .map(|b| BidJson {
                    bid: self.bid_name(b),
                    tricks_needed: b.tricks_needed,
                    callable: b.callable,
                    p_make: b.p_make,
                    ci95: [b.ci95.0, b.ci95.1],
                    ev: b.ev,
                    ev_se: b.ev_se,
                    breakeven: b.breakeven,
                    dd_p_make: b.dd_p_make,
                    dropped_after: b.dropped.then_some(b.worlds),
                })
                .collect(),
            recommended: self.recommended(),
            stopping: self.stopping.map(|(rule, reason)| StoppingJson {
                precision: rule.points,
                max_worlds: rule.max_worlds,
                reason: reason.name(),
            }),
        };
        serde_json::to_string(&doc).expect("plain data serialises")
    }

    /// The CSV: a header and one row per bid.
    pub fn csv(&self) -> Result<Vec<u8>, csv::Error> {
        let rows: Vec<HandRow> = self
            .summary
            .bids
            .iter()
            .map(|b| HandRow {
                hand: self.hand.to_string(),
                players: self.players,
                seat: self.seat,
                profile: self.profile.name(),
                play: self.play,
                after: self.after.join(","),
                others_bid: self.others_bid,
                worlds: b.worlds,
                worlds_drawn: self.summary.worlds_drawn,
                seed: self.seed,
                tricks_0: self.summary.tricks[0],
                tricks_1: self.summary.tricks[1],
                tricks_2: self.summary.tricks[2],
                tricks_3: self.summary.tricks[3],
                tricks_4: self.summary.tricks[4],
                tricks_5: self.summary.tricks[5],
                bid: self.bid_name(b),
                tricks_needed: b.tricks_needed,
                callable: b.callable,
                p_make: b.p_make,
                ci95_low: b.ci95.0,
                ci95_high: b.ci95.1,
                ev: b.ev,
                ev_se: b.ev_se,
                breakeven: b.breakeven,
                dd_p_make: b.dd_p_make,
                recommended: self.recommended(),
            })
            .collect();
        super::csv_bytes(&rows)
    }

    /// The table for people.
    pub fn text(&self) -> String {
        let s = self.summary;
        let pct = |p: f64| format!("{:.1}%", 100.0 * p);
        let mut text = format!(
            "hand {} ({:?}), seat {} of {} ({}), {} worlds{}\n",
            self.hand,
            self.hand,
            self.seat,
            self.players,
            self.profile.name(),
            s.worlds,
            if s.worlds_drawn > s.worlds {
                format!(
                    " kept of {} drawn (after {}, others bid {})",
                    s.worlds_drawn,
                    self.after.join(","),
                    self.others_bid
                )
            } else {
                String::new()
            },
        );
        text += &format!("play: {}; seed {}\n\n", self.play, self.seed);
        let dd = s.bids.iter().any(|b| b.dd_p_make.is_some());
        let width = s
            .bids
            .iter()
            .map(|b| self.profile.bid(b.id).label().chars().count())
            .max()
            .unwrap_or(0)
            .max(10);
        text += &format!(
            "{:<width$} {:>6} {:>8} {:>17} {:>8} {:>6} {:>10}{}\n",
            "bid",
            "tricks",
            "P(make)",
            "95% interval",
            "EV",
            "±se",
            "break-even",
            if dd { "  DD P(make)" } else { "" }
        );
        for b in &s.bids {
            let bid = self.profile.bid(b.id);
            let mark = match (s.recommended == Some(b.id), b.callable, b.dropped) {
                (true, _, _) => "  <- best".to_string(),
                (false, true, false) => String::new(),
                (false, false, false) => "  (not callable here)".to_string(),
                (false, true, true) => format!("  (dropped after {} worlds)", b.worlds),
                (false, false, true) => {
                    format!("  (not callable here; dropped after {} worlds)", b.worlds)
                }
            };
            let needed = if bid.is_misere() {
                "none".to_string()
            } else {
                b.tricks_needed.to_string()
            };
            text += &format!(
                "{:<width$} {:>6} {:>8} {:>17} {:>+8.3} {:>6.3} {:>10}{}{mark}\n",
                bid.label(),
                needed,
                pct(b.p_make),
                format!("{} to {}", pct(b.ci95.0), pct(b.ci95.1)),
                b.ev,
                b.ev_se,
                pct(b.breakeven),
                b.dd_p_make
                    .map_or(String::new(), |p| format!("  {:>11}", pct(p))),
            );
        }
        text += "\ndeclarer's tricks in its best trump contract:";
        for (n, p) in s.tricks.iter().enumerate() {
            text += &format!("  {n}: {}", pct(*p));
        }
        // A dropped bid keeps the expected units of its own worlds, which may be positive.
        let pass = if s.bids.iter().any(|b| b.dropped && b.ev > 0.0) {
            "pass (no bid played to the end has a positive EV)"
        } else {
            "pass (no bid has a positive EV)"
        };
        text += &format!(
            "\n\nrecommended: {}\n",
            s.recommended.map_or(pass.to_string(), |id| {
                self.profile.bid(id).label().to_string()
            })
        );
        if let Some((rule, reason)) = self.stopping {
            text += &self.stopped(rule, reason);
        }
        if s.any_dropped() {
            text += "a bid dropped after N worlds trailed the best call there by more than the \
                     settling lead (world by world; below zero by as much when passing was \
                     best): the rest of the run did not play it\n";
        }
        text
    }

    /// The line that says where and why an adaptive run stopped.
    fn stopped(&self, rule: StopRule, reason: StopReason) -> String {
        let worlds = self.summary.worlds;
        let points = rule.points;
        match reason {
            StopReason::Precise => format!(
                "stopped after {worlds} of at most {} worlds: every P(make){} known within \
                 ±{points} points (95%)\n",
                rule.max_worlds,
                if self.summary.any_dropped() {
                    " of the bids played to the end"
                } else {
                    ""
                }
            ),
            StopReason::Settled => format!(
                "stopped after {worlds} of at most {} worlds: the recommendation is settled (it \
                 leads every other call{} by over {} standard errors on the same worlds)\n",
                rule.max_worlds,
                if self.summary.any_dropped() {
                    " still played"
                } else {
                    ""
                },
                rule.z_settled(worlds)
            ),
            StopReason::MaxWorlds => format!(
                "stopped at the most worlds allowed, {worlds}: neither every P(make) within \
                 ±{points} points nor the recommendation settled\n"
            ),
        }
    }
}
