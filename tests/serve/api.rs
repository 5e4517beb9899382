//! The JSON API: every endpoint against the command line's own output, the refusals, the
//! limits, a cancelled evaluation, a load of concurrent clients, and the signals.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::stdout;
use crate::server::{Server, agent, binary, error_of};

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn the_page_and_its_files_are_served() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/app.js\">"), "{page}");
    for path in ["/app.js", "/style.css"] {
        let (status, body) = server.get(path);
        assert_eq!(status, 200, "{path}");
        assert!(body.len() > 1000, "{path}: {body}");
    }
    let (status, body) = server.get("/nothing-here");
    assert_eq!(status, 404);
    assert!(error_of(&body).contains("docs/api.md"));
}

#[test]
fn profiles_are_the_built_in_ones_the_default_marked() {
    let server = Server::start(&[]);
    let (status, body) = server.get("/api/profiles");
    assert_eq!(status, 200);
    let list = parse(&body);
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let listed = stdout(&["rules", "list"]);
    for name in &names {
        assert!(listed.contains(name), "{name} in `napsim rules list`");
    }
    assert_eq!(names.len(), listed.lines().count());
    let default: Vec<_> = list
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["default"] == json!(true))
        .collect();
    assert_eq!(default.len(), 1);
    assert_eq!(default[0]["name"], "heather-1875");
    assert_eq!(default[0]["bids"][2]["name"], "nap");
}

#[test]
fn a_hand_is_napsim_hand_json_whole_and_streamed() {
    let server = Server::start(&[]);
    let cli = stdout(&["hand", "AS KS QS 7D 2C", "--seed", "5", "--json"]);
    let (status, body) = server.post("/api/hand", r#"{"cards": "AS KS QS 7D 2C", "seed": 5}"#);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, cli, "the same bytes as the command line");

    let args = [
        "--rules",
        "pub-guide",
        "hand",
        "KH QH 9C 4S 2D",
        "--players",
        "5",
        "--seat",
        "2",
        "--after",
        "pass,three",
        "--worlds",
        "300",
        "--seed",
        "9",
        "--json",
    ];
    let cli = stdout(&args);
    let request = json!({"cards": "KH QH 9C 4S 2D", "rules": "pub-guide", "players": 5,
                         "seat": 2, "after": ["pass", "three"], "worlds": 300, "seed": 9});
    let (status, body) = server.post("/api/hand/stream", &request.to_string());
    assert_eq!(status, 200, "{body}");
    let lines: Vec<Value> = body.lines().map(parse).collect();
    assert_eq!(lines[0]["type"], "started");
    assert_eq!(lines[0]["of"], 300);
    let last = lines.last().unwrap();
    assert_eq!(last["type"], "result", "{body}");
    assert_eq!(
        last["report"],
        parse(&cli),
        "the result is napsim hand --json's"
    );
    // A fixed run is watched every 256 worlds and at its end; the figures so far have no
    // `stopping`.
    let reports: Vec<&Value> = lines
        .iter()
        .filter(|l| l["type"] == "progress" && l.get("report").is_some())
        .collect();
    let worlds: Vec<&Value> = reports.iter().map(|r| &r["report"]["worlds"]).collect();
    assert_eq!(worlds, [256, 300], "{body}");
    assert!(
        reports
            .iter()
            .all(|r| r["report"].get("stopping").is_none())
    );
}

#[test]
fn a_default_run_streams_its_checks_and_ends_as_the_cli_does() {
    let server = Server::start(&[]);
    let cli = stdout(&["hand", "6C KS 8S KD QD", "--seed", "1", "--json"]);
    let (_, body) = server.post(
        "/api/hand/stream",
        r#"{"cards": "6C KS 8S KD QD", "seed": 1}"#,
    );
    let lines: Vec<Value> = body.lines().map(parse).collect();
    let worlds: Vec<u64> = lines
        .iter()
        .filter(|l| l.get("report").is_some())
        .map(|l| l["report"]["worlds"].as_u64().unwrap())
        .collect();
    assert!(worlds.len() >= 2, "{body}");
    assert!(worlds.windows(2).all(|w| w[0] <= w[1]), "{worlds:?}");
    assert_eq!(lines.last().unwrap()["report"], parse(&cli));
}

/// Every field that takes a policy spec refuses one that runs a program or reads a file.
#[test]
fn specs_that_reach_outside_are_refused_in_every_field() {
    let server = Server::start(&[]);
    let outside = [
        "ext:cmd=(python3 bot.py)",
        "table:file=/etc/passwd",
        "split:declarer=(ext:cmd=(sh)),defence=(expert)",
        "lookahead:equity=/tmp/equity.csv",
    ];
    for spec in outside {
        let requests = [
            (
                "/api/hand",
                json!({"cards": "AS KS QS 7D 2C", "play": spec}),
            ),
            (
                "/api/hand",
                json!({"cards": "AS KS QS 7D 2C", "others_bid": spec}),
            ),
            (
                "/api/hand/stream",
                json!({"cards": "AS KS QS 7D 2C", "others_bid": spec}),
            ),
            ("/api/play", json!({"bots": format!("threshold/{spec}")})),
            ("/api/play", json!({"bots": format!("{spec}/expert")})),
            ("/api/review", json!({"records": "{}", "choice": spec})),
            ("/api/review", json!({"records": "{}", "eval_play": spec})),
            ("/api/review", json!({"records": "{}", "others_bid": spec})),
        ];
        for (path, body) in requests {
            let (status, answer) = server.post(path, &body.to_string());
            assert_eq!(status, 400, "{path} {body}: {answer}");
            let message = error_of(&answer);
            assert!(
                message.contains("may not") && message.contains(spec),
                "{path} {body}: {message}"
            );
        }
    }
}

/// Bad requests get a 400 with the library's message: the one the command line prints after
/// `error:` (which names the flag where the API names the field).
#[test]
fn bad_requests_get_the_librarys_message() {
    let server = Server::start(&[]);
    let cases: [(&str, &[&str]); 4] = [
        (
            r#"{"cards": "AS KS QS JS"}"#,
            &["hand", "AS KS QS JS", "--worlds", "64"],
        ),
        (
            r#"{"cards": "AS KS QS JS 1X"}"#,
            &["hand", "AS KS QS JS 1X", "--worlds", "64"],
        ),
        (
            r#"{"cards": "AS KS QS JS TS", "players": 9}"#,
            &["hand", "AS KS QS JS TS", "--players", "9"],
        ),
        (
            r#"{"cards": "AS KS QS JS TS", "rules": "no-such-rules"}"#,
            &["--rules", "no-such-rules", "hand", "AS KS QS JS TS"],
        ),
    ];
    for (body, args) in cases {
        let (status, answer) = server.post("/api/hand", body);
        assert_eq!(status, 400, "{body}: {answer}");
        let out = crate::common::napsim().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let line = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            line.trim_end(),
            format!("error: {}", error_of(&answer)),
            "{body}"
        );
    }
    // The request's own shape: unknown fields, wrong types, not JSON.
    for (body, needle) in [
        (
            r#"{"cards": "AS KS QS JS TS", "wrolds": 5}"#,
            "unknown field `wrolds`",
        ),
        (r#"{"cards": 5}"#, "invalid type"),
        ("cards=AS", "expected value"),
        (r#"{"cards": "AS KS\nQS JS TS"}"#, "one line"),
    ] {
        let (status, answer) = server.post("/api/hand", body);
        assert_eq!(status, 400, "{body}");
        assert!(error_of(&answer).contains(needle), "{body}: {answer}");
    }
    // A profile as TOML text is validated as --rules validates a file.
    let (status, answer) = server.post(
        "/api/hand",
        &json!({"cards": "AS KS QS JS TS", "rules": "name = 3\n"}).to_string(),
    );
    assert_eq!(status, 400);
    assert!(
        error_of(&answer).contains("the request's `rules`"),
        "{answer}"
    );
    // The server keeps serving.
    assert_eq!(server.get("/api/profiles").0, 200);
}

#[test]
fn a_profile_may_come_as_toml_text() {
    let server = Server::start(&[]);
    let toml = stdout(&["rules", "show", "pub-guide"]);
    let cli = stdout(&[
        "--rules",
        "pub-guide",
        "hand",
        "AS KS QS 7D 2C",
        "--worlds",
        "128",
        "--seed",
        "2",
        "--json",
    ]);
    let request = json!({"cards": "AS KS QS 7D 2C", "rules": toml, "worlds": 128, "seed": 2});
    let (status, body) = server.post("/api/hand", &request.to_string());
    assert_eq!(status, 200, "{body}");
    assert_eq!(parse(&body), parse(&cli));
}

#[test]
fn the_limits_hold() {
    let server = Server::start(&[
        "--max-worlds",
        "1000",
        "--evaluations",
        "1",
        "--waiting",
        "0",
    ]);
    let (status, body) = server.post(
        "/api/hand",
        r#"{"cards": "AS KS QS 7D 2C", "worlds": 1001}"#,
    );
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("at most 1000 worlds"), "{body}");
    // A precision that would need more worlds than the cap.
    let (status, _) = server.post(
        "/api/hand",
        r#"{"cards": "AS KS QS 7D 2C", "precision": 0.5}"#,
    );
    assert_eq!(status, 400);
    let (status, _) = server.post("/api/play", r#"{"hint_worlds": 5000}"#);
    assert_eq!(status, 400);
    // A body over the limit (1 MiB) is refused once the limit is passed: the server may answer
    // and close before the rest is sent, so the writes' errors are not the test's.
    let address = server.url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    let body = format!(r#"{{"records": "{}"}}"#, "x".repeat(2 << 20));
    let head = format!(
        "POST /api/review HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body.as_bytes()));
    let mut status_line = String::new();
    BufReader::new(stream).read_line(&mut status_line).unwrap();
    assert!(status_line.starts_with("HTTP/1.1 413"), "{status_line}");
    // Too many deals in one review.
    let line = stdout(&["deal", "--seed", "3", "--json"]);
    let many = line.trim().to_string() + "\n";
    let (status, body) = server.post(
        "/api/review",
        &json!({"records": many.repeat(65), "worlds": 0}).to_string(),
    );
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("at most 64"), "{body}");
    // With one evaluation at a time and none waiting, a second is told the server is busy.
    let slow = slow_stream(&server);
    let (status, body) = server.post("/api/hand", r#"{"cards": "AS KS QS 7D 2C", "worlds": 64}"#);
    assert_eq!(status, 503, "{body}");
    assert!(error_of(&body).starts_with("busy"), "{body}");
    drop(slow);
}

/// A streamed evaluation that plays many slow worlds, read up to its first line; the connection
/// is dropped with it.
fn slow_stream(server: &Server) -> BufReader<TcpStream> {
    let body = json!({"cards": "TD AC 7C 3C 4S", "rules": "encyclopedia", "players": 7,
                      "worlds": 1000, "seed": 1})
    .to_string();
    let address = server.url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "POST /api/hand/stream HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    // The status line, the headers, then the first line of the body (`started`).
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if line.contains(r#""type":"started""#) || line.contains(r#""started""#) {
            return reader;
        }
        assert!(!line.is_empty(), "the stream ended early");
    }
}

/// A client that goes away stops its evaluation: the one place is free again at once, not
/// after the thousand slow worlds.
#[test]
fn an_evaluation_whose_client_went_away_stops() {
    let server = Server::start(&[
        "--evaluations",
        "1",
        "--waiting",
        "0",
        "--max-worlds",
        "1000",
    ]);
    let slow = slow_stream(&server);
    std::thread::sleep(Duration::from_millis(300));
    drop(slow);
    let start = Instant::now();
    loop {
        let (status, body) =
            server.post("/api/hand", r#"{"cards": "AS KS QS 7D 2C", "worlds": 64}"#);
        if status == 200 {
            break;
        }
        assert_eq!(status, 503, "{body}");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the abandoned evaluation still holds the place"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The thousand worlds take far longer than the wait (seconds at seven players).
    assert!(start.elapsed() < Duration::from_secs(20));
}

/// A session plays to its end by the answers given; refused answers say why and ask again; an
/// ended session is gone.
#[test]
fn a_session_plays_to_its_end() {
    let server = Server::start(&[]);
    let (status, body) = server.post("/api/play", r#"{"seed": 3, "deals": 1}"#);
    assert_eq!(status, 200, "{body}");
    let mut answer = parse(&body);
    let id = answer["session"].as_str().unwrap().to_string();
    assert_eq!(answer["messages"][0]["type"], "session");
    assert_eq!(answer["messages"][1]["hand"], "AH AD 7D AC 5C");
    let path = format!("/api/play/{id}/answer");
    // A wrong answer: the reason, and the same question again.
    let (status, body) = server.post(&path, r#"{"answer": "seven"}"#);
    assert_eq!(status, 200);
    let refused = parse(&body);
    assert_eq!(refused["messages"][0]["type"], "error", "{body}");
    assert_eq!(refused["waiting"], true);
    // The hint for the call.
    let (_, body) = server.post(&path, r#"{"answer": "hint"}"#);
    let hint = parse(&body);
    assert_eq!(hint["messages"][0]["type"], "hint", "{body}");
    assert_eq!(hint["messages"][0]["best"], "three");
    let mut records = Vec::new();
    let mut steps = 0;
    while answer["waiting"] == true {
        let question = answer["messages"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        let reply = match question["type"].as_str().unwrap() {
            "bid" => "three".to_string(),
            "play" => question["legal"][0].as_str().unwrap().to_string(),
            other => panic!("unexpected question {other}"),
        };
        let (status, body) = server.post(&path, &json!({ "answer": reply }).to_string());
        assert_eq!(status, 200, "{body}");
        answer = parse(&body);
        for m in answer["messages"].as_array().unwrap() {
            if m["type"] == "result" {
                records.push(m["record"].clone());
            }
        }
        steps += 1;
        assert!(steps < 20, "a deal of five tricks ends");
    }
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["contract"]["bid"], "three");
    assert_eq!(
        answer["messages"].as_array().unwrap().last().unwrap()["type"],
        "saved"
    );
    let (status, _) = server.post(&path, r#"{"answer": "AS"}"#);
    assert_eq!(status, 404, "an ended session is gone");
    // A session can be ended before its end.
    let (_, body) = server.post("/api/play", r#"{"seed": 4}"#);
    let id = parse(&body)["session"].as_str().unwrap().to_string();
    assert_eq!(server.delete(&format!("/api/play/{id}")).0, 200);
    assert_eq!(server.delete(&format!("/api/play/{id}")).0, 404);
    // Bad settings are refused before a session starts.
    let (status, body) = server.post("/api/play", r#"{"seat": 4}"#);
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("`seat` 4 is not a seat"), "{body}");
}

#[test]
fn a_review_and_a_solve_are_the_command_lines() {
    let server = Server::start(&[]);
    let records = stdout(&["deal", "--seed", "3", "--count", "2", "--json"]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deals.jsonl");
    std::fs::write(&file, &records).unwrap();
    let file = file.to_str().unwrap();
    let cli = stdout(&["review", file, "--json", "--worlds", "64", "--seed", "4"]);
    let request = json!({"records": records, "worlds": 64, "seed": 4});
    let (status, body) = server.post("/api/review", &request.to_string());
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, cli);

    let deal = "AH AD 7D AC 5C/8S 7S 9H 6H 4D/8H JD 2D JC 2C/6S TH 7H 5D 6C";
    let cli = stdout(&[
        "solve", deal, "--bid", "three", "--plays", "AD 4D", "--json",
    ]);
    let request = json!({"deal": deal, "bid": "three", "plays": "AD 4D"});
    let (status, body) = server.post("/api/solve", &request.to_string());
    assert_eq!(status, 200, "{body}");
    assert_eq!(parse(&body), parse(&cli));
    let (status, body) = server.post("/api/solve", r#"{"deal": "AS KS"}"#);
    assert_eq!(status, 400, "{body}");
}

/// Fifty clients at once, four requests each, on a server that lets them all wait: every
/// answer is the right one, and the server's memory stays bounded.
#[test]
fn fifty_concurrent_clients_get_correct_answers() {
    let server = Server::start(&["--waiting", "100"]);
    let hand = stdout(&[
        "hand",
        "AS KS QS 7D 2C",
        "--worlds",
        "64",
        "--seed",
        "3",
        "--json",
    ]);
    let deal = "AH AD 7D AC 5C/8S 7S 9H 6H 4D/8H JD 2D JC 2C/6S TH 7H 5D 6C";
    let solved = stdout(&["solve", deal, "--bid", "three", "--json"]);
    let profiles = server.get("/api/profiles").1;
    let url = server.url.clone();
    std::thread::scope(|scope| {
        for client in 0..50 {
            let (url, hand, solved, profiles) = (&url, &hand, &solved, &profiles);
            scope.spawn(move || {
                let agent = agent();
                for request in 0..4 {
                    let (path, body, expected) = match (client + request) % 3 {
                        0 => (
                            "/api/hand",
                            r#"{"cards": "AS KS QS 7D 2C", "worlds": 64, "seed": 3}"#.to_string(),
                            hand.as_str(),
                        ),
                        1 => (
                            "/api/solve",
                            json!({"deal": deal, "bid": "three"}).to_string(),
                            solved.as_str(),
                        ),
                        _ => ("/api/profiles", String::new(), profiles.as_str()),
                    };
                    let mut response = if body.is_empty() {
                        agent.get(format!("{url}{path}")).call()
                    } else {
                        agent
                            .post(format!("{url}{path}"))
                            .content_type("application/json")
                            .send(body.as_str())
                    }
                    .unwrap();
                    assert_eq!(response.status().as_u16(), 200, "client {client}");
                    let text = response.body_mut().read_to_string().unwrap();
                    assert_eq!(parse(&text), parse(expected), "client {client} {path}");
                }
            });
        }
    });
    let kib = server.resident_kib().expect("the server's memory");
    assert!(kib < 400 * 1024, "resident {kib} KiB");
}

/// SIGINT and SIGTERM stop the server within two seconds, even when it started with SIGINT
/// ignored (as a background job of a script starts) and an evaluation under way.
#[cfg(unix)]
#[test]
fn signals_stop_the_server_quickly() {
    for (signal, ignored) in [
        ("INT", false),
        ("TERM", false),
        ("INT", true),
        ("TERM", true),
    ] {
        let mut command = std::process::Command::new("sh");
        let trap = if ignored {
            format!("trap '' {signal}; ")
        } else {
            String::new()
        };
        command.arg("-c").arg(format!(
            "{trap}exec '{}' serve --port 0",
            binary().display()
        ));
        let mut server = Server::spawn(command);
        let slow = slow_stream(&server);
        let kill = std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(server.child.id().to_string())
            .status()
            .unwrap();
        assert!(kill.success());
        let status = server.wait_exit(Duration::from_secs(2));
        assert!(
            status.is_some(),
            "SIG{signal} (ignored at the start: {ignored}) did not stop the server in 2 s"
        );
        drop(slow);
        assert!(
            server.stderr().contains("napsim serve: stopped"),
            "{}",
            server.stderr()
        );
    }
}

#[test]
fn another_host_than_loopback_is_warned_of() {
    let mut command = std::process::Command::new(binary());
    command.args(["serve", "--port", "0", "--host", "0.0.0.0"]);
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    assert!(first.starts_with("http://0.0.0.0:"), "{first}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("warning: listening on 0.0.0.0"),
        "{stderr}"
    );
}

/// Every example request of `docs/api.md`, sent in order to a server: each is answered with
/// success (`{id}` is the session the last `POST /api/play` started).
#[test]
fn the_api_pages_examples_are_answered() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md")).unwrap();
    let server = Server::start(&[]);
    let mut session = String::new();
    let mut examples = 0;
    for block in page.split("```http\n").skip(1) {
        let block = block.split("```").next().unwrap();
        let mut lines = block.lines();
        let (method, path) = lines.next().unwrap().split_once(' ').unwrap();
        let path = path.replace("{id}", &session);
        let body: String = lines.collect::<Vec<_>>().join("\n");
        let (status, answer) = match method {
            "GET" => server.get(&path),
            "POST" => server.post(&path, &body),
            "DELETE" => server.delete(&path),
            other => panic!("{other}"),
        };
        assert_eq!(status, 200, "{method} {path} {body}: {answer}");
        if path == "/api/play" {
            session = parse(&answer)["session"].as_str().unwrap().to_string();
        }
        examples += 1;
    }
    assert_eq!(examples, 9, "the examples of docs/api.md");
}

/// A port already taken is the user's to change: one `error:` line, exit status 2.
#[test]
fn a_port_in_use_is_refused_with_one_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    crate::common::assert_bad(&["serve", "--port", &port], "cannot listen on 127.0.0.1:");
}
