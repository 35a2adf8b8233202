import CloudPostgres
import Testing

/// cloudd's `--store postgres://…`: the parts libpq's URLs have, defaults, a Unix socket, and
/// clear refusals, never a password in the URL (it would show in `ps`).
struct PostgresLocationTests {
    @Test func aURLGivesItsParts() throws {
        let location = try PostgresLocation(url: "postgres://kclab@127.0.0.1:5433/zones")
        #expect(location.user == "kclab" && location.host == "127.0.0.1" && location.port == 5433 && location.database == "zones")
        #expect(location.socketFolder == nil && !location.requireTLS)
        #expect(location.description == "postgres://kclab@127.0.0.1:5433/zones")
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

    @Test func refusalsSayWhy() {
        let cases: [(String, String)] = [
            ("postgres://kclab:secret@127.0.0.1/postgres", "PGPASSWORD"),
            ("mysql://kclab@127.0.0.1/x", "is not a postgres://"),
            ("postgres://kclab@127.0.0.1/x?sslmode=verify-full", "sslmode 'verify-full'"),
            ("postgres://kclab@127.0.0.1/x?application_name=a", "'application_name='"),
            ("postgres://kclab@127.0.0.1/x?host=relative", "absolute path"),
            ("postgres://kclab@/x?host=/run&sslmode=require", "Unix socket takes no TLS"),
            ("postgres://kclab@127.0.0.1/" + String(repeating: "x", count: 3000), "longer than 2048 bytes"),
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
