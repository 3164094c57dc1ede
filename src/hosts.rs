//! The processes of a search spread over several processes or machines (`--hosts`): the
//! hostfile's format and the layout every process derives from it.
//!
//! The transport itself (sockets, timely dataflow) belongs to the binary; this module only
//! reads text, so the command line can be validated before anything is started.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::path::PathBuf;

/// The processes of one search, as every one of them sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// The hostfile, for messages.
    pub hostfile: PathBuf,
    /// Every process's `host:port`, in process order.
    pub addresses: Vec<String>,
    /// This process's index into `addresses`.
    pub process: usize,
    /// Seconds to wait for the other processes at a level's barrier before failing.
    pub level_timeout: u64,
    /// The run's shared secret (`--secret-file`), which every process proves it holds.
    pub secret: Option<Secret>,
}

/// A shared secret's bytes, never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub Vec<u8>);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secret({} bytes)", self.0.len())
    }
}

/// Fewest bytes a secret file must hold.
pub const MIN_SECRET: usize = 16;

/// Reads a secret file's bytes (any bytes: base64 text or raw random ones) without one
/// final line break (`\n` or `\r\n`): at least [`MIN_SECRET`] of them, not all white space.
pub fn parse_secret(bytes: &[u8]) -> Result<Secret, String> {
    let secret = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let secret = match secret.strip_suffix(b"\r") {
        Some(before) if secret.len() < bytes.len() => before,
        _ => secret,
    };
    let accepted = format!(
        "a secret needs at least {MIN_SECRET} bytes, not all white space (e.g. `head -c 32 /dev/urandom | base64 > FILE` or `head -c 32 /dev/urandom > FILE`, copied to every machine)"
    );
    if secret.len() < MIN_SECRET {
        return Err(format!("holds {} bytes: {accepted}", secret.len()));
    }
    if secret.iter().all(u8::is_ascii_whitespace) {
        return Err(format!("holds only white space: {accepted}"));
    }
    Ok(Secret(secret.to_vec()))
}

/// Whether every address names this machine (a loopback address), so that no other
/// machine can reach the run's ports.
pub fn all_loopback(addresses: &[String]) -> bool {
    use std::net::ToSocketAddrs;
    addresses.iter().all(|address| match address.to_socket_addrs() {
        Ok(mut resolved) => resolved.all(|a| a.ip().is_loopback()),
        Err(_) => false,
    })
}

/// Longest the processes wait for each other to start and connect: a process that is not up
/// by then will not come (a wrong hostfile, a failed launch). `--level-timeout` shortens it.
pub const CONNECT_SECONDS: u64 = 60;

impl Cluster {
    /// The secret's bytes (empty without `--secret-file`).
    pub fn secret(&self) -> &[u8] {
        self.secret.as_ref().map_or(&[], |s| &s.0)
    }

    /// Number of processes.
    pub fn processes(&self) -> usize {
        self.addresses.len()
    }

    /// This process's `host:port`.
    pub fn address(&self) -> &str {
        &self.addresses[self.process]
    }

    /// Seconds the processes wait for each other to connect.
    pub fn connect_timeout(&self) -> u64 {
        self.level_timeout.min(CONNECT_SECONDS)
    }
}

/// Reads a hostfile: one `host:port` per line, in process order; a `#` starts a comment
/// (no address holds one), and blank lines are skipped. Returns the addresses, or the
/// first problem as a phrase naming its line.
pub fn parse_hosts(text: &str) -> Result<Vec<String>, String> {
    let mut addresses: Vec<(usize, String)> = Vec::new();
    for (number, line) in (1..).zip(text.lines()) {
        let line = line.split_once('#').map_or(line, |(before, _)| before).trim();
        if line.is_empty() {
            continue;
        }
        check_address(line)
            .map_err(|why| format!("line {number}: {} is not host:port ({why})", crate::util::quote(line)))?;
        if let Some((first, _)) = addresses.iter().find(|(_, a)| a == line) {
            return Err(format!(
                "line {number} repeats {} from line {first}: each process needs its own host:port",
                crate::util::quote(line)
            ));
        }
        addresses.push((number, line.to_string()));
    }
    if addresses.is_empty() {
        return Err("lists no process".into());
    }
    Ok(addresses.into_iter().map(|(_, a)| a).collect())
}

/// Checks one `host:port`: a host name, an IPv4 address or a bracketed IPv6 address, then a
/// port from 1 to 65535. Names are not resolved here (they may only exist on the cluster).
fn check_address(address: &str) -> Result<(), &'static str> {
    let (host, port) = address.rsplit_once(':').ok_or("no :port")?;
    match port.parse::<u16>() {
        Ok(p) if p > 0 => {}
        _ => return Err("the port must be 1 to 65535"),
    }
    let host = match host.strip_prefix('[') {
        Some(inner) => inner.strip_suffix(']').ok_or("an IPv6 address needs [brackets]")?,
        None if host.contains(':') => return Err("an IPv6 address needs [brackets]"),
        None => host,
    };
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':' | '%');
    if host.is_empty() || !host.chars().all(allowed) {
        return Err("the host must be a name or an IP address");
    }
    Ok(())
}

/// The HMAC by which process `sender`, running `job`, proves to process `receiver` that
/// it holds the run's secret: both indices, the receiver's nonce (`to`), the sender's own
/// (`from`), and the job.
pub fn proof(
    secret: &[u8],
    sender: usize,
    job: &str,
    receiver: usize,
    to: &[u8],
    from: &[u8],
) -> Result<Hmac<Sha256>, hmac::digest::InvalidLength> {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret)?;
    mac.update(b"analyze proof");
    mac.update(&(sender as u32).to_be_bytes());
    // The receiver too: a proof made for one process is no proof to another, so a stranger
    // between two real processes cannot relay one's proof to the other as its own.
    mac.update(&(receiver as u32).to_be_bytes());
    mac.update(to);
    mac.update(from);
    mac.update(job.as_bytes());
    Ok(mac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_addresses_in_order_skipping_blanks_and_comments() {
        let text = "# three processes\n127.0.0.1:7000 # the first\n\n  node-2.cluster:7001  \n[::1]:7002#\n  # done\n";
        assert_eq!(
            parse_hosts(text),
            Ok(vec![
                "127.0.0.1:7000".to_string(),
                "node-2.cluster:7001".into(),
                "[::1]:7002".into()
            ])
        );
    }

    #[test]
    fn names_the_line_of_a_malformed_address() {
        for (text, why) in [
            (
                "127.0.0.1:7000\nlocalhost\n",
                "line 2: `localhost` is not host:port (no :port)",
            ),
            ("a:0\n", "the port must be 1 to 65535"),
            ("a:65536\n", "the port must be 1 to 65535"),
            (":7000\n", "the host must be"),
            ("::1:7000\n", "[brackets]"),
            ("a b:7000\n", "the host must be"),
            ("a:1\nb:2\na:1\n", "line 3 repeats `a:1` from line 1"),
            ("\n# nothing\n", "lists no process"),
            ("", "lists no process"),
        ] {
            let err = parse_hosts(text).expect_err(text);
            assert!(err.contains(why), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_secret_is_any_bytes_but_one_final_line_break() {
        let raw: Vec<u8> = (0..32u8).map(|b| b.wrapping_mul(97) ^ 0xa5).collect();
        assert_eq!(parse_secret(&raw).map(|s| s.0), Ok(raw.clone()));
        let text = b"c2VjcmV0IG9mIHRoaXMgcnVu\r\n";
        assert_eq!(parse_secret(text).map(|s| s.0), Ok(text[..24].to_vec()));
        // Only one line break goes, and a lone \r is the secret's own.
        let twice = b"0123456789abcdef\n\n";
        assert_eq!(parse_secret(twice).map(|s| s.0), Ok(twice[..17].to_vec()));
        let cr = b"0123456789abcdef\r";
        assert_eq!(parse_secret(cr).map(|s| s.0), Ok(cr.to_vec()));
        for (bytes, why) in [
            (&b"tiny\n"[..], "holds 4 bytes"),
            (b"0123456789abcde\r\n", "holds 15 bytes"),
            (b"                \n", "holds only white space"),
            (b" \t \r\n \t \r\n \t \r\n \t \r\n", "holds only white space"),
        ] {
            let err = parse_secret(bytes).expect_err(why);
            assert!(err.contains(why), "{bytes:?}: {err}");
        }
    }

    /// A proof is bound to both ends: the one process 1 makes for a stranger posing as
    /// process 2 proves nothing to process 0, so it cannot be relayed there as process 1's.
    #[test]
    fn a_proof_made_for_one_process_is_no_proof_to_another() {
        let (nonce, theirs) = ([1u8; 32], [2u8; 32]);
        let secret = b"a secret of sixteen bytes";
        let job = "analyze 1.0 eight";
        let made = |receiver| {
            proof(secret, 1, job, receiver, &theirs, &nonce)
                .expect("a key")
                .finalize()
                .into_bytes()
        };
        let for_two = made(2);
        let verify = |receiver| {
            proof(secret, 1, job, receiver, &theirs, &nonce)
                .expect("a key")
                .verify_slice(&for_two)
                .is_ok()
        };
        assert!(verify(2));
        assert!(!verify(0));
        assert_ne!(made(0), for_two);
    }
}
