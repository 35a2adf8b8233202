import Foundation

/// Secrets and queries read from standard input, so they never show in `ps` or shell history.
enum StandardInput {
    /// The most read: a query with the largest item data (1 MiB, base64) fits.
    static let maximumBytes = 4 << 20

    /// All of standard input, or a failure past the limit.
    static func read(what: String, limit: Int = maximumBytes) throws -> Data {
        let data = (try? FileHandle.standardInput.read(upToCount: limit + 1)) ?? Data()
        guard data.count <= limit else { throw fail("\(what) on standard input is longer than \(limit) bytes", code: 2) }
        return data
    }

    /// The first line of standard input, without its line break: a password.
    static func line(what: String) throws -> String {
        let text = String(decoding: try read(what: what), as: UTF8.self)
        return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
    }
}
