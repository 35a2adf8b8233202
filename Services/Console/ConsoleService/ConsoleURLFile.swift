public import Foundation

/// The file holding the console's URL with its token (`STATE/console.url` in a lab): written by
/// the console once it listens, created 0600 (its owner alone may read the token), replaced
/// atomically, so a reader sees the whole URL or none.
public enum ConsoleURLFile {
    /// Writes `url` and a newline to `file`.
    public static func write(_ url: String, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appending(path: ".\(file.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path]) }
        let bytes = Array((url + "\n").utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        // An existing temporary file keeps its mode: make sure of the owner's alone.
        let modeSet = fchmod(descriptor, 0o600) == 0
        close(descriptor)
        guard written == bytes.count, modeSet, rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
    }
}
