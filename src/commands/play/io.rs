//! The conversation of `napsim play`: what the person is told (text, or JSON objects with
//! `--json`) and the answers read back, one line each, with the commands every prompt takes.

use std::io::{BufRead, Write};

use serde_json::{Value, json};

use crate::cards::{Card, CardSet, Suit};
use crate::error::Error;

/// What one prompt got.
pub enum Answer {
    /// A line to parse as the answer.
    Text(String),
    /// `hint`.
    Hint,
    /// `quit`, or the end of the input.
    Quit,
}

/// The person's end of the table: where napsim writes and reads.
pub struct Io<'a> {
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
    /// JSON objects instead of text.
    pub json: bool,
    /// Colour the red suits (a terminal without `NO_COLOR`).
    pub color: bool,
    /// Echo each answer after its prompt (text mode, input not typed at a terminal).
    echo: bool,
}

/// The commands every prompt takes, for `help`.
const HELP: &str = "Answer with a call (pass, three, ...) or a card (AS, 10h, A♠: rank then suit). \
At any prompt: hint (the coach's view), hand (your cards), history (this deal so far), \
help, quit.";

impl<'a> Io<'a> {
    /// The conversation over `input` and `out`.
    pub fn new(
        input: &'a mut dyn BufRead,
        out: &'a mut dyn Write,
        json: bool,
        color: bool,
        echo: bool,
    ) -> Io<'a> {
        Io {
            input,
            out,
            json,
            color,
            echo: echo && !json,
        }
    }

    /// Tells the person `text`, or writes `object` with `--json`.
    pub fn tell(&mut self, text: &str, object: Value) -> Result<(), Error> {
        let line = if self.json {
            object.to_string()
        } else {
            text.to_string()
        };
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .map_err(Error::Stdout)
    }

    /// Tells the person `text` in either mode (as `{"type": "text"}` with `--json`).
    pub fn say(&mut self, text: &str) -> Result<(), Error> {
        self.tell(text, json!({"type": "text", "text": text}))
    }

    /// One line of what went wrong with an answer; the prompt follows again.
    pub fn refuse(&mut self, reason: &str) -> Result<(), Error> {
        self.tell(reason, json!({"type": "error", "message": reason}))
    }

    /// Asks with `prompt` (`request` with `--json`) until an answer comes, showing `hand` and
    /// `history` on request. Blank lines are asked again.
    pub fn ask(
        &mut self,
        prompt: &str,
        request: &str,
        hand: &str,
        history: &[String],
    ) -> Result<Answer, Error> {
        loop {
            if self.json {
                writeln!(self.out, "{request}")
            } else {
                write!(self.out, "{prompt}> ")
            }
            .and_then(|()| self.out.flush())
            .map_err(Error::Stdout)?;
            let mut line = String::new();
            let read = self
                .input
                .read_line(&mut line)
                .map_err(|e| Error::input(format!("cannot read the answers: {e}")))?;
            if read == 0 {
                if !self.json {
                    writeln!(self.out).map_err(Error::Stdout)?;
                }
                return Ok(Answer::Quit);
            }
            let word = answer_text(&line);
            if self.echo {
                writeln!(self.out, "{word}").map_err(Error::Stdout)?;
            }
            match word.to_ascii_lowercase().as_str() {
                "" => {}
                "quit" | "exit" => return Ok(Answer::Quit),
                "hint" => return Ok(Answer::Hint),
                "help" | "?" => self.tell(HELP, json!({"type": "help", "text": HELP}))?,
                "hand" => {
                    let text = format!("your hand: {hand}");
                    self.tell(&text, json!({"type": "hand", "hand": hand}))?;
                }
                "history" => {
                    let text = if history.is_empty() {
                        "nothing has happened yet in this deal".to_string()
                    } else {
                        history.join("\n")
                    };
                    self.tell(&text, json!({"type": "history", "events": history}))?;
                }
                _ => return Ok(Answer::Text(word)),
            }
        }
    }

    /// A card for people: rank and suit symbol, the red suits in red where colour is on.
    pub fn card(&self, card: Card) -> String {
        let text = card.for_people();
        let red = matches!(card.suit(), Suit::Hearts | Suit::Diamonds);
        if self.color && red {
            format!("\x1b[31m{text}\x1b[0m")
        } else {
            text
        }
    }

    /// Cards for people, highest first.
    pub fn cards(&self, cards: CardSet) -> String {
        cards
            .iter_desc()
            .map(|c| self.card(c))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The answer in `line`: the line itself, or with `--json` front ends the first string of
/// `call`, `card`, `answer` or `command` in a JSON object.
fn answer_text(line: &str) -> String {
    let line = line.trim();
    if line.starts_with('{')
        && let Ok(Value::Object(object)) = serde_json::from_str::<Value>(line)
    {
        for key in ["call", "card", "answer", "command"] {
            if let Some(Value::String(text)) = object.get(key) {
                return text.trim().to_string();
            }
        }
    }
    line.to_string()
}
