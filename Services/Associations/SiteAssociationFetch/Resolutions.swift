/// Where to connect for a host instead of asking DNS, as curl's `--resolve` says it:
/// `HOST=ADDR[:PORT]` entries, read once for kclab, the CDN and associationd.
public enum Resolutions {
    /// host (lower-cased) → (address, port).
    public typealias Map = [String: (address: String, port: Int?)]

    /// Reads `HOST=ADDR[:PORT]` entries; a malformed one is an error naming it.
    public static func parse(_ entries: [String]) throws(ResolutionError) -> Map {
        var map: Map = [:]
        for entry in entries {
            let sides = entry.split(separator: "=", maxSplits: 1).map(String.init)
            let target = sides.count == 2 ? sides[1].split(separator: ":").map(String.init) : []
            guard sides.count == 2, !sides[0].isEmpty, (1...2).contains(target.count), !target[0].isEmpty,
                target.count == 1 || Int(target[1]).map({ (1...65535).contains($0) }) == true
            else { throw ResolutionError(entry: entry) }
            map[sides[0].lowercased()] = (target[0], target.count == 2 ? Int(target[1]) : nil)
        }
        return map
    }
}

/// A `--resolve` entry that is not `HOST=ADDR[:PORT]`.
public struct ResolutionError: Error, CustomStringConvertible {
    public let entry: String
    public var description: String { "--resolve must be HOST=ADDR[:PORT], not '\(entry)'" }
}
