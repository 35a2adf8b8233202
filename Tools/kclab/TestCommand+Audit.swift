import Decisions
import Foundation
import KeychainAPI
import KeychainItems
import ServiceSupport

/// What `kclab test` reads of keychaind's decisions for one run.
typealias KeychainRunAudit = RunAudit<SecItemError.Rule>

extension TestCommand {
    /// keychaind's audit of one device, read through its operator route.
    struct AuditSource: Sendable {
        let client: ServiceClient
        let udid: String

        /// keychaind's latest sequence number: a run that starts now is what comes after it.
        func latest() async throws -> Int64 {
            try await get("limit=1").latest
        }

        /// A page of the device's entries after sequence number `after`.
        func page(after: Int64) async throws -> KeychainAPI.AuditEntries {
            try await get("after=\(after)&limit=\(TestReport.pageSize)")
        }

        private func get(_ query: String) async throws -> KeychainAPI.AuditEntries {
            try await client.get(
                "/v1/admin/audit?device=\(QueryText.escaped(udid))&\(query)",
                as: KeychainAPI.AuditEntries.self,
                decoder: KeychainAPI.AdminItems.decoder()
            )
        }
    }

    /// How often the audit is read while the command runs. keychaind keeps its latest 4096
    /// entries or more: only a suite of thousands of calls a second outruns this.
    static let auditReadInterval = Duration.milliseconds(500)

    /// Runs `command` (one device's run, which blocks on its socket until the tests end) on a
    /// thread of its own, reading the run's audit from `source` meanwhile, so that keychaind's
    /// memory drops none of it before it is read; then reads it to the end. The command's status
    /// and what the audit said of `app`.
    static func reading(
        _ source: AuditSource,
        app: String,
        during command: @escaping @Sendable () throws -> Int32
    ) async throws -> (status: Int32, audit: KeychainRunAudit) {
        let unread = KeychainRunAudit(app: app, start: try await source.latest())
        return try await withThrowingTaskGroup(of: KeychainRunAudit.self) { group in
            group.addTask {
                var audit = unread
                // Until cancelled, when the sleep throws. A failed read is tried again; the
                // last one, after the command, reports its error.
                while (try? await Task.sleep(for: Self.auditReadInterval)) != nil {
                    try? await audit.readToEnd { try await source.page(after: $0) }
                }
                return audit
            }
            let status: Int32
            do {
                status = try await Self.onThread(command)
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
            var audit = try await group.next() ?? unread
            try await audit.readToEnd { try await source.page(after: $0) }
            return (status, audit)
        }
    }

    /// Runs `body` on a thread of its own, and waits for it without holding one of the few
    /// threads that tasks share.
    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
