//! A `napsim serve` process on a free port, ended with the test, and a client for it.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running server: its process and the address it printed.
pub struct Server {
    pub child: Child,
    pub url: String,
    /// What it wrote to stderr, read on its own thread.
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

/// The napsim binary's path.
pub fn binary() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("napsim")
}

impl Server {
    /// `napsim serve --port 0 ARGS...`, once it has printed its address.
    pub fn start(args: &[&str]) -> Server {
        let mut command = Command::new(binary());
        command.arg("serve").arg("--port").arg("0").args(args);
        Server::spawn(command)
    }

    /// Starts `command` (which runs `napsim serve`) and waits for its first line.
    pub fn spawn(mut command: Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("napsim serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let url = first.trim().trim_end_matches('/').to_string();
        assert!(
            url.starts_with("http://127.0.0.1:"),
            "the first line is the address: {first:?}"
        );
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let mut pipe = child.stderr.take().unwrap();
        let sink = std::sync::Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Server { child, url, stderr }
    }

    /// What the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// `GET path`: the status and body.
    pub fn get(&self, path: &str) -> (u16, String) {
        answer(agent().get(format!("{}{path}", self.url)).call())
    }

    /// `POST path` with `body`: the status and body.
    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        let request = agent()
            .post(format!("{}{path}", self.url))
            .content_type("application/json");
        answer(request.send(body))
    }

    /// `DELETE path`: the status and body.
    pub fn delete(&self, path: &str) -> (u16, String) {
        answer(agent().delete(format!("{}{path}", self.url)).call())
    }

    /// Waits up to `limit` for the process to exit; its status, or None.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// The server's resident memory, in KiB (Linux).
    pub fn resident_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client that reads error statuses as answers, with a generous timeout that only catches a
/// hang.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

fn answer(result: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, String) {
    let mut response = result.expect("the server answers");
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_string().unwrap();
    (status, body)
}

/// The `error` of a JSON error answer.
pub fn error_of(body: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(body).expect("a JSON error answer");
    value["error"]
        .as_str()
        .expect("an error message")
        .to_string()
}
