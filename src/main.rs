//! The `napsim` binary: parses arguments and hands over to the library.

fn main() {
    std::process::exit(napsim::cli::main_with_args(std::env::args_os()));
}
