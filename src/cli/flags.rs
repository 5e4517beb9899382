//! The library names a job's inputs in its own terms, in backticks (`` `resume` ``, as a Python
//! caller passes them); on the command line each is a flag (`--resume`). This turns the one
//! into the other in what the command line prints: its errors and the runs' notes.

use std::collections::HashSet;

use clap::CommandFactory;

use super::Cli;

/// `message` with every input the library names in backticks that is a flag of some napsim
/// command written as that flag (`` `as_declarer` `` as `--as-declarer`); any other backticked
/// text stays as it is.
pub fn in_flags(message: &str) -> String {
    if !message.contains('`') {
        return message.to_string();
    }
    let flags = long_flags();
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        let name = &after[..close];
        let flag = name.replace('_', "-");
        out += &rest[..open];
        let is_name = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if is_name && flags.contains(&flag) {
            out += "--";
            out += &flag;
            rest = &after[close + 1..];
        } else {
            // Not an input: keep the opening backtick and look again from the next character.
            out.push('`');
            rest = after;
        }
    }
    out + rest
}

/// The long flags of every napsim command, without their dashes.
fn long_flags() -> HashSet<String> {
    fn gather(command: &clap::Command, into: &mut HashSet<String>) {
        for arg in command.get_arguments() {
            if let Some(long) = arg.get_long() {
                into.insert(long.to_string());
            }
        }
        for sub in command.get_subcommands() {
            gather(sub, into);
        }
    }
    let mut flags = HashSet::new();
    gather(&Cli::command(), &mut flags);
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_become_flags_and_other_backticks_stay() {
        assert_eq!(
            in_flags("`shard` needs `out`: see `napsim merge`"),
            "--shard needs --out: see `napsim merge`"
        );
        assert_eq!(
            in_flags("`session` values calls: leave out `as_declarer`"),
            "--session values calls: leave out --as-declarer"
        );
        assert_eq!(in_flags("the `charts` feature"), "the `charts` feature");
        assert_eq!(
            in_flags("an odd ` backtick `seed`"),
            "an odd ` backtick --seed"
        );
        assert_eq!(in_flags("no backticks"), "no backticks");
    }
}
