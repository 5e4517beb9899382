//! `napsim bid-table --plot`: the SVG chart of P(make) by trump length and top trump honours.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use napsim::analysis::bid_table::{BidChart, ChartGroup};
use napsim::report::bid_chart_svg;

/// Deals for the command-line runs: fewer under debug assertions (`--profile checked`).
fn deals() -> &'static str {
    if cfg!(debug_assertions) {
        "5000"
    } else {
        "20000"
    }
}

fn napsim(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_napsim"));
    command
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn check(output: Output, what: &str) -> Output {
    assert!(
        output.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The tags of an SVG document, checked to nest: every `<x ...>` closed by `</x>` in order,
/// the rest self-closing, no text outside the root. Returns the opening tags (without `<`).
fn tags(svg: &str) -> Vec<&str> {
    let mut open: Vec<&str> = Vec::new();
    let mut all = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        if open.is_empty() {
            assert!(rest[..start].trim().is_empty(), "text outside the root");
        }
        let end = start + rest[start..].find('>').expect("a closed tag");
        let tag = &rest[start + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name), "mismatched </{name}>");
        } else {
            let name = tag.split_whitespace().next().expect("a tag name");
            assert!(!name.is_empty());
            if !tag.ends_with('/') {
                open.push(name.trim_end_matches('/'));
            }
            all.push(tag);
        }
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty(), "unclosed {open:?}");
    assert!(rest.trim().is_empty(), "text after the root");
    all
}

/// The texts of the `<text>` elements, trimmed.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .map(|chunk| {
            let body = &chunk[chunk.find('>').unwrap() + 1..];
            body[..body.find("</text>").unwrap()].trim().to_string()
        })
        .collect()
}

/// The stroke colours of the `<polyline>`s drawn 2 pixels wide (the bids' lines and their
/// legend swatches).
fn line_colours(tags: &[&str]) -> Vec<String> {
    let mut colours: Vec<String> = tags
        .iter()
        .filter(|t| t.starts_with("polyline ") && t.contains("stroke-width=\"2\""))
        .map(|t| {
            let at = t.find("stroke=\"").unwrap() + 8;
            t[at..at + t[at..].find('"').unwrap()].to_string()
        })
        .collect();
    colours.sort();
    colours.dedup();
    colours
}

#[test]
fn plot_draws_one_line_per_bid_and_the_same_bytes_every_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (csv, svg_a, svg_b) = (path("x.csv"), path("a.svg"), path("b.svg"));
    let common = [
        "bid-table",
        "--deals",
        deals(),
        "--seed",
        "1",
        "--quiet",
        "--min-hands",
        "50",
    ];
    // Two runs at once, on different thread counts; the second writes only the chart.
    let mut a = napsim(&common);
    a.args(["--threads", "1", "--out", &csv, "--plot", &svg_a]);
    let mut b = napsim(&common);
    b.args(["--threads", "2", "--plot", &svg_b]);
    let (a, b) = (a.spawn().unwrap(), b.spawn().unwrap());
    check(a.wait_with_output().unwrap(), "with --out");
    let b = check(b.wait_with_output().unwrap(), "--plot alone");
    assert!(
        b.stdout.is_empty(),
        "--plot is an output: no Markdown on stdout"
    );

    let bytes = std::fs::read(&svg_a).unwrap();
    assert_eq!(
        bytes,
        std::fs::read(&svg_b).unwrap(),
        "same rows, same bytes"
    );
    let svg = String::from_utf8(bytes).unwrap();
    assert!(svg.starts_with("<svg "), "{}", &svg[..40]);
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    let tags = tags(&svg);
    assert!(
        !tags.iter().any(|t| t.starts_with("image")),
        "no raster text"
    );

    let texts = texts(&svg);
    let has = |s: &str| texts.iter().any(|t| t == s);
    assert!(
        texts
            .iter()
            .any(|t| t.contains("heather-1875") && t.contains("seat 0") && t.contains("P(make)")),
        "{texts:?}"
    );
    // heather-1875: Three, Four, Nap, Wellington; Nap and Wellington play alike.
    for label in [
        "Three",
        "Four",
        "Nap = Wellington",
        "trump length",
        "P(make)",
    ] {
        assert!(has(label), "no <text> {label}: {texts:?}");
    }
    for panel in ["A-K, no Q", "A, no K or Q", "no A, K or Q"] {
        assert!(
            texts
                .iter()
                .any(|t| t.starts_with(panel) && t.ends_with("hands)")),
            "no panel {panel}: {texts:?}"
        );
    }
    assert_eq!(line_colours(&tags).len(), 3, "a line per (merged) bid");

    // The CSV keeps its columns.
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(csv.starts_with(
        "profile,players,seat,class,bid,tricks_needed,hands,p_make,ci95_low,ci95_high,ev,ev_se,\
         breakeven,dd_hands,dd_p_make,best_bid\n"
    ));
    assert!(!Path::new(&format!("{svg_a}.meta.json")).exists());
}

#[test]
fn plot_below_a_file_fails_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), "").unwrap();
    let svg = dir.path().join("file").join("missing").join("x.svg");
    let out = napsim(&[
        "bid-table",
        "--deals",
        "1e9",
        "--quiet",
        "--plot",
        svg.to_str().unwrap(),
    ])
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("file is not a directory"), "{stderr}");
}

fn group(length: u8, top: u8, hands: u64, made: &[u64]) -> ChartGroup {
    ChartGroup {
        length,
        top,
        hands,
        made: made.to_vec(),
    }
}

fn chart(groups: Vec<ChartGroup>) -> BidChart {
    BidChart {
        profile: "test".into(),
        players: 4,
        seat: 0,
        deals: 1000,
        play: "heuristic".into(),
        min_hands: 10,
        bids: vec![
            "Two".into(),
            "Misère".into(),
            "Nap".into(),
            "Blücher".into(),
            "Quatre <&>".into(),
        ],
        groups,
    }
}

#[test]
fn bids_that_agree_everywhere_share_a_line_and_labels_are_escaped() {
    let svg = bid_chart_svg(&chart(vec![
        group(2, 0, 400, &[100, 200, 3, 3, 50]),
        group(3, 4, 300, &[250, 20, 30, 30, 90]),
        group(4, 7, 5, &[5, 0, 4, 4, 5]),
    ]))
    .unwrap();
    let tags = tags(&svg);
    let texts = texts(&svg);
    for label in ["Two", "Misère", "Nap = Blücher", "Quatre &lt;&amp;&gt;"] {
        assert!(texts.iter().any(|t| t == label), "{label}: {texts:?}");
    }
    assert_eq!(line_colours(&tags).len(), 4);
    // The 5-hand group is under --min-hands: counted in its panel, not drawn.
    assert!(texts.iter().any(|t| t == "A-K-Q (5 hands)"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "no group of 10 hands"));
    assert_eq!(
        svg,
        bid_chart_svg(&chart(vec![
            group(2, 0, 400, &[100, 200, 3, 3, 50]),
            group(3, 4, 300, &[250, 20, 30, 30, 90]),
            group(4, 7, 5, &[5, 0, 4, 4, 5]),
        ]))
        .unwrap()
    );
}

#[test]
fn an_empty_chart_still_draws_its_frame() {
    let svg = bid_chart_svg(&chart(Vec::new())).unwrap();
    let tags = tags(&svg);
    let texts = texts(&svg);
    // With no groups nothing is known to agree: every bid has its own legend entry.
    for label in ["Two", "Misère", "Nap", "Blücher"] {
        assert!(texts.iter().any(|t| t == label), "{label}: {texts:?}");
    }
    assert_eq!(
        texts
            .iter()
            .filter(|t| *t == "no group of 10 hands")
            .count(),
        8
    );
    assert_eq!(line_colours(&tags).len(), 5, "the legend's swatches");
}
