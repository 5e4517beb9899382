//! The built-in profiles, embedded from `configs/rules/` at compile time.

/// The profile used when `--rules` is not given.
pub const DEFAULT_PROFILE: &str = "heather-1875";

/// Every built-in profile: its name and its TOML text.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "heather-1875",
        include_str!("../../configs/rules/heather-1875.toml"),
    ),
    (
        "rulebook",
        include_str!("../../configs/rules/rulebook.toml"),
    ),
    (
        "pub-guide",
        include_str!("../../configs/rules/pub-guide.toml"),
    ),
    (
        "encyclopedia",
        include_str!("../../configs/rules/encyclopedia.toml"),
    ),
    (
        "sir-garnet",
        include_str!("../../configs/rules/sir-garnet.toml"),
    ),
    (
        "purchase-nap",
        include_str!("../../configs/rules/purchase-nap.toml"),
    ),
    (
        "peep-nap",
        include_str!("../../configs/rules/peep-nap.toml"),
    ),
    (
        "peep-nap-aylesbury",
        include_str!("../../configs/rules/peep-nap-aylesbury.toml"),
    ),
    (
        "peep-nap-dorset",
        include_str!("../../configs/rules/peep-nap-dorset.toml"),
    ),
];

/// The names of the built-in profiles, in listing order.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(name, _)| *name)
}
