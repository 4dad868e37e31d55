// Oracle's JDBC thin driver (ojdbc11) against the toy backend of oracle-net-server's tests.
//
// Usage: java -Duser.timezone=UTC -cp ojdbc11.jar:. JdbcClient HOST PORT SERVICE USER PASSWORD
// Selects every type and compares with the expected values, reads whole LOBs, binds with a
// PreparedStatement, runs PL/SQL with OUT binds, inserts with binds and commits, checks an error
// and a query timeout.
// Exits non-zero on any mismatch.

import java.math.BigDecimal;
import java.sql.*;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

public class JdbcClient {
    static final List<String> failures = new ArrayList<>();

    static String show(Object v) {
        String s = v instanceof byte[] ? Arrays.toString((byte[]) v) : String.valueOf(v);
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    static void check(String what, Object got, Object want) {
        boolean same = (got instanceof byte[] && want instanceof byte[])
                ? Arrays.equals((byte[]) got, (byte[]) want)
                : Objects.equals(got, want);
        if (!same) {
            failures.add(what);
            System.out.println("MISMATCH " + what + ": got " + show(got) + ", want " + show(want));
        }
    }

    static byte[] cycle(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte) (i % 251);
        return b;
    }

    static String repeat(String s, int n) {
        return s.repeat(n);
    }

    static void allTypes(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM ALL_TYPES")) {
            ResultSetMetaData md = rs.getMetaData();
            check("columns", md.getColumnCount(), 20);
            check("ID precision", md.getPrecision(1), 10);
            check("V size", md.getColumnDisplaySize(3), 100);
            check("BOOLEAN as NUMBER", md.getColumnTypeName(17), "NUMBER");
            check("CLOB type", md.getColumnTypeName(18), "CLOB");

            check("row 1", rs.next(), true);
            check("ID", rs.getBigDecimal(1), new BigDecimal("1"));
            check("NUM", rs.getBigDecimal(2), new BigDecimal("12345678901234567890.123456789012345678"));
            check("V", rs.getString(3), "héllo wörld ✓");
            check("C", rs.getString(4), "abc       ");
            check("NV", rs.getString(5), "ñandú 日本");
            check("NC", rs.getString(6), "xy   ");
            check("BF", rs.getFloat(7), 1.5f);
            check("BD", rs.getDouble(8), Math.PI);
            check("D", rs.getTimestamp(9), Timestamp.valueOf("2026-12-04 10:05:09"));
            check("TS", rs.getTimestamp(10), Timestamp.valueOf("2026-12-04 10:05:09.123456"));
            check("TSTZ", rs.getObject(11, OffsetDateTime.class), OffsetDateTime.parse("2026-12-04T10:05:09.5+05:30"));
            check("TSLTZ", rs.getTimestamp(12), Timestamp.valueOf("2026-01-02 03:04:05.25"));
            check("IYM", rs.getString(13), "1-2");
            check("IDS", rs.getString(14), "1 2:3:4.5");
            check("R", rs.getBytes(15), new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef});
            check("RID", rs.getString(16), "AAAR3sAAEAAAACXAAA");
            check("B", rs.getInt(17), 1);
            check("CL", rs.getString(18), "clob ✓ text");
            check("BL", rs.getBytes(19), new byte[] {1, 2, 3, (byte) 255});
            check("NCL", rs.getString(20), "nclob ü");

            check("row 2", rs.next(), true);
            check("ID 2", rs.getInt(1), 2);
            for (int i = 2; i <= 20; i++) {
                rs.getObject(i);
                check("NULL column " + i, rs.wasNull(), true);
            }

            check("row 3", rs.next(), true);
            check("NUM 3", rs.getBigDecimal(2), new BigDecimal("-99999999999999999999999999999999999999"));
            check("V 3", rs.getString(3), repeat("x", 100));
            check("NV 3", rs.getString(5), "€");
            check("BF 3", rs.getFloat(7), Float.POSITIVE_INFINITY);
            check("BD 3", Double.isNaN(rs.getDouble(8)), true);
            check("D 3", rs.getTimestamp(9), Timestamp.valueOf("1901-01-01 00:00:00"));
            check("TS 3", rs.getTimestamp(10), Timestamp.valueOf("9999-12-31 23:59:59.999999"));
            check("TSTZ 3", rs.getObject(11, OffsetDateTime.class), OffsetDateTime.parse("2000-02-29T23:30-08:00"));
            check("IYM 3", rs.getString(13), "-1-2");
            check("RID 3", rs.getString(16), "AAABBBAACAAAADDAAE");
            check("B 3", rs.getInt(17), 0);
            check("CL 3", rs.getString(18), repeat("x", 40000));
            check("BL 3", rs.getBytes(19), cycle(70000));
            check("NCL 3", rs.getString(20), repeat("ü", 5000));
            check("end", rs.next(), false);
        }
    }

    static void longTypes(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM LONG_TYPES")) {
            rs.next();
            check("LONG", rs.getString(2), "long text");
            check("UROWID", rs.getString(3), "AAAR3sAAEAAAACXAAA");
            rs.next();
            check("100 KB LONG", rs.getString(2), repeat("l", 100000));
            rs.getString(3);
            check("NULL UROWID", rs.wasNull(), true);
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM LONG_RAWS")) {
            rs.next();
            byte[] want = new byte[300];
            Arrays.fill(want, (byte) 7);
            check("LONG RAW", rs.getBytes(2), want);
        }
    }

    static void numbersAndRows(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT N FROM BIG_NUMBERS")) {
            rs.next();
            check("SCN", rs.getBigDecimal(1), new BigDecimal("12345678901234567890123"));
        }
        try (Statement s = c.createStatement()) {
            s.setFetchSize(500);
            try (ResultSet rs = s.executeQuery("SELECT ID, NAME FROM MANY")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                    if (rs.getInt(1) != n || !rs.getString(2).equals("row-" + n)) {
                        check("MANY row " + n, rs.getString(2), "row-" + n);
                        break;
                    }
                }
                check("MANY rows", n, 10000);
            }
        }
    }

    static void bigLobs(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT ID, C, B FROM BIG_LOBS")) {
            rs.next();
            Clob clob = rs.getClob(2);
            String text = clob.getSubString(1, (int) clob.length());
            check("5 MB CLOB starts", text.substring(0, 40), "0123456789abcdefghijklmnopqrstuvwxyzé✓\n0");
            check("5 MB CLOB length", text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length >= 5 * 1024 * 1024, true);
            Blob blob = rs.getBlob(3);
            check("5 MB BLOB", blob.getBytes(1, (int) blob.length()), cycle(5 * 1024 * 1024));
        }
    }

    static void binds(Connection c) throws SQLException {
        String sql = "SELECT ECHO(?, ?, ?, ?, ?, ?) FROM DUAL";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setBigDecimal(1, new BigDecimal("-12345678901234567890.5"));
            ps.setString(2, "héllo");
            ps.setBytes(3, new byte[] {1, 2, 3});
            ps.setDouble(4, -2.5);
            ps.setTimestamp(5, Timestamp.valueOf("2024-02-29 13:14:15.123"));
            ps.setNull(6, Types.VARCHAR);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                check("bind NUMBER", rs.getBigDecimal(1), new BigDecimal("-12345678901234567890.5"));
                check("bind VARCHAR2", rs.getString(2), "héllo");
                check("bind RAW", rs.getBytes(3), new byte[] {1, 2, 3});
                check("bind BINARY_DOUBLE", rs.getDouble(4), -2.5);
                check("bind TIMESTAMP", rs.getTimestamp(5), Timestamp.valueOf("2024-02-29 13:14:15.123"));
                rs.getString(6);
                check("bind NULL", rs.wasNull(), true);
            }
        }
    }

    static void plsql(Connection c) throws SQLException {
        try (CallableStatement cs = c.prepareCall("BEGIN TOY_PROC(?, ?, ?); END;")) {
            cs.setInt(1, 21);
            cs.registerOutParameter(2, Types.NUMERIC);
            cs.setString(3, "abc");
            cs.registerOutParameter(3, Types.VARCHAR);
            cs.execute();
            check("OUT bind", cs.getInt(2), 42);
            check("IN OUT bind", cs.getString(3), "abc!");
        }
    }

    static void dml(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO T (ID, NAME) VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, "one");
            check("insert count", ps.executeUpdate(), 1);
            ps.setInt(1, 2);
            ps.setString(2, "two");
            check("second insert count", ps.executeUpdate(), 1);
        }
        c.commit();
        try (Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO T (ID, NAME) VALUES (3, 'three')");
            c.rollback();
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM T")) {
                rs.next();
                check("committed rows", rs.getInt(1), 2);
            }
            check("update count", s.executeUpdate("UPDATE T SET NAME = NAME"), 3);
        }
    }

    static void errors(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeQuery("SELECT * FROM NOPE");
            check("missing table", "no error", "ORA-00942");
        } catch (SQLException e) {
            check("missing table code", e.getErrorCode(), 942);
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT DBTIMEZONE FROM DUAL")) {
            rs.next();
            check("session goes on", rs.getString(1), "+00:00");
        }
    }

    static void queryTimeout(Connection c) throws SQLException {
        long started = System.currentTimeMillis();
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            s.executeQuery("SELECT SLOW FROM DUAL");
            check("query timeout", "no error", "ORA-01013");
        } catch (SQLException e) {
            check("query timeout code", e.getErrorCode(), 1013);
        }
        check("timeout returned before the statement ended", System.currentTimeMillis() - started < 2500, true);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT DBTIMEZONE FROM DUAL")) {
            rs.next();
            check("usable after a timeout", rs.getString(1), "+00:00");
        }
    }

    public static void main(String[] a) throws Exception {
        String url = "jdbc:oracle:thin:@//" + a[0] + ":" + a[1] + "/" + a[2];
        Properties wrong = new Properties();
        wrong.setProperty("user", a[3]);
        wrong.setProperty("password", "wrong");
        try (Connection c = DriverManager.getConnection(url, wrong)) {
            check("wrong password", "connected", "ORA-01017");
        } catch (SQLException e) {
            check("wrong password code", e.getErrorCode(), 1017);
        }
        Properties p = new Properties();
        p.setProperty("user", a[3]);
        p.setProperty("password", a[4]);
        try (Connection c = DriverManager.getConnection(url, p)) {
            check("product version", c.getMetaData().getDatabaseProductVersion().contains("19.22.0.0.0"), true);
            allTypes(c);
            longTypes(c);
            numbersAndRows(c);
            bigLobs(c);
            binds(c);
            plsql(c);
            dml(c);
            errors(c);
            queryTimeout(c);
        }
        if (!failures.isEmpty()) {
            System.out.println("FAILED: " + failures.size() + " mismatches");
            System.exit(1);
        }
        System.out.println("JDBC thin client: ok");
    }
}
