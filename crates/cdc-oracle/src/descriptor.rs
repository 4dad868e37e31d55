//! The connect string handed to the driver: `cdc.database.url` with the session data unit
//! (`cdc.database.sdu`) asked for in it.
//!
//! Oracle Net sends a response in packets of at most the SDU, the smaller of what the client
//! asks for and what the database allows (its DEFAULT_SDU_SIZE: 8192 bytes before 23ai, 65536
//! from 23ai, up to 2 MB when a DBA raises it). A fetch of hundreds of rows spans several
//! 8 KB packets, and the thin driver parses a response again from its start each time another
//! of its packets arrives (before 23ai a database marks no end of response), so a fetch of n
//! packets costs it about n²/2 packet parses: measured, a 1M-row export's client CPU is 3.9 s
//! at an 8 KB SDU and 1.3 s at 2 MB with 2,000-row fetches. Asking for a larger SDU is free
//! where the database keeps the default (it answers with its own), and is what Oracle's tuning
//! guide advises for bulk transfers where it does not.
//!
//! Neither driver takes an SDU beside the connect string, and the thin driver's EZConnect
//! parser reads no `?sdu=` parameter, so the SDU goes into a connect descriptor: an EZConnect
//! string is written as the descriptor it stands for, a descriptor without `SDU` gets one in
//! each `DESCRIPTION`. A TNS alias is left as it is (its SDU is the one tnsnames.ora gives), and
//! so is an EZConnect form this module does not write out (several hosts, `?` parameters): the
//! database's default SDU then applies, nothing else changes.

/// `url` as the driver is given it, asking for an SDU of `sdu` bytes.
pub fn with_sdu(url: &str, sdu: u32) -> String {
    let url = url.trim();
    if url.starts_with('(') {
        return descriptor_with_sdu(url, sdu);
    }
    match EzConnect::parse(url) {
        Some(ez) => ez.descriptor(sdu),
        None => url.to_string(),
    }
}

/// A descriptor with `(SDU=…)` in each `DESCRIPTION` that has none.
fn descriptor_with_sdu(descriptor: &str, sdu: u32) -> String {
    let upper = descriptor.to_ascii_uppercase();
    if upper.contains("SDU") {
        // Written by the operator (or a word containing SDU: leave the descriptor alone).
        return descriptor.to_string();
    }
    let needle = "(DESCRIPTION=";
    let mut out = String::with_capacity(descriptor.len() + 16);
    let mut done = 0;
    while let Some(at) = upper[done..].find(needle) {
        let end = done + at + needle.len();
        out.push_str(&descriptor[done..end]);
        out.push_str(&format!("(SDU={sdu})"));
        done = end;
    }
    out.push_str(&descriptor[done..]);
    out
}

/// A descriptor (from [`with_sdu`]) telling Oracle's client libraries (thick mode) where the
/// wallet of a tcps connection is: `(MY_WALLET_DIRECTORY=…)` inside each `DESCRIPTION`'s
/// SECURITY (added where there is none, as `(SECURITY=(MY_WALLET_DIRECTORY=…))`), unless it
/// names a wallet already (MY_WALLET_DIRECTORY or WALLET_LOCATION). `None` where it cannot
/// carry one: a TNS alias or an EZConnect form not written out as a descriptor (its wallet then
/// comes from sqlnet.ora, WALLET_LOCATION).
pub fn with_wallet(connect: &str, location: &str) -> Option<String> {
    let upper = connect.to_ascii_uppercase();
    if !connect.starts_with('(') {
        return None;
    }
    if upper.contains("MY_WALLET_DIRECTORY=") || upper.contains("WALLET_LOCATION=") {
        return Some(connect.to_string());
    }
    let wallet = format!("(MY_WALLET_DIRECTORY={location})");
    let (needle, insert) = if upper.contains("(SECURITY=") {
        ("(SECURITY=", wallet)
    } else {
        ("(DESCRIPTION=", format!("(SECURITY={wallet})"))
    };
    let mut out = String::with_capacity(connect.len() + insert.len() * 2);
    let mut done = 0;
    while let Some(at) = upper[done..].find(needle) {
        let end = done + at + needle.len();
        out.push_str(&connect[done..end]);
        out.push_str(&insert);
        done = end;
    }
    if done == 0 {
        // No DESCRIPTION (or SECURITY) written so: nowhere to put it.
        return None;
    }
    out.push_str(&connect[done..]);
    Some(out)
}

/// `[tcp://|tcps://|//]host[:port]/service[:server][/instance]`, one host, no parameters.
#[derive(Debug, PartialEq, Eq)]
struct EzConnect<'a> {
    protocol: &'static str,
    host: &'a str,
    port: u16,
    service: &'a str,
    server: Option<&'a str>,
    instance: Option<&'a str>,
}

impl<'a> EzConnect<'a> {
    fn parse(url: &'a str) -> Option<EzConnect<'a>> {
        let lower = url.get(..7).unwrap_or(url).to_ascii_lowercase();
        let (protocol, rest) = if lower.starts_with("tcps://") {
            ("TCPS", &url[7..])
        } else if lower.starts_with("tcp://") {
            ("TCP", &url[6..])
        } else {
            ("TCP", url.strip_prefix("//").unwrap_or(url))
        };
        if rest.contains(['?', ',', '(', ')', '=', '@']) {
            return None;
        }
        let (host, rest) = if let Some(v6) = rest.strip_prefix('[') {
            let close = v6.find(']')?;
            (&rest[..close + 2], &v6[close + 1..])
        } else {
            let end = rest.find([':', '/']).unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        };
        if host.is_empty() {
            return None;
        }
        let (port, rest) = match rest.strip_prefix(':') {
            Some(p) => {
                let end = p.find('/').unwrap_or(p.len());
                (p[..end].parse::<u16>().ok()?, &p[end..])
            }
            None => (1521, rest),
        };
        // A service is required: `host:port` alone names none (a TNS alias has no `/` either).
        let rest = rest.strip_prefix('/')?;
        let (service, rest) = match rest.find([':', '/']) {
            Some(at) => (&rest[..at], &rest[at..]),
            None => (rest, ""),
        };
        if service.is_empty() {
            return None;
        }
        let (server, rest) = match rest.strip_prefix(':') {
            Some(s) => {
                let end = s.find('/').unwrap_or(s.len());
                let server = &s[..end];
                if !["dedicated", "shared", "pooled"]
                    .iter()
                    .any(|k| k.eq_ignore_ascii_case(server))
                {
                    return None;
                }
                (Some(server), &s[end..])
            }
            None => (None, rest),
        };
        let instance = match rest.strip_prefix('/') {
            Some(i) if !i.is_empty() && !i.contains(['/', ':']) => Some(i),
            Some(_) => return None,
            None if rest.is_empty() => None,
            None => return None,
        };
        Some(EzConnect {
            protocol,
            host,
            port,
            service,
            server,
            instance,
        })
    }

    fn descriptor(&self, sdu: u32) -> String {
        let host = self.host.trim_start_matches('[').trim_end_matches(']');
        let mut data = format!("(SERVICE_NAME={})", self.service);
        if let Some(server) = self.server {
            data.push_str(&format!("(SERVER={})", server.to_ascii_uppercase()));
        }
        if let Some(instance) = self.instance {
            data.push_str(&format!("(INSTANCE_NAME={instance})"));
        }
        format!(
            "(DESCRIPTION=(SDU={sdu})(ADDRESS=(PROTOCOL={})(HOST={host})(PORT={}))(CONNECT_DATA={data}))",
            self.protocol, self.port
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Thick mode's wallet goes into each DESCRIPTION's SECURITY (made where there is none); a
    /// descriptor naming a wallet already is left as written, an alias cannot carry one.
    #[test]
    fn the_wallet_directory_goes_into_the_descriptor() {
        let tcps = with_sdu("tcps://db:2484/ORCLPDB1", 65536);
        assert_eq!(
            with_wallet(&tcps, "/etc/oracle/wallet").as_deref(),
            Some("(DESCRIPTION=(SECURITY=(MY_WALLET_DIRECTORY=/etc/oracle/wallet))(SDU=65536)(ADDRESS=(PROTOCOL=TCPS)(HOST=db)(PORT=2484))(CONNECT_DATA=(SERVICE_NAME=ORCLPDB1)))")
        );
        // Oracle's cloud descriptors carry a SECURITY of their own.
        let cloud = "(description=(address=(protocol=tcps)(port=1522)(host=adb.example.com))(connect_data=(service_name=x_high.adb.oraclecloud.com))(security=(ssl_server_dn_match=yes)))";
        assert_eq!(
            with_wallet(cloud, "/w").as_deref(),
            Some("(description=(address=(protocol=tcps)(port=1522)(host=adb.example.com))(connect_data=(service_name=x_high.adb.oraclecloud.com))(security=(MY_WALLET_DIRECTORY=/w)(ssl_server_dn_match=yes)))")
        );
        assert_eq!(with_wallet("ORCL_TCPS", "/w"), None);
        let own = "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCPS)(HOST=db)(PORT=2484))(SECURITY=(MY_WALLET_DIRECTORY=/x))(CONNECT_DATA=(SERVICE_NAME=S)))";
        assert_eq!(with_wallet(own, "/w").as_deref(), Some(own));
    }

    #[test]
    fn ezconnect_becomes_its_descriptor_with_the_sdu() {
        let cases = [
            (
                "db.example.com:1522/ORCLPDB1",
                "(DESCRIPTION=(SDU=65536)(ADDRESS=(PROTOCOL=TCP)(HOST=db.example.com)(PORT=1522))(CONNECT_DATA=(SERVICE_NAME=ORCLPDB1)))",
            ),
            (
                "//db/ORCL",
                "(DESCRIPTION=(SDU=65536)(ADDRESS=(PROTOCOL=TCP)(HOST=db)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=ORCL)))",
            ),
            (
                "tcps://db:2484/svc.example.com:dedicated/orcl2",
                "(DESCRIPTION=(SDU=65536)(ADDRESS=(PROTOCOL=TCPS)(HOST=db)(PORT=2484))(CONNECT_DATA=(SERVICE_NAME=svc.example.com)(SERVER=DEDICATED)(INSTANCE_NAME=orcl2)))",
            ),
            (
                "[::1]:1521/FREEPDB1",
                "(DESCRIPTION=(SDU=65536)(ADDRESS=(PROTOCOL=TCP)(HOST=::1)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=FREEPDB1)))",
            ),
        ];
        for (url, want) in cases {
            assert_eq!(with_sdu(url, 65536), want, "{url}");
        }
    }

    #[test]
    fn descriptors_get_an_sdu_unless_they_have_one() {
        assert_eq!(
            with_sdu("(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=S)))", 8192),
            "(DESCRIPTION=(SDU=8192)(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=S)))"
        );
        let list = "(description_list=(description=(address=(host=a)(port=1))(connect_data=(service_name=s)))(description=(address=(host=b)(port=1))(connect_data=(service_name=s))))";
        assert_eq!(with_sdu(list, 512).matches("(SDU=512)").count(), 2);
        let own =
            "(DESCRIPTION=(SDU=2097152)(ADDRESS=(HOST=h)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=S)))";
        assert_eq!(with_sdu(own, 8192), own);
    }

    /// What this module does not write out reaches the driver unchanged.
    #[test]
    fn aliases_and_other_forms_are_left_alone() {
        for url in [
            "PRODDB",
            "prod_alias.world",
            "db:1521",
            "h1,h2:1521/svc",
            "db:1521/svc?connect_timeout=5",
            "db:notaport/svc",
            "db:1521/svc:weird",
            "db:1521/",
            "",
        ] {
            assert_eq!(with_sdu(url, 65536), url, "{url}");
        }
    }

    /// The thin driver reads the descriptor written for an EZConnect string as the same
    /// address and service.
    #[test]
    fn the_driver_reads_the_written_descriptor() {
        let d = with_sdu("db.example.com:1522/ORCLPDB1", 65536);
        let config = oracledb::Config::default().set_connect_string(&d);
        assert!(config.is_ok(), "{d}");
    }
}
