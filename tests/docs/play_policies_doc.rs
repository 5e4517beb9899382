//! The README's "Play policies side by side" table is rendered from the committed measurements
//! in `results/play-policies/` (made by `scripts/play-policies.sh`): this test renders it again
//! and fails when the README disagrees. `BLESS=1` writes the rendering into the README instead.

use std::collections::HashMap;
use std::path::Path;

const BEGIN: &str = "<!-- play-policies:begin -->";
const END: &str = "<!-- play-policies:end -->";

/// The rows of a committed CSV, each a map from column to value.
fn rows(name: &str) -> Vec<HashMap<String, String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("results/play-policies")
        .join(name);
    let mut reader = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .map(String::from)
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect()
}

fn num(row: &HashMap<String, String>, key: &str) -> f64 {
    row[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key} in {row:?}"))
}

/// The table, from the tournament's entrants and pairs and the timings.
fn render() -> String {
    let entrants = rows("tournament.csv");
    let pairs = rows("pairs.csv");
    let timings = rows("timings.csv");
    let pair = |a: &str, b: &str| {
        pairs
            .iter()
            .find(|r| r["entrant_a"] == a && r["entrant_b"] == b)
    };
    let diff = |a: &str, b: &str| match pair(a, b) {
        Some(r) => format!(
            "{:+.2} ({:+.2} to {:+.2})",
            num(r, "mean_diff"),
            num(r, "ci95_low"),
            num(r, "ci95_high")
        ),
        None => "–".to_string(),
    };
    let time = |play: &str| {
        let row = timings.iter().find(|r| r["play_policy"] == play);
        row.map(|r| num(r, "median_us_per_deal"))
    };
    let base = time("heuristic").expect("the heuristic's timing");
    let deficit = pair("pimc", "heuristic").map(|r| num(r, "mean_diff"));
    let mut out = format!(
        "{BEGIN}\n| play policy | against `heuristic`: units a session (95% interval) | against `pimc:worlds=16` | share of the heuristic's deficit to PIMC made up | time a deal, one thread | × heuristic |\n| --- | --- | --- | --- | --- | --- |\n"
    );
    for entrant in &entrants {
        let name = entrant["entrant"].as_str();
        let play = entrant["play_policy"].as_str();
        let made_up = match (pair(name, "heuristic"), deficit) {
            (Some(r), Some(d)) if name != "heuristic" => {
                format!("{:.0}%", 100.0 * num(r, "mean_diff") / d)
            }
            _ => "–".to_string(),
        };
        let (t, ratio) = match time(play) {
            Some(t) => (format!("{t:.2} us"), format!("{:.1}", t / base)),
            None => ("–".into(), "–".into()),
        };
        out += &format!(
            "| `{play}` | {} | {} | {made_up} | {t} | {ratio} |\n",
            diff(name, "heuristic"),
            diff(name, "pimc"),
        );
    }
    out + END
}

#[test]
fn the_readme_table_matches_the_measurements() {
    let readme_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&readme_path).unwrap();
    let start = readme
        .find(BEGIN)
        .expect("the table's begin marker in README.md");
    let end = readme.find(END).expect("the table's end marker") + END.len();
    let rendered = render();
    if std::env::var_os("BLESS").is_some() {
        let updated = format!("{}{rendered}{}", &readme[..start], &readme[end..]);
        std::fs::write(&readme_path, updated).unwrap();
        return;
    }
    assert_eq!(
        &readme[start..end],
        rendered,
        "README.md's play-policy table disagrees with results/play-policies/ \
         (re-render with `BLESS=1 cargo test --profile suite --test docs -- play_policies_doc::`)"
    );
}
