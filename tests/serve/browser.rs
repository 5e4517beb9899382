//! The page in a real browser (Debian's Chromium, driven through its ChromeDriver with
//! fantoccini): a hand evaluated, a deal played to its end, its review opened, each checked
//! against the command line; screenshots at phone width. Without a browser the test says so
//! and passes, but under `CI=true` it fails: CI installs one (`.ci/run`).

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use crate::common::stdout;
use crate::server::Server;

/// The phone the screenshots are taken at (CSS pixels).
const PHONE: (u32, u32) = (390, 844);

/// The browser and its driver: `NAPSIM_CHROMIUM` and `NAPSIM_CHROMEDRIVER`, else Debian's.
fn browser() -> Option<(PathBuf, PathBuf)> {
    let pick = |variable: &str, default: &str| {
        let path = std::env::var_os(variable).map_or_else(|| PathBuf::from(default), PathBuf::from);
        path.exists().then_some(path)
    };
    Some((
        pick("NAPSIM_CHROMIUM", "/usr/bin/chromium")?,
        pick("NAPSIM_CHROMEDRIVER", "/usr/bin/chromedriver")?,
    ))
}

/// A ChromeDriver on a free port, ended with the test.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start(chromedriver: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver listens"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the screenshots go: `target/screenshots`, and for the README's pictures
/// (`for_docs`) `docs/screenshots` as well when `NAPSIM_UPDATE_SCREENSHOTS` is set.
fn save_screenshot(name: &str, png: &[u8], for_docs: bool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folders = vec![root.join("target/screenshots")];
    if for_docs && std::env::var_os("NAPSIM_UPDATE_SCREENSHOTS").is_some() {
        folders.push(root.join("docs/screenshots"));
    }
    for folder in folders {
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(name), png).unwrap();
    }
}

#[test]
fn the_page_evaluates_a_hand_plays_a_deal_and_reviews_it_in_a_browser() {
    let Some((chromium, chromedriver)) = browser() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but no browser: install Debian's chromium and chromium-driver (.ci/run does)"
        );
        eprintln!(
            "skipped: no Chromium and ChromeDriver (apt-get install chromium chromium-driver)"
        );
        return;
    };
    let server = Server::start(&[]);
    let driver = Driver::start(&chromedriver);
    let profile_dir = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".to_string(),
            json!({
                "binary": chromium,
                // As root on a fresh machine Chromium needs --no-sandbox; the rest keeps it off
                // the network, which this machine does not reach.
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--disable-background-networking", "--disable-component-update",
                         "--disable-sync", "--no-first-run", "--hide-scrollbars",
                         format!("--user-data-dir={}", profile_dir.path().display())],
            }),
        );
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(capabilities)
            .connect(&driver.url)
            .await
            .expect("a browser session");
        let result = drive(&client, &server.url).await;
        if result.is_err() {
            // What the page showed when it failed, and what it said.
            if let Ok(png) = client.screenshot().await {
                save_screenshot("failure.png", &png, false);
            }
            if let Ok(text) = client.execute("return document.body.innerText;", vec![]).await {
                eprintln!("the page when it failed:\n{}", text.as_str().unwrap_or_default());
            }
        }
        let _ = client.close().await;
        result.unwrap();
    });
}

/// Every step, failing on the first problem (a JavaScript error on the page among them).
async fn drive(client: &Client, url: &str) -> Result<(), String> {
    let fail = |e: fantoccini::error::CmdError| e.to_string();
    client
        .set_window_size(PHONE.0, PHONE.1)
        .await
        .map_err(fail)?;
    client.goto(&format!("{url}/")).await.map_err(fail)?;
    wait_for(client, "body[data-ready='true']", 30).await?;

    // A hand: typed, evaluated as it goes; the call recommended is napsim hand's.
    let cards = "AS KS QS 7D 2C";
    let typed = client.find(Locator::Id("hand-cards")).await.map_err(fail)?;
    typed.send_keys(cards).await.map_err(fail)?;
    let best = wait_for(client, "#hand-recommended[data-final='true']", 120).await?;
    let call = best
        .attr("data-call")
        .await
        .map_err(fail)?
        .unwrap_or_default();
    let cli: Value =
        serde_json::from_str(&stdout(&["hand", cards, "--seed", "1", "--json"])).unwrap();
    assert_eq!(call, cli["recommended"].as_str().unwrap_or("pass"));
    assert!(
        client
            .find(Locator::Css("tr[data-bid='three'] .fill"))
            .await
            .is_ok(),
        "a bar for Three"
    );
    no_errors(client).await?;
    client.set_window_size(PHONE.0, 1100).await.map_err(fail)?;
    save_screenshot("hand.png", &client.screenshot().await.map_err(fail)?, true);
    client
        .set_window_size(PHONE.0, PHONE.1)
        .await
        .map_err(fail)?;

    // A deal against the bots, to its end: Three when it may be called, then the first legal
    // card each time.
    client
        .find(Locator::Id("tab-play"))
        .await
        .map_err(fail)?
        .click()
        .await
        .map_err(fail)?;
    set_value(client, "play-seed", "3").await?;
    set_value(client, "play-deals", "1").await?;
    client
        .find(Locator::Id("play-start"))
        .await
        .map_err(fail)?
        .click()
        .await
        .map_err(fail)?;
    let mut moves = 0;
    loop {
        let state = settled_state(client).await?;
        if state == "over" {
            break;
        }
        assert_eq!(state, "asking", "the session went wrong");
        if moves == 2 {
            save_screenshot("play.png", &client.screenshot().await.map_err(fail)?, false);
        }
        let calls = client
            .find_all(Locator::Css("#play-calls .callbutton"))
            .await
            .map_err(fail)?;
        let target = if !calls.is_empty() {
            match client
                .find(Locator::Css("#play-calls .callbutton[data-call='three']"))
                .await
            {
                Ok(three) => three,
                Err(_) => calls[0].clone(),
            }
        } else {
            client
                .find(Locator::Css("#play-hand .card.legal"))
                .await
                .map_err(fail)?
        };
        target.click().await.map_err(fail)?;
        moves += 1;
        assert!(moves < 20, "a deal of five tricks ends");
    }
    no_errors(client).await?;
    let record = client
        .execute("return JSON.stringify(play.records[0]);", vec![])
        .await
        .map_err(fail)?;
    let record: Value = serde_json::from_str(record.as_str().unwrap()).unwrap();

    // Its review: the double-dummy figures of the first two cards are napsim solve's (of the
    // opening leads, then with `--plays` of the second seat's cards).
    client
        .execute(
            "document.getElementById('review-worlds').value = '128';",
            vec![],
        )
        .await
        .map_err(fail)?;
    client
        .find(Locator::Id("play-review"))
        .await
        .map_err(fail)?
        .click()
        .await
        .map_err(fail)?;
    wait_for(client, "#review-status[data-done='true']", 180).await?;
    let rows = client
        .find_all(Locator::Css("tr.reviewcard"))
        .await
        .map_err(fail)?;
    let mut shown = Vec::new();
    for row in rows.iter().take(2) {
        shown.push(row_figures(row).await?);
    }
    if record["contract"].is_object() {
        let declarer = record["contract"]["declarer"].as_u64().unwrap() as usize;
        let hands: Vec<&str> = record["hands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap())
            .collect();
        // napsim solve seats the declarer at 0: the hands from the declarer's on.
        let rotated: Vec<&str> = (0..hands.len())
            .map(|i| hands[(declarer + i) % hands.len()])
            .collect();
        let bid = record["contract"]["bid"].as_str().unwrap();
        let deal = rotated.join("/");
        let mut played: Vec<String> = Vec::new();
        for (card, before, after) in &shown {
            let plays = played.join(" ");
            let mut args = vec!["solve", deal.as_str(), "--bid", bid, "--json"];
            if !played.is_empty() {
                args.extend(["--plays", plays.as_str()]);
            }
            let solved: Value = serde_json::from_str(&stdout(&args)).unwrap();
            let values = if played.is_empty() { "leads" } else { "cards" };
            assert_eq!(*before, solved["best"].as_u64().unwrap(), "{card}: before");
            assert_eq!(
                *after,
                solved[values][card].as_u64().unwrap(),
                "{card}: after"
            );
            played.push(card.clone());
        }
        assert_eq!(played.len(), 2, "the first two cards checked");
    }
    no_errors(client).await?;
    // Tall enough for the first trick's cards and their figures.
    client.set_window_size(PHONE.0, 1500).await.map_err(fail)?;
    client
        .execute("window.scrollTo(0, 0);", vec![])
        .await
        .map_err(fail)?;
    save_screenshot(
        "review.png",
        &client.screenshot().await.map_err(fail)?,
        true,
    );
    Ok(())
}

/// A reviewed card's row: the card, and the declarer's tricks double dummy before and after.
async fn row_figures(row: &fantoccini::elements::Element) -> Result<(String, u64, u64), String> {
    let mut values = Vec::new();
    for name in ["data-card", "data-dd-before", "data-dd-after"] {
        let value = row.attr(name).await.map_err(|e| e.to_string())?;
        values.push(value.ok_or(format!("a reviewed card without {name}"))?);
    }
    let number = |text: &str| text.parse::<u64>().map_err(|e| format!("{text}: {e}"));
    Ok((values[0].clone(), number(&values[1])?, number(&values[2])?))
}

/// The element `css`, once it is there (within `seconds`).
async fn wait_for(
    client: &Client,
    css: &str,
    seconds: u64,
) -> Result<fantoccini::elements::Element, String> {
    client
        .wait()
        .at_most(Duration::from_secs(seconds))
        .for_element(Locator::Css(css))
        .await
        .map_err(|e| format!("waiting for {css}: {e}"))
}

/// Sets the input `id` to `value`, as typing would.
async fn set_value(client: &Client, id: &str, value: &str) -> Result<(), String> {
    let input = client
        .find(Locator::Id(id))
        .await
        .map_err(|e| e.to_string())?;
    input.clear().await.map_err(|e| e.to_string())?;
    input.send_keys(value).await.map_err(|e| e.to_string())
}

/// The session's state once the bots have answered: `asking`, `over` or `error`.
async fn settled_state(client: &Client) -> Result<String, String> {
    let start = Instant::now();
    loop {
        let state = client
            .execute(
                "return document.getElementById('play-question').dataset.state || '';",
                vec![],
            )
            .await
            .map_err(|e| e.to_string())?;
        let state = state.as_str().unwrap_or_default().to_string();
        if !state.is_empty() && state != "thinking" {
            return Ok(state);
        }
        if start.elapsed() > Duration::from_secs(120) {
            return Err("the bots did not answer within two minutes".to_string());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Fails on any JavaScript error the page has had.
async fn no_errors(client: &Client) -> Result<(), String> {
    let errors = client
        .execute("return window.pageErrors;", vec![])
        .await
        .map_err(|e| e.to_string())?;
    match errors.as_array() {
        Some(list) if list.is_empty() => Ok(()),
        _ => Err(format!("JavaScript errors on the page: {errors}")),
    }
}
