import KeychainTypes

// The name and message of every status in SecBaseErrors.swift, for SecCopyErrorMessageString and
// for tools: read from OSStatusTable, the one table of statuses.

/// Each status with its name and message.
public let secErrorTable: [(name: String, status: OSStatus, message: String)] = OSStatusTable.entries.map {
    (name: $0.name, status: $0.code, message: $0.message)
}

/// The table by status, for lookups.
package let secErrorsByStatus: [OSStatus: (name: String, message: String)] = Dictionary(
    secErrorTable.map { ($0.status, (name: $0.name, message: $0.message)) },
    uniquingKeysWith: { first, _ in first }
)
