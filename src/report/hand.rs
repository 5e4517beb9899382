//! The output of `napsim hand`: a table for people, JSON, or CSV (one row per bid).

use serde::Serialize;

use crate::cards::CardSet;
use crate::eval::hand::{BidSummary, CallSummary, HandSummary, StopReason, StopRule};
use crate::rules::Profile;

/// The default strong play of `napsim hand`, as its text names it.
pub const DEFAULT_PLAY_IN_WORDS: &str = "the default strong play (PIMC over 16 worlds a card, the opening lead over 256, expert defence of a misère)";

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
    /// The session the deal is part of (`--session`, as given), if any.
    pub session: Option<&'a str>,
    /// Whether the recommendation follows the chance of winning the session (`--objective
    /// wins`) rather than the units.
    pub by_wins: bool,
    /// The text names the play policy by its spec even when it is the default strong play.
    pub verbose: bool,
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

/// One call in the JSON: its value in the whole auction.
#[derive(Serialize)]
struct CallJson<'a> {
    call: &'a str,
    auction_ev: f64,
    auction_ev_se: f64,
    diff_best: f64,
    diff_best_se: f64,
    p_contract: f64,
    /// The worlds after which an adaptive run dropped it (absent: valued in every world).
    #[serde(skip_serializing_if = "Option::is_none")]
    dropped_after: Option<u64>,
    /// With a session: the chance of winning it after the call, and its standard error.
    #[serde(skip_serializing_if = "Option::is_none")]
    win_chance: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    win_chance_se: Option<f64>,
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
    /// Every call valued in the whole auction (absent with `--as-declarer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    calls: Option<Vec<CallJson<'a>>>,
    recommended: &'a str,
    /// With a session: it as given, and what the recommendation follows.
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    objective: Option<&'a str>,
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
    tricks_needed: Option<u8>,
    callable: Option<bool>,
    p_make: Option<f64>,
    ci95_low: Option<f64>,
    ci95_high: Option<f64>,
    ev: Option<f64>,
    ev_se: Option<f64>,
    breakeven: Option<f64>,
    dd_p_make: Option<f64>,
    recommended: &'a str,
}

/// The auction columns of a CSV row (the auction view only): the call's value in the whole
/// auction, empty for a bid the hand may not call.
#[derive(Serialize)]
struct CallColumns {
    auction_ev: Option<f64>,
    auction_ev_se: Option<f64>,
    diff_best: Option<f64>,
    diff_best_se: Option<f64>,
    p_contract: Option<f64>,
}

/// The session columns of a CSV row (with `--session` only): the call's chance of winning
/// the session.
#[derive(Serialize)]
struct WinColumns {
    win_chance: Option<f64>,
    win_chance_se: Option<f64>,
}

impl CallColumns {
    fn of(call: Option<&CallSummary>) -> CallColumns {
        CallColumns {
            auction_ev: call.map(|c| c.auction_ev),
            auction_ev_se: call.map(|c| c.auction_ev_se),
            diff_best: call.map(|c| c.diff_best),
            diff_best_se: call.map(|c| c.diff_best_se),
            p_contract: call.map(|c| c.p_contract),
        }
    }
}

impl HandReport<'_> {
    fn bid_name(&self, bid: &BidSummary) -> &str {
        self.profile.bid(bid.id).name()
    }

    /// The call of `bid` among the calls valued in the whole auction.
    fn call_of(&self, bid: &BidSummary) -> Option<&CallSummary> {
        let call = crate::game::Call::Bid(bid.id);
        self.summary.calls.iter().find(|c| c.call == call)
    }

    /// The label of a call, for people: `Pass` or the bid's label.
    fn call_label(&self, call: crate::game::Call) -> &str {
        match call {
            crate::game::Call::Bid(id) => self.profile.bid(id).label(),
            _ => "Pass",
        }
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
            calls: (!self.summary.calls.is_empty()).then(|| {
                self.summary
                    .calls
                    .iter()
                    .map(|c| CallJson {
                        call: c.call.name(self.profile),
                        auction_ev: c.auction_ev,
                        auction_ev_se: c.auction_ev_se,
                        diff_best: c.diff_best,
                        diff_best_se: c.diff_best_se,
                        p_contract: c.p_contract,
                        dropped_after: c.dropped.then_some(c.worlds),
                        win_chance: c.win_chance.map(|w| w.0),
                        win_chance_se: c.win_chance.map(|w| w.1),
                    })
                    .collect()
            }),
            recommended: self.recommended(),
            session: self.session,
            objective: self
                .session
                .map(|_| if self.by_wins { "wins" } else { "units" }),
            stopping: self.stopping.map(|(rule, reason)| StoppingJson {
                precision: rule.points,
                max_worlds: rule.max_worlds,
                reason: reason.name(),
            }),
        };
        serde_json::to_string(&doc).expect("plain data serialises")
    }

    /// The CSV: a header and one row per bid; in the auction view each row also holds the
    /// bid's call valued in the whole auction, after a first row for passing (whose bid
    /// columns are empty but for `bid`, `pass`).
    pub fn csv(&self) -> Result<Vec<u8>, csv::Error> {
        let rows: Vec<HandRow> = self.summary.bids.iter().map(|b| self.row(b)).collect();
        if self.summary.calls.is_empty() {
            return super::csv_bytes(&rows);
        }
        let pass = self
            .summary
            .calls
            .iter()
            .find(|c| c.call == crate::game::Call::Pass);
        let pass_row = HandRow {
            worlds: pass.map_or(0, |c| c.worlds),
            bid: "pass",
            tricks_needed: None,
            callable: None,
            p_make: None,
            ci95_low: None,
            ci95_high: None,
            ev: None,
            ev_se: None,
            breakeven: None,
            dd_p_make: None,
            ..self.row(&self.summary.bids[0])
        };
        let mut with_calls = vec![(pass_row, CallColumns::of(pass))];
        for (row, bid) in rows.into_iter().zip(&self.summary.bids) {
            with_calls.push((row, CallColumns::of(self.call_of(bid))));
        }
        if self.session.is_none() {
            return super::csv_bytes(&with_calls);
        }
        // With a session, each call's chance of winning it too.
        let calls = std::iter::once(pass).chain(self.summary.bids.iter().map(|b| self.call_of(b)));
        let with_wins: Vec<_> = with_calls
            .into_iter()
            .zip(calls)
            .map(|((row, columns), call)| {
                let win = call.and_then(|c| c.win_chance);
                let wins = WinColumns {
                    win_chance: win.map(|w| w.0),
                    win_chance_se: win.map(|w| w.1),
                };
                (row, columns, wins)
            })
            .collect();
        super::csv_bytes(&with_wins)
    }

    /// The CSV row of one bid.
    fn row(&self, b: &BidSummary) -> HandRow<'_> {
        HandRow {
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
            tricks_needed: Some(b.tricks_needed),
            callable: Some(b.callable),
            p_make: Some(b.p_make),
            ci95_low: Some(b.ci95.0),
            ci95_high: Some(b.ci95.1),
            ev: Some(b.ev),
            ev_se: Some(b.ev_se),
            breakeven: Some(b.breakeven),
            dd_p_make: b.dd_p_make,
            recommended: self.recommended(),
        }
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
        // The default's spec is jargon to a card player: in words unless asked for.
        let play = if self.play == crate::eval::hand::DEFAULT_PLAY && !self.verbose {
            DEFAULT_PLAY_IN_WORDS
        } else {
            self.play
        };
        text += &format!("play: {play}; seed {}\n", self.seed);
        if let Some(session) = self.session {
            text += &format!(
                "session: {session} (this deal of the session, then each seat's balance from the \
                 eldest); P(win): the chance of winning the session, the deals to come valued by \
                 the session equity of a table bidding {} and playing expert, {} deals measured\n",
                self.others_bid,
                crate::eval::equity::MEASURED_DEALS
            );
        }
        text += "\n";
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
        let auction = !s.calls.is_empty();
        // In the auction view the bid table marks the declarer view's choice.
        let (marked, best) = match auction {
            true => (s.declarer_recommended, "  <- best as declarer"),
            false => (s.recommended, "  <- best"),
        };
        for b in &s.bids {
            let bid = self.profile.bid(b.id);
            let mark = match (marked == Some(b.id), b.callable, b.dropped) {
                (true, _, _) => best.to_string(),
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
        text += "\n";
        if auction {
            text += &self.calls_text(width);
        }
        // A dropped bid keeps the expected units of its own worlds, which may be positive.
        let pass = if s.bids.iter().any(|b| b.dropped && b.ev > 0.0) {
            "pass (no bid played to the end has a positive EV)"
        } else {
            "pass (no bid has a positive EV)"
        };
        let declarer_choice = s.declarer_recommended.map_or(pass.to_string(), |id| {
            self.profile.bid(id).label().to_string()
        });
        if auction {
            let call = s
                .recommended
                .map_or(crate::game::Call::Pass, crate::game::Call::Bid);
            let why = if self.by_wins {
                "the call with the best chance of winning the session"
            } else {
                "the call worth the most in the whole auction"
            };
            text += &format!(
                "\nrecommended: {} ({why})\nas declarer \
                 alone (no later call, passing worth 0): {declarer_choice}\n",
                self.call_label(call)
            );
        } else {
            text += &format!("\nrecommended: {declarer_choice}\n");
        }
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

    /// The table of the calls valued in the whole auction.
    fn calls_text(&self, width: usize) -> String {
        let s = self.summary;
        let mut text = format!(
            "\nin the whole auction (the later seats bid {}{}; every call on the same worlds):\n",
            self.others_bid,
            if self.after.is_empty() && self.seat > 0 {
                ", and so did the earlier seats: a bid they outbid counts as a pass"
            } else {
                ""
            }
        );
        let wins = s.calls.iter().any(|c| c.win_chance.is_some());
        text += &format!(
            "{:<width$} {:>8} {:>6} {:>8} {:>6} {:>9}{}\n",
            "call",
            "EV",
            "±se",
            "vs best",
            "±se",
            "contract",
            if wins { "     P(win)   ±se" } else { "" }
        );
        let best = s
            .recommended
            .map_or(crate::game::Call::Pass, crate::game::Call::Bid);
        for c in &s.calls {
            // "vs best" is against the call worth the most units (its difference is 0); by
            // the chance of winning, the recommended call may be another, and is marked so.
            let top_units = c.is_best;
            let mark = if c.call == best && self.by_wins {
                match top_units {
                    true => "  <- best (units and P(win))".to_string(),
                    false => "  <- best P(win)".to_string(),
                }
            } else if c.call == best {
                "  <- best".to_string()
            } else if top_units && self.by_wins {
                "  <- best units".to_string()
            } else if c.dropped {
                format!("  (dropped after {} worlds)", c.worlds)
            } else {
                String::new()
            };
            let win = match c.win_chance {
                Some((p, se)) => {
                    format!(" {:>10} {:>5.1}", format!("{:.1}%", 100.0 * p), 100.0 * se)
                }
                None => String::new(),
            };
            text += &format!(
                "{:<width$} {:>+8.3} {:>6.3} {:>+8.3} {:>6.3} {:>9}{win}{mark}\n",
                self.call_label(c.call),
                c.auction_ev,
                c.auction_ev_se,
                c.diff_best,
                c.diff_best_se,
                format!("{:.1}%", 100.0 * c.p_contract),
            );
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
