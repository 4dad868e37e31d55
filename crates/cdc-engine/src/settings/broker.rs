//! `cdc.sink.kafka.bootstrap.servers` items: checked when settings load, and read by the Kafka
//! client when it connects.

/// The `host` and `port` of a broker item (`host:port`, `[v6]:port`, either after an optional
/// `user:password@`, which the built-in client does not send), or what is wrong with it. The
/// message never holds the item (it may carry a password): the caller names it redacted.
pub fn parse_broker(item: &str) -> std::result::Result<(String, u16), String> {
    let addr = match item.rfind('@') {
        Some(at) => &item[at + 1..],
        None => item,
    };
    let (host, port) = if let Some(rest) = addr.strip_prefix('[') {
        let Some((v6, after)) = rest.split_once(']') else {
            return Err("an IPv6 address opened with `[` is not closed with `]`".into());
        };
        if v6.parse::<std::net::Ipv6Addr>().is_err() {
            return Err(format!("`[{v6}]` is not an IPv6 address"));
        }
        let Some(port) = after.strip_prefix(':') else {
            return Err("no `:port` after the bracketed IPv6 address".into());
        };
        (v6, port)
    } else {
        let Some((host, port)) = addr.rsplit_once(':') else {
            return Err("no `:port`".into());
        };
        if host.contains(':') {
            return Err("an IPv6 address goes in brackets: `[::1]:9092`".into());
        }
        (host, port)
    };
    if host.is_empty() {
        return Err("the host is empty".into());
    }
    if host
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '[' | ']' | '/'))
    {
        return Err("the host holds a character a host name cannot".into());
    }
    match port.parse::<u16>() {
        Ok(p) if p > 0 => Ok((host.to_string(), p)),
        _ => Err(format!(
            "the port `{}` is not a number from 1 to 65535",
            crate::errors::shown(port, 20)
        )),
    }
}
