//! A table whose columns change during its export (ADD/DROP COLUMN between two chunks):
//! JSON lines follow the chunk's columns, a Parquet export starts the table's next file with
//! the new schema, and a CSV export stops with CDC-8007 rather than write rows under a header
//! of other columns.

use super::*;
use crate::offsets::TableProgress;
use crate::settings::Settings;
use crate::snapshot::plan::Chunk;
use crate::snapshot::target::{resolve, Decision};
use crate::types::{ColumnType, Value};
use cdc_core::model::{ColumnInfo, FetchedRow, Organization, TableInfo, TableStats};

fn col(name: &str) -> ColumnInfo {
    ColumnInfo {
        name: name.into(),
        data_type: ColumnType::varchar2(8),
        nullable: true,
        virtual_column: false,
        hidden: false,
    }
}

fn target() -> TableTarget {
    let info = TableInfo {
        name: "APP.T".parse().unwrap(),
        columns: vec![col("A"), col("B")],
        primary_key: None,
        unique_keys: vec![],
        unique_indexes: vec![],
        organization: Organization::Heap,
        cluster: None,
        row_movement: false,
        data_object_id: 1,
        object_id: 1,
        partitions: vec![],
        stats: TableStats::default(),
        supplemental_all_columns: true,
    };
    let settings = Settings::from_pairs::<&str>(&[]).unwrap();
    match resolve(&settings, vec![info], &[]).unwrap().remove(0) {
        Decision::Capture(t) => *t,
        Decision::Skip { reason, .. } => panic!("{reason}"),
    }
}

fn chunk(scn: u64, columns: &[&str], is_final: bool) -> ReadChunk {
    ReadChunk {
        chunk: Chunk::Whole,
        scn,
        rows: vec![FetchedRow {
            rowid: "AAAAAAAAAAAAAAAAAA".into(),
            values: columns
                .iter()
                .map(|c| Value::Text(c.to_lowercase().into()))
                .collect(),
        }],
        columns: columns.iter().map(|c| col(c)).collect(),
        attempts: 1,
        is_final,
        last_rows: is_final,
        wave_rest: 0,
    }
}

fn export(format: ExportFormat) -> (tempfile::TempDir, Result<()>, TableProgress) {
    let dir = tempfile::tempdir().unwrap();
    let t = target();
    let mut sink = ExportSink::new(dir.path(), format, "cdc", "DB");
    let mut progress = TableProgress::new("rowid");
    let mut run = || -> Result<()> {
        sink.publish(
            &t,
            &mut chunk(10, &["A", "B"], false),
            true,
            false,
            &mut progress,
        )?;
        sink.publish(
            &t,
            &mut chunk(20, &["A", "B", "C"], false),
            false,
            false,
            &mut progress,
        )?;
        sink.publish(
            &t,
            &mut chunk(30, &["A", "C"], true),
            false,
            true,
            &mut progress,
        )?;
        sink.finish()
    };
    let r = run();
    (dir, r, progress)
}

#[test]
fn jsonl_rows_carry_the_columns_of_their_chunk() {
    let (dir, r, _) = export(ExportFormat::Jsonl);
    r.unwrap();
    let text = std::fs::read_to_string(dir.path().join("APP.T.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"A":"a","B":"b"}"#,
            r#"{"A":"a","B":"b","C":"c"}"#,
            r#"{"A":"a","C":"c"}"#
        ]
    );
}

#[test]
fn a_csv_export_stops_with_cdc_8007_when_the_columns_change() {
    let (dir, r, progress) = export(ExportFormat::Csv);
    let e = r.unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc8007, "{e}");
    assert!(e.to_string().contains("SCN 20"), "{e}");
    // Only the chunk read before the change is written and acknowledged.
    let text = std::fs::read_to_string(dir.path().join("APP.T.csv")).unwrap();
    assert_eq!(text, "A,B\na,b\n");
    assert_eq!(progress.file.unwrap().bytes, text.len() as u64);
}

#[test]
fn a_parquet_export_goes_on_in_a_new_file_with_the_new_schema() {
    use ::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let (dir, r, _) = export(ExportFormat::Parquet);
    r.unwrap();
    let fields = |i: u32| -> Vec<String> {
        let f = std::fs::File::open(dir.path().join(parquet::part_name("APP.T", i))).unwrap();
        let b = ParquetRecordBatchReaderBuilder::try_new(f).unwrap();
        b.schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    };
    assert_eq!(fields(0), ["A", "B"]);
    assert_eq!(fields(1), ["A", "B", "C"]);
    assert_eq!(fields(2), ["A", "C"]);
}
