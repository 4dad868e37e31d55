import java.sql.*;

/**
 * Oracle's JDBC thin driver against `oracle-cdc emulator serve`.
 * usage: java -cp ojdbc11.jar:. EmulatorJdbc HOST:PORT/SERVICE USER PASSWORD SCN
 * Prints V$DATABASE's name and CURRENT_SCN and the number and key sum of HR.EMPLOYEES's rows AS OF
 * SCN, as one JSON object.
 */
public class EmulatorJdbc {
    public static void main(String[] args) throws Exception {
        String url = "jdbc:oracle:thin:@//" + args[0];
        try (Connection c = DriverManager.getConnection(url, args[1], args[2])) {
            String name;
            long scn;
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT NAME, CURRENT_SCN FROM V$DATABASE")) {
                r.next();
                name = r.getString(1);
                scn = r.getLong(2);
            }
            long rows = 0, sum = 0;
            try (PreparedStatement p = c.prepareStatement("SELECT ID FROM HR.EMPLOYEES AS OF SCN ? ORDER BY ID")) {
                p.setLong(1, Long.parseLong(args[3]));
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        rows++;
                        sum += r.getLong(1);
                    }
                }
            }
            System.out.println("{\"database\":\"" + name + "\",\"current_scn\":" + scn + ",\"rows\":" + rows + ",\"id_sum\":" + sum + "}");
        }
    }
}
