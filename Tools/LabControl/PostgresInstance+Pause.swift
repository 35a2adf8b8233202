import Foundation
import Glibc
public import PostgresInstance
import ServiceSupport

extension PostgresInstance {
    /// Freezes the server without closing anything (SIGSTOP to the postmaster, then to each of
    /// its processes): it answers nothing, accepts no connection and refuses none, as a server
    /// whose machine went silent. ``resume()`` thaws it; nothing is lost either way.
    public func pause() throws {
        guard let server = serverPID else { throw LabFailure("the server at \(folder.path) does not run") }
        // The postmaster first, so that it starts no process the list below would miss. Each
        // PostgreSQL process is a session of its own: no process group holds them all.
        guard kill(server, SIGSTOP) == 0 else { throw LabFailure("cannot stop PostgreSQL's postmaster (pid \(server))") }
        for member in ProcessTree.members(of: [server]) where member != server { kill(member, SIGSTOP) }
    }

    /// Thaws a server ``pause()`` froze (SIGCONT to its processes, the postmaster last); a
    /// server that runs is left as it is.
    public func resume() {
        guard let server = serverPID else { return }
        for member in ProcessTree.members(of: [server]) where member != server { kill(member, SIGCONT) }
        kill(server, SIGCONT)
    }
}
