//! A napsim bot (docs/protocol.md) in Rust with the standard library only: a uniformly random
//! legal call and card, drawn from each request's `seed`, as `bots/random_bot.py` does. Its
//! use is measuring the protocol's cost against the built-in `random` policy:
//!
//! ```sh
//! cargo build --release --example random_bot
//! napsim simulate --deals 20000 --threads 1 --play "ext:cmd=(target/release/examples/random_bot)"
//! ```
//!
//! On standard input's end it writes the number of requests it answered to its stderr (the
//! bot's log file).
//!
//! It reads napsim's compact JSON with a few string searches rather than a JSON parser: enough
//! for the fields it needs, not a pattern for a bot that reads more.

use std::io::{BufRead, Write};

/// The string value of `"key":"..."` in `line`.
fn string_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!("\"{key}\":\""))? + key.len() + 4;
    let len = line[start..].find('"')?;
    Some(&line[start..start + len])
}

/// The number of `"key":N` in `line`.
fn number_field(line: &str, key: &str) -> Option<u64> {
    let start = line.find(&format!("\"{key}\":"))? + key.len() + 3;
    let digits = line[start..].find(|c: char| !c.is_ascii_digit())?;
    line[start..start + digits].parse().ok()
}

/// The strings of the array `"key":[...]` in `line`.
fn array_field<'a>(line: &'a str, key: &str) -> Vec<&'a str> {
    let Some(at) = line.find(&format!("\"{key}\":[")) else {
        return Vec::new();
    };
    let start = at + key.len() + 4;
    let end = start + line[start..].find(']').unwrap_or(0);
    line[start..end]
        .split(',')
        .map(|item| item.trim_matches('"'))
        .filter(|item| !item.is_empty())
        .collect()
}

/// A number from `seed` (splitmix64's finaliser), for an index below `n`.
fn pick(seed: u64, n: usize) -> usize {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) % n as u64) as usize
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut answered = 0u64;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let kind = string_field(&line, "type").unwrap_or("");
        let seed = number_field(&line, "seed").unwrap_or(0);
        let legal = array_field(&line, "legal");
        let answer = match kind {
            "hello" => "{\"name\":\"random_bot.rs\"}".to_string(),
            "bid" if !legal.is_empty() => {
                format!("{{\"call\":\"{}\"}}", legal[pick(seed, legal.len())])
            }
            "play" if !legal.is_empty() => {
                format!("{{\"card\":\"{}\"}}", legal[pick(seed, legal.len())])
            }
            _ => "{}".to_string(),
        };
        answered += 1;
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
    eprintln!("random_bot.rs: answered {answered} requests");
}
