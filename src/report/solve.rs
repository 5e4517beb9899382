//! The output of `napsim solve`: a deal's opening leads, or the random-deal distribution.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::analysis::solve::{LeadValues, PlayValues, RandomSolves};
use crate::cards::{Card, CardSet};
use crate::solver::{Opening, TrumpChoice};

/// The table of a deal's opening leads for a person.
pub fn solve_text(hands: &[CardSet], opening: &Opening, values: &LeadValues) -> String {
    let mut text = String::new();
    for (seat, hand) in hands.iter().enumerate() {
        let role = if seat == 0 {
            "declarer, leads"
        } else {
            "defender"
        };
        text += &format!("seat {seat} ({role}): {hand}\n");
    }
    let contract = match (opening.misere, opening.trump) {
        (true, _) => "misère: the declarer wants no trick; the value is the fewest tricks it \
                      can be held to"
            .to_string(),
        (false, TrumpChoice::FirstLead) => {
            "the suit of the opening lead is trump; the value is the most tricks the declarer \
             can guarantee"
                .to_string()
        }
        (false, TrumpChoice::Named(suit)) => format!(
            "{} is trump; the value is the most tricks the declarer can guarantee",
            suit.symbol()
        ),
        (false, TrumpChoice::NoTrump) => "no trump; the value is the most tricks the declarer \
                                          can guarantee"
            .to_string(),
    };
    text += &format!("\n{contract} (double dummy: every card visible)\n\nlead  tricks\n");
    for (card, value) in &values.leads {
        let mark = if *value == values.best { "  best" } else { "" };
        text += &format!("{:<4}  {value}{mark}\n", card.to_string());
    }
    let plural = if values.best == 1 { "" } else { "s" };
    text += &format!("\nbest: {} trick{plural}\n", values.best);
    text
}

/// `{"best": 4, "leads": {"AS": 4, ...}}`, leads from the highest card down.
pub fn solve_json(values: &LeadValues) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        best: u8,
        leads: Leads<'a>,
    }
    struct Leads<'a>(&'a LeadValues);
    impl Serialize for Leads<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(Some(self.0.leads.len()))?;
            for (card, value) in &self.0.leads {
                map.serialize_entry(&card.to_string(), value)?;
            }
            map.end()
        }
    }
    serde_json::to_string(&Out {
        best: values.best,
        leads: Leads(values),
    })
    .expect("plain data serialises")
}

/// The values of the next seat's cards after `plays`, for a person.
pub fn solve_after_text(plays: &[Card], opening: &Opening, values: &PlayValues) -> String {
    let played: Vec<String> = plays.iter().map(|c| c.to_string()).collect();
    let role = if values.seat == 0 {
        "the declarer"
    } else {
        "a defender"
    };
    let goal = if opening.misere {
        "the fewest tricks the declarer can be held to"
    } else {
        "the most tricks the declarer can guarantee"
    };
    let mut text = format!(
        "after {}: seat {} ({role}) to play\n\nthe value is {goal} over the whole deal, \
         tricks already won included (double dummy: every card visible)\n\ncard  tricks\n",
        played.join(" "),
        values.seat
    );
    for (card, value) in &values.cards {
        let mark = if *value == values.best { "  best" } else { "" };
        text += &format!("{:<4}  {value}{mark}\n", card.to_string());
    }
    let plural = if values.best == 1 { "" } else { "s" };
    text += &format!(
        "\nbest for seat {}: {} trick{plural}\n",
        values.seat, values.best
    );
    text
}

/// `{"seat": 1, "best": 3, "cards": {"KS": 3, ...}}`: each legal card and its value.
pub fn solve_after_json(values: &PlayValues) -> String {
    let mut cards = serde_json::Map::new();
    for (card, value) in &values.cards {
        cards.insert(card.to_string(), (*value).into());
    }
    serde_json::json!({"seat": values.seat, "best": values.best, "cards": cards}).to_string()
}

/// What `napsim solve --random` reports.
pub struct RandomSolveReport<'a> {
    /// The profile's name.
    pub profile: &'a str,
    /// Table size.
    pub players: usize,
    /// The seed of the deals.
    pub seed: u64,
    /// Whether the deals were solved as misères.
    pub misere: bool,
    /// The results.
    pub solved: &'a RandomSolves,
}

impl RandomSolveReport<'_> {
    /// The distribution table and the timing line, for a person.
    pub fn text(&self) -> String {
        let deals: u64 = self.solved.counts.iter().sum();
        let what = if self.misere {
            "fewest tricks the declarer can be held to in a misère"
        } else {
            "most tricks the declarer can guarantee, best opening lead"
        };
        let mut text = format!(
            "{deals} random deals at {} players ({}, seed {}), seat 0 declaring, double dummy:\n\
             {what}\n\ntricks  deals      share\n",
            self.players, self.profile, self.seed
        );
        for (tricks, &count) in self.solved.counts.iter().enumerate() {
            let share = 100.0 * count as f64 / deals as f64;
            text += &format!("{tricks:>6}  {count:>9}  {share:>6.2}%\n");
        }
        let [mean, median, p99, max] = self.solved.times.summary();
        text += &format!(
            "\nsolve time per deal (one thread): mean {mean:.1} us, median {median:.1} us, \
             p99 {p99:.1} us, max {max:.1} us\n"
        );
        text
    }

    /// The same as one JSON object.
    pub fn json(&self) -> String {
        let [mean, median, p99, max] = self.solved.times.summary();
        let value = serde_json::json!({
            "profile": self.profile,
            "players": self.players,
            "seed": self.seed,
            "misere": self.misere,
            "deals": self.solved.counts.iter().sum::<u64>(),
            "best_tricks": self.solved.counts,
            "time_us": { "mean": mean, "median": median, "p99": p99, "max": max },
        });
        value.to_string() + "\n"
    }
}
