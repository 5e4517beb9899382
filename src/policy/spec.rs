//! The policy spec grammar: `name[:key=value,...]`.
//!
//! A value that itself contains `:`, `,`, `=` or `/` is wrapped in parentheses, which may nest:
//! `lookahead:play=(pimc:worlds=16)`.
//!
//! ```
//! use napsim::policy::Spec;
//! let spec: Spec = "threshold:three=6,nap=12".parse().unwrap();
//! assert_eq!(spec.name, "threshold");
//! assert_eq!(spec.params, [("three".to_string(), "6".to_string()), ("nap".into(), "12".into())]);
//! let nested: Spec = "lookahead:play=(pimc:worlds=16)".parse().unwrap();
//! assert_eq!(nested.params[0].1, "pimc:worlds=16");
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A parsed policy spec: a name and its parameters in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The policy's name.
    pub name: String,
    /// `key=value` pairs, parentheses around values removed.
    pub params: Vec<(String, String)>,
}

/// Why a spec was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// Not of the form `name[:key=value,...]`.
    #[error("policy spec '{spec}' is malformed: {reason}")]
    Syntax {
        /// The spec as written.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// No policy of that name.
    #[error("unknown {kind} policy '{name}'; available: {known}")]
    UnknownName {
        /// `bid` or `play`.
        kind: &'static str,
        /// The name given.
        name: String,
        /// The names that exist.
        known: String,
    },
    /// A parameter the policy does not take.
    #[error("policy '{policy}' has no parameter '{key}'; it takes: {known}")]
    UnknownKey {
        /// The policy.
        policy: String,
        /// The key given.
        key: String,
        /// The keys it takes.
        known: String,
    },
    /// A parameter value that cannot be used.
    #[error("policy '{policy}': {key}={value} is not valid: {reason}")]
    BadValue {
        /// The policy.
        policy: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is accepted.
        reason: String,
    },
    /// A required parameter is missing.
    #[error("policy '{policy}' needs the parameter '{key}' ({hint})")]
    Missing {
        /// The policy.
        policy: String,
        /// The key.
        key: String,
        /// What to write.
        hint: String,
    },
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        let syntax = |reason: &str| SpecError::Syntax {
            spec: text.to_string(),
            reason: reason.to_string(),
        };
        let text = text.trim();
        let (name, rest) = match text.find(':') {
            Some(i) => (&text[..i], Some(&text[i + 1..])),
            None => (text, None),
        };
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(syntax("the name must be letters, digits, '-' or '_'"));
        }
        if nesting(text) > MAX_NESTING {
            return Err(syntax(&format!(
                "parentheses nest more than {MAX_NESTING} deep"
            )));
        }
        let mut params = Vec::new();
        if let Some(rest) = rest {
            for item in split_top_level(rest, ',').map_err(|r| syntax(&r.to_string()))? {
                let Some(eq) = item.find('=') else {
                    return Err(syntax(&format!("'{item}' is not key=value")));
                };
                let key = item[..eq].trim();
                let mut value = item[eq + 1..].trim();
                if key.is_empty() {
                    return Err(syntax(&format!("'{item}' has an empty key")));
                }
                if wrapped(value) {
                    value = &value[1..value.len() - 1];
                } else if value.contains(['(', ')', ':', '=', '/']) {
                    return Err(syntax(&format!(
                        "the value of '{key}' contains ':', '=', '/' or parentheses; wrap it in parentheses"
                    )));
                }
                if params.iter().any(|(k, _): &(String, String)| k == key) {
                    return Err(syntax(&format!("'{key}' is given twice")));
                }
                params.push((key.to_string(), value.to_string()));
            }
        }
        Ok(Spec {
            name: name.to_string(),
            params,
        })
    }
}

/// How deep a spec's parentheses may nest. Every level is a policy built inside another, and
/// building recurses, so a bound keeps any spec a user writes from overflowing the stack; no
/// useful spec comes near it.
pub const MAX_NESTING: usize = 32;

/// The deepest nesting of parentheses in `text` (unbalanced ones are reported elsewhere).
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Whether `value` is wrapped in one pair of parentheses: its first `(` closes at its last
/// character (`(a)(b)` is not wrapped; its inside `a)(b` is no value).
fn wrapped(value: &str) -> bool {
    let mut depth = 0;
    for (i, c) in value.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return i > 0 && i == value.len() - 1;
        }
    }
    false
}

/// Parentheses that do not pair up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Unbalanced {
    /// A `)` before its `(`.
    #[error("a ')' has no matching '('")]
    Close,
    /// A `(` left open.
    #[error("a '(' is not closed")]
    Open,
}

/// Splits at `sep` outside parentheses; unbalanced parentheses are an error.
pub fn split_top_level(text: &str, sep: char) -> Result<Vec<&str>, Unbalanced> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err(Unbalanced::Close);
                }
            }
            c if c == sep && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(Unbalanced::Open);
    }
    parts.push(&text[start..]);
    Ok(parts)
}

/// Writes the spec back in the grammar, wrapping values that need it.
impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            f.write_str(if i == 0 { ":" } else { "," })?;
            // Parentheses also keep spaces at either end, which a bare value loses.
            if v.contains([':', ',', '=', '/', '(', ')']) || v.trim() != v {
                write!(f, "{k}=({v})")?;
            } else {
                write!(f, "{k}={v}")?;
            }
        }
        Ok(())
    }
}

impl Spec {
    /// Checks that every key is one of `known`.
    pub fn check_keys(&self, known: &[&str]) -> Result<(), SpecError> {
        for (key, _) in &self.params {
            if !known.contains(&key.as_str()) {
                return Err(SpecError::UnknownKey {
                    policy: self.name.clone(),
                    key: key.clone(),
                    known: if known.is_empty() {
                        "no parameters".to_string()
                    } else {
                        known.join(", ")
                    },
                });
            }
        }
        Ok(())
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The switch `key` (`on` or `off`), or `default` when absent.
    pub fn switch(&self, key: &str, default: bool) -> Result<bool, SpecError> {
        match self.get(key) {
            None => Ok(default),
            Some("on") => Ok(true),
            Some("off") => Ok(false),
            Some(text) => Err(SpecError::BadValue {
                policy: self.name.clone(),
                key: key.into(),
                value: text.into(),
                reason: "expected on or off".into(),
            }),
        }
    }

    /// The value of `key` as a count from 1 to `max` (`default` when not given), refused with
    /// "expected `what` from 1 to `max`" otherwise (`what`: "a whole number of worlds").
    pub fn count(&self, key: &str, default: u64, max: u64, what: &str) -> Result<u64, SpecError> {
        let Some(text) = self.get(key) else {
            return Ok(default);
        };
        text.parse::<u64>()
            .ok()
            .filter(|k| (1..=max).contains(k))
            .ok_or_else(|| SpecError::BadValue {
                policy: self.name.clone(),
                key: key.into(),
                value: text.into(),
                reason: format!("expected {what} from 1 to {max}"),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for text in [
            "random",
            "threshold:three=6,four=9",
            "a:b=(c:d=(e:f=1)),g=2",
            "a:b=( 0 )",
            "a:b=((x)(y))",
        ] {
            let spec: Spec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "",
            ":x=1",
            "a:b",
            "a:b=(c",
            "a:b=c)",
            "a:b=c:d",
            "a:=1",
            "a:b=1,b=2",
            "a b",
            // Found by tests/engine/parsers.rs: the first '(' does not close at the end.
            "threshold:a=()()",
            "a:b=(c)(d)",
        ] {
            assert!(bad.parse::<Spec>().is_err(), "{bad}");
        }
    }
}
