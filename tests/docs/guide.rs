//! `results/GUIDE.md` is rendered from `results/GUIDE.template.md` and the committed tables: this
//! test renders it again and fails when the guide and the tables disagree. `BLESS=1` writes the
//! rendering into the guide instead (`scripts/render-guide.sh`).
//!
//! Every figure of the guide is a placeholder of the template, `{{KIND TABLE SEAT BID CLASSES}}`:
//!
//! - KIND: `p` (P(make), `87.7%`), `pi` (with its 95% interval, `87.7% (85.1–90.3%)`), `dd` and
//!   `ddi` (the double-dummy P(make)), `ev` (the declarer's units per deal, `+0.66`), `evi` (`+0.66
//!   ± 0.05`), `hands` (hands pooled), `share` (a class-targeted table's share of the hands
//!   reaching the seat, in percent); from an auction table (`bid-table --auction`) also `pass`
//!   and `passi` (what passing is worth in the whole auction, in units: `-0.59`, `-0.59 ± 0.02`)
//!   and `vs` and `vsi` (the bid's gain over passing there).
//! - TABLE: a table under `results/` without `.csv` (`heather-1875/pimc-classes-4p`); SEAT: 0 is
//!   eldest; BID: the bid's name (`three`).
//! - CLASSES, quoted: class labels, `*` matching any run of characters, `|` between
//!   alternatives (`"3 trumps A-K-x*|3 trumps A-K-J*"`). The rows of every matching class are
//!   pooled, each weighted by its share of the hands reaching the seat: `class_share` in a
//!   class-targeted table, the hands counted in a random-deal one.
//!
//! Strategies (`napsim optimize`) and tournaments have figures of their own:
//!
//! - `{{share STRATEGY SEAT CALL CLASSES}}`: of the hands of the matching classes that reach SEAT
//!   with every earlier seat passing, weighted by the hands each cell had in the strategy's last
//!   round, the percentage for which the strategy (`results/STRATEGY.json`) makes CALL (`pass`,
//!   a bid, or `BID+`: that bid or a higher one). Cells the strategy lacks are left out.
//! - `{{tshare RULES PLAYERS CALL CLASSES}}`: the same percentage for the threshold bidder as
//!   eldest, over 400,000 random hands dealt from a fixed seed.
//! - `{{tfrom RULES BID}}`: the count from which the threshold bidder calls BID under RULES
//!   (its default thresholds, read from the library).
//! - `{{sweep TABLE BID}}`, `{{sweepr TABLE BID}}`: the best count for BID in a `napsim
//!   thresholds` CSV, `sweepr` with the range of counts not significantly worse, `14 (14–15)`
//!   (a check compares the whole range).
//! - `{{exploit STRATEGY}}`: the strategy's exploitability per session, `+0.13 ± 0.02` (95%).
//! - `{{tour TOURNAMENT A B}}`: entrant A's mean paired difference over B per session from
//!   `results/TOURNAMENT.pairs.csv`, `+0.67 ± 0.08` (95%).
//! - `{{wshare TOURNAMENT A}}`: entrant A's win share per session with its 95% interval,
//!   `0.280 (0.252–0.309)` (a check compares the share, a fraction).
//! - `{{declared TOURNAMENT A BID}}`: the contracts of BID entrant A declared per thousand
//!   sessions it played.
//!
//! Session equity tables (`napsim equity`, `results/TABLE.csv` and `TABLE.breakeven.csv`):
//!
//! - `{{eq TABLE DEALS LEAD}}`: the chance of winning the session, in whole percent, of a player
//!   LEAD units ahead of each other player (the others level) with DEALS deals to come.
//! - `{{be TABLE BID DEALS LEAD}}`: the make rate at which declaring BID there gives the chance of
//!   winning that nobody declaring gives (whole percent); `{{ube TABLE BID}}` the profile's
//!   break-even in units, for comparison.
//!
//! A check takes any figure: `{{check KIND ARGS... OP VALUE}}`.
//!
//! A figure whose 95% interval is wider than ±5 points must be quoted with it (`pi`, `ddi`,
//! `evi`: there in units), or the rendering fails. `{{check KIND TABLE SEAT BID CLASSES OP
//! VALUE}}` (OP `<`, `>`) renders nothing and fails unless the figure (in the unit it is shown in)
//! stands on that side of VALUE with its whole interval: a sentence that claims it cannot
//! outlive a table that no longer says it. `{{best TABLE SEAT CLASSES}}` renders the class's best
//! bid (one class only). Text between `{{#` and `}}` is a comment. A line of placeholders only
//! that renders to nothing (comments, checks) leaves no line behind.

use crate::common;
use common::records;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

type Row = HashMap<String, String>;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("results")
}

/// The committed tables and strategies, read once each.
#[derive(Default)]
struct Tables {
    read: HashMap<String, Vec<Row>>,
    strategies: HashMap<String, serde_json::Value>,
}

impl Tables {
    fn rows(&mut self, name: &str) -> Result<&[Row], String> {
        if !self.read.contains_key(name) {
            let path = root().join(format!("{name}.csv"));
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{name}: {e}"))?;
            self.read.insert(name.to_string(), records(&text));
        }
        Ok(&self.read[name])
    }
}

impl Tables {
    fn strategy(&mut self, name: &str) -> Result<&serde_json::Value, String> {
        if !self.strategies.contains_key(name) {
            let path = root().join(format!("{name}.json"));
            let bytes = std::fs::read(&path).map_err(|e| format!("{name}: {e}"))?;
            let value = serde_json::from_slice(&bytes).map_err(|e| format!("{name}: {e}"))?;
            self.strategies.insert(name.to_string(), value);
        }
        Ok(&self.strategies[name])
    }
}

/// Whether `call` is the call `wanted` names (`pass`, a bid, or `BID+`: the bid or a higher one
/// of `order`, the profile's bids lowest first).
fn call_matches(wanted: &str, call: &str, order: &[String]) -> bool {
    match wanted.strip_suffix('+') {
        Some(lowest) => {
            let rank = |name: &str| order.iter().position(|b| b == name);
            matches!((rank(call), rank(lowest)), (Some(c), Some(l)) if c >= l)
        }
        None => call == wanted,
    }
}

/// The bids of a built-in profile, lowest first.
fn bid_order(rules: &str) -> Result<Vec<String>, String> {
    let profile = napsim::rules::load_profile(rules).map_err(|e| e.to_string())?;
    Ok(profile
        .bids()
        .iter()
        .map(|b| b.name().to_string())
        .collect())
}

/// `{{share ...}}`: the percentage of the strategy's hands of the matching classes at `seat`
/// (every earlier seat passing) for which it makes `wanted`.
fn strategy_share(
    strategy: &serde_json::Value,
    seat: &str,
    wanted: &str,
    classes: &str,
) -> Result<Figure, String> {
    let order = bid_order(strategy["profile"].as_str().ok_or("no profile")?)?;
    let seat: u64 = seat.parse().map_err(|_| "a seat number")?;
    let patterns: Vec<&str> = classes.split('|').collect();
    let (mut all, mut making) = (0.0, 0.0);
    for cell in strategy["cells"].as_array().ok_or("no cells")? {
        let passes = cell["calls"]
            .as_array()
            .is_some_and(|calls| calls.iter().all(|c| c == "pass"));
        let class = cell["class"].as_str().unwrap_or("");
        if cell["seat"] != seat || !passes || !patterns.iter().any(|p| matches(p, class)) {
            continue;
        }
        let hands = cell["hands"].as_f64().unwrap_or(0.0);
        all += hands;
        if call_matches(wanted, cell["call"].as_str().unwrap_or(""), &order) {
            making += hands;
        }
    }
    if all == 0.0 {
        return Err(format!(
            "no cell of \"{classes}\" at seat {seat} after passes"
        ));
    }
    Ok(Figure {
        value: 100.0 * making / all,
        half: 0.0,
    })
}

/// `{{tshare ...}}`: the percentage of random eldest hands of the matching classes for which the
/// threshold bidder makes `wanted`.
fn threshold_share(
    rules: &str,
    players: &str,
    wanted: &str,
    classes: &str,
) -> Result<Figure, String> {
    use napsim::eval::classes::Scheme;
    use napsim::policy::BidView;
    let profile = napsim::rules::load_profile(rules).map_err(|e| e.to_string())?;
    let players: usize = players.parse().map_err(|_| "a table size")?;
    let order = bid_order(rules)?;
    let bidder = napsim::bots::bid_policy("threshold", &profile).map_err(|e| e.to_string())?;
    let patterns: Vec<&str> = classes.split('|').collect();
    let mut shuffler = napsim::game::Shuffler::new(&profile, players);
    let mut rng = napsim::rng::base_rng(2026);
    let (mut all, mut making) = (0u64, 0u64);
    for _ in 0..400_000 {
        shuffler.reset();
        let dealt = shuffler.deal(players - 1, &mut rng);
        let label = Scheme::Classes.label(Scheme::Classes.class(dealt.hands[0]));
        if !patterns.iter().any(|p| matches(p, &label)) {
            continue;
        }
        let state = napsim::game::DealState::from_dealt(&profile, players - 1, &dealt, players);
        let call = bidder.call(&BidView::new(&state), &mut rng);
        all += 1;
        making += u64::from(call_matches(wanted, call.name(&profile), &order));
    }
    if all == 0 {
        return Err(format!("no hand of \"{classes}\" dealt"));
    }
    Ok(Figure {
        value: 100.0 * making as f64 / all as f64,
        half: 0.0,
    })
}

/// A strategy's or tournament's figure, rendered, with its value and 95% half-width; None for
/// another kind.
fn strategy_figure(
    kind: &str,
    args: &[String],
    tables: &mut Tables,
) -> Result<Option<(String, Figure)>, String> {
    let arg = |i: usize| args.get(i).map(String::as_str).ok_or("too few words");
    Ok(Some(match kind {
        "share" => {
            let f = strategy_share(tables.strategy(arg(0)?)?, arg(1)?, arg(2)?, arg(3)?)?;
            (format!("{:.0}%", f.value), f)
        }
        "tshare" => {
            let f = threshold_share(arg(0)?, arg(1)?, arg(2)?, arg(3)?)?;
            (format!("{:.0}%", f.value), f)
        }
        "tfrom" => {
            let profile = napsim::rules::load_profile(arg(0)?).map_err(|e| e.to_string())?;
            let id =
                profile
                    .bid_id(arg(1)?)
                    .ok_or(format!("{} has no bid {}", arg(0)?, arg(1)?))?;
            let value = napsim::bots::threshold::default_threshold(&profile, id)
                .ok_or(format!("the threshold bidder never bids {}", arg(1)?))?;
            (format!("{value}"), Figure { value, half: 0.0 })
        }
        "sweep" | "sweepr" => {
            let rows = tables.rows(arg(0)?)?;
            let of_bid: Vec<&Row> = rows
                .iter()
                .filter(|r| r["bid"] == arg(1).unwrap_or(""))
                .collect();
            let threshold = |r: &Row| num(r, "threshold");
            let best = of_bid.iter().find(|r| r["best"] == "true").ok_or(format!(
                "no best threshold of {} in {}",
                arg(1)?,
                arg(0)?
            ))?;
            let value = threshold(best)?;
            let near: Vec<f64> = of_bid
                .iter()
                .filter(|r| r["near_best"] == "true" || r["best"] == "true")
                .map(|r| threshold(r))
                .collect::<Result<_, _>>()?;
            let (low, high) = near
                .iter()
                .fold((value, value), |(l, h), &t| (l.min(t), h.max(t)));
            let f = Figure {
                value,
                half: (high - value).max(value - low),
            };
            if kind == "sweep" {
                (format!("{value}"), f)
            } else {
                (format!("{value} ({low}–{high})"), f)
            }
        }
        "exploit" => {
            let e = &tables.strategy(arg(0)?)?["found"]["exploitability"];
            let value = e["per_session"]
                .as_f64()
                .ok_or("no exploitability measured")?;
            let se = e["per_session_se"].as_f64().ok_or("no exploitability se")?;
            let f = Figure {
                value,
                half: 1.96 * se,
            };
            (format!("{:+.2} ± {:.2}", f.value, f.half), f)
        }
        "tour" => {
            let name = format!("{}.pairs", arg(0)?);
            let rows = tables.rows(&name)?;
            let row = rows
                .iter()
                .find(|r| {
                    r["entrant_a"] == arg(1).unwrap_or("") && r["entrant_b"] == arg(2).unwrap_or("")
                })
                .ok_or_else(|| {
                    format!(
                        "no pair {} {} in {name}",
                        arg(1).unwrap_or(""),
                        arg(2).unwrap_or("")
                    )
                })?;
            let value = num(row, "mean_diff")?;
            let f = Figure {
                value,
                half: num(row, "ci95_high")? - value,
            };
            (format!("{:+.2} ± {:.2}", f.value, f.half), f)
        }
        "wshare" => {
            let row = table_row(tables, arg(0)?, &[("entrant", arg(1)?)])?;
            let value = num(&row, "win_share")?;
            let (low, high) = (
                num(&row, "win_share_ci95_low")?,
                num(&row, "win_share_ci95_high")?,
            );
            let f = Figure {
                value,
                half: (high - value).max(value - low),
            };
            (format!("{value:.3} ({low:.3}–{high:.3})"), f)
        }
        "declared" => {
            let row = table_row(tables, arg(0)?, &[("entrant", arg(1)?)])?;
            // The column leaves out the bids never declared: those count 0, if the profile (the
            // table's directory) has them.
            let declared = match declared(&row["declarer"], arg(2)?) {
                Some(count) => count,
                None => {
                    let rules = arg(0)?.split('/').next().unwrap_or_default();
                    let profile = napsim::rules::load_profile(rules).map_err(|e| e.to_string())?;
                    profile
                        .bid_by_name(arg(2)?)
                        .map(|_| 0)
                        .ok_or(format!("{rules} has no bid {}", arg(2)?))?
                }
            };
            let f = Figure {
                value: 1000.0 * declared as f64 / num(&row, "sessions")?,
                half: 0.0,
            };
            (format!("{:.0}", f.value), f)
        }
        "eq" => {
            let row = table_row(
                tables,
                arg(0)?,
                &[("deals_left", arg(1)?), ("lead", arg(2)?)],
            )?;
            let f = Figure {
                value: 100.0 * num(&row, "win_chance")?,
                half: 0.0,
            };
            (format!("{:.0}%", f.value), f)
        }
        "be" | "ube" => {
            let name = format!("{}.breakeven", arg(0)?);
            let mut wanted = vec![("bid", arg(1)?)];
            if kind == "be" {
                wanted.extend([("deals_left", arg(2)?), ("lead", arg(3)?)]);
            }
            let row = table_row(tables, &name, &wanted)?;
            let column = match kind {
                "be" => "session_breakeven",
                _ => "units_breakeven",
            };
            let f = Figure {
                value: 100.0 * num(&row, column)?,
                half: 0.0,
            };
            (format!("{:.0}%", f.value), f)
        }
        _ => return Ok(None),
    }))
}

/// The first row of table `name` whose columns hold the `wanted` values.
fn table_row(tables: &mut Tables, name: &str, wanted: &[(&str, &str)]) -> Result<Row, String> {
    tables
        .rows(name)?
        .iter()
        .find(|r| wanted.iter().all(|(column, value)| r[*column] == *value))
        .cloned()
        .ok_or_else(|| format!("no row {wanted:?} in {name}"))
}

/// How many contracts of `bid` a tournament's `declarer` column (`three:26/58 four:14/32`,
/// made/declared) counts as declared.
fn declared(column: &str, bid: &str) -> Option<u64> {
    column.split_whitespace().find_map(|entry| {
        let (name, counts) = entry.split_once(':')?;
        (name == bid).then(|| counts.split_once('/')?.1.parse().ok())?
    })
}

/// Whether `label` matches `pattern` (`*` any run of characters).
fn matches(pattern: &str, label: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == label,
        Some((head, rest)) => {
            let Some(tail) = label.strip_prefix(head) else {
                return false;
            };
            (0..=tail.len())
                .filter(|&i| tail.is_char_boundary(i))
                .any(|i| matches(rest, &tail[i..]))
        }
    }
}

/// A pooled figure: its value and the half-width of its 95% interval.
#[derive(Clone, Copy, Debug)]
struct Figure {
    value: f64,
    half: f64,
}

/// What the rows of the matching classes pool to.
struct Pooled {
    p: Figure,
    dd: Option<Figure>,
    ev: Figure,
    hands: f64,
    /// The classes' share of the hands reaching the seat (class-targeted tables only).
    share: Option<f64>,
    /// What passing is worth in the whole auction (auction tables only).
    pass: Option<Figure>,
    /// The bid's gain over passing in the whole auction (auction tables only).
    vs: Option<Figure>,
}

fn num(row: &Row, column: &str) -> Result<f64, String> {
    row.get(column)
        .ok_or_else(|| format!("no column {column}"))?
        .parse()
        .map_err(|_| format!("{column}: not a number"))
}

fn pool(rows: &[Row], seat: &str, bid: &str, classes: &str) -> Result<Pooled, String> {
    let patterns: Vec<&str> = classes.split('|').collect();
    let chosen: Vec<&Row> = rows
        .iter()
        .filter(|r| r["seat"] == seat && r["bid"] == bid)
        .filter(|r| patterns.iter().any(|p| matches(p, &r["class"])))
        .collect();
    if chosen.is_empty() {
        return Err(format!(
            "no class matches \"{classes}\" at seat {seat} for {bid}"
        ));
    }
    let (mut w_sum, mut p_sum, mut p_var, mut ev_sum, mut ev_var, mut hands) =
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    let (mut dd_w, mut dd_sum, mut dd_var) = (0.0, 0.0, 0.0);
    // The auction columns: [pass, vs] sums and variances.
    let mut auction = [(0.0, 0.0); 2];
    let has_auction = chosen[0].get("pass_ev").is_some_and(|v| !v.is_empty())
        && chosen.iter().all(|r| !r["vs_pass"].is_empty());
    let stratified = chosen[0].contains_key("class_share");
    for r in &chosen {
        let n = num(r, "hands")?;
        let w = if stratified {
            num(r, "class_share")?
        } else {
            n
        };
        let p = num(r, "p_make")?;
        w_sum += w;
        hands += n;
        p_sum += w * p;
        p_var += w * w * p * (1.0 - p) / n;
        ev_sum += w * num(r, "ev")?;
        ev_var += (w * num(r, "ev_se")?).powi(2);
        if has_auction {
            for (slot, column) in auction.iter_mut().zip(["pass_ev", "vs_pass"]) {
                slot.0 += w * num(r, column)?;
                slot.1 += (w * num(r, &format!("{column}_se"))?).powi(2);
            }
        }
        if !r["dd_p_make"].is_empty() {
            let dn = num(r, "dd_hands")?;
            let d = num(r, "dd_p_make")?;
            // A random-deal table counts the double dummy on its first deals only.
            let w = if stratified { w } else { dn };
            dd_w += w;
            dd_sum += w * d;
            dd_var += w * w * d * (1.0 - d) / dn;
        }
    }
    let figure = |sum: f64, var: f64, w: f64| Figure {
        value: sum / w,
        half: 1.96 * var.sqrt() / w,
    };
    Ok(Pooled {
        p: figure(p_sum, p_var, w_sum),
        dd: (dd_w > 0.0).then(|| figure(dd_sum, dd_var, dd_w)),
        ev: figure(ev_sum, ev_var, w_sum),
        hands,
        share: stratified.then_some(w_sum),
        pass: has_auction.then(|| figure(auction[0].0, auction[0].1, w_sum)),
        vs: has_auction.then(|| figure(auction[1].0, auction[1].1, w_sum)),
    })
}

/// The words of a placeholder: quoted strings kept whole.
fn words(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').ok_or("an unclosed quote")?;
            out.push(quoted[..end].to_string());
            rest = quoted[end + 1..].trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            out.push(rest[..end].to_string());
            rest = rest[end..].trim_start();
        }
    }
    Ok(out)
}

/// The 95% Wilson interval of a pooled share, as the tables give theirs: at the sample size
/// that gives the pooled estimate its variance (for one class, its own hands, so the guide's
/// interval is the table's), or `hands` when the share is 0 or 1 and has none.
fn wilson(f: Figure, hands: f64) -> (f64, f64) {
    let z: f64 = 1.96;
    let p = f.value;
    let se = f.half / z;
    let n = if se > 0.0 {
        p * (1.0 - p) / (se * se)
    } else {
        hands
    };
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn percent(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// A figure of KIND, rendered, and its value and half-width in the unit shown.
fn figure(kind: &str, pooled: &Pooled) -> Result<(String, Figure), String> {
    let wide = |f: Figure, scale: f64| f.half * scale > 5.0;
    let scaled = |f: Figure| Figure {
        value: 100.0 * f.value,
        half: 100.0 * f.half,
    };
    let dd = || {
        pooled
            .dd
            .ok_or("no double-dummy column in these rows".to_string())
    };
    Ok(match kind {
        "p" | "dd" => {
            let f = if kind == "p" { pooled.p } else { dd()? };
            if wide(f, 100.0) {
                return Err(format!(
                    "±{:.1} points: quote it with its interval ({kind}i)",
                    100.0 * f.half
                ));
            }
            (format!("{}%", percent(f.value)), scaled(f))
        }
        "pi" | "ddi" => {
            let f = if kind == "pi" { pooled.p } else { dd()? };
            let (low, high) = wilson(f, pooled.hands);
            let text = format!(
                "{}% ({}–{}%)",
                percent(f.value),
                percent(low),
                percent(high)
            );
            (text, scaled(f))
        }
        "ev" => {
            if pooled.ev.half > 5.0 {
                return Err("a wide EV interval: quote it with evi".into());
            }
            (format!("{:+.2}", pooled.ev.value), pooled.ev)
        }
        "evi" => (
            format!("{:+.2} ± {:.2}", pooled.ev.value, pooled.ev.half),
            pooled.ev,
        ),
        "pass" | "passi" | "vs" | "vsi" => {
            let f = if kind.starts_with("pass") {
                pooled.pass
            } else {
                pooled.vs
            }
            .ok_or("no auction columns: not a bid-table --auction table (or not callable)")?;
            if kind.ends_with('i') {
                (format!("{:+.2} ± {:.2}", f.value, f.half), f)
            } else if f.half > 5.0 {
                return Err(format!("a wide interval: quote it with {kind}i"));
            } else {
                (format!("{:+.2}", f.value), f)
            }
        }
        "hands" => {
            let mut digits = format!("{}", pooled.hands as u64);
            let mut i = digits.len();
            while i > 3 {
                i -= 3;
                digits.insert(i, ',');
            }
            (
                digits,
                Figure {
                    value: pooled.hands,
                    half: 0.0,
                },
            )
        }
        "share" => {
            let share = pooled
                .share
                .ok_or("no class_share column: not a class-targeted table")?;
            let f = Figure {
                value: 100.0 * share,
                half: 0.0,
            };
            (format!("{:.3}%", f.value), f)
        }
        other => return Err(format!("unknown figure '{other}'")),
    })
}

/// Bids that may only be called over another bid (Wellington over a Nap, Blücher over a
/// Wellington, in every profile that has them): never an answer after passes.
const ONLY_OVER: [&str; 2] = ["wellington", "blucher"];

/// The class's best bid (the table's `best_bid`), followed in brackets by the other calls,
/// passing included (EV 0), whose EV the best's does not lead by 1.96 standard errors of the
/// difference (taken as independent, which overstates it: the bids are played on the same
/// hands). So a near tie reads "four (or nap)", never a bare "four".
fn best(rows: &[Row], seat: &str, class: &str) -> Result<String, String> {
    let bids: Vec<&Row> = rows
        .iter()
        .filter(|r| r["seat"] == seat && r["class"] == class)
        .collect();
    let first = bids
        .first()
        .ok_or_else(|| format!("no class \"{class}\" at seat {seat}"))?;
    let chosen = first["best_bid"].as_str();
    let ev_of = |name: &str| -> Result<(f64, f64), String> {
        if name == "pass" {
            return Ok((0.0, 0.0));
        }
        let row = bids
            .iter()
            .find(|r| r["bid"] == name)
            .ok_or_else(|| format!("no row for {name}"))?;
        Ok((num(row, "ev")?, num(row, "ev_se")?))
    };
    let (ev, se) = ev_of(chosen)?;
    let mut close = Vec::new();
    let others = bids
        .iter()
        .map(|r| r["bid"].as_str())
        .filter(|b| !ONLY_OVER.contains(b))
        .chain(std::iter::once("pass"));
    for other in others.filter(|&b| b != chosen) {
        let (other_ev, other_se) = ev_of(other)?;
        if ev - other_ev <= 1.96 * (se * se + other_se * other_se).sqrt() {
            close.push((other_ev, other));
        }
    }
    close.sort_by(|a, b| b.0.total_cmp(&a.0));
    let names: Vec<&str> = close.iter().map(|c| c.1).collect();
    Ok(if names.is_empty() {
        chosen.to_string()
    } else {
        format!("{chosen} (or {})", names.join(", "))
    })
}

/// The text of one placeholder (without its braces).
fn placeholder(text: &str, tables: &mut Tables) -> Result<String, String> {
    if text.starts_with('#') {
        return Ok(String::new());
    }
    let w = words(text)?;
    let arg = |i: usize| w.get(i).map(String::as_str).ok_or("too few words");
    match arg(0)? {
        "best" => best(tables.rows(arg(1)?)?, arg(2)?, arg(3)?),
        "check" => {
            if w.len() < 5 {
                return Err("a check needs a figure, a comparison and a number".into());
            }
            let (op, bound) = (&w[w.len() - 2], &w[w.len() - 1]);
            let f = match strategy_figure(arg(1)?, &w[2..w.len() - 2], tables)? {
                Some((_, f)) => f,
                None => {
                    let rows = tables.rows(arg(2)?)?;
                    let pooled = pool(rows, arg(3)?, arg(4)?, arg(5)?)?;
                    figure(arg(1)?, &pooled)?.1
                }
            };
            let value: f64 = bound.parse().map_err(|_| "a number to compare with")?;
            let holds = match op.as_str() {
                ">" => f.value - f.half > value,
                "<" => f.value + f.half < value,
                op => return Err(format!("unknown comparison '{op}'")),
            };
            if holds {
                Ok(String::new())
            } else {
                Err(format!(
                    "the claim fails: {:.2} ± {:.2} is not {op} {value}",
                    f.value, f.half
                ))
            }
        }
        kind => {
            if let Some((text, _)) = strategy_figure(kind, &w[1..], tables)? {
                return Ok(text);
            }
            let rows = tables.rows(arg(1)?)?;
            let pooled = pool(rows, arg(2)?, arg(3)?, arg(4)?)?;
            Ok(figure(kind, &pooled)?.0)
        }
    }
}

/// The template with every placeholder rendered; the errors name their lines.
fn render(template: &str, tables: &mut Tables) -> Result<String, Vec<String>> {
    let mut out = String::new();
    let mut errors = Vec::new();
    for (number, line) in template.split_inclusive('\n').enumerate() {
        let start_len = out.len();
        let mut rest = line;
        while let Some(start) = rest.find("{{") {
            out.push_str(&rest[..start]);
            let Some(end) = rest[start..].find("}}") else {
                errors.push(format!("line {}: an unclosed {{{{", number + 1));
                break;
            };
            let inner = &rest[start + 2..start + end];
            match placeholder(inner, tables) {
                Ok(text) => out.push_str(&text),
                Err(e) => errors.push(format!("line {}: {{{{{inner}}}}}: {e}", number + 1)),
            }
            rest = &rest[start + end + 2..];
        }
        out.push_str(rest);
        // A line of placeholders only (comments, checks) that renders to nothing is dropped.
        if line.trim_start().starts_with("{{") && out[start_len..].trim().is_empty() {
            out.truncate(start_len);
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[test]
fn the_guide_is_its_template_rendered_from_the_tables() {
    let template = std::fs::read_to_string(root().join("GUIDE.template.md")).unwrap();
    let rendered = render(&template, &mut Tables::default())
        .unwrap_or_else(|errors| panic!("GUIDE.template.md:\n{}", errors.join("\n")));
    let guide = root().join("GUIDE.md");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&guide, &rendered).unwrap();
        return;
    }
    let current = std::fs::read_to_string(&guide).unwrap();
    if current != rendered {
        let line = current
            .lines()
            .zip(rendered.lines())
            .position(|(a, b)| a != b)
            .map_or(current.lines().count().min(rendered.lines().count()), |i| i);
        let mut message = String::new();
        let _ = write!(
            message,
            "results/GUIDE.md disagrees with its template and the tables from line {} \
             (scripts/render-guide.sh renders it):\n  guide:    {}\n  rendered: {}",
            line + 1,
            current.lines().nth(line).unwrap_or(""),
            rendered.lines().nth(line).unwrap_or("")
        );
        panic!("{message}");
    }
}

#[cfg(test)]
mod engine {
    use super::*;

    #[test]
    fn declared_contracts_are_read_from_a_tournament_s_declarer_column() {
        assert_eq!(declared("three:26/58 four:14/32", "four"), Some(32));
        assert_eq!(declared("three:26/58 four:14/32", "nap"), None);
        assert_eq!(declared("", "three"), None);
    }

    fn row(seat: &str, class: &str, bid: &str, cells: &[(&str, &str)]) -> Row {
        let mut r: Row = [
            ("seat", seat),
            ("class", class),
            ("bid", bid),
            ("dd_p_make", ""),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        for (k, v) in cells {
            r.insert(k.to_string(), v.to_string());
        }
        r
    }

    fn tables() -> Tables {
        let a = row(
            "0",
            "3 trumps A-K-x",
            "three",
            &[
                ("hands", "1000"),
                ("p_make", "0.9"),
                ("ev", "2.4"),
                ("ev_se", "0.05"),
                ("class_share", "0.01"),
                ("dd_p_make", "0.95"),
                ("dd_hands", "1000"),
                ("best_bid", "three"),
            ],
        );
        let b = row(
            "0",
            "3 trumps A-K-x, 1 void",
            "three",
            &[
                ("hands", "1000"),
                ("p_make", "0.6"),
                ("ev", "0.6"),
                ("ev_se", "0.1"),
                ("class_share", "0.03"),
                ("dd_p_make", "0.55"),
                ("dd_hands", "1000"),
                ("best_bid", "three"),
            ],
        );
        let rare = row(
            "0",
            "5 trumps A-K-Q-J-T, 3 voids",
            "nap",
            &[
                ("hands", "40"),
                ("p_make", "0.5"),
                ("ev", "0.0"),
                ("ev_se", "1.0"),
                ("class_share", "0.0001"),
                ("dd_hands", "0"),
                ("best_bid", "nap"),
            ],
        );
        let mut t = Tables::default();
        t.read.insert("t".into(), vec![a, b, rare]);
        t
    }

    #[test]
    fn figures_pool_classes_by_their_share() {
        let mut t = tables();
        let got = render(
            "{{p t 0 three \"3 trumps A-K-x*\"}} {{dd t 0 three \"3 trumps A-K-x*\"}} \
             {{ev t 0 three \"3 trumps A-K-x*\"}} {{hands t 0 three \"3 trumps A-K-x*\"}} \
             {{p t 0 three \"3 trumps A-K-x\"}}{{# a comment }} {{best t 0 \"3 trumps A-K-x\"}}\n\
             {{# a line of comments and checks leaves none }}{{check p t 0 three \"3*\" > 60}}\n",
            &mut t,
        )
        .unwrap();
        // (0.01 * 0.9 + 0.03 * 0.6) / 0.04 = 0.675; EV (0.024 + 0.018) / 0.04 = 1.05.
        assert_eq!(got, "67.5% 65.0% +1.05 2,000 90.0% three\n");
    }

    #[test]
    fn one_class_has_the_wilson_interval_of_its_table() {
        let mut t = tables();
        let shown = render("{{pi t 0 three \"3 trumps A-K-x, 1 void\"}}\n", &mut t).unwrap();
        let (low, high) = napsim::stats::wilson95(600, 1000).unwrap();
        let expected = format!("60.0% ({}–{}%)\n", percent(low), percent(high));
        assert_eq!(shown, expected);
    }

    #[test]
    fn wide_figures_need_their_interval_and_claims_are_checked() {
        let mut t = tables();
        let errors = render("x {{p t 0 nap \"5 trumps*\"}}\n", &mut t).unwrap_err();
        assert!(
            errors[0].contains("line 1") && errors[0].contains("pi"),
            "{errors:?}"
        );
        let shown = render("{{pi t 0 nap \"5 trumps*\"}}\n", &mut t).unwrap();
        assert_eq!(shown, "50.0% (35.2–64.8%)\n");
        assert_eq!(
            render("{{check p t 0 three \"3 trumps A-K-x\" > 85}}.\n", &mut t).unwrap(),
            ".\n"
        );
        let errors =
            render("\n{{check p t 0 three \"3 trumps A-K-x\" > 89}}\n", &mut t).unwrap_err();
        assert!(
            errors[0].starts_with("line 2") && errors[0].contains("claim fails"),
            "{errors:?}"
        );
        let errors = render("{{p t 0 three \"4 trumps*\"}}\n", &mut t).unwrap_err();
        assert!(errors[0].contains("no class matches"), "{errors:?}");
    }

    #[test]
    fn the_best_bid_names_the_calls_it_does_not_clearly_beat() {
        let cells = |ev: &'static str, se: &'static str| {
            vec![("ev", ev), ("ev_se", se), ("best_bid", "four")]
        };
        let class = "4 trumps A-K-x-x";
        let mut t = Tables::default();
        t.read.insert(
            "t".into(),
            vec![
                row("0", class, "three", &cells("2.0", "0.1")),
                row("0", class, "four", &cells("3.0", "0.2")),
                row("0", class, "nap", &cells("2.7", "0.2")),
                // Never an answer after passes, however close.
                row("0", class, "wellington", &cells("3.0", "0.2")),
            ],
        );
        let got = render(&format!("{{{{best t 0 \"{class}\"}}}}\n"), &mut t).unwrap();
        assert_eq!(got, "four (or nap)\n");
        // Passing (EV 0) is a call too.
        t.read.insert(
            "u".into(),
            vec![row(
                "0",
                class,
                "three",
                &[("ev", "0.1"), ("ev_se", "0.2"), ("best_bid", "three")],
            )],
        );
        let got = render(&format!("{{{{best u 0 \"{class}\"}}}}\n"), &mut t).unwrap();
        assert_eq!(got, "three (or pass)\n");
    }

    #[test]
    fn strategy_shares_weigh_cells_by_their_hands_after_passes_only() {
        let order = bid_order("heather-1875").unwrap();
        assert!(call_matches("three+", "nap", &order));
        assert!(call_matches("three+", "three", &order));
        assert!(!call_matches("four+", "three", &order));
        assert!(!call_matches("three+", "pass", &order));
        let cell = |seat: u64, calls: &[&str], class: &str, call: &str, hands: u64| {
            serde_json::json!({"seat": seat, "calls": calls, "class": class, "call": call,
                               "hands": hands})
        };
        let strategy = serde_json::json!({"profile": "heather-1875", "cells": [
            cell(1, &["pass"], "3 trumps A-K-x", "three", 300),
            cell(1, &["pass"], "3 trumps A-Q-x", "pass", 100),
            cell(1, &["three"], "3 trumps A-Q-x", "four", 1000),
            cell(0, &[], "3 trumps A-Q-x", "four", 1000),
        ]});
        let share = |wanted: &str| {
            strategy_share(&strategy, "1", wanted, "3 trumps A-*")
                .unwrap()
                .value
        };
        assert_eq!(share("three+"), 75.0);
        assert_eq!(share("pass"), 25.0);
        assert_eq!(share("four+"), 0.0);
        assert!(strategy_share(&strategy, "2", "pass", "*").is_err());
    }

    #[test]
    fn patterns_match_runs_of_characters_and_alternatives() {
        assert!(matches("3 trumps A-K-x*", "3 trumps A-K-x, 1 void"));
        assert!(matches("3 trumps A-K-x*", "3 trumps A-K-x"));
        assert!(!matches("3 trumps A-K-x*", "3 trumps A-K-Q"));
        assert!(matches("*1 void", "2 trumps x-x, 1 void"));
        assert!(matches("3 trumps *-x, *", "3 trumps A-x-x, 1 side ace"));
        assert!(!matches("3 trumps *-x, *", "3 trumps A-x-x"));
    }
}
