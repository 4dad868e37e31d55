//! The benches' table `BENCH.T`: a NUMBER key, VARCHAR2(50), NUMBER(10,2), DATE and VARCHAR2(50),
//! with ALL COLUMNS supplemental logging, as an emulator schema file of `rows` rows.

pub fn schema(rows: u64) -> String {
    format!(
        r#"
tables:
  - name: BENCH.T
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: NAME, type: VARCHAR2(50) }}
      - {{ name: AMOUNT, type: "NUMBER(10,2)" }}
      - {{ name: CREATED, type: DATE }}
      - {{ name: NOTE, type: VARCHAR2(50) }}
    primary_key: [ID]
    supplemental_logging: all
    rows: {rows}
"#
    )
}
