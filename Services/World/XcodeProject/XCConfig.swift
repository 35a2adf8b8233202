public import Foundation

/// A build configuration file (`.xcconfig`): `NAME = VALUE` lines, conditional ones too
/// (`NAME[sdk=iphoneos*][arch=arm64][config=Debug] = VALUE`, kept under that key for
/// ``BuildSettings`` to choose), a value going on after a trailing `\`, a trailing `;` dropped,
/// `//` comments, and `#include "other.xcconfig"` (`#include?` when the file may be missing),
/// read as Xcode reads them: a later line wins, an included file's lines count where it is
/// included. Includes nest at most ``maximumDepth`` deep, at most ``maximumFiles`` files are
/// opened, and all together weigh at most ``maximumSize``, so a loop of includes or a huge file
/// ends with a problem, not a stall.
public struct XCConfig: Sendable {
    public static let maximumDepth = 16
    public static let maximumFiles = 256
    public static let maximumSize = 4 << 20

    /// The settings, the last line of each name winning.
    public private(set) var settings: [String: String] = [:]
    /// What could not be read, one sentence each (a missing include, a loop, a line that is no setting).
    public private(set) var problems: [String] = []
    private var read = 0
    private var opened = 0

    /// Reads `url` and what it includes.
    public init(contentsOf url: URL) {
        include(url, depth: 0, optional: false)
    }

    /// Reads `text` as the file at `url` (includes are relative to its folder).
    public init(_ text: String, at url: URL) {
        parse(text, at: url, depth: 0)
    }

    /// Keeps at most 64 problems, each once: a file of nothing but bad lines says so without growing.
    private mutating func problem(_ sentence: String) {
        if problems.count < 64, !problems.contains(sentence) { problems.append(sentence) }
    }

    private mutating func include(_ url: URL, depth: Int, optional: Bool) {
        guard depth < Self.maximumDepth else {
            problem("\(url.lastPathComponent): includes nested deeper than \(Self.maximumDepth) (a loop?)")
            return
        }
        guard opened < Self.maximumFiles else {
            problem("\(url.lastPathComponent): more than \(Self.maximumFiles) files included (a loop?)")
            return
        }
        opened += 1
        guard read < Self.maximumSize else {
            problem("\(url.lastPathComponent): the configuration files weigh more than \(Self.maximumSize) bytes together")
            return
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            if !optional { problem("\(url.path) cannot be read") }
            return
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: Self.maximumSize - read + 1)) ?? Data()
        read += data.count
        guard read <= Self.maximumSize else {
            problem("\(url.lastPathComponent): the configuration files weigh more than \(Self.maximumSize) bytes together")
            return
        }
        parse(String(decoding: data, as: UTF8.self), at: url, depth: depth)
    }

    private mutating func parse(_ text: String, at url: URL, depth: Int) {
        // A value that ends in `\` goes on on the next line, joined by a space, as Xcode reads it.
        var continued: (name: String, chunks: [String])? = nil
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if let comment = line.firstRange(of: "//") { line = line[..<comment.lowerBound] }
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if let pending = continued {
                continued = nil
                assign(pending.name, pending.chunks, trimmed.isEmpty ? nil : trimmed, continuing: &continued)
                continue
            }
            guard !trimmed.isEmpty else { continue }
            if trimmed.hasPrefix("#include") {
                let optional = trimmed.hasPrefix("#include?")
                guard let open = trimmed.firstIndex(of: "\""), let close = trimmed.lastIndex(of: "\""), open < close else {
                    problem("\(url.lastPathComponent):\(number + 1): an #include without a \"path\"")
                    continue
                }
                let path = String(trimmed[trimmed.index(after: open)..<close])
                let target = path.hasPrefix("/") ? URL(fileURLWithPath: path) : url.deletingLastPathComponent().appending(path: path)
                include(target, depth: depth + 1, optional: optional)
                continue
            }
            guard let equals = Self.assignment(in: trimmed) else {
                problem("\(url.lastPathComponent):\(number + 1): not a NAME = VALUE line")
                continue
            }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            // One spelling of a conditional key, `NAME[sdk=iphoneos*]`, however the file spaces it.
            let key = ConditionalSetting(name)?.key ?? name
            assign(key, [], trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces), continuing: &continued)
        }
        if let pending = continued { settings[pending.name] = pending.chunks.joined(separator: " ") }
    }

    /// Sets `name` to its `chunks` so far and `chunk` (nil: the value ended on the line before),
    /// or, when `chunk` ends in `\`, keeps them in `continued` for the next line. A trailing `;`
    /// is dropped, as Xcode drops it.
    private mutating func assign(
        _ name: String,
        _ chunks: [String],
        _ chunk: String?,
        continuing continued: inout (name: String, chunks: [String])?
    ) {
        guard var chunk else {
            settings[name] = chunks.joined(separator: " ")
            return
        }
        if chunk.hasSuffix(";") { chunk = String(chunk.dropLast()).trimmingCharacters(in: .whitespaces) }
        guard chunk.hasSuffix("\\") else {
            settings[name] = (chunks + [chunk]).joined(separator: " ")
            return
        }
        let head = String(chunk.dropLast()).trimmingCharacters(in: .whitespaces)
        continued = (name, head.isEmpty ? chunks : chunks + [head])
    }

    /// The `=` of a `NAME = VALUE` line: the first one outside the key's conditions, so that
    /// `NAME[sdk=iphoneos*] = VALUE` sets `NAME[sdk=iphoneos*]`.
    private static func assignment(in line: String) -> String.Index? {
        var inCondition = false
        for index in line.indices {
            switch line[index] {
            case "[": inCondition = true
            case "]": inCondition = false
            case "=" where !inCondition: return index
            default: continue
            }
        }
        return nil
    }
}
