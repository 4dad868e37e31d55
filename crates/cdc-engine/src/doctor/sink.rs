//! sink.*: what capture writes to, when that is not a directory. The Kafka sink's brokers are
//! probed only here, when the check runs (`Facts::kafka`), and without a producer id: asking for
//! one with the capture's transactional id would fence a capture running with it.

use super::facts::Facts;
use super::Finding;
use crate::errors::Code;
use crate::settings::{keys, SinkType};

pub(super) fn kafka(f: &Facts) -> Finding {
    match f.settings.sink.kind {
        SinkType::Kafka => {}
        SinkType::File => {
            return Finding::pass(format!(
                "not used: records are written as files to {} ({} is file)",
                f.settings.sink.dir.display(),
                keys::SINK_TYPE
            ))
        }
        SinkType::Stdout => {
            return Finding::pass(format!(
                "not used: records are written to standard output ({} is stdout)",
                keys::SINK_TYPE
            ))
        }
    }
    let cfg = &f.settings.sink.kafka;
    let how = match (&cfg.tls, &cfg.sasl) {
        (None, None) => "PLAINTEXT".to_string(),
        (Some(_), None) => "SSL".to_string(),
        (None, Some(s)) => format!("SASL_PLAINTEXT ({})", s.mechanism.name()),
        (Some(_), Some(s)) => format!("SASL_SSL ({})", s.mechanism.name()),
    };
    let probed = f.kafka.get_or_init(|| {
        crate::kafka::probe::probe(cfg).map_err(|e| {
            let e = e.into_cdc();
            (e.code(), e.to_string())
        })
    });
    match probed {
        Ok(p) => {
            let coordinator = match (&cfg.transactional_id, &p.coordinator) {
                (Some(id), Some(c)) => format!("; transactional id {id}: coordinator {c}"),
                _ => "; not transactional".to_string(),
            };
            Finding::pass(format!(
                "{} answered over {how}; {} broker(s): {}{coordinator}",
                p.answered,
                p.brokers.len(),
                super::list(&p.brokers, 5)
            ))
        }
        Err((code, message)) => {
            let fix = match code {
                Code::Cdc6207 => format!(
                    "{}: the PEM file of the CA that signed the brokers' certificates (the Mozilla roots without it); the broker's name as listed in {} must be one its certificate names",
                    keys::KAFKA_SSL_CA_LOCATION,
                    keys::KAFKA_BROKERS
                ),
                Code::Cdc6208 => format!(
                    "{}, {} and {}: the credentials and mechanism the brokers' SASL listener takes (a SCRAM user is created on the cluster: kafka-configs --alter --add-config 'SCRAM-SHA-256=[password=…]' --entity-type users --entity-name USER)",
                    keys::KAFKA_SASL_USERNAME,
                    keys::KAFKA_SASL_PASSWORD,
                    keys::KAFKA_SASL_MECHANISM
                ),
                Code::Cdc6203 => format!(
                    "the broker refused a request (the message names it): for FindCoordinator, the capture user's ACLs must allow the transactional id ({}), and the cluster's transaction state log must be available",
                    keys::KAFKA_TRANSACTIONAL_ID
                ),
                _ => format!(
                    "{}: host:port items of brokers this machine can reach (name resolution, routes, firewalls), on the listener {} speaks",
                    keys::KAFKA_BROKERS,
                    keys::KAFKA_SECURITY_PROTOCOL
                ),
            };
            Finding::fail(format!("over {how}: {message}"), fix)
        }
    }
}
