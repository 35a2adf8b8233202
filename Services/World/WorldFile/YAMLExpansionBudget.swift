// libyaml, as Yams embeds it: its event parser sees an alias before anything is expanded.
import CYaml

/// The bound on what a world file's anchors and aliases may expand to. Yams shares an anchored
/// node between its aliases, but everything that walks the document (reading the world, hashing
/// a key) sees the expansion, so 600 bytes of nested aliases can stand for billions of nodes. One
/// pass over libyaml's events, before the document is composed, weighs the expansion (a scalar
/// weighs its bytes plus one, a list or mapping one, an alias what its anchor weighed) and stops
/// at the alias that goes past the budget, naming its line and column. Linear in the file.
public struct YAMLExpansionBudget {
    /// The expansion allowed for a file of `size` bytes: 100 times it, never more than ten million.
    static func limit(forFileSize size: Int) -> Int { min(100 * max(size, 1_000), 10_000_000) }
    /// Nesting deeper than this is refused before the composer recurses into it.
    static let maximumDepth = 512

    public struct Exceeded: Error, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public let message: String
        public var description: String { "\(line):\(column): \(message)" }
    }

    /// Throws at the first alias that takes the document past the limit, or the first node nested
    /// too deeply; syntax errors are left for the composer, which names them better.
    public static func check(_ text: String) throws(Exceeded) {
        var bytes = Array(text.utf8)
        let limit = limit(forFileSize: bytes.count)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        var anchors: [String: Int] = [:]
        // Each open list or mapping: its anchor and its weight so far.
        var open: [(anchor: String?, weight: Int)] = []
        var expanded = 0
        try bytes.withUnsafeMutableBufferPointer { (buffer) throws(Exceeded) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                let mark = event.start_mark
                var weight = 0
                switch event.type {
                case YAML_STREAM_END_EVENT: return
                case YAML_SCALAR_EVENT:
                    weight = 1 + event.data.scalar.length
                    if let anchor = name(event.data.scalar.anchor) { anchors[anchor] = weight }
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    let anchor = name(event.type == YAML_SEQUENCE_START_EVENT ? event.data.sequence_start.anchor : event.data.mapping_start.anchor)
                    open.append((anchor, 1))
                    expanded += 1
                    guard open.count <= maximumDepth else {
                        throw Exceeded(
                            line: Int(mark.line) + 1,
                            column: Int(mark.column) + 1,
                            message: "lists and mappings nested deeper than \(maximumDepth) levels"
                        )
                    }
                    continue
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let closed = open.popLast() else { continue }
                    if let anchor = closed.anchor { anchors[anchor] = closed.weight }
                    if !open.isEmpty { open[open.count - 1].weight += closed.weight }
                    continue
                case YAML_ALIAS_EVENT:
                    weight = name(event.data.alias.anchor).flatMap { anchors[$0] } ?? 0
                    if expanded + weight > limit {
                        throw Exceeded(
                            line: Int(mark.line) + 1,
                            column: Int(mark.column) + 1,
                            message: "this alias takes the document past \(limit) nodes and bytes once expanded "
                                + "(100 times the file, at most ten million): aliases may repeat, not multiply"
                        )
                    }
                    expanded += weight
                    if !open.isEmpty { open[open.count - 1].weight += weight }
                    continue
                default: continue
                }
                expanded += weight
                if !open.isEmpty { open[open.count - 1].weight += weight }
            }
        }
    }

    private static func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        anchor.map { String(cString: $0) }
    }
}
