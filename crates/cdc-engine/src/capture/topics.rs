//! Topic names are what consumers subscribe to. The naming (`cdc.sink.topic.prefix`, and
//! whether the PDB is part of it) is chosen at the first start and stored with the offsets:
//! adding a second PDB's tables under `cdc.topic.include.pdb=auto`, switching root and per-PDB
//! mode, or changing the settings would otherwise move every table to another topic without a
//! word, and consumers of the old topics would stop receiving changes. Changing it is the
//! operator's edit (`offsets edit set-topic-naming`). Two tables whose names map to one topic
//! (`A."B.C"` and `"A.B".C`, or names that differ only in characters Kafka refuses) are refused
//! with both names: their records would be mixed in one topic, keyed alike.

use crate::errors::{CdcError, Code, Result};
use crate::names::TableName;
use crate::offsets::{Offsets, TopicNaming};
use crate::record::format::PdbInTopic;
use crate::settings::Settings;
use std::collections::BTreeMap;

/// The naming this start publishes with: the stored one, or (first start, or offsets written
/// before namings were stored) the settings' for `tables`, then stored in `offsets`. Refused
/// (CDC-7013) when the settings ask for another naming than the stored one.
pub fn settle<'a>(
    settings: &Settings,
    tables: impl IntoIterator<Item = &'a TableName> + Clone,
    offsets: &mut Offsets,
) -> Result<TopicNaming> {
    let stored = offsets.topics.clone();
    let wanted = wanted(settings, tables.clone(), stored.as_ref());
    if let Some(stored) = stored {
        if stored != wanted {
            return Err(CdcError::coded(
                Code::Cdc7013,
                format!(
                    "the settings name topics {wanted} but this capture has published to {stored} since its first start (stored in the offsets); consumers of those topics would stop receiving changes"
                ),
            ));
        }
    }
    check_collisions(&wanted, tables)?;
    offsets.topics = Some(wanted.clone());
    Ok(wanted)
}

/// The naming the settings ask for, given the one `stored` with the offsets (if any): what
/// [`settle`] publishes with unless it refuses the start (CDC-7013: then the stored one
/// differs). `doctor` names the topics capture will write with it.
pub fn wanted<'a>(
    settings: &Settings,
    tables: impl IntoIterator<Item = &'a TableName>,
    stored: Option<&TopicNaming>,
) -> TopicNaming {
    let pdb = match (settings.record.pdb_in_topic, stored) {
        (PdbInTopic::Always, _) => true,
        (PdbInTopic::Never, _) => false,
        // `auto` decides once, at the first start.
        (PdbInTopic::Auto, Some(s)) => s.pdb,
        (PdbInTopic::Auto, None) => first_start_pdb(settings, tables),
    };
    TopicNaming {
        prefix: settings.sink.topic_prefix.clone(),
        pdb,
    }
}

/// Whether topics name the PDB as a first start with `tables` decides it (the settings'
/// `cdc.topic.include.pdb`; `auto`: when the tables span more than one PDB). Also what the
/// `snapshot --records` export names its topics by.
pub fn first_start_pdb<'a>(
    settings: &Settings,
    tables: impl IntoIterator<Item = &'a TableName>,
) -> bool {
    let pdbs: std::collections::BTreeSet<_> =
        tables.into_iter().filter_map(|t| t.pdb.as_ref()).collect();
    settings.record.topic_has_pdb(pdbs.len())
}

/// Refuse two tables that publish to one topic (CDC-8008), naming both.
pub fn check_collisions<'a>(
    naming: &TopicNaming,
    tables: impl IntoIterator<Item = &'a TableName>,
) -> Result<()> {
    let mut seen: BTreeMap<String, &TableName> = BTreeMap::new();
    for t in tables {
        let topic = super::records::topic_of(&naming.prefix, t, naming.pdb);
        if let Some(other) = seen.insert(topic.clone(), t) {
            if other != t {
                return Err(collision(&topic, other, t, naming));
            }
        }
    }
    Ok(())
}

/// A table added while capture runs (CREATE TABLE) must not take another's topic either.
pub fn check_new<'a>(
    naming: &TopicNaming,
    new: &TableName,
    captured: impl IntoIterator<Item = &'a TableName>,
) -> Result<()> {
    let topic = super::records::topic_of(&naming.prefix, new, naming.pdb);
    for t in captured {
        if t != new && super::records::topic_of(&naming.prefix, t, naming.pdb) == topic {
            return Err(collision(&topic, t, new, naming));
        }
    }
    Ok(())
}

fn collision(topic: &str, a: &TableName, b: &TableName, naming: &TopicNaming) -> CdcError {
    CdcError::coded(
        Code::Cdc8008,
        format!(
            "tables {a} and {b} would both publish to topic {topic} (topics are {naming}, with the characters Kafka refuses replaced by `_`); their records would be mixed in one topic"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offsets::DatabaseIdentity;

    fn name(pdb: Option<&str>, owner: &str, table: &str) -> TableName {
        TableName {
            pdb: pdb.map(str::to_string),
            owner: owner.into(),
            table: table.into(),
        }
    }

    fn settings(extra: &[(&str, &str)]) -> Settings {
        let mut pairs = vec!["cdc.database.url=emulator:/nonexistent".to_string()];
        pairs.extend(extra.iter().map(|(k, v)| format!("{k}={v}")));
        Settings::from_pairs(&pairs).unwrap()
    }

    fn offsets() -> Offsets {
        Offsets::new(DatabaseIdentity {
            dbid: 1,
            incarnation: 1,
            name: "D".into(),
        })
    }

    #[test]
    fn auto_decides_once_and_a_second_pdb_keeps_the_topics() {
        let s = settings(&[]);
        let mut o = offsets();
        let one = [name(Some("PDB1"), "HR", "EMP")];
        let n = settle(&s, &one, &mut o).unwrap();
        assert!(!n.pdb);
        assert_eq!(o.topics, Some(n.clone()));
        // PDB2 added to the include list: the topics stay `oracle-cdc.HR.EMP`.
        let two = [
            name(Some("PDB1"), "HR", "EMP"),
            name(Some("PDB2"), "HR", "DEPT"),
        ];
        assert_eq!(settle(&s, &two, &mut o).unwrap(), n);
        // A first start over two PDBs names them.
        assert!(settle(&s, &two, &mut offsets()).unwrap().pdb);
    }

    #[test]
    fn a_changed_setting_is_refused_until_the_offsets_say_so() {
        let mut o = offsets();
        let one = [name(Some("PDB1"), "HR", "EMP")];
        settle(&settings(&[]), &one, &mut o).unwrap();
        let e = settle(
            &settings(&[("cdc.topic.include.pdb", "true")]),
            &one,
            &mut o,
        )
        .err()
        .unwrap();
        assert_eq!(e.code(), Code::Cdc7013);
        assert!(e.to_string().contains("oracle-cdc.PDB.OWNER.TABLE"), "{e}");
        assert!(e.to_string().contains("oracle-cdc.OWNER.TABLE"), "{e}");
        let e = settle(
            &settings(&[("cdc.sink.topic.prefix", "prod")]),
            &one,
            &mut o,
        )
        .err()
        .unwrap();
        assert_eq!(e.code(), Code::Cdc7013);
        assert_eq!(o.topics.as_ref().map(|t| t.pdb), Some(false), "kept");
    }

    #[test]
    fn two_tables_on_one_topic_are_refused_by_name() {
        let (a, b) = (name(None, "A", "B.C"), name(None, "A.B", "C"));
        let e = settle(&settings(&[]), [&a, &b], &mut offsets())
            .err()
            .unwrap();
        assert_eq!(e.code(), Code::Cdc8008);
        assert!(e.to_string().contains("oracle-cdc.A.B.C"), "{e}");
        assert!(e.to_string().contains(&a.to_string()) && e.to_string().contains(&b.to_string()));
        // Names that differ only where Kafka refuses a character.
        let (c, d) = (name(None, "HR", "A$B"), name(None, "HR", "A#B"));
        let n = TopicNaming {
            prefix: "p".into(),
            pdb: false,
        };
        assert_eq!(
            check_collisions(&n, [&c, &d]).err().unwrap().code(),
            Code::Cdc8008
        );
        assert_eq!(check_new(&n, &d, [&c]).err().unwrap().code(), Code::Cdc8008);
        // Two PDBs' same-named tables collide only without the PDB in the topic.
        let (e1, e2) = (name(Some("P1"), "HR", "EMP"), name(Some("P2"), "HR", "EMP"));
        assert!(check_collisions(&n, [&e1, &e2]).is_err());
        let with = TopicNaming { pdb: true, ..n };
        assert!(check_collisions(&with, [&e1, &e2]).is_ok());
    }
}
