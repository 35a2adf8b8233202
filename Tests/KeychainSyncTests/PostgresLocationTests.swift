import CloudPostgres
import Testing

/// cloudd's `--store postgres://…`: the parts libpq's URLs have, defaults, a Unix socket, and
/// clear refusals, never a password in the URL (it would show in `ps`).
struct PostgresLocationTests {
    @Test func aURLGivesItsParts() throws {
        let location = try PostgresLocation(url: "postgres://kclab@127.0.0.1:5433/zones")
        #expect(location.user == "kclab" && location.host == "127.0.0.1" && location.port == 5433 && location.database == "zones")
        #expect(location.socketFolder == nil && !location.requireTLS && location.connections == 8)
        #expect(location.description == "postgres://kclab@127.0.0.1:5433/zones")
    }

    @Test func connectionsAreCloudsOwnOption() throws {
        let location = try PostgresLocation(url: "postgres://kclab@127.0.0.1:5433/zones?sslmode=require&connections=3")
        #expect(location.connections == 3 && location.requireTLS)
        #expect(location.description == "postgres://kclab@127.0.0.1:5433/zones?sslmode=require&connections=3")
        #expect(try PostgresLocation(url: "postgres://kclab@db/zones?connections=64").connections == 64)
    }

    @Test func defaultsAreLibpqs() throws {
        let location = try PostgresLocation(url: "postgresql://cloud@db.example")
        #expect(location.port == 5432 && location.database == "cloud" && location.host == "db.example")
        #expect(try PostgresLocation(url: "postgres:///zones").user == "postgres")
    }

    @Test func aSocketFolderAndTLS() throws {
        let socket = try PostgresLocation(url: "postgres://kclab@/postgres?host=/run/postgresql")
        #expect(socket.socketFolder == "/run/postgresql" && socket.description.contains("(socket)"))
        #expect(try PostgresLocation(url: "postgres://kclab@db:5432/x?sslmode=require").requireTLS)
    }

    @Test func aPrimaryAndItsStandbys() throws {
        let location = try PostgresLocation(url: "postgres://kclab@127.0.0.1:5433,127.0.0.1:5434,[::1]:5435/zones?target_session_attrs=read-write")
        #expect(location.servers.map(\.description) == ["127.0.0.1:5433", "127.0.0.1:5434", "[::1]:5435"])
        #expect(location.user == "kclab" && location.database == "zones")
        #expect(location.description == "postgres://kclab@127.0.0.1:5433,127.0.0.1:5434,[::1]:5435/zones")
        #expect(try location.servers(password: nil).configurations.count == 3)
        #expect(try PostgresLocation(url: "postgres://db1:5432,db2:6543").servers.map(\.port) == [5432, 6543])
    }

    @Test func refusalsSayWhy() {
        let cases: [(String, String)] = [
            ("postgres://kclab:secret@127.0.0.1/postgres", "PGPASSWORD"),
            ("mysql://kclab@127.0.0.1/x", "is not a postgres://"),
            ("postgres://kclab@127.0.0.1/x?sslmode=verify-full", "sslmode 'verify-full'"),
            ("postgres://kclab@127.0.0.1/x?application_name=a", "'application_name='"),
            ("postgres://kclab@127.0.0.1/x?host=relative", "absolute path"),
            ("postgres://kclab@/x?host=/run&sslmode=require", "Unix socket takes no TLS"),
            ("postgres://kclab@127.0.0.1/" + String(repeating: "x", count: 3000), "longer than 2048 bytes"),
            ("postgres://kclab@127.0.0.1:5432,127.0.0.1/x", "needs HOST:PORT"),
            ("postgres://kclab@127.0.0.1:5432,:5433/x", "has no host"),
            ("postgres://kclab@127.0.0.1:5432,127.0.0.1:99999/x", "port must be 1 to 65535"),
            ("postgres://kclab@" + Array(repeating: "h:1", count: 9).joined(separator: ",") + "/x", "more than 8 servers"),
            ("postgres://kclab@127.0.0.1/x?target_session_attrs=any", "target_session_attrs can only be read-write"),
            ("postgres://kclab@a:1,b:2/x?host=/run", "a Unix socket is one server"),
            ("postgres://kclab@127.0.0.1/x?connections=0", "connections= must be a whole number from 1 to 64"),
            ("postgres://kclab@127.0.0.1/x?connections=65", "connections= must be a whole number from 1 to 64"),
            ("postgres://kclab@127.0.0.1/x?connections=many", "connections= must be a whole number from 1 to 64"),
        ]
        for (url, reason) in cases {
            #expect(throws: PostgresLocation.Invalid.self, "\(url)") { try PostgresLocation(url: url) }
            do {
                _ = try PostgresLocation(url: url)
            } catch {
                #expect(error.description.contains(reason), "\(url): \(error.description)")
                #expect(!error.description.contains("secret"), "a password is never repeated")
            }
        }
    }
}
