import Foundation

/// An app's secret argument: written `-`, it is the first line of standard input instead, so the
/// secret never shows in the app's arguments (`ps`, `/proc/PID/cmdline`). The lab's device gives
/// an app what `kclab app run --stdin` (or the demo) sends it.
public enum SecretArgument {
    /// The most read from standard input.
    public static let maximumBytes = 65_536

    /// `value`, or the first line of standard input when it is `-`.
    public static func resolve(_ value: String) -> String {
        guard value == "-" else { return value }
        let data = (try? FileHandle.standardInput.read(upToCount: maximumBytes)) ?? Data()
        let text = String(decoding: data, as: UTF8.self)
        return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
    }
}
