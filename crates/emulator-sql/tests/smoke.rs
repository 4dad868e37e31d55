mod common;
use common::*;

#[test]
fn smoke() {
    let mut db = MemDb::new();
    db.table("SCOTT", "EMP", vec![num_col("ID"), text_col("NAME", 20)], vec![vec![n(1), t("a")], vec![n(2), t("b")]]);
    let r = rows(&mut db, "SELECT ID, NAME FROM EMP WHERE ID > 1", &[]);
    assert_eq!(r, vec![vec![n(2), t("b")]]);
    assert_eq!(value(&mut db, "SELECT 1/3 FROM DUAL"), num(&format!("0.{}", "3".repeat(40))));
    assert_eq!(value(&mut db, "SELECT DBTIMEZONE FROM DUAL"), t("+00:00"));
}
